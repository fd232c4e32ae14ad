use attnlab_i18n::msg;
use attnlab_lab::state::{Checkpoint, PretrainedView};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::{text, use_lang};
use crate::model::{Status, use_model_session};
use crate::state::{LabFields, use_app_state};

fn megabytes(bytes: u64) -> String {
    format!("{} MB", number::decimals(bytes as f64 / 1e6, 1))
}

/// The real model's state: offer it, show the download with a cancel button, say where
/// it came from and how long it took, or why it is not there.
#[component]
pub fn ModelStatusPanel() -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let checkpoint = move || {
        state
            .lab
            .pretrained()
            .with(|p| p.map_or(Checkpoint::MiniLmL6, |p| p.checkpoint))
    };
    let use_real = move |_| {
        let c = checkpoint();
        // Choosing the real model starts the load (`model::drive`); after a cancel or a
        // failure of this checkpoint, this asks again.
        if state.lab.pretrained().with_untracked(Option::is_none) {
            state.lab.pretrained().set(Some(PretrainedView::new(c)));
        }
        let stopped = matches!(
            session.status.get_untracked(),
            Status::Cancelled | Status::Failed { .. }
        );
        if session.checkpoint.get_untracked() == Some(c) && stopped {
            session.load(c);
        }
    };
    let body = move || {
        let c = checkpoint();
        let lang = lang.get();
        let label = c.label(lang);
        let chosen = state.lab.pretrained().with(Option::is_some);
        match session.status_of(c) {
            _ if !chosen => view! {
                <p>{text(msg::model_page::MODEL_TOY_NOTE)}</p>
                <button type="button" class="primary" data-testid="model-load" on:click=use_real>
                    {msg::model_page::ModelLoad { label: &label, size: &megabytes(c.approximate_bytes()) }.say(lang)}
                </button>
            }.into_any(),
            Status::Idle | Status::Starting => view! {
                <p role="status" data-testid="model-status">{text(msg::model_page::MODEL_STARTING)}</p>
                <button type="button" data-testid="model-cancel" on:click=move |_| session.cancel()>{text(msg::model_page::MODEL_CANCEL)}</button>
            }.into_any(),
            Status::Loading { loaded, total } => {
                let of = total.filter(|&t| t >= loaded);
                let said = match of {
                    Some(t) => msg::model_page::ModelDownloadingOf { label: &label, loaded: &megabytes(loaded), total: &megabytes(t) }.say(lang),
                    None => msg::model_page::ModelDownloading { label: &label, loaded: &megabytes(loaded) }.say(lang),
                };
                view! {
                    <p role="status" data-testid="model-status">{said}</p>
                    <progress data-testid="model-progress" max=of.unwrap_or(0).to_string() value=loaded.to_string()
                        aria-label=text(msg::model_page::MODEL_DOWNLOAD_LABEL)></progress>
                    <button type="button" data-testid="model-cancel" on:click=move |_| session.cancel()>{text(msg::model_page::MODEL_CANCEL)}</button>
                }.into_any()
            }
            Status::Ready(loaded) => {
                let (size, ms) = (megabytes(loaded.bytes), number::rounded(loaded.millis, 3));
                let (layers, heads, max) = (loaded.layers, loaded.heads, loaded.max_tokens);
                let said = msg::model_page::ModelReady {
                    label: &label,
                    size: &size,
                    from: if loaded.from_cache { "cache" } else { "network" },
                    ms: &ms,
                    layers: &layers,
                    heads: &heads,
                    max: &max,
                }
                .say(lang);
                view! {
                    <p role="status" data-testid="model-status" data-from-cache=loaded.from_cache.to_string()>
                        {said}
                    </p>
                }.into_any()
            }
            Status::Failed { message, missing } => view! {
                <p role="alert" class="variant-error" data-testid="model-status">
                    {if missing {
                        c.how_to_get(lang).to_string()
                    } else {
                        msg::model_page::ModelLoadFailed { why: &message.get(lang) }.say(lang)
                    }}
                </p>
                <button type="button" data-testid="model-load" on:click=use_real>{text(msg::model_page::MODEL_TRY_AGAIN)}</button>
            }.into_any(),
            Status::Cancelled => view! {
                <p role="status" data-testid="model-status">{text(msg::model_page::MODEL_LOAD_CANCELLED)}</p>
                <button type="button" data-testid="model-load" on:click=use_real>{text(msg::model_page::MODEL_LOAD_AGAIN)}</button>
            }.into_any(),
        }
    };
    view! {
        <section class="panel model-status" aria-label=text(msg::model_page::MODEL_STATUS_LABEL)>
            <h2 class="section-title">{move || checkpoint().label(lang.get())}</h2>
            {body}
            <p class="model-caveat">{move || checkpoint().caveat(lang.get())}</p>
        </section>
    }
}
