//! The kernels against their scalar oracles (`kernels::scalar`), on lengths that straddle
//! the 4-lane width (0, 1, 3, 4, 5, 15, 16, 17 and random ones), and the vectorised `exp`
//! against f64. Natively both sides are the scalar path; the checks bite under wasm32
//! with `+simd128` (`cargo xtask test` runs both wasm builds).

use attnlab_core::kernels::{self, scalar};
use proptest::prelude::*;

mod common;
use common::{config, lane_length};

fn values(len: usize, range: f32) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(-range..range, len)
}

/// A vector with some exact zeros (masked weights, relu features).
fn sparse(len: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(prop_oneof![1 => Just(0.0f32), 3 => -2.0f32..2.0], len)
}

/// How many f32 steps `got` is from the exact `want`, measured in the spacing of f32 at
/// `want` (the subnormal spacing 2⁻¹⁴⁹ below the normal range).
fn ulps(got: f32, want: f64) -> f64 {
    if got as f64 == want {
        return 0.0;
    }
    let w = want as f32;
    let spacing = if w.abs() < f32::MIN_POSITIVE {
        f64::from(f32::from_bits(1))
    } else {
        f64::from(f32::from_bits(w.abs().to_bits() + 1) - w.abs())
    };
    (f64::from(got) - want).abs() / spacing
}

fn exp_of(x: f32) -> f32 {
    let mut out = [0.0];
    kernels::exp(&[x], &mut out);
    out[0]
}

#[test]
fn exp_is_within_two_ulp_of_f64_over_the_whole_range() {
    // Every 2⁻¹⁰ from −88 to 88 (180,225 points), four lanes at a time with a tail.
    let xs: Vec<f32> = (0..=180_224).map(|i| -88.0 + i as f32 / 1024.0).collect();
    let mut out = vec![0.0; xs.len()];
    kernels::exp(&xs, &mut out);
    let worst = xs
        .iter()
        .zip(&out)
        .map(|(&x, &y)| (ulps(y, f64::from(x).exp()), x))
        .fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a });
    println!(
        "exp ({}): worst {} ulp at x = {}",
        kernels::ACTIVE,
        worst.0,
        worst.1
    );
    assert!(
        worst.0 <= 2.0,
        "exp ({}) is {} ulp off at x = {}",
        kernels::ACTIVE,
        worst.0,
        worst.1
    );
}

#[test]
fn entropy_terms_are_within_a_few_ulp_of_f64() {
    // One weight a at a time, −a ln a against f64, for a from 1e-30 to 1 (every
    // 1/64 of a decade): the logarithm's error shows undiluted. Near a = 1 the term
    // goes to 0, so the error is measured against the term's size or 1e-7, whichever is
    // larger.
    let mut worst: (f64, f32) = (0.0, 0.0);
    for k in 0..=(30 * 64) {
        let a = 10f64.powf(-30.0 + k as f64 / 64.0) as f32;
        let got = kernels::entropy(&[a]);
        let want = -f64::from(a) * f64::from(a).ln();
        let err = (f64::from(got) - want).abs() / want.abs().max(1e-7);
        if err > worst.0 {
            worst = (err, a);
        }
    }
    println!(
        "entropy ({}): worst relative error {:e} at a = {:e}",
        kernels::ACTIVE,
        worst.0,
        worst.1
    );
    assert!(
        worst.0 <= 5e-7,
        "entropy ({}) is {:e} off at a = {:e}",
        kernels::ACTIVE,
        worst.0,
        worst.1
    );
    // Hand-checked rows: uniform over 4 keys is ln 4; one-hot and empty rows are 0.
    assert!((kernels::entropy(&[0.25; 4]) - 4f32.ln()).abs() < 1e-6);
    assert_eq!(kernels::entropy(&[0.0, 1.0, 0.0, 0.0, 0.0]), 0.0);
    assert_eq!(kernels::entropy(&[]), 0.0);
    assert_eq!(kernels::entropy(&[0.0; 9]), 0.0);
}

