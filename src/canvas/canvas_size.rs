//! A canvas's size as its `ResizeObserver` reports it: a paint reads it instead of asking
//! the page for the canvas's box, which would force a layout in the middle of an update
//! (the text read-outs change just before the canvases repaint). The observer also
//! repaints a canvas whose box changes without a window resize (a variant added beside
//! it, a scrollbar appearing), but not one whose paint already sized it: a heatmap that
//! sets its own height to its figure's (the difference's legend grows a digit) has
//! measured and painted the new box, and its backing store is that box's size.

use leptos::html::Canvas;
use leptos::prelude::*;
use leptos_use_resize_observer::{UseResizeObserverOptions, use_resize_observer_with_options};
use web_sys::{ResizeObserverBoxOptions, ResizeObserverSize};

/// The border-box size (CSS pixels) of a canvas as last observed, and a trigger that
/// fires when it changes.
#[derive(Clone, Copy)]
pub struct ObservedSize {
    size: StoredValue<Option<(f64, f64)>>,
    changed: Trigger,
}

impl ObservedSize {
    /// The last observed size, or `None` before the first observation. Tracks changes.
    pub fn get(&self) -> Option<(f64, f64)> {
        self.changed.track();
        self.size.get_value()
    }
}

/// Observes `canvas`'s border box from when it is mounted until the calling component is
/// removed (leptos-use's `ResizeObserver` wrapper connects and disconnects it).
pub fn observe_size(canvas: NodeRef<Canvas>) -> ObservedSize {
    let observed = ObservedSize {
        size: StoredValue::new(None),
        changed: Trigger::new(),
    };
    use_resize_observer_with_options(
        canvas,
        move |entries, _| {
            let Some(size) = entries.first().and_then(|entry| {
                use wasm_bindgen::JsCast;
                entry
                    .border_box_size()
                    .get(0)
                    .dyn_into::<ResizeObserverSize>()
                    .ok()
            }) else {
                return;
            };
            let (w, h) = (size.inline_size(), size.block_size());
            let now = Some((w, h));
            let before = observed.size.get_value();
            if before == now {
                return;
            }
            observed.size.set_value(now);
            if before.is_none() || !painted_at(canvas, (w, h)) {
                observed.changed.notify();
            }
        },
        UseResizeObserverOptions::default().box_(ResizeObserverBoxOptions::BorderBox),
    );
    observed
}

/// Whether the canvas's backing store already has the size a paint gives a box of `css`
/// CSS pixels (see `attnlab_paint::fit`): the paint that changed the box measured it and drew
/// for it, so painting again would draw the same pixels a frame later.
fn painted_at(canvas: NodeRef<Canvas>, (w, h): (f64, f64)) -> bool {
    let Some(el) = canvas.get_untracked() else {
        return false;
    };
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    let (bw, bh) = (
        attnlab_paint::backing(w, dpr),
        attnlab_paint::backing(h, dpr),
    );
    el.width() == bw && el.height() == bh && bw > 0 && bh > 0
}
