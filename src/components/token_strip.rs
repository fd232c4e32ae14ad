use leptos::prelude::*;

use crate::state::use_app_state;
use attnlab_lab::MAX_TOKENS;

/// One chip per token, with its index. The chips of the query and key under the pointer
/// are highlighted; tokens past the drawing limit are dimmed.
#[component]
pub fn TokenStrip() -> impl IntoView {
    let state = use_app_state();
    let count = move || state.tokens.with(|t| t.total());
    let hover = state.hover;
    view! {
        <h2 class="field-label">
            "Tokens " <span class="token-count">{count}</span>
        </h2>
        <ol class="token-strip" data-testid="token-strip">
            <For
                each=move || state.tokens.with(|t| t.all().to_vec()).into_iter().enumerate()
                key=|(i, t)| (*i, t.text.clone())
                children=move |(i, t)| {
                    view! {
                        <li
                            class="token-chip"
                            class:is-query=move || hover.get().is_some_and(|(r, _)| r == i)
                            class:is-key=move || hover.get().is_some_and(|(_, c)| c == i)
                            class:is-beyond-limit={i >= MAX_TOKENS}
                        >
                            <span class="token" data-testid="token">
                                <span class="token-text" data-testid="token-text">{t.text}</span>
                            </span>
                            <span class="token-index" data-testid="token-index">{i}</span>
                        </li>
                    }
                }
            />
        </ol>
    }
}
