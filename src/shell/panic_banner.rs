//! What the page shows when the app's WebAssembly panics: a banner, drawn with plain DOM
//! calls (the app's own state may be mid-update and the wasm instance is dead after the
//! panic), that keeps the text. Its "reload with my text" is a plain link, computed while
//! the panic hook still runs: the link's state with the text boxes' current contents,
//! so a click needs no wasm. The reload drops the `?recovered` mark
//! ([`forget_recovery_mark`]).
use attnlab_i18n::Lang;
use attnlab_i18n::msg;
use wasm_bindgen::JsCast;

use crate::i18n::LANG_KEY;

/// The query the banner's link carries, so that its click reloads the page (a link that
/// changes only the fragment would not).
const RECOVERED: &str = "?recovered";

/// Installs the panic hook: the panic goes to the console, then the banner is shown.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

/// The value of the text box `id`, if it is on the page.
fn text_box(document: &web_sys::Document, id: &str) -> Option<String> {
    let element = document.get_element_by_id(id)?;
    Some(
        element
            .dyn_into::<web_sys::HtmlTextAreaElement>()
            .ok()?
            .value(),
    )
}

/// The address that reopens the page with the link's settings and the boxes' texts.
fn recovery_link(window: &web_sys::Window, document: &web_sys::Document) -> Option<String> {
    let location = window.location();
    let hash = location.hash().ok()?;
    let mut state = attnlab_link::load(hash.trim_start_matches('#')).state;
    if let Some(text) = text_box(document, "sentence-input") {
        state.text = text;
    }
    if let Some(source) = text_box(document, "source-input") {
        state.source = source;
    }
    let path = location.pathname().ok()?;
    Some(format!(
        "{path}{RECOVERED}#{}",
        attnlab_link::encode(&state)
    ))
}

/// The page's language, read from the document (`<html lang>`, kept by the app) or,
/// before the app set it, from the stored choice: the app's own state may be mid-update.
fn page_lang(window: &web_sys::Window, document: &web_sys::Document) -> Lang {
    let from_html = document
        .document_element()
        .and_then(|root| root.get_attribute("lang"))
        .and_then(|tag| Lang::parse(&tag));
    let stored = || {
        window
            .local_storage()
            .ok()
            .flatten()
            .and_then(|s| s.get_item(LANG_KEY).ok().flatten())
            .and_then(|code| Lang::parse(&code))
    };
    from_html.or_else(stored).unwrap_or_default()
}

/// Adds the banner (once) at the top of the page.
fn show(message: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    let lang = page_lang(&window, &document);
    if document.get_element_by_id("panic-banner").is_some() {
        return;
    }
    let build = || -> Option<web_sys::Element> {
        let banner = document.create_element("div").ok()?;
        banner.set_id("panic-banner");
        banner.set_class_name("panic-banner");
        banner.set_attribute("role", "alert").ok()?;
        banner.set_attribute("data-testid", "panic-banner").ok()?;
        let text = document.create_element("p").ok()?;
        text.set_text_content(Some(msg::shell::PANIC_STOPPED.get(lang)));
        let link = document.create_element("a").ok()?;
        link.set_attribute("data-testid", "panic-reload").ok()?;
        link.set_attribute(
            "href",
            &recovery_link(&window, &document).unwrap_or_else(|| RECOVERED.to_string()),
        )
        .ok()?;
        link.set_text_content(Some(msg::shell::PANIC_RELOAD.get(lang)));
        text.append_child(&link).ok()?;
        banner.append_child(&text).ok()?;
        let details = document.create_element("details").ok()?;
        let summary = document.create_element("summary").ok()?;
        summary.set_text_content(Some(msg::shell::PANIC_DETAILS.get(lang)));
        let code = document.create_element("pre").ok()?;
        code.set_attribute("translate", "no").ok()?;
        code.set_text_content(Some(message));
        details.append_child(&summary).ok()?;
        details.append_child(&code).ok()?;
        banner.append_child(&details).ok()?;
        Some(banner)
    };
    if let (Some(banner), Some(body)) = (build(), document.body()) {
        let _ = body.prepend_with_node_1(&banner);
    }
}

/// Removes the `?recovered` mark the banner's link put in the address.
pub fn forget_recovery_mark() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    if location.search().ok().as_deref() != Some(RECOVERED) {
        return;
    }
    let (Ok(path), Ok(hash)) = (location.pathname(), location.hash()) else {
        return;
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{hash}")),
        );
    }
}

/// The trigger of the browser test of this banner: in a build made with
/// `ATTNLAB_TEST_HOOKS=1` (`cargo xtask test` builds so), the event `attnlab:test-panic`
/// on the window panics. Other builds have no trigger.
pub fn listen_for_test_panic() {
    if option_env!("ATTNLAB_TEST_HOOKS").is_none() {
        return;
    }
    let handle = leptos::prelude::window_event_listener_untyped("attnlab:test-panic", |_| {
        panic!("the test panic (attnlab:test-panic)");
    });
    // The listener lives as long as the page.
    std::mem::forget(handle);
}
