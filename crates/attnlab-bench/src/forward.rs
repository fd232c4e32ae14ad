//! The pretrained encoder's forward pass and its matrix products, for the forward rows of
//! the benchmark: all-MiniLM-L6-v2 (f32 checkpoint or int8 asset) and multilingual-E5-small
//! (its 4-bit asset) run by attnlab-model.
//!
//! ```js
//! const f = ForwardPass.fromHuggingFace(weights, configJson, vocabText);
//! const ids = f.ids(text, 128);        // exactly 128 ids of a real text, or an error
//! const e = f.embedding(ids);          // the pooled, unit-length sentence embedding
//! const a = f.attention(ids, 0);       // layer 0's weights, heads × n × n
//! f.run(ids, reps);                    // reps forward passes, nothing copied out
//! const p = new MatrixProducts(f.layers(), 384, 1536, 128);
//! p.run(reps);                         // the same Linear products, on their own
//! const q = MatrixProducts.q4(12, 384, 1536, 128);   // with Q4_0 weights, as E5's
//! ```

use std::hint::black_box;

use attnlab_model::weights::{Linear, Matrix};
use attnlab_model::{AttentionOverride, Forward, Pretrained};
use ndarray::Array2;
use wasm_bindgen::prelude::*;

/// A loaded checkpoint whose forward pass the page times.
#[wasm_bindgen]
pub struct ForwardPass {
    model: Pretrained,
}

#[wasm_bindgen]
impl ForwardPass {
    /// A Hugging Face checkpoint: `model.safetensors` (f32), `config.json` and
    /// `vocab.txt`; mean pooling.
    #[wasm_bindgen(js_name = fromHuggingFace)]
    pub fn from_hugging_face(
        weights: &[u8],
        config_json: &str,
        vocab: &str,
    ) -> Result<ForwardPass, JsError> {
        let model = Pretrained::from_hugging_face(weights, config_json, None, vocab)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(ForwardPass { model })
    }

    /// An `attnlab-model-asset/1` asset (MiniLM's int8 or E5's 4-bit model the app runs).
    #[wasm_bindgen(js_name = fromAsset)]
    pub fn from_asset(bytes: &[u8]) -> Result<ForwardPass, JsError> {
        let model = Pretrained::from_asset(bytes).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(ForwardPass { model })
    }

    /// The ids of `text`, cut to `n` tokens (`[CLS] … [SEP]`); an error unless the text
    /// is long enough to give exactly `n`.
    pub fn ids(&self, text: &str, n: usize) -> Result<Vec<u32>, JsError> {
        let ids = self.token_ids(text, n).map_err(|e| JsError::new(&e))?;
        Ok(ids)
    }

    /// The encoder's layers.
    pub fn layers(&self) -> usize {
        self.model.encoder().config().num_hidden_layers
    }

    /// The heads of each layer.
    pub fn heads(&self) -> usize {
        self.model.encoder().config().num_attention_heads
    }

    /// The pooled sentence embedding of `ids` (unit length).
    pub fn embedding(&self, ids: &[u32]) -> Result<Vec<f32>, JsError> {
        Ok(self.forward(ids)?.embedding)
    }

    /// The attention weights of layer `layer`: every head's `n × n` matrix, head after
    /// head, row-major.
    pub fn attention(&self, ids: &[u32], layer: usize) -> Result<Vec<f32>, JsError> {
        let forward = self.forward(ids)?;
        let heads = forward
            .heads
            .get(layer)
            .ok_or_else(|| JsError::new(&format!("no layer {layer}")))?;
        Ok(heads
            .iter()
            .flat_map(|h| h.weights.iter().copied())
            .collect())
    }

    /// Runs the forward pass of `ids` `reps` times; returns the sum of each embedding's
    /// first value, so that the work cannot be skipped.
    pub fn run(&self, ids: &[u32], reps: u32) -> Result<f32, JsError> {
        let mut sum = 0.0;
        for _ in 0..reps {
            sum += black_box(self.forward(ids)?.embedding[0]);
        }
        Ok(sum)
    }
}

impl ForwardPass {
    /// [`ForwardPass::ids`] with a plain error.
    pub fn token_ids(&self, text: &str, n: usize) -> Result<Vec<u32>, String> {
        let encoding = self
            .model
            .tokenizer()
            .encode(text, n)
            .map_err(|e| e.to_string())?;
        if encoding.ids.len() != n {
            return Err(format!(
                "the text gives {} tokens, fewer than {n}",
                encoding.ids.len()
            ));
        }
        Ok(encoding.ids)
    }

    fn forward(&self, ids: &[u32]) -> Result<Forward, JsError> {
        self.model
            .encoder()
            .forward(ids, &AttentionOverride::default())
            .map_err(|e| JsError::new(&e.to_string()))
    }
}

/// The matrix products of one forward pass of `n` tokens, on their own: per layer the
/// query, key, value and output projections (`n × hidden · (hidden × hidden)ᵀ`), the
/// intermediate (`hidden → intermediate`) and the output (`intermediate → hidden`)
/// layers, through [`Linear::forward`] as the encoder calls it. The weights are
/// synthetic (the values do not change the time), of the checkpoint's shapes.
#[wasm_bindgen]
pub struct MatrixProducts {
    layers: usize,
    square: Linear,
    up: Linear,
    down: Linear,
    x: Array2<f32>,
    inner: Array2<f32>,
}

