//! The measured points as the page's table and its log–log chart.

use attnlab_plot::{Axis, AxisScale, LineChart, LineDash, Series, Ticks, VerticalMarker, number};

use super::fit::{Crossover, Fit, fit_power_law, fitted_crossover, measured_crossover};
use super::timing::{FIT_FROM_N, Kind, Measurement, N_MIN};
use attnlab_i18n::{Lang, msg};

/// The points of a run so far, in the order they arrived.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measurements {
    /// Every measured point.
    pub points: Vec<Measurement>,
}

/// One line of the table: a size and its times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// The sequence length.
    pub n: usize,
    /// Softmax's milliseconds per call, once measured.
    pub softmax_ms: Option<f64>,
    /// Linear attention's milliseconds per call, once measured.
    pub linear_ms: Option<f64>,
}

impl Row {
    /// `softmax / linear`, when both are measured and linear's time is positive.
    pub fn ratio(&self) -> Option<f64> {
        match (self.softmax_ms, self.linear_ms) {
            (Some(s), Some(l)) if l > 0.0 => Some(s / l),
            _ => None,
        }
    }
}

impl Measurements {
    /// The `(n, ms)` points of `kind`, by increasing `n`.
    pub fn series(&self, kind: Kind) -> Vec<(usize, f64)> {
        let mut s: Vec<(usize, f64)> = self
            .points
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| (p.n, p.ms))
            .collect();
        s.sort_by_key(|p| p.0);
        s
    }

    /// One row per measured size, by increasing `n`.
    pub fn rows(&self) -> Vec<Row> {
        let mut ns: Vec<usize> = self.points.iter().map(|p| p.n).collect();
        ns.sort_unstable();
        ns.dedup();
        let find = |n, kind| {
            self.points
                .iter()
                .find(|p| p.n == n && p.kind == kind)
                .map(|p| p.ms)
        };
        ns.into_iter()
            .map(|n| Row {
                n,
                softmax_ms: find(n, Kind::Softmax),
                linear_ms: find(n, Kind::LinearElu1),
            })
            .collect()
    }

    /// The power-law fit of `kind` ([`fit_power_law`]).
    pub fn fit(&self, kind: Kind) -> Option<Fit> {
        fit_power_law(&self.series(kind))
    }

    /// Where softmax and linear attention cross.
    pub fn crossover(&self) -> Crossover {
        let fitted = match (self.fit(Kind::Softmax), self.fit(Kind::LinearElu1)) {
            (Some(a), Some(b)) => fitted_crossover(&a, &b),
            _ => None,
        };
        Crossover {
            measured: measured_crossover(
                &self.series(Kind::Softmax),
                &self.series(Kind::LinearElu1),
            ),
            fitted,
        }
    }

    /// The crossover in one sentence in `lang`, for the panel.
    pub fn crossover_text(&self, lang: Lang) -> String {
        let (soft, lin) = (self.series(Kind::Softmax), self.series(Kind::LinearElu1));
        if soft.len() < 2 || lin.len() < 2 {
            return msg::complexity::COMPLEXITY_CROSSOVER_NEEDS.get(lang).into();
        }
        let c = self.crossover();
        let lo = soft
            .first()
            .map_or(0, |p| p.0)
            .max(lin.first().map_or(0, |p| p.0));
        let hi = soft
            .last()
            .map_or(0, |p| p.0)
            .min(lin.last().map_or(0, |p| p.0));
        let fitted = match c.fitted {
            Some(n) if n >= lo as f64 && n <= hi as f64 => {
                msg::complexity::ComplexityFitsCross { n: &round_n(n) }.say(lang)
            }
            Some(n) => msg::complexity::ComplexityFitsCrossOutside {
                n: &round_n(n),
                lo: &lo,
                hi: &hi,
            }
            .say(lang),
            None => msg::complexity::COMPLEXITY_FITS_PARALLEL.get(lang).into(),
        };
        let linear_faster = matches!((soft.last(), lin.last()), (Some(s), Some(l)) if s.1 > l.1);
        match c.measured {
            Some(n) => msg::complexity::ComplexityCrossoverMeasured {
                n: &round_n(n),
                fitted: &fitted,
            }
            .say(lang),
            None => msg::complexity::ComplexityCrossoverNone {
                lo: &lo,
                hi: &hi,
                faster: if linear_faster { "linear" } else { "softmax" },
                fitted: &fitted,
            }
            .say(lang),
        }
    }
}

/// A sequence length `n` (a whole number of tokens) to 2 significant digits below 1000,
/// 3 above.
fn round_n(n: f64) -> String {
    number::rounded(n.round(), if n >= 1000.0 { 3 } else { 2 })
}

