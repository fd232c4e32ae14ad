//! The data of a heatmap figure: labels, values, mask, range and colour scale.

use std::fmt;

use crate::scale::{self, ColorScale, ValueRange};
use crate::shared::{Cells, Labels};
use crate::words::Words;

/// An `n × m` matrix to draw: query tokens on the rows, key tokens on the columns.
///
/// Built by [`Heatmap::weights`] (attention weights: sequential colours over `0..=1`) or
/// [`Heatmap::difference`] (a difference of two weight matrices: diverging colours over a
/// range symmetric around 0), then refined with the `with_*` methods. The constructors
/// check the shapes once, so drawing never fails because of the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    title: String,
    rows: Labels,
    cols: Labels,
    values: Cells,
    blocked: Option<Vec<bool>>,
    empty_rows: Vec<usize>,
    raw_scores: Option<Cells>,
    row_entropy: Option<RowEntropy>,
    range: ValueRange,
    /// The range follows the data: `±max|v|` (rounded up) over the cells that are not
    /// blocked (differences), recomputed when the mask changes, until [`Heatmap::with_range`].
    auto_symmetric: bool,
    scale: ColorScale,
    /// The legend caption, when not the words' own (`weight` or `Δ weight`).
    value_label: Option<String>,
    /// Built as a difference ([`Heatmap::difference`]): its default caption is `Δ weight`.
    difference: bool,
    /// The axis captions, when not the words' own (`queries`, `keys`).
    axes: Option<(String, String)>,
    words: &'static Words,
    /// The (row, column) of the whole matrix that this one's first cell is, when it is a
    /// part of a larger one ([`Heatmap::window`]): its labels are numbered from there.
    origin: Option<(usize, usize)>,
}

/// Why a [`Heatmap`] could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum HeatmapError {
    /// `values` (or the blocked mask) does not hold `rows × cols` entries.
    Shape {
        /// `"values"` or `"blocked"`.
        field: &'static str,
        /// `rows × cols`.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// Row of the value.
        row: usize,
        /// Column of the value.
        col: usize,
    },
    /// A per-row value (row entropy) is NaN or infinite.
    NonFiniteRowValue {
        /// `"row_entropy"` or `"row_entropy_normalised"`.
        field: &'static str,
        /// The row.
        row: usize,
    },
    /// Two matrices to compare have different shapes.
    ShapeMismatch {
        /// Rows × columns of the first.
        a: (usize, usize),
        /// Rows × columns of the second.
        b: (usize, usize),
    },
    /// An empty-row index is not a row.
    RowOutOfRange {
        /// The index given.
        row: usize,
        /// The number of rows.
        rows: usize,
    },
}

impl fmt::Display for HeatmapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeatmapError::Shape {
                field,
                expected,
                got,
            } => {
                write!(f, "{field} has {got} entries, expected {expected}")
            }
            HeatmapError::NonFinite { row, col } => {
                write!(
                    f,
                    "the value at row {row}, column {col} is not a finite number"
                )
            }
            HeatmapError::RowOutOfRange { row, rows } => {
                write!(f, "empty row {row} is out of range (there are {rows} rows)")
            }
            HeatmapError::NonFiniteRowValue { field, row } => {
                write!(f, "{field} of row {row} is not a finite number")
            }
            HeatmapError::ShapeMismatch { a, b } => {
                write!(
                    f,
                    "cannot compare a {}×{} matrix with a {}×{} one",
                    a.0, a.1, b.0, b.1
                )
            }
        }
    }
}

impl std::error::Error for HeatmapError {}

/// `x` (> 0) rounded up to the next of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of
/// ten (at most 1.5× larger). A difference's legend then ends at a round number, and it
/// stays where it is while a slider moves the values a little: the labels and legend of
/// the figure are not redrawn for every step of a drag.
pub(crate) fn round_up(x: f32) -> f32 {
    if !(x.is_finite() && x > 0.0) {
        return x;
    }
    // A value that is a step already (0.2 = 2 × 0.1 up to rounding) stays itself.
    let steps = [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0];
    scale::round_up_to_steps(x, &steps, 1e-5).max(x)
}

