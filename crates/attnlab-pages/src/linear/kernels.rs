//! Softmax against a kernel variant on one head: the implied matrix, the difference,
//! the singular values of both similarity matrices and their ranks, and their figures.

use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadResult, Problem};
use attnlab_core::metrics::{self, Comparison};
use attnlab_plot::{
    Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series, Ticks,
    VerticalMarker,
};
use ndarray::Array2;

use super::{LinearLabError, feature_map, head_input, run};
use attnlab_i18n::{Lang, msg, plot_words};

/// A singular value counts towards the numerical rank when it is above this fraction of
/// the largest one. The matrices are computed in `f32` (relative rounding ≈ 6·10⁻⁸ per
/// entry), so the rounding residue of a rank-deficient matrix stays orders of magnitude
/// below it.
pub const RANK_TOLERANCE: f32 = 1e-5;

/// The largest `min(n, m)` whose singular values are computed (one-sided Jacobi costs
/// O(n³) per sweep, which would freeze the page for long sentences).
pub const MAX_SPECTRUM_TOKENS: usize = 160;

/// The singular values of the two un-normalised similarity matrices and their ranks.
#[derive(Debug, Clone, PartialEq)]
pub struct Spectra {
    /// Of `exp(QKᵀ/√d_k)` on the allowed cells (shifted by the largest logit, which
    /// scales every singular value alike), largest first.
    pub softmax: Vec<f32>,
    /// Of `φ(Q)φ(K)ᵀ` on the allowed cells, largest first.
    pub linear: Vec<f32>,
    /// Singular values of `softmax` above [`RANK_TOLERANCE`] × the largest.
    pub softmax_rank: usize,
    /// Singular values of `linear` above [`RANK_TOLERANCE`] × the largest.
    pub linear_rank: usize,
}

/// Softmax attention against a kernel variant on the same Q, K, V and masks.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelComparison {
    /// The kernel kind.
    pub kind: AttentionKind,
    /// `softmax(QKᵀ/√d_k)` with the variant's masks.
    pub softmax: HeadResult,
    /// The kernel variant's implied matrix `Â` (its `weights`) with the same masks.
    pub linear: HeadResult,
    /// `Â − A` (n × m).
    pub difference: Array2<f32>,
    /// max/mean |Â − A| (and KL, JS).
    pub metrics: Comparison,
    /// The query/key width `d_k`.
    pub d_k: usize,
    /// The width of `φ(q)`: `d_k` (elu1, relu) or `d_k + 1` (taylor).
    pub phi_width: usize,
    /// The singular values, or `None` when `min(n, m)` exceeds [`MAX_SPECTRUM_TOKENS`].
    pub spectra: Option<Spectra>,
}

impl KernelComparison {
    /// The sentence on ranks in `lang`, e.g. "φ(Q)φ(K)ᵀ has rank 11 ≤ φ width 16;
    /// exp(QKᵀ/√d_k) has rank 11 of 11".
    pub fn rank_statement(&self, lang: Lang) -> String {
        let Some(s) = &self.spectra else {
            return msg::linear::LinearRankNoSpectra {
                max: &MAX_SPECTRUM_TOKENS,
            }
            .say(lang);
        };
        let (full, w) = (s.softmax.len(), self.phi_width);
        let tail = if s.softmax_rank == full {
            msg::linear::LINEAR_FULL_RANK.get(lang)
        } else {
            ""
        };
        let mut text = msg::linear::LinearRank {
            w: &w,
            linear: &s.linear_rank,
            softmax: &s.softmax_rank,
            full: &full,
            tail: &tail,
        }
        .say(lang);
        if full <= w {
            text.push_str(&msg::linear::LinearRankBound { full: &full, w: &w }.say(lang));
        }
        text
    }
}

