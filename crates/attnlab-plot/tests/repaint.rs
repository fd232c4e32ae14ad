//! Repainting the values over an unchanged frame gives, pixel for pixel, the figure a
//! full paint gives, with far fewer backend calls.

#[path = "support/counting.rs"]
mod counting;
#[path = "support/raster.rs"]
mod raster;

use attnlab_plot::{
    CellField, CellText, HeadGrid, HeadGridFrame, Heatmap, HeatmapFrame, HeatmapStyle, ValueRange,
    draw_head_grid, draw_heatmap, repaint_head_grid_values, repaint_heatmap_values,
    repaint_heatmap_values_and_scale,
};
use counting::{Blit, CountingBackend};
use plotters::prelude::IntoDrawingArea;
use raster::{Image, RasterBackend};

fn labels(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("tok{i}")).collect()
}

/// Row-stochastic weights of `n` tokens, sharper as `sharp` grows, with each row's
/// entropy; the first `masked` keys of rows after the first blocked when `masked > 0`,
/// and row 0 empty when `empty_row`.
fn weights(n: usize, sharp: f32, masked: usize, empty_row: bool) -> Heatmap {
    let mut values = vec![0.0; n * n];
    let mut blocked = vec![false; n * n];
    let (mut nats, mut norm) = (vec![0.0; n], vec![0.0; n]);
    for i in 0..n {
        let blocked_key = |j: usize| (empty_row && i == 0) || (i > 0 && j < masked.min(n - 1));
        let allowed: Vec<usize> = (0..n).filter(|&j| !blocked_key(j)).collect();
        for j in 0..n {
            blocked[i * n + j] = !allowed.contains(&j);
        }
        let e: Vec<f32> = allowed
            .iter()
            .map(|&j| (-sharp * (i as f32 - j as f32).abs()).exp())
            .collect();
        let sum: f32 = e.iter().sum();
        for (&j, x) in allowed.iter().zip(&e) {
            let a = x / sum;
            values[i * n + j] = a;
            if a > 0.0 {
                nats[i] -= a * a.ln();
            }
        }
        if allowed.len() > 1 {
            norm[i] = nats[i] / (allowed.len() as f32).ln();
        }
    }
    let mut h = Heatmap::weights("head 0", labels(n), labels(n), values)
        .unwrap()
        .with_row_entropy(nats, norm)
        .unwrap();
    if masked > 0 || empty_row {
        h = h.with_blocked(blocked).unwrap();
    }
    if empty_row {
        h = h.with_empty_rows(vec![0]).unwrap();
    }
    h
}

fn full(h: &Heatmap, size: (usize, usize), style: &HeatmapStyle) -> Image {
    let (backend, image) = RasterBackend::with_text_boxes(size.0, size.1);
    let area = backend.into_drawing_area();
    draw_heatmap(&area, h, style).unwrap();
    drop(area);
    image.borrow().clone()
}

/// `before` drawn in full, then `after`'s values repainted over it.
fn repainted(
    before: &Heatmap,
    after: &Heatmap,
    size: (usize, usize),
    style: &HeatmapStyle,
) -> Image {
    let (backend, image) = RasterBackend::with_text_boxes(size.0, size.1);
    let area = backend.into_drawing_area();
    draw_heatmap(&area, before, style).unwrap();
    repaint_heatmap_values(&area, after, style).unwrap();
    drop(area);
    image.borrow().clone()
}

fn differing_pixels(a: &Image, b: &Image) -> usize {
    let d: Vec<usize> = (0..a.rgb.len()).filter(|&k| a.rgb[k] != b.rgb[k]).collect();
    if let (Some(f), Some(l)) = (d.first(), d.last()) {
        eprintln!(
            "first ({}, {}) {:?} vs {:?}, last ({}, {})",
            f % a.width,
            f / a.width,
            a.rgb[*f],
            b.rgb[*f],
            l % a.width,
            l / a.width
        );
    }
    d.len()
}

#[test]
fn repainting_the_values_paints_what_a_full_paint_paints() {
    // Big cells with numbers and a full entropy panel; blocked cells hatched; an empty
    // row; small cells with a bars-only panel on a narrow canvas; a 2× display.
    let cases = [
        (9, 0, false, (1100, 700), 1.0),
        (9, 3, true, (1000, 640), 1.0),
        (40, 5, false, (640, 700), 1.0),
        (64, 0, false, (500, 520), 1.0),
        (7, 2, false, (1800, 1300), 2.0),
    ];
    for (n, masked, empty, size, scale) in cases {
        for field in [CellField::Bitmap, CellField::Rectangles] {
            let style = HeatmapStyle::scaled(scale).with_cell_field(field);
            let before = weights(n, 0.2, masked, empty);
            let after = weights(n, 2.5, masked, empty);
            let (w, h) = (size.0 as u32, size.1 as u32);
            assert_eq!(
                HeatmapFrame::of(&before, &style, (w, h)),
                HeatmapFrame::of(&after, &style, (w, h)),
                "same labels, range, mask and size: the same frame"
            );
            let expected = full(&after, size, &style);
            let stale = full(&before, size, &style);
            assert!(
                differing_pixels(&expected, &stale) > 100,
                "n = {n}: the two value sets must look different for the test to mean anything"
            );
            let got = repainted(&before, &after, size, &style);
            assert_eq!(
                differing_pixels(&got, &expected),
                0,
                "n = {n}, {field:?}, scale {scale}: the repaint differs from a full paint"
            );
        }
    }
}

