//! Colour scales, value ranges and the legend's ticks.

use std::ops::{Div, Mul, Sub};

use plotters::style::RGBColor;

/// How values map to colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorScale {
    /// Pale yellow (low) through green and blue to deep navy (high): ColorBrewer's
    /// YlGnBu, colour-blind safe and legible on a projector. For attention weights, whose
    /// natural range is `0..=1`.
    #[default]
    Sequential,
    /// Blue (negative) through near-white (zero) to red (positive): ColorBrewer's RdBu.
    /// For differences between two matrices; pair it with a range symmetric around 0
    /// ([`ValueRange::symmetric`]) so that white means "no change".
    Diverging,
}

/// YlGnBu, 9 classes (ColorBrewer), low to high.
const SEQUENTIAL: [(u8, u8, u8); 9] = [
    (255, 255, 217),
    (237, 248, 177),
    (199, 233, 180),
    (127, 205, 187),
    (65, 182, 196),
    (29, 145, 192),
    (34, 94, 168),
    (37, 52, 148),
    (8, 29, 88),
];

/// RdBu, 11 classes (ColorBrewer), reversed so that negative is blue.
const DIVERGING: [(u8, u8, u8); 11] = [
    (5, 48, 97),
    (33, 102, 172),
    (67, 147, 195),
    (146, 197, 222),
    (209, 229, 240),
    (247, 247, 247),
    (253, 219, 199),
    (244, 165, 130),
    (214, 96, 77),
    (178, 24, 43),
    (103, 0, 31),
];

/// viridis (matplotlib; van der Walt and Smith), 8 stops, dark purple (low) to yellow
/// (high): perceptually uniform, readable in grey and by the colour-blind.
const VIRIDIS: [(u8, u8, u8); 8] = [
    (68, 1, 84),
    (70, 50, 127),
    (54, 92, 141),
    (39, 127, 143),
    (31, 162, 136),
    (74, 194, 110),
    (160, 219, 57),
    (254, 232, 37),
];

/// cividis (Nuñez, Anderton and Renslow 2018), 10 stops, navy (low) to yellow (high):
/// made to look the same to people with red–green colour blindness.
const CIVIDIS: [(u8, u8, u8); 10] = [
    (0, 34, 78),
    (18, 53, 112),
    (59, 73, 108),
    (87, 93, 109),
    (112, 113, 115),
    (138, 134, 120),
    (165, 156, 116),
    (195, 179, 105),
    (225, 204, 85),
    (254, 232, 56),
];

/// PuOr, 11 classes (ColorBrewer): purple (negative) through near-white to orange
/// (positive); colour-blind safe, with no red or green.
const PUOR: [(u8, u8, u8); 11] = [
    (45, 0, 75),
    (84, 39, 136),
    (128, 115, 172),
    (178, 171, 210),
    (216, 218, 235),
    (247, 247, 247),
    (254, 224, 182),
    (253, 184, 99),
    (224, 130, 20),
    (179, 88, 6),
    (127, 59, 8),
];

/// The colours of weights ([`ColorScale::Sequential`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SequentialPalette {
    /// YlGnBu: pale (low) to navy (high); zeros stay near the paper's colour.
    #[default]
    YlGnBu,
    /// viridis.
    Viridis,
    /// cividis.
    Cividis,
}

/// The colours of differences ([`ColorScale::Diverging`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DivergingPalette {
    /// RdBu: blue (negative), white, red (positive).
    #[default]
    RdBu,
    /// PuOr: purple (negative), white, orange (positive).
    PuOr,
}

/// The colours a person chose for every figure: one for weights, one for differences.
/// Part of the drawing style, not of the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Palette {
    /// For weights.
    pub sequential: SequentialPalette,
    /// For differences.
    pub diverging: DivergingPalette,
}

impl ColorScale {
    /// The colour at position `t` of the scale (`0` = low end, `1` = high end; clamped),
    /// in the default palette.
    pub fn at(self, t: f32) -> RGBColor {
        self.at_in(Palette::default(), t)
    }

