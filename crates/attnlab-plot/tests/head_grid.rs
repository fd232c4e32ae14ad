//! The grid of heads (small multiples), read back from SVG.

use attnlab_plot::{
    HeadGrid, HeadGridMap, Heatmap, HeatmapStyle, MASK_FILL, SELECTED, draw_head_grid,
};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

#[path = "support/svg.rs"]
mod svg;

use svg::{hex, num, rects, tags, texts, texts_outside};

fn labels(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("tok{i}")).collect()
}

/// `heads` causal heads of `n` tokens; head k peaks k tokens back.
fn heads(count: usize, n: usize) -> Vec<Heatmap> {
    (0..count)
        .map(|k| {
            let mut v = vec![0.0; n * n];
            let mut blocked = vec![false; n * n];
            for i in 0..n {
                let peak = i.saturating_sub(k % (i + 1));
                for j in 0..n {
                    if j > i {
                        blocked[i * n + j] = true;
                    } else {
                        v[i * n + j] = if j == peak { 1.0 } else { 0.0 };
                    }
                }
            }
            Heatmap::weights(format!("ignored {k}"), labels(n), labels(n), v)
                .unwrap()
                .with_blocked(blocked)
                .unwrap()
        })
        .collect()
}

fn render(grid: &HeadGrid<'_>, size: (u32, u32)) -> (String, HeadGridMap) {
    let mut svg = String::new();
    let map = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let map = draw_head_grid(&area, grid, &HeatmapStyle::default()).expect("draws");
        area.present().expect("present");
        map
    };
    (svg, map)
}

#[test]
fn every_head_is_titled_and_there_is_one_legend() {
    let hs = heads(8, 6);
    let (svg, map) = render(&HeadGrid::new(&hs).with_title("Variant A"), (1000, 600));
    let t = texts(&svg);
    assert_eq!(map.len(), 8);
    for k in 0..8 {
        let title = format!("head {k}");
        assert_eq!(
            t.iter().filter(|s| **s == title).count(),
            1,
            "{title} in {t:?}"
        );
    }
    assert_eq!(t.iter().filter(|s| *s == "Variant A").count(), 1);
    // One legend: one caption, each end once, one swatch.
    for label in ["weight", "0", "1", "masked"] {
        assert_eq!(
            t.iter().filter(|s| *s == label).count(),
            1,
            "{label} in {t:?}"
        );
    }
    // Small multiples carry no token labels, no per-heatmap titles, no values.
    assert!(
        !t.iter().any(|s| s.contains("tok") || s.contains("ignored")),
        "{t:?}"
    );
    assert!(
        !t.iter()
            .any(|s| s.contains('.') && s != "0.25" && s != "0.5" && s != "0.75")
    );
}

#[test]
fn every_cell_of_every_head_is_drawn_and_masked_cells_are_grey() {
    let (count, n) = (4, 5);
    let hs = heads(count, n);
    let (svg, map) = render(&HeadGrid::new(&hs), (900, 600));
    let rs = rects(&svg);
    let masked = hex(MASK_FILL);
    for (k, h) in hs.iter().enumerate() {
        let cells = map.cells(k).unwrap();
        assert_eq!((cells.rows(), cells.cols()), (n, n));
        for i in 0..n {
            for j in 0..n {
                let want = cells.drawn_rect(i, j).unwrap();
                let found: Vec<&String> = rs
                    .iter()
                    .filter(|(r, _)| *r == want)
                    .map(|(_, f)| f)
                    .collect();
                assert_eq!(found.len(), 1, "head {k} cell ({i}, {j}) drawn once");
                assert_eq!(
                    found[0] == &masked,
                    h.is_blocked(i, j),
                    "head {k} ({i}, {j})"
                );
            }
        }
    }
    // The shared scale: a weight of 1 has the same colour in every head.
    let fill_of = |k: usize, i: usize, j: usize| {
        let want = map.cells(k).unwrap().drawn_rect(i, j).unwrap();
        rs.iter().find(|(r, _)| *r == want).unwrap().1.clone()
    };
    assert_eq!(fill_of(0, 3, 3), fill_of(1, 3, 2));
    assert_eq!(fill_of(0, 3, 0), fill_of(1, 3, 3));
}

