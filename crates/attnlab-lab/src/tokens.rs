//! The tokens of a text as the lab computes and draws them: typed tokens, the `<pad>`
//! tokens "pad keys to length" appends, the cut at [`MAX_TOKENS`], which text gives the
//! queries and which the keys, and the notice above the figures.

use attnlab_core::CoreError;
use attnlab_core::tokenize::{self, Token};

use crate::explain::explain_in;
use crate::state::{LabState, MAX_TOKENS, Mode, PAD_TOKEN};
use attnlab_i18n::msg::lab;
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};

/// The longest text kept, in characters (a sentence or a source): more than any
/// figure can show ([`MAX_TOKENS`] tokens), and a link of at most a few tens of
/// kilobytes. A longer paste keeps its first `MAX_TEXT_CHARS` characters, and the page
/// says so.
pub const MAX_TEXT_CHARS: usize = 20_000;

/// The most token chips listed under a text; the rest are counted, not drawn.
pub const MAX_TOKEN_CHIPS: usize = 600;

/// `text` cut to its first [`MAX_TEXT_CHARS`] characters, and what was cut, as a
/// sentence in every language (`None` when nothing was).
pub fn clip_text(text: &str) -> (String, Option<Said>) {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        None => (text.to_string(), None),
        Some((end, _)) => {
            let total = text.chars().count();
            (
                text[..end].to_string(),
                Some(
                    lab::TextCut {
                        total: &total,
                        max: &MAX_TEXT_CHARS,
                        tokens: &MAX_TOKENS,
                    }
                    .said(),
                ),
            )
        }
    }
}

/// The tokens of one text: all of them (for the token strip), of which the first
/// [`MAX_TOKENS`] are computed and drawn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tokens {
    all: Vec<Token>,
    typed: usize,
}

impl Tokens {
    /// Tokens another tokenizer made (e.g. a pretrained model's word pieces), as they are:
    /// no padding, no span in any text.
    pub fn pretokenized(texts: &[String]) -> Tokens {
        let all: Vec<Token> = texts
            .iter()
            .map(|t| Token {
                text: t.clone(),
                span: 0..0,
            })
            .collect();
        Tokens {
            typed: all.len(),
            all,
        }
    }

    /// Tokenizes `text`, then appends [`PAD_TOKEN`]s until there are `pad_to` tokens.
    /// A pad's span is the empty range at the end of the text.
    pub fn new(text: &str, pad_to: Option<usize>) -> Tokens {
        let mut all = tokenize::tokenize(text);
        let typed = all.len();
        let target = pad_to.unwrap_or(0).min(MAX_TOKENS);
        all.extend((typed..target).map(|_| Token {
            text: PAD_TOKEN.to_string(),
            span: text.len()..text.len(),
        }));
        Tokens { all, typed }
    }

    /// Every token, typed and padding.
    pub fn all(&self) -> &[Token] {
        &self.all
    }

    /// The tokens computed and drawn: the first [`MAX_TOKENS`].
    pub fn used(&self) -> &[Token] {
        &self.all[..self.all.len().min(MAX_TOKENS)]
    }

    /// How many tokens there are in all.
    pub fn total(&self) -> usize {
        self.all.len()
    }

    /// How many tokens were typed (not padding).
    pub fn typed(&self) -> usize {
        self.typed
    }

    /// Whether there are more tokens than are computed and drawn.
    pub fn is_cut(&self) -> bool {
        self.all.len() > MAX_TOKENS
    }

    /// Whether there is no token.
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// The texts of the used tokens, for labels.
    pub fn labels(&self) -> Vec<String> {
        tokenize::texts(self.used())
    }

    /// The indices of the padding tokens among the used ones.
    pub fn padding(&self) -> Vec<usize> {
        (self.typed..self.used().len()).collect()
    }

    /// The used tokens in another order: token `order[i]` is placed at position `i`
    /// (`order` is a permutation of `0..used().len()`; anything else gives `None`).
    /// Tokens past [`MAX_TOKENS`] are dropped; the count of typed tokens is kept, so a
    /// permutation that leaves the padding in place keeps [`Tokens::padding`].
    pub fn reordered(&self, order: &[usize]) -> Option<Tokens> {
        let used = self.used();
        let mut seen = vec![false; used.len()];
        if order.len() != used.len() {
            return None;
        }
        for &i in order {
            if i >= used.len() || std::mem::replace(&mut seen[i], true) {
                return None;
            }
        }
        Some(Tokens {
            all: order.iter().map(|&i| used[i].clone()).collect(),
            typed: self.typed.min(used.len()),
        })
    }

    /// A sentence when the text is longer than what is drawn, e.g. "Your text has 600
    /// tokens; the heatmap shows the first 512 of them. …".
    pub fn cut_notice(&self, lang: Lang) -> Option<String> {
        let total = self.total();
        self.is_cut().then(|| {
            lab::TokensCut {
                total: &total,
                max: &MAX_TOKENS,
            }
            .say(lang)
        })
    }
}

/// The notice when there are no tokens.
pub const NOTHING_TO_ATTEND: Tr = lab::NOTHING_TO_ATTEND;

