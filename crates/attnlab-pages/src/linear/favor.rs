//! FAVOR+ (Choromanski et al. 2021) against the softmax it approximates, on one head: the
//! implied matrix `Â` of `r` positive random features against `softmax(QKᵀ/√d_k)` with
//! the head's masks, for `r` from 4 to 512. The features are random, so each `r` is drawn
//! [`FAVOR_DRAWS`] times (the core's seeded features, one stream per draw) and the mean
//! `|Â − A|` of each draw is averaged. One feature's estimate of `exp(q′·k′)` has a
//! relative variance of `e^‖q′+k′‖² − 1` (`x′ = x/d_k^¼`), so the error falls as `1/√r`,
//! the Monte Carlo rate the chart draws beside it, only once `r` is large against that:
//! with long queries and keys it takes thousands of features.

use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, Problem};
use attnlab_core::metrics;
use attnlab_core::model::ModelConfig;
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{Axis, AxisScale, LineChart, LineDash, Series, Ticks};

use super::{LINEAR_COLOUR, LinearLabError, SOFTMAX_COLOUR, THRESHOLD_COLOUR, head_input, run};
use attnlab_i18n::{Lang, msg};

/// The numbers of features the chart compares.
pub const FAVOR_FEATURES: [usize; 11] = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];

/// How many independent draws of the features each number of features averages.
pub const FAVOR_DRAWS: u64 = 4;

/// The most multiply-adds of the implied matrices `φ(Q)φ(K)ᵀ` (`n·m·r` per draw) the
/// chart computes: a long text gets the numbers of features that fit, so the page stays
/// responsive (all of them up to about 60 tokens).
pub const FAVOR_BUDGET: usize = 16 * 1024 * 1024;

/// The numbers of features of [`FAVOR_FEATURES`] measured for `n` queries and `m` keys:
/// those within [`FAVOR_BUDGET`], at least the first two.
pub fn features_within(n: usize, m: usize) -> Vec<usize> {
    let cells = (n * m).max(1);
    let fit: Vec<usize> = FAVOR_FEATURES
        .iter()
        .copied()
        .filter(|&r| cells.saturating_mul(r) <= FAVOR_BUDGET)
        .collect();
    if fit.len() >= 2 {
        fit
    } else {
        FAVOR_FEATURES[..2].to_vec()
    }
}

/// The error of `r` features.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FavorError {
    /// `r`, the number of random features.
    pub features: usize,
    /// The mean over the draws of the mean `|Â − A|` over the allowed cells.
    pub mean_abs: f32,
    /// The mean over the draws of the largest `|Â − A|`.
    pub max_abs: f32,
}

/// FAVOR+'s error against softmax on head `head` of `problem` (its Q, K and masks;
/// score scaled dot, τ = 1), for each of [`features_within`] its size, with the features
/// of the lab's `seed`.
pub fn favor_error(
    problem: &Problem,
    head: usize,
    seed: u64,
) -> Result<Vec<FavorError>, LinearLabError> {
    let input = head_input(problem, head)?;
    let (n, m, d_k) = (input.q.nrows(), input.k.nrows(), input.q.ncols());
    if n == 0 || m == 0 {
        return Err(LinearLabError::Empty);
    }
    let mask = problem.spec().mask.clone();
    let softmax = run(input, AttentionKind::Softmax, mask.clone(), 1.0)?;
    let spec = AttentionSpec {
        score: ScoreFunction::ScaledDot,
        attention: AttentionKind::Favor,
        mask,
        ..AttentionSpec::default()
    };
    features_within(n, m)
        .into_iter()
        .map(|r| {
            let (mut mean, mut max) = (0.0f64, 0.0f64);
            for draw in 0..FAVOR_DRAWS {
                let seeded = ModelConfig {
                    seed: seed.wrapping_add(draw),
                    ..ModelConfig::default()
                };
                let mut one = HeadInput::new(input.q.clone(), input.k.clone(), input.v.clone());
                one.features = Some(seeded.favor_features(r, d_k, head));
                let favor = Problem::new(vec![one], spec.clone(), None)?.compute_head(0)?;
                let c = metrics::compare(&favor.weights, &softmax.weights)?;
                mean += f64::from(c.mean_abs);
                max += f64::from(c.max_abs);
            }
            let draws = FAVOR_DRAWS as f64;
            Ok(FavorError {
                features: r,
                mean_abs: (mean / draws) as f32,
                max_abs: (max / draws) as f32,
            })
        })
        .collect()
}

