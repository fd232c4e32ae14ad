use attnlab_plot::{CellMap, Heatmap, number};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use super::export::{ExportMenu, Exported, FileMaker};
use super::paint::{paint_heatmap_over, to_backing_pixels};
use super::repaint::repaint_effect;
use crate::i18n::Lang;
use crate::state::use_app_state;

/// What pointing at a [`HeatmapCanvas`] (or moving its keyboard focus) does.
#[derive(Clone, Copy)]
pub enum Pointing {
    /// Nothing: the figure is only shown.
    Nothing,
    /// Attention weights, rows are query tokens and columns key tokens: the cell under
    /// the pointer or the keyboard focus (arrow keys, Home, End) is `hover`, also the
    /// lab's token hover, ringed on the canvas; a click or Enter calls `on_cell`.
    Cells {
        /// The cell under the pointer or the keyboard focus.
        hover: RwSignal<Option<(usize, usize)>>,
        /// Called with a cell that is clicked or activated with Enter.
        on_cell: Option<Callback<(usize, usize)>>,
    },
    /// The rows are query tokens to pick from: `row` is outlined; a click on a row, or
    /// ArrowUp/ArrowDown, calls `on_row`.
    Rows {
        /// The outlined row (`None`: no row can be picked in this figure).
        row: Signal<Option<usize>>,
        /// Called with the row picked.
        on_row: Callback<usize>,
    },
    /// Not attention weights (positions, dimensions): the value under the pointer is
    /// read out under the canvas.
    Reading,
}

