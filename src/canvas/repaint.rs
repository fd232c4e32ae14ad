//! The effect every canvas component repaints with.

use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;
use leptos_use_device_pixel_ratio::use_device_pixel_ratio;
use web_sys::HtmlCanvasElement;

use super::canvas_size::observe_size;

/// Paints `canvas` once it is mounted, and again whenever its box changes size (observed
/// by [`observe_size`]), the display's `devicePixelRatio` changes (the page is zoomed,
/// or moved to another screen), the look (presentation mode, the palette) or anything
/// `paint` reads changes. `paint` gets the
/// element, the device pixels per CSS pixel and the box's CSS size as last observed
/// (nothing is painted before the first observation). `done` gets its result — `None` when it
/// failed, which is logged as "attnlab: {what} could not be drawn" — and the same ratio.
pub fn repaint_effect<T: 'static>(
    canvas: NodeRef<Canvas>,
    what: &'static str,
    paint: impl Fn(&HtmlCanvasElement, f64, Option<(f64, f64)>) -> Result<T, String> + 'static,
    done: impl Fn(Option<T>, f64) + 'static,
) {
    let dpr = use_device_pixel_ratio();
    let size = observe_size(canvas);
    let display = crate::display::use_display();
    Effect::new(move |_| {
        attnlab_paint::set_look(attnlab_paint::Look {
            figure_scale: display.figure_scale(),
            palette: display.palette.get(),
        });
        let dpr = match dpr.get() {
            r if r.is_finite() && r > 0.0 => r,
            _ => 1.0,
        };
        let Some(el) = canvas.get() else { return };
        // Before the observer's first report the box is unknown, and measuring it would
        // force a layout of the page while it is still being built (on a first load,
        // one for every canvas: a sixth of the time to the first heatmap). The report
        // comes before the frame is drawn, and this effect runs again with it.
        let Some(known) = size.get() else { return };
        let painted = paint(&el, dpr, Some(known));
        if let Err(e) = &painted {
            logging::warn!("attnlab: {what} could not be drawn: {e}");
        }
        done(painted.ok(), dpr);
    });
}