/// The errors against `r` on log–log axes, with the `1/√r` rate through the last point
/// (dashed), the words in `lang`.
pub fn favor_chart(errors: &[FavorError], lang: Lang) -> Option<LineChart> {
    let points = |f: fn(&FavorError) -> f32| -> Vec<(f64, f64)> {
        errors
            .iter()
            .map(|e| (e.features as f64, f64::from(f(e))))
            .collect()
    };
    // Through the last point: the rate holds once r is large (see the module's note).
    let last = errors.last()?;
    let anchor = f64::from(last.mean_abs) * (last.features as f64).sqrt();
    let rate = errors
        .iter()
        .map(|e| (e.features as f64, anchor / (e.features as f64).sqrt()))
        .collect();
    Some(LineChart {
        title: msg::linear::FAVOR_ERROR_TITLE.get(lang).into(),
        x: Axis {
            label: msg::linear::FAVOR_ERROR_FEATURES.get(lang).into(),
            scale: AxisScale::Log10,
            ticks: Ticks::At(FAVOR_FEATURES.iter().map(|&r| r as f64).collect()),
        },
        y: Axis {
            label: msg::linear::FAVOR_ERROR_AXIS.get(lang).into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series: vec![
            Series {
                name: Some(msg::linear::FAVOR_ERROR_MEAN.get(lang).into()),
                points: points(|e| e.mean_abs),
                color: LINEAR_COLOUR,
                dash: LineDash::Solid,
                markers: true,
            },
            Series {
                name: Some(msg::linear::FAVOR_ERROR_MAX.get(lang).into()),
                points: points(|e| e.max_abs),
                color: SOFTMAX_COLOUR,
                dash: LineDash::Solid,
                markers: true,
            },
            Series {
                name: Some(msg::linear::FAVOR_ERROR_RATE.get(lang).into()),
                points: rate,
                color: THRESHOLD_COLOUR,
                dash: LineDash::Dashed,
                markers: false,
            },
        ],
        markers: Vec::new(),
        note: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;

    #[test]
    fn more_features_approximate_softmax_better() {
        let state = LabState::default();
        let problem = Pipeline::new(&state).variant(0).unwrap().problem;
        let errors = favor_error(&problem, 0, state.model.seed).unwrap();
        assert_eq!(errors.len(), FAVOR_FEATURES.len());
        assert!(
            errors
                .iter()
                .all(|e| e.mean_abs.is_finite() && e.mean_abs <= e.max_abs)
        );
        // The lab's queries and keys are long (‖q′ + k′‖² ≈ 8): the relative variance of
        // one feature, e^‖q′+k′‖², is in the thousands, and the error falls slowly.
        let (first, last) = (errors[0], errors[errors.len() - 1]);
        assert!(last.mean_abs * 2.0 < first.mean_abs, "{errors:?}");
        let chart = favor_chart(&errors, Lang::En).unwrap();
        assert_eq!(chart.series.len(), 3);
        assert_eq!(chart.series[0].points.len(), FAVOR_FEATURES.len());
    }

    #[test]
    fn short_queries_and_keys_fall_at_the_monte_carlo_rate() {
        let state = LabState::default();
        let problem = Pipeline::new(&state).variant(0).unwrap().problem;
        let head = &problem.heads()[0];
        let short = HeadInput::new(&head.q * 0.25, &head.k * 0.25, head.v.clone());
        let short = Problem::new(vec![short], AttentionSpec::default(), None).unwrap();
        let errors = favor_error(&short, 0, 3).unwrap();
        // 4 to 4096 features, 1024×: √1024 = 32× smaller at the Monte Carlo rate; at
        // least 10× with 4 draws' noise.
        let (first, last) = (errors[0], errors[errors.len() - 1]);
        assert!(last.mean_abs * 10.0 < first.mean_abs, "{errors:?}");
    }

    #[test]
    fn a_long_text_measures_the_features_that_fit() {
        assert_eq!(features_within(11, 11), FAVOR_FEATURES);
        assert_eq!(features_within(256, 256), [4, 8, 16, 32, 64, 128, 256]);
        assert_eq!(features_within(100_000, 100_000), [4, 8]);
    }

    #[test]
    fn the_draws_are_the_cores_seeded_features_and_repeat() {
        let state = LabState::default();
        let problem = Pipeline::new(&state).variant(0).unwrap().problem;
        let a = favor_error(&problem, 1, 7).unwrap();
        let b = favor_error(&problem, 1, 7).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, favor_error(&problem, 1, 8).unwrap());
    }
}
