//! Writes a sample heatmap as SVG to standard output, to look at the figure without a
//! browser: `cargo run -p attnlab-plot --example heatmap_svg -- causal > /tmp/h.svg`.
//!
//! Arguments: `plain` (default), `causal`, `zh`, `many` (60 tokens), `diff`.

use attnlab_plot::{Heatmap, HeatmapStyle, draw_heatmap};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let kind = std::env::args().nth(1).unwrap_or_else(|| "plain".into());
    let words: Vec<String> = match kind.as_str() {
        "zh" => "我 爱 机 器 学 习".split(' ').map(String::from).collect(),
        "many" => (0..60).map(|i| format!("word{i}")).collect(),
        _ => "The animal didn't cross the street because it was too tired"
            .split(' ')
            .map(String::from)
            .collect(),
    };
    let n = words.len();
    // Each query attends mostly to itself and its neighbours.
    let mut values = Vec::with_capacity(n * n);
    for i in 0..n {
        let row: Vec<f32> = (0..n)
            .map(|j| (-((i as f32 - j as f32).powi(2)) / 4.0).exp())
            .collect();
        let causal_sum: f32 = row[..=i].iter().sum();
        let sum: f32 = row.iter().sum();
        for (j, v) in row.iter().enumerate() {
            values.push(match kind.as_str() {
                "causal" if j > i => 0.0,
                "causal" => v / causal_sum,
                "diff" => v / sum - 1.0 / n as f32,
                _ => v / sum,
            });
        }
    }
    let heatmap = match kind.as_str() {
        "diff" => Heatmap::difference("Difference from uniform", words.clone(), words, values)?,
        "causal" => {
            let blocked = (0..n * n).map(|k| k % n > k / n).collect();
            Heatmap::weights("Causal mask", words.clone(), words, values)?.with_blocked(blocked)?
        }
        _ => Heatmap::weights("Head 0", words.clone(), words, values)?,
    };
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (1100, 760)).into_drawing_area();
        draw_heatmap(&area, &heatmap, &HeatmapStyle::default())?;
        area.present()?;
    }
    print!("{svg}");
    Ok(())
}
