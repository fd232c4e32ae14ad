//! Drawing a [`Heatmap`] on any plotters backend.

use plotters::coord::Shift;
use plotters::prelude::{
    DrawingArea, DrawingAreaErrorKind, DrawingBackend, FontDesc, FontFamily, FontStyle,
    FontTransform, PathElement, RGBAColor, RGBColor, Rectangle, TextStyle,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, ShapeStyle};

use crate::cells::{self, Colouring};
use crate::heatmap::Heatmap;
use crate::legend::{GAP, Legend, NARROW_GAP};
use crate::scale::{self, ColorScale};
use crate::text;

/// Background of the figure.
pub const BACKGROUND: RGBColor = RGBColor(255, 255, 255);
/// Fill of a blocked (masked) cell: a neutral grey that no colour scale contains.
pub const MASK_FILL: RGBColor = RGBColor(200, 200, 200);
/// The hatch lines drawn over blocked cells.
pub const MASK_HATCH: RGBColor = RGBColor(118, 118, 118);
/// Colour of the "∅ empty row" marks.
pub const EMPTY_ROW_INK: RGBColor = RGBColor(176, 0, 32);
/// Outline and title of the selected head in a grid: an orange that no colour scale
/// contains and that stands out against both.
pub const SELECTED: RGBColor = RGBColor(230, 85, 13);
/// The row-entropy bars.
pub const ENTROPY_BAR: RGBColor = RGBColor(84, 84, 104);
/// The track behind a row-entropy bar: the row's largest possible entropy (uniform
/// attention over its allowed keys).
pub const ENTROPY_TRACK: RGBColor = RGBColor(226, 226, 232);
pub(crate) const INK: RGBColor = RGBColor(20, 20, 20);
pub(crate) const MUTED_INK: RGBColor = RGBColor(70, 70, 70);
const LIGHT_INK: RGBColor = RGBColor(255, 255, 255);

/// Whether numbers are written inside the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellText {
    /// Write each value (two decimals) when the cells are large enough to hold it.
    #[default]
    Auto,
    /// Never write values in the cells.
    Hidden,
}

/// How the field of cells reaches the backend.
///
/// A canvas pays for every call: a 256 × 256 heatmap of small cells is tens of thousands
/// of `fillRect`s (about 150 ms in Chromium), a grid of 8 heads of 64 tokens as many
/// again, while one `putImageData` of the whole field takes a few milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellField {
    /// One rectangle per cell (per run of equal colour when cells are small). Works on
    /// every backend and keeps SVG output editable: the default.
    #[default]
    Rectangles,
    /// The whole field (colours, white grid gaps, grey hatched masked cells) as one RGB
    /// bitmap through `DrawingBackend::blit_bitmap`; values, labels and legend are drawn
    /// on top as usual. Only for backends that implement `blit_bitmap` as one fast call,
    /// such as plotters' `BitMapBackend` or a canvas backend that forwards it to
    /// `putImageData`. plotters-canvas 0.3.1's `CanvasBackend` does **not**: it falls
    /// back to one `fillRect` per pixel, far slower than rectangles; so does
    /// plotters-svg without its `bitmap_encoder` feature.
    Bitmap,
}

/// How the figure is drawn, independent of its data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeatmapStyle {
    /// Multiplies every length given in pixels (text sizes, margins, line widths). Use the
    /// display's `devicePixelRatio` when the backend's pixels are device pixels, so a
    /// canvas drawn at 2× looks like the 1× figure, only sharper.
    pub scale: f64,
    /// Numbers inside the cells.
    pub cell_text: CellText,
    /// Rectangles or one bitmap for the cells.
    pub cell_field: CellField,
}

impl Default for HeatmapStyle {
    fn default() -> Self {
        HeatmapStyle {
            scale: 1.0,
            cell_text: CellText::Auto,
            cell_field: CellField::Rectangles,
        }
    }
}

impl HeatmapStyle {
    /// The default style at `scale` (e.g. `window.devicePixelRatio`).
    pub fn scaled(scale: f64) -> HeatmapStyle {
        HeatmapStyle {
            scale,
            ..HeatmapStyle::default()
        }
    }

    /// The same style with `field` for the cells.
    pub fn with_cell_field(self, field: CellField) -> HeatmapStyle {
        HeatmapStyle {
            cell_field: field,
            ..self
        }
    }

    /// `scale`, made safe: non-finite or non-positive scales are 1.
    pub(crate) fn px_scale(&self) -> f64 {
        if self.scale.is_finite() && self.scale > 0.0 {
            self.scale
        } else {
            1.0
        }
    }
}

/// Where the cells of a drawn heatmap are, in the backend's pixels (relative to the whole
/// backend, not to the drawing area), so that a pointer position can be turned back into
/// a (row, column).
///
/// Column `j` spans `x` from `edge_x(j)` (inclusive) to `edge_x(j + 1)` (exclusive), and
/// likewise for rows, so every pixel of the matrix belongs to exactly one cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellMap {
    x0: i32,
    y0: i32,
    cell: f64,
    rows: usize,
    cols: usize,
    gap: i32,
    /// The row-entropy side panel's columns of pixels, when drawn: `start..end`.
    side: Option<(i32, i32)>,
}

