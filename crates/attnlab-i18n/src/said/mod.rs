//! A sentence with values in it, written out once in every language: what a link's
//! repair changed, or why a knob refused a value, kept so that it can be shown again
//! in the other language when the language is switched.

use std::fmt;

use crate::{Lang, Tr};

pub mod serde_text;

/// A sentence in every language.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Said {
    /// The English.
    pub en: String,
    /// The Simplified Chinese.
    pub zh: String,
}

impl Said {
    /// The sentence `en` in English and `zh` in Chinese.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Said {
        Said {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// The sentence `say` gives in each language (a catalogue message whose values
    /// are words of each language: `Said::of(|lang| msg::…{ what: &what.get(lang) }.say(lang))`).
    pub fn of(say: impl Fn(Lang) -> String) -> Said {
        Said::new(say(Lang::En), say(Lang::Zh))
    }

    /// The sentence in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// The English, the command line's language (`said.starts_with(…)`, a list's
/// `join("; ")`).
impl std::ops::Deref for Said {
    type Target = str;

    fn deref(&self) -> &str {
        &self.en
    }
}

/// Compares the English.
impl PartialEq<&str> for Said {
    fn eq(&self, other: &&str) -> bool {
        self.en == *other
    }
}

/// The English, as [`Deref`](std::ops::Deref).
impl std::borrow::Borrow<str> for Said {
    fn borrow(&self) -> &str {
        &self.en
    }
}

impl From<Tr> for Said {
    fn from(t: Tr) -> Said {
        Said::new(t.en, t.zh)
    }
}

/// The English (the command line's language).
impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}
