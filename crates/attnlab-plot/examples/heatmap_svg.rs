//! Writes a sample figure as SVG to standard output, to look at it without a browser:
//! `cargo run -p attnlab-plot --example heatmap_svg -- causal > /tmp/h.svg`.
//!
//! Arguments: `plain` (default), `causal`, `zh`, `many` (60 tokens), `diff`,
//! `entropy` (causal, a padded query, row entropies beside the rows), `diffmask` (the
//! difference of a causal and a windowed head), `grid` (8 heads, head 2 selected),
//! `grid16` (16 heads of 64 tokens), `big` (512 tokens); then optionally a size, `WxH`.

use attnlab_plot::{HeadGrid, Heatmap, HeatmapStyle, draw_head_grid, draw_heatmap};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

const SENTENCE: &str = "The animal didn't cross the street because it was too tired";

/// Row-stochastic weights where query i looks around key i (plus `shift`), with
/// `width` controlling how far; `blocked` cells get 0.
fn weights(n: usize, width: f32, shift: f32, blocked: &dyn Fn(usize, usize) -> bool) -> Vec<f32> {
    let mut v = Vec::with_capacity(n * n);
    for i in 0..n {
        let row: Vec<f32> = (0..n)
            .map(|j| {
                if blocked(i, j) {
                    0.0
                } else {
                    (-((i as f32 + shift - j as f32).powi(2)) / width).exp() + 1e-3
                }
            })
            .collect();
        let sum: f32 = row.iter().sum();
        v.extend(row.iter().map(|x| if sum > 0.0 { x / sum } else { 0.0 }));
    }
    v
}

/// H_i in nats and H_i / ln(allowed keys), as the core computes them.
fn entropies(h: &Heatmap) -> (Vec<f32>, Vec<f32>) {
    (0..h.n_rows())
        .map(|i| {
            let e: f32 = (0..h.n_cols())
                .filter_map(|j| h.value(i, j))
                .filter(|&a| a > 0.0)
                .map(|a| -a * a.ln())
                .sum();
            let k = h.allowed_in_row(i);
            let norm = if k > 1 { e / (k as f32).ln() } else { 0.0 };
            (e, norm)
        })
        .unzip()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let kind = std::env::args().nth(1).unwrap_or_else(|| "plain".into());
    let size = std::env::args()
        .nth(2)
        .and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some((w.parse().ok()?, h.parse().ok()?))
        })
        .unwrap_or((1100, 760));
    let words: Vec<String> = match kind.as_str() {
        "zh" => "我 爱 机 器 学 习".split(' ').map(String::from).collect(),
        "many" => (0..60).map(|i| format!("word{i}")).collect(),
        "grid16" => (0..64).map(|i| format!("t{i}")).collect(),
        "big" => (0..512).map(|i| format!("t{i}")).collect(),
        "entropy" => format!("<pad> {SENTENCE}")
            .split(' ')
            .map(String::from)
            .collect(),
        _ => SENTENCE.split(' ').map(String::from).collect(),
    };
    let n = words.len();
    let causal = |i: usize, j: usize| j > i;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let style = HeatmapStyle::default();
        match kind.as_str() {
            "grid" | "grid16" => {
                let heads = if kind == "grid" { 8 } else { 16 };
                let maps: Vec<Heatmap> = (0..heads)
                    .map(|k| {
                        let shift = (k as f32 - 3.0) / 2.0;
                        let v = weights(n, 1.0 + k as f32, shift, &causal);
                        let blocked = (0..n * n).map(|c| causal(c / n, c % n)).collect();
                        Heatmap::weights("", words.clone(), words.clone(), v)?.with_blocked(blocked)
                    })
                    .collect::<Result<_, _>>()?;
                let grid = HeadGrid::new(&maps)
                    .with_selected(2)
                    .with_title("Variant A \u{b7} all heads");
                draw_head_grid(&area, &grid, &style)?;
            }
            "entropy" => {
                // Query 0 is padding: no key is allowed.
                let blocked = |i: usize, j: usize| i == 0 || j == 0 || j > i;
                let values = weights(n, 3.0, 0.0, &blocked);
                let mask = (0..n * n).map(|c| blocked(c / n, c % n)).collect();
                let h =
                    Heatmap::weights("Causal, padded: row entropy", words.clone(), words, values)?
                        .with_blocked(mask)?
                        .with_empty_rows(vec![0])?;
                let (nats, norm) = entropies(&h);
                draw_heatmap(&area, &h.with_row_entropy(nats, norm)?, &style)?;
            }
            "diffmask" => {
                let a_mask = |i: usize, j: usize| j > i;
                let b_mask = |i: usize, j: usize| i.abs_diff(j) > 2;
                let mask = |f: &dyn Fn(usize, usize) -> bool| {
                    (0..n * n).map(|c| f(c / n, c % n)).collect()
                };
                let a = Heatmap::weights(
                    "A",
                    words.clone(),
                    words.clone(),
                    weights(n, 4.0, 0.0, &a_mask),
                )?
                .with_blocked(mask(&a_mask))?;
                let b = Heatmap::weights("B", words.clone(), words, weights(n, 1.0, 0.0, &b_mask))?
                    .with_blocked(mask(&b_mask))?;
                draw_heatmap(
                    &area,
                    &Heatmap::difference_of("A (causal) \u{2212} B (window 2)", &a, &b)?,
                    &style,
                )?;
            }
            _ => {
                let none = |_: usize, _: usize| false;
                let heatmap = match kind.as_str() {
                    "diff" => {
                        let v = weights(n, 4.0, 0.0, &none);
                        let u = 1.0 / n as f32;
                        let d: Vec<f32> = v.iter().map(|x| x - u).collect();
                        Heatmap::difference("Difference from uniform", words.clone(), words, d)?
                    }
                    "causal" => {
                        let blocked = (0..n * n).map(|k| causal(k / n, k % n)).collect();
                        Heatmap::weights(
                            "Causal mask",
                            words.clone(),
                            words,
                            weights(n, 4.0, 0.0, &causal),
                        )?
                        .with_blocked(blocked)?
                    }
                    _ => Heatmap::weights(
                        "Head 0",
                        words.clone(),
                        words,
                        weights(n, 4.0, 0.0, &none),
                    )?,
                };
                draw_heatmap(&area, &heatmap, &style)?;
            }
        }
        area.present()?;
    }
    print!("{svg}");
    Ok(())
}