impl CellMap {
    /// A map with no cells (nothing was drawn).
    pub const EMPTY: CellMap = CellMap {
        x0: 0,
        y0: 0,
        cell: 0.0,
        rows: 0,
        cols: 0,
        gap: 0,
        side: None,
    };

    /// A map of `rows × cols` square cells of side `cell` whose top-left corner is at
    /// (`x0`, `y0`); a white gap of `gap` pixels on the right and bottom of each cell.
    pub(crate) fn new(
        (x0, y0): (i32, i32),
        cell: f64,
        (rows, cols): (usize, usize),
        gap: i32,
    ) -> CellMap {
        CellMap {
            x0,
            y0,
            cell,
            rows,
            cols,
            gap,
            side: None,
        }
    }

    /// The same map moved by (`dx`, `dy`) pixels.
    pub(crate) fn shifted(self, (dx, dy): (i32, i32)) -> CellMap {
        CellMap {
            x0: self.x0 + dx,
            y0: self.y0 + dy,
            side: self.side.map(|(a, b)| (a + dx, b + dx)),
            ..self
        }
    }

    /// The white gap between cells, in pixels (0 when cells are small).
    pub(crate) fn gap(&self) -> i32 {
        self.gap
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// True when no cell was drawn.
    pub fn is_empty(&self) -> bool {
        self.rows == 0 || self.cols == 0
    }

    /// The side of a cell in pixels (cells are square; edges are rounded to whole pixels).
    pub fn cell_size(&self) -> f64 {
        self.cell
    }

    fn edge(origin: i32, cell: f64, k: usize) -> i32 {
        origin + (k as f64 * cell).round() as i32
    }

    /// The left edge of column `j` (`j = cols` gives the matrix's right edge).
    pub fn edge_x(&self, j: usize) -> i32 {
        Self::edge(self.x0, self.cell, j)
    }

    /// The top edge of row `i` (`i = rows` gives the matrix's bottom edge).
    pub fn edge_y(&self, i: usize) -> i32 {
        Self::edge(self.y0, self.cell, i)
    }

    fn index(x: f64, origin: i32, cell: f64, count: usize) -> Option<usize> {
        if count == 0 || cell <= 0.0 || !x.is_finite() {
            return None;
        }
        let end = Self::edge(origin, cell, count) as f64;
        if x < origin as f64 || x >= end {
            return None;
        }
        let mut k = (((x - origin as f64) / cell).floor() as usize).min(count - 1);
        // Edges are rounded: step to the neighbour when `x` falls across a rounded edge.
        while k > 0 && x < Self::edge(origin, cell, k) as f64 {
            k -= 1;
        }
        while k + 1 < count && x >= Self::edge(origin, cell, k + 1) as f64 {
            k += 1;
        }
        Some(k)
    }

    /// The (row, column) under the pixel (`x`, `y`), or `None` outside the matrix.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let col = Self::index(x, self.x0, self.cell, self.cols)?;
        let row = Self::index(y, self.y0, self.cell, self.rows)?;
        Some((row, col))
    }

    /// The row whose entropy bar is under the pixel (`x`, `y`): `None` outside the
    /// row-entropy side panel, or when none was drawn. Rows share the matrix's edges.
    pub fn entropy_row_at(&self, x: f64, y: f64) -> Option<usize> {
        let (a, b) = self.side?;
        if !(x >= a as f64 && x < b as f64) {
            return None;
        }
        Self::index(y, self.y0, self.cell, self.rows)
    }

    /// The row-entropy side panel's pixel columns, `start..end`, when it was drawn.
    pub fn entropy_panel(&self) -> Option<(i32, i32)> {
        self.side
    }

    /// The pixels that belong to cell (`row`, `col`): upper-left (inclusive) and
    /// lower-right (exclusive) corners.
    pub fn cell_bounds(&self, row: usize, col: usize) -> Option<((i32, i32), (i32, i32))> {
        (row < self.rows && col < self.cols).then(|| {
            (
                (self.edge_x(col), self.edge_y(row)),
                (self.edge_x(col + 1), self.edge_y(row + 1)),
            )
        })
    }

    /// The rectangle painted for cell (`row`, `col`): its bounds less the white grid gap
    /// on the right and bottom (no gap when cells are small).
    pub fn drawn_rect(&self, row: usize, col: usize) -> Option<((i32, i32), (i32, i32))> {
        self.cell_bounds(row, col).map(|(a, b)| {
            (
                a,
                ((b.0 - self.gap).max(a.0 + 1), (b.1 - self.gap).max(a.1 + 1)),
            )
        })
    }

    /// The centre of cell (`row`, `col`).
    pub fn cell_centre(&self, row: usize, col: usize) -> Option<(f64, f64)> {
        self.cell_bounds(row, col)
            .map(|(a, b)| ((a.0 + b.0) as f64 / 2.0, (a.1 + b.1) as f64 / 2.0))
    }
}

/// Label steps: label every k-th token with k from 1, 2, 5, 10, 20, 25, 50, 100, …
fn nice_label_step(min: usize) -> usize {
    let mut base = 1;
    loop {
        let quarter = if base >= 10 { base * 25 / 10 } else { 2 * base };
        if let Some(k) = [base, 2 * base, quarter, 5 * base]
            .into_iter()
            .find(|&k| k >= min)
        {
            return k;
        }
        base *= 10;
    }
}

