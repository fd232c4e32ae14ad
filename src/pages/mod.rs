//! The explanatory pages, one folder each. Each reads the shared sentence, model and
//! variants from the [`AppState`](crate::state::AppState) and the data of its page from
//! `attnlab_pages`; none holds maths of its own.

pub mod block;
pub mod complexity;
pub mod decoding;
pub mod linear;
pub mod lines;
pub mod model;
pub mod positions;
pub mod scaling;
pub mod steps;

use leptos::prelude::*;

/// `text` with its symbols (`d_model`, `S_i`, `W^O`: runs of letters, digits, `_` and `^`
/// that hold a `_` or a `^`) marked as not to be translated: they read the same in every
/// language.
pub fn with_symbols(text: &str) -> impl IntoView + use<> {
    let is_symbol_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '^';
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(is_symbol_char).unwrap_or(rest.len());
        let (plain, tail) = rest.split_at(start);
        let end = tail
            .find(|c: char| !is_symbol_char(c))
            .unwrap_or(tail.len());
        let (run, after) = tail.split_at(end);
        let symbol = run.contains(['_', '^']);
        match parts.last_mut() {
            Some((text, false)) => text.push_str(plain),
            _ if !plain.is_empty() => parts.push((plain.to_string(), false)),
            _ => {}
        }
        if symbol {
            parts.push((run.to_string(), true));
        } else if !run.is_empty() {
            match parts.last_mut() {
                Some((text, false)) => text.push_str(run),
                _ => parts.push((run.to_string(), false)),
            }
        }
        rest = after;
    }
    parts
        .into_iter()
        .map(|(text, symbol)| match symbol {
            true => view! { <span translate="no">{text}</span> }.into_any(),
            false => text.into_any(),
        })
        .collect_view()
}
