//! XLM-R's SentencePiece unigram, as Hugging Face `tokenizers` runs XLM-R's
//! `tokenizer.json`: the special tokens typed in the text kept as they are; the
//! normalisation map (a character becomes a string: NFKC forms, control characters
//! dropped, whitespace made a space), runs of spaces made one; Metaspace (every space
//! becomes `▁`, a `▁` before the text, the text split before each `▁`); then, word by
//! word, the most probable split into pieces (Viterbi over the pieces' log
//! probabilities), a character no piece covers becoming `<unk>` (consecutive ones fused).
//! Each `<unk>` keeps where it came from: the bytes of the text as typed that it stands
//! for ([`Pieces::unknown`]).
//!
//! A [`Unigram`] may hold only the pieces made of some scripts (an asset cut to the
//! pieces it ships, [`CharRange`]): for a text whose normalised characters all lie in
//! those ranges the ids are the full vocabulary's (every piece such a text could use is
//! there); any other character has no piece, so it is read as `<unk>` like a character
//! the whole vocabulary lacks, and is listed ([`Pieces::outside`]) so that the reader
//! can say which characters were replaced.
//!
//! Why not the `tokenizers` crate's Unigram: it builds for wasm (without its default
//! `onig` and `esaxx_fast` C and C++ features, with `unstable_wasm`), but its ids are
//! positions in the vocabulary it holds and its unknown score is the lowest of that
//! vocabulary, so a cut vocabulary would need its ids mapped back and its minimum kept;
//! it would read a 17 MB `tokenizer.json` (or its precompiled normaliser) where the asset
//! carries the container's per-character map; and it would bring a regex engine and a
//! dozen crates into the model worker for the Viterbi split above, which is short.
//! `tests/unigram.rs` holds this implementation to the reference's ids.

use std::collections::HashMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::{Pieces, Template, Tokenizer, check_length};
use crate::error::{ModelError, Result, TextError};

/// XLM-R's special tokens, matched verbatim in the raw text as `tokenizers` matches its
/// added tokens.
pub const XLMR_SPECIALS: [&str; 5] = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"];

/// SentencePiece's word-boundary marker, `▁` (U+2581).
const METASPACE: char = '\u{2581}';

/// A range of characters, both ends included (as code points, so that JSON carries it
/// plainly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharRange(pub u32, pub u32);

impl CharRange {
    fn contains(self, c: char) -> bool {
        (self.0..=self.1).contains(&u32::from(c))
    }
}

/// Everything a [`Unigram`] is built from.
#[derive(Debug, Clone, PartialEq)]
pub struct UnigramParts {
    /// `(id, piece, log probability)` of every piece held (all of them, or those of
    /// `charset` and the special tokens).
    pub pieces: Vec<(u32, String, f32)>,
    /// The ids of the whole vocabulary (held or not).
    pub vocab_size: usize,
    /// The score of an unknown character: the lowest score of the whole vocabulary
    /// minus 10 (`tokenizers`' and SentencePiece's penalty).
    pub unk_score: f64,
    /// Character → replacement (possibly empty); characters not listed stay.
    pub normalization: Vec<(char, String)>,
    /// The characters whose pieces are held (besides `▁` and the space); `None` when
    /// every piece is held.
    pub charset: Option<Vec<CharRange>>,
    /// A few words on what `charset` covers, for error messages.
    pub charset_name: String,
}

/// SentencePiece unigram tokenisation (see the module's documentation).
#[derive(Debug, Clone)]
pub struct Unigram {
    parts: UnigramParts,
    /// Piece → (id, score), without the special tokens.
    index: HashMap<String, (u32, f64)>,
    tokens: HashMap<u32, String>,
    normalization: HashMap<char, String>,
    specials: Vec<(String, u32)>,
    bos: u32,
    eos: u32,
    unk: u32,
    max_piece_chars: usize,
}