#[test]
fn softmax_never_leaves_a_subnormal_weight() {
    // Logits falling by 0.37 per key over 120 nats, at τ = 1 and τ = 0.1: every term below
    // e^SOFTMAX_FLOOR is exactly 0, every other weight a normal number, rows sum to 1.
    let x: Vec<f32> = (0..330).map(|i| -(i as f32) * 0.37).collect();
    let allowed: Vec<bool> = (0..x.len()).map(|i| i % 7 != 3).collect();
    for scale in [1.0f32, 10.0] {
        let mut full = vec![0.0; x.len()];
        kernels::softmax_row(&x, scale, &mut full);
        let mut masked = vec![0.0; x.len()];
        assert!(kernels::softmax_row_masked(
            &x,
            scale,
            &allowed,
            &mut masked
        ));
        for out in [&full, &masked] {
            for (&w, &l) in out.iter().zip(&x) {
                assert!(
                    w == 0.0 || w >= f32::MIN_POSITIVE,
                    "weight {w:e} is subnormal"
                );
                if l * scale < kernels::SOFTMAX_FLOOR {
                    assert_eq!(w, 0.0, "logit gap {} is below the floor", l * scale);
                }
            }
            let sum: f32 = out.iter().sum();
            assert!((sum - 1.0).abs() < 1e-6, "sum {sum}");
        }
        assert!(full.iter().filter(|w| **w > 0.0).count() > 10);
    }
}

#[test]
fn exp_edges() {
    assert_eq!(exp_of(f32::NEG_INFINITY), 0.0, "e^−∞ = 0");
    assert_eq!(exp_of(-1000.0), 0.0, "large negative underflows to 0");
    assert_eq!(exp_of(-104.0), 0.0, "below half the smallest subnormal");
    assert_eq!(exp_of(0.0), 1.0, "e^0 = 1 exactly");
    assert_eq!(exp_of(-0.0), 1.0);
    assert_eq!(exp_of(100.0), f32::INFINITY, "overflow is +∞, never NaN");
    // e^1 = 2.7182817 to f32; e^−1 = 0.36787945.
    assert!(ulps(exp_of(1.0), 1f64.exp()) <= 1.0);
    assert!(ulps(exp_of(-1.0), (-1f64).exp()) <= 1.0);
    // The smallest normal and the subnormals just below: e^−87.33655 ≈ 1.1754944e−38.
    for x in [-87.0f32, -87.336_55, -87.5, -100.0, -103.0] {
        assert!(ulps(exp_of(x), f64::from(x).exp()) <= 2.0, "x = {x}");
    }
}

