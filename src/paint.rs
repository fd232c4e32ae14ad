//! Painting a figure on a `<canvas>` at the display's resolution.

use attnlab_plot::{CellMap, Heatmap, HeatmapStyle, draw_heatmap};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

/// The attribute set on the canvas after each paint: how many tokens (rows) it shows.
pub const RENDERED_TOKENS: &str = "data-rendered-tokens";

/// Sizes the canvas's backing store to its CSS box times `dpr` (so lines and text are
/// crisp on high-DPI screens), which also clears it, then draws `heatmap` if any.
/// Returns where the cells are, in backing-store pixels.
pub fn paint_heatmap(
    canvas: &HtmlCanvasElement,
    heatmap: Option<&Heatmap>,
    dpr: f64,
) -> Result<CellMap, String> {
    let rect = canvas.get_bounding_client_rect();
    let width = (rect.width() * dpr).round().max(0.0) as u32;
    let height = (rect.height() * dpr).round().max(0.0) as u32;
    canvas.set_width(width);
    canvas.set_height(height);
    let map = match heatmap {
        Some(h) if width > 0 && height > 0 => {
            let backend = CanvasBackend::with_canvas_object(canvas.clone())
                .ok_or("this browser gave no 2D drawing context for the canvas")?;
            let area = backend.into_drawing_area();
            let map =
                draw_heatmap(&area, h, &HeatmapStyle::scaled(dpr)).map_err(|e| e.to_string())?;
            area.present().map_err(|e| e.to_string())?;
            map
        }
        _ => CellMap::EMPTY,
    };
    canvas
        .set_attribute(RENDERED_TOKENS, &map.rows().to_string())
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    Ok(map)
}

/// The backing-store pixel under a pointer at (`offset_x`, `offset_y`) CSS pixels from
/// the canvas's top-left corner.
pub fn to_backing_pixels(canvas: &HtmlCanvasElement, offset_x: f64, offset_y: f64) -> (f64, f64) {
    let sx = canvas.width() as f64 / (canvas.client_width().max(1) as f64);
    let sy = canvas.height() as f64 / (canvas.client_height().max(1) as f64);
    (offset_x * sx, offset_y * sy)
}
