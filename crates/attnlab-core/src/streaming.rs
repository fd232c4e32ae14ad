//! Softmax attention that never holds the `n × m` matrix: an online softmax over blocks of
//! keys (the flash-attention recurrence), so memory is O((n + m)·d) for any `n`.
//!
//! For each query, running values `max`, `sum = Σ exp(s_j − max)` and
//! `acc = Σ exp(s_j − max) v_j` are rescaled by `exp(max_old − max_new)` whenever a block
//! raises the maximum; the output is `acc / sum`. The result equals
//! `softmax(Q Kᵀ · scale) V` (and its causal version) to f32 precision.

use ndarray::Array2;

use crate::kernels;

/// Whether a query sees every key or only keys at or before its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Causality {
    /// Every key.
    #[default]
    Full,
    /// Keys `j ≤ i`.
    Causal,
}

/// Keys per block: the score buffer is one block long.
pub const KEY_BLOCK: usize = 256;

fn row(a: &Array2<f32>, i: usize) -> &[f32] {
    let c = a.ncols();
    &a.as_slice().expect("standard layout")[i * c..(i + 1) * c]
}

/// `softmax(Q Kᵀ · scale) V` over the keys allowed by `causality`, streaming over key
/// blocks. `q`: n×d_k, `k`: m×d_k, `v`: m×d_v, all in standard layout with finite values.
/// A query with no allowed key (causal, `i ≥ 0` always has key 0 unless `m = 0`) gets a
/// zero row.
pub fn softmax_attention(
    q: &Array2<f32>,
    k: &Array2<f32>,
    v: &Array2<f32>,
    scale: f32,
    causality: Causality,
) -> Array2<f32> {
    let (n, m, d_v) = (q.nrows(), k.nrows(), v.ncols());
    let mut out = Array2::zeros((n, d_v));
    let mut scores = vec![0.0f32; KEY_BLOCK];
    for i in 0..n {
        let qi = row(q, i);
        let limit = match causality {
            Causality::Full => m,
            Causality::Causal => (i + 1).min(m),
        };
        let o = out.row_mut(i).into_slice().expect("fresh array");
        let (mut max, mut sum) = (f32::NEG_INFINITY, 0.0f32);
        let mut start = 0;
        while start < limit {
            let end = (start + KEY_BLOCK).min(limit);
            let block = &mut scores[..end - start];
            for (s, j) in block.iter_mut().zip(start..end) {
                *s = kernels::dot(qi, row(k, j)) * scale;
            }
            let block_max = kernels::max(block);
            if block_max > max {
                let correction = (max - block_max).exp(); // exp(−∞) = 0 on the first block
                sum *= correction;
                o.iter_mut().for_each(|x| *x *= correction);
                max = block_max;
            }
            for (s, j) in block.iter().zip(start..end) {
                let w = (s - max).exp();
                sum += w;
                kernels::axpy(w, row(v, j), o);
            }
            start = end;
        }
        if sum > 0.0 {
            let inv = 1.0 / sum;
            o.iter_mut().for_each(|x| *x *= inv);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::MaskSpec;
    use crate::rng;
    use crate::softmax::softmax_masked;

    fn reference(
        q: &Array2<f32>,
        k: &Array2<f32>,
        v: &Array2<f32>,
        scale: f32,
        causal: bool,
    ) -> Array2<f32> {
        let logits = q.dot(&k.t()) * scale;
        let mask = MaskSpec {
            causal,
            ..MaskSpec::default()
        }
        .build(q.nrows(), k.nrows());
        softmax_masked(&logits, &mask).dot(v)
    }

    #[test]
    fn matches_the_full_matrix_across_block_boundaries() {
        let mut r = rng::stream(3, "streaming-test", 0);
        // m straddles the block size: one block, exactly one, one and a bit, several.
        for m in [1, 7, KEY_BLOCK, KEY_BLOCK + 1, 2 * KEY_BLOCK + 37] {
            let n = 9.min(m) + 3;
            let q = rng::normal_matrix(&mut r, n, 8, 2.0);
            let k = rng::normal_matrix(&mut r, m, 8, 2.0);
            let v = rng::normal_matrix(&mut r, m, 5, 1.0);
            for (causality, causal) in [(Causality::Full, false), (Causality::Causal, true)] {
                let got = softmax_attention(&q, &k, &v, 0.35, causality);
                let want = reference(&q, &k, &v, 0.35, causal);
                for (a, b) in got.iter().zip(&want) {
                    assert!((a - b).abs() < 1e-5, "m = {m} {causality:?}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn huge_scores_stay_finite_and_empty_key_set_is_zero() {
        let q = Array2::from_elem((2, 2), 100.0f32);
        let k = Array2::from_shape_vec((3, 2), vec![1.0, 1.0, 50.0, 50.0, -50.0, 0.0]).unwrap();
        let v = Array2::from_shape_vec((3, 1), vec![1.0, 2.0, 3.0]).unwrap();
        // Scores 200, 10000, −5000: key 1 takes all the weight.
        let o = softmax_attention(&q, &k, &v, 1.0, Causality::Full);
        assert_eq!(o[[0, 0]], 2.0);
        let none = softmax_attention(
            &q,
            &Array2::zeros((0, 2)),
            &Array2::zeros((0, 1)),
            1.0,
            Causality::Full,
        );
        assert_eq!(none, Array2::zeros((2, 1)));
    }
}
