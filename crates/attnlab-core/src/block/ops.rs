//! The block's pieces on rows of tokens: LayerNorm, GELU, the feed-forward network and
//! multi-head attention with its projections.

use ndarray::{Array1, Array2, ArrayView2, s};

use super::{FeedForward, LayerNorm, MultiHead};
use crate::attention::{AttentionSpec, HeadInput, Problem};
use crate::error::Result;
use crate::linear::weights_times_values;
use crate::mask::MaskSpec;

/// `GELU(x) = ½ x (1 + erf(x / √2))`, with libm's `erff` (a port of FreeBSD's msun,
/// within 1 ulp of the true erf in f32): `GELU(0) = 0`, `GELU(x) → x` for large `x`,
/// `→ 0` for large `−x`.
pub fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// LayerNorm of every row of `x` over its `d` features: `γ ⊙ (x − μ)/√(σ² + ε) + β`, with
/// `μ` the row's mean and `σ²` its population variance (divided by `d`), both two-pass.
pub fn layer_norm(x: &ArrayView2<'_, f32>, norm: &LayerNorm, eps: f32) -> Array2<f32> {
    let d = x.ncols() as f32;
    let mut out = x.to_owned();
    for mut row in out.rows_mut() {
        let mean = row.sum() / d;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / d;
        let inv = 1.0 / (var + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(&norm.gain).zip(&norm.bias) {
            *v = g * ((*v - mean) * inv) + b;
        }
    }
    out
}

/// `x W + b` (no `b`: `x W`).
pub(super) fn affine(x: &Array2<f32>, w: &Array2<f32>, b: Option<&Array1<f32>>) -> Array2<f32> {
    let mut y = weights_times_values(x, w);
    if let Some(b) = b {
        y += b;
    }
    y
}

/// The feed-forward network on every row of `x`, each on its own.
pub(super) fn feed_forward(x: &Array2<f32>, ffn: &FeedForward) -> Array2<f32> {
    let mut hidden = affine(x, &ffn.w_1, Some(&ffn.b_1));
    hidden.mapv_inplace(|v| ffn.activation.apply(v));
    affine(&hidden, &ffn.w_2, Some(&ffn.b_2))
}

/// The keys and values of a multi-head attention for the rows of `source`:
/// `(source W_K + b_K, source W_V + b_V)`, `m × d` each.
pub(super) fn keys_values(mh: &MultiHead, source: &Array2<f32>) -> (Array2<f32>, Array2<f32>) {
    (
        affine(source, &mh.w_k, mh.b_k.as_ref()),
        affine(source, &mh.w_v, mh.b_v.as_ref()),
    )
}

/// Multi-head attention of the queries `q` (already projected, `n × d`) over the keys and
/// values `k`, `v` (`m × d`), causal or not: each head's `n × m` weights and the output
/// `concat(heads) W_O + b_O`. Every head is a [`Problem`] of the core (scaled
/// dot-product, softmax).
pub(super) fn attend(
    mh: &MultiHead,
    q: &Array2<f32>,
    k: ArrayView2<'_, f32>,
    v: ArrayView2<'_, f32>,
    causal: bool,
) -> Result<(Vec<Array2<f32>>, Array2<f32>)> {
    let d_k = q.ncols() / mh.heads;
    let heads: Vec<HeadInput> = (0..mh.heads)
        .map(|h| {
            let cols = s![.., h * d_k..(h + 1) * d_k];
            HeadInput::new(
                q.slice(cols).to_owned(),
                k.slice(cols).to_owned(),
                v.slice(cols).to_owned(),
            )
        })
        .collect();
    let spec = AttentionSpec {
        mask: MaskSpec {
            causal,
            ..MaskSpec::default()
        },
        ..AttentionSpec::default()
    };
    // Without W_O the problem's output is the heads' concatenation, projected here (the
    // same product, without copying W_O into every problem).
    let result = Problem::new(heads, spec, None)?.compute()?;
    let output = affine(&result.output, &mh.w_o, mh.b_o.as_ref());
    let weights = result
        .heads
        .into_iter()
        .map(|h| h.weights.into_owned())
        .collect();
    Ok((weights, output))
}

impl FeedForward {
    /// The network on every row of `x` (`n × d`), each row on its own: `n × d`. A page
    /// shows with it that permuting the rows permutes the output.
    pub fn forward(&self, x: &Array2<f32>) -> Array2<f32> {
        feed_forward(x, self)
    }
}

impl MultiHead {
    /// Self-attention of the rows of `x` (`n × d`, `d` the block's), masked when
    /// [`MultiHead::causal`]: each head's `n × n` weights and the `n × d` output
    /// `concat(heads) W_O + b_O`, as a layer computes them. Refused as [`Problem::new`]
    /// refuses (a width the heads do not divide, no rows).
    pub fn self_attend(&self, x: &Array2<f32>) -> Result<(Vec<Array2<f32>>, Array2<f32>)> {
        let q = affine(x, &self.w_q, self.b_q.as_ref());
        let (k, v) = keys_values(self, x);
        attend(self, &q, k.view(), v.view(), self.causal)
    }
}
