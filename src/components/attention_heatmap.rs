use attnlab_plot::{CellMap, Heatmap};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::canvas_size::observe_size;
use crate::paint::{paint_heatmap_over, to_backing_pixels};
use crate::repaint::repaint_effect;
use crate::state::use_app_state;

/// A heatmap figure on a canvas, repainted by an effect whenever the figure or the
/// window changes (and only then). Pointing at a cell, or moving the keyboard focus
/// with the arrow keys, sets `hover`; a click (or Enter) on a cell calls `on_cell`.
#[component]
pub fn AttentionHeatmap(
    /// The figure to draw.
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// The cell under the pointer or the keyboard focus.
    hover: RwSignal<Option<(usize, usize)>>,
    /// `data-testid` of the canvas.
    #[prop(into)]
    testid: Signal<String>,
    /// `data-figure`: which figure this is (`head`, `average`, `difference`).
    #[prop(into)]
    kind: String,
    /// Called with a cell that is clicked or activated with Enter.
    #[prop(optional)]
    on_cell: Option<Callback<(usize, usize)>>,
) -> impl IntoView {
    let state = use_app_state();
    let canvas = NodeRef::<Canvas>::new();
    // Where the cells were painted, and the device pixels per CSS pixel of that paint.
    let cells = RwSignal::new((CellMap::EMPTY, 1.0));
    // The frame the canvas shows, so a change of values repaints only the values.
    let shown = StoredValue::new_local(None);
    let size = observe_size(canvas);

    // Effects are for syncing with the outside world: here, the canvas's pixels.
    repaint_effect(
        canvas,
        "a heatmap",
        move |el, dpr| {
            let known = size.get();
            shown
                .try_update_value(|shown| {
                    figure.with(|h| paint_heatmap_over(el, h.as_ref(), dpr, known, shown))
                })
                .unwrap_or_else(|| Err("the canvas's component is gone".into()))
        },
        move |map, dpr| cells.set((map.unwrap_or(CellMap::EMPTY), dpr)),
    );

    let set_hover = move |cell: Option<(usize, usize)>| {
        if hover.get_untracked() != cell {
            hover.set(cell);
        }
        if state.hover.get_untracked() != cell {
            state.hover.set(cell);
        }
    };
    let cell_at = move |ev: &PointerEvent| {
        let el = canvas.get_untracked()?;
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        cells.with_untracked(|(map, _)| map.cell_at(x, y))
    };
    let on_pointer = move |ev: PointerEvent| set_hover(cell_at(&ev));
    let on_click = move |ev: PointerEvent| {
        let cell = cell_at(&ev);
        set_hover(cell);
        if let (Some(cell), Some(cb)) = (cell, on_cell) {
            cb.run(cell);
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let (rows, cols) = cells.with_untracked(|(m, _)| (m.rows(), m.cols()));
        if rows == 0 || cols == 0 {
            return;
        }
        let (r, c) = hover.get_untracked().unwrap_or((0, 0));
        let next = match ev.key().as_str() {
            "ArrowUp" => (r.saturating_sub(1), c),
            "ArrowDown" => ((r + 1).min(rows - 1), c),
            "ArrowLeft" => (r, c.saturating_sub(1)),
            "ArrowRight" => (r, (c + 1).min(cols - 1)),
            "Home" => (r, 0),
            "End" => (r, cols - 1),
            "Enter" | " " => {
                ev.prevent_default();
                if let Some(cb) = on_cell {
                    cb.run((r.min(rows - 1), c.min(cols - 1)));
                }
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        set_hover(Some(next));
    };
    let on_focus = move |_| {
        if hover.get_untracked().is_none() && cells.with_untracked(|(m, _)| !m.is_empty()) {
            set_hover(Some((0, 0)));
        }
    };
    // A ring around the cell under the pointer, in CSS pixels over the canvas.
    let highlight = move || {
        let (row, col) = hover.get()?;
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
        figure.with(|h| match h {
            Some(h) => format!(
                "{}: {} query tokens (rows) by {} keys (columns). Arrow keys move between cells.",
                h.title(),
                h.n_rows(),
                h.n_cols(),
            ),
            None => "Heatmap (empty)".to_string(),
        })
    };

    let frame = format!("heatmap-frame figure-{kind}");
    view! {
        <div class=frame>
            <canvas
                node_ref=canvas
                class="heatmap"
                data-testid=move || testid.get()
                data-figure=kind
                tabindex="0"
                role="img"
                aria-label=label
                on:pointermove=on_pointer
                on:pointerdown=on_click
                on:keydown=on_key
                on:focus=on_focus
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
