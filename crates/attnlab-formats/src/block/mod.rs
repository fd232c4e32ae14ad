//! The `attnlab-block/1` document: a stack of Transformer layers and its input, read into
//! a validated [`attnlab_core::block::Block`] (docs/block.md describes the format).
//!
//! It is read the way `attnlab-tensors/1` is ([`crate::tensors::json`], whose helpers
//! this reuses): serde reads the typed structs of `input.rs` and names the value it
//! rejects by its path; the shapes serde cannot check follow, each named by its path
//! (`layers[1].ffn.w_1[3]: expected 8 numbers, found 7`); the core's own checks
//! ([`Block::new`]) name theirs the same way (`layers[0].self.heads`). Unlike the tensors
//! format, a field the format does not have is refused, not warned about: a misspelt
//! `b_q` would otherwise silently drop a bias.

use attnlab_core::CoreError;
use attnlab_core::block::{
    Activation, Block, CrossAttention, DEFAULT_EPS, FeedForward, Layer, LayerNorm, MultiHead, Norm,
};
use attnlab_core::error::{BlockInvalid, Invalid};
use ndarray::{Array1, Array2};

use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;

use crate::tensors::json::{
    FieldError, MISSING, Parsed, check_syntax, choice, matrix, quoted, typed,
};
use crate::tensors::json_input::{Array, Finite, Object, Rows};

mod input;

use input::{RawAttention, RawBlock, RawFfn, RawLayer, RawNorm};

/// The format tag of block documents.
pub const BLOCK_FORMAT: &str = "attnlab-block/1";

/// The format tag of their results.
pub const BLOCK_RESULT_FORMAT: &str = "attnlab-block-result/1";

/// The most attention weights a document may ask for, over every layer and head
/// (`layers · heads · n · (n + m)`): the tensors format's limit,
/// [`crate::tensors::MAX_WEIGHTS`].
pub const MAX_BLOCK_WEIGHTS: usize = crate::tensors::MAX_WEIGHTS;

/// A parsed block document: the validated stack and its input.
#[derive(Debug, Clone)]
pub struct BlockDocument {
    /// The layers, validated.
    pub block: Block,
    /// The tokens, `n × d`.
    pub x: Array2<f32>,
    /// The encoder's output, `m × d`, when the layers have cross-attention.
    pub memory: Option<Array2<f32>>,
}

/// A core error as the reader's error (its path and reason, in every language).
fn core(e: CoreError) -> FieldError {
    FieldError::from(e)
}

fn block_error(field: &'static str, reason: BlockInvalid) -> FieldError {
    core(CoreError::InvalidSetting {
        field,
        reason: Invalid::Block(reason),
    })
}

/// What the rows of a matrix are counted against.
#[derive(Clone, Copy)]
enum RowsOf {
    /// `d`, the width of `x`.
    D,
    /// `f`, the columns of `ffn.w_1`.
    F,
}

/// A matrix that must be there, `rows × cols`: each row's length is checked first (named
/// by the row), then the number of rows.
fn sized(
    raw: Option<Rows>,
    path: &str,
    (rows, cols): (usize, usize),
    of: RowsOf,
) -> Parsed<Array2<f32>> {
    let given = raw.ok_or_else(|| FieldError::said(path, MISSING))?;
    if let Some((i, row)) = given.0.iter().enumerate().find(|(_, r)| r.0.len() != cols) {
        let said = formats::JsonRowWidth {
            width: cols,
            found: &row.0.len(),
        }
        .said();
        return Err(FieldError::said(format!("{path}[{i}]"), said));
    }
    let a = matrix(given, path)?;
    if a.nrows() != rows {
        let said = match of {
            RowsOf::D => formats::BlockRowsD {
                rows: &a.nrows(),
                d: &rows,
            }
            .said(),
            RowsOf::F => formats::BlockRowsF {
                rows: &a.nrows(),
                f: &rows,
            }
            .said(),
        };
        return Err(FieldError::said(path, said));
    }
    Ok(a)
}

