use leptos::prelude::*;

/// The page title and a one-line invitation.
#[component]
pub fn AppHeader() -> impl IntoView {
    view! {
        <header class="app-header">
            <h1>"attnlab — Attention Lab"</h1>
            <p class="tagline">
                "Type a sentence and see how much each word (a query, on a row) attends to every word (a key, in a column)."
            </p>
        </header>
    }
}
