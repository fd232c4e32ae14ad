use attnlab_plot::{LineChart, LineChartStyle, LineDash, RGBColor, draw_line_chart};
use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;
use web_sys::HtmlCanvasElement;

use crate::blit_canvas::BlitCanvas;
use crate::viewport::use_viewport;

/// Draws `chart` on `canvas`, its backing store sized to the CSS box × `dpr`. Returns
/// the number of points drawn.
fn paint(canvas: &HtmlCanvasElement, chart: &LineChart, dpr: f64) -> Result<usize, String> {
    let rect = canvas.get_bounding_client_rect();
    let (w, h) = (
        (rect.width() * dpr).round().max(0.0) as u32,
        (rect.height() * dpr).round().max(0.0) as u32,
    );
    canvas.set_width(w);
    canvas.set_height(h);
    if w == 0 || h == 0 {
        return Ok(0);
    }
    let backend = BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
    let area = backend.into_drawing_area();
    let map =
        draw_line_chart(&area, chart, &LineChartStyle { scale: dpr }).map_err(|e| e.to_string())?;
    area.present().map_err(|e| e.to_string())?;
    Ok(map.points_drawn())
}

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
    let viewport = use_viewport();
    let canvas = NodeRef::<Canvas>::new();
    let drawn = RwSignal::new(0usize);
    Effect::new(move |_| {
        let dpr = viewport.get().dpr;
        let _ = viewport.get().width;
        let Some(canvas) = canvas.get() else { return };
        let result = chart.with(|c| match c {
            Some(c) => {
                let mut bare = c.clone();
                bare.series.iter_mut().for_each(|s| s.name = None);
                paint(&canvas, &bare, dpr)
            }
            None => Ok(0),
        });
        match result {
            Ok(n) => drawn.set(n),
            Err(e) => logging::warn!("attnlab: a chart could not be drawn: {e}"),
        }
    });
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
                data-points=move || drawn.get().to_string() role="img" aria-label=label></canvas>
        </div>
        <ul class="chart-legend" data-testid=legend_id>{legend}</ul>
    }
}
