//! The browser window as a signal, so drawings can follow resizes and zoom.

use leptos::ev;
use leptos::prelude::*;

/// The window's size in CSS pixels and its device pixel ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// `innerWidth`.
    pub width: f64,
    /// `innerHeight`.
    pub height: f64,
    /// `devicePixelRatio`: device pixels per CSS pixel (2 on most laptops' screens).
    pub dpr: f64,
}

impl Viewport {
    /// Reads the window now (1 × 1 at ratio 1 outside a browser window).
    pub fn read() -> Viewport {
        let Some(w) = web_sys::window() else {
            return Viewport {
                width: 1.0,
                height: 1.0,
                dpr: 1.0,
            };
        };
        let px =
            |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64()).unwrap_or(1.0);
        let dpr = w.device_pixel_ratio();
        Viewport {
            width: px(w.inner_width()),
            height: px(w.inner_height()),
            dpr: if dpr.is_finite() && dpr > 0.0 {
                dpr
            } else {
                1.0
            },
        }
    }
}

/// The viewport, updated on every window `resize` (which browsers also fire when the
/// page is zoomed, i.e. when `devicePixelRatio` changes). The listener is removed when
/// the calling component is.
pub fn use_viewport() -> ReadSignal<Viewport> {
    let (viewport, set_viewport) = signal(Viewport::read());
    let handle = window_event_listener(ev::resize, move |_| {
        let now = Viewport::read();
        if viewport.get_untracked() != now {
            set_viewport.set(now);
        }
    });
    on_cleanup(move || handle.remove());
    viewport
}
