//! Snapshot-style tests: draw on plotters' SVG backend into a `String` and read the
//! figure back (texts, rectangles, hatch lines), the way a person would check a plot.

use std::collections::HashMap;

use attnlab_plot::{CellMap, CellText, Heatmap, HeatmapStyle, MASK_FILL, MASK_HATCH, draw_heatmap};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

const SENTENCE: [&str; 11] = [
    "The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired",
];

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A row-stochastic `n × m` matrix with some structure (row i peaks at column i).
fn weights(n: usize, m: usize) -> Vec<f32> {
    let mut v = Vec::with_capacity(n * m);
    for i in 0..n {
        let row: Vec<f32> = (0..m)
            .map(|j| 1.0 / (1.0 + (i as f32 - j as f32).abs()))
            .collect();
        let sum: f32 = row.iter().sum();
        v.extend(row.iter().map(|x| x / sum));
    }
    v
}

fn render(h: &Heatmap, size: (u32, u32), style: HeatmapStyle) -> (String, CellMap) {
    let mut svg = String::new();
    let map = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let map = draw_heatmap(&area, h, &style).expect("drawing succeeds");
        area.present().expect("present");
        map
    };
    (svg, map)
}

struct Tag {
    attrs: HashMap<String, String>,
    text: String,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Every `<name …>` element of the SVG with its attributes (and text, for `<text>`).
fn tags(svg: &str, name: &str) -> Vec<Tag> {
    let open = format!("<{name} ");
    svg.match_indices(&open)
        .map(|(at, _)| {
            let rest = &svg[at + open.len()..];
            let end = rest.find('>').expect("tag closes");
            let mut attrs = HashMap::new();
            let mut head = &rest[..end];
            while let Some(eq) = head.find("=\"") {
                let key = head[..eq].trim().to_string();
                let after = &head[eq + 2..];
                let close = after.find('"').expect("attribute closes");
                attrs.insert(key, unescape(&after[..close]));
                head = &after[close + 1..];
            }
            let text = if name == "text" {
                let body = &rest[end + 1..];
                unescape(body[..body.find("</text>").expect("text closes")].trim())
            } else {
                String::new()
            };
            Tag { attrs, text }
        })
        .collect()
}

fn texts(svg: &str) -> Vec<String> {
    tags(svg, "text").into_iter().map(|t| t.text).collect()
}

fn num(t: &Tag, key: &str) -> i32 {
    t.attrs[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} is a number: {:?}", t.attrs[key]))
}

/// A rectangle's corners: upper-left (inclusive), lower-right (exclusive).
type Corners = ((i32, i32), (i32, i32));

/// The rectangles of the SVG with their fill.
fn rects(svg: &str) -> Vec<(Corners, String)> {
    tags(svg, "rect")
        .into_iter()
        .map(|t| {
            let (x, y) = (num(&t, "x"), num(&t, "y"));
            (
                ((x, y), (x + num(&t, "width"), y + num(&t, "height"))),
                t.attrs["fill"].clone(),
            )
        })
        .collect()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn sentence_heatmap() -> Heatmap {
    Heatmap::weights(
        "Head 0",
        words(&SENTENCE),
        words(&SENTENCE),
        weights(11, 11),
    )
    .unwrap()
}

#[test]
fn every_token_labels_its_row_and_its_column() {
    let (svg, _) = render(&sentence_heatmap(), (1100, 800), HeatmapStyle::default());
    let t = texts(&svg);
    for w in SENTENCE {
        let count = t.iter().filter(|s| *s == w).count();
        assert_eq!(
            count, 2,
            "{w:?} labels one row and one column; texts: {t:?}"
        );
    }
    assert!(t.contains(&"Head 0".to_string()));
    assert!(t.iter().any(|s| s.starts_with("queries")), "{t:?}");
    assert!(t.iter().any(|s| s.starts_with("keys")), "{t:?}");
}

#[test]
fn legend_shows_both_ends_of_the_range_and_its_caption() {
    let (svg, _) = render(&sentence_heatmap(), (1100, 800), HeatmapStyle::default());
    let t = texts(&svg);
    for label in ["weight", "0", "0.25", "0.5", "0.75", "1"] {
        assert!(
            t.contains(&label.to_string()),
            "legend label {label:?} in {t:?}"
        );
    }
}

#[test]
fn one_rectangle_per_cell() {
    let (svg, map) = render(&sentence_heatmap(), (1100, 800), HeatmapStyle::default());
    assert_eq!((map.rows(), map.cols()), (11, 11));
    let rs = rects(&svg);
    let mut count = 0;
    for i in 0..11 {
        for j in 0..11 {
            let want = map.drawn_rect(i, j).unwrap();
            let n = rs.iter().filter(|(r, _)| *r == want).count();
            assert_eq!(n, 1, "cell ({i}, {j}) is one rectangle at {want:?}");
            count += n;
        }
    }
    assert_eq!(count, 121);
    // Large cells carry their value, two decimals.
    let t = texts(&svg);
    let diagonal = format!("{:.2}", weights(11, 11)[0]);
    assert!(t.contains(&diagonal), "{diagonal} in {t:?}");
}

#[test]
fn cell_text_can_be_hidden() {
    let style = HeatmapStyle {
        cell_text: CellText::Hidden,
        ..HeatmapStyle::default()
    };
    let (svg, _) = render(&sentence_heatmap(), (1100, 800), style);
    let diagonal = format!("{:.2}", weights(11, 11)[0]);
    assert!(!texts(&svg).contains(&diagonal));
}

#[test]
fn masked_cells_are_hatched_grey_and_small_weights_are_not() {
    // Causal mask: the upper triangle is blocked; row 3 keeps a weight of exactly 0 at
    // column 0, which must look different from a blocked cell.
    let n = 6;
    let labels = words(&SENTENCE[..n]);
    let mut values = weights(n, n);
    let mut blocked = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            if j > i {
                blocked[i * n + j] = true;
                values[i * n + j] = 0.0;
            }
        }
    }
    values[3 * n] = 0.0;
    let h = Heatmap::weights("causal", labels.clone(), labels, values)
        .unwrap()
        .with_blocked(blocked.clone())
        .unwrap();
    let (svg, map) = render(&h, (900, 700), HeatmapStyle::default());
    let rs = rects(&svg);
    let mask = hex(MASK_FILL);
    for i in 0..n {
        for j in 0..n {
            let want = map.drawn_rect(i, j).unwrap();
            let (_, fill) = rs.iter().find(|(r, _)| *r == want).expect("cell drawn");
            if blocked[i * n + j] {
                assert_eq!(fill, &mask, "blocked ({i}, {j})");
            } else {
                assert_ne!(fill, &mask, "allowed ({i}, {j}) must not look blocked");
            }
        }
    }
    // Hatch lines: grey polylines, several per blocked cell, all inside blocked cells.
    let hatch: Vec<Tag> = tags(&svg, "polyline")
        .into_iter()
        .filter(|t| t.attrs["stroke"] == hex(MASK_HATCH))
        .collect();
    let blocked_cells = blocked.iter().filter(|&&b| b).count();
    assert!(
        hatch.len() >= 2 * blocked_cells,
        "{} hatch lines for {blocked_cells} cells",
        hatch.len()
    );
    // The legend explains the hatch.
    assert!(texts(&svg).contains(&"masked".to_string()));
}

