use attnlab_plot::Heatmap;
use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;

use crate::paint::paint_heatmap;
use crate::viewport::use_viewport;

/// A labelled matrix (any [`Heatmap`]) painted on a canvas at devicePixelRatio by an
/// effect, repainted when the figure or the window changes. The canvas carries the
/// matrix's shape as `data-rows` and `data-cols`.
#[component]
pub fn MatrixCanvas(
    /// The figure to draw (nothing is drawn for `None`).
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// `data-testid` of the canvas.
    #[prop(into)]
    testid: String,
    /// Extra CSS class of the canvas (sets its shape).
    #[prop(into)]
    class: String,
) -> impl IntoView {
    let viewport = use_viewport();
    let canvas = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let dpr = viewport.get().dpr;
        let _ = viewport.get().width;
        let Some(canvas) = canvas.get() else { return };
        if let Err(e) = figure.with(|h| paint_heatmap(&canvas, h.as_ref(), dpr)) {
            logging::warn!("attnlab: a figure could not be drawn: {e}");
        }
    });
    let shape =
        move |f: fn(&Heatmap) -> usize| figure.with(|h| h.as_ref().map_or(0, f).to_string());
    let label = move || {
        figure.with(|h| match h {
            Some(h) => format!(
                "{}: {} rows by {} columns",
                h.title(),
                h.n_rows(),
                h.n_cols()
            ),
            None => "empty figure".to_string(),
        })
    };
    view! {
        <div class="heatmap-frame">
            <canvas
                node_ref=canvas
                class=format!("matrix {class}")
                data-testid=testid
                data-rows=move || shape(Heatmap::n_rows)
                data-cols=move || shape(Heatmap::n_cols)
                role="img"
                aria-label=label
            ></canvas>
        </div>
    }
}