#[test]
fn softmax_hand_checked_and_stable() {
    let mut out = [0.0; 2];
    kernels::softmax_row(&[1234.0, 0.0], 1.0, &mut out);
    assert_eq!(out, [1.0, 0.0], "softmax([1234, 0]) = [1, 0]");
    // softmax(0.5 · [2, 0]) = softmax([1, 0]) = [e/(e+1), 1/(e+1)] = [0.7310586, 0.2689414].
    kernels::softmax_row(&[2.0, 0.0], 0.5, &mut out);
    assert!((out[0] - 0.731_058_6).abs() < 1e-6 && (out[1] - 0.268_941_4).abs() < 1e-6);
    // Five entries (a full lane and a tail), the first blocked: the rest share 1/4 each.
    let mut out = [9.0; 5];
    let allowed = [false, true, true, true, true];
    assert!(kernels::softmax_row_masked(
        &[50.0, 3.0, 3.0, 3.0, 3.0],
        1.0,
        &allowed,
        &mut out
    ));
    assert_eq!(out, [0.0, 0.25, 0.25, 0.25, 0.25]);
    assert!(!kernels::softmax_row_masked(
        &[1.0; 5],
        1.0,
        &[false; 5],
        &mut out
    ));
    assert_eq!(out, [0.0; 5], "a fully masked row is zeros, not NaN");
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn entropy_matches_scalar(w in lane_length().prop_flat_map(|n| {
        prop::collection::vec(prop_oneof![1 => Just(0.0f32), 1 => 1e-12f32..1e-3, 3 => 0.0f32..1.0], n)
    })) {
        // Rows of weights (normalised, so the entropy is at most ln n) with exact zeros.
        let sum: f32 = w.iter().sum();
        let row: Vec<f32> = w.iter().map(|v| if sum > 0.0 { v / sum } else { 0.0 }).collect();
        let (got, want) = (kernels::entropy(&row), scalar::entropy(&row));
        prop_assert!(got >= 0.0);
        prop_assert!((got - want).abs() <= 2e-6 * want.max(1.0), "entropy {} vs scalar {}", got, want);
    }

    #[test]
    fn weighted_gap_matches_scalar(x in lane_length().prop_flat_map(|n| (values(n, 50.0), sparse(n)))) {
        // Weights (absolute values, some exactly 0) and logits below their maximum.
        let (logits, w) = x;
        let w: Vec<f32> = w.iter().map(|v| v.abs()).collect();
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max).max(0.0);
        let (got, want) = (kernels::weighted_gap(&w, &logits, top), scalar::weighted_gap(&w, &logits, top));
        let size: f32 = w.iter().zip(&logits).map(|(a, b)| a * (top - b)).sum();
        prop_assert!((got - want).abs() <= 1e-5 * size.max(1.0), "{} vs scalar {}", got, want);
    }

    #[test]
    fn divergences_match_scalar(rows in lane_length().prop_flat_map(|n| {
        let row = || prop::collection::vec(prop_oneof![1 => Just(0.0f32), 1 => 1e-12f32..1e-3, 3 => 0.0f32..1.0], n);
        (row(), row(), 0.0f32..1.0)
    })) {
        // Two rows of weights with exact zeros (blocked keys), and a third that is the
        // first nudged by at most 1% (two similar variants: ratios near 1).
        let (a, b, nudge) = rows;
        let norm = |w: &[f32]| {
            let sum: f32 = w.iter().sum();
            w.iter().map(|v| if sum > 0.0 { v / sum } else { 0.0 }).collect::<Vec<f32>>()
        };
        let (p, q) = (norm(&a), norm(&b));
        let near = norm(&p.iter().enumerate().map(|(i, v)| v * (1.0 + 0.01 * nudge * ((i % 3) as f32 - 1.0))).collect::<Vec<_>>());
        for (x, y) in [(&p, &q), (&p, &near), (&p, &p)] {
            let (got, want) = (kernels::divergences(x, y, 1e-10), scalar::divergences(x, y, 1e-10));
            prop_assert!(got.0 >= 0.0 && got.1 >= 0.0);
            prop_assert!((got.0 - want.0).abs() <= 2e-5 * want.0 + 5e-7, "KL {} vs scalar {}", got.0, want.0);
            prop_assert!((got.1 - want.1).abs() <= 2e-5 * want.1 + 5e-7, "JS {} vs scalar {}", got.1, want.1);
        }
        prop_assert_eq!(kernels::divergences(&p, &p, 1e-10), (0.0, 0.0));
    }

    #[test]
    fn exp_and_feature_maps_match_scalar(x in lane_length().prop_flat_map(|n| values(n, 90.0))) {
        let (mut a, mut b) = (vec![0.0; x.len()], vec![0.0; x.len()]);
        kernels::exp(&x, &mut a);
        scalar::exp(&x, &mut b);
        for ((&v, &y), &z) in x.iter().zip(&a).zip(&b) {
            prop_assert!(ulps(y, f64::from(v).exp()) <= 2.0 || (v > 88.0 && y == z), "exp({v}) = {y}, scalar {z}");
        }
        kernels::elu1(&x, &mut a);
        scalar::elu1(&x, &mut b);
        for ((&v, &y), &z) in x.iter().zip(&a).zip(&b) {
            if v > 0.0 {
                prop_assert_eq!(y, z, "elu1 is x + 1 for x > 0");
            } else {
                prop_assert!(ulps(y, f64::from(v).exp()) <= 2.0, "elu1({}) = {}", v, y);
            }
        }
        kernels::relu(&x, &mut a);
        scalar::relu(&x, &mut b);
        prop_assert_eq!(&a, &b);
    }

    #[test]
    fn scores_match_scalar(
        (q, k, d) in (0usize..20, lane_length(), lane_length()).prop_flat_map(|(n, m, d)| {
            (values(n * d, 3.0), values(m * d, 3.0), Just(d))
        }),
        scale in 0.1f32..2.0,
    ) {
        let (n, m) = (q.len().checked_div(d).unwrap_or(0), k.len().checked_div(d).unwrap_or(0));
        let (mut a, mut b) = (vec![1.0; n * m], vec![2.0; n * m]);
        kernels::scores(&q, &k, d, scale, &mut a);
        scalar::scores(&q, &k, d, scale, &mut b);
        for i in 0..n {
            for j in 0..m {
                let bound: f32 = (0..d).map(|c| (q[i * d + c] * k[j * d + c]).abs()).sum::<f32>()
                    * scale * 1e-6 + 1e-6;
                let (x, y) = (a[i * m + j], b[i * m + j]);
                prop_assert!((x - y).abs() <= bound, "({i}, {j}) of {n}×{m}, d {d}: {x} vs {y}");
            }
        }
    }

    #[test]
    fn softmax_rows_match_scalar(
        (x, allowed) in lane_length().prop_filter("a row", |n| *n > 0).prop_flat_map(|n| {
            (values(n, 30.0), prop::collection::vec(prop::bool::weighted(0.7), n))
        }),
        scale in 0.1f32..2.0,
    ) {
        let n = x.len();
        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        kernels::softmax_row(&x, scale, &mut a);
        scalar::softmax_row(&x, scale, &mut b);
        for (y, z) in a.iter().zip(&b) {
            prop_assert!((y - z).abs() <= 1e-6 + 4e-7 * z, "{y} vs {z}");
        }
        prop_assert!((a.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let ka = kernels::softmax_row_masked(&x, scale, &allowed, &mut a);
        let kb = scalar::softmax_row_masked(&x, scale, &allowed, &mut b);
        prop_assert_eq!(ka, kb);
        prop_assert_eq!(ka, allowed.iter().any(|a| *a));
        for ((y, z), ok) in a.iter().zip(&b).zip(&allowed) {
            if *ok {
                prop_assert!((y - z).abs() <= 1e-6 + 4e-7 * z, "{y} vs {z}");
            } else {
                prop_assert_eq!(y.to_bits(), 0, "a masked cell is exactly +0");
                prop_assert_eq!(z.to_bits(), 0);
            }
        }
        let (sa, sb) = (kernels::exp_shifted_sum(&x, 31.0, &mut a), scalar::exp_shifted_sum(&x, 31.0, &mut b));
        prop_assert!((sa - sb).abs() <= 1e-5 * sb.abs() + 1e-30, "{sa} vs {sb}");
    }

    #[test]
    fn weights_times_values_matches_the_rows_of_the_oracle(
        (n, m, d, a, v) in (lane_length(), lane_length(), lane_length()).prop_flat_map(|(n, m, d)| {
            // At least one query and one output column (the shapes come from `out`).
            let (n, d) = (n.max(1), d.max(1));
            (Just(n), Just(m), Just(d), sparse(n * m), values(m * d, 2.0))
        }),
    ) {
        // The product on the SIMD path (register-blocked rows) equals one `weighted_rows`
        // of the scalar oracle per row: the same sums in the same order.
        let mut got = vec![0.25; n * d];
        kernels::weights_times_values(&a, &v, d, &mut got);
        let mut want = vec![0.25; n * d];
        if m > 0 {
            for (a_i, o) in a.chunks_exact(m).zip(want.chunks_exact_mut(d)) {
                scalar::weighted_rows(a_i, &v, o);
            }
        }
        if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            prop_assert_eq!(got, want);
        } else {
            // Natively dense weights go through matrixmultiply (another summation order).
            for (g, w) in got.iter().zip(&want) {
                prop_assert!((g - w).abs() <= 1e-4 * (1.0 + w.abs()), "{} vs {}", g, w);
            }
        }
    }

    #[test]
    fn weighted_rows_and_state_updates_are_bit_identical(
        (w, rows, out, phis, vs) in (lane_length(), 0usize..10, lane_length()).prop_flat_map(|(m, p, d)| {
            (sparse(m), values(m * d, 2.0), values(d, 2.0),
             prop::collection::vec(sparse(d.min(9)), p), prop::collection::vec(values(d, 2.0), p))
        }),
    ) {
        // A row of A·V: lane-wise, in the same order, so exactly equal.
        let (mut a, mut b) = (out.clone(), out.clone());
        kernels::weighted_rows(&w, &rows, &mut a);
        scalar::weighted_rows(&w, &rows, &mut b);
        prop_assert_eq!(&a, &b);
        // S += Σ φ_p v_pᵀ for p pairs (1–9 of them: four at a time plus the rest).
        let d_v = out.len();
        let d_phi = d_v.min(9);
        let pairs: Vec<(&[f32], &[f32])> = phis.iter().zip(&vs).map(|(p, v)| (p.as_slice(), v.as_slice())).collect();
        let (mut s1, mut s2) = (vec![0.5; d_phi * d_v], vec![0.5; d_phi * d_v]);
        kernels::outer_accumulate(&pairs, &mut s1);
        scalar::outer_accumulate(&pairs, &mut s2);
        prop_assert_eq!(s1, s2);
    }
}