#[test]
fn empty_rows_are_marked() {
    let labels = words(&["<pad>", "a", "b"]);
    let mut values = weights(3, 3);
    values[..3].fill(0.0);
    let blocked = vec![true, true, true, false, false, false, false, false, false];
    let h = Heatmap::weights("", labels.clone(), labels, values)
        .unwrap()
        .with_blocked(blocked)
        .unwrap()
        .with_empty_rows(vec![0])
        .unwrap();
    let (svg, _) = render(&h, (800, 600), HeatmapStyle::default());
    let t = texts(&svg);
    assert!(t.contains(&"\u{2205} empty row".to_string()), "{t:?}");
    assert!(
        t.contains(&"\u{2205} <pad>".to_string()),
        "row label marked: {t:?}"
    );
    assert!(
        t.contains(&"<pad>".to_string()),
        "column label plain: {t:?}"
    );
}

#[test]
fn chinese_labels_survive() {
    let zh = words(&["我", "爱", "机", "器", "学", "习"]);
    let h = Heatmap::weights("我爱机器学习", zh.clone(), zh, weights(6, 6)).unwrap();
    let (svg, _) = render(&h, (800, 600), HeatmapStyle::default());
    let t = texts(&svg);
    assert!(t.contains(&"我爱机器学习".to_string()));
    for w in ["我", "爱", "机", "器", "学", "习"] {
        assert_eq!(t.iter().filter(|s| *s == w).count(), 2, "{w} in {t:?}");
    }
    // Single ideographs fit across their column: not rotated.
    let rotated = tags(&svg, "text")
        .into_iter()
        .filter(|t| t.text == "我" && t.attrs.contains_key("transform"))
        .count();
    assert_eq!(rotated, 0);
}

