//! Tests of the heatmap's data: shapes, ranges, masks, raw scores and entropies.

use super::*;

fn labels(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("t{i}")).collect()
}

#[test]
fn difference_ranges_end_at_round_numbers() {
    for (x, r) in [
        (0.2, 0.2),
        (0.37, 0.4),
        (0.41, 0.5),
        (0.51, 0.6),
        (0.0123, 0.015),
        (0.7, 0.8),
        (0.81, 1.0),
        (1.0, 1.0),
        (3e-7, 3e-7),
    ] {
        let got = round_up(x);
        assert!((got - r).abs() <= r * 1e-5, "{x} → {got}, want {r}");
    }
    // Never below the value, never more than 1.5× above it.
    for k in 1..2000 {
        let x = k as f32 * 0.000_731;
        let r = round_up(x);
        assert!(r >= x && r <= 1.5 * x * (1.0 + 1e-5), "{x} → {r}");
    }
    let d = Heatmap::difference("", labels(1), labels(2), vec![0.33, -0.1]).unwrap();
    assert_eq!((d.range().min(), d.range().max()), (-0.4, 0.4));
}

#[test]
fn shapes_are_checked_once() {
    let err = Heatmap::weights("", labels(2), labels(3), vec![0.0; 5]).unwrap_err();
    assert_eq!(
        err,
        HeatmapError::Shape {
            field: "values",
            expected: 6,
            got: 5
        }
    );
    let h = Heatmap::weights("", labels(2), labels(3), vec![0.0; 6]).unwrap();
    assert!(h.clone().with_blocked(vec![false; 5]).is_err());
    assert!(h.clone().with_empty_rows(vec![2]).is_err());
    let mut v = vec![0.0; 6];
    v[4] = f32::NAN;
    let err = Heatmap::weights("", labels(2), labels(3), v).unwrap_err();
    assert_eq!(err, HeatmapError::NonFinite { row: 1, col: 1 });
    assert!(err.to_string().contains("row 1, column 1"));
}

#[test]
fn blocked_and_empty_rows() {
    let h = Heatmap::weights("", labels(2), labels(2), vec![1.0, 0.0, 0.0, 0.0])
        .unwrap()
        .with_blocked(vec![false, true, true, true])
        .unwrap()
        .with_empty_rows(vec![1, 1])
        .unwrap();
    assert!(!h.is_blocked(0, 0));
    assert!(h.is_blocked(0, 1));
    assert!(h.is_blocked(1, 0));
    assert_eq!(h.empty_rows(), [1]);
    assert_eq!(h.value(0, 0), Some(1.0));
    assert_eq!(h.value(2, 0), None);
    let none = Heatmap::weights("", labels(1), labels(1), vec![0.5]).unwrap();
    let none = none.with_blocked(vec![false]).unwrap();
    assert!(!none.has_blocked());
}

#[test]
fn difference_is_symmetric_and_diverging() {
    let h = Heatmap::difference("", labels(1), labels(3), vec![-0.2, 0.1, 0.05]).unwrap();
    assert_eq!(h.scale(), ColorScale::Diverging);
    assert_eq!(h.range(), ValueRange::symmetric(0.2));
    assert_eq!(h.value_label(), "\u{394} weight");
    // Blocking the largest change narrows the range to what is visible…
    let h = h.with_blocked(vec![true, false, false]).unwrap();
    assert_eq!(h.range(), ValueRange::symmetric(0.1));
    // …until a range is fixed by hand.
    let fixed = ValueRange::symmetric(0.5);
    let h = h.with_range(fixed).with_empty_rows(vec![0]).unwrap();
    assert_eq!(h.range(), fixed);
}

