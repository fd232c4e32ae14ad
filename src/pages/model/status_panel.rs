use attnlab_lab::pretrained::{Checkpoint, PretrainedView};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::model::{Status, use_model_session};
use crate::state::use_app_state;

fn megabytes(bytes: u64) -> String {
    format!("{} MB", number::decimals(bytes as f64 / 1e6, 1))
}

/// The real model's state: offer it, show the download with a cancel button, say where
/// it came from and how long it took, or why it is not there.
#[component]
pub fn ModelStatusPanel() -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let checkpoint = move || {
        state
            .pretrained
            .with(|p| p.map_or(Checkpoint::MiniLmL6, |p| p.checkpoint))
    };
    let use_real = move |_| {
        let c = checkpoint();
        // Choosing the real model starts the load (`model::drive`); after a cancel or a
        // failure, this asks again.
        if state.pretrained.with_untracked(Option::is_none) {
            state.pretrained.set(Some(PretrainedView::new(c)));
        }
        if session.status.with_untracked(|s| *s != Status::Idle) {
            session.load(c);
        }
    };
    let body = move || {
        let c = checkpoint();
        let chosen = state.pretrained.with(Option::is_some);
        match session.status.get() {
            _ if !chosen => view! {
                <p>"The lab's figures come from a toy model with seeded random weights: the mechanics are right, but the patterns mean nothing. "
                   "Load a real pretrained transformer to see what a trained model attends to."</p>
                <button type="button" class="primary" data-testid="model-load" on:click=use_real>
                    {format!("Load {} (about {})", c.label(), megabytes(c.approximate_bytes()))}
                </button>
            }.into_any(),
            Status::Idle | Status::Starting => view! {
                <p role="status" data-testid="model-status">"Starting the model worker…"</p>
                <button type="button" data-testid="model-cancel" on:click=move |_| session.cancel()>"Cancel"</button>
            }.into_any(),
            Status::Loading { loaded, total } => {
                let of = total.filter(|&t| t >= loaded);
                let text = match of {
                    Some(t) => format!("Downloading {}: {} of {}", c.label(), megabytes(loaded), megabytes(t)),
                    None => format!("Downloading {}: {}", c.label(), megabytes(loaded)),
                };
                view! {
                    <p role="status" data-testid="model-status">{text}</p>
                    <progress data-testid="model-progress" max=of.unwrap_or(0).to_string() value=loaded.to_string()
                        aria-label="download progress"></progress>
                    <button type="button" data-testid="model-cancel" on:click=move |_| session.cancel()>"Cancel"</button>
                }.into_any()
            }
            Status::Ready(loaded) => {
                let from = if loaded.from_cache { "from this browser's cache" } else { "from the network" };
                view! {
                    <p role="status" data-testid="model-status" data-from-cache=loaded.from_cache.to_string()>
                        {format!("{} is ready: {} loaded {from} in {} ms ({} layers × {} heads; texts are cut at {} tokens).",
                            c.label(), megabytes(loaded.bytes), number::rounded(loaded.millis, 3),
                            loaded.layers, loaded.heads, loaded.max_tokens)}
                    </p>
                }.into_any()
            }
            Status::Failed { message, missing } => view! {
                <p role="alert" class="variant-error" data-testid="model-status">
                    {if missing { c.how_to_get().to_string() } else { format!("The model could not be loaded: {message}.") }}
                </p>
                <button type="button" data-testid="model-load" on:click=use_real>"Try again"</button>
            }.into_any(),
            Status::Cancelled => view! {
                <p role="status" data-testid="model-status">"Loading was cancelled; nothing was kept."</p>
                <button type="button" data-testid="model-load" on:click=use_real>"Load again"</button>
            }.into_any(),
        }
    };
    view! {
        <section class="panel model-status" aria-label="The real model">
            <h2 class="section-title">{move || checkpoint().label()}</h2>
            {body}
            <p class="model-caveat">{move || checkpoint().caveat()}</p>
        </section>
    }
}