#[test]
fn long_column_labels_are_rotated_and_clipped() {
    let long = "Donaudampfschifffahrtsgesellschaftskapitän";
    let labels = words(&[long, "b", "c"]);
    let h = Heatmap::weights("", labels.clone(), labels, weights(3, 3)).unwrap();
    let (svg, _) = render(&h, (800, 600), HeatmapStyle::default());
    let t = tags(&svg, "text");
    let clipped: Vec<&Tag> = t.iter().filter(|t| t.text.starts_with("Donau")).collect();
    assert_eq!(clipped.len(), 2);
    assert!(
        clipped
            .iter()
            .all(|t| t.text.ends_with('…') && t.text.chars().count() < long.chars().count())
    );
    assert!(clipped.iter().any(|t| {
        t.attrs
            .get("transform")
            .is_some_and(|r| r.starts_with("rotate(270"))
    }));
}

#[test]
fn many_tokens_label_every_kth_with_its_index() {
    let n = 60;
    let labels: Vec<String> = (0..n).map(|i| format!("w{i}")).collect();
    let h = Heatmap::weights("", labels.clone(), labels, weights(n, n)).unwrap();
    let (svg, map) = render(&h, (900, 700), HeatmapStyle::default());
    let t = texts(&svg);
    let row_labels: Vec<&String> = t.iter().filter(|s| s.starts_with('#')).collect();
    assert!(!row_labels.is_empty() && row_labels.len() < 2 * n, "{t:?}");
    assert!(t.contains(&"#0 w0".to_string()), "{t:?}");
    // The step is the same for rows and columns and divides the labelled indices.
    let idx: Vec<usize> = row_labels
        .iter()
        .map(|s| s[1..].split(' ').next().unwrap().parse().unwrap())
        .collect();
    let step = idx.iter().copied().filter(|&i| i > 0).min().unwrap();
    assert!(idx.iter().all(|i| i % step == 0), "{idx:?}");
    // Labels never overlap: at least one label height between neighbours.
    assert!(
        map.cell_size() * step as f64 >= 12.0,
        "step {step}, cell {}",
        map.cell_size()
    );
}

#[test]
fn everything_is_drawn_inside_the_area() {
    for (n, size) in [
        (1, (400, 300)),
        (11, (640, 480)),
        (60, (900, 700)),
        (200, (500, 400)),
    ] {
        let labels: Vec<String> = (0..n).map(|i| format!("token{i}")).collect();
        let h = Heatmap::weights("A title", labels.clone(), labels, weights(n, n)).unwrap();
        let (svg, map) = render(&h, size, HeatmapStyle::default());
        let (w, hgt) = (size.0 as i32, size.1 as i32);
        for t in tags(&svg, "text") {
            let (x, y) = (num(&t, "x"), num(&t, "y"));
            assert!(
                (0..=w).contains(&x) && (0..=hgt).contains(&y),
                "n={n}: {:?} at {x},{y}",
                t.text
            );
        }
        let ((x0, y0), _) = map.cell_bounds(0, 0).unwrap();
        let (x1, y1) = (map.edge_x(n), map.edge_y(n));
        assert!(
            x0 >= 0 && y0 >= 0 && x1 <= w && y1 <= hgt,
            "n={n}: matrix {x0},{y0}–{x1},{y1}"
        );
    }
}

