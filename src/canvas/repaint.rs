//! The effect every canvas component repaints with.

use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;
use leptos_use_device_pixel_ratio::use_device_pixel_ratio;
use web_sys::HtmlCanvasElement;

/// Paints `canvas` once it is mounted, and again whenever the display's
/// `devicePixelRatio` changes (the page is zoomed, or moved to another screen) or anything
/// `paint` reads changes — every canvas reads its observed size
/// ([`observe_size`](super::observe_size)), so a resize repaints it. `paint` gets the
/// element and the device pixels per CSS pixel; `done` gets its result — `None` when it
/// failed, which is logged as "attnlab: {what} could not be drawn" — and the same ratio.
pub fn repaint_effect<T: 'static>(
    canvas: NodeRef<Canvas>,
    what: &'static str,
    paint: impl Fn(&HtmlCanvasElement, f64) -> Result<T, String> + 'static,
    done: impl Fn(Option<T>, f64) + 'static,
) {
    let dpr = use_device_pixel_ratio();
    Effect::new(move |_| {
        let dpr = match dpr.get() {
            r if r.is_finite() && r > 0.0 => r,
            _ => 1.0,
        };
        let Some(el) = canvas.get() else { return };
        let painted = paint(&el, dpr);
        if let Err(e) = &painted {
            logging::warn!("attnlab: {what} could not be drawn: {e}");
        }
        done(painted.ok(), dpr);
    });
}
