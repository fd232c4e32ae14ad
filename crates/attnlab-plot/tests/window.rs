//! A part of a heatmap (a zoomed range of queries and keys): its cells are the whole's,
//! its labels carry the whole's indices, and a range too long to label each token is
//! labelled at a readable size with a stated step.

use attnlab_plot::{Heatmap, HeatmapFrame, HeatmapStyle, labels_drawn};

#[path = "support/svg.rs"]
mod svg;

use svg::{render, texts};

fn tokens(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("w{i}")).collect()
}

fn values(n: usize, m: usize) -> Vec<f32> {
    (0..n * m).map(|k| (k % 97) as f32 / 97.0).collect()
}

fn long() -> Heatmap {
    let n = 300;
    let nats: Vec<f32> = (0..n).map(|i| i as f32 / 100.0).collect();
    let share: Vec<f32> = (0..n).map(|i| i as f32 / 300.0).collect();
    Heatmap::weights("Head 0", tokens(n), tokens(n), values(n, n))
        .unwrap()
        .with_raw_scores(values(n, n))
        .unwrap()
        .with_row_entropy(nats, share)
        .unwrap()
        .with_blocked((0..n * n).map(|k| k % n > k / n).collect())
        .unwrap()
}

#[test]
fn a_window_holds_the_wholes_cells_with_their_indices() {
    let whole = long();
    let part = whole.window(120..161, 100..181);
    assert_eq!((part.n_rows(), part.n_cols()), (41, 81));
    assert_eq!(part.origin(), (120, 100));
    assert!(part.is_window() && !whole.is_window());
    for (r, c) in [(0, 0), (40, 80), (7, 33)] {
        let (i, j) = (120 + r, 100 + c);
        assert_eq!(part.value(r, c), whole.value(i, j));
        assert_eq!(part.raw_score(r, c), whole.raw_score(i, j));
        assert_eq!(part.is_blocked(r, c), whole.is_blocked(i, j));
        assert_eq!(part.row_entropy(r), whole.row_entropy(i));
        assert_eq!(part.row_labels()[r], format!("w{i}"));
        assert_eq!(part.col_labels()[c], format!("w{j}"));
    }
    assert_eq!(part.range(), whole.range());
    // A window of a window counts from the whole.
    let inner = part.window(10..12, 0..3);
    assert_eq!(inner.origin(), (130, 100));
    assert_eq!(inner.value(1, 2), whole.value(131, 102));
}

#[test]
fn ranges_past_the_matrix_are_clamped_never_empty() {
    let whole = long();
    let part = whole.window(290..400, 350..900);
    assert_eq!((part.n_rows(), part.n_cols()), (10, 1));
    assert_eq!(part.origin(), (290, 299));
    let (start, end) = (50, 20);
    let reversed = whole.window(start..end, 7..7);
    assert_eq!((reversed.n_rows(), reversed.n_cols()), (1, 1));
    assert_eq!(reversed.value(0, 0), whole.value(50, 7));
    let empty = Heatmap::weights("", Vec::<String>::new(), tokens(3), Vec::new()).unwrap();
    let w = empty.window(0..5, 0..5);
    assert_eq!((w.n_rows(), w.n_cols()), (0, 3));
}

#[test]
fn a_zoomed_range_labels_every_token_with_its_index() {
    let whole = long();
    let style = HeatmapStyle::default();
    // The whole: every 20th or more.
    let all = labels_drawn(&whole, &style, (700, 700));
    assert!(all.step >= 20, "{all:?}");
    // Queries 120–160 and keys 120–150 at the same size: every token, at 12 px or more.
    let part = whole.window(120..161, 120..151);
    let drawn = labels_drawn(&part, &style, (1000, 1000));
    assert_eq!(
        (drawn.step, drawn.rows, drawn.cols),
        (1, 41, 31),
        "{drawn:?}"
    );
    assert!(drawn.px >= 12.0, "{drawn:?}");
    let (svg, _) = render(&part, (1000, 1000), style);
    let t = texts(&svg);
    for i in [120, 137, 160] {
        assert!(
            t.iter().any(|s| s == &format!("#{i} w{i}")),
            "#{i} in {t:?}"
        );
    }
    assert!(!t.iter().any(|s| s.starts_with("#0 ")));
    // 81 keys on a narrow canvas: labels stay readable, a round step of the whole's
    // indices is drawn and said.
    let wide = whole.window(120..161, 100..181);
    let drawn = labels_drawn(&wide, &style, (420, 600));
    assert!(drawn.step > 1 && drawn.px >= 12.0, "{drawn:?}");
    let (svg, _) = render(&wide, (420, 600), style);
    let t = texts(&svg);
    assert!(t.iter().any(|s| s == &format!("#{} w{0}", 100)), "{t:?}");
    assert!(t.iter().any(|s| s == "#120 w120"), "{t:?}");
}

#[test]
fn two_windows_with_the_same_labels_are_different_frames() {
    let same = Heatmap::weights(
        "",
        vec!["a".to_string(); 40],
        vec!["a".to_string(); 40],
        values(40, 40),
    )
    .unwrap();
    let style = HeatmapStyle::default();
    let a = HeatmapFrame::of(&same.window(0..10, 0..10), &style, (500, 500));
    let b = HeatmapFrame::of(&same.window(10..20, 0..10), &style, (500, 500));
    let c = HeatmapFrame::of(&same.window(10..20, 0..10), &style, (500, 500));
    assert_ne!(a, b);
    assert_eq!(b, c);
    assert!(!a.differs_in_range_alone(&b));
}