impl Unigram {
    /// Builds the tokenizer; the pieces must include `<s>`, `</s>` and `<unk>`.
    pub fn new(parts: UnigramParts) -> Result<Unigram> {
        let mut index = HashMap::with_capacity(parts.pieces.len());
        let mut tokens = HashMap::with_capacity(parts.pieces.len());
        let mut specials = Vec::new();
        let mut max_piece_chars = 1;
        for (id, piece, score) in &parts.pieces {
            if *id as usize >= parts.vocab_size {
                return Err(ModelError::Vocabulary(format!(
                    "piece {piece:?} has id {id}, not below the vocabulary size {}",
                    parts.vocab_size
                )));
            }
            if !score.is_finite() {
                return Err(ModelError::Vocabulary(format!(
                    "piece {piece:?} has the score {score}"
                )));
            }
            tokens.insert(*id, piece.clone());
            if XLMR_SPECIALS.contains(&piece.as_str()) {
                specials.push((piece.clone(), *id));
            } else {
                index
                    .entry(piece.clone())
                    .or_insert((*id, f64::from(*score)));
                max_piece_chars = max_piece_chars.max(piece.chars().count());
            }
        }
        specials.sort_by_key(|(s, _)| std::cmp::Reverse(s.len()));
        let find = |name: &str| {
            specials
                .iter()
                .find(|(s, _)| s == name)
                .map(|(_, id)| *id)
                .ok_or_else(|| ModelError::Vocabulary(format!("no {name} piece")))
        };
        let (bos, eos, unk) = (find("<s>")?, find("</s>")?, find("<unk>")?);
        if !parts.unk_score.is_finite() {
            return Err(ModelError::Vocabulary(format!(
                "the unknown score {} is not finite",
                parts.unk_score
            )));
        }
        Ok(Unigram {
            index,
            tokens,
            normalization: parts.normalization.iter().cloned().collect(),
            specials,
            bos,
            eos,
            unk,
            max_piece_chars,
            parts,
        })
    }

    /// What it was built from.
    pub fn parts(&self) -> &UnigramParts {
        &self.parts
    }

    /// The same tokenizer holding only the special tokens and the pieces made of `▁`
    /// and characters of `charset` (named `name` in error messages).
    pub fn restricted(&self, charset: Vec<CharRange>, name: &str) -> Result<Unigram> {
        let covered = |c: char| c == METASPACE || charset.iter().any(|r| r.contains(c));
        let pieces = self
            .parts
            .pieces
            .iter()
            .filter(|(_, p, _)| XLMR_SPECIALS.contains(&p.as_str()) || p.chars().all(covered))
            .cloned()
            .collect();
        Unigram::new(UnigramParts {
            pieces,
            charset: Some(charset),
            charset_name: name.to_owned(),
            ..self.parts.clone()
        })
    }

    /// Whether `c` (after normalisation) is a character this tokenizer holds the
    /// pieces of.
    pub fn covers(&self, c: char) -> bool {
        c == ' '
            || c == METASPACE
            || self
                .parts
                .charset
                .as_ref()
                .is_none_or(|set| set.iter().any(|r| r.contains(c)))
    }

    /// The normalised text: each character through the map, runs of spaces made one;
    /// beside it, for each of its characters, the bytes of `text` it came from. The
    /// characters whose normalised form is not covered are gathered in `outside`.
    fn normalize(&self, text: &str, outside: &mut Vec<char>) -> (String, Vec<Range<usize>>) {
        let mut out = String::with_capacity(text.len());
        let mut origins = Vec::with_capacity(text.len());
        for (at, c) in text.char_indices() {
            let from = at..at + c.len_utf8();
            let mapped = self.normalization.get(&c);
            let mut push = |m: char| {
                if !self.covers(m) && !outside.contains(&c) {
                    outside.push(c);
                }
                if !(m == ' ' && out.ends_with(' ')) {
                    out.push(m);
                    origins.push(from.clone());
                }
            };
            match mapped {
                Some(s) => s.chars().for_each(&mut push),
                None => push(c),
            }
        }
        (out, origins)
    }

    /// `text` cut at the special tokens it contains: `(the byte range of the text
    /// before, the special's id)` for each, then `(the range of the rest, None)`.
    fn split_specials(&self, text: &str) -> Vec<(Range<usize>, Option<u32>)> {
        let mut parts = Vec::new();
        let mut from = 0;
        while from < text.len() {
            let rest = &text[from..];
            let next = self
                .specials
                .iter()
                .filter_map(|(s, id)| rest.find(s.as_str()).map(|at| (at, s.len(), *id)))
                .min_by_key(|(at, len, _)| (*at, std::cmp::Reverse(*len)));
            match next {
                Some((at, len, id)) => {
                    parts.push((from..from + at, Some(id)));
                    from += at + len;
                }
                None => {
                    parts.push((from..text.len(), None));
                    from = text.len();
                }
            }
        }
        parts
    }