/// The SIMD128 scores kernel takes the keys in cache-sized column blocks (16 K floats):
/// shapes of a model's weights cross several blocks (d = 384: 40 keys a block, 101 keys
/// make 40 + 40 + 21, the last block with a leftover key), and a row wider than a block
/// gives blocks of four keys; from 64 queries on the keys are packed in panels of eight,
/// five panels a block at d = 384 (101 keys: 12 panels in three blocks and 5 leftover
/// keys). Every entry against the scalar oracle.
#[test]
fn scores_across_key_blocks_match_scalar() {
    for (n, m, d) in [
        (5, 101, 384),
        (3, 37, 1000),
        (2, 9, 5000),
        (17, 1536, 384),
        (70, 101, 384),
        (66, 700, 64),
    ] {
        scores_agree(n, m, d, 0.5);
    }
}

/// Values in [−1, 1] in a fixed, irregular pattern (two patterns, for two operands).
fn pattern(len: usize, second: bool) -> Vec<f32> {
    (0..len)
        .map(|i| match second {
            false => ((i * 37 % 101) as f32 - 50.0) / 50.0,
            true => ((i * 53 % 97) as f32 - 48.0) / 48.0,
        })
        .collect()
}

/// `kernels::scores` against the oracle for `n` queries and `m` keys of width `d`, every
/// entry: `|q_c k_c| ≤ 1`, so the sum of `d` of them rounds within `d · scale · 10⁻⁶`.
fn scores_agree(n: usize, m: usize, d: usize, scale: f32) {
    let (q, k) = (pattern(n * d, false), pattern(m * d, true));
    let (mut a, mut b) = (vec![f32::NAN; n * m], vec![0.0; n * m]);
    kernels::scores(&q, &k, d, scale, &mut a);
    scalar::scores(&q, &k, d, scale, &mut b);
    for (idx, (x, y)) in a.iter().zip(&b).enumerate() {
        assert!(
            (x - y).abs() <= d as f32 * scale * 1e-6,
            "{n}×{m}, d {d}, entry {idx}: {x} vs {y}"
        );
    }
}

