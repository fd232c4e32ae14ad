//! A heatmap on a phone's width (under 420 px, unscaled): the matrix takes the width,
//! the axis captions share a line under the title, the legend lies under the matrix and
//! the entropy panel is left out; read back from plotters' SVG backend.

use attnlab_plot::{CellMap, ENTROPY_BAR, Heatmap, HeatmapStyle, natural_height};

#[path = "support/svg.rs"]
mod svg;

use svg::{num, rects_filled, render, tags, texts, texts_outside};

const SENTENCE: [&str; 11] = [
    "The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired",
];

fn sentence(n: usize) -> Heatmap {
    let words: Vec<String> = SENTENCE
        .iter()
        .cycle()
        .take(n)
        .map(|s| s.to_string())
        .collect();
    let mut v = Vec::with_capacity(n * n);
    for i in 0..n {
        let row: Vec<f32> = (0..n).map(|j| 1.0 / (1.0 + i.abs_diff(j) as f32)).collect();
        let sum: f32 = row.iter().sum();
        v.extend(row.iter().map(|x| x / sum));
    }
    let entropy = vec![1.0; n];
    Heatmap::weights(
        "A · Head 0 · scaled dot-product softmax",
        words.clone(),
        words,
        v,
    )
    .unwrap()
    .with_row_entropy(entropy.clone(), vec![0.5; n])
    .unwrap()
}

/// `h` drawn `width` CSS px wide at `scale`, as tall as it needs.
fn render_at(h: &Heatmap, width: f64, scale: f64) -> (String, CellMap, (u32, u32)) {
    let style = HeatmapStyle::scaled(scale);
    let w = width * scale;
    let size = (w as u32, natural_height(h, &style, w) as u32);
    let (svg, map) = render(h, size, style);
    (svg, map, size)
}

/// The y of the text `t` (the first one).
fn text_y(svg: &str, t: &str) -> i32 {
    let tag = tags(svg, "text")
        .into_iter()
        .find(|tag| tag.text == t)
        .unwrap_or_else(|| panic!("{t:?} drawn"));
    num(&tag, "y")
}

#[test]
fn on_a_phone_the_matrix_takes_four_fifths_of_the_width() {
    // A 390 px phone less a 2 px margin each side, at a phone's two device pixels per
    // CSS pixel and at one.
    for scale in [1.0, 2.0] {
        let (svg, map, (w, h)) = render_at(&sentence(11), 386.0, scale);
        let matrix = f64::from(map.edge_x(11) - map.edge_x(0));
        assert!(
            matrix >= 0.8 * 390.0 * scale,
            "matrix {matrix} of {w} at ×{scale}"
        );
        let outside = texts_outside(&svg, (w as i32, h as i32));
        assert!(outside.is_empty(), "{outside:?}");
        // Every token still labels its row and its column, at 12 px or more.
        let t = texts(&svg);
        for word in SENTENCE {
            assert!(
                t.iter().filter(|s| *s == word).count() >= 2,
                "{word} in {t:?}"
            );
        }
        assert!(map.cell_size() >= 20.0 * scale);
    }
}

#[test]
fn on_a_phone_the_legend_lies_under_the_matrix_and_the_captions_share_a_line() {
    let (svg, map, _) = render_at(&sentence(11), 386.0, 1.0);
    let bottom = map.edge_y(11);
    // The caption and both ends of the scale under the matrix.
    for t in ["weight", "0", "1"] {
        assert!(
            text_y(&svg, t) > bottom,
            "{t:?} under the matrix at {bottom}"
        );
    }
    // One line for both captions, above the column labels.
    let captions = text_y(&svg, "keys \u{2192}   queries \u{2193}");
    assert!(captions < map.edge_y(0) - 40);
    // No entropy panel: the cell's reading gives the row's entropy instead.
    assert!(rects_filled(&svg, ENTROPY_BAR).is_empty());
    assert!(map.entropy_panel().is_none());
    assert!(!texts(&svg).iter().any(|t| t.contains("entropy")));
}

#[test]
fn on_a_phone_many_tokens_fit_and_a_tablet_keeps_the_panel() {
    // 64 tokens: every k-th labelled, all inside.
    let (svg, map, (w, h)) = render_at(&sentence(64), 386.0, 2.0);
    assert!(f64::from(map.edge_x(64) - map.edge_x(0)) >= 0.8 * 390.0 * 2.0);
    assert!(texts_outside(&svg, (w as i32, h as i32)).is_empty());
    // Two variants side by side on a 1024 px tablet or a 1280 px laptop (canvases
    // about 445 px) keep the entropy bars.
    let (svg, map, _) = render_at(&sentence(11), 440.0, 1.0);
    assert!(!rects_filled(&svg, ENTROPY_BAR).is_empty());
    assert!(map.entropy_panel().is_some());
}

#[test]
fn a_tap_on_a_row_label_names_its_row() {
    let (_, map, _) = render_at(&sentence(11), 386.0, 2.0);
    let (x0, _) = (map.edge_x(0), map.edge_y(0));
    for i in 0..11 {
        let y = f64::from(map.edge_y(i) + map.edge_y(i + 1)) / 2.0;
        assert_eq!(map.label_row_at(f64::from(x0) - 20.0, y), Some(i));
        // On the matrix it is a cell, not a label.
        assert_eq!(map.label_row_at(f64::from(x0) + 5.0, y), None);
    }
    assert_eq!(map.label_row_at(5.0, f64::from(map.edge_y(11)) + 3.0), None);
}