/// `len` numbers.
fn numbers(raw: Array<Finite>, path: &str, len: usize) -> Parsed<Array1<f32>> {
    if raw.0.len() != len {
        let said = formats::JsonRowWidth {
            width: len,
            found: &raw.0.len(),
        }
        .said();
        return Err(FieldError::said(path, said));
    }
    Ok(raw.0.iter().map(|x| x.0).collect())
}

/// `len` numbers that must be there.
fn required_numbers(raw: Option<Array<Finite>>, path: &str, len: usize) -> Parsed<Array1<f32>> {
    numbers(
        raw.ok_or_else(|| FieldError::said(path, MISSING))?,
        path,
        len,
    )
}

fn layer_norm(raw: Option<Object<RawNorm>>, path: &str, d: usize) -> Parsed<LayerNorm> {
    let RawNorm { gain, bias } = raw.ok_or_else(|| FieldError::said(path, MISSING))?.0;
    Ok(LayerNorm {
        gain: required_numbers(gain, &format!("{path}.gain"), d)?,
        bias: required_numbers(bias, &format!("{path}.bias"), d)?,
    })
}

fn attention(raw: Option<Object<RawAttention>>, path: &str, d: usize) -> Parsed<MultiHead> {
    let raw = raw.ok_or_else(|| FieldError::said(path, MISSING))?.0;
    let at = |field: &str| format!("{path}.{field}");
    let heads = raw
        .heads
        .ok_or_else(|| FieldError::said(at("heads"), MISSING))?
        .0;
    let square = |rows: Option<Rows>, field: &str| sized(rows, &at(field), (d, d), RowsOf::D);
    let bias = |values: Option<Array<Finite>>, field: &str| {
        values.map(|v| numbers(v, &at(field), d)).transpose()
    };
    Ok(MultiHead {
        heads,
        w_q: square(raw.w_q, "w_q")?,
        w_k: square(raw.w_k, "w_k")?,
        w_v: square(raw.w_v, "w_v")?,
        w_o: square(raw.w_o, "w_o")?,
        b_q: bias(raw.b_q, "b_q")?,
        b_k: bias(raw.b_k, "b_k")?,
        b_v: bias(raw.b_v, "b_v")?,
        b_o: bias(raw.b_o, "b_o")?,
        causal: raw.causal.unwrap_or(false),
    })
}

fn feed_forward(raw: Option<Object<RawFfn>>, path: &str, d: usize) -> Parsed<FeedForward> {
    let raw = raw.ok_or_else(|| FieldError::said(path, MISSING))?.0;
    let at = |field: &str| format!("{path}.{field}");
    let w_1 = matrix(
        raw.w_1
            .ok_or_else(|| FieldError::said(at("w_1"), MISSING))?,
        &at("w_1"),
    )?;
    if w_1.nrows() != d {
        let said = formats::BlockRowsD {
            rows: &w_1.nrows(),
            d: &d,
        }
        .said();
        return Err(FieldError::said(at("w_1"), said));
    }
    let f = w_1.ncols();
    let zeros = |len: usize| Array1::zeros(len);
    Ok(FeedForward {
        b_1: raw
            .b_1
            .map_or(Ok(zeros(f)), |v| numbers(v, &at("b_1"), f))?,
        w_2: sized(raw.w_2, &at("w_2"), (f, d), RowsOf::F)?,
        b_2: raw
            .b_2
            .map_or(Ok(zeros(d)), |v| numbers(v, &at("b_2"), d))?,
        w_1,
        activation: choice(
            raw.activation,
            &at("activation"),
            Activation::Relu,
            &Activation::ALL,
            Activation::parse,
            Activation::name,
        )?,
    })
}

