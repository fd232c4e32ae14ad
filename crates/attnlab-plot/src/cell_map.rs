//! Where a drawn matrix's cells are: the pixel → (row, column) mapping a figure returns to
//! its caller, for hover and clicks.

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

    /// The same map with the row-entropy side panel at pixel columns `start..end`.
    pub(crate) fn with_entropy_panel(self, (start, end): (i32, i32)) -> CellMap {
        CellMap {
            side: Some((start, end)),
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

    /// The row whose label is under the pixel (`x`, `y`): left of the matrix, on the
    /// row's height. `None` elsewhere. (A tap on a token names its row.)
    pub fn label_row_at(&self, x: f64, y: f64) -> Option<usize> {
        if !(x >= 0.0 && x < self.x0 as f64) {
            return None;
        }
        Self::index(y, self.y0, self.cell, self.rows)
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

/// The white gap between cells of side `cell`: one (scaled) pixel, none when small.
pub(crate) fn grid_gap(cell: f64, s: f64) -> i32 {
    if cell >= 10.0 * s {
        s.round().max(1.0) as i32
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
