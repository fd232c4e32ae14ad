use leptos::prelude::*;

use crate::state::use_app_state;

/// Buttons to choose which head the heatmap shows.
#[component]
pub fn HeadPicker() -> impl IntoView {
    let state = use_app_state();
    let heads = move || state.model.with(|m| m.heads);
    view! {
        <div class="head-picker" role="group" aria-label="Head">
            <span class="field-label">"Head"</span>
            <For
                each=move || 0..heads()
                key=|h| *h
                children=move |h| {
                    view! {
                        <button
                            type="button"
                            class="head-button"
                            data-testid="head-button"
                            aria-pressed=move || (state.head.get() == h).to_string()
                            on:click=move |_| state.head.set(h)
                        >
                            {h}
                        </button>
                    }
                }
            />
        </div>
    }
}
