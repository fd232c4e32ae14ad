//! The measured points as the page's table and its log–log chart.

use attnlab_plot::{Axis, AxisScale, LineChart, LineDash, Series, Ticks, VerticalMarker, number};

use super::fit::{Crossover, Fit, fit_power_law, fitted_crossover, measured_crossover};
use super::timing::{FIT_FROM_N, Kind, Measurement, N_MIN};
use attnlab_i18n::Lang;

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
            return lang
                .pick(
                    "Crossover: needs at least two sizes of each kind.",
                    "交叉点：每种注意力至少需要两个规模。",
                )
                .into();
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
        let fitted = match (c.fitted, lang) {
            (Some(n), Lang::En) if n >= lo as f64 && n <= hi as f64 => {
                format!("the fitted lines cross at n ≈ {}", round_n(n))
            }
            (Some(n), Lang::Zh) if n >= lo as f64 && n <= hi as f64 => {
                format!("拟合直线相交于 n ≈ {}", round_n(n))
            }
            (Some(n), Lang::En) => format!(
                "the fitted lines cross at n ≈ {}, outside the measured {lo}…{hi}",
                round_n(n)
            ),
            (Some(n), Lang::Zh) => format!(
                "拟合直线相交于 n ≈ {}，在测量范围 {lo}…{hi} 之外",
                round_n(n)
            ),
            (None, _) => lang
                .pick("the fitted lines are parallel", "拟合直线互相平行")
                .into(),
        };
        let linear_faster = matches!((soft.last(), lin.last()), (Some(s), Some(l)) if s.1 > l.1);
        match (c.measured, lang) {
            (Some(n), Lang::En) => format!(
                "Crossover: the measured curves cross at n ≈ {} (linear attention is faster above); {fitted}.",
                round_n(n)
            ),
            (Some(n), Lang::Zh) => format!(
                "交叉点：测得的曲线相交于 n ≈ {}（更大时线性注意力更快）；{fitted}。",
                round_n(n)
            ),
            (None, Lang::En) => {
                let faster = if linear_faster {
                    "linear attention"
                } else {
                    "softmax attention"
                };
                format!(
                    "Crossover: the measured curves do not cross between n = {lo} and {hi} ({faster} is faster at every size); {fitted}."
                )
            }
            (None, Lang::Zh) => {
                let faster = if linear_faster {
                    "线性注意力"
                } else {
                    "softmax 注意力"
                };
                format!(
                    "交叉点：测得的曲线在 n = {lo} 与 {hi} 之间不相交（在每个规模上都是{faster}更快）；{fitted}。"
                )
            }
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
    match (fit, lang) {
        (Some(f), Lang::En) => format!("{label} slope {}", number::decimals(f.slope, 2)),
        (Some(f), Lang::Zh) => format!("{label} 斜率 {}", number::decimals(f.slope, 2)),
        (None, Lang::En) => format!("{label} (no fit yet)"),
        (None, Lang::Zh) => format!("{label}（尚未拟合）"),
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
            label: match lang {
                Lang::En => format!("crossover n ≈ {}", round_n(n)),
                Lang::Zh => format!("交叉点 n ≈ {}", round_n(n)),
            },
        }),
        (None, Some(n)) if n >= lo && n <= hi => Some(VerticalMarker {
            x: n,
            label: match lang {
                Lang::En => format!("fits cross n ≈ {}", round_n(n)),
                Lang::Zh => format!("拟合相交 n ≈ {}", round_n(n)),
            },
        }),
        _ => None,
    };
    let ticks: Vec<f64> = planned.iter().map(|&n| n as f64).collect();
    LineChart {
        title: lang
            .pick(
                "Time per attention call against sequence length (log–log)",
                "每次注意力调用的时间与序列长度（双对数）",
            )
            .into(),
        x: Axis {
            label: lang.pick("sequence length n", "序列长度 n").into(),
            scale: AxisScale::Log10,
            ticks: if ticks.is_empty() {
                Ticks::Auto
            } else {
                Ticks::At(ticks)
            },
        },
        y: Axis {
            label: lang.pick("ms per call", "每次调用的毫秒数").into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series,
        markers: marker.into_iter().collect(),
        note: Some(match lang {
            Lang::En => {
                format!("dashed: least-squares fit of log t on log n over n ≥ {FIT_FROM_N}")
            }
            Lang::Zh => format!("虚线：在 n ≥ {FIT_FROM_N} 上 log t 对 log n 的最小二乘拟合"),
        }),
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
