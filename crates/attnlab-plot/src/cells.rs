//! Painting the cell field of a matrix: one rectangle per run of equal colour, or the
//! whole field as one bitmap (see [`CellField`]).

use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::{DrawingArea, DrawingBackend, PathElement, RGBColor, Rectangle};
use plotters::style::{Color, ShapeStyle};
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::cell_map::CellMap;
use crate::heatmap::Heatmap;
use crate::scale::{ColorScale, Palette, ValueRange};
use crate::style::{BACKGROUND, CellField, DrawResult, MASK_FILL, MASK_HATCH, p};

/// Above this many cells, rectangles round colours to [`MANY_CELLS_LEVELS`] steps.
const MANY_CELLS: usize = 256 * 256;
/// Colour steps for large matrices drawn as rectangles, whose cells are too small to tell
/// finer shades apart.
const MANY_CELLS_LEVELS: f32 = 64.0;

/// Colour steps of [`Colouring`]'s table: finer than a screen can show (neighbouring
/// entries differ by at most one unit of one channel), coarse enough to build in
/// microseconds. Colouring a 512 × 512 matrix by table is several times faster than
/// interpolating every cell.
const STEPS: usize = 1024;

/// How values become colours: the scale and range, which a grid shares between heads,
/// with the scale tabulated at `STEPS + 1` points.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Colouring {
    pub scale: ColorScale,
    pub range: ValueRange,
    table: Vec<RGBColor>,
}

impl Colouring {
    pub fn new(scale: ColorScale, range: ValueRange, palette: Palette) -> Colouring {
        let table = (0..=STEPS)
            .map(|k| scale.at_in(palette, k as f32 / STEPS as f32))
            .collect();
        Colouring {
            scale,
            range,
            table,
        }
    }

    pub fn of(data: &Heatmap, palette: Palette) -> Colouring {
        Colouring::new(data.scale(), data.range(), palette)
    }

    /// The colour at position `t` (`0..=1`) of the scale.
    pub fn at(&self, t: f32) -> RGBColor {
        // t ≥ 0 after the clamp, so adding ½ and truncating rounds (without a call to
        // `roundf`, which shows in profiles); NaN becomes index 0.
        self.table[(t.clamp(0.0, 1.0) * STEPS as f32 + 0.5) as usize]
    }

    pub fn colour(&self, v: f32) -> RGBColor {
        self.at(self.range.normalise(v))
    }
}

/// Diagonal hatch lines inside the rectangle `a`–`b` (exclusive), `spacing` apart: the
/// lines `u + v = t` for `t = spacing/2, 3·spacing/2, …`, with `u` measured right from the
/// left edge and `v` up from the bottom edge.
pub(crate) fn hatch_lines(a: (i32, i32), b: (i32, i32), spacing: f64) -> Vec<[(i32, i32); 2]> {
    let (w, h) = ((b.0 - a.0 - 1) as f64, (b.1 - a.1 - 1) as f64);
    let mut lines = Vec::new();
    if w < 2.0 || h < 2.0 {
        return lines;
    }
    let mut t = spacing / 2.0;
    while t < w + h {
        let (u0, v0) = if t <= h { (0.0, t) } else { (t - h, h) };
        let (u1, v1) = if t <= w { (t, 0.0) } else { (w, t - w) };
        let to_px = |u: f64, v: f64| p(a.0 as f64 + u, b.1 as f64 - 1.0 - v);
        lines.push([to_px(u0, v0), to_px(u1, v1)]);
        t += spacing;
    }
    lines
}

/// The hatch of a blocked cell whose drawn rectangle has `side` pixels (its shorter
/// side): line spacing and width, or `None` when the cell is too small to hatch.
fn hatch(side: i32, s: f64) -> Option<(f64, i32)> {
    let side = side as f64;
    (side >= 6.0 * s).then(|| {
        (
            (side / 4.0).clamp(5.0 * s, 9.0 * s),
            s.round().max(1.0) as i32,
        )
    })
}

/// A blocked cell: grey, hatched when large enough.
pub(crate) fn draw_masked<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    s: f64,
) -> DrawResult<DB> {
    area.draw(&Rectangle::new([a, b], MASK_FILL.filled()))?;
    if let Some((spacing, width)) = hatch((b.0 - a.0).min(b.1 - a.1), s) {
        let stroke = ShapeStyle::from(MASK_HATCH).stroke_width(width as u32);
        for line in hatch_lines(a, b, spacing) {
            area.draw(&PathElement::new(line.to_vec(), stroke))?;
        }
    }
    Ok(())
}