#[wasm_bindgen]
impl MatrixProducts {
    /// The products of `layers` layers of width `hidden` and `intermediate`, for `n`
    /// tokens.
    #[wasm_bindgen(constructor)]
    pub fn new(layers: usize, hidden: usize, intermediate: usize, n: usize) -> MatrixProducts {
        MatrixProducts::with(layers, hidden, intermediate, n, |out, inp, seed| {
            Matrix::from_f32(out, inp, values(out * inp, seed))
        })
    }

    /// The same products with Q4_0 weights (multilingual-E5-small's storage: blocks of
    /// 32 weights widened to f32 inside each product); `hidden` and `intermediate` must
    /// be multiples of 32.
    pub fn q4(
        layers: usize,
        hidden: usize,
        intermediate: usize,
        n: usize,
    ) -> Result<MatrixProducts, JsError> {
        if !(hidden.is_multiple_of(32) && intermediate.is_multiple_of(32)) {
            return Err(JsError::new("Q4_0 widths must be multiples of 32"));
        }
        Ok(MatrixProducts::with(
            layers,
            hidden,
            intermediate,
            n,
            |out, inp, seed| {
                // Per block: the scale 2⁻⁷ (f16 0x2000), then 16 bytes of nibbles.
                let blocks = (0..out * inp / 32)
                    .flat_map(|b| {
                        let nibbles =
                            (0..16u8).map(move |j| ((b + seed) as u8) ^ j.wrapping_mul(37));
                        [0x00, 0x20].into_iter().chain(nibbles)
                    })
                    .collect();
                Matrix::from_q4_0(out, inp, blocks)
            },
        ))
    }
}

/// Deterministic values in [−0.1, 0.1).
fn values(count: usize, seed: usize) -> Vec<f32> {
    (0..count)
        .map(|i| (((i * 37 + seed) % 101) as f32 - 50.0) / 500.0)
        .collect()
}

impl MatrixProducts {
    fn with(
        layers: usize,
        hidden: usize,
        intermediate: usize,
        n: usize,
        weight: impl Fn(usize, usize, usize) -> Matrix,
    ) -> MatrixProducts {
        let linear = |out: usize, inp: usize, seed: usize| {
            Linear::new(weight(out, inp, seed), Some(values(out, seed + 1)))
        };
        MatrixProducts {
            layers,
            square: linear(hidden, hidden, 1),
            up: linear(intermediate, hidden, 2),
            down: linear(hidden, intermediate, 3),
            x: Array2::from_shape_vec((n, hidden), values(n * hidden, 4)).expect("n × hidden"),
            inner: Array2::from_shape_vec((n, intermediate), values(n * intermediate, 5))
                .expect("n × intermediate"),
        }
    }
}

#[wasm_bindgen]
impl MatrixProducts {
    /// Floating-point operations of one call of [`MatrixProducts::run`]'s loop body:
    /// `2·m·k·n` per product (the biases not counted).
    pub fn flops(&self) -> f64 {
        let n = self.x.nrows() as f64;
        let (hidden, intermediate) = (self.x.ncols() as f64, self.inner.ncols() as f64);
        let per_layer = 4.0 * 2.0 * n * hidden * hidden + 2.0 * 2.0 * n * hidden * intermediate;
        self.layers as f64 * per_layer
    }

    /// Runs the products of a forward pass `reps` times; returns the sum of a value of
    /// each result, so that the work cannot be skipped.
    pub fn run(&self, reps: u32) -> f32 {
        let mut sum = 0.0;
        for _ in 0..reps {
            for _ in 0..self.layers {
                for _ in 0..4 {
                    sum += black_box(self.square.forward(&self.x)[[0, 0]]);
                }
                sum += black_box(self.up.forward(&self.x)[[0, 0]]);
                sum += black_box(self.down.forward(&self.inner)[[0, 0]]);
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_count_two_flops_per_multiply_add() {
        let p = MatrixProducts::new(2, 8, 32, 3);
        // Per layer: 4 · 2·3·8·8 + 2 · 2·3·8·32 = 1536 + 3072.
        assert_eq!(p.flops(), 2.0 * (1536.0 + 3072.0));
        assert!(p.run(2).is_finite());
    }

    #[test]
    fn q4_products_count_the_same_flops_and_refuse_odd_widths() {
        let p = MatrixProducts::q4(2, 32, 64, 3).map_err(|_| ()).unwrap();
        assert_eq!(p.flops(), MatrixProducts::new(2, 32, 64, 3).flops());
        let sum = p.run(1);
        assert!(sum.is_finite() && sum != 0.0, "{sum}");
    }

    #[test]
    fn a_tiny_checkpoint_runs_and_gives_its_attention() {
        let (weights, config, vocab) = attnlab_model::testing::tiny_checkpoint(7);
        let f = ForwardPass {
            model: Pretrained::from_hugging_face(&weights, &config, None, &vocab).unwrap(),
        };
        let ids = f.token_ids("the cat sat on the mat", 5).unwrap();
        assert_eq!(ids.len(), 5);
        assert!(f.token_ids("the", 50).is_err());
        let forward = f.forward(&ids).map_err(|_| ()).unwrap();
        let norm: f32 = forward.embedding.iter().map(|v| v * v).sum();
        assert!((norm - 1.0).abs() < 1e-5);
        let a = f.attention(&ids, 0).map_err(|_| ()).unwrap();
        assert_eq!(a.len(), f.heads() * 5 * 5);
    }
}
