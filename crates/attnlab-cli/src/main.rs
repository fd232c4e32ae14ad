//! `attnlab`: attnlab's command line.
//!
//! `attnlab compute FILE|-` reads one `attnlab-tensors/1` JSON document (Q, K, V per head,
//! score function, temperature, attention kind, masks, optional W^O) and prints the result
//! as JSON. `attnlab render --state LINK …` draws one of the app's figures to an SVG file.
//! `attnlab model --text T` runs the pretrained model (see `model.rs`).
//! Bad input exits with status 2 and one line naming the field and what is wrong.

mod model;
mod render;
mod tensors;

use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
attnlab — Attention Lab on the command line

usage:
  attnlab compute FILE     compute attention for an attnlab-tensors/1 JSON document
  attnlab compute -        … read it from standard input
  attnlab render --state LINK [--figure heatmap|average|difference]
                 [--variant A] [--against B] [--head N|average] [--size 1100x760] -o FILE
                           draw one of the app's figures as SVG (-o - for standard
                           output); LINK is the app's link, or its part after #
  attnlab model --text TEXT [--weights int8|f32] [--asset PATH] [--model-dir DIR]
                [--export-tensors L,H]
                           run all-MiniLM-L6-v2 (after `cargo xtask model`): tokens,
                           ids, every head's attention and the embedding as JSON
                           (attnlab-model/1), or head H of layer L's Q, K, V as an
                           attnlab-tensors/1 document (attnlab model --help)
  attnlab --help | --version

The result (attnlab-result/1) is printed as JSON on standard output. Bad input exits
with status 2 and one line on standard error naming the field, e.g.
  heads[0].k: row 3 has 5 values, expected 4";

fn read_input(source: &str) -> Result<String, String> {
    let mut text = String::new();
    if source == "-" {
        io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("input: cannot read standard input ({e})"))?;
    } else {
        text = std::fs::read_to_string(source)
            .map_err(|e| format!("input: cannot read {source} ({e})"))?;
    }
    Ok(text)
}

fn compute(source: &str) -> Result<String, String> {
    let text = read_input(source)?;
    let doc = tensors::parse(&text).map_err(|e| e.to_string())?;
    for field in &doc.unknown_fields {
        eprintln!("warning: ignoring unknown field {field}");
    }
    let result = doc
        .problem
        .compute()
        .map_err(|e| tensors::FieldError::from(e).to_string())?;
    Ok(tensors::result_json(&doc, &result).to_string())
}

/// `attnlab model …`: its arguments parsed by clap (`model::ModelArgs`).
fn model_command(args: &[String]) -> Result<String, String> {
    #[derive(clap::Parser)]
    #[command(
        name = "attnlab model",
        about = "Run a text through the pretrained model"
    )]
    struct Cli {
        #[command(flatten)]
        args: model::ModelArgs,
    }
    // The first word names the command in usage and errors: "attnlab model".
    let words = std::iter::once("attnlab model").chain(args[1..].iter().map(String::as_str));
    let cli = <Cli as clap::Parser>::try_parse_from(words).unwrap_or_else(|e| e.exit());
    model::run(&cli.args).map(|doc| doc.to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["compute", source] => compute(source),
        ["model", ..] => model_command(&args),
        ["render", rest @ ..] => match render::run(rest) {
            Ok(warnings) => {
                for w in warnings {
                    eprintln!("{w}");
                }
                return ExitCode::SUCCESS;
            }
            Err(line) => Err(line),
        },
        ["--help" | "-h" | "help"] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        ["--version" | "-V"] => {
            println!("attnlab {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(json) => {
            let mut out = io::stdout().lock();
            if writeln!(out, "{json}").is_err() {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(line) => {
            eprintln!("{}", line.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
