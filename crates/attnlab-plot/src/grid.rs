//! Small multiples: every head of a variant as a small heatmap, in a grid.

use plotters::coord::Shift;
use plotters::prelude::{
    DrawingArea, DrawingAreaErrorKind, DrawingBackend, FontStyle, PathElement,
};
use plotters::style::ShapeStyle;
use plotters::style::text_anchor::{HPos, VPos};

use crate::cell_map::{CellMap, grid_gap};
use crate::cells::{self, Colouring};
use crate::heatmap::Heatmap;
use crate::legend::{Beside, Legend};
use crate::scale::{ColorScale, Palette, ValueRange};
use crate::style::{
    BACKGROUND, DrawResult, HeatmapStyle, INK, MUTED_INK, Parts, SELECTED, anchored, font, p,
};
use crate::text;
use crate::words::Words;

/// Size of the tiles' titles ("head i"), unscaled pixels.
const TILE_PX: f64 = 14.0;

/// All heads of one variant, to draw as small multiples with [`draw_head_grid`].
///
/// Every head is drawn with the colour scale of the first and one shared range (the union
/// of the heads' ranges: `0..=1` for weights), so that equal colours mean equal values
/// across the grid, and one legend explains them all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeadGrid<'a> {
    /// One heatmap per head, in head order (1–16 fit comfortably; more are drawn smaller).
    /// Their titles and labels are not drawn: tiles are titled "head i" (from 0).
    pub heads: &'a [Heatmap],
    /// The head to outline, if any.
    pub selected: Option<usize>,
    /// A title above the grid; empty for none.
    pub title: &'a str,
    /// The number of columns; `None`: the shape that makes the cells largest.
    pub columns: Option<usize>,
    /// Each tile's title (one per head); `None`: "head i".
    pub tile_titles: Option<&'a [String]>,
}

impl<'a> HeadGrid<'a> {
    /// The grid of `heads`, nothing selected, no title.
    pub fn new(heads: &'a [Heatmap]) -> HeadGrid<'a> {
        HeadGrid {
            heads,
            selected: None,
            title: "",
            columns: None,
            tile_titles: None,
        }
    }

    /// The same grid in `columns` columns (at least 1), e.g. one row per layer.
    pub fn with_columns(self, columns: usize) -> HeadGrid<'a> {
        HeadGrid {
            columns: Some(columns.max(1)),
            ..self
        }
    }

    /// The same grid with these tile titles (one per head; missing ones are "head i").
    pub fn with_tile_titles(self, titles: &'a [String]) -> HeadGrid<'a> {
        HeadGrid {
            tile_titles: Some(titles),
            ..self
        }
    }

    /// The title of tile `head`.
    pub(crate) fn tile_title(&self, head: usize) -> String {
        self.tile_titles
            .and_then(|t| t.get(head).cloned())
            .unwrap_or_else(|| {
                let word = self
                    .heads
                    .first()
                    .map_or(Words::ENGLISH.head, |h| h.words().head);
                format!("{word} {head}")
            })
    }

    /// The same grid with head `head` outlined.
    pub fn with_selected(self, head: usize) -> HeadGrid<'a> {
        HeadGrid {
            selected: Some(head),
            ..self
        }
    }

    /// The same grid with a title above it.
    pub fn with_title(self, title: &'a str) -> HeadGrid<'a> {
        HeadGrid { title, ..self }
    }

    /// The scale and range all tiles share.
    pub(crate) fn shared_colours(&self) -> Option<(ColorScale, ValueRange)> {
        let first = self.heads.first()?;
        let (lo, hi) = self.heads.iter().fold((f32::MAX, f32::MIN), |(lo, hi), h| {
            (lo.min(h.range().min()), hi.max(h.range().max()))
        });
        Some((
            first.scale(),
            ValueRange::new(lo, hi).unwrap_or(first.range()),
        ))
    }

    /// The colours all tiles share.
    fn colouring(&self, palette: Palette) -> Option<Colouring> {
        self.shared_colours()
            .map(|(scale, range)| Colouring::new(scale, range, palette))
    }
}

/// Where the tiles of a drawn [`HeadGrid`] are, in the backend's pixels (like
/// [`CellMap`], relative to the whole backend), so that a click can select a head and
/// hover can find a cell.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeadGridMap {
    tiles: Vec<Tile>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Tile {
    /// The tile's clickable box (title, matrix and half the gap around them):
    /// upper-left inclusive, lower-right exclusive. Boxes of neighbours touch.
    bounds: ((i32, i32), (i32, i32)),
    cells: CellMap,
}

impl HeadGridMap {
    /// Number of heads drawn.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// True when no head was drawn.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The head whose tile is under the pixel (`x`, `y`), title and margins included, so
    /// a click anywhere on a tile selects it; `None` between the grid and the legend or
    /// outside the grid.
    pub fn head_at(&self, x: f64, y: f64) -> Option<usize> {
        self.tiles.iter().position(|t| {
            let ((x0, y0), (x1, y1)) = t.bounds;
            x >= x0 as f64 && x < x1 as f64 && y >= y0 as f64 && y < y1 as f64
        })
    }