/// The text of label `i` when every `step`-th label is shown.
fn label_text(text: &str, i: usize, step: usize, empty: bool) -> String {
    let mut s = String::new();
    if empty {
        s.push_str("\u{2205} ");
    }
    // Numbered labels (positions, dimensions) already say where they are.
    if step > 1 && text != i.to_string() {
        s.push_str(&format!("#{i} "));
    }
    s.push_str(text);
    s
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct LabelPlan {
    px: f64,
    row_step: usize,
    col_step: usize,
    col_rotated: bool,
}

struct Geometry {
    rows: Vec<(usize, String)>,
    cols: Vec<(usize, String)>,
    row_w: f64,
    col_w: f64,
    col_band: f64,
    cell: f64,
}

/// Every length of the figure, in pixels relative to the drawing area.
struct Layout {
    plan: LabelPlan,
    rows: Vec<(usize, String)>,
    cols: Vec<(usize, String)>,
    title_px: f64,
    axis_px: f64,
    tick_px: f64,
    title_y: f64,
    mx: f64,
    my: f64,
    cell: f64,
    legend_h: f64,
    /// The gap left of the legend's colour bar (unscaled pixels).
    legend_gap: f64,
    side: Option<SidePlan>,
}

/// The row-entropy side panel, right of the matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SidePlan {
    /// The gap between the matrix and the panel.
    gap: f64,
    /// The whole panel, gap excluded.
    width: f64,
    bar_w: f64,
    /// Size of the per-row numbers, when rows are tall enough for them.
    text_px: Option<f64>,
    nats_w: f64,
    header_px: f64,
    columns: SideColumns,
}

/// How much of the entropy panel a canvas has room for: the narrower the canvas, the
/// fewer columns, so the matrix keeps most of the width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SideColumns {
    /// Bars, H in nats and H as a share of its maximum (canvases at least
    /// `FULL_SIDE_W` pixels wide, unscaled).
    BarsNatsShare,
    /// Bars and H in nats (at least `NARROW_W`).
    BarsNats,
    /// Bars only, on a shorter axis, under a shorter title.
    Bars,
}

/// Canvas widths (unscaled pixels) from which the entropy panel shows "% of max", and
/// from which it shows any numbers and the legend keeps its full gap.
const FULL_SIDE_W: f64 = 720.0;
const NARROW_W: f64 = 560.0;

impl SidePlan {
    /// The right edge of the nats column, for a panel whose left edge is at `x`.
    fn nats_right(&self, x: f64, s: f64) -> f64 {
        x + self.bar_w + 8.0 * s + self.nats_w
    }

    /// The right edge of the share column (the panel's last), for a panel at `x`.
    fn share_right(&self, x: f64, s: f64) -> f64 {
        x + self.width - 4.0 * s
    }
}

impl SideColumns {
    fn for_width(w: f64, s: f64) -> SideColumns {
        if w >= FULL_SIDE_W * s {
            SideColumns::BarsNatsShare
        } else if w >= NARROW_W * s {
            SideColumns::BarsNats
        } else {
            SideColumns::Bars
        }
    }

    fn title(self) -> &'static str {
        match self {
            SideColumns::Bars => "entropy",
            _ => "row entropy",
        }
    }
}

const MAX_CELL: f64 = 140.0;

/// The legend of a heatmap, `gap` (unscaled pixels) right of the figure.
fn legend(data: &Heatmap, gap: f64) -> Legend<'_> {
    Legend {
        scale: data.scale(),
        range: data.range(),
        caption: data.value_label(),
        masked: data.has_blocked(),
        gap,
    }
}

/// Column headings of the entropy panel's numbers.
const NATS_HEADING: &str = "nats";
const SHARE_HEADING: &str = "% of max";
/// Text sizes of the entropy panel: title, column headings, numbers.
const HEADER_PX: f64 = 15.0;
const SUB_PX: f64 = 13.0;
const ROW_PX: f64 = 14.0;

/// The bars-only panel's axis heading, `0–ln m`.
fn short_axis(max_nats: f64) -> String {
    format!("0\u{2013}{max_nats:.1}")
}

/// The entropy panel's size, when `data` has row entropies; rows at most `row_px` tall.
fn side_plan(data: &Heatmap, s: f64, row_px: f64, columns: SideColumns) -> Option<SidePlan> {
    if !data.has_row_entropy() {
        return None;
    }
    let header_px = HEADER_PX * s;
    let small_px = SUB_PX * s;
    let title_w = text::width(columns.title(), header_px) * 1.1;
    if columns == SideColumns::Bars {
        let bar_w = 40.0 * s;
        let axis_w = text::width(&short_axis((data.n_cols() as f64).ln()), small_px);
        return Some(SidePlan {
            gap: 10.0 * s,
            width: bar_w.max(title_w).max(axis_w) + 4.0 * s,
            bar_w,
            text_px: None,
            nats_w: 0.0,
            header_px,
            columns,
        });
    }
    let text_px = (row_px >= 11.0 * s).then_some(ROW_PX * s);
    let bar_w = 60.0 * s;
    let (nats_w, width) = match text_px {
        Some(px) => {
            let nats_w = text::width("0.00", px).max(text::width(NATS_HEADING, small_px));
            let share_w = if columns == SideColumns::BarsNatsShare {
                10.0 * s + text::width("100%", px).max(text::width(SHARE_HEADING, small_px))
            } else {
                0.0
            };
            (nats_w, bar_w + 8.0 * s + nats_w + share_w)
        }
        None => (
            0.0,
            bar_w.max(text::width("0 \u{2013} 0.00 nats", small_px)),
        ),
    };
    Some(SidePlan {
        gap: 16.0 * s,
        width: width.max(title_w) + 4.0 * s,
        bar_w,
        text_px,
        nats_w,
        header_px,
        columns,
    })
}

