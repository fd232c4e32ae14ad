//! Why the scores are divided by `√d_k` (docs/maths.md §4, §8): for random
//! unit-variance `q`, `k`, `Var(qᵀk) = d_k`, so the logits spread as `√d_k` and the
//! softmax of unscaled logits collapses onto one key as `d_k` grows; `qᵀk/√d_k` keeps
//! unit spread and a soft distribution at every width.
//!
//! The experiment ([`study`]) is `attnlab_core::metrics::scaling_analysis` over
//! [`D_KS`], with as many keys as the sentence has (so the sentence's own values,
//! [`sentence_values`], sit on the same axes and under the same `ln n` ceiling).
//!
//! ```
//! use attnlab_pages::scaling::{D_KS, study};
//!
//! let s = study(11, 42);
//! let (small, big) = (&s.points[0], &s.points[D_KS.len() - 1]);
//! let growth = big.logit_std_unscaled / small.logit_std_unscaled;
//! assert!((growth / (512f32 / 4.0).sqrt() - 1.0).abs() < 0.2); // ≈ √128 ≈ 11.3
//! assert!(big.entropy_unscaled < 0.5 * big.entropy_scaled);
//! ```

use attnlab_core::attention::HeadInput;
use attnlab_core::mask::Mask;
use attnlab_core::metrics::{self, ScalingPoint};
use attnlab_core::rng;
use attnlab_core::softmax;
use attnlab_plot::{Axis, AxisScale, LineChart, LineDash, RGBColor, Series, Ticks, number};

use attnlab_i18n::Lang;
use attnlab_i18n::msg::scaling as text;

/// Unscaled `q·k` on the charts (orange).
pub const UNSCALED: RGBColor = RGBColor(217, 95, 2);
/// Scaled `q·k/√d_k` on the charts (blue).
pub const SCALED: RGBColor = RGBColor(34, 94, 168);
/// The sentence's unscaled value (a darker orange dot).
pub const SENTENCE_UNSCALED: RGBColor = RGBColor(140, 45, 0);
/// The sentence's scaled value (a darker blue dot).
pub const SENTENCE_SCALED: RGBColor = RGBColor(8, 29, 88);
/// Reference lines (grey).
pub const REFERENCE: RGBColor = RGBColor(110, 110, 120);

/// The key/query widths of the experiment: 4 to 512, doubling.
pub const D_KS: [usize; 8] = [4, 8, 16, 32, 64, 128, 256, 512];

/// The experiment: the spread of the logits and the entropy of the softmax against
/// `d_k`, with and without `1/√d_k`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingStudy {
    /// One point per width of [`D_KS`].
    pub points: Vec<ScalingPoint>,
    /// Keys per softmax row (the sentence's length, at least 2).
    pub keys: usize,
    /// Random queries per width, over every trial.
    pub queries: usize,
    /// The seed of the random `q`, `k`.
    pub seed: u64,
}

impl ScalingStudy {
    /// The largest possible row entropy, `ln keys` (a uniform row).
    pub fn max_entropy(&self) -> f32 {
        (self.keys as f32).ln()
    }
}

/// Random queries per trial.
pub const QUERIES_PER_TRIAL: usize = 64;

/// Independent trials (fresh keys and queries) for `keys` keys: 16 for short
/// sentences, fewer for long ones, so that about 256 key vectors are drawn per width
/// (a handful of keys alone would make the measured spread noisy).
pub fn trials_for(keys: usize) -> usize {
    (256 / keys.max(1)).clamp(1, 16)
}

/// Runs the experiment with `keys` keys per row (at least 2) and the given seed:
/// [`trials_for`] independent runs of `scaling_analysis` with [`QUERIES_PER_TRIAL`]
/// queries each, pooled (the spread is the root of the mean variance; entropies and
/// largest weights are means).
pub fn study(keys: usize, seed: u64) -> ScalingStudy {
    let keys = keys.max(2);
    let trials = trials_for(keys);
    let runs: Vec<Vec<ScalingPoint>> = (0..trials as u64)
        .map(|t| metrics::scaling_analysis(&D_KS, QUERIES_PER_TRIAL, keys, seed.wrapping_add(t)))
        .collect();
    let pooled = |i: usize, f: &dyn Fn(&ScalingPoint) -> f32| {
        runs.iter().map(|r| f(&r[i])).sum::<f32>() / trials as f32
    };
    let points = D_KS
        .iter()
        .enumerate()
        .map(|(i, &d_k)| ScalingPoint {
            d_k,
            logit_std_unscaled: pooled(i, &|p| p.logit_std_unscaled.powi(2)).sqrt(),
            logit_std_scaled: pooled(i, &|p| p.logit_std_scaled.powi(2)).sqrt(),
            entropy_unscaled: pooled(i, &|p| p.entropy_unscaled),
            entropy_scaled: pooled(i, &|p| p.entropy_scaled),
            max_weight_unscaled: pooled(i, &|p| p.max_weight_unscaled),
            max_weight_scaled: pooled(i, &|p| p.max_weight_scaled),
        })
        .collect();
    ScalingStudy {
        points,
        keys,
        queries: trials * QUERIES_PER_TRIAL,
        seed,
    }
}

