//! The Transformer block around attention (docs/maths.md §14): LayerNorm, the
//! position-wise feed-forward network, multi-head attention with its projections, a
//! layer of self-attention, optional cross-attention over a memory and the feed-forward,
//! each wrapped in a residual connection and a LayerNorm (post-LN, the paper's
//! `x = LN(x + f(x))`, or pre-LN, `x = x + f(LN(x))`), a stack of layers, and the same
//! stack decoded one position at a time with a KV cache ([`Block::decode`]).
//!
//! Attention is the core's own: each head is a [`crate::attention::Problem`] with the
//! scaled dot-product score and softmax (causal self-attention through its
//! [`crate::mask::MaskSpec`]); the products `x·W` are the kernels' (see
//! [`crate::linear::weights_times_values`]). A [`Block`] is validated once, in
//! [`Block::new`]; its inputs once per run.
//!
//! ```
//! use attnlab_core::block::{Activation, Block, Norm, Seeded};
//! use ndarray::Array2;
//!
//! let options = Seeded { norm: Norm::Pre, activation: Activation::Gelu, causal: true, ..Seeded::default() };
//! let block = Block::seeded(7, 8, 2, 16, 2, &options)?;
//! let x = Array2::from_shape_fn((5, 8), |(i, j)| ((i * 8 + j) as f32 * 0.37).sin());
//! let parallel = block.run(&x, None)?;
//! let decoded = block.decode(&x, None)?;
//! assert_eq!(parallel.layers[0].self_attention[1].dim(), (5, 5));
//! let largest = (&parallel.output - &decoded.output).iter().fold(0f32, |m, d| m.max(d.abs()));
//! assert!(largest < 1e-4);
//! # Ok::<(), attnlab_core::CoreError>(())
//! ```

use ndarray::{Array1, Array2};

mod decode;
mod ops;
mod seeded;
mod stack;
mod validate;

pub use decode::{CacheSize, Decoded, DecodedLayer};
pub use ops::{gelu, layer_norm};
pub use seeded::Seeded;
pub use stack::{LayerResult, StackResult, Sublayer};

/// LayerNorm's learned scale and shift over the `d` features of a token:
/// `gain ⊙ (x − μ) / √(σ² + ε) + bias`, `σ²` the population variance.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNorm {
    /// `γ`, `d` values.
    pub gain: Array1<f32>,
    /// `β`, `d` values.
    pub bias: Array1<f32>,
}

impl LayerNorm {
    /// Gain 1 and bias 0 over `d` features: the plain normalisation.
    pub fn identity(d: usize) -> LayerNorm {
        LayerNorm {
            gain: Array1::ones(d),
            bias: Array1::zeros(d),
        }
    }
}

/// The feed-forward network's non-linearity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Activation {
    /// `max(0, x)` (the paper's).
    #[default]
    Relu,
    /// `x Φ(x) = ½ x (1 + erf(x/√2))` (BERT, GPT-2), the erf form.
    Gelu,
}

impl Activation {
    /// Both, in the format's order.
    pub const ALL: [Activation; 2] = [Activation::Relu, Activation::Gelu];

    /// The name in the `attnlab-block/1` format.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Relu => "relu",
            Activation::Gelu => "gelu",
        }
    }

    /// The activation named `name` in the format.
    pub fn parse(name: &str) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The activation of one number.
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Relu => x.max(0.0),
            Activation::Gelu => gelu(x),
        }
    }
}

/// The position-wise feed-forward network `act(x W₁ + b₁) W₂ + b₂`: the same two
/// matrices for every token, a convolution of width 1.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedForward {
    /// `W₁`, `d × f`.
    pub w_1: Array2<f32>,
    /// `b₁`, `f` values.
    pub b_1: Array1<f32>,
    /// `W₂`, `f × d`.
    pub w_2: Array2<f32>,
    /// `b₂`, `d` values.
    pub b_2: Array1<f32>,
    /// ReLU or GELU.
    pub activation: Activation,
}