#[test]
fn a_repaint_leaves_labels_and_legend_alone() {
    let style = HeatmapStyle {
        cell_text: CellText::Hidden,
        ..HeatmapStyle::scaled(1.0).with_cell_field(CellField::Bitmap)
    };
    let h = weights(32, 1.0, 0, false);
    let count = |repaint: bool| {
        let (backend, counts) = CountingBackend::new((900, 900), Blit::Fast);
        let area = backend.into_drawing_area();
        if repaint {
            repaint_heatmap_values(&area, &h, &style).unwrap();
        } else {
            draw_heatmap(&area, &h, &style).unwrap();
        }
        counts.get()
    };
    let (all, values) = (count(false), count(true));
    // The full paint writes 32 row and 32 column labels, two captions, the panel's
    // three headings, its numbers (nats and % of max for 32 rows) and the legend's
    // caption and ticks; the repaint only the panel's numbers.
    assert!(
        all.texts >= 64 + 2 + 3 + 64 + 3,
        "full paint: {} texts",
        all.texts
    );
    assert_eq!(values.texts, 64, "repaint: {} texts", values.texts);
    assert_eq!(values.blits, 1, "the cells, and no legend gradient");
}

#[test]
fn the_frame_changes_with_what_the_repaint_leaves_alone() {
    let style = HeatmapStyle::scaled(1.0).with_cell_field(CellField::Bitmap);
    let size = (800, 600);
    let h = weights(6, 1.0, 0, false);
    let frame = HeatmapFrame::of(&h, &style, size);
    let mut other_labels = labels(6);
    other_labels[3] = "changed".into();
    let relabelled = Heatmap::weights("head 0", other_labels, labels(6), h.values().to_vec())
        .unwrap()
        .with_row_entropy(vec![1.0; 6], vec![0.5; 6])
        .unwrap();
    let changed = [
        HeatmapFrame::of(&relabelled, &style, size),
        HeatmapFrame::of(&h, &style, (801, 600)),
        HeatmapFrame::of(&h, &HeatmapStyle::scaled(2.0), size),
        HeatmapFrame::of(
            &h.clone().with_range(ValueRange::new(0.0, 0.5).unwrap()),
            &style,
            size,
        ),
        HeatmapFrame::of(&weights(6, 1.0, 2, false), &style, size),
        HeatmapFrame::of(&weights(6, 1.0, 0, true), &style, size),
        HeatmapFrame::of(&weights(7, 1.0, 0, false), &style, size),
    ];
    for (k, f) in changed.iter().enumerate() {
        assert_ne!(&frame, f, "change {k} must change the frame");
    }
    // The values (and the entropies) are not part of it.
    assert_eq!(
        frame,
        HeatmapFrame::of(&weights(6, 3.0, 0, false), &style, size)
    );
}

/// The difference of weights of sharpness `a` and `b`: its range follows how far apart
/// they are.
fn difference(n: usize, a: f32, b: f32, masked: usize) -> Heatmap {
    Heatmap::difference_of(
        "A \u{2212} B",
        &weights(n, a, masked, false),
        &weights(n, b, masked, false),
    )
    .unwrap()
}

#[test]
fn a_range_change_repaints_the_values_and_the_scale_as_a_full_paint_would() {
    // Big cells with numbers; masked cells (a swatch under the bar); a narrow canvas
    // (smaller ticks, a narrower gap); a 2× display.
    let cases = [
        (9, 0, (1100, 700), 1.0),
        (9, 3, (1000, 640), 1.0),
        (40, 0, (640, 700), 1.0),
        (7, 2, (1800, 1300), 2.0),
    ];
    for (n, masked, size, scale) in cases {
        for field in [CellField::Bitmap, CellField::Rectangles] {
            let style = HeatmapStyle::scaled(scale).with_cell_field(field);
            let before = difference(n, 0.3, 0.5, masked);
            let after = difference(n, 0.2, 3.0, masked);
            let (w, h) = (size.0 as u32, size.1 as u32);
            let (fb, fa) = (
                HeatmapFrame::of(&before, &style, (w, h)),
                HeatmapFrame::of(&after, &style, (w, h)),
            );
            assert_ne!(
                before.range(),
                after.range(),
                "n = {n}: the ranges must differ"
            );
            assert!(fb.differs_in_range_alone(&fa), "n = {n}: the range alone");
            let expected = full(&after, size, &style);
            let (backend, image) = RasterBackend::with_text_boxes(size.0, size.1);
            let area = backend.into_drawing_area();
            draw_heatmap(&area, &before, &style).unwrap();
            let stale = image.borrow().clone();
            assert!(differing_pixels(&expected, &stale) > 100);
            repaint_heatmap_values_and_scale(&area, &after, &style).unwrap();
            drop(area);
            let got = image.borrow().clone();
            assert_eq!(
                differing_pixels(&got, &expected),
                0,
                "n = {n}, masked {masked}, {field:?}, scale {scale}: the repaint differs from a full paint"
            );
        }
    }
}

