//! Zooming the lab's large heatmaps (each variant's selected head and the difference) to
//! a range of queries and keys: the range inputs and the reset above the variants, the
//! zoomed figure a canvas draws, and the line under each zoomed figure saying what it
//! shows. The zoom is the link's (`View::zoom`); a rectangle dragged on a figure sets it
//! too (`HeatmapCanvas`'s `on_zoom`).

use attnlab_i18n::msg;
use attnlab_lab::Zoom;
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use crate::i18n::{Tr, text, use_lang};
use crate::state::{LabFields, ViewFields, use_app_state};

/// The part of `figure` the zoom shows: the whole figure when there is no zoom or the
/// zoom covers it, else its [`Heatmap::window`], cut at the figure's end (a zoom past a
/// shortened text shows the last rows or columns, never nothing).
pub fn zoomed(figure: Signal<Option<Heatmap>>) -> Memo<Option<Heatmap>> {
    let state = use_app_state();
    Memo::new(move |_| {
        let zoom = state.lab.view().zoom().get();
        figure.with(|h| {
            let h = h.as_ref()?;
            Some(match zoom {
                Some(z) if !z.is_whole(h.n_rows(), h.n_cols()) => {
                    let (rows, cols) = z.within(h.n_rows(), h.n_cols());
                    h.window(rows, cols)
                }
                _ => h.clone(),
            })
        })
    })
}

/// Sets the zoom to the rectangle between two cells (indices of the whole matrix).
pub fn zoom_to(((r1, c1), (r2, c2)): ((usize, usize), (usize, usize))) {
    use_app_state()
        .lab
        .view()
        .zoom()
        .set(Some(Zoom::new((r1, r2), (c1, c2))));
}

/// What a zoomed figure shows, under it: the ranges, and every how many tokens a label is
/// written when the range is still too long to label each. Nothing when not zoomed.
#[component]
pub fn ZoomNote(
    /// The figure drawn (zoomed or not).
    figure: Memo<Option<Heatmap>>,
    /// Every how many tokens its canvas writes a label.
    label_step: RwSignal<usize>,
) -> impl IntoView {
    let lang = use_lang();
    let note = move || {
        figure.with(|h| {
            let h = h.as_ref().filter(|h| h.is_window())?;
            let (r0, c0) = h.origin();
            let (r1, c1) = (r0 + h.n_rows() - 1, c0 + h.n_cols() - 1);
            let step = label_step.get();
            Some(
                msg::lab::ZoomNote {
                    r0: &r0,
                    r1: &r1,
                    c0: &c0,
                    c1: &c1,
                    step,
                }
                .say(lang.get()),
            )
        })
    };
    move || note().map(|n| view! { <p class="zoom-note" data-testid="zoom-note">{n}</p> })
}

/// The range of queries and keys the large heatmaps show, as four number inputs (first
/// and last query, first and last key: token indices, ends included) and a reset. A
/// change applies at once; the inputs show the whole matrix when there is no zoom.
#[component]
pub fn ZoomBar() -> impl IntoView {
    let state = use_app_state();
    let n = Memo::new(move |_| state.derived.tokens.with(|t| t.used().len()));
    let m = Memo::new(move |_| state.derived.key_tokens.with(|t| t.used().len()));
    // The ranges shown: the zoom cut at the texts' ends, or everything.
    let shown = Memo::new(move |_| {
        let (n, m) = (n.get(), m.get());
        let whole = (0..n, 0..m);
        let (rows, cols) = state
            .lab
            .view()
            .zoom()
            .get()
            .map_or(whole, |z| z.within(n, m));
        (
            (rows.start, rows.end.saturating_sub(1)),
            (cols.start, cols.end.saturating_sub(1)),
        )
    });
    let set = move |which: usize, value: String| {
        let Ok(v) = value.trim().parse::<usize>() else {
            return;
        };
        let ((mut a, mut b), (mut c, mut d)) = shown.get_untracked();
        match which {
            0 => a = v,
            1 => b = v,
            2 => c = v,
            _ => d = v,
        }
        let last = attnlab_lab::MAX_TOKENS - 1;
        let zoom = Zoom::new((a.min(last), b.min(last)), (c.min(last), d.min(last)));
        state.lab.view().zoom().set(Some(zoom));
    };
    let input = move |which: usize, testid: &'static str, label: Tr| {
        let value = move || {
            let ((a, b), (c, d)) = shown.get();
            [a, b, c, d][which].to_string()
        };
        let max = move || match which {
            0 | 1 => n.get().saturating_sub(1),
            _ => m.get().saturating_sub(1),
        };
        view! {
            <input type="number" min="0" max=move || max().to_string() step="1" class="zoom-index"
                data-testid=testid aria-label=text(label) prop:value=value
                on:change=move |ev| set(which, event_target_value(&ev))/>
        }
    };
    let zoomed = move || {
        state
            .lab
            .view()
            .zoom()
            .get()
            .is_some_and(|z| !z.is_whole(n.get(), m.get()))
    };
    view! {
        <div class="zoom-bar" role="group" data-testid="zoom-bar" aria-label=text(msg::lab::ZOOM_BAR_LABEL)>
            <span class="zoom-title">{text(msg::lab::ZOOM_BAR_TITLE)}</span>
            <span class="zoom-axis">
                {text(msg::lab::ZOOM_QUERIES)} " "
                {input(0, "zoom-query-from", msg::lab::ZOOM_FIRST_QUERY)}
                "–"
                {input(1, "zoom-query-to", msg::lab::ZOOM_LAST_QUERY)}
            </span>
            <span class="zoom-axis">
                {text(msg::lab::ZOOM_KEYS)} " "
                {input(2, "zoom-key-from", msg::lab::ZOOM_FIRST_KEY)}
                "–"
                {input(3, "zoom-key-to", msg::lab::ZOOM_LAST_KEY)}
            </span>
            <button type="button" data-testid="zoom-reset" disabled=move || !zoomed()
                on:click=move |_| state.lab.view().zoom().set(None)>{text(msg::lab::ZOOM_WHOLE_MATRIX)}</button>
            <span class="zoom-hint">{text(msg::lab::ZOOM_DRAG_RECTANGLE_HEATMAP)}</span>
        </div>
    }
}
