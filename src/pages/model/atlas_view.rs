use attnlab_i18n::msg;
use attnlab_plot::{HeadGrid, HeadGridMap, Heatmap};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::canvas::{ExportMenu, Exported, Grid, repaint_effect};
use crate::i18n::use_lang;
use crate::lab::CellInfo;
use attnlab_paint::{paint_grid, to_backing_pixels};

/// Every head of every layer as small multiples, one row per layer, on one colour
/// scale; the selected head is outlined. A click (or the arrow keys: Left/Right for the
/// head, Up/Down for the layer) calls `on_pick` with `(layer, head)`.
#[component]
pub fn AtlasView(
    /// One figure per head, layer-major.
    #[prop(into)]
    tiles: Signal<Vec<Heatmap>>,
    /// Each tile's title.
    #[prop(into)]
    titles: Signal<Vec<String>>,
    /// Heads per layer (the columns).
    #[prop(into)]
    heads: Signal<usize>,
    /// The selected `(layer, head)`.
    #[prop(into)]
    selected: Signal<(usize, usize)>,
    /// Called with the `(layer, head)` picked.
    on_pick: Callback<(usize, usize)>,
    /// Called, after `on_pick`, with the `(row, column)` of the tile's cell clicked.
    #[prop(optional)]
    on_cell: Option<Callback<(usize, usize)>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let lang = use_lang();
    let map = StoredValue::new(None::<HeadGridMap>);
    let shown = StoredValue::new_local(None);
    let index = move || {
        let (l, h) = selected.get();
        l * heads.get() + h
    };
    repaint_effect(
        canvas,
        "the atlas",
        move |el, dpr, known| {
            let sel = index();
            let width = known.map_or_else(|| f64::from(el.client_width()), |(w, _)| w);
            let columns = atlas_columns(heads.get(), width);
            shown
                .try_update_value(|shown| {
                    tiles.with(|t| {
                        titles.with(|titles| {
                            let grid = HeadGrid::new(t)
                                .with_selected(sel)
                                .with_columns(columns)
                                .with_tile_titles(titles);
                            paint_grid(el, &grid, dpr, known, shown)
                        })
                    })
                })
                .unwrap_or_else(|| Err("the canvas's component is gone".into()))
        },
        move |m, _| map.set_value(m.flatten()),
    );
    let pick = move |i: usize| {
        let per = heads.get_untracked().max(1);
        on_pick.run((i / per, i % per));
    };
    let on_click = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        if let Some(i) = map.with_value(|m| m.as_ref().and_then(|m| m.head_at(x, y))) {
            pick(i);
        }
        let cell = map.with_value(|m| m.as_ref().and_then(|m| m.cell_at(x, y)));
        if let (Some(on_cell), Some((_, i, j))) = (on_cell, cell) {
            on_cell.run((i, j));
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let count = tiles.with_untracked(Vec::len);
        let per = heads.get_untracked().max(1);
        if count == 0 {
            return;
        }
        let i = index();
        let next = match ev.key().as_str() {
            "ArrowLeft" => i.saturating_sub(1),
            "ArrowRight" => (i + 1).min(count - 1),
            "ArrowUp" => i.saturating_sub(per),
            "ArrowDown" => (i + per).min(count - 1),
            _ => return,
        };
        ev.prevent_default();
        pick(next);
    };
    let hover = RwSignal::new(None::<(usize, usize, usize)>);
    let on_move = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        let at = map.with_value(|m| m.as_ref().and_then(|m| m.cell_at(x, y)));
        if hover.get_untracked() != at {
            hover.set(at);
        }
    };
    let hovered_figure = Signal::derive(move || {
        hover
            .get()
            .and_then(|(i, _, _)| tiles.with(|t| t.get(i).cloned()))
    });
    let hovered_cell = Signal::derive(move || hover.get().map(|(_, i, j)| (i, j)));
    let hovered_head = Signal::derive(move || {
        hover
            .get()
            .and_then(|(i, _, _)| titles.with(|t| t.get(i).map(|t| format!("{t}: "))))
            .unwrap_or_default()
    });
    let rows = move || {
        let per = heads.get().max(1);
        tiles.with(Vec::len).div_ceil(per).max(1)
    };
    let exported = Signal::derive(move || {
        let tiles = tiles.get();
        (!tiles.is_empty()).then(|| {
            Exported::Grid(Grid {
                title: msg::model_page::MODEL_ATLAS_EXPORT_TITLE
                    .get(lang.get())
                    .into(),
                labels: titles.get(),
                heads: tiles,
                columns: Some(heads.get()),
                selected: index(),
            })
        })
    });
    view! {
        <canvas node_ref=canvas class="atlas" data-testid="atlas" data-figure="atlas"
            data-heads=move || tiles.with(Vec::len).to_string() tabindex="0" role="img"
            style=move || format!("--atlas-layers: {}", rows())
            aria-label=move || {
                let (l, h) = selected.get();
                msg::model_page::ModelAtlasAria { layer: &l, head: &h }.say(lang.get())
            }
            on:pointerdown=on_click
            on:pointermove=on_move
            on:pointerleave=move |_| hover.set(None)
            on:keydown=on_key
        ></canvas>
        <ExportMenu figure=exported canvas=canvas testid="atlas" tensors=None command=None/>
        {move || {
            let idle = msg::model_page::MODEL_ATLAS_IDLE.get(lang.get());
            view! { <CellInfo figure=hovered_figure cell=hovered_cell prefix=hovered_head idle=idle/> }
        }}
    }
}

/// Below this width (CSS pixels, a phone) a layer's heads take two rows of tiles, so each
/// tile stays large enough to read and to tap (style/phone.css doubles the height).
const NARROW_ATLAS: f64 = 500.0;

/// Tiles per row: a layer's heads, or half of them on a narrow canvas.
fn atlas_columns(heads: usize, width: f64) -> usize {
    if width < NARROW_ATLAS {
        heads.div_ceil(2)
    } else {
        heads
    }
}

#[cfg(test)]
mod tests {
    use super::atlas_columns;

    #[test]
    fn a_phone_lays_a_layer_on_two_rows() {
        assert_eq!(atlas_columns(12, 1000.0), 12);
        assert_eq!(atlas_columns(12, 386.0), 6);
        assert_eq!(atlas_columns(1, 386.0), 1);
    }
}