/// `A V` with the shapes of masks: a causal lower triangle, a window band, a row with no
/// weight at all and rows that weigh only their last or first key, so the four-row blocks'
/// spans (first to last weighed key) differ from row to row and some blocks have none.
/// Each row equals one `weighted_rows` of the oracle exactly.
#[test]
fn weights_times_values_over_masked_spans_equals_the_oracle() {
    let (n, m) = (13, 13);
    for d in [1, 3, 4, 8, 11, 64] {
        let v: Vec<f32> = (0..m * d)
            .map(|i| ((i * 29 % 53) as f32 - 26.0) / 13.0)
            .collect();
        let shapes: [&dyn Fn(usize, usize) -> bool; 4] = [
            &|i, j| j <= i,
            &|i, j| i.abs_diff(j) <= 2,
            &|i, j| i >= 8 && (j == m - 1 || (i == 9 && j == 0)),
            &|_, _| false,
        ];
        for allowed in shapes {
            let a: Vec<f32> = (0..n * m)
                .map(|x| {
                    let (i, j) = (x / m, x % m);
                    if allowed(i, j) {
                        1.0 / (1 + i + j) as f32
                    } else {
                        0.0
                    }
                })
                .collect();
            let mut got = vec![0.5; n * d];
            kernels::weights_times_values(&a, &v, d, &mut got);
            let mut want = vec![0.5; n * d];
            for (a_i, o) in a.chunks_exact(m).zip(want.chunks_exact_mut(d)) {
                scalar::weighted_rows(a_i, &v, o);
            }
            if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
                assert_eq!(got, want, "d {d}");
            } else {
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).abs() <= 1e-5 * (1.0 + w.abs()), "d {d}: {g} vs {w}");
                }
            }
        }
    }
}

