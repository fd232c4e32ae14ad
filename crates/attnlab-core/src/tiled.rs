//! Softmax attention tile by tile (docs/maths.md §13): FlashAttention's online softmax
//! (Milakov & Gimelshein 2018; Dao et al. 2022) over tiles of `B` keys. Per query, a
//! running maximum `μ`, a running sum `ℓ = Σ e^(l_j − μ)` and an accumulator
//! `o = Σ e^(l_j − μ) v_j` are rescaled by `e^(μ_old − μ_new)` whenever a tile raises the
//! maximum; at the end the output is `o / ℓ` and the weights are `e^(l_j − μ)/ℓ` with the
//! final `μ` and `ℓ`. The same numbers as the plain softmax of §6, within f32 rounding,
//! for every `B`.
//!
//! The tiles go through the SIMD kernels as the plain softmax does: each query's terms of
//! a tile in one vectorised `exp` ([`kernels::softmax_terms`], read in place when no key is
//! masked), and the tile's
//! `P · V_tile` for every query at once ([`kernels::weights_times_values`]). Each term is
//! kept where its weight goes, with the `μ` it was computed against; the weights are then
//! those terms times `e^(μ_tile − μ)/ℓ`, one multiplication each, not a second `exp`
//! ([`kernels::rescale_terms`]).

use ndarray::{Array2, ArrayRef2, ArrayView1};

use crate::kernels;
use crate::mask::Mask;

/// The queries that run through every tile together before the next block starts: their
/// terms (`32 × m`) stay in cache for the rows' last pass.
const QUERY_BLOCK: usize = 32;

/// The state of one query's online softmax after a tile: FlashAttention's running
/// maximum `m_t = max(m_{t−1}, max of the tile)`, running sum
/// `l_t = e^{m_{t−1}−m_t} l_{t−1} + Σ_tile e^{z−m_t}` and output accumulator
/// `o_t = e^{m_{t−1}−m_t} o_{t−1} + Σ_tile e^{z−m_t} v` (not yet divided by `l_t`).
#[derive(Debug, Clone, PartialEq)]
pub struct TileStep {
    /// The tile's keys, `start..end`.
    pub keys: std::ops::Range<usize>,
    /// The largest allowed logit of the tile (`−∞` when the tile has none).
    pub tile_max: f32,
    /// `m_t` (`−∞` while no allowed key has been read).
    pub max: f32,
    /// `e^{m_{t−1}−m_t}`, the factor `l_{t−1}` and `o_{t−1}` were multiplied by (1 when
    /// the maximum did not move).
    pub rescale: f32,
    /// `l_t`.
    pub sum: f32,
    /// `o_t`, length `d_v`.
    pub acc: Vec<f32>,
}

/// The online softmax of one row of `logits` over the keys `allowed` allows, tile by
/// tile over `tile ≥ 1` keys: calls `each` with the state after every tile, and returns
/// the final `(m, l, o)`. The same steps as [`softmax_tiled`], one key at a time (that
/// one sends every query's tile through the SIMD kernels at once).
fn online_row(
    row: ArrayView1<'_, f32>,
    allowed: &[bool],
    v: &Array2<f32>,
    tile: usize,
    mut each: impl FnMut(TileStep),
) -> (f32, f32, Vec<f32>) {
    let m = row.len();
    let tile = tile.max(1);
    let mut acc = vec![0.0f32; v.ncols()];
    let (mut max, mut sum) = (f32::NEG_INFINITY, 0.0f32);
    for start in (0..m).step_by(tile) {
        let end = (start + tile).min(m);
        let block_max = (start..end)
            .filter(|&j| allowed[j])
            .map(|j| row[j])
            .fold(f32::NEG_INFINITY, f32::max);
        let mut rescale = 1.0f32;
        if block_max > max {
            let correction = (max - block_max).exp(); // e^(−∞) = 0 at first
            sum *= correction;
            acc.iter_mut().for_each(|x| *x *= correction);
            max = block_max;
            rescale = correction;
        }
        if block_max != f32::NEG_INFINITY {
            for j in (start..end).filter(|&j| allowed[j]) {
                let e = (row[j] - max).exp();
                sum += e;
                for (a, &x) in acc.iter_mut().zip(v.row(j)) {
                    *a += e * x;
                }
            }
        }
        each(TileStep {
            keys: start..end,
            tile_max: block_max,
            max,
            rescale,
            sum,
            acc: acc.clone(),
        });
    }
    (max, sum, acc)
}

