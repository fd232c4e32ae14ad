//! # attnlab-i18n
//!
//! The languages attnlab speaks, and a sentence in each of them.
//!
//! Every text a person reads (a notice, a reason a knob is disabled, a figure's title,
//! axes and legend, an error) exists in every [`Lang`]. A fixed text is a [`Tr`]: its
//! English and its Chinese side by side, so one cannot be written without the other. A
//! text with values in it is a function of the language whose `match` names every
//! language, so a missing translation does not compile. The command line speaks English.
//!
//! The message catalogue ([`msg`]) holds the sentences in Fluent files, one per area and
//! language (`locales/en/core.ftl`, `locales/zh/core.ftl`, …), compiled by `build.rs`
//! into plain Rust: a fixed message is a [`Tr`] constant (`msg::core::NO_HEADS`), a
//! message with variables a struct of its variables whose `say(lang)` formats it
//! (`msg::core::NonFinite { row: &2, col: &0 }.say(lang)`). The build fails when the
//! languages disagree (a file, an id or a message's variables in one and not in the
//! other); docs/dev/i18n.md says why it is built this way.

#![deny(missing_docs)]

use std::fmt;

pub mod marked;
pub mod said;
pub use said::Said;

/// The message catalogue, one module per area (`locales/<lang>/<area>.ftl`), generated
/// by `build.rs`.
pub mod msg {
    include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));
}

#[cfg(test)]
mod catalogue_tests;

/// The plural category of the count `n` in `lang`, as the catalogue's select
/// expressions name it: English says `one` of 1 and `other` of any other count;
/// Chinese has one form, `other`.
pub fn plural(lang: Lang, n: usize) -> &'static str {
    match lang {
        Lang::En if n == 1 => "one",
        _ => "other",
    }
}

/// A language of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The language's code (`en`, `zh`): the link's `lang=` part, the name of a lesson's
    /// text file (`en.toml`), the `localStorage` value.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The page's `lang` attribute in this language (BCP 47).
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }

    /// The language's own name, as its switch shows it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文",
        }
    }

    /// The language of `code` (`"en"`, `"zh"`, also a browser's `"zh-CN"`, `"en-GB"`…).
    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.split(['-', '_']).next()?.trim().to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// `en` in English, `zh` in Chinese.
    pub fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A fixed text in every language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tr {
    /// The English.
    pub en: &'static str,
    /// The Simplified Chinese.
    pub zh: &'static str,
}

impl Tr {
    /// The text `en` in English and `zh` in Chinese.
    pub const fn new(en: &'static str, zh: &'static str) -> Tr {
        Tr { en, zh }
    }

    /// The text in `lang`.
    pub const fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }
}

/// The fixed words figures draw (entropy panel, masked swatch, empty rows, head tiles,
/// default captions), in `lang`. Every figure the lab builds carries them.
pub fn plot_words(lang: Lang) -> &'static attnlab_plot::Words {
    match lang {
        Lang::En => &PLOT_WORDS[0],
        Lang::Zh => &PLOT_WORDS[1],
    }
}

/// The figures' words from the catalogue (`figure-word-*`), in [`Lang::ALL`]'s order.
static PLOT_WORDS: [attnlab_plot::Words; 2] = [plot_words_in(Lang::En), plot_words_in(Lang::Zh)];

const fn plot_words_in(lang: Lang) -> attnlab_plot::Words {
    use msg::figure as f;
    attnlab_plot::Words {
        weight: f::FIGURE_WORD_WEIGHT.get(lang),
        delta_weight: f::FIGURE_WORD_DELTA_WEIGHT.get(lang),
        queries: f::FIGURE_WORD_QUERIES.get(lang),
        keys: f::FIGURE_WORD_KEYS.get(lang),
        entropy: f::FIGURE_WORD_ENTROPY.get(lang),
        row_entropy: f::FIGURE_WORD_ROW_ENTROPY.get(lang),
        nats: f::FIGURE_WORD_NATS.get(lang),
        share: f::FIGURE_WORD_SHARE.get(lang),
        masked: f::FIGURE_WORD_MASKED.get(lang),
        empty_row: f::FIGURE_WORD_EMPTY_ROW.get(lang),
        head: f::FIGURE_WORD_HEAD.get(lang),
    }
}

