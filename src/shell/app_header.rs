use attnlab_i18n::msg;
use attnlab_lab::state::Checkpoint;
use leptos::prelude::*;

use crate::i18n::{text, use_lang};

/// A text whose `code` spans (between backquotes) are shown as code and whose `{names}`
/// (between braces) as they are, both in no language.
fn with_code(text: &'static str) -> impl IntoView {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['`', '{']) {
        let close = if rest[at..].starts_with('`') {
            '`'
        } else {
            '}'
        };
        let Some(len) = rest[at + 1..].find(close) else {
            break;
        };
        parts.push(rest[..at].into_any());
        let inner = &rest[at + 1..at + 1 + len];
        parts.push(if close == '`' {
            view! { <code translate="no">{inner}</code> }.into_any()
        } else {
            view! { <span translate="no">{inner}</span> }.into_any()
        });
        rest = &rest[at + 2 + len..];
    }
    parts.push(rest.into_any());
    parts.collect_view()
}

/// The page title, a one-line invitation, and the About panel (what attnlab is, and
/// whose model it can load).
#[component]
pub fn AppHeader() -> impl IntoView {
    let lang = use_lang();
    view! {
        <header class="app-header">
            <h1>{text(msg::shell::HEADER_TITLE)}</h1>
            <p class="tagline">
                {text(msg::shell::HEADER_TAGLINE)}
            </p>
            <details class="about" data-testid="about">
                <summary>{text(msg::shell::HEADER_ABOUT)}</summary>
                <p>{text(msg::shell::HEADER_ABOUT_TEXT)}</p>
                {Checkpoint::ALL.into_iter().map(|c| view! {
                    <p data-testid=format!("about-model-{}", c.name())>{move || with_code(c.attribution(lang.get()))}</p>
                }).collect_view()}
            </details>
        </header>
    }
}
