//! The token-to-token lines figure on the SVG backend: labels, lines, their opacity and
//! the isolation of one token.

use attnlab_plot::{
    FADE, Focus, HEAD_COLOURS, LinesStyle, TokenLines, TokenLinesMap, draw_token_lines,
};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

#[path = "support/svg.rs"]
mod svg;

use svg::{hex, tags, texts};

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Row-stochastic weights peaking on the diagonal.
fn weights(n: usize, m: usize, shift: usize) -> Vec<f32> {
    let mut v = Vec::new();
    for i in 0..n {
        let row: Vec<f32> = (0..m)
            .map(|j| 1.0 / (1.0 + ((i + shift) as f32 - j as f32).abs().powi(2)))
            .collect();
        let sum: f32 = row.iter().sum();
        v.extend(row.iter().map(|x| x / sum));
    }
    v
}

fn render(data: &TokenLines, size: (u32, u32)) -> (String, TokenLinesMap) {
    let mut svg = String::new();
    let map = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let map = draw_token_lines(&area, data, &LinesStyle::default()).expect("drawn");
        area.present().expect("present");
        map
    };
    (svg, map)
}

/// (colour, opacity, from y, to y) of every line.
fn lines(svg: &str) -> Vec<(String, f32, i32, i32)> {
    tags(svg, "polyline")
        .into_iter()
        .map(|t| {
            let pts: Vec<(i32, i32)> = t.attrs["points"]
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (
                t.attrs["stroke"].clone(),
                t.attrs["opacity"].parse().unwrap(),
                pts[0].1,
                pts[1].1,
            )
        })
        .collect()
}

fn sentence() -> TokenLines {
    let q = words(&["The", "cat", "sat", "down"]);
    let k = words(&["Le", "chat", "s'est", "assis", "là"]);
    TokenLines::new("Head 0 and head 1", q, k)
        .with_head("head 0", HEAD_COLOURS[0], weights(4, 5, 0))
        .unwrap()
        .with_head("head 1", HEAD_COLOURS[1], weights(4, 5, 1))
        .unwrap()
}

#[test]
fn every_token_is_labelled_and_every_pair_has_a_line_per_head() {
    let data = sentence();
    let (svg, map) = render(&data, (800, 500));
    let t = texts(&svg);
    for w in [
        "The", "cat", "sat", "down", "Le", "chat", "s'est", "assis", "là",
    ] {
        assert_eq!(t.iter().filter(|x| *x == w).count(), 1, "{w} once: {t:?}");
    }
    assert!(t.contains(&"queries".to_string()) && t.contains(&"keys".to_string()));
    // Legend: one label per head.
    assert!(t.contains(&"head 0".to_string()) && t.contains(&"head 1".to_string()));
    assert_eq!(map.labels_drawn(), 9);
    assert_eq!(map.label_step(), 1);
    let l = lines(&svg);
    assert_eq!(l.len(), 2 * 4 * 5);
    assert_eq!(map.lines_drawn(), 40);
    // Opacity = weight, in each head's colour.
    let c0 = hex(HEAD_COLOURS[0]);
    let head0: Vec<_> = l.iter().filter(|x| x.0 == c0).collect();
    assert_eq!(head0.len(), 20);
    let w = weights(4, 5, 0);
    let mut alphas: Vec<f32> = head0.iter().map(|x| x.1).collect();
    let mut expected = w.clone();
    alphas.sort_by(f32::total_cmp);
    expected.sort_by(f32::total_cmp);
    for (a, e) in alphas.iter().zip(&expected) {
        assert!((a - e).abs() < 1e-3, "{a} vs {e}");
    }
}

#[test]
fn focusing_a_token_keeps_its_lines_and_fades_the_others() {
    let data = sentence();
    let (_, map) = render(&data, (800, 500));
    let (x, y) = map.token_centre(Focus::Query(2)).unwrap();
    assert_eq!(map.token_at(x, y), Some(Focus::Query(2)));
    let (x, y) = map.token_centre(Focus::Key(4)).unwrap();
    assert_eq!(map.token_at(x, y), Some(Focus::Key(4)));
    assert_eq!(map.token_at(400.0, y), None, "the middle is no token");

    let focused = data.clone().with_focus(Focus::Query(2));
    let (svg, _) = render(&focused, (800, 500));
    let (_, qy) = map.token_centre(Focus::Query(2)).unwrap();
    let l = lines(&svg);
    assert_eq!(l.len(), 40);
    let w = weights(4, 5, 0);
    for (colour, alpha, from, _) in &l {
        let mine = (*from as f64 - qy).abs() < 1.0;
        if colour == &hex(HEAD_COLOURS[0]) {
            let max = if mine { 1.0 } else { FADE + 1e-3 };
            assert!(
                *alpha <= max,
                "{alpha} of a {} line",
                if mine { "focused" } else { "faded" }
            );
        }
    }
    // The focused token's lines come last (on top) and keep their weights.
    let last: Vec<f32> = l[l.len() - 10..l.len() - 5].iter().map(|x| x.1).collect();
    for (a, e) in last.iter().zip(&w[10..15]) {
        assert!((a - e).abs() < 1e-3, "{a} vs {e}");
    }
    assert_eq!(focused.line_alpha(0, 0, 0), Some(w[0] * FADE));
    assert_eq!(focused.line_alpha(0, 2, 3), Some(w[13]));
    // A key focus isolates the lines into that key.
    let k = data.clone().with_focus(Focus::Key(1));
    assert!(k.is_isolated(3, 1) && !k.is_isolated(3, 2));
    assert_eq!(data.with_focus(Focus::Query(99)).focus(), Focus::None);
}