fn plan_layout(data: &Heatmap, s: f64, (w, h): (f64, f64)) -> Layout {
    let (n, m) = (data.n_rows(), data.n_cols());
    let columns = SideColumns::for_width(w, s);
    // A narrow canvas keeps a thinner margin and smaller legend ticks, for the matrix.
    let narrow = columns == SideColumns::Bars;
    let pad = if narrow { 8.0 } else { 14.0 } * s;
    let title_px = 22.0 * s;
    let axis_px = 16.0 * s;
    let tick_px = if narrow { 13.0 } else { 15.0 } * s;
    let (max_px, min_px) = (17.0 * s, 12.0 * s);
    let clip_w = 160.0 * s;
    let title_band = if data.title().is_empty() {
        0.0
    } else {
        title_px * 1.7
    };
    // The axis captions ("keys →" over "queries ↓") sit in the corner left of the column
    // labels and above the row labels, right-aligned against the matrix.
    let axis_caption_w = [row_caption(data), col_caption(data)]
        .iter()
        .map(|c| text::width(c, axis_px))
        .fold(0.0, f64::max);
    // Room for two lines, plus the overhang of labels on small cells (see below).
    let caption_h = 2.0 * 1.35 * axis_px + 12.0 * s + 0.6 * max_px;

    let legend_gap = if narrow { NARROW_GAP } else { GAP };
    let legend_w = legend(data, legend_gap).width(s, tick_px);
    let side = side_plan(
        data,
        s,
        (h - 2.0 * pad - title_band - caption_h) / n.max(1) as f64,
        columns,
    );
    let side_w = side.map_or(0.0, |p| p.gap + p.width);

    let labels = |texts: &[String], step: usize, px: f64, empty: &dyn Fn(usize) -> bool| {
        texts
            .iter()
            .enumerate()
            .filter(|(i, _)| i % step == 0)
            .map(|(i, t)| (i, text::clip(&label_text(t, i, step, empty(i)), px, clip_w)))
            .collect::<Vec<_>>()
    };
    let widest = |l: &[(usize, String)], px: f64| {
        l.iter()
            .map(|(_, t)| text::width(t, px))
            .fold(0.0, f64::max)
    };

    let geometry = |plan: LabelPlan| {
        let rows = labels(data.row_labels(), plan.row_step, plan.px, &|i| {
            data.is_empty_row(i)
        });
        let cols = labels(data.col_labels(), plan.col_step, plan.px, &|_| false);
        let row_w = (widest(&rows, plan.px).max(axis_caption_w + 0.6 * max_px) + 10.0 * s).ceil();
        let col_w = widest(&cols, plan.px);
        let col_band = if plan.col_rotated {
            col_w + 10.0 * s
        } else {
            plan.px * 1.6
        };
        let col_band = col_band.max(caption_h).ceil();
        let avail_w = w - 2.0 * pad - row_w - side_w - legend_w;
        let avail_h = h - 2.0 * pad - title_band - col_band;
        let cell = (avail_w / m as f64)
            .min(avail_h / n as f64)
            .min(MAX_CELL * s)
            .max(0.5);
        Geometry {
            rows,
            cols,
            row_w,
            col_w,
            col_band,
            cell,
        }
    };
    // Labels as large as the cells allow (12–17 px), every k-th when they would overlap.
    let next_plan = |g: &Geometry| {
        let px = (g.cell * 0.78).clamp(min_px, max_px);
        let step = nice_label_step((px * 1.25 / g.cell).ceil() as usize);
        let across = widest(&labels(data.col_labels(), 1, px, &|_| false), px);
        let col_rotated = step > 1 || across + 8.0 * s > g.cell;
        LabelPlan {
            px,
            row_step: step,
            col_step: step,
            col_rotated,
        }
    };
    let mut plan = LabelPlan {
        px: max_px,
        row_step: 1,
        col_step: 1,
        col_rotated: true,
    };
    let mut g = geometry(plan);
    for _ in 0..4 {
        let next = next_plan(&g);
        if next == plan {
            break;
        }
        plan = next;
        g = geometry(plan);
    }
    // The plan may not have settled: make sure the final cells hold the labels, only ever
    // labelling fewer tokens or rotating, so this converges.
    for _ in 0..4 {
        let mut fixed = plan;
        if !fixed.col_rotated && g.col_w + 8.0 * s > g.cell {
            fixed.col_rotated = true;
        }
        let need = nice_label_step((fixed.px * 1.25 / g.cell).ceil() as usize);
        if need > fixed.row_step {
            fixed = LabelPlan {
                row_step: need,
                col_step: need,
                col_rotated: true,
                ..fixed
            };
        }
        if fixed == plan {
            break;
        }
        plan = fixed;
        g = geometry(plan);
    }
    let Geometry {
        rows,
        cols,
        row_w,
        col_band,
        cell,
        ..
    } = g;

    let mat_w = cell * m as f64;
    let mat_h = cell * n as f64;
    // Centre the block (row labels, matrix, legend) horizontally.
    let block_w = row_w + mat_w + side_w + legend_w;
    let left = pad.max((w - block_w) / 2.0);
    let mx = (left + row_w).round();
    let top = pad + title_band;
    let my = (top + col_band).round();
    // The colour bar spans the matrix (at least 180 px tall when there is room), leaving
    // room below it for the "masked" swatch.
    let room = h - my - pad - legend(data, legend_gap).swatch_room(s);
    let legend_h = mat_h.max(room.min(180.0 * s)).min(room).max(60.0 * s);
    Layout {
        plan,
        rows,
        cols,
        title_px,
        axis_px,
        tick_px,
        title_y: pad + title_band / 2.0,
        mx,
        my,
        cell,
        legend_h,
        legend_gap,
        side,
    }
}

