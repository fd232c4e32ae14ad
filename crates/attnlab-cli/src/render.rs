//! `attnlab render`: the app's figures written to SVG files, from the app's link.
//!
//! The state is the app's URL fragment (with or without `#`, or the whole link); the
//! numbers come from the same `attnlab-lab` pipeline as the app, and the figure from the
//! same `attnlab_plot::draw_heatmap`, here on plotters' SVG backend.

use attnlab_core::CoreError;
use attnlab_lab::compute::{LabError, Pipeline, Which};
use attnlab_lab::figure::FigureRequest;
use attnlab_lab::{CompareWhat, LabState, fragment};
use attnlab_plot::{Heatmap, HeatmapStyle, draw_heatmap};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

/// The figures `render` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Figure {
    /// One head of one variant.
    Heatmap,
    /// The head average of one variant.
    Average,
    /// One variant minus another, on a diverging scale.
    Difference,
}

/// `render`'s options, parsed.
#[derive(Debug)]
struct Options {
    state: String,
    figure: Figure,
    variant: Option<String>,
    against: Option<String>,
    head: Option<Which>,
    output: String,
    size: (u32, u32),
}

/// Runs `attnlab render ARGS…`; returns warnings for standard error, or one line of error.
pub fn run(args: &[&str]) -> Result<Vec<String>, String> {
    let opts = parse(args)?;
    let decoded = fragment::decode(&opts.state).map_err(|e| format!("--state: {}", e.reason()))?;
    let warnings = decoded
        .repairs
        .iter()
        .map(|r| format!("warning: the state was repaired: {r}"))
        .collect();
    let heatmap = build(&decoded.state, &opts)?;
    let svg = draw(&heatmap, opts.size)?;
    if opts.output == "-" {
        print!("{svg}");
    } else {
        std::fs::write(&opts.output, svg)
            .map_err(|e| format!("-o: cannot write {} ({e})", opts.output))?;
    }
    Ok(warnings)
}

fn parse(args: &[&str]) -> Result<Options, String> {
    let mut state = None;
    let mut figure = Figure::Heatmap;
    let (mut variant, mut against, mut head, mut output) = (None, None, None, None);
    let mut size = (1100, 760);
    let mut it = args.iter();
    while let Some(&flag) = it.next() {
        let mut value = || {
            it.next()
                .map(|v| v.to_string())
                .ok_or_else(|| format!("{flag}: a value is needed"))
        };
        match flag {
            "--state" | "-s" => state = Some(value()?),
            "--figure" | "-f" => {
                figure = match value()?.as_str() {
                    "heatmap" => Figure::Heatmap,
                    "average" => Figure::Average,
                    "difference" => Figure::Difference,
                    other => {
                        return Err(format!(
                            "--figure: unknown figure {other:?} (heatmap, average or difference)"
                        ));
                    }
                }
            }
            "--variant" | "-v" => variant = Some(value()?),
            "--against" => against = Some(value()?),
            "--head" => {
                let v = value()?;
                head = Some(match v.as_str() {
                    "average" => Which::Average,
                    n => Which::Head(n.parse().map_err(|_| {
                        format!("--head: {n:?} is not a head number (0, 1, …) or \"average\"")
                    })?),
                });
            }
            "--output" | "-o" => output = Some(value()?),
            "--size" => {
                let v = value()?;
                size = v
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .filter(|&(w, h): &(u32, u32)| (200..=8000).contains(&w) && (200..=8000).contains(&h))
                    .ok_or_else(|| {
                        format!("--size: {v:?} is not WIDTHxHEIGHT with both from 200 to 8000, e.g. 1100x760")
                    })?;
            }
            other => {
                return Err(format!(
                    "render: unknown option {other:?} (see attnlab --help)"
                ));
            }
        }
    }
    Ok(Options {
        state: state.ok_or("render: --state is needed (the app's link, or the part after #)")?,
        figure,
        variant,
        against,
        head,
        output: output.ok_or("render: -o FILE is needed (or -o - for standard output)")?,
        size,
    })
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
fn build(state: &LabState, opts: &Options) -> Result<Heatmap, String> {
    let a = variant_index(
        state,
        "--variant",
        opts.variant.as_deref(),
        Some(state.view.variant),
    )?;
    let request = match opts.figure {
        Figure::Heatmap => match opts.head {
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
            let b = variant_index(state, "--against", opts.against.as_deref(), partner)?;
            if a == b {
                return Err(
                    "--against: a variant minus itself is zero everywhere; name another".into(),
                );
            }
            // Without --head, what the link's comparison compared.
            let which = opts.head.unwrap_or(match state.view.compare_what {
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

fn draw(heatmap: &Heatmap, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_heatmap(&area, heatmap, &HeatmapStyle::default())
            .map_err(|e| format!("figure: cannot draw ({e})"))?;
        area.present()
            .map_err(|e| format!("figure: cannot draw ({e})"))?;
    }
    Ok(svg)
}