impl Heatmap {
    /// Attention weights: `values` is `rows.len() × cols.len()`, row-major; sequential
    /// colours over `0..=1`; the legend says "weight".
    pub fn weights(
        title: impl Into<String>,
        rows: impl Into<Labels>,
        cols: impl Into<Labels>,
        values: impl Into<Cells>,
    ) -> Result<Heatmap, HeatmapError> {
        Heatmap::build(
            title.into(),
            rows.into(),
            cols.into(),
            values.into(),
            ColorScale::Sequential,
            ValueRange::UNIT,
        )
    }

    /// A difference of two matrices (e.g. `A − B`): diverging colours over
    /// `−r..=r`, `r` = max|v| rounded up to 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10ᵏ, so
    /// white is "no change" and the legend reads from negative
    /// through 0 (in the middle) to positive, positive values with a "+"; the legend says
    /// "Δ weight".
    ///
    /// The range is taken over the cells that are not blocked, and follows the mask as it
    /// is set ([`Heatmap::with_blocked`], [`Heatmap::with_empty_rows`]) until
    /// [`Heatmap::with_range`] fixes it. [`Heatmap::difference_of`] builds the difference
    /// of two heatmaps with both masks.
    pub fn difference(
        title: impl Into<String>,
        rows: impl Into<Labels>,
        cols: impl Into<Labels>,
        values: impl Into<Cells>,
    ) -> Result<Heatmap, HeatmapError> {
        let mut h = Heatmap::build(
            title.into(),
            rows.into(),
            cols.into(),
            values.into(),
            ColorScale::Diverging,
            ValueRange::UNIT,
        )?;
        h.auto_symmetric = true;
        h.difference = true;
        h.fit_symmetric_range();
        Ok(h)
    }

    /// The difference `a − b` of two heatmaps of the same shape, as
    /// [`Heatmap::difference`], with `a`'s labels. A cell blocked in either (or in an
    /// empty row of either) is blocked in the difference: it is drawn as masked, not as a
    /// change, and does not count towards the colour range.
    pub fn difference_of(
        title: impl Into<String>,
        a: &Heatmap,
        b: &Heatmap,
    ) -> Result<Heatmap, HeatmapError> {
        let (shape_a, shape_b) = ((a.n_rows(), a.n_cols()), (b.n_rows(), b.n_cols()));
        if shape_a != shape_b {
            return Err(HeatmapError::ShapeMismatch {
                a: shape_a,
                b: shape_b,
            });
        }
        let values: Vec<f32> = a
            .values
            .iter()
            .zip(b.values.iter())
            .map(|(x, y)| x - y)
            .collect();
        let mut empty = a.empty_rows.clone();
        empty.extend_from_slice(&b.empty_rows);
        let figure = Heatmap::difference(title, a.rows.clone(), a.cols.clone(), values)?;
        // Neither blocks a cell: no n × m list of `false`s to build and scan.
        if a.blocked.is_none() && b.blocked.is_none() && empty.is_empty() {
            return Ok(figure);
        }
        // Blocked in either, row by row: the masks' flags, and every cell of an empty row.
        let m = a.n_cols();
        let mut blocked = vec![false; a.values.len()];
        for (i, row) in blocked.chunks_mut(m.max(1)).enumerate() {
            if a.is_empty_row(i) || b.is_empty_row(i) {
                row.fill(true);
                continue;
            }
            for flags in [a.blocked_row(i), b.blocked_row(i)].into_iter().flatten() {
                for (x, &f) in row.iter_mut().zip(flags) {
                    *x |= f;
                }
            }
        }
        figure.with_blocked(blocked)?.with_empty_rows(empty)
    }

    /// `±max|v|` over the cells that are not blocked, rounded up to a round number
    /// ([`round_up`]).
    fn fit_symmetric_range(&mut self) {
        let m = self.n_cols().max(1);
        let mut max_abs = 0f32;
        for (i, row) in self.values.chunks(m).enumerate() {
            if self.is_empty_row(i) {
                continue;
            }
            match &self.blocked {
                Some(blocked) => {
                    for (v, b) in row.iter().zip(&blocked[i * m..]) {
                        if !b {
                            max_abs = max_abs.max(v.abs());
                        }
                    }
                }
                None => max_abs = row.iter().fold(max_abs, |acc, v| acc.max(v.abs())),
            }
        }
        self.range = ValueRange::symmetric(round_up(max_abs));
    }