fn row_caption(data: &Heatmap) -> String {
    format!("{} \u{2193}", data.row_axis())
}

fn col_caption(data: &Heatmap) -> String {
    format!("{} \u{2192}", data.col_axis())
}

pub(crate) fn font<'a>(px: f64, style: FontStyle) -> FontDesc<'a> {
    FontDesc::new(FontFamily::SansSerif, px, style)
}

pub(crate) fn anchored(style: TextStyle<'_>, h: HPos, v: VPos) -> TextStyle<'_> {
    style.pos(Pos::new(h, v))
}

pub(crate) fn p(x: f64, y: f64) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

/// Perceived lightness of a colour (0 dark – 1 light), to pick legible text on it.
fn lightness(c: RGBColor) -> f64 {
    (0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64) / 255.0
}

pub(crate) type DrawResult<DB> =
    Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The height (pixels) at which [`draw_heatmap`] fills a `width`-pixel-wide area with
/// `data` and leaves no blank band under the matrix: the cells are as large as the width
/// allows (less the labels, the entropy panel and the legend), and the height holds the
/// title, the column labels, the rows and the legend's minimum. A page sizes its canvas
/// with it, so short and long sentences, square and rectangular matrices all fit.
pub fn natural_height(data: &Heatmap, style: &HeatmapStyle, width: f64) -> f64 {
    let s = style.px_scale();
    let (n, m) = (data.n_rows().max(1) as f64, data.n_cols().max(1) as f64);
    // As tall as the cells could ever need, so only the width limits them.
    let tall = width * (n / m).max(1.0) * 2.0 + 400.0 * s;
    let layout = plan_layout(data, s, (width, tall));
    let below = if SideColumns::for_width(width, s) == SideColumns::Bars {
        8.0
    } else {
        14.0
    } * s;
    let legend_min = 120.0 * s + legend(data, layout.legend_gap).swatch_room(s);
    let matrix = (layout.cell * n).max(legend_min);
    (layout.my + matrix + below).ceil()
}

/// Draws `data` as a heatmap filling `area`, and returns where its cells are.
///
/// Query tokens label the rows (left), key tokens the columns (top; rotated when they do
/// not fit across a cell). When the cells are too small for a label each, every k-th
/// token is labelled (k = 2, 5, 10, …) with its index, as `#10 street`. A legend on the
/// right shows the colour scale with numeric ticks (always including both ends of the
/// range). Blocked cells are grey with a diagonal hatch; empty rows are hatched, their
/// label starts with "∅" and, when the row is tall enough, "∅ empty row" is written
/// across it. Differences ([`ColorScale::Diverging`]) write positive values with a "+".
/// Text sizes are pixels times `style.scale`.
///
/// When the heatmap carries row entropies ([`Heatmap::with_row_entropy`]), a side panel
/// between the matrix and the legend shows one horizontal bar per row, on the rows' own
/// edges: a light track as long as the row's largest possible entropy (`ln` of its
/// allowed keys) and a dark bar as long as `H_i`, both on one axis from 0 to `ln m`; when
/// rows are tall enough, `H_i` in nats and its normalised value in percent are written
/// beside it. Empty rows show "∅". [`CellMap::entropy_row_at`] finds the row under the
/// pointer there. On a narrow area the panel gives the matrix room: below 720 px
/// (unscaled) it drops the percent column, below 560 px it shows the bars alone on a
/// shorter axis, and the legend (with smaller ticks) and the margins narrow.
///
/// The area is filled with [`BACKGROUND`] first. An empty matrix draws only the title and
/// returns [`CellMap::EMPTY`].
pub fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_heatmap_parts(area, data, style, Parts::All)
}

