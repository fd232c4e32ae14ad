//! The position table and what the page draws of it: the PE table and `PE(a)·PE(b)` as
//! heatmaps (and how far the latter is from depending only on `a − b`), chosen
//! dimensions as curves over the position, and the residual of `PE(p+k) = R_k·PE(p)`.

use attnlab_core::position::{self, Combine, Layout, PositionConfig, PositionKind};
use attnlab_plot::{
    Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series, Ticks,
};
use ndarray::Array2;

use attnlab_i18n::msg::positions as text;
use attnlab_i18n::{Lang, Tr, plot_words};
use attnlab_lab::state::ModelConfig;

/// A table of position vectors, one row per position (an `ndarray` matrix).
pub type PeTable = Array2<f32>;

/// The position table the model adds (or concatenates) for positions `0..n`:
/// `n × width` (`width` = d_model when added, d_pos when concatenated; zeros for none).
pub fn table(model: &ModelConfig, n: usize) -> Array2<f32> {
    model.position.table(n, model.d_model, model.seed)
}

/// The width of the position vectors (d_model when added, d_pos when concatenated).
pub fn width(model: &ModelConfig) -> usize {
    model.position.width(model.d_model)
}

/// The `n × n` matrix `PE(a)·PE(b)` of a table.
pub fn dot_matrix(table: &Array2<f32>) -> Array2<f32> {
    position::dot_matrix(table)
}

/// Labels `0 … n−1`.
fn numbered(n: usize) -> Vec<String> {
    (0..n).map(|i| i.to_string()).collect()
}

/// A matrix as a figure on the diverging scale (white = 0), `±max|v|`.
pub(super) fn signed_heatmap(
    title: String,
    m: &Array2<f32>,
    value: &str,
    (rows, cols): (&str, &str),
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    Ok(Heatmap::difference(
        title,
        numbered(m.nrows()),
        numbered(m.ncols()),
        m.iter().copied().collect::<Vec<_>>(),
    )?
    .with_words(plot_words(lang))
    .with_value_label(value)
    .with_axis_titles(rows, cols))
}

/// The PE table as a figure in `lang`: positions on the rows, dimensions on the columns.
pub fn table_heatmap(table: &Array2<f32>, lang: Lang) -> Result<Heatmap, HeatmapError> {
    let (n, d) = (table.nrows(), table.ncols());
    let title = text::PositionsTableTitle { n: &n, d: &d }.say(lang);
    let axes = (
        text::POSITIONS_AXIS_POSITION.get(lang),
        text::POSITIONS_AXIS_DIMENSION.get(lang),
    );
    let value = text::POSITIONS_VALUE_LABEL.get(lang);
    signed_heatmap(title, table, value, axes, lang)
}

/// The `PE(a)·PE(b)` matrix as a figure in `lang`.
pub fn dot_heatmap(g: &Array2<f32>, lang: Lang) -> Result<Heatmap, HeatmapError> {
    let n = g.nrows();
    let title = text::PositionsDotTitle { n: &n }.say(lang);
    let axes = (
        text::POSITIONS_AXIS_POSITION_A.get(lang),
        text::POSITIONS_AXIS_POSITION_B.get(lang),
    );
    signed_heatmap(title, g, "PE(a)\u{b7}PE(b)", axes, lang)
}

/// A position setting in a few words in `lang`, e.g. `"sinusoidal, base 10000,
/// interleaved, added"`.
pub fn describe(p: &PositionConfig, lang: Lang) -> String {
    let combine = match p.combine {
        Combine::Add => text::POSITIONS_COMBINE_ADDED.get(lang).to_string(),
        Combine::Concat { d_pos } => text::PositionsCombineConcatenated { d_pos: &d_pos }.say(lang),
    };
    let layout = match p.layout {
        Layout::Interleaved => text::POSITIONS_LAYOUT_INTERLEAVED,
        Layout::Split => text::POSITIONS_LAYOUT_SPLIT,
    }
    .get(lang);
    match p.kind {
        PositionKind::None => text::POSITIONS_DESCRIBE_NONE.get(lang).into(),
        PositionKind::Learned => text::PositionsDescribeLearned { combine: &combine }.say(lang),
        PositionKind::Sinusoidal => text::PositionsDescribeSinusoidal {
            base: &p.base,
            layout: &layout,
            combine: &combine,
        }
        .say(lang),
    }
}

