//! Tokenizers behind one trait: BERT's WordPiece and XLM-R's SentencePiece unigram.
//!
//! A tokenizer turns one text into its pieces ([`Tokenizer::pieces`]) and says how its
//! model frames one text or a pair ([`Template`]); [`Tokenizer::encode`] and
//! [`Tokenizer::encode_pair`] are written once on top of that. Each implementation is
//! tested against ids the reference (Hugging Face's `tokenizers`) gave for a committed
//! corpus: `testdata/wordpiece.json` and `testdata/unigram.json`.

mod unigram;
mod wordpiece;

use std::ops::Range;

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
    /// The unknown tokens (`<unk>`) whose origin the tokenizer keeps, in order: what of
    /// the text as typed each one stands for.
    pub unknown: Vec<Unknown>,
    /// The characters of the text (as typed) the tokenizer holds no piece of because
    /// its vocabulary was cut to some scripts, each once, in the order of the text:
    /// each is inside one of the `unknown` tokens.
    pub outside: Vec<char>,
}

/// An unknown token (`<unk>`) and the characters it replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// Its index in [`Encoding::tokens`].
    pub token: usize,
    /// The characters, as typed.
    pub text: String,
    /// Their bytes in the text they come from (the second one of a pair when `second`).
    pub span: Range<usize>,
    /// Whether they come from the second text of a pair.
    pub second: bool,
}

/// One text's pieces, without the special tokens around it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pieces {
    /// The ids.
    pub ids: Vec<u32>,
    /// For the unknown pieces whose origin is kept: `(index in ids, bytes of the text)`.
    pub unknown: Vec<(usize, Range<usize>)>,
    /// The characters outside the pieces held ([`Encoding::outside`]).
    pub outside: Vec<char>,
}

impl Pieces {
    /// Pieces without any origin kept.
    pub fn plain(ids: Vec<u32>) -> Pieces {
        Pieces {
            ids,
            ..Pieces::default()
        }
    }

    /// The unknown tokens among the first `kept` pieces, at `offset` in the framed
    /// tokens, and the outside characters they hold.
    fn kept(
        &self,
        text: &str,
        kept: usize,
        offset: usize,
        second: bool,
    ) -> (Vec<Unknown>, Vec<char>) {
        let unknown: Vec<Unknown> = self
            .unknown
            .iter()
            .filter(|(i, _)| *i < kept)
            .map(|(i, span)| Unknown {
                token: offset + i,
                text: text[span.clone()].to_owned(),
                span: span.clone(),
                second,
            })
            .collect();
        let outside = self
            .outside
            .iter()
            .copied()
            .filter(|c| unknown.iter().any(|u| u.text.contains(*c)))
            .collect();
        (unknown, outside)
    }
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
    /// in the text are kept). An error when the text is empty or too long.
    fn pieces(&self, text: &str) -> Result<Pieces, TextError>;

    /// The special tokens around one text or a pair.
    fn template(&self) -> Template;

    /// The vocabulary entry of `id` (`None` for an id this tokenizer does not hold).
    fn token(&self, id: u32) -> Option<&str>;

    /// The number of ids of the model's vocabulary.
    fn vocab_size(&self) -> usize;

    /// Tokenises `text` with the model's special tokens around it, cutting the pieces
    /// so that at most `max_tokens` (≥ 2) tokens remain.
    fn encode(&self, text: &str, max_tokens: usize) -> Result<Encoding, TextError> {
        let found = self.pieces(text)?;
        let mut pieces = found.ids.clone();
        let t = self.template();
        let whole = pieces.len() + 2;
        pieces.truncate(max_tokens.max(2) - 2);
        let (unknown, outside) = found.kept(text, pieces.len(), 1, false);
        let ids: Vec<u32> = std::iter::once(t.start)
            .chain(pieces)
            .chain(std::iter::once(t.end))
            .collect();
        let mut e = self.framed(ids, None, (whole > max_tokens.max(2)).then_some(whole));
        (e.unknown, e.outside) = (unknown, outside);
        Ok(e)
    }

    /// Tokenises a pair of texts (a sentence and its translation, a question and a
    /// passage) as the model was trained to read them, cutting the longer text's pieces
    /// first (`tokenizers`' longest-first) so that at most `max_tokens` remain.
    /// [`TextError::InSecond`] says when the second text is the one at fault.
    fn encode_pair(&self, a: &str, b: &str, max_tokens: usize) -> Result<Encoding, TextError> {
        let (found_a, found_b) = (
            self.pieces(a)?,
            self.pieces(b)
                .map_err(|e| TextError::InSecond(Box::new(e)))?,
        );
        let (mut first, mut second) = (found_a.ids.clone(), found_b.ids.clone());
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
        let (mut unknown, mut outside) = found_a.kept(a, first.len(), 1, false);
        let (more, also) = found_b.kept(b, second.len(), second_at, true);
        let ids: Vec<u32> = std::iter::once(t.start)
            .chain(first)
            .chain(t.between.iter().copied())
            .chain(second)
            .chain(std::iter::once(t.end))
            .collect();
        let cut = (whole > ids.len()).then_some(whole);
        unknown.extend(more);
        for c in also {
            if !outside.contains(&c) {
                outside.push(c);
            }
        }
        let mut e = self.framed(ids, Some(second_at), cut);
        (e.unknown, e.outside) = (unknown, outside);
        Ok(e)
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
            unknown: Vec::new(),
            outside: Vec::new(),
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