/// Repaints only what depends on `data`'s values — the cells (with their numbers and
/// empty-row banners) and the rows of the entropy panel — over a figure that
/// [`draw_heatmap`] drew on the same area with the same [`crate::HeatmapFrame`]; title, labels,
/// captions, panel headings and legend are left as they are. The result is pixel for
/// pixel what [`draw_heatmap`] would draw, in a fraction of the backend calls (a slider
/// drag changes the values of a figure and nothing else). Over a different frame the
/// result is undefined: compare frames first.
pub fn repaint_heatmap_values<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_heatmap_parts(area, data, style, Parts::Values)
}

/// Which parts of a figure a paint draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parts {
    /// Everything, on a cleared area.
    All,
    /// Only what depends on the values, over the same frame drawn before.
    Values,
}

fn paint_heatmap_parts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
    parts: Parts,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    let s = style.px_scale();
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    let (n, m) = (data.n_rows(), data.n_cols());
    let all = parts == Parts::All || n == 0 || m == 0;
    if all {
        area.fill(&BACKGROUND)?;
    }
    if n == 0 || m == 0 {
        if !data.title().is_empty() {
            let title = text::clip(data.title(), 22.0 * s, w - 28.0 * s);
            let st = anchored(
                font(22.0 * s, FontStyle::Bold).color(&INK),
                HPos::Center,
                VPos::Center,
            );
            area.draw_text(&title, &st, p(w / 2.0, 14.0 * s + 22.0 * s * 0.85))?;
        }
        return Ok(CellMap::EMPTY);
    }

    let l = plan_layout(data, s, (w, h));
    let base = area.get_base_pixel();
    let mut map = CellMap::new(
        (l.mx as i32, l.my as i32),
        l.cell,
        (n, m),
        grid_gap(l.cell, s),
    );
    let mat_w = (map.edge_x(m) - map.x0) as f64;
    let centre_x = l.mx + mat_w / 2.0;

    if all {
        draw_frame(area, data, &l, &map, centre_x, s, w)?;
    }
    cells::paint_cells(area, data, &map, &Colouring::of(data), s, style.cell_field)?;
    draw_values(area, data, &map, s, style)?;
    draw_banners(area, data, &l, &map, (centre_x, mat_w), s)?;

    let mut figure_right = l.mx + mat_w;
    if let Some(side) = &l.side {
        let x = figure_right + side.gap;
        draw_entropy_panel(area, data, &map, side, x, s, parts)?;
        map.side = Some((x.round() as i32, (x + side.width).round() as i32));
        figure_right = x + side.width;
    }
    if all {
        legend(data, l.legend_gap).draw(
            area,
            figure_right,
            l.my,
            l.legend_h,
            s,
            l.tick_px,
            style.cell_field,
        )?;
    }
    Ok(map.shifted(base))
}

/// The parts of a heatmap that do not depend on its values: title (over the matrix's
/// centre `centre_x`), axis captions, row and column labels.
fn draw_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    l: &Layout,
    map: &CellMap,
    centre_x: f64,
    s: f64,
    w: f64,
) -> DrawResult<DB> {
    // Title and axis captions.
    if !data.title().is_empty() {
        let title = text::clip(data.title(), l.title_px, w - 28.0 * s);
        let tw = text::width(&title, l.title_px);
        let x = centre_x.clamp(
            14.0 * s + tw / 2.0,
            (w - 14.0 * s - tw / 2.0).max(14.0 * s + tw / 2.0),
        );
        let st = anchored(
            font(l.title_px, FontStyle::Bold).color(&INK),
            HPos::Center,
            VPos::Center,
        );
        area.draw_text(&title, &st, p(x, l.title_y))?;
    }
    let caption = anchored(
        font(l.axis_px, FontStyle::Normal).color(&MUTED_INK),
        HPos::Right,
        VPos::Bottom,
    );
    // Keep clear of the first row and column labels, which overhang small cells.
    let overhang = (l.plan.px * 0.6 - l.cell / 2.0).max(0.0);
    let caption_x = l.mx - 7.0 * s - overhang;
    let caption_y = l.my - 6.0 * s - overhang;
    area.draw_text(&row_caption(data), &caption, p(caption_x, caption_y))?;
    let above = caption_y - 1.35 * l.axis_px;
    area.draw_text(&col_caption(data), &caption, p(caption_x, above))?;

    // Row labels, right-aligned against the matrix.
    let label_font = font(l.plan.px, FontStyle::Normal);
    for (i, t) in &l.rows {
        let ink = if data.is_empty_row(*i) {
            &EMPTY_ROW_INK
        } else {
            &INK
        };
        let (_, c) = map.cell_centre(*i, 0).expect("row in range");
        let st = anchored(label_font.color(ink), HPos::Right, VPos::Center);
        area.draw_text(t, &st, p(l.mx - 7.0 * s, c))?;
    }
    // Column labels above the matrix: rotated to read upwards, or across when they fit.
    for (j, t) in &l.cols {
        let (c, _) = map.cell_centre(0, *j).expect("column in range");
        let st = if l.plan.col_rotated {
            anchored(
                label_font.color(&INK).transform(FontTransform::Rotate270),
                HPos::Left,
                VPos::Center,
            )
        } else {
            anchored(label_font.color(&INK), HPos::Center, VPos::Bottom)
        };
        area.draw_text(t, &st, p(c, l.my - 7.0 * s))?;
    }
    Ok(())
}