/// Any [`Heatmap`] on a canvas: painted at the display's resolution at its natural
/// height for the width its container gives it, repainted (values only, while the frame
/// is unchanged) when the figure, the container's size or the window changes. After each
/// paint the canvas carries what was painted: `data-rendered-tokens` and `data-rows`
/// (rows), `data-cols` (columns); and `data-figure`, which figure it is.
#[component]
pub fn HeatmapCanvas(
    /// The figure to draw (nothing is drawn for `None`).
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// `data-testid` of the canvas.
    #[prop(into)]
    testid: Signal<String>,
    /// `data-figure`: which figure this is (`head`, `average`, `difference`, `steps`, …);
    /// an outlined row is `{kind}-row-highlight`.
    #[prop(into)]
    kind: String,
    /// What pointing at the canvas does.
    pointing: Pointing,
    /// Extra CSS classes of the canvas (its shape on the page).
    #[prop(optional, into)]
    class: String,
    /// The input behind the figure as an `attnlab-tensors/1` file, when it has one.
    #[prop(optional)]
    tensors: Option<FileMaker>,
    /// The `attnlab render` command that draws the same figure, when there is one.
    #[prop(optional, into)]
    command: Option<Signal<String>>,
) -> impl IntoView {
    let state = use_app_state();
    let canvas = NodeRef::<Canvas>::new();
    // Where the cells were painted, and the device pixels per CSS pixel of that paint.
    let cells = RwSignal::new((CellMap::EMPTY, 1.0));
    // The frame the canvas shows, so a change of values repaints only the values.
    let shown = StoredValue::new_local(None);

    // Effects are for syncing with the outside world: here, the canvas's pixels.
    repaint_effect(
        canvas,
        "a heatmap",
        move |el, dpr, known| {
            shown
                .try_update_value(|shown| {
                    figure.with(|h| paint_heatmap_over(el, h.as_ref(), dpr, known, shown))
                })
                .unwrap_or_else(|| Err("the canvas's component is gone".into()))
        },
        move |map, dpr| cells.set((map.unwrap_or(CellMap::EMPTY), dpr)),
    );

    let cell_at = move |ev: &PointerEvent| {
        let el = canvas.get_untracked()?;
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        cells.with_untracked(|(map, _)| map.cell_at(x, y))
    };
    let label_row_at = move |ev: &PointerEvent| {
        let el = canvas.get_untracked()?;
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        cells.with_untracked(|(map, _)| map.label_row_at(x, y))
    };
    // The cell read out under the canvas (`Pointing::Reading`).
    let reading_cell = RwSignal::new(None::<(usize, usize)>);
    let set_hover = move |cell: Option<(usize, usize)>| {
        if let Pointing::Cells { hover, .. } = pointing {
            if hover.get_untracked() != cell {
                hover.set(cell);
            }
            if state.hover.get_untracked() != cell {
                state.hover.set(cell);
            }
        }
    };

    let on_move = move |ev: PointerEvent| match pointing {
        Pointing::Cells { .. } => set_hover(cell_at(&ev)),
        Pointing::Reading => reading_cell.set(cell_at(&ev)),
        Pointing::Nothing | Pointing::Rows { .. } => {}
    };
    let on_down = move |ev: PointerEvent| match pointing {
        Pointing::Cells { on_cell, .. } => {
            let cell = cell_at(&ev);
            set_hover(cell);
            if let (Some(cell), Some(cb)) = (cell, on_cell) {
                cb.run(cell);
            }
        }
        Pointing::Rows { row, on_row } => {
            // A cell of the row, or the row's token on the left.
            let r = cell_at(&ev).map(|(r, _)| r).or_else(|| label_row_at(&ev));
            if let (Some(r), Some(_)) = (r, row.get_untracked()) {
                on_row.run(r);
            }
        }
        Pointing::Reading => reading_cell.set(cell_at(&ev)),
        Pointing::Nothing => {}
    };
    let on_leave = move |ev: PointerEvent| match pointing {
        // A finger lifted off a touch screen leaves too: keep its reading.
        Pointing::Cells { .. } if ev.pointer_type() != "touch" => set_hover(None),
        Pointing::Reading => reading_cell.set(None),
        _ => {}
    };
    let on_key = move |ev: KeyboardEvent| {
        let (rows, cols) = cells.with_untracked(|(m, _)| (m.rows(), m.cols()));
        if rows == 0 || cols == 0 {
            return;
        }
        match pointing {
            Pointing::Cells { hover, on_cell } => {
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
            }
            Pointing::Rows { row, on_row } => {
                let Some(r) = row.get_untracked() else { return };
                let next = match ev.key().as_str() {
                    "ArrowUp" => r.saturating_sub(1),
                    "ArrowDown" => (r + 1).min(rows - 1),
                    _ => return,
                };
                ev.prevent_default();
                on_row.run(next);
            }
            Pointing::Nothing | Pointing::Reading => {}
        }
    };
    // While the keyboard is on the canvas, its cell (or row) is said in a live region.
    let focused = RwSignal::new(false);
    let on_blur = move |_| focused.set(false);
    let on_focus = move |_| {
        focused.set(true);
        if let Pointing::Cells { hover, .. } = pointing
            && hover.get_untracked().is_none()
            && cells.with_untracked(|(m, _)| !m.is_empty())
        {
            set_hover(Some((0, 0)));
        }
    };

    // A box in CSS pixels over the canvas: the ringed cell, or the outlined row.
    let css_box = move |(x0, y0): (i32, i32), (x1, y1): (i32, i32), dpr: f64| {
        let css = |v: i32| v as f64 / dpr;
        format!(
            "left: {:.1}px; top: {:.1}px; width: {:.1}px; height: {:.1}px;",
            css(x0),
            css(y0),
            css(x1 - x0),
            css(y1 - y0)
        )
    };
    let row_highlight = format!("{kind}-row-highlight");
    let overlay = move || -> Option<AnyView> {
        let (map, dpr) = cells.get();
        match pointing {
            Pointing::Cells { hover, .. } => {
                let (row, col) = hover.get()?;
                let (a, b) = map.cell_bounds(row, col)?;
                let style = css_box(a, b, dpr);
                Some(
                    view! { <div class="cell-highlight" aria-hidden="true" style=style></div> }
                        .into_any(),
                )
            }
            Pointing::Rows { row, .. } => {
                let r = row.get()?;
                let last = map.cols().checked_sub(1)?;
                let (a, _) = map.cell_bounds(r, 0)?;
                let (_, b) = map.cell_bounds(r, last)?;
                let style = css_box(a, b, dpr);
                let testid = row_highlight.clone();
                Some(view! {
                    <div class="row-highlight" data-testid=testid aria-hidden="true" style=style></div>
                }.into_any())
            }
            Pointing::Nothing | Pointing::Reading => None,
        }
    };
    let reading = move || {
        let Pointing::Reading = pointing else {
            return None;
        };
        let text = reading_cell
            .get()
            .and_then(|(r, c)| {
                figure.with(|h| {
                    let h = h.as_ref()?;
                    Some(format!(
                        "{} {}, {} {}: {}",
                        h.row_axis(),
                        h.row_labels().get(r)?,
                        h.col_axis(),
                        h.col_labels().get(c)?,
                        number::significant(h.value(r, c)?, 3)
                    ))
                })
            })
            .unwrap_or_else(|| {
                state
                    .lang
                    .get()
                    .pick("Point at a cell to read it.", "指向一个单元格以读出其值。")
                    .into()
            });
        Some(view! { <p class="matrix-reading" aria-live="off">{text}</p> })
    };
    let label = move || {
        let lang = state.lang.get();
        figure.with(|h| match h {
            None => lang.pick("Figure (empty)", "图（空）").to_string(),
            Some(h) => {
                let (n, m, title) = (h.n_rows(), h.n_cols(), h.title());
                match (pointing, lang) {
                    (Pointing::Cells { .. }, Lang::En) => format!(
                        "{title}: {n} query tokens (rows) by {m} keys (columns). Arrow keys move between cells."
                    ),
                    (Pointing::Cells { .. }, Lang::Zh) => format!(
                        "{title}：{n} 个查询词元（行）× {m} 个键（列）。方向键在单元格间移动。"
                    ),
                    (Pointing::Rows { .. }, Lang::En) => format!(
                        "{title}: {n} rows by {m} columns. Click a row, or use ArrowUp and ArrowDown, to pick the query."
                    ),
                    (Pointing::Rows { .. }, Lang::Zh) => format!(
                        "{title}：{n} 行 × {m} 列。点击一行，或用上下方向键，选择查询。"
                    ),
                    (Pointing::Nothing | Pointing::Reading, Lang::En) => {
                        format!("{title}: {n} rows by {m} columns.")
                    }
                    (Pointing::Nothing | Pointing::Reading, Lang::Zh) => {
                        format!("{title}：{n} 行 × {m} 列。")
                    }
                }
            }
        })
    };
    let announce = move || {
        if !focused.get() {
            return None;
        }
        let lang = state.lang.get();
        figure.with(|h| {
            let h = h.as_ref()?;
            match pointing {
                Pointing::Cells { hover, .. } => {
                    let (r, c) = hover.get()?;
                    super::cell_sentence(h, r, c, lang)
                }
                Pointing::Rows { row, .. } => {
                    let r = row.get()?;
                    let label = h.row_labels().get(r)?;
                    Some(match lang {
                        Lang::En => format!("{} {label} ({r})", h.row_axis()),
                        Lang::Zh => format!("{} {label}（{r}）", h.row_axis()),
                    })
                }
                Pointing::Nothing | Pointing::Reading => None,
            }
        })
    };
    let focusable = match pointing {
        Pointing::Cells { .. } | Pointing::Rows { .. } => Some("0"),
        Pointing::Nothing | Pointing::Reading => None,
    };
    let frame = format!("heatmap-frame figure-{kind}");
    view! {
        <div class=frame>
            <canvas
                node_ref=canvas
                class=format!("heatmap {class}")
                data-testid=move || testid.get()
                data-figure=kind
                tabindex=focusable
                role="img"
                aria-label=label
                on:pointermove=on_move
                on:pointerdown=on_down
                on:pointerleave=on_leave
                on:keydown=on_key
                on:focus=on_focus
                on:blur=on_blur
            ></canvas>
            {overlay}
        </div>
        <p class="visually-hidden" aria-live="polite"
            data-testid=move || format!("{}-announce", testid.get())>{announce}</p>
        <ExportMenu figure=Signal::derive(move || figure.get().map(Exported::Heatmap)) canvas=canvas testid=testid tensors=tensors command=command/>
        <super::FigureTable figure=figure testid=Signal::derive(move || format!("{}-values", testid.get()))/>
        {reading}
    }
}
