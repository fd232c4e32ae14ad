//! The effect every canvas component repaints with.

use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

use super::viewport::use_viewport;

/// Paints `canvas` once it is mounted, and again whenever the window changes (size or
/// zoom, i.e. `devicePixelRatio`) or anything `paint` reads changes. `paint` gets the
/// element and the device pixels per CSS pixel; `done` gets its result — `None` when it
/// failed, which is logged as "attnlab: {what} could not be drawn" — and the same ratio.
pub fn repaint_effect<T: 'static>(
    canvas: NodeRef<Canvas>,
    what: &'static str,
    paint: impl Fn(&HtmlCanvasElement, f64) -> Result<T, String> + 'static,
    done: impl Fn(Option<T>, f64) + 'static,
) {
    let viewport = use_viewport();
    Effect::new(move |_| {
        let dpr = viewport.get().dpr;
        let Some(el) = canvas.get() else { return };
        let painted = paint(&el, dpr);
        if let Err(e) = &painted {
            logging::warn!("attnlab: {what} could not be drawn: {e}");
        }
        done(painted.ok(), dpr);
    });
}