    fn build(
        title: String,
        rows: Labels,
        cols: Labels,
        values: Cells,
        scale: ColorScale,
        range: ValueRange,
    ) -> Result<Heatmap, HeatmapError> {
        let expected = rows.len() * cols.len();
        if values.len() != expected {
            return Err(HeatmapError::Shape {
                field: "values",
                expected,
                got: values.len(),
            });
        }
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(HeatmapError::NonFinite {
                row: i / cols.len(),
                col: i % cols.len(),
            });
        }
        Ok(Heatmap {
            title,
            rows,
            cols,
            values,
            blocked: None,
            empty_rows: Vec::new(),
            raw_scores: None,
            row_entropy: None,
            range,
            auto_symmetric: false,
            scale,
            value_label: None,
            difference: false,
            axes: None,
            words: &Words::ENGLISH,
            origin: None,
        })
    }

    /// The part of this matrix in rows `rows` and columns `cols` (clamped to the matrix;
    /// an empty range after clamping keeps one row or column): its values, mask, raw
    /// scores, empty rows and row entropies, with the colour range of the whole (the
    /// colours mean what they meant before zooming). Its labels are numbered from the
    /// whole matrix's indices ([`Heatmap::origin`]).
    pub fn window(&self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Heatmap {
        let (n, m) = (self.n_rows(), self.n_cols());
        let clamp = |r: std::ops::Range<usize>, len: usize| {
            if len == 0 {
                return 0..0;
            }
            let start = r.start.min(len - 1);
            start..r.end.min(len).max(start + 1)
        };
        let (rows, cols) = (clamp(rows, n), clamp(cols, m));
        let (base_r, base_c) = self.origin();
        let pick = |v: &[f32]| -> Vec<f32> {
            rows.clone()
                .flat_map(|i| v[i * m + cols.start..i * m + cols.end].iter().copied())
                .collect()
        };
        Heatmap {
            title: self.title.clone(),
            rows: Labels::from(&self.rows[rows.clone()]),
            cols: Labels::from(&self.cols[cols.clone()]),
            values: pick(&self.values).into(),
            blocked: self.blocked.as_ref().and_then(|b| {
                let part: Vec<bool> = rows
                    .clone()
                    .flat_map(|i| b[i * m + cols.start..i * m + cols.end].iter().copied())
                    .collect();
                part.iter().any(|&x| x).then_some(part)
            }),
            empty_rows: self
                .empty_rows
                .iter()
                .filter(|&&r| rows.contains(&r))
                .map(|&r| r - rows.start)
                .collect(),
            raw_scores: self.raw_scores.as_ref().map(|s| pick(s).into()),
            row_entropy: self.row_entropy.as_ref().map(|e| RowEntropy {
                nats: e.nats[rows.clone()].to_vec(),
                normalised: e.normalised[rows.clone()].to_vec(),
            }),
            range: self.range,
            auto_symmetric: false,
            scale: self.scale,
            value_label: self.value_label.clone(),
            difference: self.difference,
            axes: self.axes.clone(),
            words: self.words,
            origin: Some((base_r + rows.start, base_c + cols.start)),
        }
    }

    /// The (row, column) of the whole matrix that this one's first cell is: `(0, 0)`
    /// unless it is a [`Heatmap::window`] of a larger one.
    pub fn origin(&self) -> (usize, usize) {
        self.origin.unwrap_or((0, 0))
    }

    /// Whether it is a part of a larger matrix ([`Heatmap::window`]): its labels then
    /// carry their index in the whole.
    pub fn is_window(&self) -> bool {
        self.origin.is_some()
    }

    /// Marks cells blocked by a mask (`true` = blocked), row-major like the values.
    /// Blocked cells are drawn with a grey hatch, never with a colour of the scale.
    pub fn with_blocked(mut self, blocked: Vec<bool>) -> Result<Heatmap, HeatmapError> {
        let expected = self.values.len();
        if blocked.len() != expected {
            return Err(HeatmapError::Shape {
                field: "blocked",
                expected,
                got: blocked.len(),
            });
        }
        self.blocked = blocked.iter().any(|&b| b).then_some(blocked);
        if self.auto_symmetric {
            self.fit_symmetric_range();
        }
        Ok(self)
    }

    /// Marks rows with no allowed key (their weights are all zero): they are drawn hatched
    /// and labelled "∅ empty row".
    pub fn with_empty_rows(mut self, mut rows: Vec<usize>) -> Result<Heatmap, HeatmapError> {
        if let Some(&row) = rows.iter().find(|&&r| r >= self.rows.len()) {
            return Err(HeatmapError::RowOutOfRange {
                row,
                rows: self.rows.len(),
            });
        }
        rows.sort_unstable();
        rows.dedup();
        self.empty_rows = rows;
        if self.auto_symmetric {
            self.fit_symmetric_range();
        }
        Ok(self)
    }

    /// Attaches the raw scores before softmax (logits), row-major like the values, so
    /// that hover can show them with [`Heatmap::raw_score`]. They are not drawn. Any
    /// number is kept as given, including infinities (e.g. `−∞` for a masked logit).
    pub fn with_raw_scores(mut self, scores: impl Into<Cells>) -> Result<Heatmap, HeatmapError> {
        let scores = scores.into();
        if scores.len() != self.values.len() {
            return Err(HeatmapError::Shape {
                field: "raw_scores",
                expected: self.values.len(),
                got: scores.len(),
            });
        }
        self.raw_scores = Some(scores);
        Ok(self)
    }

    /// Attaches each row's entropy: `nats` is `H_i = −Σ_j A_ij ln A_ij`, `normalised` is
    /// `H_i / ln(allowed keys of row i)` (`0..=1`), one per row, as the core reports
    /// them. [`crate::draw_heatmap`] then draws a side bar per row, aligned with the rows.
    pub fn with_row_entropy(
        mut self,
        nats: Vec<f32>,
        normalised: Vec<f32>,
    ) -> Result<Heatmap, HeatmapError> {
        for (field, v) in [
            ("row_entropy", &nats),
            ("row_entropy_normalised", &normalised),
        ] {
            if v.len() != self.n_rows() {
                return Err(HeatmapError::Shape {
                    field,
                    expected: self.n_rows(),
                    got: v.len(),
                });
            }
            if let Some(row) = v.iter().position(|x| !x.is_finite()) {
                return Err(HeatmapError::NonFiniteRowValue { field, row });
            }
        }
        self.row_entropy = Some(RowEntropy { nats, normalised });
        Ok(self)
    }

    /// Replaces the colour range (e.g. to compare two heatmaps on one scale).
    pub fn with_range(mut self, range: ValueRange) -> Heatmap {
        self.range = range;
        self.auto_symmetric = false;
        self
    }

    /// Replaces the colour scale.
    pub fn with_scale(mut self, scale: ColorScale) -> Heatmap {
        self.scale = scale;
        self
    }

    /// Replaces the legend caption (default "weight" or "Δ weight").
    pub fn with_value_label(mut self, label: impl Into<String>) -> Heatmap {
        self.value_label = Some(label.into());
        self
    }

    /// Replaces the fixed words (English by default): the default legend caption and
    /// axis captions, the entropy panel's headings, the masked swatch, the empty-row
    /// banner.
    pub fn with_words(mut self, words: &'static Words) -> Heatmap {
        self.words = words;
        self
    }

    /// Replaces the axis captions (default "queries" for the rows, "keys" for the columns).
    pub fn with_axis_titles(mut self, rows: impl Into<String>, cols: impl Into<String>) -> Heatmap {
        self.axes = Some((rows.into(), cols.into()));
        self
    }

    /// The title drawn above the matrix.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Row (query) labels.
    pub fn row_labels(&self) -> &[String] {
        &self.rows
    }

    /// Column (key) labels.
    pub fn col_labels(&self) -> &[String] {
        &self.cols
    }

    /// Number of rows (queries).
    pub fn n_rows(&self) -> usize {
        self.rows.len()
    }

    /// Number of columns (keys).
    pub fn n_cols(&self) -> usize {
        self.cols.len()
    }

    /// All values, row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The value at (`row`, `col`); `None` outside the matrix.
    pub fn value(&self, row: usize, col: usize) -> Option<f32> {
        (row < self.n_rows() && col < self.n_cols()).then(|| self.values[row * self.n_cols() + col])
    }

    /// The raw score before softmax at (`row`, `col`), when [`Heatmap::with_raw_scores`]
    /// attached them; `None` otherwise or outside the matrix.
    pub fn raw_score(&self, row: usize, col: usize) -> Option<f32> {
        let scores = self.raw_scores.as_ref()?;
        (row < self.n_rows() && col < self.n_cols()).then(|| scores[row * self.n_cols() + col])
    }

    /// All raw scores, row-major, when attached.
    pub fn raw_scores(&self) -> Option<&[f32]> {
        self.raw_scores.as_deref()
    }

    /// The entropy of `row`: (`H_i` in nats, normalised `0..=1`), when attached with
    /// [`Heatmap::with_row_entropy`].
    pub fn row_entropy(&self, row: usize) -> Option<(f32, f32)> {
        let e = self.row_entropy.as_ref()?;
        (row < self.n_rows()).then(|| (e.nats[row], e.normalised[row]))
    }

    /// Whether row entropies are attached (and drawn beside the matrix).
    pub fn has_row_entropy(&self) -> bool {
        self.row_entropy.is_some()
    }

    /// How many cells of `row` are not blocked (the keys the query may attend to).
    pub fn allowed_in_row(&self, row: usize) -> usize {
        if row >= self.n_rows() || self.is_empty_row(row) {
            return 0;
        }
        let m = self.n_cols();
        match &self.blocked {
            Some(b) => b[row * m..(row + 1) * m].iter().filter(|&&x| !x).count(),
            None => m,
        }
    }

    /// Whether (`row`, `col`) is blocked by the mask, or lies in an empty row.
    pub fn is_blocked(&self, row: usize, col: usize) -> bool {
        self.is_empty_row(row)
            || self.blocked.as_ref().is_some_and(|b| {
                row < self.n_rows() && col < self.n_cols() && b[row * self.n_cols() + col]
            })
    }

    /// Row `row`'s blocked flags (`true` = blocked by the mask), when any cell is
    /// blocked; empty rows are not included (see [`Heatmap::is_empty_row`]).
    pub(crate) fn blocked_row(&self, row: usize) -> Option<&[bool]> {
        let m = self.n_cols();
        self.blocked
            .as_ref()
            .and_then(|b| b.get(row * m..(row + 1) * m))
    }

    /// Whether any cell is blocked.
    pub fn has_blocked(&self) -> bool {
        self.blocked.is_some() || !self.empty_rows.is_empty()
    }

    /// Rows with no allowed key, ascending.
    pub fn empty_rows(&self) -> &[usize] {
        &self.empty_rows
    }

    /// Whether `row` is an empty row.
    pub fn is_empty_row(&self, row: usize) -> bool {
        self.empty_rows.binary_search(&row).is_ok()
    }

    /// The colour range.
    pub fn range(&self) -> ValueRange {
        self.range
    }

    /// The colour scale.
    pub fn scale(&self) -> ColorScale {
        self.scale
    }

    /// The legend caption.
    pub fn value_label(&self) -> &str {
        match &self.value_label {
            Some(label) => label,
            None if self.difference => self.words.delta_weight,
            None => self.words.weight,
        }
    }

    /// The row axis caption.
    pub fn row_axis(&self) -> &str {
        self.axes.as_ref().map_or(self.words.queries, |a| &a.0)
    }

    /// The column axis caption.
    pub fn col_axis(&self) -> &str {
        self.axes.as_ref().map_or(self.words.keys, |a| &a.1)
    }

    /// The fixed words it is drawn with.
    pub fn words(&self) -> &'static Words {
        self.words
    }
}

/// Per-row entropies, as the core reports them.
#[derive(Debug, Clone, PartialEq)]
struct RowEntropy {
    nats: Vec<f32>,
    normalised: Vec<f32>,
}

#[cfg(test)]
mod tests;
