use attnlab_i18n::msg;
use leptos::prelude::*;

use crate::i18n::use_lang;
use crate::state::{LabFields, use_app_state};
use attnlab_lab::MAX_TOKENS;
use attnlab_lab::tokens::MAX_TOKEN_CHIPS;

/// Which tokens a strip shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The query tokens (the sentence, or the target).
    Queries,
    /// The key tokens of cross-attention (the source).
    Keys,
}

/// One chip per token, with its index. The chips of the query and key under the pointer
/// are highlighted; tokens past the drawing limit are dimmed.
#[component]
pub fn TokenStrip(
    /// Queries or keys.
    side: Side,
) -> impl IntoView {
    let state = use_app_state();
    let tokens = match side {
        Side::Queries => state.derived.tokens,
        Side::Keys => state.derived.key_tokens,
    };
    let count = move || tokens.with(|t| t.total());
    let hover = state.hover;
    let lang = use_lang();
    let (title, testid) = match side {
        Side::Queries => (msg::shell::TOKEN_STRIP_LABEL, "token-strip"),
        Side::Keys => (msg::shell::TOKEN_STRIP_SOURCE, "source-token-strip"),
    };
    let is_here = move |i: usize| {
        hover.get().is_some_and(|(r, c)| match side {
            Side::Queries if state.lab.mode().get() == attnlab_lab::Mode::Cross => r == i,
            Side::Queries => r == i || c == i,
            Side::Keys => c == i,
        })
    };
    view! {
        <h2 class="field-label">
            {move || title.get(lang.get())} <span class="token-count">{count}</span>
        </h2>
        <ol class="token-strip" data-testid=testid>
            <For
                each=move || tokens.with(|t| t.all().iter().take(MAX_TOKEN_CHIPS).cloned().collect::<Vec<_>>()).into_iter().enumerate()
                key=|(i, t)| (*i, t.text.clone())
                children=move |(i, t)| {
                    view! {
                        <li
                            class="token-chip"
                            class:is-query=move || is_here(i)
                            class:is-beyond-limit={i >= MAX_TOKENS}
                        >
                            <span class="token" data-testid="token">
                                <span class="token-text" data-testid="token-text" translate="no">{t.text}</span>
                            </span>
                            <span class="token-index" data-testid="token-index">{i}</span>
                        </li>
                    }
                }
            />
            {move || {
                let more = count().saturating_sub(MAX_TOKEN_CHIPS);
                (more > 0).then(|| view! {
                    <li class="token-more" data-testid="token-more">{move || msg::shell::TokenStripMore { more: &more }.say(lang.get())}</li>
                })
            }}
        </ol>
    }
}
