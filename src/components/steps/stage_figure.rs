use attnlab_plot::{CellMap, Heatmap};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::paint::{paint_heatmap, to_backing_pixels};
use crate::repaint::repaint_effect;

/// One stage's matrix on a canvas, the selected row outlined. A click on a row (or
/// ArrowUp/ArrowDown while the canvas has focus) selects it, when the rows are the
/// queries (`selectable`).
#[component]
pub fn StageFigure(
    /// The figure to draw.
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// The outlined row, if any.
    #[prop(into)]
    row: Signal<Option<usize>>,
    /// Called with a row picked by click or keyboard (only when the rows are queries).
    on_row: Callback<usize>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let cells = RwSignal::new((CellMap::EMPTY, 1.0));

    repaint_effect(
        canvas,
        "a stage",
        move |el, dpr| figure.with(|h| paint_heatmap(el, h.as_ref(), dpr)),
        move |map, dpr| cells.set((map.unwrap_or(CellMap::EMPTY), dpr)),
    );

    let on_click = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        let hit = cells.with_untracked(|(map, _)| map.cell_at(x, y));
        if let (Some((r, _)), Some(_)) = (hit, row.get_untracked()) {
            on_row.run(r);
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let (Some(r), rows) = (row.get_untracked(), cells.with_untracked(|(m, _)| m.rows())) else {
            return;
        };
        let next = match ev.key().as_str() {
            "ArrowUp" => r.saturating_sub(1),
            "ArrowDown" => (r + 1).min(rows.saturating_sub(1)),
            _ => return,
        };
        ev.prevent_default();
        on_row.run(next);
    };
    // An outline around the selected row, in CSS pixels over the canvas.
    let outline = move || {
        let r = row.get()?;
        let (map, dpr) = cells.get();
        if map.cols() == 0 {
            return None;
        }
        let ((x0, y0), _) = map.cell_bounds(r, 0)?;
        let (_, (x1, y1)) = map.cell_bounds(r, map.cols() - 1)?;
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
                "{}: {} rows by {} columns. Click a row, or use ArrowUp and ArrowDown, to pick the query.",
                h.title(),
                h.n_rows(),
                h.n_cols()
            ),
            None => "Stage (empty)".to_string(),
        })
    };
    view! {
        <div class="heatmap-frame steps-frame">
            <canvas node_ref=canvas class="heatmap steps-canvas" data-testid="steps-canvas"
                tabindex="0" role="img" aria-label=label
                on:pointerdown=on_click on:keydown=on_key></canvas>
            {move || outline().map(|style| view! {
                <div class="row-highlight" data-testid="steps-row-highlight" aria-hidden="true" style=style></div>
            })}
        </div>
    }
}
