//! The parallel pass: every position at once through every layer, keeping what the
//! block's page draws (each head's weights, each sub-layer's input and output).

use ndarray::{ArcArray2, Array2};

use super::ops::{attend, feed_forward, keys_values, layer_norm};
use super::{Block, LayerNorm, Norm};
use crate::error::Result;

/// One sub-layer: the residual stream in, what its function made of it, the stream out.
/// `input` is the previous sub-layer's `output`, shared, not copied.
#[derive(Debug, Clone, PartialEq)]
pub struct Sublayer {
    /// The stream entering, `n × d`.
    pub input: ArcArray2<f32>,
    /// `f(x)` (post-LN) or `f(LN(x))` (pre-LN): attention's or the feed-forward's output.
    pub transformed: Array2<f32>,
    /// The stream leaving: `LN(x + f(x))` or `x + f(LN(x))`.
    pub output: ArcArray2<f32>,
}

/// One layer's result.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerResult {
    /// Each head's self-attention weights, `n × n`.
    pub self_attention: Vec<Array2<f32>>,
    /// Each head's cross-attention weights, `n × m` (with a memory).
    pub cross_attention: Option<Vec<Array2<f32>>>,
    /// The self-attention sub-layer.
    pub self_sublayer: Sublayer,
    /// The cross-attention sub-layer (with a memory).
    pub cross_sublayer: Option<Sublayer>,
    /// The feed-forward sub-layer.
    pub ffn_sublayer: Sublayer,
}

impl LayerResult {
    /// The layer's output, `n × d` (its feed-forward sub-layer's).
    pub fn output(&self) -> &ArcArray2<f32> {
        &self.ffn_sublayer.output
    }
}

/// The whole stack's result.
#[derive(Debug, Clone, PartialEq)]
pub struct StackResult {
    /// Per layer.
    pub layers: Vec<LayerResult>,
    /// The last layer's output, after the final norm when there is one, `n × d`.
    pub output: Array2<f32>,
}

/// The sub-layer `f` around the stream `x`, with its residual connection and norm.
pub(super) fn sublayer(
    placement: Norm,
    eps: f32,
    ln: &LayerNorm,
    x: &ArcArray2<f32>,
    f: impl FnOnce(&Array2<f32>) -> Result<Array2<f32>>,
) -> Result<Sublayer> {
    let (transformed, output) = match placement {
        Norm::Post => {
            let fx = f(&x.to_owned())?;
            let sum = &fx + x;
            let out = layer_norm(&sum.view(), ln, eps);
            (fx, out)
        }
        Norm::Pre => {
            let fx = f(&layer_norm(&x.view(), ln, eps))?;
            let out = &fx + x;
            (fx, out)
        }
    };
    Ok(Sublayer {
        input: x.clone(),
        transformed,
        output: output.into_shared(),
    })
}

impl Block {
    /// Runs the stack on the tokens `x` (`n × d`), every position at once, with the
    /// memory `memory` (`m × d`) when the layers have cross-attention. The inputs are
    /// checked here ([`Block::check_input`]); an overflow is an error, never inf or NaN.
    pub fn run(&self, x: &Array2<f32>, memory: Option<&Array2<f32>>) -> Result<StackResult> {
        self.check_input(x, memory)?;
        let mut stream = x.to_owned().into_shared();
        let mut layers = Vec::with_capacity(self.layers.len());
        for (l, layer) in self.layers.iter().enumerate() {
            let at = |e: crate::CoreError| e.in_layer(l);
            let mut self_weights = Vec::new();
            let sa = &layer.self_attention;
            let self_sublayer = sublayer(self.norm, self.eps, &layer.ln_self, &stream, |h| {
                let q = super::ops::affine(h, &sa.w_q, sa.b_q.as_ref());
                let (k, v) = keys_values(sa, h);
                let (w, out) = attend(sa, &q, k.view(), v.view(), sa.causal)?;
                self_weights = w;
                Ok(out)
            })
            .map_err(at)?;
            stream = self_sublayer.output.clone();
            let mut cross_weights = None;
            let cross_sublayer = match (&layer.cross, memory) {
                (Some(cross), Some(mem)) => {
                    let (ca, ln) = (&cross.attention, &cross.ln);
                    let (k, v) = keys_values(ca, mem);
                    let sub = sublayer(self.norm, self.eps, ln, &stream, |h| {
                        let q = super::ops::affine(h, &ca.w_q, ca.b_q.as_ref());
                        let (w, out) = attend(ca, &q, k.view(), v.view(), false)?;
                        cross_weights = Some(w);
                        Ok(out)
                    })
                    .map_err(at)?;
                    stream = sub.output.clone();
                    Some(sub)
                }
                _ => None,
            };
            let ffn_sublayer = sublayer(self.norm, self.eps, &layer.ln_ffn, &stream, |h| {
                Ok(feed_forward(h, &layer.ffn))
            })
            .map_err(at)?;
            stream = ffn_sublayer.output.clone();
            super::validate::finite_result(stream.view()).map_err(at)?;
            layers.push(LayerResult {
                self_attention: self_weights,
                cross_attention: cross_weights,
                self_sublayer,
                cross_sublayer,
                ffn_sublayer,
            });
        }
        let output = self.finish(stream.view());
        super::validate::finite_result(output.view())?;
        Ok(StackResult { layers, output })
    }

    /// The final norm, when there is one, of the last layer's output.
    pub(super) fn finish(&self, last: ndarray::ArrayView2<'_, f32>) -> Array2<f32> {
        match &self.final_norm {
            Some(ln) => layer_norm(&last, ln, self.eps),
            None => last.to_owned(),
        }
    }
}
