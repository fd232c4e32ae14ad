//! A canvas's size as its `ResizeObserver` reports it: a paint reads it instead of asking
//! the page for the canvas's box, which would force a layout in the middle of an update
//! (the text read-outs change just before the canvases repaint). The observer also
//! repaints a canvas whose box changes without a window resize (a variant added beside
//! it, a scrollbar appearing).

use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{
    ResizeObserver, ResizeObserverBoxOptions, ResizeObserverEntry, ResizeObserverOptions,
    ResizeObserverSize,
};

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
/// removed.
pub fn observe_size(canvas: NodeRef<Canvas>) -> ObservedSize {
    let observed = ObservedSize {
        size: StoredValue::new(None),
        changed: Trigger::new(),
    };
    // The observer and its callback live as long as the component.
    let held = StoredValue::new_local(None::<(ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Some(entry) = entries.get(0).dyn_into::<ResizeObserverEntry>().ok() else {
                return;
            };
            let Some(size) = entry
                .border_box_size()
                .get(0)
                .dyn_into::<ResizeObserverSize>()
                .ok()
            else {
                return;
            };
            let now = Some((size.inline_size(), size.block_size()));
            if observed.size.get_value() != now {
                observed.size.set_value(now);
                observed.changed.notify();
            }
        });
        let Ok(observer) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else {
            return;
        };
        let options = ResizeObserverOptions::new();
        options.set_box(ResizeObserverBoxOptions::BorderBox);
        observer.observe_with_options(&el, &options);
        held.update_value(|h| {
            if let Some((old, _)) = h.take() {
                old.disconnect();
            }
            *h = Some((observer, on_resize));
        });
    });
    on_cleanup(move || {
        held.try_update_value(|h| {
            if let Some((observer, _)) = h.take() {
                observer.disconnect();
            }
        });
    });
    observed
}
