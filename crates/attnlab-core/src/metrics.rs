//! What the app measures (docs/maths.md §8): row entropy, differences between two variants,
//! singular values of the un-normalised similarity matrix, and the `1/√d_k` analysis.

use ndarray::{Array2, ArrayRef2};

use crate::error::{CoreError, Expected, Result};
use crate::mask::Mask;
use crate::rng;
use crate::softmax;

/// `H_i = −Σ_j a_ij ln a_ij` per row, in nats, with `0 · ln 0 = 0`.
pub fn row_entropy(weights: &Array2<f32>) -> Vec<f32> {
    weights
        .rows()
        .into_iter()
        .map(|r| match r.as_slice() {
            Some(row) => crate::kernels::entropy(row),
            None => crate::kernels::entropy(&r.to_vec()),
        })
        .collect()
}

/// `Σ_j a_ij` per row, accumulated in f64.
pub fn row_sums(weights: &ArrayRef2<f32>) -> Vec<f32> {
    weights
        .rows()
        .into_iter()
        .map(|r| r.iter().map(|&x| f64::from(x)).sum::<f64>() as f32)
        .collect()
}

/// `H_i / ln(#allowed_i)`: 1 for a uniform row, 0 for a one-hot row; 0 where fewer than
/// two keys are allowed.
pub fn normalised_entropy(entropy: &[f32], mask: &Mask) -> Vec<f32> {
    entropy
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let allowed = mask.allowed_count(i);
            if allowed < 2 {
                0.0
            } else {
                h / (allowed as f32).ln()
            }
        })
        .collect()
}

/// The mean of a slice (0 when empty).
pub fn mean(x: &[f32]) -> f32 {
    if x.is_empty() {
        0.0
    } else {
        (x.iter().map(|&v| f64::from(v)).sum::<f64>() / x.len() as f64) as f32
    }
}

/// Floor for the second distribution in KL divergence, so a zero where the first row
/// has weight gives a large finite value, not infinity.
pub const KL_FLOOR: f64 = 1e-10;

/// How two attention matrices of the same shape differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// `max |A − B|`.
    pub max_abs: f32,
    /// `mean |A − B|` over all cells.
    pub mean_abs: f32,
    /// Mean over compared rows of `KL(A_i ‖ B_i)` (B floored at [`KL_FLOOR`]).
    pub mean_kl: f32,
    /// Mean over compared rows of the Jensen–Shannon divergence (≤ ln 2).
    pub mean_js: f32,
    /// Rows where both matrices have weight (empty rows are left out of KL and JS).
    pub rows_compared: usize,
}

/// Compares two weight matrices (e.g. two variants on the same input).
pub fn compare(a: &ArrayRef2<f32>, b: &ArrayRef2<f32>) -> Result<Comparison> {
    if a.dim() != b.dim() {
        return Err(CoreError::ShapeMismatch {
            head: None,
            field: "comparison",
            expected: Expected::FirstShape {
                rows: a.nrows(),
                cols: a.ncols(),
            },
            got: b.dim(),
        });
    }
    let mut max_abs = 0.0f32;
    let mut sum_abs = 0.0f64;
    for (x, y) in a.iter().zip(b) {
        let d = (x - y).abs();
        max_abs = max_abs.max(d);
        sum_abs += f64::from(d);
    }
    let (mut kl_sum, mut js_sum, mut rows) = (0.0f64, 0.0f64, 0usize);
    let total = |r: &[f32]| r.iter().map(|&v| f64::from(v)).sum::<f64>();
    for (ra, rb) in a.rows().into_iter().zip(b.rows()) {
        let (p, q) = (ra.as_standard_layout(), rb.as_standard_layout());
        let (p, q) = (p.as_slice().unwrap_or(&[]), q.as_slice().unwrap_or(&[]));
        if total(p) <= 0.0 || total(q) <= 0.0 {
            continue;
        }
        let (kl, js) = crate::kernels::divergences(p, q, KL_FLOOR as f32);
        kl_sum += kl;
        js_sum += js;
        rows += 1;
    }
    let cells = a.len().max(1) as f64;
    let per_row = |s: f64| {
        if rows == 0 {
            0.0
        } else {
            (s / rows as f64) as f32
        }
    };
    Ok(Comparison {
        max_abs,
        mean_abs: (sum_abs / cells) as f32,
        mean_kl: per_row(kl_sum),
        mean_js: per_row(js_sum),
        rows_compared: rows,
    })
}

