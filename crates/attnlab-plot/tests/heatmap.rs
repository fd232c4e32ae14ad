//! The heatmap, drawn on plotters' SVG backend into a `String` and read back (texts,
//! rectangles, hatch lines, the cell map), the way a person would check a plot: labels,
//! legend, masked cells and empty rows, differences, the row-entropy panel, the natural
//! height.

use attnlab_plot::{
    CellText, ENTROPY_BAR, ENTROPY_TRACK, Heatmap, HeatmapStyle, MASK_FILL, MASK_HATCH,
    draw_heatmap,
};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

#[path = "support/svg.rs"]
mod svg;

use svg::{Tag, hex, num, rects, rects_filled, render, tags, texts, texts_outside};

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
fn numbered_labels_are_not_numbered_twice() {
    let n = 60;
    let labels: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let h = Heatmap::weights("", labels.clone(), labels, weights(n, n)).unwrap();
    let (svg, _) = render(&h, (900, 700), HeatmapStyle::default());
    let t = texts(&svg);
    assert!(!t.iter().any(|s| s.starts_with('#')), "{t:?}");
    assert!(
        t.contains(&"58".to_string()) && !t.contains(&"3".to_string()),
        "{t:?}"
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
        let outside = texts_outside(&svg, (w, hgt));
        assert!(outside.is_empty(), "n={n}: {outside:?}");
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
    for label in [
        "\u{394} weight",
        "\u{2212}0.2",
        "+0.2",
        "0",
        "+0.1",
        "\u{2212}0.1",
    ] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    // Cells are signed too.
    for label in ["+0.20", "\u{2212}0.10", "0.00", "\u{2212}0.20"] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    // 0 sits in the middle of the bar, between the two ends.
    let y_of = |label: &str| {
        tags(&svg, "text")
            .into_iter()
            .rfind(|t| t.text == label)
            .map(|t| num(&t, "y"))
            .unwrap()
    };
    let (top, zero, bottom) = (y_of("+0.2"), y_of("0"), y_of("\u{2212}0.2"));
    assert!(top < zero && zero < bottom);
    assert!(
        ((top + bottom) / 2 - zero).abs() <= 1,
        "{top} {zero} {bottom}"
    );
    // Zero difference is the neutral near-white of the scale.
    let rs = rects(&svg);
    let zero = map.drawn_rect(1, 0).unwrap();
    let (_, fill) = rs.iter().find(|(r, _)| *r == zero).unwrap();
    assert_eq!(fill, "#F7F7F7");
}

#[test]
fn difference_of_two_heads_shows_cells_masked_in_either_as_masked() {
    let n = 6;
    let labels = words(&SENTENCE[..n]);
    let mask = |f: &dyn Fn(usize, usize) -> bool| -> Vec<bool> {
        (0..n * n).map(|k| f(k / n, k % n)).collect()
    };
    let causal = |i: usize, j: usize| j > i;
    let window = |i: usize, j: usize| i.abs_diff(j) > 1;
    let a = Heatmap::weights("A", labels.clone(), labels.clone(), weights(n, n))
        .unwrap()
        .with_blocked(mask(&causal))
        .unwrap();
    let b = Heatmap::weights("B", labels.clone(), labels, vec![1.0 / n as f32; n * n])
        .unwrap()
        .with_blocked(mask(&window))
        .unwrap();
    let d = Heatmap::difference_of("A \u{2212} B", &a, &b).unwrap();
    let (svg, map) = render(&d, (900, 700), HeatmapStyle::default());
    let rs = rects(&svg);
    let masked = hex(MASK_FILL);
    let mut union = 0;
    for i in 0..n {
        for j in 0..n {
            let want = map.drawn_rect(i, j).unwrap();
            let (_, fill) = rs.iter().find(|(r, _)| *r == want).expect("cell drawn");
            if causal(i, j) || window(i, j) {
                union += 1;
                assert_eq!(fill, &masked, "({i}, {j}) is masked in A or B");
            } else {
                assert_ne!(fill, &masked, "({i}, {j}) is allowed in both");
            }
        }
    }
    assert_eq!(
        union,
        n * n - (2 * n - 1),
        "only j = i and j = i − 1 are allowed in both"
    );
    let t = texts(&svg);
    assert!(t.contains(&"masked".to_string()));
    // The legend's range is the largest visible change rounded up to a round number,
    // symmetric around 0.
    let max = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| !d.is_blocked(i, j))
        .map(|(i, j)| d.value(i, j).unwrap().abs())
        .fold(0f32, f32::max);
    let r = d.range().max();
    assert!(
        max <= r && r <= 1.5 * max,
        "range {r} for a largest change of {max}"
    );
    let mantissa = r / 10f32.powf(r.log10().floor());
    assert!(
        [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
            .iter()
            .any(|s| (mantissa - s).abs() < 1e-4),
        "{r} is a round number"
    );
    assert_eq!(d.range().min(), -r);
}

/// A causal heatmap of `n` tokens whose token 0 is padding (query 0 has no allowed key,
/// key 0 is blocked for every query), uniform over the allowed keys, with its row
/// entropies: query i ≥ 1 attends to keys 1..=i, so H_i = ln i, normalised 1 (query 1 has
/// a single key: H = 0).
fn entropy_heatmap(n: usize) -> Heatmap {
    let labels: Vec<String> = (0..n).map(|i| format!("w{i}")).collect();
    let blocked = |i: usize, j: usize| i == 0 || j == 0 || j > i;
    let mut values = vec![0.0; n * n];
    let mut mask = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            if blocked(i, j) {
                mask[i * n + j] = true;
            } else {
                values[i * n + j] = 1.0 / i as f32;
            }
        }
    }
    let nats: Vec<f32> = (0..n).map(|i| (i.max(1) as f32).ln()).collect();
    let norm: Vec<f32> = (0..n).map(|i| if i < 2 { 0.0 } else { 1.0 }).collect();
    Heatmap::weights("entropy", labels.clone(), labels, values)
        .unwrap()
        .with_blocked(mask)
        .unwrap()
        .with_empty_rows(vec![0])
        .unwrap()
        .with_row_entropy(nats, norm)
        .unwrap()
}

