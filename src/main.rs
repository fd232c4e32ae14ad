//! # attnlab-web
//!
//! The attnlab app: Leptos (client-side rendering) on WebAssembly. A sentence goes in,
//! every variant's heads come out, side by side.
//!
//! - `attnlab_lab` (crate `crates/attnlab-lab`): the domain model in plain Rust — the
//!   state, its rules and URL fragment, tokens → attention → figure — shared with the CLI;
//! - [`state`]: the one `AppState` of signals and memos, provided via context;
//! - [`canvas`]: the one heatmap canvas and the one line-chart canvas every view uses,
//!   and when they repaint (their figure, their box, the window); `attnlab_paint` paints;
//! - [`shell`]: the page around the views (header, tabs, sidebar, notices);
//! - [`lab`]: the lab page (the variants side by side, the comparison);
//! - [`pages`]: the explanatory pages, one folder each;
//! - [`lessons`]: the lesson player (the list, the lesson bar, the pointer, predict steps);
//! - [`model`]: the real (pretrained) model's session;
//! - [`widgets`]: knobs and pickers the pages share;
//! - `attnlab_workers`: the page's handles on its Web Workers (model, timing, brought files).
//!
//! Components hold no maths; canvas drawing happens only in an `Effect` reading a memo.

mod canvas;
mod display;
mod i18n;
mod lab;
mod lessons;
mod model;
mod neuron;
mod pages;
mod shell;
mod state;
mod widgets;

fn main() {
    shell::panic_banner::install();
    shell::panic_banner::forget_recovery_mark();
    leptos::mount::mount_to_body(shell::App);
    shell::panic_banner::listen_for_test_panic();
    register_service_worker();
}

/// Registers `sw.js` (built from `web/sw.js`), which keeps the app for offline use, where
/// the page can have one (served over http(s), not opened as a file).
fn register_service_worker() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let served = window
        .location()
        .protocol()
        .is_ok_and(|p| p == "http:" || p == "https:");
    let navigator = window.navigator();
    let has_workers = js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false);
    if served && has_workers {
        // A refusal (e.g. a private window) leaves the app working online only.
        let _ = navigator.service_worker().register("./sw.js");
    }
}
