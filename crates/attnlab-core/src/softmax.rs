//! Stable masked softmax (docs/maths.md §6).
//!
//! `a_ij = exp(l_ij − max_j l_ij) / Σ_j exp(l_ij − max_j l_ij)` over the allowed entries
//! only; blocked entries are exactly 0, and a row with no allowed entry is all zeros
//! (never NaN). Terms below `e^−80` of the row's largest, and weights that would be
//! subnormal, are exactly 0 ([`crate::kernels::SOFTMAX_FLOOR`]).

use ndarray::{Array2, ArrayRef2};

use crate::kernels;
use crate::mask::Mask;

/// Whether a softmax row had any allowed entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowStatus {
    /// At least one key was allowed; the row sums to 1.
    Normalised,
    /// No key was allowed; the row is all zeros.
    Empty,
}

/// The largest value among the allowed entries (`-∞` when none is allowed).
pub fn masked_max<'a>(
    values: impl IntoIterator<Item = &'a f32>,
    allowed: impl IntoIterator<Item = &'a bool>,
) -> f32 {
    values
        .into_iter()
        .zip(allowed)
        .filter(|(_, a)| **a)
        .map(|(v, _)| *v)
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Softmax of one row of finite logits over the entries where `allowed` is true, written
/// to `out` (same length).
pub fn softmax_row(logits: &[f32], allowed: &[bool], out: &mut [f32]) -> RowStatus {
    // One fused pass per row (scale 1: the logits are already divided by τ).
    if kernels::softmax_row_masked(logits, 1.0, allowed, out) {
        RowStatus::Normalised
    } else {
        RowStatus::Empty
    }
}

/// Softmax of one row with every entry allowed (the unmasked fast path).
pub fn softmax_row_full(logits: &[f32], out: &mut [f32]) -> RowStatus {
    if logits.is_empty() {
        return RowStatus::Empty;
    }
    kernels::softmax_row(logits, 1.0, out);
    RowStatus::Normalised
}

/// Row-wise masked softmax of an `n × m` logit matrix.
pub fn softmax_masked(logits: &Array2<f32>, mask: &Mask) -> Array2<f32> {
    softmax_masked_scaled(logits, 1.0, mask)
}

/// Row-wise masked softmax of the logits `scale · raw` (`scale` > 0, e.g. `1/τ`), the
/// kernels multiplying as they go: no scaled matrix is built.
pub fn softmax_masked_scaled(raw: &ArrayRef2<f32>, scale: f32, mask: &Mask) -> Array2<f32> {
    let (n, m) = raw.dim();
    let mut out = Array2::zeros((n, m));
    if m == 0 {
        return out;
    }
    let full = mask.is_full();
    let src = raw.as_standard_layout();
    let src = src.as_slice().expect("standard layout");
    let dst = out.as_slice_mut().expect("fresh array");
    for i in 0..n {
        let (l, o) = (&src[i * m..(i + 1) * m], &mut dst[i * m..(i + 1) * m]);
        if full {
            kernels::softmax_row(l, scale, o);
        } else {
            kernels::softmax_row_masked(l, scale, mask.row(i), o);
        }
    }
    out
}

/// [`softmax_masked`] and each row's entropy `H_i = −Σ_j a_ij ln a_ij` (nats), without a
/// logarithm per cell: with `M` the row's largest allowed logit and `Z = Σ_j e^(l_ij − M)`,
/// `ln a_ij = l_ij − M − ln Z`, so `H_i = ln Z + Σ_j a_ij (M − l_ij)`, and `ln Z = −ln a_i*`
/// for the weight `a_i* = 1/Z` of the largest logit. Both terms are at least 0, so nothing
/// cancels. Cells the softmax leaves at exactly 0 add nothing, as in the per-cell sum; an
/// empty row's entropy is 0.
pub fn softmax_masked_entropy(logits: &Array2<f32>, mask: &Mask) -> (Array2<f32>, Vec<f32>) {
    softmax_masked_entropy_scaled(logits, 1.0, mask)
}

/// [`softmax_masked_entropy`] of the logits `scale · raw` (`scale` > 0), without building
/// them: the largest allowed logit is `scale · M` for the largest allowed raw score `M`,
/// so `Σ_j a_ij (max − l_ij) = scale · Σ_j a_ij (M − raw_ij)`.
pub fn softmax_masked_entropy_scaled(
    raw: &ArrayRef2<f32>,
    scale: f32,
    mask: &Mask,
) -> (Array2<f32>, Vec<f32>) {
    let (n, m) = raw.dim();
    let mut weights = Array2::zeros((n, m));
    if m == 0 {
        return (weights, vec![0.0; n]);
    }
    let full = mask.is_full();
    let src = raw.as_standard_layout();
    let src = src.as_slice().expect("standard layout");
    let dst = weights.as_slice_mut().expect("fresh array");
    // Row by row, the entropy right after the row's softmax, while both rows are in cache.
    let entropy = (0..n)
        .map(|i| {
            let (l, a) = (&src[i * m..(i + 1) * m], &mut dst[i * m..(i + 1) * m]);
            if full {
                return kernels::softmax_row_entropy(l, scale, a);
            }
            kernels::softmax_row_masked(l, scale, mask.row(i), a);
            let top = masked_max(l, mask.row(i));
            let a_top = kernels::max(a);
            if !top.is_finite() || a_top <= 0.0 {
                return 0.0;
            }
            let h = -a_top.ln() + scale * kernels::weighted_gap(a, l, top);
            h.max(0.0)
        })
        .collect();
    (weights, entropy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_logits_are_stable() {
        let mut out = [0.0; 2];
        softmax_row_full(&[1234.0, 0.0], &mut out);
        assert_eq!(out, [1.0, 0.0]);
        softmax_row(&[1234.0, 0.0], &[true, true], &mut out);
        assert_eq!(out, [1.0, 0.0]);
    }

    #[test]
    fn hand_checked_two_way() {
        // softmax([1, 0]) = [e/(e+1), 1/(e+1)] = [0.7310586, 0.2689414]
        let mut out = [0.0; 2];
        softmax_row_full(&[1.0, 0.0], &mut out);
        assert!((out[0] - 0.731_058_6).abs() < 1e-6);
        assert!((out[1] - 0.268_941_4).abs() < 1e-6);
    }

    #[test]
    fn masked_entries_are_exactly_zero_and_empty_rows_are_zero() {
        let mut out = [9.0; 3];
        assert_eq!(
            softmax_row(&[5.0, 1.0, 1.0], &[false, true, true], &mut out),
            RowStatus::Normalised
        );
        assert_eq!(out, [0.0, 0.5, 0.5]);
        assert_eq!(
            softmax_row(&[5.0, 1.0, 1.0], &[false; 3], &mut out),
            RowStatus::Empty
        );
        assert_eq!(out, [0.0; 3]);
        assert_eq!(softmax_row(&[], &[], &mut []), RowStatus::Empty);
    }

    #[test]
    fn scaled_logits_give_the_softmax_and_entropy_of_the_divided_ones() {
        // Row 0 all allowed, row 1 with two keys blocked, row 2 empty.
        let raw = Array2::from_shape_vec(
            (3, 5),
            vec![
                3.0, -1.0, 0.5, 2.0, -4.0, //
                1.0, 7.0, -2.0, 0.0, 3.5, //
                0.3, 0.2, 0.1, 0.0, -0.1,
            ],
        )
        .unwrap();
        let allowed = Array2::from_shape_vec(
            (3, 5),
            [[true; 5], [true, false, true, false, true], [false; 5]].concat(),
        )
        .unwrap();
        for mask in [Mask::full(3, 5), Mask::from_array(allowed)] {
            for tau in [0.25f32, 0.7, 1.0, 3.0] {
                let divided = raw.mapv(|s| s / tau);
                let (a, h) = softmax_masked_entropy(&divided, &mask);
                let (b, g) = softmax_masked_entropy_scaled(&raw, 1.0 / tau, &mask);
                for (x, y) in a.iter().zip(&b) {
                    assert!((x - y).abs() < 1e-6, "τ = {tau}: {x} against {y}");
                }
                assert_eq!(b, softmax_masked_scaled(&raw, 1.0 / tau, &mask));
                for (i, (x, y)) in h.iter().zip(&g).enumerate() {
                    // The entropy by its definition, in f64, from the scaled weights.
                    let direct: f64 = b
                        .row(i)
                        .iter()
                        .filter(|&&w| w > 0.0)
                        .map(|&w| -f64::from(w) * f64::from(w).ln())
                        .sum();
                    assert!((x - y).abs() < 1e-5, "τ = {tau} row {i}: {x} against {y}");
                    assert!((f64::from(*y) - direct).abs() < 1e-5, "τ = {tau} row {i}");
                }
            }
        }
    }
}