#[test]
fn the_selected_head_is_outlined_and_titled_in_the_accent_colour() {
    let hs = heads(6, 8);
    let (svg, map) = render(&HeadGrid::new(&hs).with_selected(4), (1000, 600));
    let accent = hex(SELECTED);
    let outlines: Vec<_> = tags(&svg, "polyline")
        .into_iter()
        .filter(|t| t.attrs.get("stroke") == Some(&accent))
        .collect();
    assert_eq!(outlines.len(), 1, "one outline");
    let points: Vec<(i32, i32)> = outlines[0].attrs["points"]
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    let (xs, ys): (Vec<i32>, Vec<i32>) = points.iter().copied().unzip();
    let cells = map.cells(4).unwrap();
    let ((x0, y0), _) = cells.cell_bounds(0, 0).unwrap();
    let (x1, y1) = (cells.edge_x(8), cells.edge_y(8));
    // The outline surrounds head 4's matrix, close to it, inside its tile.
    let (ox0, ox1) = (*xs.iter().min().unwrap(), *xs.iter().max().unwrap());
    let (oy0, oy1) = (*ys.iter().min().unwrap(), *ys.iter().max().unwrap());
    assert!(
        ox0 < x0 && ox1 >= x1 && oy0 < y0 && oy1 >= y1,
        "outline around the matrix"
    );
    assert!(x0 - ox0 <= 6 && ox1 - x1 <= 6, "outline hugs the matrix");
    let ((tx0, ty0), (tx1, ty1)) = map.tile_bounds(4).unwrap();
    assert!(tx0 <= ox0 && ox1 < tx1 && ty0 <= oy0 && oy1 < ty1);
    // Its title is bold and orange; the others are not.
    for t in tags(&svg, "text")
        .into_iter()
        .filter(|t| t.text.starts_with("head "))
    {
        let is_selected = t.text == "head 4";
        assert_eq!(t.attrs["fill"] == accent, is_selected, "{}", t.text);
        assert_eq!(
            t.attrs.get("font-weight").map(String::as_str) == Some("bold"),
            is_selected
        );
    }
    // Nothing selected: no outline.
    let (svg, _) = render(&HeadGrid::new(&hs), (1000, 600));
    assert!(!svg.contains(&accent));
}

#[test]
fn a_click_anywhere_on_a_tile_finds_its_head() {
    let hs = heads(8, 10);
    let (svg, map) = render(&HeadGrid::new(&hs), (1000, 600));
    for k in 0..8 {
        let cells = map.cells(k).unwrap();
        // Centre of the matrix, a cell, and the tile's title.
        let (cx, cy) = cells.cell_centre(5, 5).unwrap();
        assert_eq!(map.head_at(cx, cy), Some(k));
        assert_eq!(map.cell_at(cx, cy), Some((k, 5, 5)));
        let title = format!("head {k}");
        let t = tags(&svg, "text")
            .into_iter()
            .find(|t| t.text == title)
            .unwrap();
        let (tx, ty) = (num(&t, "x") as f64, num(&t, "y") as f64 - 4.0);
        assert_eq!(map.head_at(tx, ty), Some(k), "title of {k}");
        assert_eq!(map.cell_at(tx, ty), None);
    }
    // Tiles do not overlap.
    for a in 0..8 {
        for b in a + 1..8 {
            let ((ax0, ay0), (ax1, ay1)) = map.tile_bounds(a).unwrap();
            let ((bx0, by0), (bx1, by1)) = map.tile_bounds(b).unwrap();
            assert!(
                ax1 <= bx0 || bx1 <= ax0 || ay1 <= by0 || by1 <= ay0,
                "{a} and {b}"
            );
        }
    }
    assert_eq!(map.head_at(-5.0, 10.0), None);
    assert_eq!(map.head_at(995.0, 300.0), None, "the legend is not a head");
}

#[test]
fn one_to_sixteen_heads_fit_inside_the_area() {
    for count in 1..=16 {
        for (n, size) in [(11, (900, 500)), (64, (700, 700)), (3, (320, 240))] {
            let hs = heads(count, n);
            let (svg, map) = render(&HeadGrid::new(&hs).with_selected(count - 1), size);
            assert_eq!(map.len(), count);
            let (w, h) = (size.0 as i32, size.1 as i32);
            for k in 0..count {
                let cells = map.cells(k).unwrap();
                let ((x0, y0), _) = cells.cell_bounds(0, 0).unwrap();
                let (x1, y1) = (cells.edge_x(n), cells.edge_y(n));
                assert!(
                    x0 >= 0 && y0 >= 0 && x1 <= w && y1 <= h,
                    "{count} heads of {n} in {size:?}: head {k} at {x0},{y0}–{x1},{y1}"
                );
                assert!(x1 > x0 && y1 > y0, "head {k} has pixels");
            }
            let outside = texts_outside(&svg, (w, h));
            assert!(outside.is_empty(), "{outside:?}");
        }
    }
}

#[test]
fn no_heads_draw_only_the_title() {
    let (svg, map) = render(&HeadGrid::new(&[]).with_title("nothing"), (400, 300));
    assert!(map.is_empty());
    assert_eq!(map.head_at(200.0, 150.0), None);
    assert_eq!(texts(&svg), ["nothing"]);
}