#[test]
fn row_entropy_bars_line_up_with_the_rows() {
    let n = 6;
    let h = entropy_heatmap(n);
    let (svg, map) = render(&h, (1100, 760), HeatmapStyle::default());
    let t = texts(&svg);
    for label in ["row entropy", "nats", "% of max", "\u{2205}"] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    // H_i in nats: ln 2 … ln 5; uniform rows are 100% of their maximum; row 1 has one
    // allowed key (no share to speak of).
    for i in 1..n {
        let nats = format!("{:.2}", (i as f32).ln());
        assert!(t.contains(&nats), "{nats} in {t:?}");
    }
    assert_eq!(t.iter().filter(|s| *s == "100%").count(), n - 2, "{t:?}");
    assert!(t.contains(&"\u{2013}".to_string()), "{t:?}");

    // The panel sits between the matrix and the legend.
    let (p0, p1) = map.entropy_panel().expect("panel drawn");
    assert!(
        p0 > map.edge_x(n),
        "panel {p0} right of the matrix {}",
        map.edge_x(n)
    );
    let legend_x = tags(&svg, "text")
        .into_iter()
        .find(|t| t.text == "weight")
        .map(|t| num(&t, "x"))
        .unwrap();
    assert!(
        p1 <= legend_x,
        "panel ends {p1} before the legend {legend_x}"
    );

    // One bar per non-empty row, inside its row; bars grow with H.
    let bars = rects_filled(&svg, ENTROPY_BAR);
    let tracks = rects_filled(&svg, ENTROPY_TRACK);
    assert_eq!(bars.len(), n - 2, "rows 2..n have H > 0: {bars:?}");
    assert_eq!(tracks.len(), n - 2);
    let mut last_w = 0;
    for (k, ((x0, y0), (x1, y1))) in bars.iter().enumerate() {
        let i = k + 2;
        assert!(*x0 >= p0 && *x1 <= p1, "bar {i} inside the panel");
        assert!(
            *y0 >= map.edge_y(i) && *y1 <= map.edge_y(i + 1),
            "bar {i} in row {i}"
        );
        assert!(x1 - x0 > last_w, "bar {i} longer than the one above");
        last_w = x1 - x0;
        // Uniform rows: the bar covers its track (normalised 1).
        let ((_, _), (tx1, _)) = tracks[k];
        assert!((tx1 - x1).abs() <= 1, "row {i}: bar ends {x1}, track {tx1}");
    }
    // Hover over a bar finds its row; elsewhere nothing.
    for i in 0..n {
        let (_, cy) = map.cell_centre(i, 0).unwrap();
        assert_eq!(map.entropy_row_at((p0 + 5) as f64, cy), Some(i));
        assert_eq!(map.entropy_row_at((p1 + 5) as f64, cy), None);
    }
    assert_eq!(
        map.entropy_row_at((p0 + 5) as f64, (map.edge_y(n) + 2) as f64),
        None
    );
}