/// Paints every cell of `data` where `map` (relative to `area`) puts it.
pub(crate) fn paint_cells<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    colouring: &Colouring,
    s: f64,
    field: CellField,
) -> DrawResult<DB> {
    match field {
        CellField::Rectangles if map.gap() == 0 => paint_runs(area, data, map, colouring, s),
        CellField::Rectangles => paint_rects(area, data, map, colouring, s),
        CellField::Bitmap => {
            if let Some(bitmap) = raster(data, map, colouring, s) {
                area.draw(&bitmap)?;
            }
            Ok(())
        }
    }
}

/// Large cells: one rectangle per cell, less the white grid gap.
fn paint_rects<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    colouring: &Colouring,
    s: f64,
) -> DrawResult<DB> {
    let m = data.n_cols();
    for i in 0..data.n_rows() {
        for j in 0..m {
            let (a, b) = map.drawn_rect(i, j).expect("in range");
            if data.is_blocked(i, j) {
                draw_masked(area, a, b, s)?;
            } else {
                let colour = colouring.colour(data.values()[i * m + j]);
                area.draw(&Rectangle::new([a, b], colour.filled()))?;
            }
        }
    }
    Ok(())
}

/// Small cells: runs of equal colour in a row are painted as one rectangle. Large
/// matrices (a 512 × 512 matrix of softmax weights is mostly near-equal small values)
/// also round colours to MANY_CELLS_LEVELS steps so runs are long. Rows thinner than a
/// pixel after rounding are not painted: the pixel shows the row that owns it (the one
/// `CellMap::cell_at` finds there).
fn paint_runs<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    colouring: &Colouring,
    s: f64,
) -> DrawResult<DB> {
    let (n, m) = (data.n_rows(), data.n_cols());
    let levels = (n * m > MANY_CELLS).then_some(MANY_CELLS_LEVELS);
    let cell_colour = |i: usize, j: usize| -> (bool, RGBColor) {
        if data.is_blocked(i, j) {
            return (true, MASK_FILL);
        }
        let t = colouring.range.normalise(data.values()[i * m + j]);
        let t = levels.map_or(t, |l| (t * l).round() / l);
        (false, colouring.at(t))
    };
    for i in 0..n {
        if map.edge_y(i) == map.edge_y(i + 1) {
            continue;
        }
        let mut j = 0;
        while j < m {
            let (blocked, colour) = cell_colour(i, j);
            let mut end = j + 1;
            while end < m && cell_colour(i, end) == (blocked, colour) {
                end += 1;
            }
            let a = (map.edge_x(j), map.edge_y(i));
            let b = (map.edge_x(end), map.edge_y(i + 1));
            if a.0 == b.0 {
                // Narrower than a pixel after rounding: its neighbour owns the pixel.
            } else if blocked && map.cell_size() >= 6.0 * s {
                // Hatch per cell so the stripes show where the cells are.
                for k in j..end {
                    let (a, b) = map.drawn_rect(i, k).expect("in range");
                    draw_masked(area, a, b, s)?;
                }
            } else {
                area.draw(&Rectangle::new([a, b], colour.filled()))?;
            }
            j = end;
        }
    }
    Ok(())
}

/// An RGB bitmap (3 bytes a pixel, row-major) drawn with the backend's `blit_bitmap`.
pub(crate) struct Bitmap {
    /// Upper-left corner, relative to the drawing area.
    pub pos: (i32, i32),
    pub size: (u32, u32),
    pub rgb: Vec<u8>,
}

impl<'a> PointCollection<'a, (i32, i32)> for &'a Bitmap {
    type Point = &'a (i32, i32);
    type IntoIter = std::iter::Once<&'a (i32, i32)>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.pos)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Bitmap {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _parent_dim: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match points.next() {
            Some(pos) => backend.blit_bitmap(pos, self.size, &self.rgb),
            None => Ok(()),
        }
    }
}

