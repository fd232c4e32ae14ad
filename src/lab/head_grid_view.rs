use attnlab_i18n::msg;
use attnlab_plot::{HeadGrid, HeadGridMap, Heatmap};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use super::CellInfo;
use crate::canvas::{ExportMenu, Exported, Grid, repaint_effect};
use crate::i18n::{text, use_lang};
use crate::state::{LabFields, ViewFields, use_app_state};
use attnlab_paint::{paint_grid, to_backing_pixels};

/// Every head of a variant as small multiples on one colour scale; the selected head is
/// outlined. Clicking a head (or Left/Right on the focused grid) selects it in every
/// variant.
#[component]
pub fn HeadGridView(
    /// One figure per head.
    #[prop(into)]
    heads: Signal<Vec<Heatmap>>,
    /// What the exported files are called after.
    #[prop(into)]
    title: Signal<String>,
    /// The prefix of the Export menu's test ids (the first variant's is `head-grid`).
    #[prop(into)]
    export_testid: Signal<String>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let canvas = NodeRef::<Canvas>::new();
    let tiles = StoredValue::new(None::<HeadGridMap>);
    // The frame the canvas shows, so a change of values repaints only the cells.
    let shown = StoredValue::new_local(None);
    let selected = Memo::new(move |_| state.shown_head());

    repaint_effect(
        canvas,
        "the head grid",
        move |el, dpr, known| {
            let sel = selected.get();
            shown
                .try_update_value(|shown| {
                    heads.with(|h| {
                        let grid = HeadGrid::new(h).with_selected(sel);
                        paint_grid(el, &grid, dpr, known, shown)
                    })
                })
                .unwrap_or_else(|| Err("the canvas's component is gone".into()))
        },
        move |map, _| tiles.set_value(map.flatten()),
    );
    let on_click = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        if let Some(h) = tiles.with_value(|t| t.as_ref().and_then(|t| t.head_at(x, y))) {
            state.lab.view().head().set(h);
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let n = heads.with_untracked(Vec::len);
        if n == 0 {
            return;
        }
        let h = selected.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowLeft" | "ArrowUp" => h.saturating_sub(1),
            "ArrowRight" | "ArrowDown" => (h + 1).min(n - 1),
            _ => return,
        };
        ev.prevent_default();
        state.lab.view().head().set(next);
    };
    // The cell under the pointer: (head, query row, key column).
    let hover = RwSignal::new(None::<(usize, usize, usize)>);
    let on_move = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        let at = tiles.with_value(|t| t.as_ref().and_then(|t| t.cell_at(x, y)));
        if hover.get_untracked() != at {
            hover.set(at);
            state.hover.set(at.map(|(_, i, j)| (i, j)));
        }
    };
    let on_leave = move |_: PointerEvent| {
        hover.set(None);
        state.hover.set(None);
    };
    let hovered_figure = Signal::derive(move || {
        hover
            .get()
            .and_then(|(h, _, _)| heads.with(|f| f.get(h).cloned()))
    });
    let hovered_cell = Signal::derive(move || hover.get().map(|(_, i, j)| (i, j)));
    let hovered_head = Signal::derive(move || {
        hover
            .get()
            .map(|(h, _, _)| msg::lab::HeadGridHovered { head: &h }.say(lang.get()))
            .unwrap_or_default()
    });
    let rows = move || {
        let n = heads.with(Vec::len).max(1);
        n.div_ceil(4)
    };
    let exported = Signal::derive(move || {
        let heads = heads.get();
        (!heads.is_empty()).then(|| {
            Exported::Grid(Grid {
                title: title.get(),
                labels: (0..heads.len())
                    .map(|h| msg::lab::HeadGridTile { head: &h }.say(lang.get()))
                    .collect(),
                heads,
                columns: None,
                selected: selected.get(),
            })
        })
    });
    view! {
        <canvas node_ref=canvas class="head-grid" data-testid="head-grid" data-figure="grid"
            tabindex="0" role="img"
            style=move || format!("aspect-ratio: {} / {};", 4.6, 1.05 * rows() as f64 + 0.3)
            aria-label=move || {
                let (n, h) = (heads.with(Vec::len), selected.get());
                msg::lab::HeadGridLabel { heads: &n, head: &h }.say(lang.get())
            }
            on:pointerdown=on_click
            on:pointermove=on_move
            on:pointerleave=on_leave
            on:keydown=on_key
        ></canvas>
        <ExportMenu figure=exported canvas=canvas testid=export_testid tensors=None command=None/>
        <CellInfo figure=hovered_figure cell=hovered_cell prefix=hovered_head row_sums=true
            idle=text(msg::lab::HEAD_GRID_IDLE)/>
    }
}
