//! Painting figures on a `<canvas>` at the display's resolution.
//!
//! The cells go to the canvas as one bitmap ([`CellField::Bitmap`]) through
//! [`BlitCanvas`], whose `blit_bitmap` is one `putImageData`.

use attnlab_plot::{
    CellField, CellMap, HeadGrid, HeadGridMap, Heatmap, HeatmapStyle, LineChart, LineChartStyle,
    LinesStyle, TokenLines, TokenLinesMap, draw_head_grid, draw_heatmap, draw_line_chart,
    draw_token_lines, natural_height,
};
use plotters::prelude::IntoDrawingArea;
use web_sys::HtmlCanvasElement;

use crate::blit_canvas::BlitCanvas;

/// The attribute set on the canvas after each paint: how many tokens (rows) it shows.
pub const RENDERED_TOKENS: &str = "data-rendered-tokens";

/// The performance mark set after every canvas paint: `cargo xtask bench` times a knob
/// change to the last of these, and navigation to the first.
pub const PAINT_MARK: &str = "attnlab:paint";

/// Sets [`PAINT_MARK`] on the page's performance timeline.
pub fn mark_painted() {
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        let _ = perf.mark(PAINT_MARK);
    }
}

/// Sizes the canvas's backing store to its CSS box times `dpr` (so lines and text are
/// crisp on high-DPI screens). Returns the size in device pixels. The store is resized
/// only when the size changed: resizing reallocates it and invalidates the page's
/// layout, which the next canvas's size query would then recompute; the drawings fill
/// their whole area first anyway.
fn fit(canvas: &HtmlCanvasElement, dpr: f64) -> (u32, u32) {
    let rect = canvas.get_bounding_client_rect();
    let width = (rect.width() * dpr).round().max(0.0) as u32;
    let height = (rect.height() * dpr).round().max(0.0) as u32;
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    (width, height)
}

fn style(dpr: f64) -> HeatmapStyle {
    HeatmapStyle::scaled(dpr).with_cell_field(CellField::Bitmap)
}

/// Sets the canvas's CSS height to the figure's natural height at the canvas's width
/// (so the matrix takes the whole width and no blank band is left under it); the
/// stylesheet's `max-height` still applies. Only touches the style when the height
/// changes, which a new sentence or a resize does and a slider drag does not.
fn fit_height(canvas: &HtmlCanvasElement, heatmap: &Heatmap, dpr: f64) {
    let width = canvas.get_bounding_client_rect().width();
    if width <= 0.0 {
        return;
    }
    let css = natural_height(heatmap, &style(dpr), width * dpr) / dpr;
    let value = format!("height: {}px", css.ceil());
    if canvas.get_attribute("style").as_deref() != Some(value.as_str()) {
        let _ = canvas.set_attribute("style", &value);
    }
}

/// Clears the canvas (setting its width, even to the same value, resets its pixels).
fn clear(canvas: &HtmlCanvasElement) {
    canvas.set_width(canvas.width());
}

/// Draws `heatmap` (if any) filling the canvas. Returns where the cells are, in
/// backing-store pixels.
pub fn paint_heatmap(
    canvas: &HtmlCanvasElement,
    heatmap: Option<&Heatmap>,
    dpr: f64,
) -> Result<CellMap, String> {
    if let Some(h) = heatmap {
        fit_height(canvas, h, dpr);
    }
    let (width, height) = fit(canvas, dpr);
    let map = match heatmap {
        Some(h) if width > 0 && height > 0 => {
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map = draw_heatmap(&area, h, &style(dpr)).map_err(|e| e.to_string())?;
            area.present().map_err(|e| e.to_string())?;
            map
        }
        _ => {
            clear(canvas);
            CellMap::EMPTY
        }
    };
    canvas
        .set_attribute(RENDERED_TOKENS, &map.rows().to_string())
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    mark_painted();
    Ok(map)
}

/// Draws every head as small multiples, `selected` outlined. Returns where the tiles are.
pub fn paint_grid(
    canvas: &HtmlCanvasElement,
    heads: &[Heatmap],
    selected: usize,
    dpr: f64,
) -> Result<Option<HeadGridMap>, String> {
    let (width, height) = fit(canvas, dpr);
    let map = if width > 0 && height > 0 && !heads.is_empty() {
        let backend = BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
        let area = backend.into_drawing_area();
        let grid = HeadGrid::new(heads).with_selected(selected);
        let map = draw_head_grid(&area, &grid, &style(dpr)).map_err(|e| e.to_string())?;
        area.present().map_err(|e| e.to_string())?;
        Some(map)
    } else {
        clear(canvas);
        None
    };
    canvas
        .set_attribute(
            RENDERED_TOKENS,
            &heads.first().map_or(0, Heatmap::n_rows).to_string(),
        )
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    mark_painted();
    Ok(map)
}

/// The backing-store pixel under a pointer at (`offset_x`, `offset_y`) CSS pixels from
/// the canvas's top-left corner.
pub fn to_backing_pixels(canvas: &HtmlCanvasElement, offset_x: f64, offset_y: f64) -> (f64, f64) {
    let sx = canvas.width() as f64 / (canvas.client_width().max(1) as f64);
    let sy = canvas.height() as f64 / (canvas.client_height().max(1) as f64);
    (offset_x * sx, offset_y * sy)
}

/// Draws `chart` (if any) filling the canvas at `dpr`. Marks the canvas with the points
/// drawn (`data-points`) and the named series (`data-series`), and returns the points.
pub fn paint_line_chart(
    canvas: &HtmlCanvasElement,
    chart: Option<&LineChart>,
    dpr: f64,
) -> Result<usize, String> {
    let (width, height) = fit(canvas, dpr);
    let (points, series) = match chart {
        Some(c) if width > 0 && height > 0 => {
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map = draw_line_chart(&area, c, &LineChartStyle { scale: dpr })
                .map_err(|e| e.to_string())?;
            area.present().map_err(|e| e.to_string())?;
            let named = c.series.iter().filter(|s| s.name.is_some()).count();
            (map.points_drawn(), named)
        }
        _ => {
            clear(canvas);
            (0, 0)
        }
    };
    for (name, value) in [("data-points", points), ("data-series", series)] {
        canvas
            .set_attribute(name, &value.to_string())
            .map_err(|_| "could not mark the canvas as painted".to_string())?;
    }
    mark_painted();
    Ok(points)
}

/// Draws the token-to-token lines (if any) filling the canvas and marks the canvas with
/// the numbers of tokens, lines and the label step. Returns where the tokens are.
pub fn paint_token_lines(
    canvas: &HtmlCanvasElement,
    lines: Option<&TokenLines>,
    dpr: f64,
) -> Result<TokenLinesMap, String> {
    let (width, height) = fit(canvas, dpr);
    let map = match lines {
        Some(l) if width > 0 && height > 0 => {
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map =
                draw_token_lines(&area, l, &LinesStyle::scaled(dpr)).map_err(|e| e.to_string())?;
            area.present().map_err(|e| e.to_string())?;
            map
        }
        _ => {
            clear(canvas);
            TokenLinesMap::EMPTY
        }
    };
    let (n, m) = map.tokens();
    for (name, value) in [
        (RENDERED_TOKENS, n),
        ("data-rendered-keys", m),
        ("data-lines", map.lines_drawn()),
        ("data-label-step", map.label_step()),
    ] {
        canvas
            .set_attribute(name, &value.to_string())
            .map_err(|_| "could not mark the canvas as painted".to_string())?;
    }
    mark_painted();
    Ok(map)
}
