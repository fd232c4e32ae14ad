//! Why brought files are refused: [`BringError`] as the readers say it (the file and
//! what is wrong, in English and, where said, in Chinese), and [`Refusal`], the same in
//! every language as the worker sends it to the page.

use std::fmt;

use super::Role;
use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};

/// Why brought files cannot be used: the file (or `""` for the set) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BringError {
    /// The file's name, or the archive's and entry's (`attn.npz › q.npy`).
    pub file: String,
    /// What is wrong, as the end of a sentence.
    pub message: String,
    /// The same in Chinese, where the reader has said it in Chinese.
    pub message_zh: Option<String>,
}

impl BringError {
    /// An error about `file`.
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> BringError {
        BringError {
            file: file.into(),
            message: message.into(),
            message_zh: None,
        }
    }

    /// An error about `file`, said in English and in Chinese.
    pub fn both(
        file: impl Into<String>,
        message: impl Into<String>,
        zh: impl Into<String>,
    ) -> BringError {
        BringError {
            message_zh: Some(zh.into()),
            ..BringError::new(file, message)
        }
    }

    /// An error about `file`, said in every language (a catalogue message).
    pub fn said(file: impl Into<String>, said: Said) -> BringError {
        BringError::both(file, said.en, said.zh)
    }

    /// The sentence in `lang` (in English where no Chinese was said).
    pub fn text(&self, lang: Lang) -> String {
        match (lang, &self.message_zh) {
            (Lang::Zh, Some(zh)) => named(&self.file, zh, lang),
            _ => self.to_string(),
        }
    }

    /// The sentence in every language, as the worker sends it to the page.
    pub fn refusal(&self) -> Refusal {
        Refusal {
            file: self.file.clone(),
            en: self.message.clone(),
            zh: self
                .message_zh
                .clone()
                .unwrap_or_else(|| self.message.clone()),
        }
    }
}

impl fmt::Display for BringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&named(&self.file, &self.message, Lang::En))
    }
}

/// `what` about `place` in `lang` (`q.npy: …`), or `what` alone where no place is named.
pub(super) fn named(place: &str, what: &str, lang: Lang) -> String {
    if place.is_empty() {
        what.to_string()
    } else {
        formats::FormatsWhere {
            place: &place,
            what: &what,
        }
        .say(lang)
    }
}

/// Why files were refused, in every language: the page shows it in its language and
/// again in the other one after a switch.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Refusal {
    /// The file named (as it was named, in no language), or `""`.
    pub file: String,
    /// What is wrong, in English.
    pub en: String,
    /// What is wrong, in Chinese.
    pub zh: String,
}

impl Refusal {
    /// A sentence about no file in particular, in English and in Chinese.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Refusal {
        Refusal {
            file: String::new(),
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// What is wrong, in `lang` (without the file's name).
    pub fn message(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    /// The whole sentence in `lang`, the file's name first.
    pub fn text(&self, lang: Lang) -> String {
        named(&self.file, self.message(lang), lang)
    }
}

/// A tensor's role, as messages name it.
pub(super) fn role_name(role: Role) -> Tr {
    match role {
        Role::Q => formats::BRING_ROLE_Q,
        Role::K => formats::BRING_ROLE_K,
        Role::V => formats::BRING_ROLE_V,
        Role::WO => formats::BRING_ROLE_W_O,
        Role::Tokens => formats::BRING_ROLE_TOKENS,
    }
}
