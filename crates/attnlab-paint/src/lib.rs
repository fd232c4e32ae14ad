//! Painting attnlab-plot's figures on a `<canvas>` at the display's resolution: the
//! backing store sized to the canvas's box times the device pixel ratio, values-only
//! repaints of a figure whose frame is unchanged, offscreen canvases for the exports.
//!
//! The cells go to the canvas as one bitmap ([`CellField::Bitmap`]) through
//! `BlitCanvas`, whose `blit_bitmap` is one `putImageData`. Nothing here is reactive:
//! the app's canvas components (`src/canvas/`) decide when to paint, this crate paints.

mod blit_canvas;

use attnlab_i18n::Said;
use attnlab_i18n::Tr;
use attnlab_i18n::msg;
use attnlab_plot::{
    CellField, CellMap, HeadGrid, HeadGridFrame, HeadGridMap, Heatmap, HeatmapFrame, HeatmapStyle,
    LineChart, LineChartStyle, LinesStyle, Palette, TokenLines, TokenLinesMap, draw_head_grid,
    draw_heatmap, draw_line_chart, draw_token_lines, labels_drawn, natural_height,
    repaint_head_grid_values, repaint_heatmap_values, repaint_heatmap_values_and_scale,
};
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use blit_canvas::BlitCanvas;

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
///
/// `known` is the canvas's CSS size when the caller has it (see
/// the app's `src/canvas/canvas_size.rs`); otherwise the canvas is measured, which forces a layout if
/// the page changed since the last one.
fn fit(canvas: &HtmlCanvasElement, dpr: f64, known: Option<(f64, f64)>) -> (u32, u32) {
    let (w, h) = known.unwrap_or_else(|| {
        let rect = canvas.get_bounding_client_rect();
        (rect.width(), rect.height())
    });
    let (width, height) = (backing(w, dpr), backing(h, dpr));
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    (width, height)
}

/// The backing store's length, in device pixels, for `css` CSS pixels at `dpr`.
pub fn backing(css: f64, dpr: f64) -> u32 {
    (css * dpr).round().max(0.0) as u32
}

/// The look every canvas paints with, set by [`set_look`] from the display's choices
/// (presentation mode's larger figures, the palette) before a paint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// Text and lines are drawn this much larger than at 1 (presentation mode).
    pub figure_scale: f64,
    /// The figures' colours.
    pub palette: Palette,
}

thread_local! {
    static LOOK: std::cell::Cell<Look> = const {
        std::cell::Cell::new(Look {
            figure_scale: 1.0,
            palette: Palette {
                sequential: attnlab_plot::SequentialPalette::YlGnBu,
                diverging: attnlab_plot::DivergingPalette::RdBu,
            },
        })
    };
}

/// Sets the look the next paints use (the repaint effect calls it with what it tracks).
pub fn set_look(look: Look) {
    LOOK.with(|l| l.set(look));
}

fn look() -> Look {
    LOOK.with(std::cell::Cell::get)
}

/// The heatmap style at `dpr` device pixels per CSS pixel, in the current look.
fn style(dpr: f64) -> HeatmapStyle {
    let look = look();
    HeatmapStyle::scaled(dpr * look.figure_scale)
        .with_cell_field(CellField::Bitmap)
        .with_palette(look.palette)
}

/// Sets the canvas's CSS height to the figure's natural height at the canvas's width
/// (so the matrix takes the whole width and no blank band is left under it); the
/// stylesheet's `max-height` still applies. Only touches the style when the height
/// changes, which a new sentence or a resize does and a slider drag does not; returns
/// whether it did. `known_width` as for `fit`.
fn fit_height(
    canvas: &HtmlCanvasElement,
    heatmap: &Heatmap,
    dpr: f64,
    known_width: Option<f64>,
) -> bool {
    let width = known_width.unwrap_or_else(|| canvas.get_bounding_client_rect().width());
    if width <= 0.0 {
        return false;
    }
    let css = natural_height(heatmap, &style(dpr), width * dpr) / dpr;
    let value = format!("height: {}px", css.ceil());
    let changed = canvas.get_attribute("style").as_deref() != Some(value.as_str());
    if changed {
        let _ = canvas.set_attribute("style", &value);
    }
    changed
}

/// Clears the canvas (setting its width, even to the same value, resets its pixels).
fn clear(canvas: &HtmlCanvasElement) {
    canvas.set_width(canvas.width());
}

/// The frame (`HeatmapFrame`, `HeadGridFrame`) a canvas element shows after its last
/// paint, or `None` when it is unknown (never painted, cleared, or a paint failed). When
/// the next figure has the same frame on the same element, only its values are
/// repainted: a slider drag then leaves every label and legend on the canvas as it is.
pub type Shown<F> = Option<(HtmlCanvasElement, F)>;

/// Whether `shown` says `canvas` already shows `frame`.
fn shows<F: PartialEq>(shown: &Shown<F>, canvas: &HtmlCanvasElement, frame: &F) -> bool {
    matches!(shown, Some((c, f)) if c == canvas && f == frame)
}