#[test]
fn difference_of_blocks_cells_masked_in_either() {
    #[rustfmt::skip]
    let a = Heatmap::weights("A", labels(2), labels(2), vec![
        1.0, 0.0,
        0.5, 0.5,
    ]).unwrap().with_blocked(vec![false, true, false, false]).unwrap();
    #[rustfmt::skip]
    let b = Heatmap::weights("B", labels(2), labels(2), vec![
        0.4, 0.6,
        0.0, 1.0,
    ]).unwrap().with_blocked(vec![false, false, true, false]).unwrap();
    let d = Heatmap::difference_of("A \u{2212} B", &a, &b).unwrap();
    assert_eq!(d.values(), [0.6, -0.6, 0.5, -0.5]);
    assert!(!d.is_blocked(0, 0) && d.is_blocked(0, 1) && d.is_blocked(1, 0));
    assert!(!d.is_blocked(1, 1));
    // The range covers only the visible cells: ±0.6 from (0, 0).
    assert_eq!(d.range(), ValueRange::symmetric(0.6));
    // An empty row of one blocks its row; without masks nothing is blocked.
    let plain = Heatmap::weights("P", labels(2), labels(2), vec![0.5; 4]).unwrap();
    let empty = plain.clone().with_empty_rows(vec![1]).unwrap();
    let d = Heatmap::difference_of("", &plain, &empty).unwrap();
    assert!(d.is_blocked(1, 0) && d.is_blocked(1, 1) && !d.is_blocked(0, 1));
    let d = Heatmap::difference_of("", &a, &plain).unwrap();
    assert!(d.is_blocked(0, 1) && !d.is_blocked(1, 0));
    let d = Heatmap::difference_of("", &plain, &plain).unwrap();
    assert!(!d.has_blocked() && d.empty_rows().is_empty());
    let c = Heatmap::weights("C", labels(2), labels(3), vec![0.0; 6]).unwrap();
    assert_eq!(
        Heatmap::difference_of("", &a, &c).unwrap_err(),
        HeatmapError::ShapeMismatch {
            a: (2, 2),
            b: (2, 3)
        }
    );
}

#[test]
fn raw_scores_are_read_back_by_cell() {
    let h = Heatmap::weights("", labels(2), labels(2), vec![0.5; 4]).unwrap();
    assert_eq!(h.raw_score(0, 0), None);
    assert!(h.clone().with_raw_scores(vec![0.0; 3]).is_err());
    let h = h
        .with_raw_scores(vec![1.5, f32::NEG_INFINITY, -2.0, 0.25])
        .unwrap();
    assert_eq!(h.raw_score(1, 0), Some(-2.0));
    assert_eq!(h.raw_score(0, 1), Some(f32::NEG_INFINITY));
    assert_eq!(h.raw_score(2, 0), None);
    assert_eq!(h.raw_scores().map(<[f32]>::len), Some(4));
}

#[test]
fn row_entropy_is_checked_and_read_back() {
    let h = Heatmap::weights("", labels(2), labels(2), vec![0.5; 4]).unwrap();
    assert!(!h.has_row_entropy());
    let err = h
        .clone()
        .with_row_entropy(vec![0.1], vec![0.1, 0.2])
        .unwrap_err();
    assert_eq!(
        err,
        HeatmapError::Shape {
            field: "row_entropy",
            expected: 2,
            got: 1
        }
    );
    let err = h
        .clone()
        .with_row_entropy(vec![0.1, 0.2], vec![0.1, f32::NAN])
        .unwrap_err();
    assert_eq!(
        err,
        HeatmapError::NonFiniteRowValue {
            field: "row_entropy_normalised",
            row: 1
        }
    );
    let h = h.with_row_entropy(vec![0.0, 0.69], vec![0.0, 1.0]).unwrap();
    assert_eq!(h.row_entropy(1), Some((0.69, 1.0)));
    assert_eq!(h.row_entropy(2), None);
}

#[test]
fn allowed_keys_per_row() {
    let h = Heatmap::weights("", labels(3), labels(3), vec![0.0; 9])
        .unwrap()
        .with_blocked(vec![
            false, true, true, false, false, true, true, true, true,
        ])
        .unwrap()
        .with_empty_rows(vec![2])
        .unwrap();
    assert_eq!(
        (0..4).map(|i| h.allowed_in_row(i)).collect::<Vec<_>>(),
        [1, 2, 0, 0]
    );
}