#[test]
fn a_gain_strengthens_small_weights_up_to_opaque() {
    let toks = |k: usize| (0..k).map(|i| format!("t{i}")).collect::<Vec<_>>();
    let data = TokenLines::new("small", toks(2), toks(2))
        .with_head("h", HEAD_COLOURS[0], vec![0.25, 0.05, 0.0, 0.1])
        .unwrap();
    assert_eq!(data.strength(), (1.0, 2.0));
    assert_eq!(data.line_alpha(0, 0, 0), Some(0.25));
    let strong = data.clone().with_strength(4.0, 4.0);
    assert_eq!(strong.strength(), (4.0, 4.0));
    assert_eq!(strong.line_alpha(0, 0, 0), Some(1.0));
    assert_eq!(strong.line_alpha(0, 0, 1), Some(0.2));
    assert_eq!(strong.line_alpha(0, 1, 1), Some(0.4));
    // Nonsense is ignored.
    assert_eq!(data.with_strength(f32::NAN, -1.0).strength(), (1.0, 2.0));
}

#[test]
fn a_hundred_tokens_are_thinned_to_readable_labels() {
    let toks: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
    let data = TokenLines::new("100 tokens", toks.clone(), toks)
        .with_head("head 0", HEAD_COLOURS[0], weights(100, 100, 0))
        .unwrap()
        .with_focus(Focus::Query(37));
    let (svg, map) = render(&data, (900, 700));
    assert!(
        map.label_step() > 1,
        "100 rows in 700 px cannot all be labelled at 12 px"
    );
    let t = texts(&svg);
    assert!(
        t.contains(&"#37 w37".to_string()),
        "the focused token is always labelled"
    );
    // Every label is at least 12 px: the legend is written at 14 px, whatever unit the
    // SVG backend writes it in.
    let size = |t: &svg::Tag| -> f64 { t.attrs["font-size"].parse().unwrap() };
    let all = tags(&svg, "text");
    let legend = all.iter().find(|t| t.text == "head 0").map(size).unwrap();
    for tag in all.iter().filter(|t| t.text.starts_with('#')) {
        assert!(
            size(tag) >= legend * 12.0 / 14.0 - 1e-9,
            "{} is {}",
            tag.text,
            size(tag)
        );
    }
    assert!(map.lines_drawn() > 100 && map.lines_drawn() <= 100 * 100);
}

#[test]
fn bad_shapes_are_errors_and_no_head_still_draws_the_tokens() {
    let q = words(&["a", "b"]);
    assert!(
        TokenLines::new("", q.clone(), q.clone())
            .with_head("h", HEAD_COLOURS[0], vec![0.5; 3])
            .is_err()
    );
    assert!(
        TokenLines::new("", q.clone(), q.clone())
            .with_head("h", HEAD_COLOURS[0], vec![f32::NAN; 4])
            .is_err()
    );
    let (svg, map) = render(&TokenLines::new("none", q.clone(), q), (600, 300));
    assert_eq!(map.lines_drawn(), 0);
    assert!(
        texts(&svg)
            .iter()
            .any(|t| t.starts_with("no head selected"))
    );
    let (_, map) = render(&TokenLines::new("empty", vec![], vec![]), (600, 300));
    assert_eq!(map, TokenLinesMap::EMPTY);
}

#[test]
fn a_threshold_draws_only_the_lines_at_or_above_it() {
    let toks: Vec<String> = (0..30).map(|i| format!("w{i}")).collect();
    let w = weights(30, 30, 0);
    let all = TokenLines::new("t", toks.clone(), toks.clone())
        .with_head("head 0", HEAD_COLOURS[0], w.clone())
        .unwrap();
    let (_, every) = render(&all, (700, 700));
    for t in [0.05f32, 0.2, 0.5] {
        let fig = all.clone().with_threshold(t);
        assert_eq!(fig.threshold(), t);
        let (svg, map) = render(&fig, (700, 700));
        let want = w.iter().filter(|&&x| x >= t && x >= 0.005).count();
        assert_eq!(map.lines_drawn(), want, "threshold {t}");
        assert_eq!(lines(&svg).len(), want);
        assert!(
            lines(&svg).iter().all(|l| l.1 >= t - 1e-3),
            "every line drawn is at least {t}"
        );
        assert!(map.lines_drawn() < every.lines_drawn());
    }
    assert_eq!(all.clone().with_threshold(f32::NAN).threshold(), 0.0);
    assert_eq!(all.clone().with_threshold(7.0).threshold(), 1.0);
    assert!(
        all.clone()
            .with_threshold(0.2)
            .is_drawn(0, 3, 3, &LinesStyle::default())
    );
    assert!(
        !all.with_threshold(0.2)
            .is_drawn(0, 3, 20, &LinesStyle::default())
    );
}
