//! Tokenizer (docs/maths.md §1): Unicode word boundaries (UAX #29, via `unicode-segmentation`).
//!
//! Words and numbers are tokens, each punctuation mark is a token, each CJK ideograph is
//! its own token (UAX #29 never joins ideographs), an emoji grapheme cluster is one token,
//! and whitespace is never a token.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

/// One token: its text and where it stands in the input (byte offsets), so a UI can
/// highlight it in the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The token's text, exactly as typed.
    pub text: String,
    /// Byte range in the input string.
    pub span: Range<usize>,
}

/// Splits `text` into tokens.
///
/// ```
/// use attnlab_core::tokenize::tokenize;
/// let words: Vec<String> = tokenize("It's 3.5 km!").into_iter().map(|t| t.text).collect();
/// assert_eq!(words, ["It's", "3.5", "km", "!"]);
/// assert_eq!(tokenize("我爱机器学习").len(), 6);
/// ```
pub fn tokenize(text: &str) -> Vec<Token> {
    text.split_word_bound_indices()
        .filter(|(_, s)| !s.chars().all(char::is_whitespace))
        .map(|(start, s)| Token {
            text: s.to_string(),
            span: start..start + s.len(),
        })
        .collect()
}

/// The token texts of `tokens`, for labels.
pub fn texts(tokens: &[Token]) -> Vec<String> {
    tokens.iter().map(|t| t.text.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        texts(&tokenize(s))
    }

    #[test]
    fn english_sentence_with_punctuation_and_contraction() {
        assert_eq!(
            words("The animal didn't cross the street, because it was too tired."),
            [
                "The", "animal", "didn't", "cross", "the", "street", ",", "because", "it", "was",
                "too", "tired", "."
            ]
        );
    }

    #[test]
    fn each_cjk_ideograph_is_a_token() {
        assert_eq!(words("我爱机器学习"), ["我", "爱", "机", "器", "学", "习"]);
        assert_eq!(words("我爱 NLP。"), ["我", "爱", "NLP", "。"]);
    }

    #[test]
    fn emoji_clusters_stay_whole() {
        // Family (ZWJ sequence), a flag (regional indicator pair), a skin-tone modifier.
        assert_eq!(words("hi 👨‍👩‍👧 🇫🇷 👍🏽"), ["hi", "👨‍👩‍👧", "🇫🇷", "👍🏽"]);
    }

    #[test]
    fn whitespace_is_never_a_token() {
        assert!(tokenize("").is_empty());
        assert!(tokenize(" \t\n\u{3000} ").is_empty());
        assert_eq!(words("  a   b  "), ["a", "b"]);
    }

    #[test]
    fn each_punctuation_mark_is_separate() {
        assert_eq!(words("wait...!?"), ["wait", ".", ".", ".", "!", "?"]);
        assert_eq!(words("<b>x</b>"), ["<", "b", ">", "x", "<", "/", "b", ">"]);
    }

    #[test]
    fn right_to_left_text_and_spans() {
        let t = tokenize("שלום עולם");
        assert_eq!(texts(&t), ["שלום", "עולם"]);
        assert_eq!(&"שלום עולם"[t[1].span.clone()], "עולם");
    }
}
