use attnlab_plot::CellMap;
use leptos::ev::PointerEvent;
use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;

use crate::paint::{paint_heatmap, to_backing_pixels};
use crate::state::use_app_state;
use crate::viewport::use_viewport;

/// The heatmap of the selected head on a canvas, repainted by an effect whenever the
/// figure or the window changes; pointing at a cell sets the hover signal.
#[component]
pub fn AttentionHeatmap() -> impl IntoView {
    let state = use_app_state();
    let viewport = use_viewport();
    let canvas = NodeRef::<Canvas>::new();
    // Where the cells were painted, and the device pixels per CSS pixel of that paint.
    let cells = RwSignal::new((CellMap::EMPTY, 1.0));

    // Effects are for syncing with the outside world: here, the canvas's pixels.
    Effect::new(move |_| {
        let dpr = viewport.get().dpr;
        let Some(canvas) = canvas.get() else { return };
        let painted = state
            .heatmap
            .with(|h| paint_heatmap(&canvas, h.as_ref(), dpr));
        match painted {
            Ok(map) => cells.set((map, dpr)),
            Err(e) => {
                cells.set((CellMap::EMPTY, dpr));
                logging::warn!("attnlab: the heatmap could not be drawn: {e}");
            }
        }
    });

    let set_hover = move |cell: Option<(usize, usize)>| {
        if state.hover.get_untracked() != cell {
            state.hover.set(cell);
        }
    };
    let on_pointer = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        set_hover(cells.with_untracked(|(map, _)| map.cell_at(x, y)));
    };
    // A ring around the cell under the pointer, in CSS pixels over the canvas.
    let highlight = move || {
        let (row, col) = state.hover.get()?;
        let (map, dpr) = cells.get();
        let ((x0, y0), (x1, y1)) = map.cell_bounds(row, col)?;
        let css = |v: i32| v as f64 / dpr;
        Some(format!(
            "left: {:.1}px; top: {:.1}px; width: {:.1}px; height: {:.1}px;",
            css(x0),
            css(y0),
            css(x1 - x0),
            css(y1 - y0)
        ))
    };
    let label = move || {
        state.heatmap.with(|h| match h {
            Some(h) => format!(
                "Attention heatmap: {} query tokens (rows) by {} key tokens (columns). {}",
                h.n_rows(),
                h.n_cols(),
                h.title()
            ),
            None => "Attention heatmap (empty)".to_string(),
        })
    };

    view! {
        <div class="heatmap-frame">
            <canvas
                node_ref=canvas
                class="heatmap"
                data-testid="heatmap"
                role="img"
                aria-label=label
                on:pointermove=on_pointer
                on:pointerdown=on_pointer
                on:pointerleave=move |ev: PointerEvent| {
                    // A finger lifted off a touch screen leaves too: keep its reading.
                    if ev.pointer_type() != "touch" {
                        set_hover(None);
                    }
                }
            ></canvas>
            {move || highlight().map(|style| view! { <div class="cell-highlight" aria-hidden="true" style=style></div> })}
        </div>
    }
}
