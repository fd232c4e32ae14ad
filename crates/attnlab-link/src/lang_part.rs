//! The language in the link: a `lang=CODE` part after the rest, joined by `&`
//! (`#v1.…&lang=zh`, `#lesson=masks/causal&lang=zh`). A link without it opens in the
//! language the person chose before, else their browser's.

use attnlab_i18n::Lang;

/// What the language part starts with.
pub const LANG_PREFIX: &str = "lang=";

/// Splits the language part off a fragment (without `#`): `v1.e30&lang=zh` →
/// (`Some(Zh)`, `"v1.e30"`). A part naming no language this app has (`lang=fr`) is
/// dropped and reads as no language.
pub fn split_lang(fragment: &str) -> (Option<Lang>, String) {
    let mut lang = None;
    let rest: Vec<&str> = fragment
        .split('&')
        .filter(|part| match part.trim().strip_prefix(LANG_PREFIX) {
            Some(code) => {
                lang = lang.or(Lang::parse(code));
                false
            }
            None => true,
        })
        .collect();
    (lang, rest.join("&"))
}

/// The language a fragment or a whole URL names, if it names one.
pub fn lang_of(input: &str) -> Option<Lang> {
    let fragment = input.find('#').map_or(input, |at| &input[at + 1..]);
    split_lang(fragment).0
}

/// `fragment` (without `#`) with `lang`'s part after it.
pub fn with_lang(fragment: &str, lang: Lang) -> String {
    if fragment.is_empty() {
        format!("{LANG_PREFIX}{lang}")
    } else {
        format!("{fragment}&{LANG_PREFIX}{lang}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LessonLink, decode, encode};
    use attnlab_lab::LabState;

    #[test]
    fn the_language_rides_after_the_state_and_the_lesson() {
        let v1 = encode(&LabState::default());
        let link = with_lang(&v1, Lang::Zh);
        assert_eq!(split_lang(&link), (Some(Lang::Zh), v1.clone()));
        assert_eq!(decode(&link).unwrap().state, LabState::default());
        assert_eq!(
            lang_of(&format!("https://x.org/lab/#{link}")),
            Some(Lang::Zh)
        );

        let lesson = LessonLink::new("masks", Some("causal")).fragment(Some(&v1));
        let link = with_lang(&lesson, Lang::En);
        assert_eq!(lang_of(&link), Some(Lang::En));
        assert_eq!(
            LessonLink::parse(&link),
            Some(LessonLink::new("masks", Some("causal")))
        );
        assert_eq!(decode(&link).unwrap().state, LabState::default());
        assert_eq!(with_lang("", Lang::Zh), "lang=zh");
    }

    #[test]
    fn no_or_an_unknown_language_reads_as_none_and_keeps_the_rest() {
        assert_eq!(split_lang("v1.e30"), (None, "v1.e30".to_string()));
        assert_eq!(split_lang("v1.e30&lang=fr"), (None, "v1.e30".to_string()));
        assert_eq!(split_lang("lang=&v1.e30"), (None, "v1.e30".to_string()));
        assert_eq!(lang_of("#lang=zh-CN"), Some(Lang::Zh));
        assert_eq!(lang_of("https://x.org/"), None);
    }
}
