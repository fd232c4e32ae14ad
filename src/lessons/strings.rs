//! The lesson player's text helpers. Its own words (buttons, hints, verdicts, errors)
//! are the catalogue's `lessons` area (`attnlab_i18n::msg::lessons`).

use leptos::prelude::*;

/// A step's text as paragraphs (separated by a blank line in the lesson files).
pub(super) fn paragraphs(text: &str) -> impl IntoView + use<> {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| view! { <p>{p.to_string()}</p> })
        .collect_view()
}