/// The sentence's own values, from one head's projected `Q` and `K`: the raw logits
/// `qᵀk` (all keys, no mask) and their softmax, with and without `1/√d_k`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SentenceValues {
    /// The head's key/query width.
    pub d_k: usize,
    /// Keys per row.
    pub keys: usize,
    /// Standard deviation of `qᵀk` over every query–key pair.
    pub std_unscaled: f32,
    /// Standard deviation of `qᵀk/√d_k`.
    pub std_scaled: f32,
    /// Mean row entropy of `softmax(qᵀk)` (nats).
    pub entropy_unscaled: f32,
    /// Mean row entropy of `softmax(qᵀk/√d_k)` (nats).
    pub entropy_scaled: f32,
    /// Mean largest weight per row of `softmax(qᵀk)`.
    pub max_weight_unscaled: f32,
    /// Mean largest weight per row of `softmax(qᵀk/√d_k)`.
    pub max_weight_scaled: f32,
}

/// The sentence's values for one head; `None` without queries, keys or width.
pub fn sentence_values(head: &HeadInput) -> Option<SentenceValues> {
    let (n, d_k) = head.q.dim();
    let m = head.k.nrows();
    if n == 0 || m == 0 || d_k == 0 || head.k.ncols() != d_k {
        return None;
    }
    let p = metrics::scaling_point(d_k, &head.q.dot(&head.k.t()));
    Some(SentenceValues {
        d_k,
        keys: m,
        std_unscaled: p.logit_std_unscaled,
        std_scaled: p.logit_std_scaled,
        entropy_unscaled: p.entropy_unscaled,
        entropy_scaled: p.entropy_scaled,
        max_weight_unscaled: p.max_weight_unscaled,
        max_weight_scaled: p.max_weight_scaled,
    })
}

/// One row of random logits at width `d_k` and its softmax with and without scaling:
/// what "nearly one-hot" looks like.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleRow {
    /// The width.
    pub d_k: usize,
    /// `softmax(qᵀk_j)` over the keys.
    pub unscaled: Vec<f32>,
    /// `softmax(qᵀk_j/√d_k)`.
    pub scaled: Vec<f32>,
}

impl ExampleRow {
    /// The largest weight without scaling.
    pub fn max_unscaled(&self) -> f32 {
        self.unscaled.iter().copied().fold(0.0, f32::max)
    }

    /// The largest weight with scaling.
    pub fn max_scaled(&self) -> f32 {
        self.scaled.iter().copied().fold(0.0, f32::max)
    }
}

/// One seeded query against `keys` random keys (at least 1), unit-variance entries.
pub fn example_row(d_k: usize, keys: usize, seed: u64) -> ExampleRow {
    let keys = keys.max(1);
    let mut rng = rng::stream(seed, "scaling-example", d_k as u64);
    let q = rng::normal_matrix(&mut rng, 1, d_k, 1.0);
    let k = rng::normal_matrix(&mut rng, keys, d_k, 1.0);
    let raw = q.dot(&k.t());
    let scaled = raw.mapv(|s| s / (d_k.max(1) as f32).sqrt());
    let full = Mask::full(1, keys);
    ExampleRow {
        d_k,
        unscaled: softmax::softmax_masked(&raw, &full).row(0).to_vec(),
        scaled: softmax::softmax_masked(&scaled, &full).row(0).to_vec(),
    }
}

fn d_k_axis(lang: Lang) -> Axis {
    Axis {
        label: text::SCALING_AXIS_D_K.get(lang).into(),
        scale: AxisScale::Log10,
        ticks: Ticks::At(D_KS.iter().map(|&d| d as f64).collect()),
    }
}

fn curve(name: &str, color: RGBColor, points: Vec<(f64, f64)>) -> Series {
    Series {
        name: Some(name.into()),
        points,
        color,
        dash: LineDash::Solid,
        markers: true,
    }
}