    /// The colour at position `t` of the scale in `palette`.
    pub fn at_in(self, palette: Palette, t: f32) -> RGBColor {
        let stops: &[(u8, u8, u8)] = match (self, palette.sequential, palette.diverging) {
            (ColorScale::Sequential, SequentialPalette::YlGnBu, _) => &SEQUENTIAL,
            (ColorScale::Sequential, SequentialPalette::Viridis, _) => &VIRIDIS,
            (ColorScale::Sequential, SequentialPalette::Cividis, _) => &CIVIDIS,
            (ColorScale::Diverging, _, DivergingPalette::RdBu) => &DIVERGING,
            (ColorScale::Diverging, _, DivergingPalette::PuOr) => &PUOR,
        };
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        let x = t * (stops.len() - 1) as f32;
        let i = (x.floor() as usize).min(stops.len() - 2);
        let f = x - i as f32;
        let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * f).round() as u8;
        let (a, b) = (stops[i], stops[i + 1]);
        RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }
}

/// The closed interval of values the colour scale spans. Values outside are clamped to
/// the end colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueRange {
    min: f32,
    max: f32,
}

impl ValueRange {
    /// `0..=1`, the range of attention weights.
    pub const UNIT: ValueRange = ValueRange { min: 0.0, max: 1.0 };

    /// `min..=max`; `None` unless both are finite and `min < max`.
    pub fn new(min: f32, max: f32) -> Option<ValueRange> {
        (min.is_finite() && max.is_finite() && min < max).then_some(ValueRange { min, max })
    }

    /// `−a..=a` with `a = |max_abs|`, for differences; a zero or non-finite `max_abs`
    /// gives `−1..=1` so that an all-zero difference still has a legend.
    pub fn symmetric(max_abs: f32) -> ValueRange {
        let a = max_abs.abs();
        if a.is_finite() && a > 0.0 {
            ValueRange { min: -a, max: a }
        } else {
            ValueRange {
                min: -1.0,
                max: 1.0,
            }
        }
    }

    /// The low end.
    pub fn min(&self) -> f32 {
        self.min
    }

    /// The high end.
    pub fn max(&self) -> f32 {
        self.max
    }

    /// Where `v` falls in the range, `0..=1` (clamped).
    pub fn normalise(&self, v: f32) -> f32 {
        ((v - self.min) / (self.max - self.min)).clamp(0.0, 1.0)
    }
}

/// Legend ticks: the two ends of the range always, plus "nice" values (1, 2, 2.5 or 5
/// times a power of ten) in between, about `target` in all. Interior ticks closer than a
/// fraction `min_gap` of the range to an end are dropped so labels never collide.
pub(crate) fn ticks(range: ValueRange, target: usize, min_gap: f32) -> Vec<f32> {
    let (lo, hi) = (range.min(), range.max());
    let step = nice_step((hi - lo) / target.max(1) as f32, &[1.0, 2.0, 2.5, 5.0]);
    let mut out = vec![lo];
    let mut k = (lo / step).ceil();
    loop {
        let v = k * step;
        if v >= hi {
            break;
        }
        let gap = (min_gap * (hi - lo)).max(f32::EPSILON);
        if v - lo >= gap && hi - v >= gap {
            // Snap values such as 0.30000001 onto the step grid.
            out.push(if v.abs() < step * 1e-3 { 0.0 } else { v });
        }
        k += 1.0;
    }
    out.push(hi);
    out
}

/// The floating-point arithmetic of [`round_up_to_steps`] and [`nice_step`], for `f32`
/// (legends, differences' ranges) and `f64` (line charts): each type's own operations, so
/// either computes exactly what a copy written for it alone would.
pub(crate) trait Float:
    Copy + PartialOrd + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// 10.
    const TEN: Self;
    /// Neither infinite nor NaN.
    fn is_finite(self) -> bool;
    /// The base-10 logarithm.
    fn log10(self) -> Self;
    /// The largest integer at or below.
    fn floor(self) -> Self;
    /// `self` to the power `n`.
    fn powf(self, n: Self) -> Self;
}

macro_rules! float {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const TEN: $t = 10.0;
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            fn log10(self) -> $t {
                <$t>::log10(self)
            }
            fn floor(self) -> $t {
                <$t>::floor(self)
            }
            fn powf(self, n: $t) -> $t {
                <$t>::powf(self, n)
            }
        }
    )*};
}

float!(f32, f64);

/// A step between ticks: `raw` rounded up to the first of `steps` times a power of ten
/// ([`round_up_to_steps`] with no slack); 1 when `raw` is not finite and positive.
pub(crate) fn nice_step<F: Float>(raw: F, steps: &[F]) -> F {
    if !(raw.is_finite() && raw > F::ZERO) {
        return F::ONE;
    }
    round_up_to_steps(raw, steps, F::ZERO)
}

