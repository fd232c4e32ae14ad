use attnlab_i18n::msg;
use attnlab_plot::{CellMap, Heatmap, number};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use super::export::{ExportMenu, Exported, FileMaker};
use super::repaint::repaint_effect;
use crate::state::use_app_state;
use attnlab_paint::{paint_heatmap_over, to_backing_pixels};

/// Two cells (row, column) of a matrix: the corners of a rectangle dragged over it.
pub type CellPair = ((usize, usize), (usize, usize));

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
    /// Dragging a rectangle over the cells zooms to it: called with the two corner cells
    /// (indices of the whole matrix). With it, a click acts on the cell where it ends
    /// (on release), so a drag is not also a click.
    #[prop(optional)]
    on_zoom: Option<Callback<CellPair>>,
    /// Set after each full paint to every how many tokens a label is written.
    #[prop(optional)]
    label_step: Option<RwSignal<usize>>,
) -> impl IntoView {
    let state = use_app_state();
    let canvas = NodeRef::<Canvas>::new();
    // Where the cells were painted, the device pixels per CSS pixel of that paint, and
    // the whole matrix's (row, column) of the first cell painted (a zoomed figure is a
    // part of a larger one: every cell named outside is named by its index in the whole).
    let cells = RwSignal::new((CellMap::EMPTY, 1.0, (0usize, 0usize)));
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
        move |map, dpr| {
            let origin = figure.with_untracked(|h| h.as_ref().map_or((0, 0), Heatmap::origin));
            cells.set((map.unwrap_or(CellMap::EMPTY), dpr, origin));
            if let (Some(step), Some(el)) = (label_step, canvas.get_untracked())
                && let Some(n) = el
                    .get_attribute("data-label-step")
                    .and_then(|v| v.parse().ok())
                && step.get_untracked() != n
            {
                step.set(n);
            }
        },
    );
    // A cell of the whole matrix, as painted: its (row, column) in the painted part.
    let local = move |(r, c): (usize, usize), origin: (usize, usize)| {
        Some((r.checked_sub(origin.0)?, c.checked_sub(origin.1)?))
    };

    let cell_at = move |ev: &PointerEvent| {
        let el = canvas.get_untracked()?;
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        cells.with_untracked(|(map, _, (r0, c0))| map.cell_at(x, y).map(|(r, c)| (r + r0, c + c0)))
    };
    let label_row_at = move |ev: &PointerEvent| {
        let el = canvas.get_untracked()?;
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        cells.with_untracked(|(map, _, (r0, _))| map.label_row_at(x, y).map(|r| r + r0))
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

    // A rectangle being dragged (zoom): the cell where it started and the one under
    // the pointer.
    let drag = RwSignal::new(None::<CellPair>);
    let on_move = move |ev: PointerEvent| match pointing {
        Pointing::Cells { .. } => {
            let cell = cell_at(&ev);
            if let (Some((start, end)), Some(c)) = (drag.get_untracked(), cell)
                && c != end
            {
                drag.set(Some((start, c)));
            }
            set_hover(cell);
        }
        Pointing::Reading => reading_cell.set(cell_at(&ev)),
        Pointing::Nothing | Pointing::Rows { .. } => {}
    };
    let on_down = move |ev: PointerEvent| match pointing {
        Pointing::Cells { on_cell, .. } => {
            let cell = cell_at(&ev);
            set_hover(cell);
            match (cell, on_zoom) {
                (Some(cell), Some(_)) if ev.button() == 0 => {
                    drag.set(Some((cell, cell)));
                    if let Some(el) = canvas.get_untracked() {
                        let _ = el.set_pointer_capture(ev.pointer_id());
                    }
                }
                (Some(cell), None) => {
                    if let Some(cb) = on_cell {
                        cb.run(cell);
                    }
                }
                _ => {}
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
    // The end of a drag: a rectangle zooms, a press and release on one cell is a click.
    let on_up = move |_: PointerEvent| {
        let Some((start, end)) = drag.get_untracked() else {
            return;
        };
        drag.set(None);
        if start != end {
            if let Some(zoom) = on_zoom {
                zoom.run((start, end));
            }
        } else if let Pointing::Cells {
            on_cell: Some(cb), ..
        } = pointing
        {
            cb.run(start);
        }
    };
    let on_cancel = move |_: PointerEvent| drag.set(None);
    let on_leave = move |ev: PointerEvent| match pointing {
        // A finger lifted off a touch screen leaves too: keep its reading.
        Pointing::Cells { .. } if ev.pointer_type() != "touch" => set_hover(None),
        Pointing::Reading => reading_cell.set(None),
        _ => {}
    };
    let on_key = move |ev: KeyboardEvent| {
        let (rows, cols, (r0, c0)) = cells.with_untracked(|(m, _, o)| (m.rows(), m.cols(), *o));
        if rows == 0 || cols == 0 {
            return;
        }
        match pointing {
            Pointing::Cells { hover, on_cell } => {
                // Within the painted part (indices of the whole matrix).
                let (last_r, last_c) = (r0 + rows - 1, c0 + cols - 1);
                let (r, c) = hover.get_untracked().unwrap_or((r0, c0));
                let (r, c) = (r.clamp(r0, last_r), c.clamp(c0, last_c));
                let next = match ev.key().as_str() {
                    "ArrowUp" => (r.saturating_sub(1).max(r0), c),
                    "ArrowDown" => ((r + 1).min(last_r), c),
                    "ArrowLeft" => (r, c.saturating_sub(1).max(c0)),
                    "ArrowRight" => (r, (c + 1).min(last_c)),
                    "Home" => (r, c0),
                    "End" => (r, last_c),
                    "Enter" | " " => {
                        ev.prevent_default();
                        if let Some(cb) = on_cell {
                            cb.run((r, c));
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
                    "ArrowUp" => r.saturating_sub(1).max(r0),
                    "ArrowDown" => (r + 1).min(r0 + rows - 1),
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
            && cells.with_untracked(|(m, _, _)| !m.is_empty())
        {
            set_hover(Some(cells.with_untracked(|(_, _, o)| *o)));
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
        let (map, dpr, origin) = cells.get();
        match pointing {
            Pointing::Cells { hover, .. } => {
                // A rectangle being dragged, else the ringed cell.
                if let Some((start, end)) = drag.get() {
                    let (a, b) = (local(start, origin)?, local(end, origin)?);
                    let (top, left) = (a.0.min(b.0), a.1.min(b.1));
                    let (bottom, right) = (a.0.max(b.0), a.1.max(b.1));
                    let (p, _) = map.cell_bounds(top, left)?;
                    let (_, q) = map.cell_bounds(bottom, right)?;
                    let style = css_box(p, q, dpr);
                    return Some(view! {
                        <div class="zoom-drag" data-testid="zoom-drag" aria-hidden="true" style=style></div>
                    }.into_any());
                }
                let (row, col) = local(hover.get()?, origin)?;
                let (a, b) = map.cell_bounds(row, col)?;
                let style = css_box(a, b, dpr);
                Some(
                    view! { <div class="cell-highlight" aria-hidden="true" style=style></div> }
                        .into_any(),
                )
            }
            Pointing::Rows { row, .. } => {
                let r = row.get()?.checked_sub(origin.0)?;
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
            .and_then(|cell| {
                let (r, c) = local(cell, cells.with(|(_, _, o)| *o))?;
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
            .unwrap_or_else(|| msg::figure::HEATMAP_IDLE.get(state.lang.get()).into());
        Some(view! { <p class="matrix-reading" aria-live="off">{text}</p> })
    };
    let label = move || {
        let lang = state.lang.get();
        figure.with(|h| match h {
            None => msg::figure::HEATMAP_FIGURE_EMPTY.get(lang).to_string(),
            Some(h) => {
                let (n, m, title) = (h.n_rows(), h.n_cols(), h.title());
                match pointing {
                    Pointing::Cells { .. } => msg::figure::HeatmapLabelCells {
                        title: &title,
                        n: &n,
                        m: &m,
                    }
                    .say(lang),
                    Pointing::Rows { .. } => msg::figure::HeatmapLabelRows {
                        title: &title,
                        n: &n,
                        m: &m,
                    }
                    .say(lang),
                    Pointing::Nothing | Pointing::Reading => msg::figure::HeatmapLabel {
                        title: &title,
                        n: &n,
                        m: &m,
                    }
                    .say(lang),
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
                    let (r, c) = local(hover.get()?, h.origin())?;
                    super::cell_sentence(h, r, c, lang)
                }
                Pointing::Rows { row, .. } => {
                    let r = row.get()?;
                    let label = h.row_labels().get(r.checked_sub(h.origin().0)?)?;
                    Some(
                        msg::figure::HeatmapRowReading {
                            axis: &h.row_axis(),
                            label,
                            row: &r,
                        }
                        .say(lang),
                    )
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
                on:pointerup=on_up
                on:pointercancel=on_cancel
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