/// Empty rows: a banner across the row, centred on the matrix (`centre_x`, `mat_w`
/// wide), when it is tall enough.
fn draw_banners<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    l: &Layout,
    map: &CellMap,
    (centre_x, mat_w): (f64, f64),
    s: f64,
) -> DrawResult<DB> {
    let banner_px = (l.cell * 0.62).min(16.0 * s);
    if banner_px >= 11.0 * s {
        let banner = "\u{2205} empty row";
        let bw = text::width(banner, banner_px) + 12.0 * s;
        if bw <= mat_w {
            for &i in data.empty_rows() {
                let (_, cy) = map.cell_centre(i, 0).expect("row in range");
                let half = (bw / 2.0, banner_px * 0.75);
                let white = RGBAColor(255, 255, 255, 0.92);
                area.draw(&Rectangle::new(
                    [
                        p(centre_x - half.0, cy - half.1),
                        p(centre_x + half.0, cy + half.1),
                    ],
                    white.filled(),
                ))?;
                let st = anchored(
                    font(banner_px, FontStyle::Bold).color(&EMPTY_ROW_INK),
                    HPos::Center,
                    VPos::Center,
                );
                area.draw_text(banner, &st, p(centre_x, cy))?;
            }
        }
    }
    Ok(())
}

/// The white gap between cells of side `cell`: one (scaled) pixel, none when small.
pub(crate) fn grid_gap(cell: f64, s: f64) -> i32 {
    if cell >= 10.0 * s {
        s.round().max(1.0) as i32
    } else {
        0
    }
}

/// The number written in a cell: two decimals; differences signed.
fn cell_label(data: &Heatmap, v: f32) -> String {
    let text = scale::format_cell(v, 2);
    let zero = text.chars().all(|c| c == '0' || c == '.');
    if data.scale() == ColorScale::Diverging && v > 0.0 && !zero {
        format!("+{text}")
    } else {
        text
    }
}

/// Values inside the cells, when they are large enough (and `style` asks for them).
fn draw_values<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    s: f64,
    style: &HeatmapStyle,
) -> DrawResult<DB> {
    let value_px = (map.cell * 0.3).min(15.0 * s);
    let widest_value = if data.range().min() < 0.0 {
        "\u{2212}0.00"
    } else {
        "0.00"
    };
    let annotate = style.cell_text == CellText::Auto
        && map.gap > 0
        && value_px >= 10.0 * s
        && text::width(widest_value, value_px) + 6.0 * s <= map.cell;
    if !annotate {
        return Ok(());
    }
    let colouring = Colouring::of(data);
    let value_font = font(value_px, FontStyle::Normal);
    let m = data.n_cols();
    for i in 0..data.n_rows() {
        for j in 0..m {
            if data.is_blocked(i, j) {
                continue;
            }
            let (a, b) = map.drawn_rect(i, j).expect("in range");
            let v = data.values()[i * m + j];
            let ink = if lightness(colouring.colour(v)) > 0.55 {
                &INK
            } else {
                &LIGHT_INK
            };
            let st = anchored(value_font.color(ink), HPos::Center, VPos::Center);
            let c = ((a.0 + b.0) as f64 / 2.0, (a.1 + b.1) as f64 / 2.0);
            area.draw_text(&cell_label(data, v), &st, p(c.0, c.1))?;
        }
    }
    Ok(())
}