/// The cell field as one bitmap, pixel for pixel what [`paint_rects`] and [`paint_runs`]
/// draw (gaps white, blocked cells grey with the same hatch, no colour rounding).
/// `None` when the field has no pixels.
pub(crate) fn raster(
    data: &Heatmap,
    map: &CellMap,
    colouring: &Colouring,
    s: f64,
) -> Option<Bitmap> {
    let (n, m) = (data.n_rows(), data.n_cols());
    let (x0, y0) = (map.edge_x(0), map.edge_y(0));
    let (w, h) = (map.edge_x(m) - x0, map.edge_y(n) - y0);
    if n == 0 || m == 0 || w <= 0 || h <= 0 {
        return None;
    }
    let (w, h) = (w as usize, h as usize);
    // For every pixel column, the matrix column that owns it, or None in a grid gap.
    let mut col_of = vec![None; w];
    for j in 0..m {
        let ((a, _), (b, _)) = map.drawn_rect(0, j).expect("in range");
        let end = map.edge_x(j + 1);
        for x in map.edge_x(j)..end {
            col_of[(x - x0) as usize] = (x >= a && x < b).then_some(j);
        }
    }
    let px = |c: RGBColor| [c.0, c.1, c.2];
    let white = px(BACKGROUND);
    let mut rgb = vec![0u8; w * h * 3];
    let mut colours = vec![white; m];
    let mut base = vec![0u8; w * 3];
    // The blocked cells of the row being drawn (for the hatch).
    let mut blocked_cols = Vec::new();
    for i in 0..n {
        let (top, bottom) = (map.edge_y(i), map.edge_y(i + 1));
        if top == bottom {
            continue;
        }
        // The row's flags read once, not cell by cell.
        let values = &data.values()[i * m..(i + 1) * m];
        blocked_cols.clear();
        if data.is_empty_row(i) {
            colours.fill(px(MASK_FILL));
            blocked_cols.extend(0..m);
        } else if let Some(blocked) = data.blocked_row(i) {
            for (j, ((c, &v), &b)) in colours.iter_mut().zip(values).zip(blocked).enumerate() {
                *c = if b {
                    blocked_cols.push(j);
                    px(MASK_FILL)
                } else {
                    px(colouring.colour(v))
                };
            }
        } else {
            for (c, &v) in colours.iter_mut().zip(values) {
                *c = px(colouring.colour(v));
            }
        }
        let any_blocked = !blocked_cols.is_empty();
        for (x, owner) in col_of.iter().enumerate() {
            let c = owner.map_or(white, |j| colours[j]);
            base[3 * x..3 * x + 3].copy_from_slice(&c);
        }
        let ((_, _), (_, drawn_bottom)) = map.drawn_rect(i, 0).expect("in range");
        for y in top..bottom {
            let row = &mut rgb[(y - y0) as usize * w * 3..(y - y0 + 1) as usize * w * 3];
            if y >= drawn_bottom {
                row.fill(BACKGROUND.0);
                continue;
            }
            row.copy_from_slice(&base);
            if !any_blocked {
                continue;
            }
            for &j in &blocked_cols {
                let (a, b) = map.drawn_rect(i, j).expect("in range");
                let Some((spacing, width)) = hatch((b.0 - a.0).min(b.1 - a.1), s) else {
                    continue;
                };
                if b.0 - a.0 < 3 || b.1 - a.1 < 3 {
                    continue;
                }
                // The lines u + v = spacing/2 + k·spacing of `hatch_lines`, at their
                // rounded positions, `width` pixels thick along u + v.
                let v = b.1 - 1 - y;
                for x in a.0..b.0 {
                    let q = (x - a.0 + v) as f64;
                    let k0 = ((q - spacing / 2.0) / spacing).floor();
                    let on = [k0, k0 + 1.0].iter().any(|&k| {
                        let line = (spacing / 2.0 + k * spacing).round();
                        k >= 0.0 && q >= line && q < line + width as f64
                    });
                    if on {
                        let k = 3 * (x - x0) as usize;
                        row[k..k + 3].copy_from_slice(&px(MASK_HATCH));
                    }
                }
            }
        }
    }
    Some(Bitmap {
        pos: (x0, y0),
        size: (w as u32, h as u32),
        rgb,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hatch_lines_stay_inside() {
        for line in hatch_lines((10, 10), (40, 30), 6.0) {
            for (x, y) in line {
                assert!((10..40).contains(&x) && (10..30).contains(&y), "{x},{y}");
            }
        }
    }
}
