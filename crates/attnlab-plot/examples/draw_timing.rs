//! How long the figures take to draw natively, and how many backend calls they make (what
//! a canvas must then execute): `cargo run --release -p attnlab-plot --example draw_timing`.
//!
//! The backend draws nothing and counts calls, so the time is attnlab-plot's own work
//! (layout, colours, runs); a browser adds a cost per call on top, which is why the call
//! counts matter as much as the times.

#[path = "../tests/support/counting.rs"]
mod counting;

use std::time::Instant;

use attnlab_plot::{CellField, HeadGrid, Heatmap, HeatmapStyle, draw_head_grid, draw_heatmap};
use counting::{Blit, CountingBackend, Counts};
use plotters::prelude::IntoDrawingArea;

/// Softmax rows of pseudo-random logits (a fixed LCG), so neighbouring cells differ the
/// way real attention does, which defeats run merging.
fn softmax_weights(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as f32) / (1u64 << 31) as f32
    };
    let mut v = Vec::with_capacity(n * n);
    for _ in 0..n {
        let logits: Vec<f32> = (0..n).map(|_| 3.0 * next()).collect();
        let max = logits.iter().copied().fold(f32::MIN, f32::max);
        let e: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
        let s: f32 = e.iter().sum();
        v.extend(e.iter().map(|x| x / s));
    }
    v
}

fn heatmap(n: usize, seed: u64) -> Heatmap {
    let labels: Vec<String> = (0..n).map(|i| format!("tok{i}")).collect();
    Heatmap::weights(
        format!("head {seed}"),
        labels.clone(),
        labels,
        softmax_weights(n, seed),
    )
    .expect("valid")
}

fn time<F: FnMut() -> Counts>(mut f: F) -> (f64, Counts) {
    let counts = f();
    let reps = 10;
    let start = Instant::now();
    for _ in 0..reps {
        f();
    }
    (start.elapsed().as_secs_f64() * 1e3 / reps as f64, counts)
}

fn row(what: &str, ms: f64, c: Counts) {
    println!(
        "{what:<34} {ms:>8.2} {:>8} {:>6} {:>6} {:>6} {:>10}",
        c.rects, c.paths, c.texts, c.blits, c.pixels
    );
}

fn main() {
    println!("attnlab-plot draw times (native, release; the backend only counts calls)");
    println!(
        "{:<34} {:>8} {:>8} {:>6} {:>6} {:>6} {:>10}",
        "figure", "ms", "rects", "paths", "texts", "blits", "pixels"
    );
    for (size, scale) in [((1100, 760), 1.0), ((2200, 1520), 2.0)] {
        for n in [64, 256, 512] {
            let h = heatmap(n, 1);
            for field in [CellField::Rectangles, CellField::Bitmap] {
                let style = HeatmapStyle::scaled(scale).with_cell_field(field);
                let (ms, c) = time(|| {
                    let (b, counts) = CountingBackend::new(size, Blit::Fast);
                    let area = b.into_drawing_area();
                    draw_heatmap(&area, &h, &style).expect("draws");
                    counts.get()
                });
                let what = format!("heatmap n={n} {}x{} {field:?}", size.0, size.1);
                row(&what, ms, c);
            }
        }
    }
    // The lab's fluid case: 64 tokens, 8 heads, two variants; each variant draws its
    // selected head large and all heads as a grid.
    let heads: Vec<Heatmap> = (0..8).map(|k| heatmap(64, k + 1)).collect();
    for field in [CellField::Rectangles, CellField::Bitmap] {
        let style = HeatmapStyle::scaled(2.0).with_cell_field(field);
        let (ms, c) = time(|| {
            let (b, counts) = CountingBackend::new((1200, 640), Blit::Fast);
            let area = b.into_drawing_area();
            draw_head_grid(&area, &HeadGrid::new(&heads).with_selected(0), &style).expect("draws");
            counts.get()
        });
        row(&format!("grid 8×64 1200x640 {field:?}"), ms, c);
    }
    // What plotters-canvas 0.3.1 would do with a bitmap: no blit_bitmap of its own, so
    // plotters' default draws it one pixel at a time.
    let h = heatmap(64, 1);
    let style = HeatmapStyle::scaled(2.0).with_cell_field(CellField::Bitmap);
    let (ms, c) = time(|| {
        let (b, counts) = CountingBackend::new((2200, 1520), Blit::PixelByPixel);
        let area = b.into_drawing_area();
        draw_heatmap(&area, &h, &style).expect("draws");
        counts.get()
    });
    row("heatmap n=64 2x, Bitmap, no blit", ms, c);
}