    /// The pieces of one stretch of text without special tokens typed in it (`range`
    /// of `text`), appended to `out`: normalised, Metaspace (`▁` for spaces and before
    /// the stretch), then the words between `▁`s each through Viterbi. A special token
    /// the normalised form spells (`＜ｓ＞` is `<s>`) is that token, cut out after
    /// Metaspace, as `tokenizers` does it (so `＜ｓ＞猫` is `▁`, `<s>`, `猫`, where
    /// `<s>猫` is `<s>`, `▁猫`).
    fn segment(&self, text: &str, range: Range<usize>, out: &mut Pieces) {
        let (normalized, mut origins) = self.normalize(&text[range.clone()], &mut out.outside);
        if normalized.is_empty() {
            return;
        }
        for o in &mut origins {
            *o = o.start + range.start..o.end + range.start;
        }
        // Each character of `spaced` with the bytes of `text` it came from (the `▁`
        // put before the stretch comes from nothing: an empty range at its start).
        let mut spaced = String::with_capacity(normalized.len() + 3);
        let mut from: Vec<(usize, Range<usize>)> = Vec::with_capacity(origins.len() + 1);
        if !normalized.starts_with([' ', METASPACE]) {
            from.push((0, range.start..range.start));
            spaced.push(METASPACE);
        }
        for (c, o) in normalized.chars().zip(origins) {
            from.push((spaced.len(), o));
            spaced.push(if c == ' ' { METASPACE } else { c });
        }
        let origin = |byte: usize| -> Range<usize> {
            let k = from.partition_point(|(b, _)| *b < byte);
            from[k].1.clone()
        };
        for (plain, special) in self.split_specials(&spaced) {
            let mut start = plain.start;
            for (i, c) in spaced[plain.clone()].char_indices().skip(1) {
                if c == METASPACE {
                    self.viterbi(&spaced, start..plain.start + i, &origin, out);
                    start = plain.start + i;
                }
            }
            if start < plain.end {
                self.viterbi(&spaced, start..plain.end, &origin, out);
            }
            out.ids.extend(special);
        }
    }

    /// The most probable split of one word (`range` of `spaced`) into pieces, appended
    /// to `out`: `best[e]` is the best score of the first `e` characters, reached from
    /// the earliest start on ties (the order of `tokenizers`' lattice). Consecutive
    /// unknown characters are one `<unk>`, which records the bytes of the text as typed
    /// that they came from (`origin` of a byte of `spaced`).
    fn viterbi(
        &self,
        spaced: &str,
        range: Range<usize>,
        origin: &dyn Fn(usize) -> Range<usize>,
        out: &mut Pieces,
    ) {
        let word = &spaced[range.clone()];
        let bounds: Vec<usize> = word
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(word.len()))
            .collect();
        let n = bounds.len() - 1;
        // (score, start, id; None for an unknown character)
        let mut best: Vec<Option<(f64, usize, Option<u32>)>> = vec![None; n + 1];
        best[0] = Some((0.0, 0, None));
        for i in 0..n {
            let Some((here, _, _)) = best[i] else {
                continue;
            };
            let mut single = false;
            for e in i + 1..=n.min(i + self.max_piece_chars) {
                if let Some(&(id, score)) = self.index.get(&word[bounds[i]..bounds[e]]) {
                    single |= e == i + 1;
                    let s = here + score;
                    if best[e].is_none_or(|(b, _, _)| s > b) {
                        best[e] = Some((s, i, Some(id)));
                    }
                }
            }
            if !single {
                let s = here + self.parts.unk_score;
                if best[i + 1].is_none_or(|(b, _, _)| s > b) {
                    best[i + 1] = Some((s, i, None));
                }
            }
        }
        // (id, the first character, the character after the piece)
        let mut path = Vec::new();
        let mut e = n;
        while e > 0 {
            let (_, from, id) = best[e].expect("every end is reachable (unknown characters)");
            path.push((id, from, e));
            e = from;
        }
        path.reverse();
        for (k, &(id, first, end)) in path.iter().enumerate() {
            match id {
                Some(id) => out.ids.push(id),
                None => {
                    let typed = origin(range.start + bounds[first]).start
                        ..origin(range.start + bounds[end - 1]).end;
                    if k > 0 && path[k - 1].0.is_none() {
                        // Fused with the unknown character before it.
                        if let Some((_, span)) = out.unknown.last_mut() {
                            span.end = span.end.max(typed.end);
                        }
                    } else {
                        out.unknown.push((out.ids.len(), typed));
                        out.ids.push(self.unk);
                    }
                }
            }
        }
    }
}