/// How far `g` is from depending only on `a − b`: the largest spread (max − min) of the
/// values along any diagonal `a − b = const`. About 0 (f32 rounding) for sinusoids;
/// clearly not for a learned table.
pub fn diagonal_spread(g: &Array2<f32>) -> f32 {
    let n = g.nrows().min(g.ncols());
    let mut worst = 0.0f32;
    for offset in -(n as isize - 1)..=(n as isize - 1) {
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for a in 0..n {
            let b = a as isize - offset;
            if b < 0 || b >= n as isize {
                continue;
            }
            let v = g[[a, b as usize]];
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if hi >= lo {
            worst = worst.max(hi - lo);
        }
    }
    worst
}

/// The value of each chosen dimension at every position: one curve per dimension.
/// Dimensions past the table's width are left out.
pub fn curves(table: &Array2<f32>, dims: &[usize]) -> Vec<(usize, Vec<f32>)> {
    dims.iter()
        .filter(|&&d| d < table.ncols())
        .map(|&d| (d, table.column(d).to_vec()))
        .collect()
}

/// Colours of up to four curves (ColorBrewer Dark2: distinct, colour-blind safe).
pub const CURVE_COLOURS: [RGBColor; 4] = [
    RGBColor(27, 158, 119),
    RGBColor(217, 95, 2),
    RGBColor(117, 112, 179),
    RGBColor(231, 41, 138),
];

/// What dimension `dim` of a width-`d` sinusoidal table is, in `lang`, e.g.
/// `"dim 16: sin, ω = 0.1"`.
pub fn dimension_label(config: &PositionConfig, d: usize, dim: usize, lang: Lang) -> String {
    let name = text::PositionsDim { dim: &dim }.say(lang);
    if config.kind != PositionKind::Sinusoidal || d < 2 {
        return name;
    }
    let half = d / 2;
    let (i, wave) = match config.layout {
        Layout::Interleaved => (dim / 2, if dim.is_multiple_of(2) { "sin" } else { "cos" }),
        Layout::Split if dim < half => (dim, "sin"),
        Layout::Split => (dim - half, "cos"),
    };
    let w = attnlab_plot::number::significant(position::frequency(i, d, config.base), 3);
    text::PositionsDimWave {
        name: &name,
        wave: &wave,
        omega: &w,
    }
    .say(lang)
}

/// The chosen dimensions of `table` as curves over position (sines solid, cosines
/// dashed), with headroom above the data for the legend; its words in `lang`.
pub fn curves_chart(
    config: &PositionConfig,
    table: &Array2<f32>,
    dims: &[usize],
    lang: Lang,
) -> LineChart {
    let d = table.ncols();
    let mut series: Vec<Series> = curves(table, dims)
        .into_iter()
        .enumerate()
        .map(|(k, (dim, values))| {
            let label = dimension_label(config, d, dim, lang);
            Series {
                dash: if label.contains("cos") {
                    LineDash::Dashed
                } else {
                    LineDash::Solid
                },
                name: Some(label),
                points: values
                    .iter()
                    .enumerate()
                    .map(|(p, &v)| (p as f64, f64::from(v)))
                    .collect(),
                color: CURVE_COLOURS[k % CURVE_COLOURS.len()],
                markers: table.nrows() <= 24,
            }
        })
        .collect();
    // One undrawn point (a single point without a marker draws nothing) lifts the top
    // of the range so the legend in the upper-left corner covers no curve.
    let top = table.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-3) as f64;
    let rows = series.len() as f64;
    series.push(Series {
        name: None,
        points: vec![(0.0, top * (1.0 + 0.45 * rows))],
        color: CURVE_COLOURS[0],
        dash: LineDash::Solid,
        markers: false,
    });
    LineChart {
        title: text::PositionsCurvesTitle { n: &table.nrows() }.say(lang),
        x: Axis {
            label: text::POSITIONS_AXIS_POSITION_P.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        y: Axis {
            label: text::POSITIONS_AXIS_PE.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        series,
        markers: vec![],
        note: None,
    }
}

/// Reads dimension indices typed by a person (`"0, 1, 8 9"`): whole numbers separated by
/// commas or spaces, each below `width`, at most `max` of them, duplicates dropped.
/// Returns a sentence in `lang` saying what is wrong otherwise.
pub fn parse_dims(text: &str, width: usize, max: usize, lang: Lang) -> Result<Vec<usize>, String> {
    let mut dims = Vec::new();
    for part in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let d: usize = part
            .parse()
            .map_err(|_| text::PositionsDimsNotNumber { part: &part }.say(lang))?;
        if d >= width {
            let last = width.saturating_sub(1);
            return Err(text::PositionsDimsNoSuch {
                dim: &d,
                width: &width,
                last: &last,
            }
            .say(lang));
        }
        if !dims.contains(&d) {
            dims.push(d);
        }
    }
    if dims.is_empty() {
        return Err(text::POSITIONS_DIMS_EMPTY.get(lang).into());
    }
    if dims.len() > max {
        return Err(text::PositionsDimsTooMany { max: &max }.say(lang));
    }
    Ok(dims)
}

/// Default dimensions to draw for width `d`: the fastest pair (0, 1) and a slower pair
/// (for interleaved `2i, 2i+1`; for split `i, d/2 + i`), within the width.
pub fn default_dims(model: &ModelConfig) -> Vec<usize> {
    let d = width(model);
    if d < 2 {
        return (0..d).collect();
    }
    let slow = (d / 2 / 4).max(1).min(d / 2 - 1);
    let layout = model.position.layout;
    let (s0, c0) = position::pair(0, d, layout);
    let (s1, c1) = position::pair(slow, d, layout);
    let mut dims = vec![s0, c0];
    for x in [s1, c1] {
        if !dims.contains(&x) {
            dims.push(x);
        }
    }
    dims.sort_unstable();
    dims
}

/// The measured residual of `PE(p+k) = R_k·PE(p)`, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum RotationCheck {
    /// `max_p max_dim |PE(p+k) − R_k·PE(p)|` over the positions `p` with `p + k < n`.
    Residual {
        /// The offset.
        k: usize,
        /// The residual.
        residual: f32,
        /// How many positions `p` were checked.
        checked: usize,
    },
    /// No rotation exists for this kind of encoding; the sentence says why.
    NoRotation(Tr),
    /// The offset leaves no pair `p, p+k` among the positions.
    TooFewPositions {
        /// The offset.
        k: usize,
        /// The number of positions.
        n: usize,
    },
}