/// The sentence's two values at its `d_k` as big dots (a one-point series draws only its
/// marker), unscaled and scaled; none without a sentence.
fn sentence_dots(
    sentence: Option<&SentenceValues>,
    value: fn(&SentenceValues) -> (f32, f32),
    lang: Lang,
) -> Vec<Series> {
    let Some(s) = sentence else {
        return Vec::new();
    };
    let (unscaled, scaled) = value(s);
    let dot = |name: String, color: RGBColor, y: f32| Series {
        name: Some(name),
        points: vec![(s.d_k as f64, f64::from(y))],
        color,
        dash: LineDash::Dashed,
        markers: true,
    };
    let d_k = s.d_k;
    let unscaled_name = text::ScalingSentenceUnscaled { d_k: &d_k }.say(lang);
    vec![
        dot(unscaled_name, SENTENCE_UNSCALED, unscaled),
        dot(
            text::SCALING_SENTENCE_SCALED.get(lang).into(),
            SENTENCE_SCALED,
            scaled,
        ),
    ]
}

/// A single point without a marker: draws nothing, but the axis's range includes it
/// (room for the legend, or a zero at the bottom).
fn undrawn(y: f64) -> Series {
    Series {
        name: None,
        points: vec![(D_KS[0] as f64, y)],
        color: REFERENCE,
        dash: LineDash::Solid,
        markers: false,
    }
}

/// The spread of the logits against `d_k` on log–log axes: unscaled (≈ √d_k, the dashed
/// reference), scaled (≈ 1), and the sentence's values as single dots; words in `lang`.
pub fn spread_chart(
    study: &ScalingStudy,
    sentence: Option<&SentenceValues>,
    lang: Lang,
) -> LineChart {
    let pts = &study.points;
    let mut series = vec![
        Series {
            name: Some("\u{221a}d_k".into()),
            points: pts
                .iter()
                .map(|p| (p.d_k as f64, (p.d_k as f64).sqrt()))
                .collect(),
            color: REFERENCE,
            dash: LineDash::Dashed,
            markers: false,
        },
        curve(
            text::SCALING_STD_UNSCALED.get(lang),
            UNSCALED,
            pts.iter()
                .map(|p| (p.d_k as f64, f64::from(p.logit_std_unscaled)))
                .collect(),
        ),
        curve(
            text::SCALING_STD_SCALED.get(lang),
            SCALED,
            pts.iter()
                .map(|p| (p.d_k as f64, f64::from(p.logit_std_scaled)))
                .collect(),
        ),
    ];
    series.extend(sentence_dots(
        sentence,
        |s| (s.std_unscaled, s.std_scaled),
        lang,
    ));
    // Headroom for the legend in the upper-left corner.
    series.push(undrawn(300.0));
    LineChart {
        title: text::SCALING_SPREAD_TITLE.get(lang).into(),
        x: d_k_axis(lang),
        y: Axis {
            label: text::SCALING_SPREAD_AXIS.get(lang).into(),
            scale: AxisScale::Log10,
            ticks: Ticks::At(vec![
                0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 300.0,
            ]),
        },
        series,
        markers: vec![],
        note: Some(text::SCALING_DOTS_NOTE.get(lang).into()),
    }
}

