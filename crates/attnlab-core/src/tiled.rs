//! Softmax attention tile by tile (docs/maths.md §13): FlashAttention's online softmax
//! (Milakov & Gimelshein 2018; Dao et al. 2022) over tiles of `B` keys. Per query, a
//! running maximum `μ`, a running sum `ℓ = Σ e^(l_j − μ)` and an accumulator
//! `o = Σ e^(l_j − μ) v_j` are rescaled by `e^(μ_old − μ_new)` whenever a tile raises the
//! maximum; at the end the output is `o / ℓ` and the weights are `e^(l_j − μ)/ℓ` with the
//! final `μ` and `ℓ`. The same numbers as the plain softmax of §6, within f32 rounding,
//! for every `B`.
//!
//! The tiles go through the SIMD kernels as the plain softmax does: each query's terms of
//! a tile in one vectorised `exp` ([`kernels::exp_shifted_sum`]), and the tile's
//! `P · V_tile` for every query at once ([`kernels::weights_times_values`]). Each term is
//! kept where its weight goes, with the `μ` it was computed against; the weights are then
//! those terms times `e^(μ_tile − μ)/ℓ`, one multiplication each, not a second `exp`.

use ndarray::{Array2, ArrayRef2};

use crate::kernels::{self, SOFTMAX_FLOOR};
use crate::mask::Mask;

/// The weights and output of `softmax(logits) · v` over the allowed keys, formed tile by
/// tile over `tile ≥ 1` keys, with the rows' entropy (nats). The logits are
/// `scale · raw`: `raw` is `n × m` with those products finite; `v` is `m × d_v`. A row
/// with no allowed key is zeros, entropy 0. As in the plain softmax, a weight more than
/// `e^80` below the row's largest, or subnormal, is exactly 0.
pub fn softmax_tiled(
    raw: &ArrayRef2<f32>,
    scale: f32,
    mask: &Mask,
    v: &Array2<f32>,
    tile: usize,
) -> (Array2<f32>, Array2<f32>, Vec<f32>) {
    let (n, m) = raw.dim();
    let d_v = v.ncols();
    let mut weights = Array2::zeros((n, m));
    let mut output = Array2::zeros((n, d_v));
    let mut entropy = vec![0.0f32; n];
    if n == 0 || m == 0 {
        return (weights, output, entropy);
    }
    let tile = tile.clamp(1, m);
    let tiles = m.div_ceil(tile);
    let v = v.as_standard_layout();
    let v = v.as_slice().expect("standard layout");
    // Per query: the running maximum and sum, and the maximum each tile's terms were
    // computed against (−∞ for a tile with no allowed key).
    let (mut max, mut sum) = (vec![f32::NEG_INFINITY; n], vec![0.0f32; n]);
    let mut shifts = vec![f32::NEG_INFINITY; n * tiles];
    // The tile's logits of one query (−∞ where blocked), and its terms for every query.
    let mut x = vec![0.0f32; tile];
    let mut terms = vec![0.0f32; n * tile];
    let acc = output.as_slice_mut().expect("standard layout");
    for (t, start) in (0..m).step_by(tile).enumerate() {
        let end = (start + tile).min(m);
        let b = end - start;
        for i in 0..n {
            let allowed = &mask.row(i)[start..end];
            let row = raw.row(i);
            let row = &row.as_slice().expect("standard layout")[start..end];
            for ((x, &ok), &z) in x.iter_mut().zip(allowed).zip(row) {
                *x = if ok { scale * z } else { f32::NEG_INFINITY };
            }
            let p = &mut terms[i * b..(i + 1) * b];
            let tile_max = kernels::max(&x[..b]);
            if tile_max == f32::NEG_INFINITY {
                p.fill(0.0);
                continue;
            }
            if tile_max > max[i] {
                let correction = (max[i] - tile_max).exp(); // e^(−∞) = 0 at first
                sum[i] *= correction;
                acc[i * d_v..(i + 1) * d_v]
                    .iter_mut()
                    .for_each(|a| *a *= correction);
                max[i] = tile_max;
            }
            sum[i] += kernels::exp_shifted_sum(&x[..b], max[i], p);
            shifts[i * tiles + t] = max[i];
            weights.row_mut(i).as_slice_mut().expect("standard layout")[start..end]
                .copy_from_slice(p);
        }
        kernels::weights_times_values(&terms[..n * b], &v[start * d_v..end * d_v], d_v, acc);
    }
    // The weights from the kept terms: `e^(l − μ_tile) · e^(μ_tile − μ) / ℓ`; blocked
    // keys' terms are 0 already (`e^−∞`). The entropy from the same pass:
    // `H = −Σ w (l − μ − ln ℓ) = μ + ln ℓ − Σ w l`.
    for i in 0..n {
        let w = weights.row_mut(i).into_slice().expect("standard layout");
        let o = &mut acc[i * d_v..(i + 1) * d_v];
        if sum[i] <= 0.0 {
            w.fill(0.0);
            o.fill(0.0);
            continue;
        }
        let (mu, total) = (max[i], sum[i]);
        o.iter_mut().for_each(|a| *a /= total);
        let row = raw.row(i);
        let row = row.as_slice().expect("standard layout");
        let mut weighted = 0.0f32;
        for t in 0..tiles {
            let factor = (shifts[i * tiles + t] - mu).exp() / total;
            let (start, end) = (t * tile, ((t + 1) * tile).min(m));
            for (w, &z) in w[start..end].iter_mut().zip(&row[start..end]) {
                let l = scale * z;
                let a = *w * factor;
                let keep = l - mu >= SOFTMAX_FLOOR && a >= f32::MIN_POSITIVE;
                *w = if keep { a } else { 0.0 };
                weighted += *w * l;
            }
        }
        entropy[i] = (mu + total.ln() - weighted).max(0.0);
    }
    (weights, output, entropy)
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
        let (w, o, h) = softmax_tiled(&l, 1.0, &Mask::full(1, 4), &v, 2);
        // −Σ w ln w of [1, 3, 2, 1]/7.
        let want: f32 = [1.0f32, 3.0, 2.0, 1.0]
            .iter()
            .map(|c| -(c / 7.0) * (c / 7.0).ln())
            .sum();
        assert!((h[0] - want).abs() < 1e-6, "{h:?}");
        for (got, want) in w.iter().zip([1.0, 3.0, 2.0, 1.0]) {
            assert!((got - want / 7.0).abs() < 1e-7, "{w}");
        }
        assert!((o[[0, 0]] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn an_empty_row_is_zero_and_blocked_keys_are_exactly_zero() {
        let l = array![[1.0f32, 2.0], [5.0, 1.0]];
        let mask = Mask::from_array(array![[false, false], [false, true]]);
        let (w, o, h) = softmax_tiled(&l, 1.0, &mask, &array![[1.0f32], [2.0]], 1);
        assert_eq!(h, [0.0, 0.0]);
        assert_eq!(w, array![[0.0, 0.0], [0.0, 1.0]]);
        assert_eq!(o, array![[0.0], [2.0]]);
    }
}