#[test]
fn row_entropy_for_many_tokens_keeps_the_bars_and_names_the_axis() {
    let n = 200;
    let h = entropy_heatmap(n);
    let (svg, map) = render(&h, (900, 700), HeatmapStyle::default());
    let t = texts(&svg);
    let axis = format!("0 \u{2013} {:.2} nats", (n as f32).ln());
    assert!(t.contains(&axis), "{axis} in {t:?}");
    assert!(
        !t.contains(&"% of max".to_string()),
        "rows too small for numbers"
    );
    let bars = rects_filled(&svg, ENTROPY_BAR).len();
    let painted_rows = (2..n)
        .filter(|&i| map.edge_y(i) < map.edge_y(i + 1))
        .count();
    assert_eq!(bars, painted_rows);
    let outside = texts_outside(&svg, (900, 700));
    assert!(outside.is_empty(), "{outside:?}");
}

#[test]
fn row_entropy_on_a_narrow_canvas_keeps_the_bars_and_gives_the_matrix_the_room() {
    let n = 6;
    let h = entropy_heatmap(n);
    let count = |svg: &str| rects_filled(svg, ENTROPY_BAR).len();
    // Medium: bars and nats, no "% of max" column.
    let (svg, _) = render(&h, (640, 520), HeatmapStyle::default());
    let t = texts(&svg);
    for label in ["row entropy", "nats", "1.61"] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    assert!(!t.contains(&"% of max".to_string()), "{t:?}");
    assert!(!t.contains(&"100%".to_string()), "{t:?}");
    assert_eq!(count(&svg), n - 2);

    // Narrow: bars only on a short axis (0 to ln 6 ≈ 1.8 nats), under a short title.
    // (Under 420 px the legend goes under the matrix and the panel is left out:
    // tests/phone.rs.)
    let (svg, map) = render(&h, (460, 420), HeatmapStyle::default());
    let t = texts(&svg);
    for label in ["entropy", "0\u{2013}1.8", "\u{2205}", "weight"] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    for label in ["row entropy", "nats", "% of max", "1.61"] {
        assert!(!t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    assert_eq!(count(&svg), n - 2, "one bar per row with H > 0");
    let (p0, p1) = map.entropy_panel().expect("panel drawn");
    assert!(
        p0 > map.edge_x(n) && p1 - p0 < 70,
        "a compact panel: {p0}..{p1}"
    );
    // The matrix keeps a third of the canvas' width (the full panel and legend would
    // leave it about 50 px).
    assert!(
        map.edge_x(n) - map.edge_x(0) > 150,
        "matrix {}..{}, panel {p0}..{p1}",
        map.edge_x(0),
        map.edge_x(n)
    );
    let outside = texts_outside(&svg, (460, 420));
    assert!(outside.is_empty(), "{outside:?}");
}

#[test]
fn raw_scores_ride_along_for_hover() {
    let h = sentence_heatmap();
    let scores: Vec<f32> = (0..121).map(|k| k as f32 / 10.0 - 6.0).collect();
    let h = h.with_raw_scores(scores.clone()).unwrap();
    let (svg, map) = render(&h, (1100, 800), HeatmapStyle::default());
    let (x, y) = map.cell_centre(3, 7).unwrap();
    let (i, j) = map.cell_at(x, y).unwrap();
    assert_eq!((i, j), (3, 7));
    assert_eq!(h.raw_score(i, j), Some(scores[3 * 11 + 7]));
    assert_eq!(h.raw_score(i, j), Some(-2.0));
    // Raw scores are not drawn: negative numbers never appear in a weight heatmap.
    assert!(
        !texts(&svg)
            .iter()
            .any(|t| t.starts_with('\u{2212}') || t.starts_with('-'))
    );
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

#[test]
fn the_natural_height_fits_the_matrix_without_a_blank_band() {
    let tokens = |n: usize| (0..n).map(|i| format!("w{i}")).collect::<Vec<_>>();
    for (n, m) in [(1, 1), (3, 3), (11, 11), (5, 20), (20, 5), (64, 64)] {
        let entropy = vec![0.5; n];
        let h = Heatmap::weights("Head 0", tokens(n), tokens(m), weights(n, m))
            .unwrap()
            .with_row_entropy(entropy.clone(), entropy)
            .unwrap();
        for width in [380u32, 420, 640, 900] {
            for scale in [1.0, 2.0] {
                let style = HeatmapStyle::scaled(scale);
                let w = f64::from(width) * scale;
                let natural = attnlab_plot::natural_height(&h, &style, w);
                let (_, fitted) = render(&h, (w as u32, natural as u32), style);
                let (_, roomy) = render(&h, (w as u32, (natural * 3.0) as u32), style);
                let label = format!("{n}×{m} at {width} px ×{scale}");
                // The cells are as large as the width allows: more height adds nothing.
                assert!(
                    (fitted.cell_size() - roomy.cell_size()).abs() < 0.51,
                    "{label}: cells {} at the natural height, {} with room",
                    fitted.cell_size(),
                    roomy.cell_size()
                );
                // And the matrix ends near the bottom: at most the margin and the
                // legend's minimum height below it; on a phone's width, the margin
                // and the legend laid under the matrix (about 80 px).
                let bottom = f64::from(fitted.edge_y(n));
                assert!(bottom <= natural, "{label}: matrix past the canvas");
                let blank = natural - bottom;
                let legend_min = 160.0 * scale;
                let under = if width < 420 { 84.0 } else { 16.0 };
                assert!(
                    blank <= under * scale || bottom < legend_min + 140.0 * scale,
                    "{label}: {blank} px blank under the matrix"
                );
            }
        }
    }
}

#[test]
fn a_difference_keeps_its_height_as_its_range_changes() {
    // Dragging a knob changes a difference's range, so its tick labels ("+0.8",
    // "−0.025", "+0.15"); the page would lay itself out again on every step if the
    // figure's height followed them.
    let tokens = (0..64).map(|i| format!("w{i}")).collect::<Vec<_>>();
    for (width, scale) in [(613.0, 1.0), (420.0, 2.0), (900.0, 1.0)] {
        let style = HeatmapStyle::scaled(scale);
        let heights: Vec<f64> = [0.83f32, 0.4, 0.15, 0.06, 0.025]
            .iter()
            .map(|&r| {
                let values: Vec<f32> = (0..64 * 64)
                    .map(|k| r * ((k % 7) as f32 / 3.0 - 1.0))
                    .collect();
                let h =
                    Heatmap::difference("B − A", tokens.clone(), tokens.clone(), values).unwrap();
                attnlab_plot::natural_height(&h, &style, width * scale)
            })
            .collect();
        assert!(
            heights.iter().all(|&h| h == heights[0]),
            "{width} px ×{scale}: {heights:?}"
        );
    }
}
