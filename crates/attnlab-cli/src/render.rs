//! `attnlab render`: the app's figures written to SVG files, from the app's link.
//!
//! The state is the app's URL fragment (with or without `#`, or the whole link); the
//! numbers come from the same `attnlab-lab` pipeline as the app, and the figure from the
//! same `attnlab_plot::draw_heatmap`, here on plotters' SVG backend (`attnlab_plot::export`, which the app's SVG export calls too).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use attnlab_core::CoreError;
use attnlab_lab::compute::{LabError, Pipeline, Which};
use attnlab_lab::figure::FigureRequest;
use attnlab_lab::{CompareWhat, LabState};
use attnlab_plot::Heatmap;

use crate::Failure;

/// The figures `render` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Figure {
    /// One head of one variant
    Heatmap,
    /// The head average of one variant
    Average,
    /// --variant minus --against, on a diverging scale
    Difference,
}

/// A figure's size in pixels, written `WIDTHxHEIGHT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Width in pixels, from 200 to 8000.
    pub width: u32,
    /// Height in pixels, from 200 to 8000.
    pub height: u32,
}

impl FromStr for Size {
    type Err = String;

    fn from_str(text: &str) -> Result<Size, String> {
        text.split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .filter(|&(w, h): &(u32, u32)| (200..=8000).contains(&w) && (200..=8000).contains(&h))
            .map(|(width, height)| Size { width, height })
            .ok_or_else(|| {
                format!("{text:?} is not WIDTHxHEIGHT with both from 200 to 8000, e.g. 1100x760")
            })
    }
}

/// `--head`'s value: a head number or `average`.
fn parse_head(text: &str) -> Result<Which, String> {
    match text {
        "average" => Ok(Which::Average),
        n => n
            .parse()
            .map(Which::Head)
            .map_err(|_| format!("{n:?} is not a head number (0, 1, …) or \"average\"")),
    }
}

/// The arguments of `attnlab render`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Draw one of the app's figures as SVG, from the app's link",
    long_about = "Draw one of the app's figures as SVG, for slides, from the link the app's \
                  \"copy link\" gives. The numbers and the drawing are the app's own.\n\n\
                  A link with values out of range is repaired with a warning on standard error."
)]
pub struct RenderArgs {
    /// The app's link from "copy link": the whole link, or its part after #
    #[arg(short, long, value_name = "LINK", allow_hyphen_values = true)]
    pub state: String,
    /// The figure to draw
    #[arg(short, long, value_enum, default_value_t = Figure::Heatmap)]
    pub figure: Figure,
    /// The variant to draw (A, B, …) [default: the one the link had selected]
    #[arg(short, long, value_name = "NAME", allow_hyphen_values = true)]
    pub variant: Option<String>,
    /// For difference: the variant to subtract [default: the other one the link compared]
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    pub against: Option<String>,
    /// The head, numbered from 0, or "average" for a difference of the head averages
    /// [default: the link's selected head; for difference, what the link's comparison
    /// compared]
    #[arg(long, value_name = "N|average", value_parser = parse_head, allow_hyphen_values = true)]
    pub head: Option<Which>,
    /// The SVG's width and height in pixels, each from 200 to 8000
    #[arg(
        long,
        value_name = "WIDTHxHEIGHT",
        default_value = "1100x760",
        allow_hyphen_values = true
    )]
    pub size: Size,
    /// The SVG file to write, or - for standard output
    #[arg(short, long, value_name = "FILE", allow_hyphen_values = true)]
    pub output: PathBuf,
}

/// Runs `attnlab render`: the figure goes to its file (or standard output), then any
/// warnings about the link to standard error.
pub fn run(args: &RenderArgs) -> Result<(), Failure> {
    let decoded =
        attnlab_link::decode(&args.state).map_err(|e| format!("--state: {}", e.reason()))?;
    let heatmap = build(&decoded.state, args)?;
    let svg = draw(&heatmap, args.size)?;
    if args.output == Path::new("-") {
        io::stdout()
            .lock()
            .write_all(svg.as_bytes())
            .map_err(Failure::Output)?;
    } else {
        std::fs::write(&args.output, svg)
            .map_err(|e| format!("-o: cannot write {} ({e})", args.output.display()))?;
    }
    for repair in &decoded.repairs {
        eprintln!("warning: the state was repaired: {repair}");
    }
    Ok(())
}

/// The index of the variant named by `flag`'s value, or the default.
fn variant_index(
    state: &LabState,
    flag: &str,
    name: Option<&str>,
    default: Option<usize>,
) -> Result<usize, String> {
    match name {
        Some(name) => state.variant_index(name).ok_or_else(|| {
            let names: Vec<&str> = state.variants.iter().map(|v| v.name.as_str()).collect();
            format!(
                "{flag}: there is no variant called {name:?} (the variants are {})",
                names.join(", ")
            )
        }),
        None => default.ok_or_else(|| format!("{flag}: name the variant to subtract")),
    }
}

/// The figure the options ask for, built by the same `attnlab-lab` functions as the
/// app's, so the file shows what the app shows for the link.
fn build(state: &LabState, args: &RenderArgs) -> Result<Heatmap, String> {
    let a = variant_index(
        state,
        "--variant",
        args.variant.as_deref(),
        Some(state.view.variant),
    )?;
    let request = match args.figure {
        Figure::Heatmap => match args.head {
            None => FigureRequest::Head {
                variant: a,
                head: state.view.head,
            },
            Some(Which::Head(head)) => FigureRequest::Head { variant: a, head },
            Some(Which::Average) => {
                return Err("--head: use --figure average for the head average".into());
            }
        },
        Figure::Average => FigureRequest::Average { variant: a },
        Figure::Difference => {
            let partner = state
                .compared()
                .and_then(|(x, y)| [(x, y), (y, x)].into_iter().find(|p| p.0 == a))
                .map(|(_, other)| other);
            let b = variant_index(state, "--against", args.against.as_deref(), partner)?;
            if a == b {
                return Err(
                    "--against: a variant minus itself is zero everywhere; name another".into(),
                );
            }
            // Without --head, what the link's comparison compared.
            let which = args.head.unwrap_or(match state.view.compare_what {
                CompareWhat::Head => Which::Head(state.view.head),
                CompareWhat::Average => Which::Average,
            });
            FigureRequest::Difference { a, b, which }
        }
    };
    Pipeline::new(state).figure(request).map_err(|e| match e {
        LabError::NoHead { head, heads } => {
            format!("--head: there is no head {head} (there are {heads}, numbered from 0)")
        }
        LabError::Core(CoreError::NoHeads) => "--figure: there are no heads".to_string(),
        LabError::Figure(e) => format!("figure: {e}"),
        e => e.sentence(),
    })
}

fn draw(heatmap: &Heatmap, size: Size) -> Result<String, String> {
    attnlab_plot::export::heatmap_svg_sized(heatmap, (size.width, size.height))
        .map_err(|e| format!("figure: {e}"))
}
