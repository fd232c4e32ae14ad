//! The app's language: the one [`Lang`] signal every component reads (in `AppState`),
//! and the ways a component writes a text in every language:
//!
//! - [`text`]`(msg::shell::PAGE_NAV_VIEWS)` in a `view!`: a text of the message
//!   catalogue (`attnlab_i18n::msg`) that follows the language;
//! - `msg::shell::PAGE_NAV_VIEWS.get(lang)` where the language is at hand (a memo, a
//!   closure), and `msg::…::SomeId { … }.say(lang)` for a text with values in it;
//! - [`marked::with_marked`] for a sentence whose values sit in elements of their own.
//!
//! The domain crates' sentences (notices, reasons, figure titles) come from their
//! functions in the language asked for, which read the same catalogue. A test fails when
//! a Rust source outside tests holds Chinese text: every sentence is in the catalogue.

use attnlab_i18n::msg;
pub use attnlab_i18n::{Lang, Tr};
use leptos::prelude::*;

use crate::state::use_app_state;

/// The `localStorage` key of the chosen language.
pub const LANG_KEY: &str = "attnlab.lang";

/// The app's language (a `Copy` signal).
pub fn use_lang() -> RwSignal<Lang> {
    use_app_state().lang
}

/// A catalogue text that follows the app's language, in a `view!`:
/// `{text(msg::shell::PAGE_NAV_VIEWS)}`, `aria-label=text(msg::lab::ZOOM_BAR_LABEL)`.
pub fn text(msg: Tr) -> impl Fn() -> &'static str + Copy + Send + Sync {
    let lang = use_lang();
    move || msg.get(lang.get())
}

/// The language to open with when the link names none: the one chosen before on this
/// browser, else the browser's own, else English.
pub fn first_lang() -> Lang {
    let window = web_sys::window();
    let stored = window
        .as_ref()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| {
            s.get_item(LANG_KEY)
                .ok()
                .flatten()
                // Where the lessons alone had a language, it is the one chosen.
                .or_else(|| s.get_item("attnlab.lessons.lang").ok().flatten())
        });
    let browser = || window.as_ref().and_then(|w| w.navigator().language());
    stored
        .as_deref()
        .and_then(Lang::parse)
        .or_else(|| browser().as_deref().and_then(Lang::parse))
        .unwrap_or_default()
}

/// Remembers `lang` as the chosen language.
pub fn remember(lang: Lang) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(LANG_KEY, lang.code());
    }
}

/// Keeps the page's `<html lang>` in the app's language (screen readers pick their
/// voice by it; the browser picks CJK glyphs by it).
pub fn follow_in_document(lang: RwSignal<Lang>) {
    Effect::new(move |_| {
        let tag = lang.get().html_tag();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", tag);
        }
    });
}

/// The language switch (English | 中文): changes every text at once and keeps the rest
/// of the state; the choice is remembered and goes into the link.
#[component]
pub fn LanguageSwitch(
    /// The `data-testid` prefix of the buttons (`{name}-en`, `{name}-zh`).
    #[prop(default = "lang")]
    name: &'static str,
) -> impl IntoView {
    let lang = use_lang();
    let buttons = Lang::ALL
        .into_iter()
        .map(|l| {
            view! {
                <button type="button" class="lang-button" data-testid=format!("{name}-{}", l.code())
                    lang=l.html_tag() translate="no" aria-pressed=move || (lang.get() == l).to_string()
                    on:click=move |_| {
                        lang.set(l);
                        remember(l);
                    }>{l.name()}</button>
            }
        })
        .collect_view();
    view! {
        <span class="lang-switch" role="group" aria-label=text(msg::shell::LANG_SWITCH_LABEL)>{buttons}</span>
    }
}

pub mod marked;

#[cfg(test)]
mod tests;
