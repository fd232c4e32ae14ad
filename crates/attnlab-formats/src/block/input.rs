//! The `attnlab-block/1` document as serde reads it, with the tensors format's typed
//! values (`Finite`, `Count`, `Array`, `Object`): every field optional here (`null` is
//! absent), so that a missing one is reported with its path by the reader.

use serde::Deserialize;

use crate::tensors::json_input::{Array, Count, Finite, Object, Plural, Rows};

/// The whole document.
#[derive(Debug, Deserialize)]
pub struct RawBlock {
    /// `attnlab-block/1`.
    pub format: Option<String>,
    /// The tokens, `n × d`.
    pub x: Option<Rows>,
    /// The encoder's output, `m × d`.
    pub memory: Option<Rows>,
    /// `"post"` or `"pre"`.
    pub norm: Option<String>,
    /// LayerNorm's ε.
    pub layer_norm_eps: Option<Finite>,
    /// The norm after the last layer.
    pub final_norm: Option<Object<RawNorm>>,
    /// The layers.
    pub layers: Option<Array<Object<RawLayer>>>,
}

/// One layer.
#[derive(Debug, Deserialize)]
pub struct RawLayer {
    /// Self-attention.
    #[serde(rename = "self")]
    pub self_attention: Option<Object<RawAttention>>,
    /// Cross-attention (with a memory).
    pub cross: Option<Object<RawAttention>>,
    /// The self-attention sub-layer's norm.
    pub ln_self: Option<Object<RawNorm>>,
    /// The cross-attention sub-layer's norm.
    pub ln_cross: Option<Object<RawNorm>>,
    /// The feed-forward sub-layer's norm.
    pub ln_ffn: Option<Object<RawNorm>>,
    /// The feed-forward network.
    pub ffn: Option<Object<RawFfn>>,
}

impl Plural for Object<RawLayer> {
    const PLURAL: &'static str = "layers";
}

/// One attention.
#[derive(Debug, Deserialize)]
pub struct RawAttention {
    /// How many heads.
    pub heads: Option<Count>,
    /// `W_Q`, `d × d`.
    pub w_q: Option<Rows>,
    /// `W_K`.
    pub w_k: Option<Rows>,
    /// `W_V`.
    pub w_v: Option<Rows>,
    /// `W_O`.
    pub w_o: Option<Rows>,
    /// `b_Q`, `d` values.
    pub b_q: Option<Array<Finite>>,
    /// `b_K`.
    pub b_k: Option<Array<Finite>>,
    /// `b_V`.
    pub b_v: Option<Array<Finite>>,
    /// `b_O`.
    pub b_o: Option<Array<Finite>>,
    /// `j ≤ i`.
    pub causal: Option<bool>,
}

/// A LayerNorm's gain and bias.
#[derive(Debug, Deserialize)]
pub struct RawNorm {
    /// `γ`, `d` values.
    pub gain: Option<Array<Finite>>,
    /// `β`, `d` values.
    pub bias: Option<Array<Finite>>,
}

/// The feed-forward network.
#[derive(Debug, Deserialize)]
pub struct RawFfn {
    /// `W₁`, `d × f`.
    pub w_1: Option<Rows>,
    /// `b₁`, `f` values.
    pub b_1: Option<Array<Finite>>,
    /// `W₂`, `f × d`.
    pub w_2: Option<Rows>,
    /// `b₂`, `d` values.
    pub b_2: Option<Array<Finite>>,
    /// `"relu"` or `"gelu"`.
    pub activation: Option<String>,
}
