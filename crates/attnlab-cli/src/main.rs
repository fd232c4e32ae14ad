//! `attnlab`: attnlab's command line.
//!
//! `attnlab compute FILE|-` reads one `attnlab-tensors/1` JSON document (Q, K, V per head,
//! score function, temperature, attention kind, masks, optional W^O) and prints the result
//! as JSON. `attnlab block FILE|- [--decode]` reads one `attnlab-block/1` document (a stack
//! of Transformer layers and its input) and prints every layer's attention and output,
//! computed all at once or, with `--decode`, one position at a time with a KV cache. `attnlab render --state LINK …` draws one of the app's figures to an SVG file.
//! `attnlab model --text T` runs the pretrained model (see `model.rs`).
//! Bad input exits with status 2 and one line naming the field and what is wrong.
//!
//! Each subcommand lives in its own module beside its arguments (a `clap::Args` struct)
//! and a `run` function returning `Result<(), Failure>`; [`Command`] lists them.

mod block;
mod compute;
mod input;
mod model;
mod render;
mod tensors;

use std::ffi::OsString;
use std::io;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};

/// Why a subcommand did not finish.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: one line naming what is wrong (exit status 2).
    Input(String),
    /// Standard output could not be written, e.g. a closed pipe (exit status 1).
    Output(io::Error),
}

impl From<String> for Failure {
    fn from(line: String) -> Failure {
        Failure::Input(line)
    }
}

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "attnlab",
    version,
    about = "attnlab — Attention Lab on the command line",
    long_about = "attnlab — Attention Lab on the command line: compute attention for tensors \
                  you bring, run a stack of Transformer layers you bring, draw the app's \
                  figures from its link, and read a pretrained model's attention.",
    after_help = "Bad input exits with status 2 and one line on standard error naming what is \
                  wrong, e.g.\n  heads[0].k[3]: expected 4 numbers, found 5",
    subcommand_required = true,
    arg_required_else_help = true,
    args_override_self = true
)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, each with its arguments (their help is on the argument structs).
#[derive(Debug, Subcommand)]
enum Command {
    Compute(compute::ComputeArgs),
    Block(block::BlockArgs),
    Render(render::RenderArgs),
    /// Run a text or a pair through a pretrained model (all-MiniLM-L6-v2 or
    /// multilingual-E5-small, after `cargo xtask model`) and print its tokens, every
    /// head's attention and the embedding as JSON
    Model(model::ModelArgs),
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) => return refuse(&e, argv.get(1)),
    };
    let outcome = match &cli.command {
        Command::Compute(args) => compute::run(args),
        Command::Block(args) => block::run(args),
        Command::Render(args) => render::run(args),
        Command::Model(args) => model::run_command(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(line)) => {
            eprintln!("{}", line.replace('\n', " "));
            ExitCode::from(2)
        }
        Err(Failure::Output(_)) => ExitCode::from(1),
    }
}

/// Ends a command line that clap did not accept: help and version as clap prints them,
/// everything else as one line on standard error with status 2. `first` is the first
/// argument, which names the subcommand when there is one.
fn refuse(e: &clap::Error, first: Option<&OsString>) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Help asked for goes to standard output (status 0); help instead of a
            // missing subcommand goes to standard error (status 2).
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        _ => {}
    }
    let mut top = Cli::command();
    top.build();
    let sub = first
        .and_then(|a| a.to_str())
        .and_then(|name| top.find_subcommand(name));
    eprintln!("{}", one_line(e, &top, sub));
    ExitCode::from(2)
}

/// The one line for a refused command line: the subcommand, the option and what is wrong.
fn one_line(e: &clap::Error, top: &clap::Command, sub: Option<&clap::Command>) -> String {
    let prefix = sub.map_or(String::new(), |s| format!("{}: ", s.get_name()));
    let help = sub.map_or("attnlab --help".to_string(), |s| {
        format!("attnlab {} --help", s.get_name())
    });
    let cmd = sub.unwrap_or(top);
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        Some(ContextValue::Strings(v)) => v.first().map(String::as_str),
        _ => None,
    };
    let arg = text(ContextKind::InvalidArg).and_then(|shown| find_arg(cmd, shown));
    match (e.kind(), arg) {
        (ErrorKind::InvalidSubcommand, _) => {
            let names: Vec<&str> = top
                .get_subcommands()
                .map(clap::Command::get_name)
                .filter(|&name| name != "help")
                .collect();
            format!(
                "unknown command {:?} ({}; see {help})",
                text(ContextKind::InvalidSubcommand).unwrap_or_default(),
                either(&names)
            )
        }
        (ErrorKind::UnknownArgument, _) => {
            let given = text(ContextKind::InvalidArg).unwrap_or_default();
            let what = if given.starts_with('-') {
                "unknown option"
            } else {
                "unexpected argument"
            };
            format!("{prefix}{what} {given:?} (see {help})")
        }
        (ErrorKind::MissingRequiredArgument, Some(arg)) => {
            let about = arg.get_help().map(|h| lower_first(&h.to_string()));
            let about = about.map_or(String::new(), |h| format!(" ({h})"));
            format!("{prefix}{} is needed{about}", spelled(arg))
        }
        (ErrorKind::InvalidValue, Some(arg)) => {
            let value = text(ContextKind::InvalidValue).unwrap_or_default();
            if value.is_empty() {
                return format!("{}: a value is needed", flag(arg));
            }
            let valid: Vec<&str> = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v.iter().map(String::as_str).collect(),
                _ => Vec::new(),
            };
            let noun = value_name(arg).to_lowercase();
            format!(
                "{}: unknown {noun} {value:?} ({})",
                flag(arg),
                either(&valid)
            )
        }
        (ErrorKind::ValueValidation, Some(arg)) => match std::error::Error::source(e) {
            Some(why) => format!("{}: {why}", flag(arg)),
            None => format!("{}: {}", flag(arg), clap_line(e)),
        },
        _ => format!("{prefix}{}", clap_line(e)),
    }
}