/// Technical words a Chinese text keeps as they are (names, file formats, functions):
/// the tests of the lab and of the app allow them in Chinese sentences, and nothing else
/// in Latin letters (the browser tests keep the same list in `end2end/tests/english.ts`).
pub const KEPT: &[&str] = &[
    "softmax",
    "Softmax",
    "ReLU",
    "elu",
    "ELU",
    "Taylor",
    "Linformer",
    "MiniLM",
    "BERT",
    "PNG",
    "SVG",
    "CSV",
    "JSON",
    "CLS",
    "SEP",
    "PAD",
    "UNK",
    "npy",
    "npz",
    "txt",
    "attnlab",
    "Transformer",
    "PageUp",
    "PageDown",
    "Ctrl",
    "Esc",
    "GELU",
    "RoPE",
    "ALiBi",
    "NTK",
    "YaRN",
    "RoFormer",
    "Llama",
    "argmax",
    "RNN",
    "multilingual",
    "small",
    "all",
    "WordPiece",
    "SentencePiece",
    "attnlab-tensors",
    "XLM",
    "Cache",
    "API",
    "SIMD",
    "wasm",
    "Chromium",
    "NumPy",
    "Fortran",
    "dtype",
    "float",
    "exp",
    "log",
    "min",
    "max",
    "sin",
    "cos",
    "tanh",
    "Luong",
    "Bahdanau",
    "logit",
    "Kobayashi",
    "EMNLP",
    "NaN",
    "UTF",
    "zip",
    "HTTP",
    "NUL",
    "pip",
    "wheel",
    "RetNet",
    "GLA",
    "Mamba",
    "sigmoid",
    "softpick",
    "FAVOR",
    "Performer",
    "YaRN",
    "NTK",
    "FlashAttention",
    "RoFormer",
    "Llama",
    "Choromanski",
    "StreamingLLM",
    "Mistral",
    "GPT",
    "NeoX",
    "Hugging",
    "Face",
    "ICLR",
    "bloc",
    "MHA",
    "GQA",
    "MQA",
    "MLA",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "PiB",
    "EiB",
];

/// A check of Chinese sentences for English left in them, for the tests of every crate
/// that writes Chinese.
pub mod check {
    pub use super::KEPT;

    /// The English words (three letters or more, not kept) of a Chinese sentence. What
    /// is quoted (`name`, "typed text", “key”), a name kept in Latin letters between
    /// braces (`{Nils Reimers}`, as the About panel marks them) and what is a path, a
    /// file name or a symbol (`heads[0].q`, `q.npy`, `d_k`) is not a word.
    pub fn latin_words(zh: &str) -> Vec<String> {
        let mut bare = String::new();
        let mut closing: Option<char> = None;
        for c in zh.chars() {
            match closing {
                Some(end) if c == end => closing = None,
                Some(_) => {}
                None => match c {
                    '`' => closing = Some('`'),
                    '"' => closing = Some('"'),
                    '\u{201c}' => closing = Some('\u{201d}'),
                    '{' => closing = Some('}'),
                    _ => bare.push(c),
                },
            }
        }
        bare.split(|c: char| c.is_whitespace() || !c.is_ascii())
            .filter(|chunk| !chunk.contains(['[', '.', '_', '/', '\\', '-']))
            .flat_map(|chunk| chunk.split(|c: char| !c.is_ascii_alphabetic()))
            .filter(|w| w.len() >= 3 && !KEPT.contains(w))
            .map(String::from)
            .collect()
    }

    #[cfg(test)]
    #[test]
    fn english_is_found_and_paths_names_and_quotes_are_not() {
        assert_eq!(latin_words("q.npy：数据 has shape 3×4"), ["has", "shape"]);
        assert!(latin_words("heads[0].q[1]：类型不对：是字符串 \"xyz\"，应为 `abc`").is_empty());
        assert!(latin_words("d_k 与 attnlab-tensors/1 的 JSON").is_empty());
        assert_eq!(latin_words("(heads, n, d)"), ["heads"]);
        assert!(latin_words("{Nils Reimers} 等发布").is_empty());
        assert_eq!(latin_words("{Wang} 等 and more"), ["and", "more"]);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_figures_english_words_are_the_plot_crates_own() {
        assert_eq!(
            *super::plot_words(super::Lang::En),
            attnlab_plot::Words::ENGLISH
        );
    }

    use super::*;

    #[test]
    fn codes_round_trip_and_browser_tags_are_read() {
        for l in Lang::ALL {
            assert_eq!(Lang::parse(l.code()), Some(l));
        }
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh_TW"), Some(Lang::Zh));
        assert_eq!(Lang::parse("EN-gb"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
    }

    #[test]
    fn a_text_is_picked_by_language() {
        const T: Tr = Tr::new("head", "头");
        assert_eq!(T.get(Lang::En), "head");
        assert_eq!(T.get(Lang::Zh), "头");
    }
}
