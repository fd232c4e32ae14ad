//! The data of a heatmap figure: labels, values, mask, range and colour scale.

use std::fmt;

use crate::scale::{ColorScale, ValueRange};

/// An `n × m` matrix to draw: query tokens on the rows, key tokens on the columns.
///
/// Built by [`Heatmap::weights`] (attention weights: sequential colours over `0..=1`) or
/// [`Heatmap::difference`] (a difference of two weight matrices: diverging colours over a
/// range symmetric around 0), then refined with the `with_*` methods. The constructors
/// check the shapes once, so drawing never fails because of the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    title: String,
    rows: Vec<String>,
    cols: Vec<String>,
    values: Vec<f32>,
    blocked: Option<Vec<bool>>,
    empty_rows: Vec<usize>,
    range: ValueRange,
    scale: ColorScale,
    value_label: String,
    row_axis: String,
    col_axis: String,
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
                write!(
                    f,
                    "{field} has {got} entries, expected rows × columns = {expected}"
                )
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
        }
    }
}

impl std::error::Error for HeatmapError {}

impl Heatmap {
    /// Attention weights: `values` is `rows.len() × cols.len()`, row-major; sequential
    /// colours over `0..=1`; the legend says "weight".
    pub fn weights(
        title: impl Into<String>,
        rows: Vec<String>,
        cols: Vec<String>,
        values: Vec<f32>,
    ) -> Result<Heatmap, HeatmapError> {
        Heatmap::build(
            title.into(),
            rows,
            cols,
            values,
            ColorScale::Sequential,
            ValueRange::UNIT,
            "weight",
        )
    }

    /// A difference of two matrices (e.g. `A − B`): diverging colours over
    /// `−max|v|..=max|v|`, so white is "no change"; the legend says "Δ weight".
    pub fn difference(
        title: impl Into<String>,
        rows: Vec<String>,
        cols: Vec<String>,
        values: Vec<f32>,
    ) -> Result<Heatmap, HeatmapError> {
        let max_abs = values
            .iter()
            .filter(|v| v.is_finite())
            .fold(0f32, |a, v| a.max(v.abs()));
        let range = ValueRange::symmetric(max_abs);
        Heatmap::build(
            title.into(),
            rows,
            cols,
            values,
            ColorScale::Diverging,
            range,
            "\u{394} weight",
        )
    }

    fn build(
        title: String,
        rows: Vec<String>,
        cols: Vec<String>,
        values: Vec<f32>,
        scale: ColorScale,
        range: ValueRange,
        value_label: &str,
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
            range,
            scale,
            value_label: value_label.into(),
            row_axis: "queries".into(),
            col_axis: "keys".into(),
        })
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
        Ok(self)
    }

    /// Replaces the colour range (e.g. to compare two heatmaps on one scale).
    pub fn with_range(mut self, range: ValueRange) -> Heatmap {
        self.range = range;
        self
    }

    /// Replaces the colour scale.
    pub fn with_scale(mut self, scale: ColorScale) -> Heatmap {
        self.scale = scale;
        self
    }

    /// Replaces the legend caption (default "weight" or "Δ weight").
    pub fn with_value_label(mut self, label: impl Into<String>) -> Heatmap {
        self.value_label = label.into();
        self
    }

    /// Replaces the axis captions (default "queries" for the rows, "keys" for the columns).
    pub fn with_axis_titles(mut self, rows: impl Into<String>, cols: impl Into<String>) -> Heatmap {
        self.row_axis = rows.into();
        self.col_axis = cols.into();
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

    /// Whether (`row`, `col`) is blocked by the mask, or lies in an empty row.
    pub fn is_blocked(&self, row: usize, col: usize) -> bool {
        self.is_empty_row(row)
            || self.blocked.as_ref().is_some_and(|b| {
                row < self.n_rows() && col < self.n_cols() && b[row * self.n_cols() + col]
            })
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
        &self.value_label
    }

    /// The row axis caption.
    pub fn row_axis(&self) -> &str {
        &self.row_axis
    }

    /// The column axis caption.
    pub fn col_axis(&self) -> &str {
        &self.col_axis
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i}")).collect()
    }

    #[test]
    fn shapes_are_checked_once() {
        let err = Heatmap::weights("", labels(2), labels(3), vec![0.0; 5]).unwrap_err();
        assert_eq!(
            err,
            HeatmapError::Shape {
                field: "values",
                expected: 6,
                got: 5
            }
        );
        let h = Heatmap::weights("", labels(2), labels(3), vec![0.0; 6]).unwrap();
        assert!(h.clone().with_blocked(vec![false; 5]).is_err());
        assert!(h.clone().with_empty_rows(vec![2]).is_err());
        let mut v = vec![0.0; 6];
        v[4] = f32::NAN;
        let err = Heatmap::weights("", labels(2), labels(3), v).unwrap_err();
        assert_eq!(err, HeatmapError::NonFinite { row: 1, col: 1 });
        assert!(err.to_string().contains("row 1, column 1"));
    }

    #[test]
    fn blocked_and_empty_rows() {
        let h = Heatmap::weights("", labels(2), labels(2), vec![1.0, 0.0, 0.0, 0.0])
            .unwrap()
            .with_blocked(vec![false, true, true, true])
            .unwrap()
            .with_empty_rows(vec![1, 1])
            .unwrap();
        assert!(!h.is_blocked(0, 0));
        assert!(h.is_blocked(0, 1));
        assert!(h.is_blocked(1, 0));
        assert_eq!(h.empty_rows(), [1]);
        assert_eq!(h.value(0, 0), Some(1.0));
        assert_eq!(h.value(2, 0), None);
        let none = Heatmap::weights("", labels(1), labels(1), vec![0.5]).unwrap();
        let none = none.with_blocked(vec![false]).unwrap();
        assert!(!none.has_blocked());
    }

    #[test]
    fn difference_is_symmetric_and_diverging() {
        let h = Heatmap::difference("", labels(1), labels(3), vec![-0.2, 0.1, 0.05]).unwrap();
        assert_eq!(h.scale(), ColorScale::Diverging);
        assert_eq!(h.range(), ValueRange::symmetric(0.2));
        assert_eq!(h.value_label(), "\u{394} weight");
    }
}