/// Draws `heatmap` (if any) filling the canvas of `known` CSS size (see `fit`) at its
/// natural height, repainting only the values when `shown` says the canvas shows the
/// same frame (and the legend's scale too when the frame differed in its range alone);
/// `shown` is updated. Returns where the cells are, in backing-store pixels.
pub fn paint_heatmap_over(
    canvas: &HtmlCanvasElement,
    heatmap: Option<&Heatmap>,
    dpr: f64,
    mut known: Option<(f64, f64)>,
    shown: &mut Shown<HeatmapFrame>,
) -> Result<CellMap, String> {
    if let Some(h) = heatmap
        && fit_height(canvas, h, dpr, known.map(|k| k.0))
    {
        // The new height is not laid out yet: measure it.
        known = None;
    }
    let (width, height) = fit(canvas, dpr, known);
    let previous = shown.take();
    let map = match heatmap {
        Some(h) if width > 0 && height > 0 => {
            let style = style(dpr);
            let frame = HeatmapFrame::of(h, &style, (width, height));
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map = if shows(&previous, canvas, &frame) {
                repaint_heatmap_values(&area, h, &style)
            } else if matches!(&previous, Some((c, f)) if c == canvas && f.differs_in_range_alone(&frame))
            {
                // A difference's range follows the knobs: its legend's scale is redrawn.
                repaint_heatmap_values_and_scale(&area, h, &style)
            } else {
                mark_labels(canvas, h, &style, (width, height), dpr)?;
                draw_heatmap(&area, h, &style)
            }
            .map_err(|e| e.to_string())?;
            area.present().map_err(|e| e.to_string())?;
            *shown = Some((canvas.clone(), frame));
            map
        }
        _ => {
            clear(canvas);
            CellMap::EMPTY
        }
    };
    // What was painted, for readers and tests: the rows (query tokens) and the shape.
    for (name, value) in [
        (RENDERED_TOKENS, map.rows()),
        ("data-rows", map.rows()),
        ("data-cols", map.cols()),
    ] {
        canvas
            .set_attribute(name, &value.to_string())
            .map_err(|_| "could not mark the canvas as painted".to_string())?;
    }
    // Where the cells are (backing pixels), for outlines drawn over the canvas.
    let cells = format!(
        "{} {} {} {}",
        map.edge_x(0),
        map.edge_y(0),
        map.edge_x(map.cols()),
        map.edge_y(map.rows())
    );
    canvas
        .set_attribute("data-cells", &cells)
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    mark_painted();
    Ok(map)
}

/// Marks the canvas with what a full paint of `h` draws besides its shape: the range of
/// the whole matrix's rows and columns it shows (`data-row-range`, `data-col-range`:
/// `"first-last"`, indices of the whole), every how many tokens a label is written
/// (`data-label-step`, 1: each one), how many row and column labels
/// (`data-row-labels`, `data-col-labels`) and their size in CSS pixels
/// (`data-label-px`). A values-only repaint keeps the frame, and with it these.
fn mark_labels(
    canvas: &HtmlCanvasElement,
    h: &Heatmap,
    style: &HeatmapStyle,
    size: (u32, u32),
    dpr: f64,
) -> Result<(), String> {
    let drawn = labels_drawn(h, style, size);
    let (r0, c0) = h.origin();
    let range = |first: usize, count: usize| match count {
        0 => String::new(),
        _ => format!("{first}-{}", first + count - 1),
    };
    for (name, value) in [
        ("data-row-range", range(r0, h.n_rows())),
        ("data-col-range", range(c0, h.n_cols())),
        ("data-label-step", drawn.step.to_string()),
        ("data-row-labels", drawn.rows.to_string()),
        ("data-col-labels", drawn.cols.to_string()),
        ("data-label-px", format!("{:.1}", drawn.px / dpr)),
    ] {
        canvas
            .set_attribute(name, &value)
            .map_err(|_| "could not mark the canvas as painted".to_string())?;
    }
    Ok(())
}

