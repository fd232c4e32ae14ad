//! The tiles walk of softmax with `tiles: B` (docs/maths.md §13): for one query, the
//! state of FlashAttention's online softmax after each tile of `B` keys (the core's
//! [`tiled::trace_row`]: running max `m_t`, running sum `l_t`, rescaled accumulator
//! `o_t`), the end of the walk against the full softmax of the same logits (the largest
//! difference, measured), and the memory each needs.

use std::ops::Range;

use attnlab_core::attention::{AttentionKind, Problem};
use attnlab_core::{CoreError, linear, score, softmax, tiled};
use attnlab_lab::compute::LabError;
use ndarray::Array2;

/// The state after one tile.
#[derive(Debug, Clone, PartialEq)]
pub struct TileView {
    /// The tile's keys.
    pub keys: Range<usize>,
    /// The tile's logits (`None`: a key the mask blocks).
    pub logits: Vec<Option<f32>>,
    /// The largest allowed logit of the tile (`None`: the tile has none).
    pub tile_max: Option<f32>,
    /// `m_t` (`None` while no allowed key has been read).
    pub max: Option<f32>,
    /// `e^{m_{t−1} − m_t}`: what `l_{t−1}` and `o_{t−1}` were multiplied by.
    pub rescale: f32,
    /// `l_t`.
    pub sum: f32,
    /// `o_t`, not yet divided by `l_t` (length `d_v`).
    pub acc: Vec<f32>,
}

/// Floats held to form the weights, per query and for the whole head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TilesMemory {
    /// One tile's logits, `m_t`, `l_t` and `o_t`: `B + 2 + d_v`.
    pub per_query: usize,
    /// The full row of logits: `m`.
    pub per_query_full: usize,
    /// The logits the head holds at once, tile by tile: `n × B`.
    pub head: usize,
    /// The full matrix of logits: `n × m`.
    pub head_full: usize,
}

/// One query's walk through the tiles.
#[derive(Debug, Clone, PartialEq)]
pub struct TilesWalk {
    /// `B`.
    pub tile: usize,
    /// The query.
    pub query: usize,
    /// The state after each tile, `⌈m / B⌉` of them.
    pub steps: Vec<TileView>,
    /// The head's weights row as the core forms it tile by tile.
    pub weights: Vec<f32>,
    /// The head's output row, `o_T / l_T`.
    pub output: Vec<f32>,
    /// The full softmax of the same logits, in one pass.
    pub full_weights: Vec<f32>,
    /// The full softmax's output row, weights · `V`.
    pub full_output: Vec<f32>,
    /// `max_j |weights_j − full_weights_j|`.
    pub weights_gap: f32,
    /// `max_c |output_c − full_output_c|`.
    pub output_gap: f32,
    /// What each way holds.
    pub memory: TilesMemory,
}

fn gap(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn finite(x: f32) -> Option<f32> {
    x.is_finite().then_some(x)
}

/// The tiles walk of head `head` for query `query`: `None` unless the problem is
/// softmax with tiles on (or the query is past the last).
pub fn tiles_walk(
    problem: &Problem,
    head: usize,
    query: usize,
) -> Result<Option<TilesWalk>, LabError> {
    let spec = problem.spec();
    let Some(tile) = spec
        .tiles
        .filter(|_| spec.attention == AttentionKind::Softmax)
    else {
        return Ok(None);
    };
    let result = problem.compute_head(head)?;
    let hin = &problem.heads()[head];
    let (n, m) = (hin.q.nrows(), hin.k.nrows());
    if query >= n {
        return Ok(None);
    }
    let d_v = hin.v.ncols();
    let mask = problem.mask();
    // The logits as the core forms them before its tiles: score, τ, softcap, ALiBi.
    let raw = score::scores(spec.score, &hin.q, &hin.k, &hin.score_params);
    let logits: Array2<f32> = problem.logit_steps(head)?.apply(&raw);
    if logits.iter().any(|z| !z.is_finite()) {
        return Err(LabError::Core(CoreError::Overflow {
            head,
            what: "logits (score / temperature, softcap, ALiBi)",
        }));
    }
    let steps = tiled::trace_row(&logits, mask, &hin.v, tile, query)
        .into_iter()
        .map(|s| TileView {
            logits: s
                .keys
                .clone()
                .map(|j| mask.get(query, j).then_some(logits[[query, j]]))
                .collect(),
            keys: s.keys,
            tile_max: finite(s.tile_max),
            max: finite(s.max),
            rescale: s.rescale,
            sum: s.sum,
            acc: s.acc,
        })
        .collect();
    let (full, _) = softmax::softmax_masked_entropy_scaled(&logits, 1.0, mask);
    let full_output = linear::weights_times_values(&full, &hin.v);
    let weights = result.weights.row(query).to_vec();
    let output = result.output.row(query).to_vec();
    let full_weights = full.row(query).to_vec();
    let full_output = full_output.row(query).to_vec();
    Ok(Some(TilesWalk {
        tile,
        query,
        steps,
        weights_gap: gap(&weights, &full_weights),
        output_gap: gap(&output, &full_output),
        weights,
        output,
        full_weights,
        full_output,
        memory: TilesMemory {
            per_query: tile.min(m) + 2 + d_v,
            per_query_full: m,
            head: n * tile.min(m),
            head_full: n * m,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;

    #[test]
    fn the_walk_ends_at_the_cores_tiled_row_and_the_full_softmax() {
        let mut state = LabState::default();
        state.variants[0].tiles = Some(4);
        state.variants[0].masks.causal = true;
        let r = Pipeline::new(&state).variant(0).unwrap();
        let walk = tiles_walk(&r.problem, 2, 9).unwrap().unwrap();
        // 11 keys in tiles of 4: 3 tiles; query 9 sees keys 0..=9, so the last tile
        // (keys 8, 9, 10) has 10 blocked.
        assert_eq!(walk.steps.len(), 3);
        assert_eq!(walk.steps[2].keys, 8..11);
        assert_eq!(walk.steps[2].logits[2], None);
        let last = walk.steps.last().unwrap();
        // o_T / l_T is the core's output row (the walk one key at a time, the core every
        // query's tile at once through the SIMD kernels: equal within rounding).
        for (a, want) in last.acc.iter().zip(&walk.output) {
            assert!(
                (a / last.sum - want).abs() < 1e-6,
                "{a} / {} vs {want}",
                last.sum
            );
        }
        assert_eq!(walk.weights, r.heads[2].weights.row(9).to_vec());
        assert_eq!(walk.output, r.heads[2].output.row(9).to_vec());
        assert!(walk.weights_gap < 1e-6 && walk.output_gap < 1e-5);
        // m_t is the running max of the tiles' maxima.
        let mut m = f32::NEG_INFINITY;
        for s in &walk.steps {
            m = m.max(s.tile_max.unwrap_or(f32::NEG_INFINITY));
            assert_eq!(s.max, Some(m));
        }
        // B + 2 + d_v = 4 + 2 + 16 against m = 11; n × B = 44 against n × m = 121.
        assert_eq!(
            walk.memory,
            TilesMemory {
                per_query: 22,
                per_query_full: 11,
                head: 44,
                head_full: 121
            }
        );
        // Off: no walk.
        state.variants[0].tiles = None;
        let r = Pipeline::new(&state).variant(0).unwrap();
        assert_eq!(tiles_walk(&r.problem, 0, 0).unwrap(), None);
    }
}