    /// The (head, row, column) of the cell under the pixel (`x`, `y`).
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize, usize)> {
        self.tiles
            .iter()
            .enumerate()
            .find_map(|(h, t)| t.cells.cell_at(x, y).map(|(i, j)| (h, i, j)))
    }

    /// Where the cells of `head` are.
    pub fn cells(&self, head: usize) -> Option<&CellMap> {
        self.tiles.get(head).map(|t| &t.cells)
    }

    /// The clickable box of `head`: upper-left (inclusive), lower-right (exclusive).
    pub fn tile_bounds(&self, head: usize) -> Option<((i32, i32), (i32, i32))> {
        self.tiles.get(head).map(|t| t.bounds)
    }
}

/// The size of the tiles: one title band above a matrix of `n × m` cells.
#[derive(Debug, Clone, Copy)]
struct TileSize {
    n: usize,
    m: usize,
    title_h: f64,
    /// The narrowest a tile may be (its title's width).
    min_w: f64,
    max_cell: f64,
}

/// The gap between tiles and the size of their titles: 14 and [`TILE_PX`] (× `s`), but
/// when the columns are fixed (a narrow screen) and the widest title (`widest(px)`) does
/// not fit its column of `avail_w`, the gap narrows to 6 and then the titles shrink, to
/// 11 at the least (the smallest readable size).
fn fitted_titles(
    columns: Option<usize>,
    heads: usize,
    avail_w: f64,
    widest: impl Fn(f64) -> f64,
    s: f64,
) -> (f64, f64) {
    let (mut gap, mut px) = (14.0 * s, TILE_PX * s);
    let Some(cols) = columns.map(|c| c.clamp(1, heads.max(1)) as f64) else {
        return (gap, px);
    };
    let room = |gap: f64| (avail_w - (cols - 1.0) * gap) / cols;
    if widest(px) > room(gap) {
        gap = 6.0 * s;
    }
    let need = widest(px);
    if need > room(gap) {
        px = (px * room(gap) / need).max(11.0 * s);
    }
    (gap, px)
}

/// Columns, rows and cell size of the grid that makes the cells largest, among the
/// shapes whose tiles are wide enough for their titles (any shape if none is).
fn grid_shape(
    heads: usize,
    t: TileSize,
    (avail_w, avail_h): (f64, f64),
    gap: f64,
    columns: Option<usize>,
) -> (usize, usize, f64) {
    let shape = |cols: usize| {
        let rows = heads.div_ceil(cols).max(1);
        let box_w = (avail_w - (cols - 1) as f64 * gap) / cols as f64;
        let box_h = (avail_h - (rows - 1) as f64 * gap) / rows as f64 - t.title_h;
        let cell = (box_w / t.m as f64).min(box_h / t.n as f64).min(t.max_cell);
        (cols, rows, cell, box_w >= t.min_w)
    };
    let shapes: Vec<_> = match columns {
        Some(c) => vec![shape(c.clamp(1, heads.max(1)))],
        None => (1..=heads.max(1)).map(shape).collect(),
    };
    let titled = shapes.iter().any(|s| s.3);
    let best = shapes.into_iter().filter(|s| s.3 || !titled).fold(
        (heads.max(1), 1, 0.0),
        |best, (c, r, cell, _)| {
            if cell > best.2 + 1e-9 {
                (c, r, cell)
            } else {
                best
            }
        },
    );
    (best.0, best.1, best.2.max(0.25))
}

/// Draws every head of `grid` as a small heatmap filling `area`, and returns where the
/// tiles and their cells are.
///
/// Tiles are titled "head i" and laid out in the rows and columns that make the cells
/// largest; token labels and values are left out (hover reads them). Blocked cells are
/// grey (hatched when the cells are large enough) exactly as in [`crate::draw_heatmap`],
/// never a colour of the scale. The selected head is outlined and titled in
/// [`SELECTED`]. One legend on the right explains the shared colours. `style.cell_text`
/// is ignored; `style.cell_field` = [`crate::CellField::Bitmap`] paints each tile with
/// one blit.
///
/// The area is filled with [`BACKGROUND`] first. No heads (or heads with no cells) draw
/// only the title and return an empty map.
pub fn draw_head_grid<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &HeadGrid<'_>,
    style: &HeatmapStyle,
) -> Result<HeadGridMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_grid_parts(area, grid, style, Parts::All)
}