impl Tokenizer for Unigram {
    fn pieces(&self, text: &str) -> std::result::Result<Pieces, TextError> {
        check_length(text)?;
        let mut pieces = Pieces::default();
        for (plain, special) in self.split_specials(text) {
            self.segment(text, plain, &mut pieces);
            pieces.ids.extend(special);
        }
        if pieces.ids.iter().all(|id| self.tokens[id] == "\u{2581}") {
            return Err(TextError::Empty);
        }
        Ok(pieces)
    }

    fn template(&self) -> Template {
        Template {
            start: self.bos,
            end: self.eos,
            between: vec![self.eos, self.eos],
            second_type: 0,
        }
    }

    fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(&id).map(String::as_str)
    }

    fn vocab_size(&self) -> usize {
        self.parts.vocab_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::Unknown;

    /// A small vocabulary: the specials, then pieces with scores chosen so that the
    /// best splits can be worked out by hand.
    fn tiny() -> Unigram {
        let pieces = [
            ("<s>", 0.0),
            ("<pad>", 0.0),
            ("</s>", 0.0),
            ("<unk>", 0.0),
            ("▁", -2.0),
            ("▁a", -1.0),
            ("b", -3.0),
            ("▁ab", -3.5),
            ("c", -2.0),
            ("abc", -1.0),
            ("猫", -4.0),
            ("▁猫", -6.0),
            ("鱼", -4.0),
        ];
        Unigram::new(UnigramParts {
            pieces: pieces
                .iter()
                .enumerate()
                .map(|(i, (p, s))| (i as u32, (*p).to_owned(), *s))
                .collect(),
            vocab_size: 20,
            unk_score: -20.0,
            normalization: vec![
                ('\t', " ".into()),
                ('\u{7}', String::new()),
                ('Ａ', "a".into()),
            ],
            charset: None,
            charset_name: String::new(),
        })
        .unwrap()
    }

    fn tokens(u: &Unigram, text: &str) -> Vec<String> {
        u.encode(text, 64).unwrap().tokens
    }

    #[test]
    fn picks_the_most_probable_split() {
        // "▁abc": ▁a + b + c = −1 − 3 − 2 = −6; ▁ab + c = −5.5; ▁ + abc = −3: the last.
        assert_eq!(tokens(&tiny(), "abc"), ["<s>", "▁", "abc", "</s>"]);
        // "▁ab": ▁a + b = −4 against ▁ab = −3.5.
        assert_eq!(tokens(&tiny(), "ab"), ["<s>", "▁ab", "</s>"]);
        // "▁猫鱼": ▁猫 + 鱼 and ▁ + 猫 + 鱼 both score −10. Both reach 鱼's start at −6;
        // the piece that starts earlier (▁猫, from 0) is kept, as in `tokenizers`.
        assert_eq!(tokens(&tiny(), "猫鱼"), ["<s>", "▁猫", "鱼", "</s>"]);
    }

    #[test]
    fn normalises_then_splits_words_at_spaces() {
        // Tab → space, BEL dropped, Ａ → a, the run of spaces made one.
        assert_eq!(
            tokens(&tiny(), "Ａb\t \u{7} c"),
            ["<s>", "▁ab", "▁", "c", "</s>"]
        );
        // A trailing space is a word of its own.
        assert_eq!(tokens(&tiny(), "ab "), ["<s>", "▁ab", "▁", "</s>"]);
    }

    #[test]
    fn unknown_characters_are_one_fused_unk() {
        assert_eq!(
            tokens(&tiny(), "ab dd鱼"),
            ["<s>", "▁ab", "▁", "<unk>", "鱼", "</s>"]
        );
    }

    #[test]
    fn a_pair_is_s_a_two_ends_b_end_all_of_segment_zero() {
        let e = tiny().encode_pair("ab", "鱼", 64).unwrap();
        assert_eq!(e.tokens, ["<s>", "▁ab", "</s>", "</s>", "▁", "鱼", "</s>"]);
        assert_eq!(e.type_ids, [0; 7]);
        assert_eq!(e.second, Some(4));
    }

    #[test]
    fn characters_outside_the_shipped_set_are_unknown_and_kept_with_their_place() {
        let u = tiny()
            .restricted(vec![CharRange(0x20, 0x7e)], "ASCII")
            .unwrap();
        assert_eq!(u.token(10), None, "猫 is not ASCII");
        assert_eq!(tokens(&u, "abc"), ["<s>", "▁", "abc", "</s>"]);
        let text = "ab 猫🙂猫 c";
        let e = u.encode(text, 64).unwrap();
        // 猫🙂猫 has no piece: one fused <unk> after the word's ▁.
        assert_eq!(e.tokens, ["<s>", "▁ab", "▁", "<unk>", "▁", "c", "</s>"]);
        assert_eq!(e.outside, ['猫', '🙂']);
        assert_eq!(
            e.unknown,
            [Unknown {
                token: 3,
                text: "猫🙂猫".into(),
                span: 3..13,
                second: false,
            }]
        );
        assert_eq!(&text[e.unknown[0].span.clone()], "猫🙂猫");
        // Full-width Ａ normalises into the set: nothing unknown.
        let e = u.encode("Ａb", 64).unwrap();
        assert_eq!(e.tokens, ["<s>", "▁ab", "</s>"]);
        assert!(e.unknown.is_empty() && e.outside.is_empty());
        // Unknown characters in two words, the first one at the text's start, the
        // second after a tab and a dropped control character: each <unk> keeps its own
        // bytes, as typed.
        let text = "🙂abc\t\u{7}é";
        let e = u.encode(text, 64).unwrap();
        assert_eq!(e.tokens, ["<s>", "▁", "<unk>", "abc", "▁", "<unk>", "</s>"]);
        let shown: Vec<(usize, &str)> = e
            .unknown
            .iter()
            .map(|u| (u.token, &text[u.span.clone()]))
            .collect();
        assert_eq!(shown, [(2, "🙂"), (5, "é")]);
        assert_eq!(e.unknown[1].span, 9..11);
        assert_eq!(e.outside, ['🙂', 'é']);
    }

    #[test]
    fn a_pair_keeps_each_texts_unknown_characters_and_the_cut_drops_theirs() {
        let u = tiny()
            .restricted(vec![CharRange(0x20, 0x7e)], "ASCII")
            .unwrap();
        let e = u.encode_pair("ab 猫", "c 🙂", 64).unwrap();
        assert_eq!(
            e.tokens,
            [
                "<s>", "▁ab", "▁", "<unk>", "</s>", "</s>", "▁", "c", "▁", "<unk>", "</s>"
            ]
        );
        let got: Vec<(usize, &str, bool)> = e
            .unknown
            .iter()
            .map(|u| (u.token, u.text.as_str(), u.second))
            .collect();
        assert_eq!(got, [(3, "猫", false), (9, "🙂", true)]);
        assert_eq!(e.unknown[1].span, 2..6);
        assert_eq!(e.outside, ['猫', '🙂']);
        // Cut to 4 tokens: the unknown piece is gone, and so is its character.
        let e = u.encode("ab c 猫", 4).unwrap();
        assert_eq!(e.tokens, ["<s>", "▁ab", "▁", "</s>"]);
        assert!(e.unknown.is_empty() && e.outside.is_empty());
    }

    #[test]
    fn specials_in_the_text_and_empty_texts() {
        assert_eq!(
            tokens(&tiny(), "ab</s>c"),
            ["<s>", "▁ab", "</s>", "▁", "c", "</s>"]
        );
        assert_eq!(tiny().encode(" \t\u{7} ", 64), Err(TextError::Empty));
        assert_eq!(tiny().encode("", 64), Err(TextError::Empty));
        assert_eq!(
            tiny().encode_pair("ab", "  ", 64),
            Err(TextError::InSecond(Box::new(TextError::Empty)))
        );
    }
}