/// The mean row entropy of the softmax against `d_k`: unscaled (falls towards 0, one-hot),
/// scaled (stays near the ceiling), the ceiling `ln n` dashed, and the sentence's dots;
/// words in `lang`.
pub fn entropy_chart(
    study: &ScalingStudy,
    sentence: Option<&SentenceValues>,
    lang: Lang,
) -> LineChart {
    let pts = &study.points;
    let ceiling = f64::from(study.max_entropy());
    let mut series = vec![
        Series {
            name: Some(
                text::ScalingMaxEntropy {
                    ceiling: &number::decimals(ceiling, 2),
                }
                .say(lang),
            ),
            points: vec![
                (D_KS[0] as f64, ceiling),
                (D_KS[D_KS.len() - 1] as f64, ceiling),
            ],
            color: REFERENCE,
            dash: LineDash::Dashed,
            markers: false,
        },
        curve(
            "softmax(q\u{b7}k)",
            UNSCALED,
            pts.iter()
                .map(|p| (p.d_k as f64, f64::from(p.entropy_unscaled)))
                .collect(),
        ),
        curve(
            "softmax(q\u{b7}k/\u{221a}d_k)",
            SCALED,
            pts.iter()
                .map(|p| (p.d_k as f64, f64::from(p.entropy_scaled)))
                .collect(),
        ),
    ];
    series.extend(sentence_dots(
        sentence,
        |s| (s.entropy_unscaled, s.entropy_scaled),
        lang,
    ));
    // Zero at the bottom and headroom for the legend at the top.
    series.extend([undrawn(0.0), undrawn(ceiling * 1.9)]);
    LineChart {
        title: text::SCALING_ENTROPY_TITLE.get(lang).into(),
        x: d_k_axis(lang),
        y: Axis {
            label: text::SCALING_ENTROPY_AXIS.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        series,
        markers: vec![],
        note: Some(text::SCALING_DOTS_NOTE.get(lang).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;
    use ndarray::{Array2, array};

    #[test]
    fn the_spread_grows_as_root_d_k_and_scaling_undoes_it() {
        for (keys, seed) in [(2, 42), (11, 42), (11, 1), (11, 7), (16, 3), (512, 42)] {
            let s = study(keys, seed);
            assert_eq!(s.points.len(), D_KS.len());
            for p in &s.points {
                let root = (p.d_k as f32).sqrt();
                assert!(
                    (p.logit_std_unscaled / root - 1.0).abs() < 0.1,
                    "{keys}: {p:?}"
                );
                assert!((p.logit_std_scaled - 1.0).abs() < 0.1, "{keys}: {p:?}");
                assert!(p.entropy_scaled <= s.max_entropy() + 1e-5);
            }
            let big = s.points[D_KS.len() - 1];
            assert!(
                big.entropy_unscaled < 0.5 * big.entropy_scaled,
                "{keys}: {big:?}"
            );
            assert!(big.max_weight_unscaled > 0.8, "{keys}: {big:?}");
        }
        assert_eq!(study(1, 1).keys, 2, "one key has no spread to show");
        assert_eq!((trials_for(11), study(11, 1).queries), (16, 1024));
        assert_eq!((trials_for(512), study(512, 1).queries), (1, 64));
    }

    #[test]
    fn the_charts_carry_the_study_and_the_sentence() {
        let s = study(11, 42);
        let state = LabState::default();
        let p = Pipeline::new(&state).variant(0).unwrap();
        let v = sentence_values(&p.problem.heads()[0]).unwrap();
        let spread = spread_chart(&s, Some(&v), Lang::En);
        let names: Vec<&str> = spread
            .series
            .iter()
            .filter_map(|x| x.name.as_deref())
            .collect();
        assert_eq!(names.len(), 5, "{names:?}");
        assert_eq!(spread.series[1].points.len(), D_KS.len());
        assert_eq!(
            spread.series[3].points,
            vec![(16.0, f64::from(v.std_unscaled))]
        );
        let entropy = entropy_chart(&s, None, Lang::En);
        assert!(
            entropy.series[0]
                .name
                .as_deref()
                .unwrap()
                .contains("ln n = 2.40")
        );
        assert_eq!(
            entropy.series.iter().filter(|x| x.name.is_some()).count(),
            3
        );
    }

    #[test]
    fn sentence_values_by_hand() {
        // q = [1, 1], keys [2, 0] and [0, 0]: logits 2 and 0; scaled 2/√2 = √2 and 0.
        let h = HeadInput::new(
            array![[1.0f32, 1.0]],
            array![[2.0f32, 0.0], [0.0, 0.0]],
            array![[0.0f32], [0.0]],
        );
        let v = sentence_values(&h).unwrap();
        assert_eq!((v.d_k, v.keys), (2, 2));
        assert!((v.std_unscaled - 1.0).abs() < 1e-6); // values 2, 0: std 1
        assert!((v.std_scaled - 0.5f32.sqrt()).abs() < 1e-6);
        // softmax([2, 0]) = [e²/(e²+1), 1/(e²+1)] ≈ [0.880797, 0.119203]
        assert!((v.max_weight_unscaled - 0.880_797).abs() < 1e-5);
        assert!(v.entropy_unscaled < v.entropy_scaled);
        let empty = HeadInput::new(
            Array2::zeros((0, 2)),
            Array2::zeros((0, 2)),
            Array2::zeros((0, 1)),
        );
        assert_eq!(sentence_values(&empty), None);
    }

    #[test]
    fn the_sentence_follows_the_model() {
        let mut state = LabState::default();
        let p = Pipeline::new(&state).variant(0).unwrap();
        let a = sentence_values(&p.problem.heads()[0]).unwrap();
        assert_eq!((a.d_k, a.keys), (16, 11));
        assert!(a.std_scaled < a.std_unscaled);
        assert!(a.entropy_scaled > a.entropy_unscaled);
        state.model.heads = 1;
        let p = Pipeline::new(&state).variant(0).unwrap();
        let b = sentence_values(&p.problem.heads()[0]).unwrap();
        assert_eq!(b.d_k, 64);
        assert_ne!(a, b);
    }

    #[test]
    fn without_scaling_the_example_row_is_nearly_one_hot() {
        let r = example_row(512, 16, 42);
        assert_eq!(r.unscaled.len(), 16);
        assert!((r.unscaled.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(r.max_unscaled() > 0.9, "{r:?}");
        assert!(r.max_scaled() < 0.7, "{r:?}");
        assert_eq!(example_row(4, 0, 1).scaled, vec![1.0]);
    }
}