/// Repaints only the tiles' cells over a grid that [`draw_head_grid`] drew on the same
/// area with the same [`crate::HeadGridFrame`] (titles, outline and legend stay); pixel
/// for pixel what [`draw_head_grid`] would draw. Over a different frame the result is
/// undefined: compare frames first.
pub fn repaint_head_grid_values<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &HeadGrid<'_>,
    style: &HeatmapStyle,
) -> Result<HeadGridMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_grid_parts(area, grid, style, Parts::Values)
}

fn paint_grid_parts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &HeadGrid<'_>,
    style: &HeatmapStyle,
    parts: Parts,
) -> Result<HeadGridMap, DrawingAreaErrorKind<DB::ErrorType>> {
    let all = parts == Parts::All;
    let s = style.px_scale();
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    if all {
        area.fill(&BACKGROUND)?;
    }
    let pad = 14.0 * s;
    let title_px = 20.0 * s;
    let tick_px = 14.0 * s;
    let title_band = if grid.title.is_empty() {
        0.0
    } else {
        title_px * 1.7
    };
    if all && !grid.title.is_empty() {
        let title = text::clip(grid.title, title_px, w - 2.0 * pad);
        let st = anchored(
            font(title_px, FontStyle::Bold).color(&INK),
            HPos::Center,
            VPos::Center,
        );
        area.draw_text(&title, &st, p(w / 2.0, pad + title_band / 2.0))?;
    }
    let n = grid.heads.iter().map(Heatmap::n_rows).max().unwrap_or(0);
    let m = grid.heads.iter().map(Heatmap::n_cols).max().unwrap_or(0);
    let Some(colouring) = grid.colouring(style.palette).filter(|_| n > 0 && m > 0) else {
        return Ok(HeadGridMap::default());
    };
    let legend = Legend {
        scale: colouring.scale,
        range: colouring.range,
        caption: grid.heads[0].value_label(),
        masked_label: grid.heads[0].words().masked,
        palette: style.palette,
        masked: grid.heads.iter().any(Heatmap::has_blocked),
        gap: crate::legend::GAP,
    };
    let legend_w = legend.width(s, tick_px);
    let top = pad + title_band;
    let k = grid.heads.len();
    let widest = |px: f64| {
        (0..k)
            .map(|h| text::width(&grid.tile_title(h), px))
            .fold(0.0, f64::max)
            * 1.1
    };
    let (gap, tile_px) = fitted_titles(grid.columns, k, w - 2.0 * pad - legend_w, widest, s);
    let tile_title_h = tile_px * 1.6;
    let avail = (w - 2.0 * pad - legend_w, h - top - pad);
    let title_w = widest(tile_px);
    let tile = TileSize {
        n,
        m,
        title_h: tile_title_h,
        min_w: title_w,
        max_cell: 48.0 * s,
    };
    let (cols, rows, cell) = grid_shape(k, tile, avail, gap, grid.columns);
    let mat = (cell * m as f64, cell * n as f64);
    let slot_w = mat
        .0
        .max(title_w.min((avail.0 - (cols - 1) as f64 * gap) / cols as f64));
    let grid_w = cols as f64 * slot_w + (cols - 1) as f64 * gap;
    let grid_h = rows as f64 * (tile_title_h + mat.1) + (rows - 1) as f64 * gap;
    let left = pad.max((w - grid_w - legend_w) / 2.0);
    let base = area.get_base_pixel();
    let half_gap = (gap / 2.0).round() as i32;

    let mut tiles = Vec::with_capacity(k);
    for (head, data) in grid.heads.iter().enumerate() {
        let (c, r) = (head % cols, head / cols);
        let sx = left + c as f64 * (slot_w + gap);
        let sy = top + r as f64 * (tile_title_h + mat.1 + gap);
        let mx = (sx + (slot_w - mat.0) / 2.0).round();
        let my = (sy + tile_title_h).round();
        let map = CellMap::new(
            (mx as i32, my as i32),
            cell,
            (data.n_rows(), data.n_cols()),
            grid_gap(cell, s),
        );
        cells::paint_cells(area, data, &map, &colouring, s, style.cell_field)?;

        if all {
            let selected = grid.selected == Some(head);
            let title = grid.tile_title(head);
            draw_tile_frame(
                area,
                &title,
                selected,
                (sx, slot_w, gap),
                &map,
                (tile_px, s),
            )?;
        }
        let bounds = (
            (sx.round() as i32 - half_gap, sy.round() as i32 - half_gap),
            (
                (sx + slot_w).round() as i32 + half_gap,
                (sy + tile_title_h + mat.1).round() as i32 + half_gap,
            ),
        );
        tiles.push(Tile {
            bounds: (
                (bounds.0.0 + base.0, bounds.0.1 + base.1),
                (bounds.1.0 + base.0, bounds.1.1 + base.1),
            ),
            cells: map.shifted(base),
        });
    }

    if !all {
        return Ok(HeadGridMap { tiles });
    }
    // The bar spans the grid's matrices (at least 60 px), its caption level with the
    // first row's titles, and leaves room for the "masked" swatch below.
    let room = h - top - tile_title_h - pad - legend.swatch_room(s);
    let bar_h = (grid_h - tile_title_h)
        .max(60.0 * s)
        .min(room.max(20.0 * s));
    legend.draw(
        area,
        &Beside {
            figure_right: left + grid_w,
            top: top + tile_title_h,
            bar_h,
            s,
            tick_px,
            field: style.cell_field,
        },
    )?;
    Ok(HeadGridMap { tiles })
}