#[test]
fn a_range_change_redraws_the_ticks_and_nothing_else_of_the_frame() {
    let style = HeatmapStyle {
        cell_text: CellText::Hidden,
        ..HeatmapStyle::scaled(1.0).with_cell_field(CellField::Bitmap)
    };
    let h = difference(32, 0.2, 3.0, 0);
    let count = |scale_too: bool| {
        let (backend, counts) = CountingBackend::new((900, 900), Blit::Fast);
        let area = backend.into_drawing_area();
        if scale_too {
            repaint_heatmap_values_and_scale(&area, &h, &style).unwrap();
        } else {
            repaint_heatmap_values(&area, &h, &style).unwrap();
        }
        counts.get()
    };
    let (values, scale) = (count(false), count(true));
    // A difference has no entropy panel: the values write no text; the scale writes its
    // ticks' numbers (both ends and some between), no label, caption or title.
    assert_eq!(values.texts, 0);
    assert!(
        (3..=9).contains(&scale.texts),
        "scale: {} texts",
        scale.texts
    );
    assert_eq!(scale.blits, 2, "the cells and the bar's gradient");
}

#[test]
fn only_a_range_that_keeps_the_layout_is_a_range_change_alone() {
    let style = HeatmapStyle::scaled(1.0);
    let size = (1000, 640);
    let frame = |h: &Heatmap, size: (u32, u32)| HeatmapFrame::of(h, &style, size);
    let base = difference(9, 0.3, 0.5, 0);
    let wider = difference(9, 0.2, 3.0, 0);
    assert!(frame(&base, size).differs_in_range_alone(&frame(&wider, size)));
    // The same range is no range change; nor is a change of anything else with it.
    assert!(!frame(&base, size).differs_in_range_alone(&frame(&base, size)));
    assert!(!frame(&base, size).differs_in_range_alone(&frame(&wider, (1001, 640))));
    let masked = difference(9, 0.2, 3.0, 2);
    assert!(!frame(&base, size).differs_in_range_alone(&frame(&masked, size)));
    // Ticks too long for the legend's room ("+0.00150") change the layout.
    let tiny = base.clone().with_range(ValueRange::symmetric(0.0015));
    assert!(!frame(&base, size).differs_in_range_alone(&frame(&tiny, size)));
    // A phone's legend, under the matrix, is drawn in full.
    let phone = (390, 700);
    assert!(!frame(&base, phone).differs_in_range_alone(&frame(&wider, phone)));
}

#[test]
fn repainting_a_grid_paints_what_a_full_paint_paints() {
    for (n, masked, size, scale, field) in [
        (10, 0, (900, 500), 1.0, CellField::Bitmap),
        (12, 4, (700, 700), 1.0, CellField::Rectangles),
        (6, 2, (1600, 900), 2.0, CellField::Bitmap),
    ] {
        let style = HeatmapStyle::scaled(scale).with_cell_field(field);
        let before: Vec<Heatmap> = (0..4)
            .map(|k| weights(n, 0.1 * k as f32, masked, false))
            .collect();
        let after: Vec<Heatmap> = (0..4)
            .map(|k| weights(n, 1.0 + k as f32, masked, false))
            .collect();
        let (gb, ga) = (
            HeadGrid::new(&before).with_selected(1),
            HeadGrid::new(&after).with_selected(1),
        );
        let (w, h) = (size.0 as u32, size.1 as u32);
        assert_eq!(
            HeadGridFrame::of(&gb, &style, (w, h)),
            HeadGridFrame::of(&ga, &style, (w, h))
        );
        assert_ne!(
            HeadGridFrame::of(&gb, &style, (w, h)),
            HeadGridFrame::of(&HeadGrid::new(&after).with_selected(2), &style, (w, h)),
            "the outline is part of the frame"
        );
        let paint = |first: &HeadGrid<'_>, second: Option<&HeadGrid<'_>>| {
            let (backend, image) = RasterBackend::with_text_boxes(size.0, size.1);
            let area = backend.into_drawing_area();
            let full_map = draw_head_grid(&area, first, &style).unwrap();
            let map = match second {
                Some(g) => repaint_head_grid_values(&area, g, &style).unwrap(),
                None => full_map,
            };
            drop(area);
            let image = image.borrow().clone();
            (image, map)
        };
        let (expected, expected_map) = paint(&ga, None);
        let (stale, _) = paint(&gb, None);
        assert!(differing_pixels(&expected, &stale) > 100);
        let (got, map) = paint(&gb, Some(&ga));
        assert_eq!(differing_pixels(&got, &expected), 0, "n = {n}, {field:?}");
        assert_eq!(map, expected_map, "the same tiles");
    }
}