/// Singular values of `a`, largest first (`min(rows, cols)` of them), by one-sided Jacobi
/// rotations in f64.
pub fn singular_values(a: &Array2<f32>) -> Vec<f32> {
    let (r, c) = a.dim();
    // Orthogonalise the columns of the shorter side: of `a`, or of `aᵀ` (whose columns are
    // the rows of `a`); both have the same singular values.
    let to_f64 =
        |v: ndarray::ArrayView1<f32>| v.iter().map(|&x| f64::from(x)).collect::<Vec<f64>>();
    let mut u: Vec<Vec<f64>> = if c <= r {
        a.columns().into_iter().map(to_f64).collect()
    } else {
        a.rows().into_iter().map(to_f64).collect()
    };
    let cols = u.len();
    let scale: f64 = u
        .iter()
        .flatten()
        .map(|v| v * v)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    for _sweep in 0..60 {
        let mut rotated = false;
        for p in 0..cols {
            for q in p + 1..cols {
                let (alpha, beta, gamma) = u[p]
                    .iter()
                    .zip(&u[q])
                    .fold((0.0, 0.0, 0.0), |(a, b, g), (x, y)| {
                        (a + x * x, b + y * y, g + x * y)
                    });
                if gamma.abs() <= 1e-15 * (alpha * beta).sqrt() || gamma.abs() < 1e-300 * scale {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let t = if zeta == 0.0 { 1.0 } else { t };
                let cs = 1.0 / (1.0 + t * t).sqrt();
                let sn = cs * t;
                let (left, right) = u.split_at_mut(q);
                for (x, y) in left[p].iter_mut().zip(right[0].iter_mut()) {
                    let (xp, yq) = (*x, *y);
                    *x = cs * xp - sn * yq;
                    *y = sn * xp + cs * yq;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let mut s: Vec<f32> = u
        .iter()
        .map(|col| col.iter().map(|v| v * v).sum::<f64>().sqrt() as f32)
        .collect();
    s.sort_by(|x, y| y.total_cmp(x));
    s
}

/// The numerical rank: singular values above `rel_tol × σ_max`.
pub fn numerical_rank(singular: &[f32], rel_tol: f32) -> usize {
    let top = singular.first().copied().unwrap_or(0.0);
    singular.iter().filter(|&&s| s > rel_tol * top).count()
}

/// One point of the `1/√d_k` analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScalingPoint {
    /// Key/query width.
    pub d_k: usize,
    /// Standard deviation of `qᵀk` (≈ √d_k for unit-variance entries).
    pub logit_std_unscaled: f32,
    /// Standard deviation of `qᵀk / √d_k` (≈ 1).
    pub logit_std_scaled: f32,
    /// Mean row entropy of `softmax(qᵀk)` over the keys (nats).
    pub entropy_unscaled: f32,
    /// Mean row entropy of `softmax(qᵀk / √d_k)` (nats).
    pub entropy_scaled: f32,
    /// Mean largest weight per row without scaling (→ 1: nearly one-hot).
    pub max_weight_unscaled: f32,
    /// Mean largest weight per row with scaling.
    pub max_weight_scaled: f32,
}

/// The `1/√d_k` analysis of one matrix of raw scores `qᵀk` (queries × keys, width
/// `d_k`): the spread of the logits, and the softmax's mean row entropy and mean largest
/// weight, without and with the scaling.
pub fn scaling_point(d_k: usize, raw: &Array2<f32>) -> ScalingPoint {
    let scaled = raw.mapv(|s| s / (d_k as f32).sqrt());
    let std = |x: &Array2<f32>| {
        let n = x.len().max(1) as f64;
        let m = x.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
        (x.iter().map(|&v| (f64::from(v) - m).powi(2)).sum::<f64>() / n).sqrt() as f32
    };
    let full = Mask::full(raw.nrows(), raw.ncols());
    let stats = |l: &Array2<f32>| {
        let a = softmax::softmax_masked(l, &full);
        let h = mean(&row_entropy(&a));
        let peak: Vec<f32> = a
            .rows()
            .into_iter()
            .map(|r| r.fold(0.0f32, |x, &y| x.max(y)))
            .collect();
        (h, mean(&peak))
    };
    let (hu, pu) = stats(raw);
    let (hs, ps) = stats(&scaled);
    ScalingPoint {
        d_k,
        logit_std_unscaled: std(raw),
        logit_std_scaled: std(&scaled),
        entropy_unscaled: hu,
        entropy_scaled: hs,
        max_weight_unscaled: pu,
        max_weight_scaled: ps,
    }
}

/// For random unit-variance `q`, `k` (seeded): the spread of the logits and the mean row
/// entropy of the softmax over `keys` keys, with and without `1/√d_k`, for each `d_k`.
pub fn scaling_analysis(
    d_ks: &[usize],
    queries: usize,
    keys: usize,
    seed: u64,
) -> Vec<ScalingPoint> {
    d_ks.iter()
        .map(|&d_k| {
            let mut rng = rng::stream(seed, "scaling", d_k as u64);
            let q = rng::normal_matrix(&mut rng, queries, d_k, 1.0);
            let k = rng::normal_matrix(&mut rng, keys, d_k, 1.0);
            scaling_point(d_k, &q.dot(&k.t()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn entropy_by_hand() {
        // Uniform over 4: ln 4; one-hot: 0; empty row: 0.
        let a = array![
            [0.25f32, 0.25, 0.25, 0.25],
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0]
        ];
        let h = row_entropy(&a);
        assert!((h[0] - 4f32.ln()).abs() < 1e-6);
        assert_eq!(h[1].to_bits(), 0.0f32.to_bits(), "+0, not −0");
        assert_eq!(h[2], 0.0);
        let norm = normalised_entropy(&h, &Mask::full(3, 4));
        assert!((norm[0] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn comparison_by_hand() {
        let a = array![[0.5f32, 0.5], [1.0, 0.0]];
        let b = array![[0.75f32, 0.25], [1.0, 0.0]];
        let c = compare(&a, &b).unwrap();
        assert_eq!(c.max_abs, 0.25);
        assert!((c.mean_abs - 0.125).abs() < 1e-7); // (0.25 + 0.25 + 0 + 0) / 4
        // Row 0: KL = 0.5 ln(0.5/0.75) + 0.5 ln(0.5/0.25) = 0.5 ln(4/3) ≈ 0.143841; row 1: 0.
        assert!((c.mean_kl - 0.143_841 / 2.0).abs() < 1e-5);
        assert!(c.mean_js > 0.0 && c.mean_js < 2f32.ln());
        assert_eq!(compare(&a, &a).unwrap().mean_js, 0.0);
        assert!(compare(&a, &array![[1.0f32]]).is_err());
    }

    #[test]
    fn singular_values_by_hand() {
        // diag(3, 2) padded: singular values 3, 2.
        let s = singular_values(&array![[3.0f32, 0.0], [0.0, -2.0], [0.0, 0.0]]);
        assert!((s[0] - 3.0).abs() < 1e-6 && (s[1] - 2.0).abs() < 1e-6);
        // [[1, 1], [1, 1]] has rank 1: singular values 2, 0.
        let s = singular_values(&array![[1.0f32, 1.0], [1.0, 1.0]]);
        assert!((s[0] - 2.0).abs() < 1e-6 && s[1].abs() < 1e-6);
        assert_eq!(numerical_rank(&s, 1e-4), 1);
        // Wide matrix: [[3, 4]] has the single singular value 5.
        assert_eq!(singular_values(&array![[3.0f32, 4.0]]), vec![5.0]);
        assert!(singular_values(&Array2::<f32>::zeros((0, 3))).is_empty());
    }

    #[test]
    fn scaling_keeps_logits_unit_and_softmax_spread() {
        let pts = scaling_analysis(&[4, 64, 512], 32, 32, 1);
        for p in &pts {
            let root = (p.d_k as f32).sqrt();
            assert!((p.logit_std_unscaled / root - 1.0).abs() < 0.15, "{p:?}");
            assert!((p.logit_std_scaled - 1.0).abs() < 0.15, "{p:?}");
        }
        let big = pts[2];
        assert!(
            big.max_weight_unscaled > 0.8,
            "unscaled softmax is nearly one-hot: {big:?}"
        );
        assert!(big.entropy_scaled > 3.0 * big.entropy_unscaled, "{big:?}");
    }
}