/// A tile's title above its cells at `map`, centred in the slot that starts at `sx`;
/// and, when it is the selected head, its outline.
fn draw_tile_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    label: &str,
    selected: bool,
    (sx, slot_w, gap): (f64, f64, f64),
    map: &CellMap,
    (tile_px, s): (f64, f64),
) -> DrawResult<DB> {
    let (mx, my) = (map.edge_x(0), map.edge_y(0));
    let (right, bottom) = (map.edge_x(map.cols()), map.edge_y(map.rows()));
    let (weight, ink) = if selected {
        (FontStyle::Bold, &SELECTED)
    } else {
        (FontStyle::Normal, &MUTED_INK)
    };
    let st = anchored(font(tile_px, weight).color(ink), HPos::Center, VPos::Bottom);
    let label = text::clip(label, tile_px, slot_w + gap);
    area.draw_text(&label, &st, p(sx + slot_w / 2.0, my as f64 - 5.0 * s))?;
    if selected {
        let o = (4.0 * s).round() as i32;
        let stroke = ShapeStyle::from(SELECTED).stroke_width((3.0 * s).round() as u32);
        // A closed path, not a stroked rectangle: SVG output drops a rectangle's stroke
        // width.
        let (x0, y0) = (mx - o, my - o);
        let (x1, y1) = (right - 1 + o, bottom - 1 + o);
        area.draw(&PathElement::new(
            vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)],
            stroke,
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_fit_fixed_columns_down_to_the_readable_size() {
        // A title 5 px wide per px of font: at 14 px it needs 70 px.
        let widest = |px: f64| 5.0 * px;
        // Free columns, or room enough: unchanged.
        assert_eq!(fitted_titles(None, 12, 100.0, widest, 1.0), (14.0, 14.0));
        assert_eq!(fitted_titles(Some(2), 12, 300.0, widest, 1.0), (14.0, 14.0));
        // 6 columns in 470 px: 67.7 px each with a 14 px gap, 73.3 with 6 px.
        assert_eq!(fitted_titles(Some(6), 12, 470.0, widest, 1.0), (6.0, 14.0));
        // 6 columns in 400 px: 61.7 px each; the titles shrink to fit (12.3 px).
        let (gap, px) = fitted_titles(Some(6), 12, 400.0, widest, 1.0);
        assert_eq!(gap, 6.0);
        assert!((widest(px) - (400.0 - 30.0) / 6.0).abs() < 1e-9);
        // Never below 11 px, at any scale.
        assert_eq!(fitted_titles(Some(6), 12, 200.0, widest, 2.0), (12.0, 22.0));
    }

    #[test]
    fn grid_shapes_fill_the_area() {
        let tile = |n: usize| TileSize {
            n,
            m: n,
            title_h: 20.0,
            min_w: 50.0,
            max_cell: 1e9,
        };
        // Eight square heads in a wide area: 4 × 2.
        let (c, r, _) = grid_shape(8, tile(10), (800.0, 400.0), 10.0, None);
        assert_eq!((c, r), (4, 2));
        // One head: one tile.
        assert_eq!(grid_shape(1, tile(5), (300.0, 300.0), 10.0, None).0, 1);
        // Sixteen in a square area: 4 × 4.
        let (c, r, _) = grid_shape(16, tile(64), (700.0, 700.0), 10.0, None);
        assert_eq!((c, r), (4, 4));
        // Sixteen tiny heads in a narrow strip: not so many columns that titles collide.
        let (c, _, _) = grid_shape(16, tile(2), (400.0, 100.0), 10.0, None);
        assert!(c <= 6, "{c} columns of titles 50 px wide in 400 px");
        // A fixed number of columns: 72 heads in 12 columns are 6 rows.
        let (c, r, _) = grid_shape(72, tile(10), (1200.0, 700.0), 10.0, Some(12));
        assert_eq!((c, r), (12, 6));
    }
}
