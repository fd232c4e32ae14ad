//! The power-law fit of the measured times and the crossover of the two curves.

use super::timing::FIT_FROM_N;

/// Least squares of `y` on `x`: `(slope, intercept)`, or `None` for fewer than two points,
/// equal `x`s or non-finite values.
pub fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    if points.len() < 2 || points.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return None;
    }
    let len = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / len;
    let my = points.iter().map(|p| p.1).sum::<f64>() / len;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= f64::EPSILON * len {
        return None;
    }
    let slope = sxy / sxx;
    Some((slope, my - slope * mx))
}

/// A power law `t = 10^intercept · n^slope`, fitted on log–log axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// The exponent: 2 for `t ∝ n²`.
    pub slope: f64,
    /// `log10 t` at `n = 1`.
    pub intercept: f64,
    /// The smallest `n` the fit used.
    pub from_n: usize,
    /// The largest `n` the fit used.
    pub to_n: usize,
    /// How many points it used.
    pub points: usize,
}

impl Fit {
    /// The fitted time at `n`.
    pub fn at(&self, n: f64) -> f64 {
        10f64.powf(self.intercept + self.slope * n.log10())
    }
}

/// Fits `t = c·n^slope` to `(n, ms)` points by least squares of `log10 t` on `log10 n`,
/// over the points with `n ≥` [`FIT_FROM_N`] (where the asymptotic term dominates); when
/// fewer than two such points exist, over the two largest. Points with a time that is not
/// positive and finite are left out. `None` with fewer than two usable points.
pub fn fit_power_law(points: &[(usize, f64)]) -> Option<Fit> {
    let mut usable: Vec<(usize, f64)> = points
        .iter()
        .copied()
        .filter(|&(n, t)| n > 0 && t.is_finite() && t > 0.0)
        .collect();
    usable.sort_by_key(|p| p.0);
    let upper: Vec<(usize, f64)> = usable
        .iter()
        .copied()
        .filter(|&(n, _)| n >= FIT_FROM_N)
        .collect();
    let used = if upper.len() >= 2 {
        upper
    } else {
        usable[usable.len().saturating_sub(2)..].to_vec()
    };
    let logs: Vec<(f64, f64)> = used
        .iter()
        .map(|&(n, t)| ((n as f64).log10(), t.log10()))
        .collect();
    let (slope, intercept) = least_squares(&logs)?;
    Some(Fit {
        slope,
        intercept,
        from_n: used.first()?.0,
        to_n: used.last()?.0,
        points: used.len(),
    })
}

/// Where the softmax and linear curves cross.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossover {
    /// Where the measured curves cross (the last change of which is faster, between two
    /// neighbouring sizes, interpolated on log–log axes); `None` if one kind is faster
    /// (or as fast) at every size.
    pub measured: Option<f64>,
    /// Where the fitted lines cross (possibly outside the measured sizes); `None` for
    /// parallel lines.
    pub fitted: Option<f64>,
}

/// The `n` where two measured curves cross: see [`Crossover::measured`]. `a` and `b` are
/// `(n, ms)` points; only sizes present in both count.
pub fn measured_crossover(a: &[(usize, f64)], b: &[(usize, f64)]) -> Option<f64> {
    let mut common: Vec<(f64, f64)> = a
        .iter()
        .filter(|p| p.1 > 0.0 && p.1.is_finite())
        .filter_map(|&(n, ta)| {
            let &(_, tb) = b
                .iter()
                .find(|p| p.0 == n && p.1 > 0.0 && p.1.is_finite())?;
            Some(((n as f64).log10(), ta.log10() - tb.log10()))
        })
        .collect();
    common.sort_by(|x, y| x.0.total_cmp(&y.0));
    common.windows(2).rev().find_map(|w| {
        let ((x0, d0), (x1, d1)) = (w[0], w[1]);
        if d0 == 0.0 && d1 == 0.0 {
            return None;
        }
        if d1 == 0.0 {
            return Some(10f64.powf(x1));
        }
        if (d0 < 0.0) != (d1 < 0.0) || d0 == 0.0 {
            // d is linear in log n between the two sizes: d0 + (d1 − d0)·s = 0.
            let s = d0 / (d0 - d1);
            return Some(10f64.powf(x0 + s * (x1 - x0)));
        }
        None
    })
}

