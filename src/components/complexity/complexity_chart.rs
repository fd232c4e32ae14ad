use attnlab_plot::LineChart;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::paint::paint_line_chart;
use crate::repaint::repaint_effect;

/// A line chart on a canvas, repainted at the display's resolution whenever the chart or
/// the window changes. `data-legend` lists the legend entries (for tests and readers).
#[component]
pub fn ComplexityChart(
    /// The chart to draw.
    #[prop(into)]
    chart: Signal<LineChart>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    repaint_effect(
        canvas,
        "the complexity chart",
        move |el, dpr| chart.with(|c| paint_line_chart(el, Some(c), dpr)),
        |_, _| {},
    );
    let legend = move || {
        chart.with(|c| {
            c.series
                .iter()
                .filter_map(|s| s.name.clone())
                .collect::<Vec<_>>()
                .join(" | ")
        })
    };
    let label = move || format!("{}. Legend: {}.", chart.with(|c| c.title.clone()), legend());
    view! {
        <div class="complexity-chart-frame">
            <canvas node_ref=canvas class="complexity-chart" data-testid="complexity-chart"
                role="img" aria-label=label data-legend=legend></canvas>
        </div>
    }
}
