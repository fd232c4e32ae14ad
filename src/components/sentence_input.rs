use leptos::prelude::*;

use crate::state::use_app_state;

/// The text box. Two-way bound to the sentence signal: what is typed is kept exactly as
/// typed, whatever is drawn.
#[component]
pub fn SentenceInput() -> impl IntoView {
    let state = use_app_state();
    view! {
        <label class="field-label" for="sentence-input">"Sentence"</label>
        <textarea
            id="sentence-input"
            class="sentence-input"
            data-testid="sentence-input"
            rows="3"
            spellcheck="false"
            autocomplete="off"
            placeholder="Type a sentence, in any language…"
            bind:value=state.sentence
        ></textarea>
    }
}