/// Softmax `softmax(QKᵀ/√d_k)` and the kernel variant `kind` on head `head` of
/// `problem`, with the problem's masks: both matrices, their difference and the spectra
/// of the un-normalised similarity matrices.
pub fn kernel_comparison(
    problem: &Problem,
    head: usize,
    kind: AttentionKind,
) -> Result<KernelComparison, LinearLabError> {
    let map = feature_map(kind)?;
    let input = head_input(problem, head)?;
    let (n, m) = (input.q.nrows(), input.k.nrows());
    if n == 0 || m == 0 {
        return Err(LinearLabError::Empty);
    }
    let mask = problem.spec().mask.clone();
    let softmax = run(input, AttentionKind::Softmax, mask.clone(), 1.0)?;
    let linear = run(input, kind, mask, 1.0)?;
    let metrics = metrics::compare(&linear.weights, &softmax.weights)?;
    let difference = &linear.weights - &softmax.weights;
    let d_k = input.q.ncols();
    let spectra = (n.min(m) <= MAX_SPECTRUM_TOKENS).then(|| {
        let soft_spec = AttentionSpec::default();
        let lin_spec = AttentionSpec {
            attention: kind,
            ..AttentionSpec::default()
        };
        let s_soft = metrics::singular_values(&softmax.unnormalised_similarity(&soft_spec));
        let s_lin = metrics::singular_values(&linear.unnormalised_similarity(&lin_spec));
        Spectra {
            softmax_rank: metrics::numerical_rank(&s_soft, RANK_TOLERANCE),
            linear_rank: metrics::numerical_rank(&s_lin, RANK_TOLERANCE),
            softmax: s_soft,
            linear: s_lin,
        }
    });
    Ok(KernelComparison {
        kind,
        softmax,
        linear,
        difference,
        metrics,
        d_k,
        phi_width: map.width(d_k),
        spectra,
    })
}

/// The figures of a [`KernelComparison`]: softmax, the implied matrix and `Â − A`, their
/// words in `lang`.
pub fn comparison_figures(
    cmp: &KernelComparison,
    rows: &[String],
    cols: &[String],
    lang: Lang,
) -> Result<[Heatmap; 3], HeatmapError> {
    let words = plot_words(lang);
    let soft = attnlab_lab::figure::head_heatmap(
        "Softmax: softmax(QK\u{1d40}/\u{221a}d_k)",
        rows,
        cols,
        &cmp.softmax,
    )?
    .with_words(words);
    let kind = cmp.kind.name();
    let implied = msg::linear::LinearImpliedTitle { kind: &kind }.say(lang);
    let lin =
        attnlab_lab::figure::head_heatmap(implied, rows, cols, &cmp.linear)?.with_words(words);
    let diff =
        Heatmap::difference_of(format!("{kind} \u{2212} softmax"), &lin, &soft)?.with_words(words);
    Ok([soft, lin, diff])
}

/// The colour of softmax in the singular-value chart (the app's accent blue).
pub const SOFTMAX_COLOUR: RGBColor = RGBColor(34, 94, 168);
/// The colour of the kernel variant in the singular-value chart.
pub const LINEAR_COLOUR: RGBColor = RGBColor(181, 65, 14);
/// The colour of the rank threshold in the singular-value chart.
pub const THRESHOLD_COLOUR: RGBColor = RGBColor(110, 110, 120);

