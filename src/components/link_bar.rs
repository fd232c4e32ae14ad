use attnlab_lab::fragment;
use leptos::html::Input;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::use_app_state;

/// Keeps the URL fragment in step with the state (`history.replaceState`, so the back
/// button is not flooded), and offers the link to copy.
#[component]
pub fn LinkBar() -> impl IntoView {
    let state = use_app_state();
    let link = Memo::new(move |_| state.lab.with(fragment::encode));
    let copied = RwSignal::new(None::<&'static str>);
    let input = NodeRef::<Input>::new();

    // Effects are for syncing with the outside world: here, the address bar.
    Effect::new(move |_| {
        let hash = format!("#{}", link.get());
        let Some(window) = web_sys::window() else {
            return;
        };
        if window.location().hash().ok().as_deref() == Some(hash.as_str()) {
            return;
        }
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash));
        }
        copied.set(None);
    });
    let full = move || {
        let href = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let base = href.split('#').next().unwrap_or_default().to_string();
        format!("{base}#{}", link.get())
    };
    let copy = move |_| {
        let Some(el) = input.get_untracked() else {
            return;
        };
        el.select();
        let ok = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.dyn_into::<web_sys::HtmlDocument>().ok())
            .and_then(|d| d.exec_command("copy").ok())
            .unwrap_or(false);
        copied.set(Some(if ok {
            "Copied: paste it anywhere."
        } else {
            "Select the link and copy it (Ctrl+C)."
        }));
    };
    view! {
        <div class="link-bar">
            <label class="field-label-inline" for="share-link">"Link to this lab "</label>
            <input id="share-link" node_ref=input class="share-link" data-testid="share-link" readonly=true prop:value=full/>
            <button type="button" data-testid="copy-link" on:click=copy>"copy link"</button>
            <span class="copied" role="status" data-testid="copied">{move || copied.get()}</span>
        </div>
    }
}