/// Draws `grid` (every head as small multiples, its selected head outlined) on a canvas
/// of `known` CSS size (see `fit`), repainting only the cells when `shown` says the
/// canvas shows the same frame (`shown` is updated). Returns where the tiles are.
pub fn paint_grid(
    canvas: &HtmlCanvasElement,
    grid: &HeadGrid<'_>,
    dpr: f64,
    known: Option<(f64, f64)>,
    shown: &mut Shown<HeadGridFrame>,
) -> Result<Option<HeadGridMap>, String> {
    let heads = grid.heads;
    let (width, height) = fit(canvas, dpr, known);
    let previous = shown.take();
    let map = if width > 0 && height > 0 && !heads.is_empty() {
        let backend = BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
        let area = backend.into_drawing_area();
        let style = style(dpr);
        let frame = HeadGridFrame::of(grid, &style, (width, height));
        let map = if shows(&previous, canvas, &frame) {
            repaint_head_grid_values(&area, grid, &style)
        } else {
            draw_head_grid(&area, grid, &style)
        }
        .map_err(|e| e.to_string())?;
        area.present().map_err(|e| e.to_string())?;
        *shown = Some((canvas.clone(), frame));
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
    known: Option<(f64, f64)>,
) -> Result<usize, String> {
    let (width, height) = fit(canvas, dpr, known);
    let (points, series) = match chart {
        Some(c) if width > 0 && height > 0 => {
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map = draw_line_chart(
                &area,
                c,
                &LineChartStyle {
                    scale: dpr * look().figure_scale,
                },
            )
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
    known: Option<(f64, f64)>,
) -> Result<TokenLinesMap, String> {
    let (width, height) = fit(canvas, dpr, known);
    let map = match lines {
        Some(l) if width > 0 && height > 0 => {
            let backend =
                BlitCanvas::new(canvas).ok_or("this browser gave no 2D drawing context")?;
            let area = backend.into_drawing_area();
            let map = draw_token_lines(&area, l, &LinesStyle::scaled(dpr * look().figure_scale))
                .map_err(|e| e.to_string())?;
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
    // The least weight of a line drawn (the Lines page's threshold).
    let threshold = lines.map_or(0.0, TokenLines::threshold);
    canvas
        .set_attribute("data-threshold", &threshold.to_string())
        .map_err(|_| "could not mark the canvas as painted".to_string())?;
    mark_painted();
    Ok(map)
}

/// A new (detached) canvas of `width × height` device pixels with `draw` painted on it.
fn offscreen<E: std::fmt::Display>(
    (width, height): (f64, f64),
    draw: impl FnOnce(&DrawingArea<BlitCanvas, Shift>) -> Result<(), E>,
) -> Result<HtmlCanvasElement, Said> {
    let canvas = detached_canvas()?;
    canvas.set_width(width.round().max(1.0) as u32);
    canvas.set_height(height.round().max(1.0) as u32);
    let backend = BlitCanvas::new(&canvas).ok_or_else(|| Said::from(NO_CONTEXT))?;
    let area = backend.into_drawing_area();
    // The drawing library's own words are the English; Chinese says what failed.
    let failed = |e: String| msg::figure::PaintFailed { detail: &e }.said();
    draw(&area).map_err(|e| failed(e.to_string()))?;
    area.present().map_err(|e| failed(e.to_string()))?;
    Ok(canvas)
}

/// `heatmap` painted on a new (detached) canvas `css_width` CSS pixels wide at `scale`
/// device pixels per CSS pixel and its natural height: what the page shows, at a higher
/// resolution, for a PNG file.
pub fn offscreen_heatmap(
    heatmap: &Heatmap,
    css_width: f64,
    scale: f64,
) -> Result<HtmlCanvasElement, Said> {
    let style = style(scale);
    let width = (css_width * scale).round().max(1.0);
    let height = natural_height(heatmap, &style, width).ceil();
    offscreen((width, height), |area| {
        draw_heatmap(area, heatmap, &style).map(|_| ())
    })
}

/// `chart` painted on a new (detached) canvas of `css` CSS pixels at `scale` device
/// pixels per CSS pixel, for a PNG file.
pub fn offscreen_line_chart(
    chart: &LineChart,
    (width, height): (f64, f64),
    scale: f64,
) -> Result<HtmlCanvasElement, Said> {
    offscreen((width * scale, height * scale), |area| {
        draw_line_chart(area, chart, &LineChartStyle { scale }).map(|_| ())
    })
}

/// `grid` painted on a new (detached) canvas of `css` CSS pixels at `scale` device
/// pixels per CSS pixel, for a PNG file.
pub fn offscreen_grid(
    grid: &HeadGrid<'_>,
    (width, height): (f64, f64),
    scale: f64,
) -> Result<HtmlCanvasElement, Said> {
    offscreen((width * scale, height * scale), |area| {
        draw_head_grid(area, grid, &style(scale)).map(|_| ())
    })
}

/// The token lines painted on a new (detached) canvas of `css` CSS pixels at `scale`
/// device pixels per CSS pixel, for a PNG file.
pub fn offscreen_lines(
    lines: &TokenLines,
    (width, height): (f64, f64),
    scale: f64,
) -> Result<HtmlCanvasElement, Said> {
    offscreen((width * scale, height * scale), |area| {
        draw_token_lines(area, lines, &LinesStyle::scaled(scale)).map(|_| ())
    })
}

/// The browser gave a canvas no 2D drawing context.
const NO_CONTEXT: Tr = msg::figure::PAINT_NO_CONTEXT;

/// The browser made no canvas.
const NO_CANVAS: Tr = msg::figure::PAINT_NO_CANVAS;

fn detached_canvas() -> Result<HtmlCanvasElement, Said> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .and_then(|e| e.dyn_into().ok())
        .ok_or_else(|| NO_CANVAS.into())
}