/// The singular values of both similarity matrices, each divided by its largest, against
/// their index on a log10 axis; the φ width as a vertical line and the rank threshold
/// ([`RANK_TOLERANCE`]) as a dashed line, the words in `lang`. `None` without spectra.
pub fn spectrum_chart(cmp: &KernelComparison, lang: Lang) -> Option<LineChart> {
    let s = cmp.spectra.as_ref()?;
    let relative = |v: &[f32]| -> Vec<(f64, f64)> {
        let top = f64::from(v.first().copied().unwrap_or(0.0));
        v.iter()
            .enumerate()
            .filter(|_| top > 0.0)
            .map(|(i, &x)| ((i + 1) as f64, f64::from(x) / top))
            .collect()
    };
    let count = s.softmax.len().max(1) as f64;
    let kind = cmp.kind.name();
    Some(LineChart {
        title: msg::linear::LinearSpectrumTitle { kind: &kind }.say(lang),
        x: Axis {
            label: msg::linear::LINEAR_SPECTRUM_INDEX.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        y: Axis {
            label: "\u{3c3}_i / \u{3c3}_1".into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series: vec![
            Series {
                name: Some(
                    msg::linear::LinearRankThreshold {
                        tolerance: &format!("{RANK_TOLERANCE:e}"),
                    }
                    .say(lang),
                ),
                points: vec![
                    (1.0, f64::from(RANK_TOLERANCE)),
                    (count, f64::from(RANK_TOLERANCE)),
                ],
                color: THRESHOLD_COLOUR,
                dash: LineDash::Dashed,
                markers: false,
            },
            Series {
                name: Some(
                    msg::linear::LinearSoftmaxRank {
                        rank: &s.softmax_rank,
                    }
                    .say(lang),
                ),
                points: relative(&s.softmax),
                color: SOFTMAX_COLOUR,
                dash: LineDash::Solid,
                markers: true,
            },
            Series {
                name: Some(
                    msg::linear::LinearKindRank {
                        kind: &kind,
                        rank: &s.linear_rank,
                    }
                    .say(lang),
                ),
                points: relative(&s.linear),
                color: LINEAR_COLOUR,
                dash: LineDash::Solid,
                markers: true,
            },
        ],
        markers: vec![VerticalMarker {
            x: cmp.phi_width as f64,
            label: msg::linear::LinearPhiWidth {
                width: &cmp.phi_width,
            }
            .say(lang),
        }],
        note: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::test_support::{long_state, problem_of};
    use crate::linear::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;

    #[test]
    fn elu1_differs_from_softmax_and_rows_sum_to_one() {
        let state = LabState::default();
        let p = problem_of(&state, 0);
        let c = kernel_comparison(&p, 0, AttentionKind::Elu1).unwrap();
        assert_eq!(c.linear.weights.dim(), (11, 11));
        assert!(c.metrics.max_abs > 0.0 && c.metrics.max_abs.is_finite());
        assert!(c.metrics.mean_abs > 0.0 && c.metrics.mean_abs <= c.metrics.max_abs);
        for r in c.linear.weights.rows() {
            // Σ_j sim / (Σ_j sim + ε): 1 up to ε and rounding.
            assert!((r.sum() - 1.0).abs() < 1e-5, "{}", r.sum());
        }
        for r in c.softmax.weights.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-5);
        }
        assert_eq!(c.d_k, 16);
        assert_eq!(c.phi_width, 16);
        let taylor = kernel_comparison(&p, 0, AttentionKind::Taylor).unwrap();
        assert_eq!(taylor.phi_width, 17);
    }

    #[test]
    fn ranks_on_the_default_sentence_and_a_long_one() {
        let p = problem_of(&LabState::default(), 0);
        for kind in KERNEL_KINDS {
            let c = kernel_comparison(&p, 1, kind).unwrap();
            let s = c.spectra.as_ref().unwrap();
            assert_eq!(s.softmax.len(), 11);
            assert_eq!(
                s.softmax_rank, 11,
                "softmax is full rank for distinct tokens"
            );
            assert!(s.linear_rank <= c.phi_width);
            assert!(c.rank_statement(Lang::En).contains("does not bite yet"));
        }
        // 25 tokens > φ width: the linear rank stops at d_k, softmax stays full.
        let p = problem_of(&long_state(), 0);
        for kind in KERNEL_KINDS {
            let c = kernel_comparison(&p, 0, kind).unwrap();
            let s = c.spectra.as_ref().unwrap();
            assert_eq!(s.softmax.len(), 25);
            assert!(s.linear_rank <= c.phi_width, "{kind:?}: {}", s.linear_rank);
            assert_eq!(s.softmax_rank, 25, "{kind:?}");
            // The values past the φ width are rounding residue.
            assert!(s.linear[c.phi_width] < RANK_TOLERANCE * s.linear[0] * 1e-1);
        }
        let c = kernel_comparison(&p, 0, AttentionKind::Elu1).unwrap();
        assert_eq!(c.spectra.unwrap().linear_rank, 16);
    }

    #[test]
    fn the_difference_uses_the_variants_masks() {
        let mut state = LabState::default();
        state.variants[0].masks.causal = true;
        let p = problem_of(&state, 0);
        let c = kernel_comparison(&p, 0, AttentionKind::Relu).unwrap();
        assert_eq!(c.softmax.mask, c.linear.mask);
        assert!(!c.softmax.mask.get(0, 1));
        for i in 0..11 {
            for j in i + 1..11 {
                assert_eq!(c.softmax.weights[[i, j]], 0.0);
                assert_eq!(c.linear.weights[[i, j]], 0.0);
                assert_eq!(c.difference[[i, j]], 0.0);
            }
        }
        // Row 0 sees only itself in both: no difference.
        assert!(c.difference.row(0).iter().all(|&d| d.abs() < 1e-5));
        let labels = Pipeline::new(&state).queries().labels();
        let [_, _, diff] = comparison_figures(&c, &labels, &labels, Lang::Zh).unwrap();
        assert!(diff.is_blocked(0, 1) && !diff.is_blocked(1, 0));
    }

    #[test]
    fn the_spectrum_chart_has_both_curves_and_the_bound() {
        let p = problem_of(&long_state(), 0);
        let c = kernel_comparison(&p, 0, AttentionKind::Relu).unwrap();
        let chart = spectrum_chart(&c, Lang::En).unwrap();
        assert_eq!(chart.series.len(), 3);
        assert_eq!(chart.series[1].points.len(), 25);
        assert_eq!(chart.series[1].points[0], (1.0, 1.0));
        assert_eq!(chart.markers[0].x, 16.0);
        assert!(
            chart.series[2]
                .name
                .as_ref()
                .unwrap()
                .starts_with("relu: rank ")
        );
    }
}
