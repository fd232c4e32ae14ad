use attnlab_i18n::msg;
use attnlab_plot::{LineChart, LineDash};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::style::RGBColor;

use super::export::{ExportMenu, Exported};
use super::repaint::repaint_effect;
use crate::i18n::use_lang;
use attnlab_paint::paint_line_chart;

/// Where a [`LineChartCanvas`] shows the names of its curves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChartLegend {
    /// Drawn on the canvas by the chart.
    #[default]
    OnCanvas,
    /// Written as a list under the canvas (`{testid}-legend`), for charts whose curves
    /// start in the corner a drawn legend would cover.
    Below,
}

/// Any [`LineChart`] on a canvas: painted at the display's resolution to the size its
/// container and CSS give it, repainted when the chart, that size or the window changes.
/// After each paint the canvas carries `data-points` (the markers drawn) and
/// `data-series` (the named curves drawn); `data-legend` lists the curves' names.
#[component]
pub fn LineChartCanvas(
    /// The chart to draw (nothing is drawn for `None`).
    #[prop(into)]
    chart: Signal<Option<LineChart>>,
    /// `data-testid` of the canvas.
    #[prop(into)]
    testid: String,
    /// Where the curves' names go.
    #[prop(optional)]
    legend: ChartLegend,
    /// CSS classes of the canvas (its shape on the page).
    #[prop(into)]
    class: String,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    repaint_effect(
        canvas,
        "a chart",
        move |el, dpr, known| {
            match legend {
                ChartLegend::OnCanvas => {
                    chart.with(|c| paint_line_chart(el, c.as_ref(), dpr, known))
                }
                // The legend is written under the canvas: the chart draws none.
                ChartLegend::Below => {
                    let bare = chart.with(|c| {
                        c.clone().map(|mut c| {
                            c.series.iter_mut().for_each(|s| s.name = None);
                            c
                        })
                    });
                    paint_line_chart(el, bare.as_ref(), dpr, known)
                }
            }
        },
        |_, _| {},
    );
    let names = move || {
        chart.with(|c| {
            c.as_ref().map_or_else(Vec::new, |c| {
                c.series.iter().filter_map(|s| s.name.clone()).collect()
            })
        })
    };
    let lang = use_lang();
    let label = move || {
        let lang = lang.get();
        chart.with(|c| match c {
            Some(c) => msg::figure::ChartLabel {
                title: &c.title,
                y: &c.y.label,
                x: &c.x.label,
                curves: &names().join(msg::lab::LIST_SEPARATOR.get(lang)),
            }
            .say(lang),
            None => msg::figure::CHART_EMPTY.get(lang).to_string(),
        })
    };
    let legend_id = format!("{testid}-legend");
    let menu_id = testid.clone();
    let below = move || {
        let legend_id = legend_id.clone();
        (legend == ChartLegend::Below).then(|| {
            let items = move || {
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
            view! { <ul class="chart-legend" data-testid=legend_id>{items}</ul> }
        })
    };
    view! {
        <div class="chart-frame">
            <canvas node_ref=canvas class=format!("line-chart {class}") data-testid=testid
                role="img" aria-label=label data-legend=move || names().join(" | ")></canvas>
        </div>
        {below}
        // The files carry the legend on the chart itself, whatever the page does.
        <ExportMenu figure=Signal::derive(move || chart.get().map(Exported::Chart)) canvas=canvas
            testid=menu_id tensors=None command=None/>
    }
}
