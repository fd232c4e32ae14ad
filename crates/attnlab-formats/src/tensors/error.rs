//! Why brought files are refused: [`BringError`] as the readers say it (the file and
//! what is wrong, in English and, where said, in Chinese), and [`Refusal`], the same in
//! every language as the worker sends it to the page.

use std::fmt;

use super::Role;
use attnlab_i18n::Lang;

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

    /// The sentence in `lang` (in English where no Chinese was said).
    pub fn text(&self, lang: Lang) -> String {
        match (lang, &self.message_zh) {
            (Lang::Zh, Some(zh)) if self.file.is_empty() => zh.clone(),
            (Lang::Zh, Some(zh)) => format!("{}：{zh}", self.file),
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
        if self.file.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.file, self.message)
        }
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
        match (self.file.is_empty(), lang) {
            (true, _) => self.message(lang).to_string(),
            (false, Lang::En) => format!("{}: {}", self.file, self.en),
            (false, Lang::Zh) => format!("{}：{}", self.file, self.zh),
        }
    }
}

/// A tensor's role, as messages name it.
pub(super) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Q => "q (queries)",
        Role::K => "k (keys)",
        Role::V => "v (values)",
        Role::WO => "w_o (output projection)",
        Role::Tokens => "tokens",
    }
}

pub(super) fn role_name_zh(role: Role) -> &'static str {
    match role {
        Role::Q => "q（查询）",
        Role::K => "k（键）",
        Role::V => "v（值）",
        Role::WO => "w_o（输出投影）",
        Role::Tokens => "tokens（词元）",
    }
}

pub(super) const NAMING: &str =
    "name the arrays q, k and v (optionally w_o), and the labels tokens.txt or tokens.json";

pub(super) const NAMING_ZH: &str =
    "请把数组命名为 q、k 和 v（可选 w_o），把标签命名为 tokens.txt 或 tokens.json";
