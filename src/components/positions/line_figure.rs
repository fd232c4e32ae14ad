use attnlab_plot::LineChart;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::paint::paint_line_chart;
use crate::repaint::repaint_effect;

/// A line chart on a canvas at the display's resolution, repainted when the chart or
/// the window changes. After each paint the canvas carries `data-series` (the named
/// curves) and `data-points` (the markers drawn).
#[component]
pub fn LineFigure(
    /// The chart to draw (`None`: an empty canvas).
    #[prop(into)]
    chart: Signal<Option<LineChart>>,
    /// `data-testid` of the canvas.
    #[prop(into)]
    testid: String,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    repaint_effect(
        canvas,
        "a chart",
        move |el, dpr| chart.with(|c| paint_line_chart(el, c.as_ref(), dpr)),
        |_, _| {},
    );
    let label = move || {
        chart.with(|c| match c {
            Some(c) => format!(
                "{}: {} against {}; curves: {}.",
                c.title,
                c.y.label,
                c.x.label,
                c.series
                    .iter()
                    .filter_map(|s| s.name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => "Chart (empty)".to_string(),
        })
    };
    view! {
        <canvas node_ref=canvas class="line-canvas" data-testid=testid role="img" aria-label=label></canvas>
    }
}
