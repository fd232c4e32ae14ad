//! BERT's WordPiece, as Hugging Face `tokenizers`' BertWordPiece configures it
//! (BertNormalizer with lower-casing, accent stripping and CJK splitting,
//! BertPreTokenizer, WordPiece with `##` continuations, `[CLS] … [SEP]`):
//! `tests/wordpiece.rs` checks it against ids that package produced for a committed
//! corpus (`testdata/wordpiece.json`).

use std::collections::HashMap;

use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

use super::{Pieces, Template, Tokenizer, check_length};
use crate::error::{ModelError, Result, TextError};

/// BERT's uncased WordPiece, as `tokenizers`' BertWordPiece configures it.
#[derive(Debug, Clone)]
pub struct WordPiece {
    ids: HashMap<String, u32>,
    tokens: Vec<String>,
    unk: u32,
    cls: u32,
    sep: u32,
    /// Special tokens matched verbatim in the raw text (before normalisation), longest
    /// first.
    specials: Vec<(String, u32)>,
    max_chars_per_word: usize,
}

/// Special tokens BERT vocabularies carry, matched in the raw text as `tokenizers` does.
const SPECIALS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

impl WordPiece {
    /// Reads a `vocab.txt` (one token per line, the line number is the id).
    pub fn from_vocab(vocab: &str) -> Result<WordPiece> {
        let tokens: Vec<String> = vocab
            .lines()
            .map(|l| l.trim_end_matches('\r').to_owned())
            .collect();
        let mut ids = HashMap::with_capacity(tokens.len());
        for (i, t) in tokens.iter().enumerate() {
            ids.entry(t.clone()).or_insert(i as u32);
        }
        let find = |t: &str| {
            ids.get(t)
                .copied()
                .ok_or_else(|| ModelError::Vocabulary(format!("no {t} token")))
        };
        let (unk, cls, sep) = (find("[UNK]")?, find("[CLS]")?, find("[SEP]")?);
        let mut specials: Vec<(String, u32)> = SPECIALS
            .iter()
            .filter_map(|s| ids.get(*s).map(|id| ((*s).to_owned(), *id)))
            .collect();
        specials.sort_by_key(|(s, _)| std::cmp::Reverse(s.len()));
        Ok(WordPiece {
            ids,
            tokens,
            unk,
            cls,
            sep,
            specials,
            max_chars_per_word: 100,
        })
    }

    /// The id of a vocabulary entry.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The word pieces of one text segment without special tokens, appended to `out`.
    fn word_pieces_of(&self, text: &str, out: &mut Vec<u32>) {
        let normalized = normalize(text);
        for word in pre_tokenize(&normalized) {
            self.word_pieces(word, out);
        }
    }

    /// Greedy longest-match-first WordPiece of one word; `[UNK]` for the whole word when
    /// it is longer than 100 characters or some part of it matches nothing.
    fn word_pieces(&self, word: &str, out: &mut Vec<u32>) {
        if word.chars().count() > self.max_chars_per_word {
            out.push(self.unk);
            return;
        }
        let first = out.len();
        let mut start = 0;
        let mut candidate = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while end > start {
                candidate.clear();
                if start > 0 {
                    candidate.push_str("##");
                }
                candidate.push_str(&word[start..end]);
                if let Some(id) = self.ids.get(&candidate) {
                    found = Some(*id);
                    break;
                }
                end = word[..end]
                    .char_indices()
                    .next_back()
                    .map_or(start, |(i, _)| i);
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(first);
                    out.push(self.unk);
                    return;
                }
            }
        }
    }
}

impl Tokenizer for WordPiece {
    fn pieces(&self, text: &str) -> std::result::Result<Pieces, TextError> {
        check_length(text)?;
        let mut pieces = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            // The earliest special token, the longest at that place.
            let next = self
                .specials
                .iter()
                .filter_map(|(s, id)| rest.find(s.as_str()).map(|at| (at, s.len(), *id)))
                .min_by_key(|(at, len, _)| (*at, std::cmp::Reverse(*len)));
            match next {
                Some((at, len, id)) => {
                    self.word_pieces_of(&rest[..at], &mut pieces);
                    pieces.push(id);
                    rest = &rest[at + len..];
                }
                None => {
                    self.word_pieces_of(rest, &mut pieces);
                    rest = "";
                }
            }
        }
        if pieces.is_empty() {
            return Err(TextError::Empty);
        }
        // WordPiece's [UNK] is a whole word the vocabulary cannot spell; where it came
        // from is not kept.
        Ok(Pieces::plain(pieces))
    }

    fn template(&self) -> Template {
        Template {
            start: self.cls,
            end: self.sep,
            between: vec![self.sep],
            second_type: 1,
        }
    }

    fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    fn vocab_size(&self) -> usize {
        self.tokens.len()
    }
}