/// The sentence above the figures, if any, in this order: nothing typed yet (no query,
/// or no key in cross-attention), then the settings the maths refuses (`error`), then a
/// text (queries first, then keys) cut at [`MAX_TOKENS`]. The app's notice area and the
/// CLI both say exactly this, in `lang`.
pub fn notice(
    queries: &Tokens,
    keys: Option<&Tokens>,
    error: Option<&CoreError>,
    lang: Lang,
) -> Option<String> {
    if queries.is_empty() || keys.is_some_and(Tokens::is_empty) {
        return Some(NOTHING_TO_ATTEND.get(lang).to_string());
    }
    match error {
        Some(e) => Some(explain_in(e, lang)),
        None => queries
            .cut_notice(lang)
            .or_else(|| keys.and_then(|k| k.cut_notice(lang))),
    }
}

/// The query tokens of a text: the sentence, padded to `pad_to` in self-attention
/// (where the queries are also the keys), or the target of cross-attention, never
/// padded.
pub fn query_tokens(mode: Mode, text: &str, pad_to: Option<usize>) -> Tokens {
    match mode {
        Mode::SelfAttention => Tokens::new(text, pad_to),
        Mode::Cross => Tokens::new(text, None),
    }
}

/// The key tokens of cross-attention: the source, padded to `pad_to`; `None` in
/// self-attention, where the queries are the keys.
pub fn key_tokens(mode: Mode, source: &str, pad_to: Option<usize>) -> Option<Tokens> {
    (mode == Mode::Cross).then(|| Tokens::new(source, pad_to))
}

impl LabState {
    /// The query tokens (see [`query_tokens`]).
    pub fn query_tokens(&self) -> Tokens {
        query_tokens(self.mode, &self.text, self.pad_to)
    }

    /// The key tokens of cross-attention (see [`key_tokens`]).
    pub fn key_tokens(&self) -> Option<Tokens> {
        key_tokens(self.mode, &self.source, self.pad_to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_clipped_at_a_character_boundary() {
        let (same, none) = clip_text("short");
        assert_eq!((same.as_str(), none), ("short", None));
        let long = "我".repeat(MAX_TEXT_CHARS + 5);
        let (clipped, said) = clip_text(&long);
        assert_eq!(clipped.chars().count(), MAX_TEXT_CHARS);
        assert_eq!(
            said.as_ref().map(|s| s.en.as_str()),
            Some(
                "The text had 20005 characters; attnlab keeps the first 20000 (the figures draw \
                 at most 512 tokens)."
            )
        );
        let exact = "a".repeat(MAX_TEXT_CHARS);
        assert_eq!(clip_text(&exact).1, None);
    }

    #[test]
    fn tokens_pad_cut_and_count() {
        let t = Tokens::new("a b c", Some(5));
        assert_eq!(t.labels(), ["a", "b", "c", "<pad>", "<pad>"]);
        assert_eq!((t.typed(), t.total(), t.padding()), (3, 5, vec![3, 4]));
        let long = Tokens::new(&"word ".repeat(600), Some(10));
        assert_eq!((long.total(), long.used().len()), (600, 512));
        assert!(long.is_cut() && long.padding().is_empty());
        let msg = long.cut_notice(Lang::En).unwrap();
        assert!(
            msg.contains("600 tokens") && msg.contains("first 512"),
            "{msg}"
        );
        assert!(Tokens::new("   ", None).is_empty());
    }

    #[test]
    fn notices_in_order_of_importance() {
        let bad = CoreError::NoHeads;
        assert_eq!(
            notice(&Tokens::new("", None), None, Some(&bad), Lang::En).as_deref(),
            Some(NOTHING_TO_ATTEND.en)
        );
        let long = Tokens::new(&"a ".repeat(513), None);
        assert!(
            notice(&long, None, Some(&bad), Lang::En)
                .unwrap()
                .starts_with("The attention could not be computed")
        );
        assert!(
            notice(&long, None, None, Lang::En)
                .unwrap()
                .contains("first 512")
        );
        assert_eq!(notice(&Tokens::new("a", None), None, None, Lang::En), None);
    }

    #[test]
    fn cross_attention_keys_are_the_source_padded_and_can_be_the_empty_side() {
        let keys = key_tokens(Mode::Cross, "a b", Some(4)).unwrap();
        assert_eq!(keys.labels(), ["a", "b", PAD_TOKEN, PAD_TOKEN]);
        assert_eq!(query_tokens(Mode::Cross, "x y z", Some(4)).total(), 3);
        assert_eq!(
            query_tokens(Mode::SelfAttention, "x y z", Some(4)).total(),
            4
        );
        assert!(key_tokens(Mode::SelfAttention, "a b", Some(4)).is_none());
        let empty = Tokens::new("", None);
        assert_eq!(
            notice(&Tokens::new("a", None), Some(&empty), None, Lang::En).as_deref(),
            Some(NOTHING_TO_ATTEND.en)
        );
        let long = Tokens::new(&"k ".repeat(600), None);
        let msg = notice(&Tokens::new("a", None), Some(&long), None, Lang::En).unwrap();
        assert!(msg.contains("600 tokens"), "{msg}");
    }
}
