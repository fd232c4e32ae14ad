//! Weight against contribution (docs/maths.md §12; Kobayashi et al. 2020): every head's
//! matrix `‖α_ij f(x_j)‖` beside its weights, the switch between the two, and how much of
//! each lands on the special tokens, layer by layer.
//!
//! On the lab's toy model and on tensors a person brings, `f(x_j)` is the head's value
//! vector itself ([`variant_norms`]); on a real model it goes through the head's rows of
//! the trained output projection (`attnlab_model::contribution`).
//!
//! ```
//! use attnlab_lab::contribution::{LayerShare, special_shares};
//! use ndarray::array;
//!
//! // One layer, one head over [CLS] a [SEP]: every query puts ½ on [CLS], whose value
//! // is short (length 0.2), and ½ on "a" (length 1).
//! let weights = array![[0.5f32, 0.5, 0.0], [0.5, 0.5, 0.0], [0.5, 0.5, 0.0]];
//! let norms = array![[0.1f32, 0.5, 0.0], [0.1, 0.5, 0.0], [0.1, 0.5, 0.0]];
//! let shares = special_shares(&[vec![weights.view()]], &[vec![norms.view()]], &[true, false, true])?;
//! assert_eq!(shares[0].weight, 0.5);
//! assert!((shares[0].contribution - 0.1 / 0.6).abs() < 1e-7);
//! # Ok::<(), attnlab_lab::contribution::ShareError>(())
//! ```

use std::fmt;

use attnlab_core::CoreError;
use attnlab_core::attention::{HeadResult, Problem};
use attnlab_core::contribution;
use attnlab_core::mask::Mask;
use attnlab_plot::{
    Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series, Ticks,
    ValueRange,
};
use ndarray::{Array2, ArrayView2};

use attnlab_i18n::msg::figure as m;
use attnlab_i18n::{Lang, Tr, plot_words};

/// What the heatmaps show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Measure {
    /// The attention weights `α_ij`.
    #[default]
    Weight,
    /// The size of what each key adds to the output, `‖α_ij f(x_j)‖`.
    Contribution,
}

impl Measure {
    /// Both, in the switch's order.
    pub const ALL: [Measure; 2] = [Measure::Weight, Measure::Contribution];

    /// Its name in links and test ids.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Weight => "weight",
            Measure::Contribution => "contribution",
        }
    }

    /// The measure called `name`.
    pub fn parse(name: &str) -> Option<Measure> {
        Measure::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Its label on the switch, in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Measure::Weight => m::MEASURE_WEIGHT.get(lang),
            Measure::Contribution => m::MEASURE_CONTRIBUTION.get(lang),
        }
    }
}

/// The paper the contributions follow.
pub const PAPER_URL: &str = "https://aclanthology.org/2020.emnlp-main.574/";

/// Said beside the contributions: what the paper found, and what it does not claim.
pub const PAPER_NOTE: Tr = m::PAPER_NOTE;

/// Said where `f(x_j)` is the value vector itself.
pub const VALUE_NOTE: Tr = m::VALUE_NOTE;

/// Said where `f(x_j)` goes through the trained `W^O`.
pub const PROJECTED_NOTE: Tr = m::PROJECTED_NOTE;

/// The legend of a contributions figure.
pub const VALUE_LABEL: &str = "\u{2016}\u{3b1}f(x)\u{2016}";

/// Every head's contributions with `f(x_j)` the value vector itself (Linformer: its
/// projected values), in the order of `heads`.
pub fn variant_norms(
    problem: &Problem,
    heads: &[HeadResult],
) -> Result<Vec<Array2<f32>>, CoreError> {
    heads
        .iter()
        .enumerate()
        .map(|(h, result)| contribution::value_norms(problem, h, result))
        .collect()
}

/// The mean of the heads' contributions (the head average's companion); `None` without
/// heads or when they differ in shape.
pub fn average_norms(norms: &[Array2<f32>]) -> Option<Array2<f32>> {
    let first = norms.first()?;
    let mut sum = first.clone();
    for n in &norms[1..] {
        if n.dim() != sum.dim() {
            return None;
        }
        sum += n;
    }
    sum /= norms.len() as f32;
    Some(sum)
}

