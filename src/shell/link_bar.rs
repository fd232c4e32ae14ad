use attnlab_i18n::msg;
use leptos::html::Input;
use leptos::prelude::*;
use leptos_use_fn_debounce_throttle::use_throttle_fn;
use std::collections::VecDeque;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::qr::{QrButton, QrCorner, QrDialog, QrLinks};
use crate::i18n::{Tr, text};
use crate::state::{ADDRESSES_KEPT, forget_latest, remember_latest, use_app_state};

/// Keeps the URL fragment in step with the state (`history.replaceState`, so the back
/// button is not flooded), and offers the link to copy or to scan as a QR code (and in
/// presentation mode, its code in the corner).
#[component]
pub fn LinkBar() -> impl IntoView {
    let state = use_app_state();
    let lesson = crate::lessons::use_player();
    // In a lesson, the lesson step's link (with the state after it once it was changed).
    // The language rides after both.
    let link = Memo::new(move |_| {
        let v1 = attnlab_link::encode(&state.link_state());
        let place = lesson.and_then(|p| p.fragment(&v1)).unwrap_or(v1);
        attnlab_link::with_lang(&place, state.lang.get())
    });
    let copied = RwSignal::new(None::<Tr>);
    let input = NodeRef::<Input>::new();

    // Effects are for syncing with the outside world: here, the address bar. A single
    // change goes there at once; while a slider is dragged (a change every frame) it is
    // written at most every ADDRESS_DELAY_MS, and the last state always lands: a throttle
    // with both edges. Each write waits for the next frame to be painted, so
    // `replaceState` (milliseconds a call in Chromium) never runs between a change and its
    // repaint.
    // The address this page put in the address bar (or opened with): a different one
    // there means a link was pasted, which wins over anything unsaved here.
    let written = StoredValue::new(current_address());
    // Every address this page wrote (the last few) or opened with, kept beside the latest
    // state at every change: a reload reopens one of them, and with it the latest state,
    // even when it races the last write.
    let addresses = StoredValue::new(VecDeque::from([current_address()]));
    // Set when a pasted link reloads the page: from then on nothing is kept, so the link
    // opens as it is, even one this page once wrote itself.
    let opening_link = StoredValue::new(false);
    let remember = move || {
        if opening_link.get_value() {
            return;
        }
        let latest = link.get_untracked();
        addresses.with_value(|a| remember_latest(&latest, a.iter().map(String::as_str)));
    };
    let write_now = move || {
        // A link pasted since the last write wins: the page reopens with it (`hashchange`
        // below), and a pending write must not overwrite it first.
        if written.with_value(|w| *w != current_address()) {
            return;
        }
        let hash = format!("#{}", link.get_untracked());
        write_address(&hash);
        addresses.update_value(|a| {
            if a.back() != Some(&hash) {
                a.push_back(hash.clone());
            }
            while a.len() > ADDRESSES_KEPT {
                a.pop_front();
            }
        });
        written.set_value(hash);
        remember();
    };
    // After the next paint: the frame's callbacks run, it is painted, then the task runs.
    let write_latest = use_throttle_fn(
        move || request_animation_frame(move || set_timeout(write_now, Duration::ZERO)),
        ADDRESS_DELAY_MS,
    );
    Effect::new(move |_| {
        link.track();
        copied.set(None);
        remember();
        write_latest();
    });
    // A link pasted into the address bar of this tab changes only the fragment (no new
    // page load): open it as a new page would, so the pasted state is what shows. The
    // event can also arrive late for the very address this page opened with (the
    // fragment changed while the app was starting, and the app already read it): that
    // is no new link, and reloading it would lose what opening it said.
    let on_hash = window_event_listener(leptos::ev::hashchange, move |_| {
        let Some(window) = web_sys::window() else {
            return;
        };
        let hash = window.location().hash().unwrap_or_default();
        let known = written.with_value(|w| *w == hash);
        if !known && hash.trim_start_matches('#') != link.get_untracked() {
            opening_link.set_value(true);
            forget_latest();
            let _ = window.location().reload();
        }
    });
    // Leaving or reloading the page: once more, from the state as it is now.
    let on_hide = window_event_listener(leptos::ev::pagehide, move |_| remember());
    on_cleanup(move || {
        on_hash.remove();
        on_hide.remove();
    });
    let full = Memo::new(move |_| format!("{}#{}", page_address(), link.get()));
    // The open lesson step's own link, offered when the page's is too long for a code.
    let step = Memo::new(move |_| {
        let place = lesson.and_then(|p| p.step_fragment())?;
        Some(format!(
            "{}#{}",
            page_address(),
            attnlab_link::with_lang(&place, state.lang.get())
        ))
    });
    let qr = QrLinks::new(full.into(), step.into());
    let copy = move |_| {
        let text = full.get_untracked();
        if let Some(el) = input.get_untracked() {
            el.select();
        }
        leptos::task::spawn_local(async move {
            let ok = copy_text(&text).await;
            copied.set(Some(if ok {
                msg::shell::LINK_BAR_COPIED
            } else {
                msg::shell::LINK_BAR_SELECT
            }));
        });
    };
    view! {
        <div class="link-bar">
            <label class="field-label-inline" for="share-link">{text(msg::shell::LINK_BAR_LABEL)}</label>
            <input id="share-link" node_ref=input class="share-link" data-testid="share-link" readonly=true
                translate="no" prop:value=full/>
            <button type="button" data-testid="copy-link" on:click=copy>{text(msg::shell::LINK_BAR_COPY)}</button>
            <QrButton links=qr/>
            <span class="copied" role="status" data-testid="copied">{move || copied.get().map(|c| c.get(state.lang.get()))}</span>
        </div>
        <QrDialog links=qr/>
        <QrCorner links=qr/>
    }
}

/// The address bar is written at most this often (milliseconds).
const ADDRESS_DELAY_MS: f64 = 200.0;

/// The page's address without its fragment.
fn page_address() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// The address bar's fragment, `#` included (empty when there is none).
fn current_address() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Puts `hash` in the address bar without a new history entry.
fn write_address(hash: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if window.location().hash().ok().as_deref() == Some(hash) {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

/// Copies `text` with the Clipboard API, or, where the page is not a secure context
/// (a classroom server reached by its LAN address), with the selection and
/// `execCommand("copy")`. Whether it worked.
async fn copy_text(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let clipboard = window.navigator().clipboard();
    let clipboard_value: &wasm_bindgen::JsValue = clipboard.as_ref();
    if !clipboard_value.is_undefined() {
        let written = JsFuture::from(clipboard.write_text(text)).await;
        if written.is_ok() {
            return true;
        }
    }
    window
        .document()
        .and_then(|d| d.dyn_into::<web_sys::HtmlDocument>().ok())
        .and_then(|d| d.exec_command("copy").ok())
        .unwrap_or(false)
}
