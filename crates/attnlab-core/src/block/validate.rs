//! The checks of a block, made once in [`Block::new`], and of its inputs, made once per
//! run: shapes, heads that divide `d`, finite numbers, `ε > 0`, cross-attention exactly
//! when there is a memory. Each error names its field as the `attnlab-block/1` format
//! does (`layers[1].ffn.w_1`).

use ndarray::{Array1, Array2, ArrayView2};

use super::{Block, FeedForward, Layer, LayerNorm, MultiHead, Norm};
use crate::error::{BlockInvalid, CoreError, Expected, Field, Invalid, PipelineInvalid, Result};

fn invalid(field: Field, reason: BlockInvalid) -> CoreError {
    CoreError::InvalidSetting {
        field,
        reason: Invalid::Block(reason),
    }
}

fn shape(field: Field, expected: Expected, got: (usize, usize)) -> CoreError {
    CoreError::ShapeMismatch {
        head: None,
        field,
        expected,
        got,
    }
}

/// Every number of `a` finite, else the first that is not.
fn finite(field: Field, a: &ArrayView2<'_, f32>) -> Result<()> {
    match a.indexed_iter().find(|(_, v)| !v.is_finite()) {
        Some(((row, col), _)) => Err(CoreError::NonFinite {
            head: None,
            field,
            row,
            col,
        }),
        None => Ok(()),
    }
}

/// A `rows × cols` matrix of finite numbers.
fn matrix(field: Field, a: &Array2<f32>, dims: (usize, usize), expected: Expected) -> Result<()> {
    if a.dim() != dims {
        return Err(shape(field, expected, a.dim()));
    }
    finite(field, &a.view())
}

/// `len` finite numbers.
fn vector(field: Field, v: &Array1<f32>, len: usize, expected: Expected) -> Result<()> {
    if v.len() != len {
        return Err(shape(field, expected, (1, v.len())));
    }
    let row = v.view().insert_axis(ndarray::Axis(0));
    finite(field, &row)
}

/// A result's numbers finite (an overflow inside the layers is an error, not inf).
pub(super) fn finite_result(a: ArrayView2<'_, f32>) -> Result<()> {
    finite("output", &a)
}

fn layer_norm(fields: [Field; 2], ln: &LayerNorm, d: usize) -> Result<()> {
    vector(fields[0], &ln.gain, d, Expected::ModelVector { d })?;
    vector(fields[1], &ln.bias, d, Expected::ModelVector { d })
}

/// The fields of one attention, named below `self` or `cross`.
struct AttentionFields {
    heads: Field,
    w: [Field; 4],
    b: [Field; 4],
}

const SELF: AttentionFields = AttentionFields {
    heads: "self.heads",
    w: ["self.w_q", "self.w_k", "self.w_v", "self.w_o"],
    b: ["self.b_q", "self.b_k", "self.b_v", "self.b_o"],
};

const CROSS: AttentionFields = AttentionFields {
    heads: "cross.heads",
    w: ["cross.w_q", "cross.w_k", "cross.w_v", "cross.w_o"],
    b: ["cross.b_q", "cross.b_k", "cross.b_v", "cross.b_o"],
};

fn multi_head(fields: &AttentionFields, mh: &MultiHead, d: usize) -> Result<()> {
    if mh.heads == 0 || !d.is_multiple_of(mh.heads) {
        return Err(CoreError::InvalidSetting {
            field: fields.heads,
            reason: Invalid::HeadsDivide {
                d_model: d,
                heads: mh.heads,
            },
        });
    }
    let ws = [&mh.w_q, &mh.w_k, &mh.w_v, &mh.w_o];
    for (field, w) in fields.w.into_iter().zip(ws) {
        matrix(field, w, (d, d), Expected::ModelSquare { d })?;
    }
    let bs = [&mh.b_q, &mh.b_k, &mh.b_v, &mh.b_o];
    for (field, b) in fields.b.into_iter().zip(bs) {
        if let Some(b) = b {
            vector(field, b, d, Expected::ModelVector { d })?;
        }
    }
    Ok(())
}