/// `x` (finite, > 0) rounded up to the first of `steps` (ascending, within `1..10`) times
/// the power of ten at or below `x`, or to the next power of ten; a mantissa at most a
/// relative `slack` above a step rounds down to that step (so `0.2`, stored as
/// 2.0000002 × 0.1, stays 0.2 with a slack of 1e-5).
pub(crate) fn round_up_to_steps<F: Float>(x: F, steps: &[F], slack: F) -> F {
    let p = F::TEN.powf(x.log10().floor());
    let f = x / p;
    let step = steps
        .iter()
        .copied()
        .find(|&s| s >= f * (F::ONE - slack))
        .unwrap_or(F::TEN);
    step * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_ends_and_middle() {
        assert_eq!(ColorScale::Sequential.at(0.0), RGBColor(255, 255, 217));
        assert_eq!(ColorScale::Sequential.at(1.0), RGBColor(8, 29, 88));
        assert_eq!(ColorScale::Diverging.at(0.5), RGBColor(247, 247, 247));
        let viridis = Palette {
            sequential: SequentialPalette::Viridis,
            diverging: DivergingPalette::PuOr,
        };
        assert_eq!(
            ColorScale::Sequential.at_in(viridis, 0.0),
            RGBColor(68, 1, 84)
        );
        assert_eq!(
            ColorScale::Sequential.at_in(viridis, 1.0),
            RGBColor(254, 232, 37)
        );
        // The diverging palettes keep white at zero.
        assert_eq!(
            ColorScale::Diverging.at_in(viridis, 0.5),
            RGBColor(247, 247, 247)
        );
        let cividis = Palette {
            sequential: SequentialPalette::Cividis,
            ..Palette::default()
        };
        assert_eq!(
            ColorScale::Sequential.at_in(cividis, 0.0),
            RGBColor(0, 34, 78)
        );
        assert_eq!(
            ColorScale::Sequential.at(-3.0),
            ColorScale::Sequential.at(0.0)
        );
        assert_eq!(
            ColorScale::Sequential.at(f32::NAN),
            ColorScale::Sequential.at(0.0)
        );
    }

    #[test]
    fn ranges() {
        assert!(ValueRange::new(1.0, 1.0).is_none());
        assert!(ValueRange::new(0.0, f32::INFINITY).is_none());
        assert_eq!(
            ValueRange::symmetric(-0.5),
            ValueRange::new(-0.5, 0.5).unwrap()
        );
        assert_eq!(
            ValueRange::symmetric(0.0),
            ValueRange::new(-1.0, 1.0).unwrap()
        );
        assert_eq!(ValueRange::UNIT.normalise(0.25), 0.25);
        assert_eq!(ValueRange::UNIT.normalise(7.0), 1.0);
    }

    #[test]
    fn unit_ticks_are_quarters() {
        assert_eq!(ticks(ValueRange::UNIT, 4, 0.1), [0.0, 0.25, 0.5, 0.75, 1.0]);
    }

    #[test]
    fn symmetric_ticks_keep_ends_and_drop_crowded_ones() {
        let t = ticks(ValueRange::symmetric(0.37), 4, 0.1);
        assert_eq!(t.first(), Some(&-0.37));
        assert_eq!(t.last(), Some(&0.37));
        assert!(t.contains(&0.0));
        assert!(t.windows(2).all(|w| w[1] - w[0] >= 0.07), "{t:?}");
    }

    #[test]
    fn nice_steps_in_either_precision() {
        let chart = [1.0, 2.0, 5.0];
        let got: Vec<f64> = [0.07, 1.0, 1.3, 2.0, 3.0, 7.0, 12.0, 0.0, -1.0, f64::NAN]
            .into_iter()
            .map(|x| nice_step(x, &chart))
            .collect();
        assert_eq!(got, [0.1, 1.0, 2.0, 2.0, 5.0, 10.0, 20.0, 1.0, 1.0, 1.0]);
        let legend = [1.0, 2.0, 2.5, 5.0];
        assert_eq!(nice_step(0.25f32, &legend), 0.25);
        assert_eq!(nice_step(0.3f32, &legend), 0.5);
    }
}
