use leptos::prelude::*;

use crate::state::use_app_state;

/// A sentence about the figure when there is something to say: nothing typed yet, text
/// cut at the drawing limit, or settings the maths refuses. The live region stays in the
/// page so screen readers announce each new notice.
#[component]
pub fn Notice() -> impl IntoView {
    let state = use_app_state();
    view! {
        <div class="notice-region" aria-live="polite">
            {move || {
                state
                    .notice
                    .get()
                    .map(|text| view! { <p class="notice" data-testid="notice" role="status">{text}</p> })
            }}
        </div>
    }
}
