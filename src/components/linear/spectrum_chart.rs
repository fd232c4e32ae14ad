use attnlab_plot::{LineChart, LineDash, RGBColor};
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::paint::paint_line_chart;
use crate::repaint::repaint_effect;

/// A line chart (the singular values) on a canvas at devicePixelRatio, repainted by an
/// effect when the chart or the window changes; `data-points` is how many points were
/// drawn. The legend is written under the canvas (the curves start in the plot's
/// upper-left corner, where the drawn legend would hide them).
#[component]
pub fn SpectrumChart(
    /// The chart (nothing is drawn for `None`).
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
        move |el, dpr| {
            // The legend is written under the canvas: the chart draws none.
            let bare = chart.with(|c| {
                c.clone().map(|mut c| {
                    c.series.iter_mut().for_each(|s| s.name = None);
                    c
                })
            });
            paint_line_chart(el, bare.as_ref(), dpr)
        },
        |_, _| {},
    );
    let legend = move || {
        chart.with(|c| {
            c.as_ref().map(|c| {
                c.series
                    .iter()
                    .filter_map(|s| {
                        let name = s.name.clone()?;
                        let RGBColor(r, g, b) = s.color;
                        let line = match s.dash {
                            LineDash::Solid => "solid",
                            LineDash::Dashed => "dashed",
                        };
                        let style = format!("border-top: 3px {line} rgb({r}, {g}, {b});");
                        Some(view! {
                            <li><span class="chart-swatch" style=style></span>{name}</li>
                        })
                    })
                    .collect_view()
            })
        })
    };
    let legend_id = format!("{testid}-legend");
    let label = move || chart.with(|c| c.as_ref().map_or(String::new(), |c| c.title.clone()));
    view! {
        <div class="heatmap-frame">
            <canvas node_ref=canvas class="line-chart-canvas" data-testid=testid
                role="img" aria-label=label></canvas>
        </div>
        <ul class="chart-legend" data-testid=legend_id>{legend}</ul>
    }
}
