use attnlab_plot::{LineChart, LineChartStyle, draw_line_chart};
use leptos::html::Canvas;
use leptos::logging;
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;
use web_sys::HtmlCanvasElement;

use crate::blit_canvas::BlitCanvas;
use crate::viewport::use_viewport;

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
    let viewport = use_viewport();
    let canvas = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let dpr = viewport.get().dpr;
        let _ = viewport.get().width;
        let Some(el) = canvas.get() else { return };
        if let Err(e) = chart.with(|c| paint(&el, c.as_ref(), dpr)) {
            logging::warn!("attnlab: a chart could not be drawn: {e}");
        }
    });
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

fn paint(canvas: &HtmlCanvasElement, chart: Option<&LineChart>, dpr: f64) -> Result<(), String> {
    let rect = canvas.get_bounding_client_rect();
    let (w, h) = (
        (rect.width() * dpr).round().max(0.0) as u32,
        (rect.height() * dpr).round().max(0.0) as u32,
    );
    canvas.set_width(w);
    canvas.set_height(h);
    let (series, points) = match chart {
        Some(c) if w > 0 && h > 0 => {
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map = draw_line_chart(&area, c, &LineChartStyle { scale: dpr })
                .map_err(|e| e.to_string())?;
            area.present().map_err(|e| e.to_string())?;
            (
                c.series.iter().filter(|s| s.name.is_some()).count(),
                map.points_drawn(),
            )
        }
        _ => (0, 0),
    };
    let set = |k: &str, v: usize| canvas.set_attribute(k, &v.to_string());
    set("data-series", series)
        .and_then(|_| set("data-points", points))
        .map_err(|_| "could not mark the canvas as painted".to_string())
}