#[test]
fn cell_map_round_trips_cell_centres() {
    for (n, m, size, scale) in [
        (11, 11, (1100, 800), 1.0),
        (4, 6, (640, 480), 1.0),
        (60, 60, (900, 700), 1.0),
        (7, 7, (1600, 1200), 2.0),
        (300, 300, (700, 700), 1.0),
    ] {
        let rows: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
        let cols: Vec<String> = (0..m).map(|i| format!("k{i}")).collect();
        let h = Heatmap::weights("", rows, cols, weights(n, m)).unwrap();
        let (_, map) = render(&h, size, HeatmapStyle::scaled(scale));
        assert_eq!((map.rows(), map.cols()), (n, m));
        for i in 0..n {
            for j in 0..m {
                let (x, y) = map.cell_centre(i, j).unwrap();
                assert_eq!(
                    map.cell_at(x, y),
                    Some((i, j)),
                    "{n}×{m}: centre of ({i}, {j}) at {x},{y}"
                );
                let ((x0, y0), _) = map.cell_bounds(i, j).unwrap();
                assert_eq!(
                    map.cell_at(x0 as f64, y0 as f64),
                    Some((i, j)),
                    "corner of ({i}, {j})"
                );
            }
        }
        assert_eq!(
            map.cell_at(map.edge_x(m) as f64 + 1.0, map.edge_y(0) as f64),
            None
        );
    }
}

#[test]
fn cell_map_is_relative_to_the_backend_not_the_area() {
    let h = sentence_heatmap();
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (1200, 800)).into_drawing_area();
    let (_, right) = area.split_horizontally(200);
    let map = draw_heatmap(&right, &h, &HeatmapStyle::default()).unwrap();
    let ((x0, _), _) = map.cell_bounds(0, 0).unwrap();
    assert!(x0 > 200, "cells start right of the split at 200, got {x0}");
}

#[test]
fn scale_multiplies_text_sizes() {
    let size_of = |svg: &str, text: &str| -> f64 {
        let t = tags(svg, "text")
            .into_iter()
            .find(|t| t.text == text)
            .expect("text drawn");
        t.attrs["font-size"].parse().unwrap()
    };
    let (one, _) = render(&sentence_heatmap(), (1100, 800), HeatmapStyle::scaled(1.0));
    let (two, _) = render(&sentence_heatmap(), (2200, 1600), HeatmapStyle::scaled(2.0));
    let ratio = size_of(&two, "Head 0") / size_of(&one, "Head 0");
    assert!((ratio - 2.0).abs() < 1e-6, "title ratio {ratio}");
    let ratio = size_of(&two, "weight") / size_of(&one, "weight");
    assert!((ratio - 2.0).abs() < 1e-6, "legend ratio {ratio}");
}

#[test]
fn difference_heatmap_has_a_diverging_symmetric_legend() {
    let labels = words(&["a", "b"]);
    let h =
        Heatmap::difference("A − B", labels.clone(), labels, vec![0.2, -0.1, 0.0, -0.2]).unwrap();
    let (svg, map) = render(&h, (800, 600), HeatmapStyle::default());
    let t = texts(&svg);
    for label in ["\u{394} weight", "\u{2212}0.2", "0.2", "0"] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    // Zero difference is the neutral near-white of the scale.
    let rs = rects(&svg);
    let zero = map.drawn_rect(1, 0).unwrap();
    let (_, fill) = rs.iter().find(|(r, _)| *r == zero).unwrap();
    assert_eq!(fill, "#F7F7F7");
}

#[test]
fn an_empty_matrix_draws_only_the_title() {
    let h = Heatmap::weights("nothing yet", vec![], vec![], vec![]).unwrap();
    let (svg, map) = render(&h, (400, 300), HeatmapStyle::default());
    assert!(map.is_empty());
    assert_eq!(map.cell_at(10.0, 10.0), None);
    assert_eq!(texts(&svg), ["nothing yet"]);
}

#[test]
fn small_cells_paint_runs_of_equal_colour_as_one_rectangle() {
    // 300 tokens of uniform attention in 700 px: every row is a single run.
    let n = 300;
    let labels: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    let h = Heatmap::weights("", labels.clone(), labels, vec![1.0 / n as f32; n * n]).unwrap();
    let (svg, map) = render(&h, (700, 700), HeatmapStyle::default());
    assert!(map.cell_size() < 2.0);
    let (x0, x1) = (map.edge_x(0), map.edge_x(n));
    let runs = rects(&svg)
        .into_iter()
        .filter(|(((a, _), (b, _)), _)| *a == x0 && *b == x1)
        .count();
    let pixel_rows = (0..n)
        .filter(|&i| map.edge_y(i) < map.edge_y(i + 1))
        .count();
    assert_eq!(runs, pixel_rows, "one rectangle per painted row");
}
