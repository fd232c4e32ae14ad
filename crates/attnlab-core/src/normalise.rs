//! The softmax family's other normalisers (docs/maths.md §7b): pure functions from a
//! masked matrix of logits `z` (already `score / τ`) to weights, called where softmax is
//! called.
//!
//! Masked cells never count and are exactly 0; a row with no allowed key is all zeros.
//! Each normaliser is computed stably by subtracting the row's largest term, the extra
//! term included, so that logits up to the f32 range give neither inf nor NaN:
//!
//! - softmax + 1: `e^z / (1 + Σ e^z)`, with `M = max(max z, 0)`:
//!   `e^{z−M} / (e^{−M} + Σ e^{z−M})`.
//! - sigmoid: `σ(z + b)` per cell, no sum at all.
//! - softpick: `max(e^z − 1, 0) / (Σ |e^z − 1| + 10⁻⁶)`, with `M = max(max z, 0)`:
//!   `relu(e^{z−M} − e^{−M}) / (Σ |e^{z−M} − e^{−M}| + 10⁻⁶·e^{−M})` (numerator and
//!   denominator times `e^{−M}`: exact). `M` is never below 0, so `e^{−M} ≤ 1` never
//!   overflows.
//! - sink: `e^z / (e^s + Σ e^z)`, with `M = max(max z, s)`.
//!
//! ```
//! use attnlab_core::mask::Mask;
//! use attnlab_core::normalise::{Normaliser, normalise};
//! use ndarray::array;
//!
//! // Softmax + 1 of two zero logits: 1 / (1 + 2) each.
//! let a = normalise(&array![[0.0f32, 0.0]], &Mask::full(1, 2), Normaliser::PlusOne);
//! assert!((a[[0, 0]] - 1.0 / 3.0).abs() < 1e-7);
//! ```

use ndarray::Array2;

use crate::mask::Mask;

/// The `10⁻⁶` of softpick's denominator.
pub const SOFTPICK_EPSILON: f64 = 1e-6;

/// One of the normalisers of this module.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Normaliser {
    /// `e^z / (1 + Σ e^z)`.
    PlusOne,
    /// `σ(z + bias)`.
    Sigmoid {
        /// `b`, added to every logit.
        bias: f32,
    },
    /// `max(e^z − 1, 0) / (Σ |e^z − 1| + 10⁻⁶)`.
    Softpick,
    /// `e^z / (e^sink + Σ e^z)`.
    Sink {
        /// The head's sink logit `s_h`.
        sink: f32,
    },
}

/// `σ(x)` without overflow on either side.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// One row of finite logits `z` normalised over the cells where `allowed` is true, into
/// `out` (same length). Sums are taken in f64.
pub fn normalise_row(z: &[f32], allowed: &[bool], how: Normaliser, out: &mut [f32]) {
    out.fill(0.0);
    let cells = || {
        z.iter()
            .zip(allowed)
            .enumerate()
            .filter(|(_, (_, a))| **a)
            .map(|(j, (&z, _))| (j, f64::from(z)))
    };
    let max = cells().map(|(_, z)| z).fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return; // no allowed key
    }
    match how {
        Normaliser::Sigmoid { bias } => {
            for (j, z) in cells() {
                out[j] = sigmoid(z + f64::from(bias)) as f32;
            }
        }
        Normaliser::PlusOne | Normaliser::Sink { .. } => {
            let extra = match how {
                Normaliser::Sink { sink } => f64::from(sink),
                _ => 0.0,
            };
            let m = max.max(extra);
            let sum: f64 = (extra - m).exp() + cells().map(|(_, z)| (z - m).exp()).sum::<f64>();
            for (j, z) in cells() {
                out[j] = ((z - m).exp() / sum) as f32;
            }
        }
        Normaliser::Softpick => {
            let m = max.max(0.0);
            let floor = (-m).exp();
            // e^{z−M} − e^{−M} = e^{−M}·(e^z − 1): with M = 0 written as expm1 so that
            // small logits keep their digits.
            let term = |z: f64| {
                if m == 0.0 {
                    z.exp_m1()
                } else {
                    (z - m).exp() - floor
                }
            };
            let sum: f64 =
                cells().map(|(_, z)| term(z).abs()).sum::<f64>() + SOFTPICK_EPSILON * floor;
            for (j, z) in cells() {
                out[j] = (term(z).max(0.0) / sum) as f32;
            }
        }
    }
}

/// Every row of the `n × m` logits `z` normalised over the cells `mask` allows.
pub fn normalise(z: &Array2<f32>, mask: &Mask, how: Normaliser) -> Array2<f32> {
    let (n, m) = z.dim();
    let z = z.as_standard_layout();
    let mut out = Array2::zeros((n, m));
    for (i, mut row) in out.rows_mut().into_iter().enumerate() {
        normalise_row(
            z.row(i).as_slice().expect("standard layout"),
            mask.row(i),
            how,
            row.as_slice_mut().expect("fresh array"),
        );
    }
    out
}

/// `softmax(z₁) − λ·softmax(z₂)` (differential attention), both over the cells `mask`
/// allows: each row's weights sum to `1 − λ` (0 for a row with no allowed key).
pub fn differential(z1: &Array2<f32>, z2: &Array2<f32>, lambda: f32, mask: &Mask) -> Array2<f32> {
    let a1 = crate::softmax::softmax_masked(z1, mask);
    let a2 = crate::softmax::softmax_masked(z2, mask);
    let mut out = a1;
    out.zip_mut_with(&a2, |a, &b| *a -= lambda * b);
    out
}

#[cfg(test)]
mod tests;
