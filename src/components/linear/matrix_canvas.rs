use attnlab_plot::Heatmap;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::paint::paint_heatmap;
use crate::repaint::repaint_effect;

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
    let canvas = NodeRef::<Canvas>::new();
    repaint_effect(
        canvas,
        "a figure",
        move |el, dpr| figure.with(|h| paint_heatmap(el, h.as_ref(), dpr)),
        |_, _| {},
    );
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
