use leptos::prelude::*;

use crate::state::use_app_state;

/// Sentences about the page when there is something to say: a link that was repaired or
/// could not be read, nothing typed yet, text cut at the drawing limit, or settings the
/// maths refuses. One region (`data-testid="notice"`) for all of them; the live region
/// stays in the page so screen readers announce each new notice.
#[component]
pub fn Notice() -> impl IntoView {
    let state = use_app_state();
    let messages = move || {
        let mut all = Vec::new();
        let lang = state.lang.get();
        all.extend(
            state
                .repair_notice
                .with(|n| n.as_ref().map(|n| n.get(lang).to_string())),
        );
        all.extend(state.derived.notice.get());
        all
    };
    view! {
        <div class="notice-region" aria-live="polite">
            {move || {
                let messages = messages();
                (!messages.is_empty())
                    .then(|| {
                        view! {
                            <div class="notice" data-testid="notice" role="status">
                                {messages.into_iter().map(|m| view! { <p>{m}</p> }).collect_view()}
                            </div>
                        }
                    })
            }}
        </div>
    }
}