/// Multi-head attention with its projections: `Q = x W_Q + b_Q`, `K = s W_K + b_K`,
/// `V = s W_V + b_V` (`s` = `x` for self-attention, the memory for cross-attention), each
/// split into `heads` contiguous blocks of `d / heads` columns; per head
/// `softmax(Q_h K_hᵀ / √d_k) V_h`; the heads concatenated, times `W_O`, plus `b_O`.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiHead {
    /// How many heads (divides `d`).
    pub heads: usize,
    /// `W_Q`, `d × d`.
    pub w_q: Array2<f32>,
    /// `W_K`, `d × d`.
    pub w_k: Array2<f32>,
    /// `W_V`, `d × d`.
    pub w_v: Array2<f32>,
    /// `W_O`, `d × d`.
    pub w_o: Array2<f32>,
    /// `b_Q`, `d` values, or none (zero).
    pub b_q: Option<Array1<f32>>,
    /// `b_K`.
    pub b_k: Option<Array1<f32>>,
    /// `b_V`.
    pub b_v: Option<Array1<f32>>,
    /// `b_O`.
    pub b_o: Option<Array1<f32>>,
    /// Query `i` sees keys `j ≤ i` only (self-attention only: cross-attention's keys are
    /// the memory's positions, not the queries').
    pub causal: bool,
}

/// Where each LayerNorm sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Norm {
    /// `x = LN(x + f(x))`: the paper, BERT.
    #[default]
    Post,
    /// `x = x + f(LN(x))`: GPT-2 and later (usually with a final norm).
    Pre,
}

impl Norm {
    /// Both, in the format's order.
    pub const ALL: [Norm; 2] = [Norm::Post, Norm::Pre];

    /// The name in the `attnlab-block/1` format.
    pub fn name(self) -> &'static str {
        match self {
            Norm::Post => "post",
            Norm::Pre => "pre",
        }
    }

    /// The placement named `name` in the format.
    pub fn parse(name: &str) -> Option<Norm> {
        Norm::ALL.into_iter().find(|n| n.name() == name)
    }
}

/// One layer: self-attention, cross-attention over a memory (when the block has one),
/// the feed-forward network; each sub-layer with its residual connection and LayerNorm.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Self-attention (masked when causal).
    pub self_attention: MultiHead,
    /// The LayerNorm of the self-attention sub-layer.
    pub ln_self: LayerNorm,
    /// Cross-attention and its LayerNorm, when the block attends to a memory.
    pub cross: Option<CrossAttention>,
    /// The LayerNorm of the feed-forward sub-layer.
    pub ln_ffn: LayerNorm,
    /// The feed-forward network.
    pub ffn: FeedForward,
}

/// The cross-attention sub-layer: queries from the layer's stream, keys and values from
/// the memory (never causal: the memory's positions are not the queries').
#[derive(Debug, Clone, PartialEq)]
pub struct CrossAttention {
    /// The attention.
    pub attention: MultiHead,
    /// Its LayerNorm (`ln_cross` in the format).
    pub ln: LayerNorm,
}

/// The default `ε` of LayerNorm.
pub const DEFAULT_EPS: f32 = 1e-5;

/// A validated stack of layers (see [`Block::new`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    layers: Vec<Layer>,
    norm: Norm,
    eps: f32,
    final_norm: Option<LayerNorm>,
    d: usize,
}

impl Block {
    /// The layers.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Post-LN or pre-LN.
    pub fn norm(&self) -> Norm {
        self.norm
    }

    /// LayerNorm's `ε`.
    pub fn eps(&self) -> f32 {
        self.eps
    }

    /// The norm after the last layer, when there is one.
    pub fn final_norm(&self) -> Option<&LayerNorm> {
        self.final_norm.as_ref()
    }

    /// `d`, the width of a token's vector.
    pub fn d(&self) -> usize {
        self.d
    }

    /// Whether the layers attend to a memory (cross-attention).
    pub fn has_cross(&self) -> bool {
        self.layers[0].cross.is_some()
    }
}

#[cfg(test)]
mod tests;
