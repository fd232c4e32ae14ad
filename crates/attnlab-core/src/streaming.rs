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

/// Keys per block: the score buffer is one block of keys wide.
pub const KEY_BLOCK: usize = 256;

/// Queries per tile: the score buffer is one tile of queries high (32 × 256 × 4 bytes
/// = 32 KiB, whatever `n` and `m`).
pub const QUERY_BLOCK: usize = 32;

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
    let (n, m, d_k, d_v) = (q.nrows(), k.nrows(), q.ncols(), v.ncols());
    let mut out = Array2::zeros((n, d_v));
    let (q_all, k_all, v_all) = (
        q.as_slice().expect("standard layout"),
        k.as_slice().expect("standard layout"),
        v.as_slice().expect("standard layout"),
    );
    let out_all = out.as_slice_mut().expect("fresh array");
    let limit = |i: usize| match causality {
        Causality::Full => m,
        Causality::Causal => (i + 1).min(m),
    };
    // Scores for a tile of queries × a block of keys at once (the blocked kernel reuses
    // every load), then the online softmax row by row.
    let mut tile = vec![0.0f32; QUERY_BLOCK * KEY_BLOCK];
    let mut weights = vec![0.0f32; KEY_BLOCK];
    // Per query of the tile: the running maximum and sum.
    let mut running = [(f32::NEG_INFINITY, 0.0f32); QUERY_BLOCK];
    for i0 in (0..n).step_by(QUERY_BLOCK) {
        let i1 = (i0 + QUERY_BLOCK).min(n);
        let rows = i1 - i0;
        running[..rows].fill((f32::NEG_INFINITY, 0.0));
        let tile_limit = limit(i1 - 1); // the last query sees the most keys
        let mut start = 0;
        while start < tile_limit {
            let end = (start + KEY_BLOCK).min(tile_limit);
            let width = end - start;
            let scores = &mut tile[..rows * width];
            kernels::scores(
                &q_all[i0 * d_k..i1 * d_k],
                &k_all[start * d_k..end * d_k],
                d_k,
                scale,
                scores,
            );
            for (r, (max, sum)) in running[..rows].iter_mut().enumerate() {
                let i = i0 + r;
                let stop = limit(i).min(end);
                if stop <= start {
                    continue;
                }
                let block = &scores[r * width..r * width + (stop - start)];
                let o = &mut out_all[i * d_v..(i + 1) * d_v];
                let block_max = kernels::max(block);
                if block_max > *max {
                    let correction = (*max - block_max).exp(); // exp(−∞) = 0 at first
                    *sum *= correction;
                    o.iter_mut().for_each(|x| *x *= correction);
                    *max = block_max;
                }
                let w = &mut weights[..block.len()];
                *sum += kernels::exp_shifted_sum(block, *max, w);
                kernels::weighted_rows(w, &v_all[start * d_v..stop * d_v], o);
            }
            start = end;
        }
        for (r, &(_, sum)) in running[..rows].iter().enumerate() {
            if sum > 0.0 {
                let inv = 1.0 / sum;
                let i = i0 + r;
                out_all[i * d_v..(i + 1) * d_v]
                    .iter_mut()
                    .for_each(|x| *x *= inv);
            }
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
            // Queries: a few, and more than one tile of QUERY_BLOCK.
            let n = if m % 2 == 1 {
                9.min(m) + 3
            } else {
                QUERY_BLOCK + 5
            };
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