fn feed_forward(ffn: &FeedForward, d: usize) -> Result<()> {
    let f = ffn.w_1.ncols();
    if ffn.w_1.nrows() != d || f == 0 {
        return Err(shape("ffn.w_1", Expected::FfnIn { d }, ffn.w_1.dim()));
    }
    finite("ffn.w_1", &ffn.w_1.view())?;
    vector("ffn.b_1", &ffn.b_1, f, Expected::FfnVector { f })?;
    matrix("ffn.w_2", &ffn.w_2, (f, d), Expected::FfnOut { f, d })?;
    vector("ffn.b_2", &ffn.b_2, d, Expected::ModelVector { d })
}

fn layer(layer: &Layer, d: usize, cross: bool) -> Result<()> {
    multi_head(&SELF, &layer.self_attention, d)?;
    layer_norm(["ln_self.gain", "ln_self.bias"], &layer.ln_self, d)?;
    match (&layer.cross, cross) {
        (Some(c), true) => {
            multi_head(&CROSS, &c.attention, d)?;
            if c.attention.causal {
                return Err(invalid("cross.causal", BlockInvalid::CrossCausal));
            }
            layer_norm(["ln_cross.gain", "ln_cross.bias"], &c.ln, d)?;
        }
        (None, false) => {}
        (_, _) => return Err(invalid("cross", BlockInvalid::MemoryWithoutCross)),
    }
    layer_norm(["ln_ffn.gain", "ln_ffn.bias"], &layer.ln_ffn, d)?;
    feed_forward(&layer.ffn, d)
}

impl Block {
    /// Validates a stack once: at least one layer; `d` (the rows of the first layer's
    /// `W_Q`, at least 1) shared by every matrix; heads dividing `d`; every number finite;
    /// `ε` finite and above 0; cross-attention (with its norm) in every layer or in none,
    /// and never causal. Errors name the field inside its layer (`layers[1].ffn.w_1`).
    pub fn new(
        layers: Vec<Layer>,
        norm: Norm,
        eps: f32,
        final_norm: Option<LayerNorm>,
    ) -> Result<Block> {
        let Some(first) = layers.first() else {
            return Err(invalid("layers", BlockInvalid::NoLayers));
        };
        if !(eps.is_finite() && eps > 0.0) {
            return Err(CoreError::InvalidSetting {
                field: "layer_norm_eps",
                reason: Invalid::Pipeline(PipelineInvalid::NotPositive(eps)),
            });
        }
        let d = first.self_attention.w_q.nrows();
        if d == 0 {
            let got = first.self_attention.w_q.dim();
            let e = shape("self.w_q", Expected::ModelSquare { d: got.1.max(1) }, got);
            return Err(e.in_layer(0));
        }
        let cross = first.cross.is_some();
        for (l, each) in layers.iter().enumerate() {
            layer(each, d, cross).map_err(|e| e.in_layer(l))?;
        }
        if let Some(ln) = &final_norm {
            layer_norm(["final_norm.gain", "final_norm.bias"], ln, d)?;
        }
        Ok(Block {
            layers,
            norm,
            eps,
            final_norm,
            d,
        })
    }

    /// Checks an input: `x` of at least one row and `d` columns, finite; a memory (the
    /// same) exactly when the layers have cross-attention.
    pub fn check_input(&self, x: &Array2<f32>, memory: Option<&Array2<f32>>) -> Result<()> {
        let d = self.d;
        let tokens = |field: Field, a: &Array2<f32>| -> Result<()> {
            if a.nrows() == 0 {
                return Err(invalid(field, BlockInvalid::NoTokens));
            }
            if a.ncols() != d {
                return Err(shape(field, Expected::ModelColumns { d }, a.dim()));
            }
            finite(field, &a.view())
        };
        tokens("x", x)?;
        match (memory, self.has_cross()) {
            (Some(m), true) => tokens("memory", m),
            (None, false) => Ok(()),
            (None, true) => Err(invalid("memory", BlockInvalid::CrossWithoutMemory)),
            (Some(_), false) => Err(invalid("memory", BlockInvalid::MemoryWithoutCross)),
        }
    }
}
