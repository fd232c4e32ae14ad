//! `attnlab render`: the app's figures written to SVG files, from the app's link.
//!
//! The state is the app's URL fragment (with or without `#`, or the whole link); the
//! numbers come from the same `attnlab-lab` pipeline as the app, and the figure from the
//! same `attnlab_plot::draw_heatmap`, here on plotters' SVG backend.

use attnlab_lab::compute::{Pipeline, VariantResult, Which, compare};
use attnlab_lab::{CompareWhat, LabState, figure, fragment};
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

fn computed(run: &Pipeline<'_>, index: usize) -> Result<VariantResult, String> {
    run.variant(index).map_err(|e| e.sentence())
}

fn check_head(result: &VariantResult, which: Which) -> Result<(), String> {
    result.weights(which).map(|_| ()).map_err(|_| match which {
        Which::Head(h) => format!(
            "--head: there is no head {h} (there are {}, numbered from 0)",
            result.heads.len()
        ),
        Which::Average => "--head: there are no heads".to_string(),
    })
}

fn build(state: &LabState, opts: &Options) -> Result<Heatmap, String> {
    let a = variant_index(
        state,
        "--variant",
        opts.variant.as_deref(),
        Some(state.view.variant),
    )?;
    let run = Pipeline::new(state);
    let rows = run.queries().labels();
    let va = &state.variants[a];
    let cols = run.key_labels(va);
    let result = computed(&run, a)?;
    let heatmap = match opts.figure {
        Figure::Heatmap => {
            let h = match opts.head {
                None => state.view.head,
                Some(Which::Head(h)) => h,
                Some(Which::Average) => {
                    return Err("--head: use --figure average for the head average".into());
                }
            };
            check_head(&result, Which::Head(h))?;
            let title = figure::head_title(&state.model, va, h);
            figure::head_heatmap(title, &rows, &cols, &result.heads[h])
        }
        Figure::Average => {
            let avg = result
                .average
                .as_ref()
                .ok_or("--figure: there are no heads")?;
            let title = figure::average_title(&state.model, va);
            figure::average_heatmap(title, &rows, &cols, avg)
        }
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
            let vb = &state.variants[b];
            let other = computed(&run, b)?;
            // Without --head, what the link's comparison compared.
            let which = opts.head.unwrap_or(match state.view.compare_what {
                CompareWhat::Head => Which::Head(state.view.head),
                CompareWhat::Average => Which::Average,
            });
            check_head(&result, which)?;
            let comparison = compare(
                result.weights(which).map_err(|e| e.sentence())?,
                other.weights(which).map_err(|e| e.sentence())?,
            )
            .map_err(|e| e.sentence())?;
            let head = match which {
                Which::Head(h) => Some(h),
                Which::Average => None,
            };
            let title = figure::difference_title(va, vb, head);
            let masks = (&result.heads[0].mask, &other.heads[0].mask);
            figure::difference_heatmap(title, &rows, &cols, &comparison, masks)
        }
    };
    heatmap.map_err(|e| format!("figure: {e}"))
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