fn layer(raw: RawLayer, l: usize, d: usize, memory: bool) -> Parsed<Layer> {
    let path = format!("layers[{l}]");
    let at = |field: &str| format!("{path}.{field}");
    let self_attention = attention(raw.self_attention, &at("self"), d)?;
    let ln_self = layer_norm(raw.ln_self, &at("ln_self"), d)?;
    let cross = match (raw.cross, raw.ln_cross, memory) {
        (Some(c), ln, true) => Some(CrossAttention {
            attention: attention(Some(c), &at("cross"), d)?,
            ln: layer_norm(ln, &at("ln_cross"), d)?,
        }),
        (None, _, true) => return Err(FieldError::said(at("cross"), MISSING)),
        (Some(_), _, false) => {
            let e = block_error("cross", BlockInvalid::MemoryWithoutCross);
            return Err(FieldError {
                path: at("cross"),
                ..e
            });
        }
        (None, Some(_), false) => {
            let e = block_error("ln_cross", BlockInvalid::MemoryWithoutCross);
            return Err(FieldError {
                path: at("ln_cross"),
                ..e
            });
        }
        (None, None, false) => None,
    };
    Ok(Layer {
        self_attention,
        ln_self,
        cross,
        ln_ffn: layer_norm(raw.ln_ffn, &at("ln_ffn"), d)?,
        ffn: feed_forward(raw.ffn, &at("ffn"), d)?,
    })
}

/// Refuses a document whose attention weights would not fit [`MAX_BLOCK_WEIGHTS`].
fn check_size(layers: &[Layer], n: usize, m: usize) -> Parsed<()> {
    let cells = layers.iter().try_fold(0usize, |sum, l| {
        let cross = l
            .cross
            .as_ref()
            .map_or(Some(0), |c| c.attention.heads.checked_mul(m))?;
        let own = l.self_attention.heads.checked_mul(n)?;
        own.checked_add(cross)?.checked_mul(n)?.checked_add(sum)
    });
    match cells {
        Some(c) if c <= MAX_BLOCK_WEIGHTS => Ok(()),
        _ => Err(FieldError::said(
            "layers",
            formats::BlockTooManyWeights {
                n: &n,
                m: &m,
                max: &MAX_BLOCK_WEIGHTS,
            }
            .said(),
        )),
    }
}

/// Parses and validates a whole `attnlab-block/1` document.
pub fn parse_block(text: &str) -> Parsed<BlockDocument> {
    check_syntax(text)?;
    let mut unknown = Vec::new();
    let raw: Object<RawBlock> = typed(
        &mut serde_json::Deserializer::from_str(text),
        "",
        &mut unknown,
    )?;
    if let Some(field) = unknown.first() {
        return Err(FieldError::said(field, formats::BLOCK_UNKNOWN_FIELD));
    }
    let raw = raw.0;
    if let Some(f) = raw.format.as_deref().filter(|&f| f != BLOCK_FORMAT) {
        let given = quoted(f);
        let said = Said::of(|lang| {
            formats::BlockFormat {
                given: &given.get(lang),
            }
            .say(lang)
        });
        return Err(FieldError::said("format", said));
    }
    let x = matrix(raw.x.ok_or_else(|| FieldError::said("x", MISSING))?, "x")?;
    let d = x.ncols();
    let memory = raw
        .memory
        .map(|m| sized_columns(m, "memory", d))
        .transpose()?;
    let norm = choice(
        raw.norm,
        "norm",
        Norm::Post,
        &Norm::ALL,
        Norm::parse,
        Norm::name,
    )?;
    let eps = raw.layer_norm_eps.map_or(DEFAULT_EPS, |e| e.0);
    let final_norm = raw
        .final_norm
        .map(|ln| layer_norm(Some(ln), "final_norm", d))
        .transpose()?;
    let layers = raw
        .layers
        .ok_or_else(|| FieldError::said("layers", MISSING))?
        .0;
    if layers.is_empty() {
        return Err(block_error("layers", BlockInvalid::NoLayers));
    }
    let layers = layers
        .into_iter()
        .enumerate()
        .map(|(l, raw)| layer(raw.0, l, d, memory.is_some()))
        .collect::<Parsed<Vec<_>>>()?;
    check_size(&layers, x.nrows(), memory.as_ref().map_or(0, Array2::nrows))?;
    let block = Block::new(layers, norm, eps, final_norm).map_err(core)?;
    block.check_input(&x, memory.as_ref()).map_err(core)?;
    Ok(BlockDocument { block, x, memory })
}

/// A matrix of `d` columns (each row checked), any number of rows but 0.
fn sized_columns(raw: Rows, path: &str, d: usize) -> Parsed<Array2<f32>> {
    let rows = raw.0.len().max(1);
    let a = sized(Some(raw), path, (rows, d), RowsOf::D)?;
    Ok(a)
}

#[cfg(test)]
mod tests;