/// The `n` where two fitted lines cross; `None` if they are (nearly) parallel.
pub fn fitted_crossover(a: &Fit, b: &Fit) -> Option<f64> {
    let ds = a.slope - b.slope;
    if ds.abs() < 1e-9 {
        return None;
    }
    let log_n = (b.intercept - a.intercept) / ds;
    let n = 10f64.powf(log_n);
    n.is_finite().then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complexity::*;
    use attnlab_i18n::Lang;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn a_square_law_has_slope_two_exactly() {
        let pts: Vec<(usize, f64)> = sizes(N_MAX)
            .into_iter()
            .map(|n| (n, 3e-6 * (n as f64).powi(2)))
            .collect();
        let f = fit_power_law(&pts).unwrap();
        assert!(close(f.slope, 2.0, 1e-12), "{f:?}");
        assert!(close(f.intercept, 3e-6f64.log10(), 1e-9), "{f:?}");
        assert_eq!((f.from_n, f.to_n, f.points), (512, 16_384, 6));
        assert!(close(f.at(1000.0), 3.0, 1e-9));
    }

    #[test]
    fn the_fit_ignores_the_flat_start() {
        // A fixed cost of 1 ms dominates the small sizes; above 512 t ∝ n.
        let pts: Vec<(usize, f64)> = sizes(N_MAX)
            .into_iter()
            .map(|n| (n, if n < 512 { 1.0 } else { n as f64 / 512.0 }))
            .collect();
        let f = fit_power_law(&pts).unwrap();
        assert!(close(f.slope, 1.0, 1e-12), "{f:?}");
    }

    #[test]
    fn short_runs_fit_the_two_largest_and_bad_values_are_left_out() {
        let pts = vec![(64, 1.0), (128, 4.0), (256, 16.0), (512, f64::NAN)];
        let f = fit_power_law(&pts).unwrap();
        assert_eq!((f.from_n, f.to_n, f.points), (128, 256, 2));
        assert!(close(f.slope, 2.0, 1e-12));
        assert_eq!(fit_power_law(&[(64, 1.0)]), None);
        assert_eq!(fit_power_law(&[(64, 1.0), (64, 2.0)]), None);
        assert_eq!(fit_power_law(&[(64, 0.0), (128, -1.0)]), None);
        assert_eq!(least_squares(&[(0.0, 0.0), (1.0, f64::INFINITY)]), None);
    }

    #[test]
    fn two_known_lines_cross_where_they_should() {
        // softmax t = n² / 10⁴, linear t = n / 10: equal at n = 1000.
        let soft: Vec<(usize, f64)> = sizes(N_MAX)
            .into_iter()
            .map(|n| (n, (n as f64).powi(2) / 1e4))
            .collect();
        let lin: Vec<(usize, f64)> = sizes(N_MAX)
            .into_iter()
            .map(|n| (n, n as f64 / 10.0))
            .collect();
        let (a, b) = (fit_power_law(&soft).unwrap(), fit_power_law(&lin).unwrap());
        assert!(close(fitted_crossover(&a, &b).unwrap(), 1000.0, 1e-6));
        // Measured: between 512 and 1024, and exact since both are lines in log–log.
        assert!(close(
            measured_crossover(&soft, &lin).unwrap(),
            1000.0,
            1e-6
        ));
        assert_eq!(fitted_crossover(&a, &a), None);
    }

    #[test]
    fn curves_that_do_not_cross_say_so() {
        let soft: Vec<(usize, f64)> = sizes(4096).into_iter().map(|n| (n, n as f64)).collect();
        let lin: Vec<(usize, f64)> = sizes(4096)
            .into_iter()
            .map(|n| (n, n as f64 / 100.0))
            .collect();
        assert_eq!(measured_crossover(&soft, &lin), None);
        let mut m = Measurements::default();
        for (kind, s) in [(Kind::Softmax, &soft), (Kind::LinearElu1, &lin)] {
            m.points
                .extend(s.iter().map(|&(n, ms)| Measurement { n, kind, ms }));
        }
        let text = m.crossover_text(Lang::En);
        assert!(
            text.contains("do not cross between n = 64 and 4096"),
            "{text}"
        );
        assert!(
            text.contains("linear attention is faster at every size"),
            "{text}"
        );
        assert!(text.contains("parallel"), "{text}");
        let zh = m.crossover_text(Lang::Zh);
        assert!(zh.contains("在每个规模上都是线性注意力更快"), "{zh}");
    }

    #[test]
    fn the_last_crossing_counts_and_is_interpolated_in_log_space() {
        // Noise at the small sizes crosses twice; the last crossing is between 256 and 512.
        let a = vec![(64, 1.0), (128, 2.0), (256, 1.0), (512, 4.0)];
        let b = vec![(64, 2.0), (128, 1.0), (256, 2.0), (512, 2.0)];
        // log ratio: −log 2 at 256, +log 2 at 512 → the middle in log n: √(256·512).
        let n = measured_crossover(&a, &b).unwrap();
        assert!(close(n, (256.0f64 * 512.0).sqrt(), 1e-9), "{n}");
    }
}
