use attnlab_lab::pretrained::Checkpoint;
use leptos::prelude::*;

/// The page title, a one-line invitation, and the About panel (what attnlab is, and
/// whose model it can load).
#[component]
pub fn AppHeader() -> impl IntoView {
    view! {
        <header class="app-header">
            <h1>"attnlab — Attention Lab"</h1>
            <p class="tagline">
                "Type a sentence and see how much each word (a query, on a row) attends to every word (a key, in a column)."
            </p>
            <details class="about" data-testid="about">
                <summary>"About"</summary>
                <p>"attnlab is a laboratory for the attention mechanism: change the attention function itself and watch every matrix change. "
                   "Everything runs in this page; nothing is sent anywhere."</p>
                {Checkpoint::ALL.into_iter().map(|c| view! {
                    <p data-testid=format!("about-model-{}", c.name())>{c.attribution()}</p>
                }).collect_view()}
            </details>
        </header>
    }
}