/// The row-entropy side panel, its left edge at `x`: headings (with `Parts::All`) and
/// one bar (and numbers) per row.
fn draw_entropy_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    side: &SidePlan,
    x: f64,
    s: f64,
    parts: Parts,
) -> DrawResult<DB> {
    let (n, m) = (data.n_rows(), data.n_cols());
    let max_nats = (m as f64).ln();
    let (nats_right, right) = (side.nats_right(x, s), side.share_right(x, s));
    let share = side.columns == SideColumns::BarsNatsShare;
    let x0 = x.round() as i32;
    match parts {
        Parts::All => draw_entropy_headings(area, map, side, x, s, max_nats)?,
        // The rows' band back to the background: from just left of the axis line (a
        // canvas strokes a 1-pixel line across two pixel columns) to the panel's right
        // edge, a little above and below the rows for the numbers' glyphs. The gap to
        // the matrix is blank, the headings sit further up.
        Parts::Values => {
            let margin = (3.0 * s).round() as i32;
            area.draw(&Rectangle::new(
                [
                    (x0 - margin, map.edge_y(0) - margin),
                    ((x + side.width).round() as i32, map.edge_y(n) + margin),
                ],
                BACKGROUND.filled(),
            ))?
        }
    }
    // The bars share one axis, 0 to ln m nats (the entropy of uniform attention over
    // every key).
    let per_nat = if max_nats > 0.0 {
        side.bar_w / max_nats
    } else {
        0.0
    };
    let text_px = side
        .text_px
        .filter(|_| map.cell >= 11.0 * s)
        .map(|px| px.min(map.cell * 0.85));
    for i in 0..n {
        let (y0, y1) = (map.edge_y(i), map.edge_y(i + 1));
        if y0 == y1 {
            continue;
        }
        let hgt = (y1 - y0) as f64;
        let inset = if hgt >= 6.0 {
            (hgt * 0.18).round() as i32
        } else {
            0
        };
        let (b0, b1) = (y0 + inset, (y1 - inset).max(y0 + inset + 1));
        let cy = (y0 + y1) as f64 / 2.0;
        if data.is_empty_row(i) {
            if hgt >= 8.0 * s {
                let px = text_px.unwrap_or(hgt * 0.9).min(hgt * 0.9);
                let st = anchored(
                    font(px, FontStyle::Bold).color(&EMPTY_ROW_INK),
                    HPos::Left,
                    VPos::Center,
                );
                area.draw_text("\u{2205}", &st, p(x + 2.0 * s, cy))?;
            }
            continue;
        }
        let Some((nats, normalised)) = data.row_entropy(i) else {
            continue;
        };
        let track = ((data.allowed_in_row(i).max(1) as f64).ln() * per_nat).min(side.bar_w);
        let bar = (nats.max(0.0) as f64 * per_nat).min(side.bar_w);
        if track >= 0.5 {
            area.draw(&Rectangle::new(
                [(x0, b0), ((x + track).round() as i32, b1)],
                ENTROPY_TRACK.filled(),
            ))?;
        }
        if bar >= 0.5 {
            area.draw(&Rectangle::new(
                [(x0, b0), ((x + bar).round() as i32, b1)],
                ENTROPY_BAR.filled(),
            ))?;
        }
        if let Some(px) = text_px {
            let st = |c| {
                anchored(
                    font(px, FontStyle::Normal).color(c),
                    HPos::Right,
                    VPos::Center,
                )
            };
            let nats = scale::format_cell(nats, 2);
            area.draw_text(&nats, &st(&INK), p(nats_right, cy))?;
            if !share {
                continue;
            }
            // With one allowed key the largest entropy is 0: no share to speak of.
            let share = if data.allowed_in_row(i) > 1 {
                format!("{:.0}%", (normalised * 100.0).clamp(0.0, 100.0))
            } else {
                "\u{2013}".to_string()
            };
            area.draw_text(&share, &st(&MUTED_INK), p(right, cy))?;
        }
    }
    // The axis' zero: a thin line the bars start from.
    area.draw(&PathElement::new(
        vec![(x0, map.edge_y(0)), (x0, map.edge_y(n) - 1)],
        ShapeStyle::from(MUTED_INK).stroke_width(1),
    ))?;
    Ok(())
}

/// The entropy panel's title and column headings (or its axis), above the rows.
fn draw_entropy_headings<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    map: &CellMap,
    side: &SidePlan,
    x: f64,
    s: f64,
    max_nats: f64,
) -> DrawResult<DB> {
    let top = map.edge_y(0) as f64;
    let small_px = SUB_PX * s;
    let (nats_right, right) = (side.nats_right(x, s), side.share_right(x, s));
    let heading = anchored(
        font(side.header_px, FontStyle::Bold).color(&INK),
        HPos::Left,
        VPos::Bottom,
    );
    let sub_y = top - 8.0 * s;
    area.draw_text(
        side.columns.title(),
        &heading,
        p(x, sub_y - 1.45 * small_px),
    )?;
    let sub = |h| {
        anchored(
            font(small_px, FontStyle::Normal).color(&MUTED_INK),
            h,
            VPos::Bottom,
        )
    };
    match side.text_px {
        Some(_) => {
            area.draw_text(NATS_HEADING, &sub(HPos::Right), p(nats_right, sub_y))?;
            if side.columns == SideColumns::BarsNatsShare {
                area.draw_text(SHARE_HEADING, &sub(HPos::Right), p(right, sub_y))?;
            }
        }
        None if side.columns == SideColumns::Bars => {
            area.draw_text(&short_axis(max_nats), &sub(HPos::Left), p(x, sub_y))?;
        }
        None => {
            let axis = format!("0 \u{2013} {max_nats:.2} nats");
            area.draw_text(&axis, &sub(HPos::Left), p(x, sub_y))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_steps_are_round_numbers() {
        let steps: Vec<usize> = [0, 1, 2, 3, 4, 6, 11, 21, 26, 51]
            .into_iter()
            .map(nice_label_step)
            .collect();
        assert_eq!(steps, [1, 1, 2, 5, 5, 10, 20, 25, 50, 100]);
    }

    #[test]
    fn cell_map_finds_every_pixel_once() {
        let map = CellMap::new((10, 20), 7.4, (3, 5), 1);
        for x in 10..map.edge_x(5) {
            let (_, c) = map.cell_at(x as f64, 20.0).unwrap();
            let ((x0, _), (x1, _)) = map.cell_bounds(0, c).unwrap();
            assert!(x0 <= x && x < x1, "x {x} in column {c} ({x0}..{x1})");
        }
        assert_eq!(map.cell_at(9.9, 25.0), None);
        assert_eq!(map.cell_at(map.edge_x(5) as f64, 25.0), None);
        assert_eq!(map.cell_at(12.0, f64::NAN), None);
        assert_eq!(CellMap::EMPTY.cell_at(0.0, 0.0), None);
    }
}
