use leptos::prelude::*;

use crate::state::use_app_state;

/// The cell under the pointer, read out: query token, key token and the exact weight.
#[component]
pub fn CellInfo() -> impl IntoView {
    let state = use_app_state();
    let text = move || {
        state
            .reading
            .get()
            .map(|r| r.sentence())
            .unwrap_or_else(|| "Point at a cell of the heatmap to read its exact weight.".into())
    };
    view! {
        <p class="cell-info" data-testid="cell-info" class:is-idle=move || state.reading.with(Option::is_none)>
            {text}
        </p>
    }
}
