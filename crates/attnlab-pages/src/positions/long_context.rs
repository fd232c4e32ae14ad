//! RoPE beyond the trained length (docs/maths.md §13): the wavelength of each frequency
//! against the context length, and RoFormer's decay curve past `L_train`, without scaling
//! and under the page's linear, NTK or YaRN scaling.

use attnlab_core::rope;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::positions as text;
use attnlab_plot::{AxisScale, LineChart, LineDash, RGBColor, Series};

use super::pe::CURVE_COLOURS;
use super::rope::{PAPER_DIMS, RopeSettings, ScalingKind, axis, line};

/// The colours of the lines at `L_train` and `s·L_train`.
const LENGTH_COLOURS: [RGBColor; 2] = [RGBColor(120, 40, 140), RGBColor(180, 30, 30)];

/// `count` distances from 1 to `last`, evenly on a log scale, whole and distinct.
fn log_distances(last: f64, count: usize) -> Vec<f64> {
    let mut out: Vec<f64> = (0..count)
        .map(|i| (last.ln() * i as f64 / (count - 1) as f64).exp().round())
        .collect();
    out.dedup();
    out
}

/// The colour of each scaling on the long-context figures.
pub fn scaling_colour(kind: ScalingKind) -> RGBColor {
    match kind {
        ScalingKind::None => RGBColor(90, 90, 90),
        ScalingKind::Linear => CURVE_COLOURS[0],
        ScalingKind::Ntk => CURVE_COLOURS[1],
        ScalingKind::Yarn => CURVE_COLOURS[2],
    }
}

/// The scalings a long-context figure draws: none, and the page's (when it has one).
fn drawn(settings: &RopeSettings) -> Vec<ScalingKind> {
    let mut kinds = vec![ScalingKind::None];
    if settings.scaling != ScalingKind::None {
        kinds.push(settings.scaling);
    }
    kinds
}

/// `L_train` and `s·L_train` (when scaled) as `(value, label)`.
fn lengths(settings: &RopeSettings, lang: Lang) -> Vec<(f64, String)> {
    let l = settings.trained as f64;
    let mut out = vec![(
        l,
        text::RopeTrained {
            length: &settings.trained,
        }
        .say(lang),
    )];
    if settings.scaling != ScalingKind::None {
        let extended = (l * f64::from(settings.factor)).round();
        out.push((extended, text::RopeExtended { length: &extended }.say(lang)));
    }
    out
}

/// One solid line per scaling drawn ([`drawn`]), in its colour and named in the legend,
/// through the points `points` gives for it.
fn scaling_lines(
    settings: &RopeSettings,
    lang: Lang,
    points: impl Fn(ScalingKind) -> Vec<(f64, f64)>,
) -> Vec<Series> {
    drawn(settings)
        .into_iter()
        .map(|kind| {
            line(
                Some(kind.label(lang)),
                points(kind),
                scaling_colour(kind),
                LineDash::Solid,
            )
        })
        .collect()
}

/// `L_train` and `s·L_train` as dashed lines named in the legend, each drawn through
/// the points `place` gives for its length.
fn length_lines(
    settings: &RopeSettings,
    lang: Lang,
    place: impl Fn(f64) -> Vec<(f64, f64)>,
) -> Vec<Series> {
    lengths(settings, lang)
        .into_iter()
        .enumerate()
        .map(|(k, (length, label))| {
            line(
                Some(label),
                place(length),
                LENGTH_COLOURS[k % 2],
                LineDash::Dashed,
            )
        })
        .collect()
}

/// The relative upper bound (times YaRN's `mscale²`) against the distance, from 1 to
/// `2·s·L_train` on a log scale, without scaling and with the page's, for `d = 128`;
/// `L_train` and `s·L_train` marked.
pub fn long_decay_chart(settings: &RopeSettings, lang: Lang) -> LineChart {
    let s = match settings.scaling {
        ScalingKind::None => 1.0,
        _ => f64::from(settings.factor).max(1.0),
    };
    let last = (2.0 * s * settings.trained as f64).max(16.0);
    let xs = log_distances(last, 400);
    let mut series = scaling_lines(settings, lang, |kind| {
        let f = settings.frequencies(kind, PAPER_DIMS);
        xs.iter()
            .map(|&d| (d, rope::relative_upper_bound(&f, d)))
            .collect()
    });
    // L_train and s·L_train as vertical lines named in the legend (on a log axis the two
    // are close, and labels at the lines' tops would overlap).
    let top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(1.0f64, f64::max);
    series.extend(length_lines(settings, lang, |l| vec![(l, 0.0), (l, top)]));
    LineChart {
        title: text::RopeLongDecayTitle { d: &PAPER_DIMS }.say(lang),
        x: axis(text::ROPE_AXIS_DISTANCE.get(lang), AxisScale::Log10),
        y: axis(text::ROPE_AXIS_BOUND.get(lang), AxisScale::Linear),
        series,
        markers: vec![],
        note: None,
    }
}

/// The wavelength `2π/θ_t` of each pair `t` of `r` dimensions under scaling `kind`.
pub fn wavelengths(settings: &RopeSettings, kind: ScalingKind, r: usize) -> Vec<f64> {
    settings
        .frequencies(kind, r)
        .per_position
        .iter()
        .map(|w| std::f64::consts::TAU / w)
        .collect()
}

