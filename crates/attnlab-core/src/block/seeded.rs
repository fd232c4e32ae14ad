//! A block with seeded weights, for the page that runs one on a sentence: every matrix
//! from its own named ChaCha8 stream ([`crate::rng::stream`]) of the seed, so the same
//! settings give the same numbers everywhere and one layer's weights never shift when
//! another layer is added.

use ndarray::Array1;

use super::{
    Activation, Block, CrossAttention, DEFAULT_EPS, FeedForward, Layer, LayerNorm, MultiHead, Norm,
};
use crate::error::Result;
use crate::rng;

/// What a seeded block looks like besides its sizes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seeded {
    /// Post-LN or pre-LN.
    pub norm: Norm,
    /// The feed-forward's activation.
    pub activation: Activation,
    /// Whether self-attention is causal (a decoder's).
    pub causal: bool,
    /// Whether every layer has cross-attention over a memory (then [`Block::run`] needs one).
    pub cross: bool,
    /// Whether a final norm follows the last layer.
    pub final_norm: bool,
    /// LayerNorm's `ε`.
    pub eps: f32,
}

impl Default for Seeded {
    fn default() -> Self {
        Seeded {
            norm: Norm::Post,
            activation: Activation::Relu,
            causal: false,
            cross: false,
            final_norm: false,
            eps: DEFAULT_EPS,
        }
    }
}

/// The index of a layer's draw: the layer and what the matrix is in it.
fn index(layer: usize, part: u64) -> u64 {
    (layer as u64) << 8 | part
}

impl Block {
    /// `layers` layers of width `d` with `heads` heads and a feed-forward of width
    /// `ffn_width`, drawn from `seed`: projections `W ~ N(0, 1/d)` (`W_Q`, `W_K`, `W_V`,
    /// `W_O`, `W₁`), `W₂ ~ N(0, 1/f)`, biases 0 (attention without biases), LayerNorm's
    /// gain 1 and bias 0. Refused as [`Block::new`] refuses (e.g. heads not dividing `d`).
    pub fn seeded(
        seed: u64,
        d: usize,
        heads: usize,
        ffn_width: usize,
        layers: usize,
        options: &Seeded,
    ) -> Result<Block> {
        let square = |label: &str, l: usize, part: u64| {
            let std = 1.0 / (d.max(1) as f32).sqrt();
            rng::normal_matrix(&mut rng::stream(seed, label, index(l, part)), d, d, std)
        };
        let attention = |label: &str, l: usize, causal: bool| MultiHead {
            heads,
            w_q: square(label, l, 0),
            w_k: square(label, l, 1),
            w_v: square(label, l, 2),
            w_o: square(label, l, 3),
            b_q: None,
            b_k: None,
            b_v: None,
            b_o: None,
            causal,
        };
        let built = (0..layers)
            .map(|l| {
                let in_std = 1.0 / (d.max(1) as f32).sqrt();
                let out_std = 1.0 / (ffn_width.max(1) as f32).sqrt();
                Layer {
                    self_attention: attention("block-self", l, options.causal),
                    ln_self: LayerNorm::identity(d),
                    cross: options.cross.then(|| CrossAttention {
                        attention: attention("block-cross", l, false),
                        ln: LayerNorm::identity(d),
                    }),
                    ln_ffn: LayerNorm::identity(d),
                    ffn: FeedForward {
                        w_1: rng::normal_matrix(
                            &mut rng::stream(seed, "block-ffn-1", l as u64),
                            d,
                            ffn_width,
                            in_std,
                        ),
                        b_1: Array1::zeros(ffn_width),
                        w_2: rng::normal_matrix(
                            &mut rng::stream(seed, "block-ffn-2", l as u64),
                            ffn_width,
                            d,
                            out_std,
                        ),
                        b_2: Array1::zeros(d),
                        activation: options.activation,
                    },
                }
            })
            .collect();
        let final_norm = options.final_norm.then(|| LayerNorm::identity(d));
        Block::new(built, options.norm, options.eps, final_norm)
    }
}