/// Why learned positions have no `R_k`.
pub const LEARNED_HAS_NO_ROTATION: Tr = text::POSITIONS_LEARNED_NO_ROTATION;

/// Why no encoding has no `R_k`.
pub const NONE_HAS_NO_ROTATION: Tr = text::POSITIONS_NONE_NO_ROTATION;

/// Measures `PE(p+k) = R_k·PE(p)` on `table` (built from `config`).
pub fn rotation_check(config: &PositionConfig, table: &Array2<f32>, k: usize) -> RotationCheck {
    match config.kind {
        PositionKind::None => RotationCheck::NoRotation(NONE_HAS_NO_ROTATION),
        PositionKind::Learned => RotationCheck::NoRotation(LEARNED_HAS_NO_ROTATION),
        PositionKind::Sinusoidal => {
            let n = table.nrows();
            if k >= n {
                return RotationCheck::TooFewPositions { k, n };
            }
            RotationCheck::Residual {
                k,
                residual: position::rotation_residual(table, k, config.base, config.layout),
                checked: n - k,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::state::LabState;

    fn model() -> ModelConfig {
        LabState::default().model
    }

    #[test]
    fn diagonal_spread_by_hand() {
        // Constant along diagonals (Toeplitz): spread 0.
        let t = ndarray::array![[1.0f32, 2.0, 3.0], [4.0, 1.0, 2.0], [5.0, 4.0, 1.0]];
        assert_eq!(diagonal_spread(&t), 0.0);
        // The main diagonal 1, 1.5, 1 spreads by 0.5.
        let mut u = t.clone();
        u[[1, 1]] = 1.5;
        assert_eq!(diagonal_spread(&u), 0.5);
        assert_eq!(diagonal_spread(&Array2::zeros((0, 0))), 0.0);
    }

    #[test]
    fn sinusoids_depend_on_offset_only_and_learned_do_not() {
        let mut m = model();
        let g = dot_matrix(&table(&m, 40));
        assert!(diagonal_spread(&g) < 1e-4, "{}", diagonal_spread(&g));
        m.position.layout = Layout::Split;
        m.position.base = 1000.0;
        assert!(diagonal_spread(&dot_matrix(&table(&m, 40))) < 1e-4);
        m.position.kind = PositionKind::Learned;
        assert!(diagonal_spread(&dot_matrix(&table(&m, 40))) > 0.1);
    }

    #[test]
    fn figures_are_labelled() {
        let m = model();
        let t = table(&m, 5);
        let h = table_heatmap(&t, Lang::En).unwrap();
        assert_eq!((h.n_rows(), h.n_cols()), (5, 64));
        assert_eq!((h.row_axis(), h.col_axis()), ("position", "dimension"));
        assert_eq!(h.title(), "PE \u{b7} 5 positions \u{d7} 64 dimensions");
        let g = dot_heatmap(&dot_matrix(&t), Lang::En).unwrap();
        assert_eq!((g.n_rows(), g.n_cols()), (5, 5));
        // PE(0)·PE(0) = 32 (sin² + cos² = 1 for each of the 32 pairs).
        assert!((g.value(0, 0).unwrap() - 32.0).abs() < 1e-4);
    }

    #[test]
    fn the_curves_chart_names_each_dimension() {
        let m = model();
        let t = table(&m, 50);
        let c = curves_chart(&m.position, &t, &[0, 1, 16, 17], Lang::En);
        let named: Vec<&str> = c.series.iter().filter_map(|s| s.name.as_deref()).collect();
        // ω_8 = 10000^(−16/64) = 0.1.
        assert_eq!(
            named,
            [
                "dim 0: sin, \u{3c9} = 1",
                "dim 1: cos, \u{3c9} = 1",
                "dim 16: sin, \u{3c9} = 0.1",
                "dim 17: cos, \u{3c9} = 0.1"
            ]
        );
        assert_eq!(c.series[1].dash, LineDash::Dashed);
        assert_eq!(c.series[0].points.len(), 50);
        assert_eq!(
            c.series.len(),
            5,
            "four curves and the undrawn headroom point"
        );
        let mut split = m.position;
        split.layout = Layout::Split;
        assert_eq!(
            dimension_label(&split, 64, 40, Lang::En),
            "dim 40: cos, \u{3c9} = 0.1"
        );
        split.kind = PositionKind::Learned;
        assert_eq!(dimension_label(&split, 64, 40, Lang::En), "dim 40");
    }

    #[test]
    fn rotation_check_for_every_kind() {
        let mut m = model();
        let t = table(&m, 30);
        match rotation_check(&m.position, &t, 3) {
            RotationCheck::Residual {
                k,
                residual,
                checked,
            } => {
                assert_eq!((k, checked), (3, 27));
                assert!(residual < 1e-5, "{residual}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            rotation_check(&m.position, &t, 30),
            RotationCheck::TooFewPositions { k: 30, n: 30 }
        );
        m.position.kind = PositionKind::Learned;
        assert_eq!(
            rotation_check(&m.position, &table(&m, 30), 3),
            RotationCheck::NoRotation(LEARNED_HAS_NO_ROTATION)
        );
        m.position.kind = PositionKind::None;
        assert_eq!(
            rotation_check(&m.position, &table(&m, 30), 3),
            RotationCheck::NoRotation(NONE_HAS_NO_ROTATION)
        );
    }

    #[test]
    fn dims_are_parsed_and_defaulted() {
        assert_eq!(
            parse_dims("0, 1 8,9", 64, 4, Lang::En),
            Ok(vec![0, 1, 8, 9])
        );
        assert_eq!(parse_dims("3 3", 64, 4, Lang::En), Ok(vec![3]));
        assert!(
            parse_dims("64", 64, 4, Lang::En)
                .unwrap_err()
                .contains("0 to 63")
        );
        assert!(parse_dims("a", 64, 4, Lang::En).is_err());
        assert!(parse_dims(" ", 64, 4, Lang::En).is_err());
        assert!(
            parse_dims("64", 64, 4, Lang::Zh)
                .unwrap_err()
                .contains("0 到 63")
        );
        assert!(parse_dims("1 2 3 4 5", 64, 4, Lang::En).is_err());
        let mut m = model();
        assert_eq!(default_dims(&m), vec![0, 1, 16, 17]);
        m.position.layout = Layout::Split;
        assert_eq!(default_dims(&m), vec![0, 8, 32, 40]);
        m.position.combine = Combine::Concat { d_pos: 2 };
        assert_eq!(default_dims(&m), vec![0, 1]);
        let c = curves(&table(&m, 5), &[1, 7]);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].1[0], 1.0, "cos 0");
    }
}
