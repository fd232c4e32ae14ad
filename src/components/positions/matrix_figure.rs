use attnlab_plot::{CellMap, Heatmap, format_value};
use leptos::ev::PointerEvent;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::paint::{paint_heatmap, to_backing_pixels};
use crate::repaint::repaint_effect;

/// A matrix that is not attention weights (position vectors, their dot products) on a
/// canvas, repainted when the figure or the window changes. Pointing at a cell reads it
/// out below the canvas (without touching the lab's token hover: its rows and columns
/// are positions and dimensions, not query and key tokens).
#[component]
pub fn MatrixFigure(
    /// The figure to draw.
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// `data-testid` of the canvas.
    #[prop(into)]
    testid: String,
    /// Height of the canvas as a multiple of its width, clamped by the CSS.
    #[prop(into)]
    aspect: Signal<f64>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let cells = RwSignal::new(CellMap::EMPTY);
    let hover = RwSignal::new(None::<(usize, usize)>);

    repaint_effect(
        canvas,
        "a figure",
        move |el, dpr| {
            let _ = aspect.get();
            let painted = figure.with(|h| paint_heatmap(el, h.as_ref(), dpr));
            let (rows, cols) =
                figure.with(|h| h.as_ref().map_or((0, 0), |h| (h.n_rows(), h.n_cols())));
            let _ = el.set_attribute("data-rows", &rows.to_string());
            let _ = el.set_attribute("data-cols", &cols.to_string());
            painted
        },
        move |map, _| cells.set(map.unwrap_or(CellMap::EMPTY)),
    );

    let on_move = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        hover.set(cells.with_untracked(|m| m.cell_at(x, y)));
    };
    let reading = move || {
        let (r, c) = hover.get()?;
        figure.with(|h| {
            let h = h.as_ref()?;
            let v = h.value(r, c)?;
            Some(format!(
                "{} {}, {} {}: {}",
                h.row_axis(),
                h.row_labels().get(r)?,
                h.col_axis(),
                h.col_labels().get(c)?,
                format_value(v, 3)
            ))
        })
    };
    let label = move || {
        figure.with(|h| match h {
            Some(h) => format!(
                "{}: {} rows by {} columns.",
                h.title(),
                h.n_rows(),
                h.n_cols()
            ),
            None => "Figure (empty)".to_string(),
        })
    };
    view! {
        <div class="matrix-figure">
            <canvas node_ref=canvas class="matrix-canvas" data-testid=testid role="img"
                style=move || format!("aspect-ratio: 1 / {:.3}", aspect.get())
                aria-label=label
                on:pointermove=on_move
                on:pointerleave=move |_| hover.set(None)></canvas>
            <p class="matrix-reading" aria-live="off">{move || reading().unwrap_or_else(|| "Point at a cell to read it.".into())}</p>
        </div>
    }
}
