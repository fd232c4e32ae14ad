//! Softmax attention tile by tile (docs/maths.md §13): FlashAttention's online softmax
//! (Milakov & Gimelshein 2018; Dao et al. 2022) over tiles of `B` keys. Per query, a
//! running maximum `μ`, a running sum `ℓ = Σ e^(l_j − μ)` and an accumulator
//! `o = Σ e^(l_j − μ) v_j` are rescaled by `e^(μ_old − μ_new)` whenever a tile raises the
//! maximum; at the end the output is `o / ℓ` and the weights are `e^(l_j − μ)/ℓ` with the
//! final `μ` and `ℓ`. The same numbers as the plain softmax of §6, within f32 rounding,
//! for every `B`.

use ndarray::{Array2, ArrayRef2};

use crate::kernels::SOFTMAX_FLOOR;
use crate::mask::Mask;

/// The weights and output of `softmax(logits) · v` over the allowed keys, formed tile by
/// tile over `tile ≥ 1` keys. `logits`: `n × m` finite; `v`: `m × d_v`. A row with no
/// allowed key is zeros. As in the plain softmax, a weight more than `e^80` below the
/// row's largest, or subnormal, is exactly 0.
pub fn softmax_tiled(
    logits: &ArrayRef2<f32>,
    mask: &Mask,
    v: &Array2<f32>,
    tile: usize,
) -> (Array2<f32>, Array2<f32>) {
    let (n, m) = logits.dim();
    let d_v = v.ncols();
    let tile = tile.max(1);
    let mut weights = Array2::zeros((n, m));
    let mut output = Array2::zeros((n, d_v));
    for i in 0..n {
        let allowed = mask.row(i);
        let row = logits.row(i);
        let mut acc = vec![0.0f32; d_v];
        let (mut max, mut sum) = (f32::NEG_INFINITY, 0.0f32);
        for start in (0..m).step_by(tile) {
            let end = (start + tile).min(m);
            let block_max = (start..end)
                .filter(|&j| allowed[j])
                .map(|j| row[j])
                .fold(f32::NEG_INFINITY, f32::max);
            if block_max == f32::NEG_INFINITY {
                continue;
            }
            if block_max > max {
                let correction = (max - block_max).exp(); // e^(−∞) = 0 at first
                sum *= correction;
                acc.iter_mut().for_each(|x| *x *= correction);
                max = block_max;
            }
            for j in (start..end).filter(|&j| allowed[j]) {
                let e = (row[j] - max).exp();
                sum += e;
                for (a, &x) in acc.iter_mut().zip(v.row(j)) {
                    *a += e * x;
                }
            }
        }
        if sum <= 0.0 {
            continue;
        }
        for (o, a) in output.row_mut(i).iter_mut().zip(&acc) {
            *o = a / sum;
        }
        for (j, w) in weights.row_mut(i).iter_mut().enumerate() {
            let gap = row[j] - max;
            if allowed[j] && gap >= SOFTMAX_FLOOR {
                let a = gap.exp() / sum;
                *w = if a < f32::MIN_POSITIVE { 0.0 } else { a };
            }
        }
    }
    (weights, output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn two_tiles_by_hand() {
        // logits [0, ln 3 | ln 2, 0], tiles of 2: after the first tile μ = ln 3, ℓ = 1/3 + 1;
        // the second does not raise μ: ℓ = 4/3 + 2/3 + 1/3 = 7/3. Weights e^(l − ln 3)/ℓ =
        // [1, 3, 2, 1]/7, as softmax: e^l / Σ e^l = [1, 3, 2, 1] / 7.
        let l = array![[0.0f32, 3f32.ln(), 2f32.ln(), 0.0]];
        let v = array![[7.0f32], [0.0], [0.0], [0.0]];
        let (w, o) = softmax_tiled(&l, &Mask::full(1, 4), &v, 2);
        for (got, want) in w.iter().zip([1.0, 3.0, 2.0, 1.0]) {
            assert!((got - want / 7.0).abs() < 1e-7, "{w}");
        }
        assert!((o[[0, 0]] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn an_empty_row_is_zero_and_blocked_keys_are_exactly_zero() {
        let l = array![[1.0f32, 2.0], [5.0, 1.0]];
        let mask = Mask::from_array(array![[false, false], [false, true]]);
        let (w, o) = softmax_tiled(&l, &mask, &array![[1.0f32], [2.0]], 1);
        assert_eq!(w, array![[0.0, 0.0], [0.0, 1.0]]);
        assert_eq!(o, array![[0.0], [2.0]]);
    }
}
