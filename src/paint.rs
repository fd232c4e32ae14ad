//! Painting figures on a `<canvas>` at the display's resolution.
//!
//! The cells go to the canvas as one bitmap ([`CellField::Bitmap`]) through
//! [`BlitCanvas`], whose `blit_bitmap` is one `putImageData`.

use attnlab_plot::{
    CellField, CellMap, HeadGrid, HeadGridMap, Heatmap, HeatmapStyle, draw_head_grid, draw_heatmap,
};
use plotters::prelude::IntoDrawingArea;
use web_sys::HtmlCanvasElement;

use crate::blit_canvas::BlitCanvas;

/// The attribute set on the canvas after each paint: how many tokens (rows) it shows.
pub const RENDERED_TOKENS: &str = "data-rendered-tokens";

/// Sizes the canvas's backing store to its CSS box times `dpr` (so lines and text are
/// crisp on high-DPI screens), which also clears it. Returns the size in device pixels.
fn fit(canvas: &HtmlCanvasElement, dpr: f64) -> (u32, u32) {
    let rect = canvas.get_bounding_client_rect();
    let width = (rect.width() * dpr).round().max(0.0) as u32;
    let height = (rect.height() * dpr).round().max(0.0) as u32;
    canvas.set_width(width);
    canvas.set_height(height);
    (width, height)
}

fn style(dpr: f64) -> HeatmapStyle {
    HeatmapStyle::scaled(dpr).with_cell_field(CellField::Bitmap)
}

/// Draws `heatmap` (if any) filling the canvas. Returns where the cells are, in
/// backing-store pixels.
pub fn paint_heatmap(
    canvas: &HtmlCanvasElement,
    heatmap: Option<&Heatmap>,
    dpr: f64,
) -> Result<CellMap, String> {
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
        _ => CellMap::EMPTY,
    };
    canvas
        .set_attribute(RENDERED_TOKENS, &map.rows().to_string())
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    let _ = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.mark("attnlab:paint"));
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
        None
    };
    canvas
        .set_attribute(
            RENDERED_TOKENS,
            &heads.first().map_or(0, Heatmap::n_rows).to_string(),
        )
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    let _ = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.mark("attnlab:paint"));
    Ok(map)
}

/// The backing-store pixel under a pointer at (`offset_x`, `offset_y`) CSS pixels from
/// the canvas's top-left corner.
pub fn to_backing_pixels(canvas: &HtmlCanvasElement, offset_x: f64, offset_y: f64) -> (f64, f64) {
    let sx = canvas.width() as f64 / (canvas.client_width().max(1) as f64);
    let sy = canvas.height() as f64 / (canvas.client_height().max(1) as f64);
    (offset_x * sx, offset_y * sy)
}
