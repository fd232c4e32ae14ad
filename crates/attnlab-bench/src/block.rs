//! The Transformer block for the benchmark (docs/maths.md §14): one seeded layer run over
//! `n` tokens at once (`Block::run`), and a causal layer decoding `n` positions one at a
//! time with its KV cache (`Block::decode`) against recomputing the whole prefix at every
//! step (`Block::run` on tokens `0..=t`, its last row kept).

use std::hint::black_box;

use attnlab_core::block::{Activation, Block, Seeded};
use attnlab_core::rng;
use ndarray::{Array2, s};
use wasm_bindgen::prelude::*;

/// The seed of the benchmark's blocks and inputs.
const SEED: u64 = 33;

/// One seeded block and its input `x` (`n × d`), kept in wasm memory.
#[wasm_bindgen]
pub struct BlockWorkload {
    block: Block,
    x: Array2<f32>,
}

#[wasm_bindgen]
impl BlockWorkload {
    /// `layers` seeded post-LN layers of width `d` with `heads` heads, a GELU feed-forward
    /// of width `4d`, causal self-attention when `causal`, over `n` seeded tokens.
    #[wasm_bindgen(constructor)]
    pub fn new(
        n: usize,
        d: usize,
        heads: usize,
        layers: usize,
        causal: bool,
    ) -> Result<BlockWorkload, JsError> {
        BlockWorkload::build(n, d, heads, layers, causal).map_err(|e| JsError::new(&e))
    }

    /// `reps` parallel passes; returns a sum of first values, so the work cannot be skipped.
    pub fn run(&self, reps: u32) -> Result<f32, JsError> {
        let mut sum = 0.0;
        for _ in 0..reps {
            sum += black_box(self.parallel().map_err(|e| JsError::new(&e))?[[0, 0]]);
        }
        Ok(sum)
    }

    /// `reps` decodes of every position with the KV cache.
    pub fn decode(&self, reps: u32) -> Result<f32, JsError> {
        let mut sum = 0.0;
        for _ in 0..reps {
            let decoded = self
                .block
                .decode(&self.x, None)
                .map_err(|e| JsError::new(&e.to_string()))?;
            sum += black_box(decoded.output[[0, 0]]);
        }
        Ok(sum)
    }

    /// `reps` times: every position decoded by running the whole prefix again.
    pub fn recompute(&self, reps: u32) -> Result<f32, JsError> {
        let mut sum = 0.0;
        for _ in 0..reps {
            sum += black_box(self.recomputed().map_err(|e| JsError::new(&e))?[[0, 0]]);
        }
        Ok(sum)
    }

    /// The largest |decoded − parallel| and |recomputed − parallel| over the outputs,
    /// relative to the parallel output's largest magnitude: `[decode, recompute]`.
    pub fn gaps(&self) -> Result<Vec<f32>, JsError> {
        let parallel = self.parallel().map_err(|e| JsError::new(&e))?;
        let decoded = self
            .block
            .decode(&self.x, None)
            .map_err(|e| JsError::new(&e.to_string()))?
            .output;
        let recomputed = self.recomputed().map_err(|e| JsError::new(&e))?;
        let top = parallel
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()))
            .max(f32::MIN_POSITIVE);
        let gap = |a: &Array2<f32>| {
            a.iter()
                .zip(&parallel)
                .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()))
                / top
        };
        Ok(vec![gap(&decoded), gap(&recomputed)])
    }

    /// The KV cache after the last position, in bytes (f32).
    pub fn cache_bytes(&self) -> Result<usize, JsError> {
        let decoded = self
            .block
            .decode(&self.x, None)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(decoded.cache.last().map_or(0, |c| c.bytes))
    }
}

impl BlockWorkload {
    /// [`BlockWorkload::new`] with a plain error.
    pub fn build(
        n: usize,
        d: usize,
        heads: usize,
        layers: usize,
        causal: bool,
    ) -> Result<BlockWorkload, String> {
        let options = Seeded {
            activation: Activation::Gelu,
            causal,
            ..Seeded::default()
        };
        let block =
            Block::seeded(SEED, d, heads, 4 * d, layers, &options).map_err(|e| e.to_string())?;
        let x = rng::normal_matrix(&mut rng::stream(SEED, "bench block x", 0), n, d, 1.0);
        Ok(BlockWorkload { block, x })
    }

    fn parallel(&self) -> Result<Array2<f32>, String> {
        let result = self.block.run(&self.x, None).map_err(|e| e.to_string())?;
        Ok(result.output)
    }

    /// Row `t` from the stack run over tokens `0..=t`, for every `t`.
    fn recomputed(&self) -> Result<Array2<f32>, String> {
        let (n, d) = self.x.dim();
        let mut out = Array2::zeros((n, d));
        for t in 0..n {
            let prefix = self.x.slice(s![..=t, ..]).to_owned();
            let result = self.block.run(&prefix, None).map_err(|e| e.to_string())?;
            out.row_mut(t).assign(&result.output.row(t));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_and_recomputing_give_the_parallel_pass() {
        let w = BlockWorkload::build(12, 16, 4, 2, true).unwrap();
        let parallel = w.parallel().unwrap();
        let decoded = w.block.decode(&w.x, None).unwrap().output;
        let recomputed = w.recomputed().unwrap();
        let top = parallel.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        for (a, b) in [(&decoded, &parallel), (&recomputed, &parallel)] {
            let gap = a
                .iter()
                .zip(b)
                .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
            assert!(gap <= 1e-5 * top, "{gap}");
        }
        // Two layers, 12 positions, keys and values of width 16: 2 · 2 · 12 rows of 16 f32.
        let cache = w.block.decode(&w.x, None).unwrap().cache;
        assert_eq!(cache.last().unwrap().bytes, 2 * 2 * 12 * 16 * 4);
    }

    #[test]
    fn a_bad_shape_is_an_error() {
        assert!(
            BlockWorkload::build(4, 10, 3, 1, false).is_err(),
            "3 heads do not divide 10"
        );
    }
}