/// A contributions figure: sequential colours from 0 to the largest value (1 when all
/// are 0), the legend [`VALUE_LABEL`], blocked cells and empty rows as the weights' figure
/// marks them.
pub fn contribution_heatmap(
    lang: Lang,
    title: impl Into<String>,
    rows: &[String],
    cols: &[String],
    norms: ArrayView2<'_, f32>,
    mask: Option<&Mask>,
    empty_rows: &[usize],
) -> Result<Heatmap, HeatmapError> {
    let values: Vec<f32> = norms.iter().copied().collect();
    let max = values.iter().copied().fold(0.0f32, f32::max);
    let mut figure = Heatmap::weights(title, rows.to_vec(), cols.to_vec(), values)?
        .with_words(plot_words(lang))
        .with_value_label(VALUE_LABEL)
        .with_range(ValueRange::new(0.0, max).unwrap_or(ValueRange::UNIT));
    if let Some(mask) = mask.filter(|m| m.dim() == norms.dim()) {
        figure = figure.with_blocked(mask.allowed().iter().map(|a| !a).collect())?;
    }
    figure.with_empty_rows(empty_rows.to_vec())
}

/// The contributions figure beside a weights figure `weights`: its title with
/// "contribution", its labels, blocked cells and empty rows.
pub fn contribution_figure(
    lang: Lang,
    weights: &Heatmap,
    norms: ArrayView2<'_, f32>,
) -> Result<Heatmap, HeatmapError> {
    let (n, m) = (weights.n_rows(), weights.n_cols());
    if norms.dim() != (n, m) {
        return Err(HeatmapError::ShapeMismatch {
            a: (n, m),
            b: norms.dim(),
        });
    }
    let mut figure = contribution_heatmap(
        lang,
        contribution_title(lang, weights.title()),
        weights.row_labels(),
        weights.col_labels(),
        norms,
        None,
        weights.empty_rows(),
    )?
    .with_axis_titles(weights.row_axis(), weights.col_axis());
    if weights.has_blocked() {
        let blocked = (0..n * m)
            .map(|c| weights.is_blocked(c / m, c % m))
            .collect();
        figure = figure.with_blocked(blocked)?;
    }
    Ok(figure)
}

/// The title of a contributions figure: the weights figure's title and "contribution".
pub fn contribution_title(lang: Lang, weights_title: &str) -> String {
    m::ContributionTitle {
        title: &weights_title,
    }
    .say(lang)
}

/// Why shares cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The weights and the contributions have different layers, heads or shapes, or a
    /// matrix is not `n × n` for the `n` special flags.
    Shape(String),
    /// A layer's weights or contributions sum to 0 (no tokens).
    Empty {
        /// The layer.
        layer: usize,
    },
}

impl ShareError {
    /// The sentence, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            ShareError::Shape(why) => m::ShareShape { why }.say(lang),
            ShareError::Empty { layer } => m::ShareEmpty { layer }.say(lang),
        }
    }
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for ShareError {}

/// How much of one layer's weight and contribution lands on the special tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerShare {
    /// The layer.
    pub layer: usize,
    /// `Σ_h Σ_i Σ_{j special} α_ij / Σ_h Σ_i Σ_j α_ij`.
    pub weight: f64,
    /// The same with `‖α_ij f_h(x_j)‖`.
    pub contribution: f64,
}