/// The packed `Q Kᵀ` (64 queries or more) and the dot-product one (fewer) on the shapes
/// around their edges: 63, 64, 65 and 68 queries (and a few), keys that fill no panel, one
/// panel and one with leftovers, widths below and above a vector.
#[test]
fn scores_on_both_sides_of_packing_match_scalar() {
    for n in [3, 63, 64, 65, 68] {
        for m in [3, 8, 9, 17] {
            for d in [1, 5, 64] {
                scores_agree(n, m, d, 0.25);
            }
        }
    }
}

/// `xᵀ v` (linear attention's state) against the oracle, on widths around the four × eight
/// blocks and row counts around the 64-row chunks; the SIMD path sums each element in the
/// order of the rows, as the oracle does, so they agree exactly; natively it is ndarray's
/// product (another order).
#[test]
fn transposed_product_matches_scalar() {
    for (n, p, q) in [
        (0, 4, 8),
        (1, 1, 1),
        (5, 3, 7),
        (9, 4, 8),
        (13, 9, 17),
        (1030, 8, 16),
        (700, 64, 64),
    ] {
        let (x, v) = (pattern(n * p, false), pattern(n * q, true));
        let (mut a, mut b) = (vec![0.5; p * q], vec![0.5; p * q]);
        kernels::transposed_product(&x, &v, p, q, &mut a);
        scalar::transposed_product(&x, &v, p, q, &mut b);
        for (idx, (g, w)) in a.iter().zip(&b).enumerate() {
            assert!(
                (g - w).abs() <= n as f32 * 1e-6 + 1e-6,
                "{n} rows, {p} × {q}, entry {idx}: {g} vs {w}"
            );
        }
        if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            assert_eq!(a, b, "{n} rows, {p} × {q}");
        }
    }
}

