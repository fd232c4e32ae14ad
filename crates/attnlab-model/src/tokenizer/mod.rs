//! Tokenizers behind one trait: BERT's WordPiece and XLM-R's SentencePiece unigram.
//!
//! A tokenizer turns one text into its pieces ([`Tokenizer::pieces`]) and says how its
//! model frames one text or a pair ([`Template`]); [`Tokenizer::encode`] and
//! [`Tokenizer::encode_pair`] are written once on top of that. Each implementation is
//! tested against ids the reference (Hugging Face's `tokenizers`) gave for a committed
//! corpus: `testdata/wordpiece.json` and `testdata/unigram.json`.

mod unigram;
mod wordpiece;

pub use unigram::{CharRange, Unigram, UnigramParts, XLMR_SPECIALS};
pub use wordpiece::{WordPiece, normalize, pre_tokenize};

use crate::error::TextError;

/// The longest text a tokenizer accepts, in characters (a longer one is an error, not
/// silently cut: the token limit cuts at [`DEFAULT_MAX_TOKENS`] anyway).
pub const MAX_TEXT_CHARS: usize = 10_000;

/// The most tokens, `[CLS]` and `[SEP]` included, a text is cut to by default.
pub const DEFAULT_MAX_TOKENS: usize = 256;

/// A tokenised text or pair of texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoding {
    /// The vocabulary entry of each id (`[CLS]`, `the`, `##s`, `▁cat`, `猫`, …).
    pub tokens: Vec<String>,
    /// The ids, the start token (`[CLS]`, `<s>`) first and the end token last.
    pub ids: Vec<u32>,
    /// Each token's segment (token type): 0, or 1 for BERT's second text.
    pub type_ids: Vec<u32>,
    /// For a pair, the index of the second text's first token.
    pub second: Option<usize>,
    /// `Some(n)` when the text had `n` tokens (specials included) and was cut.
    pub truncated_from: Option<usize>,
}

/// How a model frames its input with special tokens: `start A end` for one text,
/// `start A between… B end` for a pair (BERT: `[CLS] A [SEP] B [SEP]`, the second text
/// of segment 1; XLM-R: `<s> A </s></s> B </s>`, all of segment 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The first token.
    pub start: u32,
    /// The last token.
    pub end: u32,
    /// The tokens between the two texts of a pair.
    pub between: Vec<u32>,
    /// The segment (token type) of the second text and of the tokens after it.
    pub second_type: u32,
}

/// Text to ids. One implementation per tokenisation scheme; the encoder only sees ids.
pub trait Tokenizer: std::fmt::Debug + Send + Sync {
    /// The pieces of `text` without the special tokens around it (special tokens typed
    /// in the text are kept). An error when the text is empty, too long, or has
    /// characters the tokenizer cannot represent.
    fn pieces(&self, text: &str) -> Result<Vec<u32>, TextError>;

    /// The special tokens around one text or a pair.
    fn template(&self) -> Template;

    /// The vocabulary entry of `id` (`None` for an id this tokenizer does not hold).
    fn token(&self, id: u32) -> Option<&str>;

    /// The number of ids of the model's vocabulary.
    fn vocab_size(&self) -> usize;

    /// Tokenises `text` with the model's special tokens around it, cutting the pieces
    /// so that at most `max_tokens` (≥ 2) tokens remain.
    fn encode(&self, text: &str, max_tokens: usize) -> Result<Encoding, TextError> {
        let mut pieces = self.pieces(text)?;
        let t = self.template();
        let whole = pieces.len() + 2;
        pieces.truncate(max_tokens.max(2) - 2);
        let ids: Vec<u32> = std::iter::once(t.start)
            .chain(pieces)
            .chain(std::iter::once(t.end))
            .collect();
        Ok(self.framed(ids, None, (whole > max_tokens.max(2)).then_some(whole)))
    }

    /// Tokenises a pair of texts (a sentence and its translation, a question and a
    /// passage) as the model was trained to read them, cutting the longer text's pieces
    /// first (`tokenizers`' longest-first) so that at most `max_tokens` remain.
    /// [`TextError::InSecond`] says when the second text is the one at fault.
    fn encode_pair(&self, a: &str, b: &str, max_tokens: usize) -> Result<Encoding, TextError> {
        let mut first = self.pieces(a)?;
        let mut second = self
            .pieces(b)
            .map_err(|e| TextError::InSecond(Box::new(e)))?;
        let t = self.template();
        let frame = 2 + t.between.len();
        let whole = first.len() + second.len() + frame;
        let budget = max_tokens.saturating_sub(frame).max(2);
        while first.len() + second.len() > budget {
            if first.len() >= second.len() {
                first.pop();
            } else {
                second.pop();
            }
        }
        let second_at = 1 + first.len() + t.between.len();
        let ids: Vec<u32> = std::iter::once(t.start)
            .chain(first)
            .chain(t.between.iter().copied())
            .chain(second)
            .chain(std::iter::once(t.end))
            .collect();
        let cut = (whole > ids.len()).then_some(whole);
        Ok(self.framed(ids, Some(second_at), cut))
    }

    /// The encoding of framed `ids` (tokens and segments filled in).
    #[doc(hidden)]
    fn framed(&self, ids: Vec<u32>, second: Option<usize>, cut: Option<usize>) -> Encoding {
        let t = self.template();
        let tokens = ids
            .iter()
            .map(|&id| self.token(id).unwrap_or("<?>").to_owned())
            .collect();
        let type_ids = (0..ids.len())
            .map(|i| match second {
                Some(at) if i >= at => t.second_type,
                _ => 0,
            })
            .collect();
        Encoding {
            tokens,
            ids,
            type_ids,
            second,
            truncated_from: cut,
        }
    }
}

/// [`TextError::TooLong`] when `text` has more than [`MAX_TEXT_CHARS`] characters.
pub(crate) fn check_length(text: &str) -> Result<(), TextError> {
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(TextError::TooLong {
            chars,
            max: MAX_TEXT_CHARS,
        });
    }
    Ok(())
}