/// The legend label of a kind's fitted slope in `lang`: `"softmax (streaming) slope 1.97"`.
pub fn slope_label(kind: Kind, fit: Option<&Fit>, lang: Lang) -> String {
    let label = kind.label_in(lang);
    match fit {
        Some(f) => msg::complexity::ComplexitySlopeLabel {
            label: &label,
            slope: &number::decimals(f.slope, 2),
        }
        .say(lang),
        None => msg::complexity::ComplexityNoFitLabel { label: &label }.say(lang),
    }
}

/// The log–log chart of `m`: each kind's measured points (solid, with markers) and its
/// fitted line (dashed, over the sizes the fit used), the slopes in the legend, the
/// crossover marked (the measured one, or the fitted one when it lies in the measured
/// range). `planned` are the sizes of the run, ticked on the `n` axis. Words in `lang`.
pub fn chart(m: &Measurements, planned: &[usize], lang: Lang) -> LineChart {
    let mut series = Vec::new();
    for kind in Kind::ALL {
        let points = m.series(kind);
        let fit = m.fit(kind);
        series.push(Series {
            name: Some(slope_label(kind, fit.as_ref(), lang)),
            points: points.iter().map(|&(n, t)| (n as f64, t)).collect(),
            color: kind.color(),
            dash: LineDash::Solid,
            markers: true,
        });
        if let Some(f) = fit {
            let ends = [f.from_n as f64, f.to_n as f64];
            series.push(Series {
                name: None,
                points: ends.iter().map(|&n| (n, f.at(n))).collect(),
                color: kind.color(),
                dash: LineDash::Dashed,
                markers: false,
            });
        }
    }
    let c = m.crossover();
    let lo = m.points.iter().map(|p| p.n).min().unwrap_or(N_MIN) as f64;
    let hi = m.points.iter().map(|p| p.n).max().unwrap_or(N_MIN) as f64;
    let marker = match (c.measured, c.fitted) {
        (Some(n), _) => Some(VerticalMarker {
            x: n,
            label: msg::complexity::ComplexityCrossoverMarker { n: &round_n(n) }.say(lang),
        }),
        (None, Some(n)) if n >= lo && n <= hi => Some(VerticalMarker {
            x: n,
            label: msg::complexity::ComplexityFitsCrossMarker { n: &round_n(n) }.say(lang),
        }),
        _ => None,
    };
    let ticks: Vec<f64> = planned.iter().map(|&n| n as f64).collect();
    LineChart {
        title: msg::complexity::COMPLEXITY_CHART_TITLE.get(lang).into(),
        x: Axis {
            label: msg::complexity::COMPLEXITY_AXIS_N.get(lang).into(),
            scale: AxisScale::Log10,
            ticks: if ticks.is_empty() {
                Ticks::Auto
            } else {
                Ticks::At(ticks)
            },
        },
        y: Axis {
            label: msg::complexity::COMPLEXITY_AXIS_MS.get(lang).into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series,
        markers: marker.into_iter().collect(),
        note: Some(msg::complexity::ComplexityChartNote { from: &FIT_FROM_N }.say(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complexity::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn the_chart_has_both_series_their_fits_and_the_crossover() {
        let mut m = Measurements::default();
        for n in sizes(N_MAX) {
            let x = n as f64;
            m.points.push(Measurement {
                n,
                kind: Kind::Softmax,
                ms: x * x / 1e4,
            });
            m.points.push(Measurement {
                n,
                kind: Kind::LinearElu1,
                ms: x / 10.0,
            });
        }
        let c = chart(&m, &sizes(N_MAX), Lang::En);
        let names: Vec<&str> = c.series.iter().filter_map(|s| s.name.as_deref()).collect();
        assert_eq!(
            names,
            ["softmax (streaming) slope 2.00", "linear elu1 slope 1.00"]
        );
        assert_eq!(c.series.len(), 4);
        assert_eq!(c.markers.len(), 1);
        assert!(close(c.markers[0].x, 1000.0, 1e-6));
        assert_eq!(c.markers[0].label, "crossover n ≈ 1000");
        let zh = chart(&m, &sizes(N_MAX), Lang::Zh);
        assert_eq!(
            zh.series[0].name.as_deref(),
            Some("softmax（流式） 斜率 2.00")
        );
        assert_eq!(zh.markers[0].label, "交叉点 n ≈ 1000");
        let rows = m.rows();
        assert_eq!(rows.len(), 9);
        assert!(close(rows[0].ratio().unwrap(), 0.4096 / 6.4, 1e-9));
        assert!(
            m.crossover_text(Lang::En)
                .contains("measured curves cross at n ≈ 1000")
        );
    }
}
