//! A catalogue sentence with values in elements of their own (a token in
//! `<span translate="no">`, a formula), as views: `attnlab_i18n::marked` cuts it at its
//! marks, wherever each language puts them.

pub use attnlab_i18n::marked::MARK;
use attnlab_i18n::marked::{Part, parts};
use leptos::prelude::*;

/// `said` as views: its words as they are, each mark `MARK[i]` as `element(i)`.
pub fn with_marked(said: &str, mut element: impl FnMut(usize) -> AnyView) -> Vec<AnyView> {
    parts(said)
        .into_iter()
        .map(|p| match p {
            Part::Text(t) => t.into_any(),
            Part::Marked(i) => element(i),
        })
        .collect()
}
