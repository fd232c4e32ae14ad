//! Drawing a [`Heatmap`] on any plotters backend.

use plotters::coord::Shift;
use plotters::prelude::{
    DrawingArea, DrawingAreaErrorKind, DrawingBackend, FontDesc, FontFamily, FontStyle,
    FontTransform, PathElement, RGBAColor, RGBColor, Rectangle, TextStyle,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, ShapeStyle};

use crate::heatmap::Heatmap;
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
const INK: RGBColor = RGBColor(20, 20, 20);
const MUTED_INK: RGBColor = RGBColor(70, 70, 70);
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

/// How the figure is drawn, independent of its data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeatmapStyle {
    /// Multiplies every length given in pixels (text sizes, margins, line widths). Use the
    /// display's `devicePixelRatio` when the backend's pixels are device pixels, so a
    /// canvas drawn at 2× looks like the 1× figure, only sharper.
    pub scale: f64,
    /// Numbers inside the cells.
    pub cell_text: CellText,
}

impl Default for HeatmapStyle {
    fn default() -> Self {
        HeatmapStyle {
            scale: 1.0,
            cell_text: CellText::Auto,
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
    };

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
    if step > 1 {
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
    legend_x: f64,
    legend_h: f64,
}

const MAX_CELL: f64 = 140.0;

/// Above this many cells, colours are rounded to [`MANY_CELLS_LEVELS`] steps.
const MANY_CELLS: usize = 256 * 256;
/// Colour steps for large matrices, whose cells are too small to tell finer shades apart.
const MANY_CELLS_LEVELS: f32 = 64.0;

fn plan_layout(data: &Heatmap, s: f64, (w, h): (f64, f64)) -> Layout {
    let (n, m) = (data.n_rows(), data.n_cols());
    let pad = 14.0 * s;
    let title_px = 22.0 * s;
    let axis_px = 16.0 * s;
    let tick_px = 15.0 * s;
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

    // Legend: gap, bar, tick, tick labels; or the caption or the masked swatch if wider.
    let tick_w = scale::ticks(data.range(), 4, 0.12)
        .iter()
        .map(|&v| text::width(&scale::format_value(v, 3), tick_px))
        .fold(0.0, f64::max);
    let bar_block = 24.0 * s + 22.0 * s + 7.0 * s + 5.0 * s + tick_w;
    let legend_caption_w = 24.0 * s + text::width(data.value_label(), tick_px);
    let swatch_w = if data.has_blocked() {
        24.0 * s + 22.0 * s + 8.0 * s + text::width("masked", tick_px)
    } else {
        0.0
    };
    let legend_w = bar_block.max(legend_caption_w).max(swatch_w) + 4.0 * s;

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
        let avail_w = w - 2.0 * pad - row_w - legend_w;
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
    let block_w = row_w + mat_w + legend_w;
    let left = pad.max((w - block_w) / 2.0);
    let mx = (left + row_w).round();
    let top = pad + title_band;
    let my = (top + col_band).round();
    // The colour bar spans the matrix (at least 180 px tall when there is room), leaving
    // room below it for the "masked" swatch.
    let swatch = if data.has_blocked() { 44.0 * s } else { 0.0 };
    let room = h - my - pad - swatch;
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
        legend_x: mx + mat_w + 24.0 * s,
        legend_h,
    }
}

fn row_caption(data: &Heatmap) -> String {
    format!("{} \u{2193}", data.row_axis())
}

fn col_caption(data: &Heatmap) -> String {
    format!("{} \u{2192}", data.col_axis())
}

fn font<'a>(px: f64, style: FontStyle) -> FontDesc<'a> {
    FontDesc::new(FontFamily::SansSerif, px, style)
}

fn anchored(style: TextStyle<'_>, h: HPos, v: VPos) -> TextStyle<'_> {
    style.pos(Pos::new(h, v))
}

fn p(x: f64, y: f64) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

/// Perceived lightness of a colour (0 dark – 1 light), to pick legible text on it.
fn lightness(c: RGBColor) -> f64 {
    (0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64) / 255.0
}

/// Diagonal hatch lines ("/") inside the rectangle `a`–`b` (exclusive), `spacing` apart.
fn hatch_lines(a: (i32, i32), b: (i32, i32), spacing: f64) -> Vec<[(i32, i32); 2]> {
    let (w, h) = ((b.0 - a.0 - 1) as f64, (b.1 - a.1 - 1) as f64);
    let mut lines = Vec::new();
    if w < 2.0 || h < 2.0 {
        return lines;
    }
    let mut t = spacing / 2.0;
    while t < w + h {
        // The line u + v = t from the left/bottom edge to the top/right edge, with v
        // measured upwards from the bottom.
        let (u0, v0) = if t <= h { (0.0, t) } else { (t - h, h) };
        let (u1, v1) = if t <= w { (t, 0.0) } else { (w, t - w) };
        let to_px = |u: f64, v: f64| p(a.0 as f64 + u, b.1 as f64 - 1.0 - v);
        lines.push([to_px(u0, v0), to_px(u1, v1)]);
        t += spacing;
    }
    lines
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw_masked<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    s: f64,
) -> DrawResult<DB> {
    area.draw(&Rectangle::new([a, b], MASK_FILL.filled()))?;
    let side = (b.0 - a.0).min(b.1 - a.1) as f64;
    if side >= 6.0 * s {
        let spacing = (side / 4.0).clamp(5.0 * s, 9.0 * s);
        let stroke = ShapeStyle::from(MASK_HATCH).stroke_width(s.round().max(1.0) as u32);
        for line in hatch_lines(a, b, spacing) {
            area.draw(&PathElement::new(line.to_vec(), stroke))?;
        }
    }
    Ok(())
}

/// Draws `data` as a heatmap filling `area`, and returns where its cells are.
///
/// Query tokens label the rows (left), key tokens the columns (top; rotated when they do
/// not fit across a cell). When the cells are too small for a label each, every k-th
/// token is labelled (k = 2, 5, 10, …) with its index, as `#10 street`. A legend on the
/// right shows the colour scale with numeric ticks (always including both ends of the
/// range). Blocked cells are grey with a diagonal hatch; empty rows are hatched, their
/// label starts with "∅" and, when the row is tall enough, "∅ empty row" is written
/// across it. Text sizes are pixels times `style.scale`.
///
/// The area is filled with [`BACKGROUND`] first. An empty matrix draws only the title and
/// returns [`CellMap::EMPTY`].
pub fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    let s = if style.scale.is_finite() && style.scale > 0.0 {
        style.scale
    } else {
        1.0
    };
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    area.fill(&BACKGROUND)?;
    let (n, m) = (data.n_rows(), data.n_cols());
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
    let map = CellMap {
        x0: l.mx as i32,
        y0: l.my as i32,
        cell: l.cell,
        rows: n,
        cols: m,
        gap: if l.cell >= 10.0 * s {
            s.round().max(1.0) as i32
        } else {
            0
        },
    };
    let mat_w = (map.edge_x(m) - map.x0) as f64;
    let centre_x = l.mx + mat_w / 2.0;

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

    draw_cells(area, data, &map, s, style)?;

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

    // Empty rows: a banner across the row when it is tall enough.
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

    draw_legend(area, data, &l, s)?;

    Ok(CellMap {
        x0: map.x0 + base.0,
        y0: map.y0 + base.1,
        ..map
    })
}

fn cell_colour(data: &Heatmap, v: f32) -> RGBColor {
    data.scale().at(data.range().normalise(v))
}

fn draw_cells<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    s: f64,
    style: &HeatmapStyle,
) -> DrawResult<DB> {
    let (n, m) = (data.n_rows(), data.n_cols());
    if map.gap == 0 {
        // Small cells: runs of equal colour in a row are painted as one rectangle. Large
        // matrices (a 512 × 512 matrix of softmax weights is mostly near-equal small
        // values) also round colours to MANY_CELLS_LEVELS steps so runs are long, which
        // keeps the canvas fast. Rows thinner than a pixel after rounding are not
        // painted: the pixel shows the row that owns it (the one `CellMap::cell_at`
        // finds there).
        let levels = (n * m > MANY_CELLS).then_some(MANY_CELLS_LEVELS);
        let cell_colour = |v: f32| {
            let t = data.range().normalise(v);
            data.scale().at(levels.map_or(t, |l| (t * l).round() / l))
        };
        for i in 0..n {
            if map.edge_y(i) == map.edge_y(i + 1) {
                continue;
            }
            let mut j = 0;
            while j < m {
                let blocked = data.is_blocked(i, j);
                let colour = if blocked {
                    MASK_FILL
                } else {
                    cell_colour(data.values()[i * m + j])
                };
                let mut end = j + 1;
                while end < m {
                    let b = data.is_blocked(i, end);
                    let c = if b {
                        MASK_FILL
                    } else {
                        cell_colour(data.values()[i * m + end])
                    };
                    if b != blocked || c != colour {
                        break;
                    }
                    end += 1;
                }
                let a = (map.edge_x(j), map.edge_y(i));
                let b = (map.edge_x(end), map.edge_y(i + 1));
                if a.0 == b.0 {
                    // Narrower than a pixel after rounding: its neighbour owns the pixel.
                } else if blocked {
                    // Hatch per cell so the stripes show where the cells are.
                    if map.cell >= 6.0 * s {
                        for k in j..end {
                            let (a, b) = map.drawn_rect(i, k).expect("in range");
                            draw_masked(area, a, b, s)?;
                        }
                    } else {
                        area.draw(&Rectangle::new([a, b], MASK_FILL.filled()))?;
                    }
                } else {
                    area.draw(&Rectangle::new([a, b], colour.filled()))?;
                }
                j = end;
            }
        }
        return Ok(());
    }

    let value_px = (map.cell * 0.3).min(15.0 * s);
    let widest_value = if data.range().min() < 0.0 {
        "\u{2212}0.00"
    } else {
        "0.00"
    };
    let annotate = style.cell_text == CellText::Auto
        && value_px >= 10.0 * s
        && text::width(widest_value, value_px) + 6.0 * s <= map.cell;
    let value_font = font(value_px, FontStyle::Normal);
    for i in 0..n {
        for j in 0..m {
            let (a, b) = map.drawn_rect(i, j).expect("in range");
            if data.is_blocked(i, j) {
                draw_masked(area, a, b, s)?;
                continue;
            }
            let v = data.values()[i * m + j];
            let colour = cell_colour(data, v);
            area.draw(&Rectangle::new([a, b], colour.filled()))?;
            if annotate {
                let ink = if lightness(colour) > 0.55 {
                    &INK
                } else {
                    &LIGHT_INK
                };
                let st = anchored(value_font.color(ink), HPos::Center, VPos::Center);
                let c = ((a.0 + b.0) as f64 / 2.0, (a.1 + b.1) as f64 / 2.0);
                area.draw_text(&scale::format_cell(v, 2), &st, p(c.0, c.1))?;
            }
        }
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    l: &Layout,
    s: f64,
) -> DrawResult<DB> {
    let (x, y, bw, bh) = (l.legend_x, l.my, 22.0 * s, l.legend_h);
    let caption = anchored(
        font(l.tick_px, FontStyle::Bold).color(&INK),
        HPos::Left,
        VPos::Bottom,
    );
    area.draw_text(data.value_label(), &caption, p(x, y - 8.0 * s))?;

    // The gradient, high values at the top, in strips about two pixels tall.
    let strips = ((bh / 2.0).round() as usize).clamp(2, 256);
    let range = data.range();
    for k in 0..strips {
        let y0 = y + bh * k as f64 / strips as f64;
        let y1 = y + bh * (k + 1) as f64 / strips as f64;
        let t = 1.0 - (k as f32 + 0.5) / strips as f32;
        let colour = data.scale().at(t);
        area.draw(&Rectangle::new([p(x, y0), p(x + bw, y1)], colour.filled()))?;
    }
    area.draw(&Rectangle::new(
        [p(x, y), p(x + bw, y + bh)],
        ShapeStyle::from(MUTED_INK).stroke_width(1),
    ))?;

    let tick_style = anchored(
        font(l.tick_px, FontStyle::Normal).color(&INK),
        HPos::Left,
        VPos::Center,
    );
    let tick_stroke = ShapeStyle::from(INK).stroke_width(s.round().max(1.0) as u32);
    for v in scale::ticks(range, 4, 0.12) {
        let ty = y + bh * (1.0 - range.normalise(v) as f64);
        area.draw(&PathElement::new(
            vec![p(x + bw, ty), p(x + bw + 7.0 * s, ty)],
            tick_stroke,
        ))?;
        area.draw_text(
            &scale::format_value(v, 3),
            &tick_style,
            p(x + bw + 12.0 * s, ty),
        )?;
    }
    if data.scale() == ColorScale::Diverging && range.min() < 0.0 && range.max() > 0.0 {
        // Zero is "no change": mark it across the bar.
        let ty = y + bh * (1.0 - range.normalise(0.0) as f64);
        area.draw(&PathElement::new(
            vec![p(x, ty), p(x + bw, ty)],
            ShapeStyle::from(MUTED_INK).stroke_width(1),
        ))?;
    }

    if data.has_blocked() {
        let sy = y + bh + 16.0 * s;
        let side = 22.0 * s;
        let (a, b) = (p(x, sy), p(x + side, sy + side));
        draw_masked(area, a, b, s)?;
        area.draw_text(
            "masked",
            &tick_style,
            p(x + side + 8.0 * s, sy + side / 2.0),
        )?;
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
        let map = CellMap {
            x0: 10,
            y0: 20,
            cell: 7.4,
            rows: 3,
            cols: 5,
            gap: 1,
        };
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

    #[test]
    fn hatch_lines_stay_inside() {
        for line in hatch_lines((10, 10), (40, 30), 6.0) {
            for (x, y) in line {
                assert!((10..40).contains(&x) && (10..30).contains(&y), "{x},{y}");
            }
        }
    }
}