/// Query `i`'s online softmax step by step: the state after each of the `⌈m / tile⌉`
/// tiles (a tile with no allowed key leaves it as it was). The last step's `acc / sum`
/// is [`softmax_tiled`]'s output row `i` within f32 rounding.
pub fn trace_row(
    logits: &ArrayRef2<f32>,
    mask: &Mask,
    v: &Array2<f32>,
    tile: usize,
    i: usize,
) -> Vec<TileStep> {
    let mut steps = Vec::new();
    online_row(logits.row(i), mask.row(i), v, tile, |s| steps.push(s));
    steps
}

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
    // The tile's logits of one query (−∞ where blocked); the terms go into `weights`.
    let mut scaled = vec![0.0f32; tile];
    let acc = output.as_slice_mut().expect("standard layout");
    let w = weights.as_slice_mut().expect("standard layout");
    let full = mask.is_full();
    let raw_rows = raw.as_standard_layout();
    let raw_rows = raw_rows.as_slice().expect("standard layout");
    // FlashAttention's order: a block of queries runs through every tile, then its rows
    // are finished while their terms are still in cache.
    for q0 in (0..n).step_by(QUERY_BLOCK) {
        let rows = q0..(q0 + QUERY_BLOCK).min(n);
        for (t, start) in (0..m).step_by(tile).enumerate() {
            let end = (start + tile).min(m);
            let b = end - start;
            for i in rows.clone() {
                let row = &raw_rows[i * m + start..i * m + end];
                // Every key allowed: the scaled logits are read where they are (`scale > 0`
                // keeps the maximum where it was); else they are copied with −∞ where
                // blocked.
                let (x, x_scale) = if full {
                    (row, scale)
                } else {
                    let allowed = &mask.row(i)[start..end];
                    for ((x, &ok), &z) in scaled.iter_mut().zip(allowed).zip(row) {
                        *x = if ok { scale * z } else { f32::NEG_INFINITY };
                    }
                    (&scaled[..b], 1.0)
                };
                let tile_max = x_scale * kernels::max(x);
                let p = &mut w[i * m + start..i * m + end];
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
                sum[i] += kernels::softmax_terms(x, x_scale, max[i], p);
                shifts[i * tiles + t] = max[i];
            }
            kernels::weights_times_values_cols(
                &w[rows.start * m..rows.end * m],
                m,
                start..end,
                &v[start * d_v..end * d_v],
                d_v,
                &mut acc[rows.start * d_v..rows.end * d_v],
            );
        }
        // The weights from the kept terms: `e^(l − μ_tile) · e^(μ_tile − μ) / ℓ`; blocked
        // keys' terms are 0 already (`e^−∞`). The entropy from the same pass:
        // `H = −Σ w (l − μ − ln ℓ) = μ + ln ℓ − Σ w l`.
        for i in rows {
            let w = &mut w[i * m..(i + 1) * m];
            let o = &mut acc[i * d_v..(i + 1) * d_v];
            if sum[i] <= 0.0 {
                w.fill(0.0);
                o.fill(0.0);
                continue;
            }
            let (mu, total) = (max[i], sum[i]);
            o.iter_mut().for_each(|a| *a /= total);
            let row = &raw_rows[i * m..(i + 1) * m];
            let mut weighted = 0.0f32;
            // Runs of tiles whose terms share one maximum share one factor (the maximum
            // usually stops moving after the first few tiles).
            let shift = &shifts[i * tiles..(i + 1) * tiles];
            let mut t = 0;
            while t < tiles {
                let run = shift[t..].iter().take_while(|&&s| s == shift[t]).count();
                let factor = (shift[t] - mu).exp() / total;
                let (start, end) = (t * tile, ((t + run) * tile).min(m));
                weighted +=
                    kernels::rescale_terms(&mut w[start..end], &row[start..end], scale, factor, mu);
                t += run;
            }
            entropy[i] = (mu + total.ln() - weighted).max(0.0);
        }
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

    #[test]
    fn the_trace_ends_at_the_tiled_and_the_plain_softmax() {
        let l = array![
            [0.3f32, -1.2, 2.5, 0.0, 4.1, -0.7, 1.9],
            [1.0, 1.0, -3.0, 8.0, 0.5, 0.25, -2.0]
        ];
        let v = array![
            [1.0f32, -2.0],
            [0.5, 0.0],
            [3.0, 1.0],
            [-1.0, 2.0],
            [0.0, 0.25],
            [2.0, -1.0],
            [1.5, 1.5]
        ];
        let mask = Mask::from_array(array![
            [true, true, false, true, true, true, true],
            [true, true, true, true, true, false, true]
        ]);
        let (plain, _) = crate::softmax::softmax_masked_entropy_scaled(&l, 1.0, &mask);
        for tile in 1..=8 {
            let (w, o, _) = softmax_tiled(&l, 1.0, &mask, &v, tile);
            for i in 0..2 {
                let steps = trace_row(&l, &mask, &v, tile, i);
                assert_eq!(steps.len(), 7usize.div_ceil(tile));
                let last = steps.last().unwrap();
                for (a, want) in last.acc.iter().zip(o.row(i)) {
                    assert!((a / last.sum - want).abs() < 1e-6, "tile {tile} row {i}");
                }
                // m_t never falls; l_t = rescale · l_{t−1} + the tile's terms.
                for pair in steps.windows(2) {
                    assert!(pair[1].max >= pair[0].max);
                    let own: f32 = pair[1]
                        .keys
                        .clone()
                        .filter(|&j| mask.get(i, j))
                        .map(|j| (l[[i, j]] - pair[1].max).exp())
                        .sum();
                    let want = pair[1].rescale * pair[0].sum + own;
                    assert!((pair[1].sum - want).abs() < 1e-5, "{pair:?}");
                }
                let row_max = (0..7)
                    .filter(|&j| mask.get(i, j))
                    .map(|j| l[[i, j]])
                    .fold(f32::NEG_INFINITY, f32::max);
                assert_eq!(last.max, row_max);
                for j in 0..7 {
                    assert!((w[[i, j]] - plain[[i, j]]).abs() < 1e-6);
                }
            }
        }
    }
}
