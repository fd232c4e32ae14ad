//! # attnlab-web
//!
//! The attnlab app: Leptos (client-side rendering) on WebAssembly. A sentence goes in,
//! every variant's heads come out, side by side.
//!
//! - `attnlab_lab` (crate `crates/attnlab-lab`): the domain model in plain Rust — the
//!   state, its rules and URL fragment, tokens → attention → figure — shared with the CLI;
//! - [`state`]: the one `AppState` of signals and memos, provided via context;
//! - [`components`]: one component per file, no maths;
//! - [`paint`] and [`viewport`]: the canvas plumbing (device pixels, resizing).
//!
//! Canvas drawing happens only in an `Effect` reading the heatmap memo.

mod blit_canvas;
mod canvas_size;
mod components;
mod paint;
mod repaint;
mod state;
mod viewport;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(components::App);
}