/// The argument of `cmd` (built) that clap's messages show as `shown` (`--size <WIDTHxHEIGHT>`).
fn find_arg<'a>(cmd: &'a clap::Command, shown: &str) -> Option<&'a clap::Arg> {
    cmd.get_arguments().find(|a| a.to_string() == shown)
}

/// An argument as messages name it: `--state`, or `FILE` for a positional one.
fn flag(arg: &clap::Arg) -> String {
    match arg.get_long() {
        Some(long) => format!("--{long}"),
        None => value_name(arg),
    }
}

/// An argument with its value: `--state LINK`, or `FILE` for a positional one.
fn spelled(arg: &clap::Arg) -> String {
    match arg.get_long() {
        Some(long) => format!("--{long} {}", value_name(arg)),
        None => value_name(arg),
    }
}

fn value_name(arg: &clap::Arg) -> String {
    arg.get_value_names()
        .and_then(|names| names.first())
        .map_or_else(
            || arg.get_id().to_string().to_uppercase(),
            |n| n.to_string(),
        )
}

/// "a", "a or b", "a, b or c".
fn either(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A help sentence as the middle of a line: "The SVG file" → "the SVG file".
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() || !second.is_alphabetic() => first
            .to_lowercase()
            .chain(text[first.len_utf8()..].chars())
            .collect(),
        _ => text.to_string(),
    }
}

/// The first line of clap's own message, without its `error: ` label.
fn clap_line(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one line for `args`, as `main` would print it.
    fn refused(args: &[&str]) -> String {
        let argv: Vec<OsString> = std::iter::once("attnlab")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        let e = Cli::try_parse_from(&argv).unwrap_err();
        let mut top = Cli::command();
        top.build();
        let sub = argv
            .get(1)
            .and_then(|a| a.to_str())
            .and_then(|n| top.find_subcommand(n));
        one_line(&e, &top, sub)
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn refusals_are_one_line_naming_the_option() {
        let cases: [(&[&str], &str); 11] = [
            (
                &["frobnicate"],
                "unknown command \"frobnicate\" (compute, block, render or model; see attnlab --help)",
            ),
            (
                &["compute"],
                "compute: FILE is needed (the attnlab-tensors/1 JSON document to read, or - for standard input)",
            ),
            (
                &["compute", "a.json", "b.json"],
                "compute: unexpected argument \"b.json\" (see attnlab compute --help)",
            ),
            (
                &["compute", "--fast", "a.json"],
                "compute: unknown option \"--fast\" (see attnlab compute --help)",
            ),
            (
                &["block"],
                "block: FILE is needed (the attnlab-block/1 JSON document to read, or - for standard input)",
            ),
            (
                &["block", "--cache", "a.json"],
                "block: unknown option \"--cache\" (see attnlab block --help)",
            ),
            (
                &["render", "-o", "-"],
                "render: --state LINK is needed (the app's link from \"copy link\": the whole link, or its part after #)",
            ),
            (
                &["render", "--state", "#v1.e30", "-o"],
                "--output: a value is needed",
            ),
            (
                &["render", "--state", "#v1.e30", "--figure", "pie", "-o", "-"],
                "--figure: unknown figure \"pie\" (heatmap, average or difference)",
            ),
            (
                &["render", "--state", "#v1.e30", "--head", "x", "-o", "-"],
                "--head: \"x\" is not a head number (0, 1, …) or \"average\"",
            ),
            (
                &["render", "--state", "#v1.e30", "--size", "10x10", "-o", "-"],
                "--size: \"10x10\" is not WIDTHxHEIGHT with both from 200 to 8000, e.g. 1100x760",
            ),
        ];
        for (args, want) in cases {
            assert_eq!(refused(args), want, "{args:?}");
        }
    }

    #[test]
    fn a_repeated_option_keeps_the_last_value() {
        let cli = Cli::try_parse_from([
            "attnlab", "render", "--state", "a", "--state", "b", "-o", "x", "-o", "-",
        ])
        .unwrap();
        let Command::Render(args) = cli.command else {
            panic!("render parsed as {:?}", cli.command);
        };
        assert_eq!(
            (args.state.as_str(), args.output.to_str()),
            ("b", Some("-"))
        );
    }

    #[test]
    fn lists_and_sentences() {
        assert_eq!(either(&["a", "b", "c"]), "a, b or c");
        assert_eq!(either(&["a"]), "a");
        assert_eq!(lower_first("The SVG file"), "the SVG file");
        assert_eq!(lower_first("SVG file"), "SVG file");
    }
}