fn share(
    layer: usize,
    matrices: &[ArrayView2<'_, f32>],
    special: &[bool],
) -> Result<f64, ShareError> {
    let n = special.len();
    let (mut on_special, mut total) = (0.0f64, 0.0f64);
    for (h, m) in matrices.iter().enumerate() {
        if m.ncols() != n {
            return Err(ShareError::Shape(format!(
                "layer {layer} head {h} has {} keys for {n} tokens",
                m.ncols()
            )));
        }
        for row in m.rows() {
            for (v, &s) in row.iter().zip(special) {
                let v = f64::from(*v);
                total += v;
                if s {
                    on_special += v;
                }
            }
        }
    }
    if total > 0.0 {
        Ok(on_special / total)
    } else {
        Err(ShareError::Empty { layer })
    }
}

/// Per layer, the share of all weight and of all contribution (summed over heads and
/// queries) that lands on the keys `special` flags: `[CLS]`/`[SEP]`, `<s>`/`</s>`, …
/// `weights[layer][head]` and `norms[layer][head]` are `n × n`.
pub fn special_shares(
    weights: &[Vec<ArrayView2<'_, f32>>],
    norms: &[Vec<ArrayView2<'_, f32>>],
    special: &[bool],
) -> Result<Vec<LayerShare>, ShareError> {
    if weights.len() != norms.len() {
        return Err(ShareError::Shape(format!(
            "{} layers of weights, {} of contributions",
            weights.len(),
            norms.len()
        )));
    }
    weights
        .iter()
        .zip(norms)
        .enumerate()
        .map(|(layer, (w, c))| {
            if w.len() != c.len() {
                return Err(ShareError::Shape(format!(
                    "layer {layer} has {} heads of weights, {} of contributions",
                    w.len(),
                    c.len()
                )));
            }
            Ok(LayerShare {
                layer,
                weight: share(layer, w, special)?,
                contribution: share(layer, c, special)?,
            })
        })
        .collect()
}

/// The special tokens of a text, distinct, joined by "/": `"[CLS]/[SEP]"`, `"<s>/</s>"`.
pub fn special_names(tokens: &[String], special: &[bool]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (t, _) in tokens.iter().zip(special).filter(|(_, s)| **s) {
        if !names.contains(&t.as_str()) {
            names.push(t);
        }
    }
    names.join("/")
}

const WEIGHT_COLOUR: RGBColor = RGBColor(31, 94, 168);
const CONTRIBUTION_COLOUR: RGBColor = RGBColor(200, 82, 0);

/// The per-layer chart: the share of weight and the share of contribution on `names`
/// (e.g. `"[CLS]/[SEP]"`), in percent, layer by layer.
pub fn share_chart(lang: Lang, shares: &[LayerShare], names: &str) -> LineChart {
    let series = |name: String, colour, dash, value: fn(&LayerShare) -> f64| Series {
        name: Some(name),
        points: shares
            .iter()
            .map(|s| (s.layer as f64, 100.0 * value(s)))
            .collect(),
        color: colour,
        dash,
        markers: true,
    };
    let mut lines = vec![
        series(
            m::ShareWeightOn { names: &names }.say(lang),
            WEIGHT_COLOUR,
            LineDash::Solid,
            |s| s.weight,
        ),
        series(
            m::ShareContributionOn { names: &names }.say(lang),
            CONTRIBUTION_COLOUR,
            LineDash::Dashed,
            |s| s.contribution,
        ),
    ];
    // 0 % and 100 % as single undrawn points, so the axis always spans the whole range.
    let x0 = shares.first().map_or(0.0, |s| s.layer as f64);
    lines.extend([0.0, 100.0].map(|y| Series {
        name: None,
        points: vec![(x0, y)],
        color: WEIGHT_COLOUR,
        dash: LineDash::Solid,
        markers: false,
    }));
    LineChart {
        title: m::ShareTitle { names: &names }.say(lang),
        x: Axis {
            label: m::SHARE_AXIS_LAYER.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::At(shares.iter().map(|s| s.layer as f64).collect()),
        },
        y: Axis {
            label: m::SHARE_AXIS_SHARE.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::At(vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]),
        },
        series: lines,
        markers: vec![],
        note: Some(m::SHARE_NOTE.get(lang).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::Pipeline;
    use crate::state::LabState;
    use ndarray::array;

    #[test]
    fn the_lab_contributions_are_weights_times_value_lengths() {
        let mut state = LabState::default();
        state.variants[0].masks.causal = true;
        let run = Pipeline::new(&state).variant(0).unwrap();
        let norms = variant_norms(&run.problem, &run.heads).unwrap();
        assert_eq!(norms.len(), run.heads.len());
        for (h, (n, result)) in norms.iter().zip(&run.heads).enumerate() {
            let v = &run.problem.heads()[h].v;
            for ((i, j), got) in n.indexed_iter() {
                let len = v.row(j).iter().map(|x| x * x).sum::<f32>().sqrt();
                let expected = result.weights[[i, j]] * len;
                assert!(
                    (got - expected).abs() <= 1e-5 * (1.0 + expected),
                    "{got} vs {expected}"
                );
            }
            // Masked cells weigh 0 and contribute 0.
            assert_eq!(n[[0, 1]], 0.0);
        }
        let avg = average_norms(&norms).unwrap();
        let mean = norms.iter().map(|n| n[[5, 2]]).sum::<f32>() / norms.len() as f32;
        assert!((avg[[5, 2]] - mean).abs() < 1e-6);
        let labels: Vec<String> = (0..11).map(|i| i.to_string()).collect();
        let fig = contribution_heatmap(
            Lang::En,
            contribution_title(Lang::En, "A"),
            &labels,
            &labels,
            avg.view(),
            Some(&run.heads[0].mask),
            &[],
        )
        .unwrap();
        assert_eq!(fig.value_label(), VALUE_LABEL);
        assert!(fig.is_blocked(0, 1) && !fig.is_blocked(1, 0));
        let max = avg.iter().copied().fold(0.0, f32::max);
        assert_eq!(fig.range().max(), max);
        // Beside a weights figure: its labels, mask and title.
        let weights = crate::figure::head_figure(
            &state.model,
            &state.variants[0],
            0,
            &labels,
            &labels,
            &run.heads[0],
            attnlab_i18n::Lang::En,
        )
        .unwrap();
        let beside = contribution_figure(Lang::En, &weights, norms[0].view()).unwrap();
        assert_eq!(
            beside.title(),
            contribution_title(Lang::En, weights.title())
        );
        assert!(beside.is_blocked(0, 1) && !beside.is_blocked(1, 0));
        assert_eq!(beside.value(3, 2), Some(norms[0][[3, 2]]));
        let reading = crate::figure::read_cell(&beside, (3, 2)).unwrap();
        assert!(
            reading
                .sentence(attnlab_i18n::Lang::En)
                .contains(": contribution "),
            "{}",
            reading.sentence(attnlab_i18n::Lang::En)
        );
        assert!(
            contribution_figure(Lang::En, &weights, norms[0].slice(ndarray::s![..3, ..])).is_err()
        );
    }

    #[test]
    fn shares_sum_over_heads_and_queries() {
        // Two heads of two queries over [CLS] a [SEP] … b: hand-checked fractions.
        let special = [true, false, true];
        let w0 = array![[1.0f32, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]];
        let w1 = array![[0.5f32, 0.5, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]];
        let c0 = array![[0.1f32, 0.0, 0.0], [0.0, 0.0, 0.1], [0.0, 2.0, 0.0]];
        let c1 = array![[0.0f32, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.3]];
        let shares = special_shares(
            &[vec![w0.view(), w1.view()]],
            &[vec![c0.view(), c1.view()]],
            &special,
        )
        .unwrap();
        // Weight: (1 + 1 + 0.5 + 0.5 + 1) / 6 = 4/6. Contribution: 0.5 / 4.5.
        assert!((shares[0].weight - 4.0 / 6.0).abs() < 1e-12);
        assert!((shares[0].contribution - 0.5 / 4.5).abs() < 1e-7);
        assert!(matches!(
            special_shares(&[vec![w0.view()]], &[vec![]], &special),
            Err(ShareError::Shape(_))
        ));
        assert!(matches!(
            special_shares(&[vec![w0.view()]], &[vec![w0.view()]], &[true, false]),
            Err(ShareError::Shape(_))
        ));
        let zero = Array2::<f32>::zeros((3, 3));
        assert_eq!(
            special_shares(&[vec![zero.view()]], &[vec![zero.view()]], &special),
            Err(ShareError::Empty { layer: 0 })
        );
        let tokens: Vec<String> = ["<s>", "a", "</s>", "</s>"].map(String::from).into();
        assert_eq!(
            special_names(&tokens, &[true, false, true, true]),
            "<s>/</s>"
        );
        let chart = share_chart(Lang::En, &shares, "[CLS]/[SEP]");
        assert_eq!(
            chart.series[0].points,
            vec![(0.0, 100.0 * shares[0].weight)]
        );
        assert_eq!(
            chart.series[1].name.as_deref(),
            Some("contribution on [CLS]/[SEP]")
        );
        assert_eq!(Measure::parse("contribution"), Some(Measure::Contribution));
    }
}