/// The wavelength of each pair (log scale) for `d = 128` without scaling and with the
/// page's, and the context lengths `L_train` and `s·L_train` as horizontal lines: a pair
/// whose wavelength passes `L_train` never made a full turn in training.
pub fn wavelength_chart(settings: &RopeSettings, lang: Lang) -> LineChart {
    let half = PAPER_DIMS / 2;
    let mut series = scaling_lines(settings, lang, |kind| {
        wavelengths(settings, kind, PAPER_DIMS)
            .into_iter()
            .enumerate()
            .map(|(t, w)| (t as f64, w))
            .collect()
    });
    series.extend(length_lines(settings, lang, |l| {
        vec![(0.0, l), ((half - 1) as f64, l)]
    }));
    LineChart {
        title: text::RopeWavelengthTitle { d: &PAPER_DIMS }.say(lang),
        x: axis(text::ROPE_AXIS_PAIR.get(lang), AxisScale::Linear),
        y: axis(text::ROPE_AXIS_WAVELENGTH.get(lang), AxisScale::Log10),
        series,
        markers: vec![],
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::decay_chart;

    #[test]
    fn linear_scaling_stretches_every_wavelength_by_s_and_ntk_raises_the_base() {
        let s = RopeSettings {
            factor: 8.0,
            ..RopeSettings::default()
        };
        let plain = wavelengths(&s, ScalingKind::None, PAPER_DIMS);
        let linear = wavelengths(&s, ScalingKind::Linear, PAPER_DIMS);
        for (p, l) in plain.iter().zip(&linear) {
            assert!((l / p - 8.0).abs() < 1e-12);
        }
        // NTK: base' = 10000 · 8^(128/126); the fastest pair is kept, the slowest
        // stretched by exactly s.
        let ntk = wavelengths(&s, ScalingKind::Ntk, PAPER_DIMS);
        let base = 10_000f64 * 8f64.powf(128.0 / 126.0);
        for (t, w) in ntk.iter().enumerate() {
            let want = std::f64::consts::TAU * base.powf(2.0 * t as f64 / 128.0);
            assert!((w / want - 1.0).abs() < 1e-12, "t = {t}");
        }
        assert!((ntk[0] - plain[0]).abs() < 1e-12);
        assert!((ntk[63] / plain[63] - 8.0).abs() < 1e-9);
    }

    #[test]
    fn yarn_keeps_the_fast_pairs_interpolates_the_slow_and_blends_between() {
        let s = RopeSettings {
            factor: 4.0,
            trained: 4096,
            ..RopeSettings::default()
        };
        let plain = wavelengths(&s, ScalingKind::None, PAPER_DIMS);
        let yarn = wavelengths(&s, ScalingKind::Yarn, PAPER_DIMS);
        let ratio: Vec<f64> = yarn.iter().zip(&plain).map(|(y, p)| y / p).collect();
        // Pairs turning more than β_fast = 32 times within L_train are kept (ratio 1);
        // those turning less than β_slow = 1 time are interpolated (ratio s); between,
        // the ratio 1/((1 − ramp)+ramp/s) grows steadily.
        let (low, high) = rope::yarn_range(128.0, 10_000.0, 4096.0, 32.0, 1.0);
        for (t, r) in ratio.iter().enumerate() {
            let t = t as f64;
            if t <= low {
                assert!((r - 1.0).abs() < 1e-12, "t = {t}: {r}");
            } else if t >= high {
                assert!((r - 4.0).abs() < 1e-9, "t = {t}: {r}");
            } else {
                assert!(*r > 1.0 && *r < 4.0, "t = {t}: {r}");
            }
        }
        assert!(ratio.windows(2).all(|w| w[1] >= w[0] - 1e-12));
        assert!(high - low > 4.0, "{low} {high}");
        // Kept pairs: wavelength ≤ L_train/32; interpolated: ≥ L_train.
        assert!(plain[low as usize] <= 4096.0 / 32.0 * 1.5);
        assert!(plain[high as usize] >= 4096.0 / 1.5);
    }

    #[test]
    fn the_charts_follow_the_scaling() {
        let none = RopeSettings::default();
        let w = wavelength_chart(&none, Lang::En);
        // No scaling: one curve and the L_train line.
        assert_eq!(w.series.len(), 2);
        let yarn = RopeSettings {
            scaling: ScalingKind::Yarn,
            ..none
        };
        let w = wavelength_chart(&yarn, Lang::En);
        let names: Vec<_> = w.series.iter().filter_map(|s| s.name.clone()).collect();
        assert_eq!(
            names,
            ["no scaling", "YaRN", "L_train = 4096", "s·L_train = 16384"]
        );
        let d = long_decay_chart(&yarn, Lang::En);
        let names: Vec<_> = d.series.iter().filter_map(|s| s.name.clone()).collect();
        assert_eq!(
            names,
            ["no scaling", "YaRN", "L_train = 4096", "s·L_train = 16384"]
        );
        // YaRN's bound at distance 1 is mscale² = (0.1 ln 4 + 1)² times larger at most.
        let (plain, yarn) = (&d.series[0].points, &d.series[1].points);
        assert!(yarn[0].1 > plain[0].1 && yarn[0].1 <= plain[0].1 * 1.2965);
        // RoFormer's curve: 32.5 at distance 0 (the mean of 1 … 64), falling.
        let paper = decay_chart(&none, Lang::En);
        assert_eq!(paper.series.len(), 1);
        assert!((paper.series[0].points[0].1 - 32.5).abs() < 1e-9);
        let other = decay_chart(
            &RopeSettings {
                base: 500_000.0,
                ..none
            },
            Lang::En,
        );
        assert_eq!(other.series.len(), 2);
    }
}
