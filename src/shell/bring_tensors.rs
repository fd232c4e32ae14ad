//! Bring your own tensors: files picked here or dropped anywhere on the page are read by
//! `attnlab_formats::tensors::bring` in the worker ([`FilesWorker`]) and, if they are good,
//! every variant and view computes on them; if not, the message names the file and what
//! is wrong, and nothing else changes. Sizes are checked before a byte is read.

use std::sync::Arc;

use attnlab_formats::tensors::{self, Refusal};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::i18n::{Lang, text, use_lang};
use crate::state::{AppState, use_app_state};
use attnlab_i18n::msg::formats;
use attnlab_workers::FilesWorker;

/// The files of a `FileList`.
fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// Reads the bytes of `files` (after checking their sizes).
async fn read_files(
    files: Vec<web_sys::File>,
) -> Result<Vec<(String, js_sys::ArrayBuffer)>, Refusal> {
    let sizes: Vec<(String, u64)> = files.iter().map(|f| (f.name(), f.size() as u64)).collect();
    tensors::check_sizes(&sizes).map_err(|e| e.refusal())?;
    let mut read = Vec::with_capacity(files.len());
    for f in &files {
        let buffer = JsFuture::from(f.array_buffer())
            .await
            .map_err(|_| Refusal {
                file: f.name(),
                en: formats::BRING_BROWSER_UNREADABLE.en.into(),
                zh: formats::BRING_BROWSER_UNREADABLE.zh.into(),
            })?;
        read.push((f.name(), buffer.unchecked_into()));
    }
    Ok(read)
}

/// What the component keeps while files are read.
#[derive(Clone, Copy)]
struct Reading {
    state: AppState,
    error: RwSignal<Option<Refusal>>,
    busy: RwSignal<bool>,
    worker: StoredValue<Option<FilesWorker>, LocalStorage>,
}

/// Starts reading `files`; the outcome lands in `state.brought` or in `error`.
fn take(r: Reading, files: Vec<web_sys::File>) {
    if files.is_empty() {
        return;
    }
    r.busy.set(true);
    wasm_bindgen_futures::spawn_local(async move {
        let read = match read_files(files).await {
            Ok(read) => read,
            Err(e) => {
                r.busy.set(false);
                r.error.set(Some(e));
                return;
            }
        };
        let done = move |outcome: Result<tensors::Brought, Refusal>| {
            r.busy.set(false);
            match outcome {
                Ok(b) => {
                    r.error.set(None);
                    r.state.brought.set(Some(Arc::new(b)));
                }
                // The previous state stays: only the message is new.
                Err(e) => r.error.set(Some(e)),
            }
        };
        match FilesWorker::spawn_in(read, done) {
            // A newer set of files ends the reading of an older one.
            Ok(worker) => r.worker.set_value(Some(worker)),
            Err(e) => {
                r.busy.set(false);
                r.error.set(Some(e));
            }
        }
    });
}

/// A refusal in `lang`: the file's name and the field's path (in no language), then
/// what is wrong.
fn refusal_view(e: &Refusal, lang: Lang) -> impl IntoView + use<> {
    let sep = formats::FORMATS_NAME_SEPARATOR.get(lang);
    let file =
        (!e.file.is_empty()).then(|| view! { <span translate="no">{e.file.clone()}</span>{sep} });
    let message = e.message(lang);
    let (path, rest) = match message.split_once(sep) {
        Some((path, rest)) if is_field_path(path) => (Some(path.to_string()), rest),
        _ => (None, message),
    };
    let path = path.map(|p| view! { <code translate="no">{p}</code>{sep} });
    view! { {file}{path}{rest.to_string()} }
}

/// Whether `text` is a field's path in a document, as the readers name it
/// (`heads[0].q[1]`, `mask.custom`, `format`).
fn is_field_path(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'))
}

/// The file picker, the page-wide drop target, what was brought and the way back to
/// the sentence.
#[component]
pub fn BringTensors() -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let error = RwSignal::new(None::<Refusal>);
    let busy = RwSignal::new(false);
    let reading = Reading {
        state,
        error,
        busy,
        worker: StoredValue::new_local(None),
    };
    let dragging = RwSignal::new(false);
    let over = window_event_listener(leptos::ev::dragover, move |ev| {
        ev.prevent_default();
        dragging.set(true);
    });
    let leave = window_event_listener(leptos::ev::dragleave, move |_| dragging.set(false));
    let drop = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        dragging.set(false);
        take(
            reading,
            files_of(ev.data_transfer().and_then(|d| d.files())),
        );
    });
    on_cleanup(move || {
        over.remove();
        leave.remove();
        drop.remove();
    });
    let picker = NodeRef::<leptos::html::Input>::new();
    let on_pick = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        take(reading, files_of(input.files()));
        // The same file picked again (after a fix) is a change too.
        input.set_value("");
    };
    let summary = move || {
        let lang = lang.get();
        state.brought.with(|b| {
            b.as_ref().map(|b| {
                let sep = formats::FORMATS_NAME_SEPARATOR.get(lang);
                view! {
                    <span translate="no">{b.files.join(", ")}</span>
                    {sep}
                    {b.sizes_text(lang)}
                }
            })
        })
    };
    let notes = move || {
        let lang = lang.get();
        state.brought.with(|b| {
            b.as_ref()
                .map(|b| b.notes.iter().map(|n| n.get(lang).to_string()).collect())
                .unwrap_or_else(Vec::new)
        })
    };
    view! {
        <div class="bring" class:is-dragging=move || dragging.get() data-testid="bring">
            <label class="field-label" for="bring-input">{text(formats::BRING_PANEL_LABEL)}</label>
            // The browser's own file control speaks the browser's language, not the
            // page's: the input stays (for keyboard, drop and tests) but is hidden, and
            // this button, in the page's language, opens it.
            <input id="bring-input" type="file" multiple=true data-testid="bring-input"
                class="visually-hidden" tabindex="-1" node_ref=picker
                accept=".json,.npy,.npz,.txt" on:change=on_pick/>
            <button type="button" class="bring-pick" data-testid="bring-pick"
                on:click=move |_| {
                    if let Some(input) = picker.get() {
                        input.click();
                    }
                }>{text(formats::BRING_PANEL_CHOOSE)}</button>
            <p class="hint">
                {text(formats::BRING_PANEL_PICK)}
                <span translate="no">"attnlab-tensors/1 .json"</span>
                {text(formats::BRING_PANEL_AND)}
                <span translate="no">"q.npy k.npy v.npy"</span>
                {text(formats::BRING_PANEL_WITH)}
                <span translate="no">"tokens.txt"</span>
                {text(formats::BRING_PANEL_OR_NPZ)}
            </p>
            <p class="hint bring-busy" aria-live="polite" data-testid="bring-busy">
                {move || busy.get().then_some(text(formats::BRING_PANEL_READING)())}
            </p>
            <p class="bring-error" role="alert" data-testid="bring-error">{move || error.get().map(|e| refusal_view(&e, lang.get()))}</p>
            {move || summary().map(|s| view! {
                <div class="brought" data-testid="brought">
                    <p><strong>{text(formats::BRING_PANEL_COMPUTING)}</strong><span data-testid="brought-summary">{s}</span></p>
                    <ul class="hint">
                        {notes().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                        <li>{text(formats::BRING_PANEL_LINK_NOTE)}</li>
                    </ul>
                    <button type="button" data-testid="bring-clear"
                        on:click=move |_| state.brought.set(None)>{text(formats::BRING_PANEL_USE_SENTENCE)}</button>
                </div>
            })}
        </div>
    }
}
