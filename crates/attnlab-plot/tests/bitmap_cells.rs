//! `CellField::Bitmap`: the cells as one blit, pixel for pixel the rectangles they
//! replace, in one backend call instead of thousands.

#[path = "support/counting.rs"]
mod counting;
#[path = "support/raster.rs"]
mod raster;

use attnlab_plot::{
    CellField, CellMap, CellText, HeadGrid, Heatmap, HeatmapStyle, MASK_FILL, MASK_HATCH,
    draw_head_grid, draw_heatmap,
};
use counting::{Blit, CountingBackend, Counts};
use plotters::prelude::IntoDrawingArea;
use raster::{Image, RasterBackend};

fn labels(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("t{i}")).collect()
}

/// Causal weights of `n` tokens with some structure; query 0 padded when `padded`.
fn causal(n: usize, padded: bool) -> Heatmap {
    let mut v = vec![0.0; n * n];
    let mut blocked = vec![false; n * n];
    for i in 0..n {
        let row: Vec<f32> = (0..=i).map(|j| 1.0 / (1.0 + (i - j) as f32)).collect();
        let sum: f32 = row.iter().sum();
        for j in 0..n {
            if j > i || (padded && i == 0) {
                blocked[i * n + j] = true;
            } else {
                v[i * n + j] = row[j] / sum;
            }
        }
    }
    let h = Heatmap::weights("", labels(n), labels(n), v)
        .unwrap()
        .with_blocked(blocked)
        .unwrap();
    if padded {
        h.with_empty_rows(vec![0]).unwrap()
    } else {
        h
    }
}

fn paint(h: &Heatmap, size: (usize, usize), field: CellField, scale: f64) -> (Image, CellMap) {
    let (backend, image) = RasterBackend::new(size.0, size.1);
    let area = backend.into_drawing_area();
    let style = HeatmapStyle::scaled(scale).with_cell_field(field);
    let map = draw_heatmap(&area, h, &style).unwrap();
    drop(area);
    let image = image.borrow().clone();
    (image, map)
}

fn count(h: &Heatmap, size: (u32, u32), field: CellField) -> Counts {
    let (backend, counts) = CountingBackend::new(size, Blit::Fast);
    let area = backend.into_drawing_area();
    draw_heatmap(&area, h, &HeatmapStyle::default().with_cell_field(field)).unwrap();
    counts.get()
}

fn hatch_pixels(img: &Image) -> usize {
    let hatch = [MASK_HATCH.0, MASK_HATCH.1, MASK_HATCH.2];
    img.rgb.iter().filter(|p| **p == hatch).count()
}

#[test]
fn the_bitmap_paints_what_the_rectangles_paint() {
    let grey = [MASK_FILL.0, MASK_FILL.1, MASK_FILL.2];
    let hatch = [MASK_HATCH.0, MASK_HATCH.1, MASK_HATCH.2];
    // Big cells with gaps and hatches; medium cells hatched without gaps; small cells;
    // an empty row; a 2× display.
    for (n, padded, size, scale) in [
        (11, false, (1100, 760), 1.0),
        (11, true, (900, 600), 1.0),
        (60, true, (900, 700), 1.0),
        (200, false, (700, 600), 1.0),
        (8, true, (1600, 1200), 2.0),
    ] {
        let h = causal(n, padded);
        let (rects, map) = paint(&h, size, CellField::Rectangles, scale);
        let (bitmap, same_map) = paint(&h, size, CellField::Bitmap, scale);
        assert_eq!(map, same_map);
        // Compare the matrix (the legend's gradient is drawn differently: one pixel row
        // per colour instead of two-pixel strips).
        let ((x0, y0), _) = map.cell_bounds(0, 0).unwrap();
        let (x1, y1) = (map.edge_x(n), map.edge_y(n));
        let inside = |k: usize| {
            let (x, y) = ((k % size.0) as i32, (k / size.0) as i32);
            x >= x0 && x < x1 && y >= y0 && y < y1
        };
        let mut differ = 0;
        for (k, (a, b)) in rects.rgb.iter().zip(&bitmap.rgb).enumerate() {
            if !inside(k) {
                continue;
            }
            // The hatch is a line in one and a pixel pattern in the other: they may
            // differ by a pixel across a line (a wide vector line also spills a pixel
            // into the white gap), never elsewhere.
            let hatching = (*a == hatch || *b == hatch)
                && [*a, *b]
                    .iter()
                    .all(|p| *p == grey || *p == hatch || *p == [255; 3]);
            if a != b && !hatching {
                differ += 1;
                assert!(
                    differ > 5,
                    "n={n}: pixel {},{} is {a:?} with rectangles, {b:?} with a bitmap",
                    k % size.0,
                    k / size.0
                );
            }
        }
        assert_eq!(differ, 0, "n={n}");
        let (hr, hb) = (hatch_pixels(&rects), hatch_pixels(&bitmap));
        assert!(
            (hr as f64 - hb as f64).abs() <= 0.3 * hr.max(1) as f64,
            "n={n}: hatch pixels {hr} with rectangles, {hb} with a bitmap"
        );
    }
}

#[test]
fn the_bitmap_is_one_call() {
    let h = causal(64, true);
    let rects = count(&h, (1100, 760), CellField::Rectangles);
    let bitmap = count(&h, (1100, 760), CellField::Bitmap);
    assert_eq!(rects.blits, 0);
    // The cells and the legend's gradient.
    assert_eq!(bitmap.blits, 2);
    assert!(rects.rects > 64 * 64 / 2, "{rects:?}");
    // What is left are the legend's frame, the swatch and the banner.
    assert!(bitmap.rects < 10, "{bitmap:?}");
    assert!(bitmap.paths < 40, "no hatch lines: {bitmap:?}");
    // The same texts either way.
    assert_eq!(rects.texts, bitmap.texts);
}

#[test]
fn values_are_still_written_over_a_bitmap() {
    let h = causal(6, false);
    for cell_text in [CellText::Auto, CellText::Hidden] {
        let style = HeatmapStyle {
            cell_text,
            ..HeatmapStyle::default()
        };
        let counts = |field| {
            let (backend, counts) = CountingBackend::new((900, 700), Blit::Fast);
            let area = backend.into_drawing_area();
            draw_heatmap(&area, &h, &style.with_cell_field(field)).unwrap();
            counts.get()
        };
        assert_eq!(
            counts(CellField::Rectangles).texts,
            counts(CellField::Bitmap).texts
        );
    }
}

#[test]
fn a_grid_is_one_blit_per_head() {
    let heads: Vec<Heatmap> = (0..8).map(|_| causal(64, false)).collect();
    let (backend, counts) = CountingBackend::new((1200, 500), Blit::Fast);
    let area = backend.into_drawing_area();
    let style = HeatmapStyle::default().with_cell_field(CellField::Bitmap);
    let map = draw_head_grid(&area, &HeadGrid::new(&heads).with_selected(0), &style).unwrap();
    let c = counts.get();
    assert_eq!(c.blits, 8 + 1, "one per head and the legend: {c:?}");
    let covered: usize = (0..8)
        .map(|k| {
            let cells = map.cells(k).unwrap();
            let ((x0, y0), _) = cells.cell_bounds(0, 0).unwrap();
            ((cells.edge_x(64) - x0) * (cells.edge_y(64) - y0)) as usize
        })
        .sum();
    // The legend bar: 22 px wide, at most the area's height.
    assert!(c.blit_pixels > covered && c.blit_pixels <= covered + 22 * 500);
}