/// The finiteness check against the oracle: clean vectors of every length around the
/// 256-float blocks, one ∞, −∞ or NaN at every kind of place (inside a block, in the
/// tail), and finite values whose product with the scale overflows.
#[test]
fn all_finite_scaled_matches_scalar() {
    for len in [0usize, 1, 3, 255, 256, 257, 600, 1024] {
        let clean: Vec<f32> = (0..len)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) * 1e3)
            .collect();
        for scale in [1.0, 0.125, 1e30] {
            assert_eq!(
                kernels::all_finite_scaled(&clean, scale),
                scalar::all_finite_scaled(&clean, scale),
                "len {len}, scale {scale}"
            );
        }
        for at in [0, len / 2, len.saturating_sub(1)]
            .into_iter()
            .filter(|&a| a < len)
        {
            for bad in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX] {
                let mut x = clean.clone();
                x[at] = bad;
                for scale in [1.0, 2.0] {
                    let want = scalar::all_finite_scaled(&x, scale);
                    assert_eq!(
                        kernels::all_finite_scaled(&x, scale),
                        want,
                        "len {len}, {bad} at {at}, scale {scale}"
                    );
                    if bad != f32::MAX || scale == 2.0 {
                        assert!(!want, "len {len}, {bad} at {at}, scale {scale}");
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// The fused softmax-and-entropy row equals the softmax row and the entropy composed
    /// from this build's own kernels bit for bit, and the oracle within rounding.
    #[test]
    fn softmax_row_entropy_is_the_composed_row_and_matches_scalar(
        x in lane_length().prop_filter("a row", |n| *n > 0).prop_flat_map(|n| values(n, 30.0)),
        scale in 0.05f32..4.0,
    ) {
        let n = x.len();
        let (mut fused, mut composed, mut oracle) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let h = kernels::softmax_row_entropy(&x, scale, &mut fused);
        kernels::softmax_row(&x, scale, &mut composed);
        let h_composed = (-kernels::max(&composed).ln()
            + scale * kernels::weighted_gap(&composed, &x, kernels::max(&x)))
        .max(0.0);
        prop_assert_eq!(&fused, &composed);
        prop_assert_eq!(h.to_bits(), h_composed.to_bits(), "{} vs {}", h, h_composed);
        let h_oracle = scalar::softmax_row_entropy(&x, scale, &mut oracle);
        prop_assert!((h - h_oracle).abs() <= 1e-4 * (1.0 + h_oracle.abs()), "{} vs {}", h, h_oracle);
        let direct: f32 = -oracle.iter().filter(|&&a| a > 0.0).map(|&a| a * a.ln()).sum::<f32>();
        prop_assert!((h_oracle - direct.max(0.0)).abs() <= 1e-3 * (1.0 + direct.abs()), "{} vs −Σ a ln a = {}", h_oracle, direct);
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// The online softmax's tile kernels against the oracle: the terms `e^(scale·x − shift)`
    /// (0 below the floor, so far-below shifts give exact zeros) and the last pass's
    /// rescaled terms, exact zeros where the oracle has them.
    #[test]
    fn softmax_terms_and_rescale_terms_match_scalar(
        x in lane_length().prop_flat_map(|n| values(n, 60.0)),
        scale in 0.05f32..4.0,
        above in 0.0f32..120.0,
        factor in prop_oneof![Just(0.0f32), 1e-30f32..1.0],
    ) {
        let n = x.len();
        // The shift at or above the row's largest scaled value, by up to 120: some terms
        // fall below e^−80.
        let shift = scale * kernels::max(&x).max(-1e30) + above;
        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        let (sa, sb) = (
            kernels::softmax_terms(&x, scale, shift, &mut a),
            scalar::softmax_terms(&x, scale, shift, &mut b),
        );
        prop_assert!((sa - sb).abs() <= 1e-5 * sb.abs() + 1e-30, "{} vs {}", sa, sb);
        for (y, z) in a.iter().zip(&b) {
            prop_assert!((y - z).abs() <= 4e-7 * z + 1e-37, "{} vs {}", y, z);
            prop_assert_eq!(*y == 0.0, *z == 0.0, "a floored term is 0 on both paths");
        }
        let top = shift - above / 2.0;
        let (wa, wb) = (
            kernels::rescale_terms(&mut a, &x, scale, factor, top),
            scalar::rescale_terms(&mut b, &x, scale, factor, top),
        );
        prop_assert!((wa - wb).abs() <= 1e-4 * (1.0 + wb.abs()), "{} vs {}", wa, wb);
        for ((y, z), &v) in a.iter().zip(&b).zip(&x) {
            prop_assert!((y - z).abs() <= 1e-6 * z + 1e-37, "{} vs {}", y, z);
            let kept = scale * v - top >= kernels::SOFTMAX_FLOOR && *z >= f32::MIN_POSITIVE;
            prop_assert_eq!(*y != 0.0, kept, "kept where the floor and normal range allow");
        }
    }

    /// The product of a column range of a wider matrix equals the product of those columns
    /// copied out, bit for bit on the SIMD path.
    #[test]
    fn weights_times_values_of_columns_is_the_product_of_the_copied_columns(
        (n, stride, start, width, d, a, v) in (lane_length(), lane_length(), lane_length(), 1usize..6)
            .prop_flat_map(|(n, w, extra, d)| {
                let (n, w) = (n.max(1), w.max(1));
                let stride = w + extra;
                (Just(n), Just(stride), 0..=extra, Just(w), Just(d), sparse(n * stride), values(w * d, 2.0))
            }),
    ) {
        let mut got = vec![0.5; n * d];
        kernels::weights_times_values_cols(&a, stride, start..start + width, &v, d, &mut got);
        let copied: Vec<f32> = a
            .chunks_exact(stride)
            .flat_map(|r| r[start..start + width].iter().copied())
            .collect();
        let mut want = vec![0.5; n * d];
        kernels::weights_times_values(&copied, &v, d, &mut want);
        if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            prop_assert_eq!(got, want);
        } else {
            for (g, w) in got.iter().zip(&want) {
                prop_assert!((g - w).abs() <= 1e-5 * (1.0 + w.abs()), "{} vs {}", g, w);
            }
        }
    }
}