/// BertNormalizer (clean text, CJK characters padded with spaces, NFD with non-spacing
/// marks removed, lower case per character), in that order.
pub fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if is_chinese_char(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else if is_whitespace(c) {
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    cleaned
        .nfd()
        .filter(|c| !c.is_mark_nonspacing())
        .flat_map(char::to_lowercase)
        .collect()
}

/// BertPreTokenizer: split on whitespace (dropped) and around every punctuation
/// character (kept as a word of its own).
pub fn pre_tokenize(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() || is_punctuation(c) {
            if let Some(s) = start.take() {
                words.push(&text[s..i]);
            }
            if !c.is_whitespace() {
                words.push(&text[i..i + c.len_utf8()]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        words.push(&text[s..]);
    }
    words
}

/// Tab, newline and carriage return count as whitespace, not control characters.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// General categories Cc, Cf and Co, as `tokenizers` decides it (through the same
/// `unicode_categories` tables).
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The CJK Unified Ideographs blocks BERT splits one character per token.
fn is_chinese_char(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::MAX_TEXT_CHARS;

    fn vocab() -> WordPiece {
        let words = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nthe\n,\n中\ncafe\n!";
        WordPiece::from_vocab(words).unwrap()
    }

    #[test]
    fn splits_words_into_the_longest_pieces() {
        let e = vocab().encode("Unaffable, THE café!", 256).unwrap();
        assert_eq!(
            e.tokens,
            [
                "[CLS]", "un", "##aff", "##able", ",", "the", "cafe", "!", "[SEP]"
            ]
        );
        assert_eq!(e.ids, [2, 5, 6, 7, 9, 8, 11, 12, 3]);
        assert_eq!(e.truncated_from, None);
    }

    #[test]
    fn a_word_with_an_unknown_part_is_one_unk() {
        let e = vocab().encode("unaffablex 中文", 256).unwrap();
        assert_eq!(e.tokens, ["[CLS]", "[UNK]", "中", "[UNK]", "[SEP]"]);
    }

    #[test]
    fn cuts_to_the_token_limit_and_says_so() {
        let e = vocab().encode("the the the the the", 4).unwrap();
        assert_eq!(e.tokens, ["[CLS]", "the", "the", "[SEP]"]);
        assert_eq!(e.truncated_from, Some(7));
    }

    #[test]
    fn a_pair_is_cls_a_sep_b_sep_with_b_of_segment_one() {
        let e = vocab().encode_pair("the cat", "un", 256).unwrap();
        assert_eq!(e.tokens, ["[CLS]", "the", "[UNK]", "[SEP]", "un", "[SEP]"]);
        assert_eq!(e.type_ids, [0, 0, 0, 0, 1, 1]);
        assert_eq!(e.second, Some(4));
        // Longest first: the longer text loses pieces until both fit.
        let cut = vocab().encode_pair("the the the the", "un un", 7).unwrap();
        assert_eq!(
            cut.tokens,
            ["[CLS]", "the", "the", "[SEP]", "un", "un", "[SEP]"]
        );
        assert_eq!(cut.truncated_from, Some(9));
    }

    #[test]
    fn empty_and_control_only_texts_are_errors() {
        let wp = vocab();
        assert_eq!(wp.encode("", 256), Err(TextError::Empty));
        assert_eq!(
            wp.encode(" \t\u{0}\u{7}\u{200b}\n", 256),
            Err(TextError::Empty)
        );
        let long = "a".repeat(MAX_TEXT_CHARS + 1);
        assert!(matches!(
            wp.encode(&long, 256),
            Err(TextError::TooLong { .. })
        ));
    }

    #[test]
    fn special_tokens_in_the_text_are_kept_verbatim() {
        let e = vocab().encode("the [MASK] [mask]", 256).unwrap();
        assert_eq!(
            e.tokens,
            ["[CLS]", "the", "[MASK]", "[UNK]", "[UNK]", "[UNK]", "[SEP]"]
        );
    }
}
