//! Complexity, measured: how the time of one attention call grows with the sequence length
//! `n`, for softmax attention (streamed: online softmax over key blocks, O(n·d) memory,
//! O(n²·d) time) and linear attention with `φ = elu + 1` (O(n·d²) time).
//!
//! Everything here is plain Rust, shared by the browser's timing worker and the tests:
//!
//! - the sizes ([`sizes`]: powers of two from [`N_MIN`] to a chosen maximum ≤ [`N_MAX`]),
//! - the workload ([`Workload`]: seeded unit-normal Q, K, V from `attnlab_core::rng`) and
//!   one call of each [`Kind`],
//! - the timing policy ([`time_call`]: repeat a call until a batch lasts at least
//!   [`MIN_BATCH_MS`], take the median of a few batches; a call that alone lasts
//!   [`LONG_CALL_MS`] or more is timed once),
//! - the fit ([`fit_power_law`]: least squares of `log10 t` on `log10 n` over the points
//!   with `n ≥` [`FIT_FROM_N`]) and the crossover of the two curves ([`Crossover`]),
//! - the messages between the page and the worker ([`Request`], [`Report`]),
//! - the chart ([`chart`]).
//!
//! The timing itself takes a clock (`performance.now()` in a worker, `Instant` natively),
//! so the policy is tested with a fake one.

use attnlab_core::linear::{FeatureMap, kernel_global};
use attnlab_core::rng;
use attnlab_core::streaming::{Causality, softmax_attention};
use attnlab_plot::RGBColor;
use attnlab_plot::{Axis, AxisScale, LineChart, LineDash, Series, Ticks, VerticalMarker};
use ndarray::Array2;
use serde::{Deserialize, Serialize};

/// The smallest sequence length timed.
pub const N_MIN: usize = 64;
/// The largest sequence length a run may ask for.
pub const N_MAX: usize = 16_384;
/// The head width timed by default (as in the Transformer base model: 512 / 8 heads).
pub const D_DEFAULT: usize = 64;
/// The head widths a run may ask for.
pub const D_CHOICES: [usize; 4] = [16, 32, 64, 128];
/// The seed of the random Q, K, V.
pub const SEED: u64 = 2017;

/// The fit uses the points with `n` at least this. Below it, the fixed cost of a call
/// (allocating the output, the feature maps' set-up, the call itself) is a large part of
/// the time, so the curves are flatter than their asymptotic slope; from about 512 on,
/// the `n²` (softmax) and `n` (linear) terms dominate.
pub const FIT_FROM_N: usize = 512;

/// A batch of repeated calls is timed only once it lasts at least this many milliseconds
/// (the browser's clock is coarse: 0.1 ms or worse).
pub const MIN_BATCH_MS: f64 = 20.0;

/// A call that alone takes at least this long is timed once (its first run), so that the
/// largest sizes do not take minutes.
pub const LONG_CALL_MS: f64 = 500.0;

/// Batches whose median is the time (fewer for slow calls, see [`time_call`]).
pub const SAMPLES: usize = 5;

/// What is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `softmax(QKᵀ/√d) V`, streamed over key blocks (never an `n × n` buffer).
    Softmax,
    /// `φ(Q) (φ(K)ᵀ V) / (φ(Q) Σ φ(k_j))` with `φ = elu + 1`, never an `n × n` matrix.
    LinearElu1,
}

impl Kind {
    /// Both kinds, in the order they are timed and drawn.
    pub const ALL: [Kind; 2] = [Kind::Softmax, Kind::LinearElu1];

    /// The label on the chart and in the table.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Softmax => "softmax (streaming)",
            Kind::LinearElu1 => "linear elu1",
        }
    }

    /// A short name for markup (`data-kind`, test ids).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Softmax => "softmax",
            Kind::LinearElu1 => "linear",
        }
    }

    /// The slope the asymptotic cost predicts on log–log axes.
    pub fn expected_slope(self) -> f64 {
        match self {
            Kind::Softmax => 2.0,
            Kind::LinearElu1 => 1.0,
        }
    }

    /// The series colour (blue for softmax, orange for linear: distinguishable with
    /// every common colour-vision deficiency).
    pub fn color(self) -> RGBColor {
        match self {
            Kind::Softmax => RGBColor(31, 94, 168),
            Kind::LinearElu1 => RGBColor(214, 96, 0),
        }
    }
}

/// The sizes timed up to `max_n`: powers of two from [`N_MIN`] to the largest power of two
/// `≤ max_n` (clamped to [`N_MAX`]); at least `[N_MIN]`.
pub fn sizes(max_n: usize) -> Vec<usize> {
    let max_n = max_n.clamp(N_MIN, N_MAX);
    std::iter::successors(Some(N_MIN), |&n| Some(n * 2))
        .take_while(|&n| n <= max_n)
        .collect()
}

/// The maximum sizes a person may choose (each a power of two; the first allows a fit
/// over three points from [`FIT_FROM_N`]).
pub fn max_n_choices() -> Vec<usize> {
    sizes(N_MAX)
        .into_iter()
        .filter(|&n| n >= 4 * FIT_FROM_N)
        .collect()
}

/// Random unit-normal `Q`, `K`, `V` (`n × d`) and the buffers a call needs, made once per
/// size so that only the attention itself is timed.
#[derive(Debug, Clone)]
pub struct Workload {
    q: Array2<f32>,
    k: Array2<f32>,
    v: Array2<f32>,
    keys: Vec<bool>,
}

impl Workload {
    /// The workload of `n` tokens of width `d`, drawn from `seed`.
    pub fn new(n: usize, d: usize, seed: u64) -> Workload {
        let mut r = rng::stream(seed, "complexity", n as u64);
        Workload {
            q: rng::normal_matrix(&mut r, n, d, 1.0),
            k: rng::normal_matrix(&mut r, n, d, 1.0),
            v: rng::normal_matrix(&mut r, n, d, 1.0),
            keys: vec![true; n],
        }
    }

    /// The sequence length.
    pub fn n(&self) -> usize {
        self.q.nrows()
    }

    /// One attention call of `kind` (all `n` queries over all `n` keys); returns the
    /// output, `n × d`.
    pub fn run(&self, kind: Kind) -> Array2<f32> {
        match kind {
            Kind::Softmax => {
                let scale = 1.0 / (self.q.ncols().max(1) as f32).sqrt();
                softmax_attention(&self.q, &self.k, &self.v, scale, Causality::Full)
            }
            Kind::LinearElu1 => {
                let phi_q = FeatureMap::Elu1.features(&self.q);
                let phi_k = FeatureMap::Elu1.features(&self.k);
                kernel_global(&phi_q, &phi_k, &self.v, &self.keys)
            }
        }
    }
}

/// How one point was timed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// Milliseconds per call: the median over the batches.
    pub ms: f64,
    /// Calls per batch.
    pub reps: u32,
    /// Batches timed.
    pub samples: u32,
}

/// Times `call` with `clock` (milliseconds, monotonic) by the policy of this module:
///
/// 1. one call, timed: the warm-up. If it took at least [`LONG_CALL_MS`], that is the
///    time (one run: the largest sizes take seconds).
/// 2. Otherwise the calls per batch are chosen so that a batch lasts at least
///    [`MIN_BATCH_MS`] (estimated from the warm-up, then doubled until it holds).
/// 3. [`SAMPLES`] batches (3 if a call takes 100 ms or more) are timed; the time is the
///    median of their per-call times (robust to a pause of the machine).
pub fn time_call(clock: &mut impl FnMut() -> f64, call: &mut impl FnMut()) -> Timing {
    let mut batch = |reps: u32, clock: &mut dyn FnMut() -> f64| {
        let start = clock();
        for _ in 0..reps {
            call();
        }
        (clock() - start).max(0.0)
    };
    let first = batch(1, clock);
    if first >= LONG_CALL_MS {
        return Timing {
            ms: first,
            reps: 1,
            samples: 1,
        };
    }
    let mut reps = if first > 0.0 {
        (MIN_BATCH_MS / first).ceil().clamp(1.0, 1e6) as u32
    } else {
        1
    };
    let mut first_sample = batch(reps, clock);
    while first_sample < MIN_BATCH_MS && reps < 1 << 24 {
        reps *= 2;
        first_sample = batch(reps, clock);
    }
    let samples = if first_sample / f64::from(reps) >= 100.0 {
        3
    } else {
        SAMPLES
    };
    let mut per_call: Vec<f64> = vec![first_sample / f64::from(reps)];
    for _ in 1..samples {
        per_call.push(batch(reps, clock) / f64::from(reps));
    }
    per_call.sort_by(f64::total_cmp);
    Timing {
        ms: per_call[per_call.len() / 2],
        reps,
        samples: samples as u32,
    }
}

/// One measured point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The sequence length.
    pub n: usize,
    /// What was timed.
    pub kind: Kind,
    /// Milliseconds per call.
    pub ms: f64,
}

/// What the page asks the worker to time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The sequence lengths, in order.
    pub sizes: Vec<usize>,
    /// The head width.
    pub d: usize,
    /// The kinds timed at each size, in order.
    pub kinds: Vec<Kind>,
    /// The seed of the random Q, K, V.
    pub seed: u64,
}

impl Request {
    /// A run over [`sizes`]`(max_n)` of both kinds with head width `d`.
    pub fn new(max_n: usize, d: usize) -> Request {
        Request {
            sizes: sizes(max_n),
            d,
            kinds: Kind::ALL.to_vec(),
            seed: SEED,
        }
    }

    /// Why the worker must refuse this request, if it must (sizes out of
    /// [`N_MIN`]..=[`N_MAX`], a width not in [`D_CHOICES`], nothing to time).
    pub fn why_invalid(&self) -> Option<String> {
        if self.sizes.is_empty() || self.kinds.is_empty() {
            return Some("nothing to time: no sizes or no kinds".into());
        }
        if let Some(n) = self.sizes.iter().find(|n| !(N_MIN..=N_MAX).contains(*n)) {
            return Some(format!("n = {n} is outside {N_MIN}…{N_MAX}"));
        }
        if !D_CHOICES.contains(&self.d) {
            return Some(format!("d = {} is not one of {D_CHOICES:?}", self.d));
        }
        None
    }

    /// The request as the text posted to the worker.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a posted request.
    pub fn from_json(text: &str) -> Result<Request, String> {
        serde_json::from_str(text).map_err(|e| format!("unreadable request: {e}"))
    }

    /// How many points the run measures.
    pub fn total(&self) -> usize {
        self.sizes.len() * self.kinds.len()
    }
}

/// What the worker tells the page. Externally tagged (`{"progress": {…}}`): an
/// internally tagged enum is read through a buffer that cannot hold serde_json's
/// arbitrary-precision numbers, which the CLI enables in the same workspace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Report {
    /// The worker has loaded and listens: send the [`Request`] now.
    Ready,
    /// One more point is measured.
    Progress {
        /// Points measured so far, this one included.
        done: usize,
        /// Points the run will measure.
        total: usize,
        /// The point.
        point: Measurement,
    },
    /// Every point is measured.
    Finished {
        /// Points measured.
        total: usize,
    },
    /// The request was refused or could not be read.
    Failed {
        /// Why, as one sentence.
        message: String,
    },
}

impl Report {
    /// The report as the text posted between page and worker.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"failed":{"message":"unserialisable report"}}"#.into())
    }

    /// Reads a posted report.
    pub fn from_json(text: &str) -> Result<Report, String> {
        serde_json::from_str(text).map_err(|e| format!("unreadable message from the worker: {e}"))
    }
}

/// Runs `request`, calling `report` after every point (and once at the end), with
/// `clock` in milliseconds. The worker's whole loop; natively it is what the tests run.
pub fn run(request: &Request, clock: &mut impl FnMut() -> f64, report: &mut impl FnMut(Report)) {
    if let Some(why) = request.why_invalid() {
        report(Report::Failed { message: why });
        return;
    }
    let total = request.total();
    let mut done = 0;
    for &n in &request.sizes {
        let work = Workload::new(n, request.d, request.seed);
        for &kind in &request.kinds {
            let timing = time_call(clock, &mut || {
                std::hint::black_box(work.run(kind));
            });
            done += 1;
            report(Report::Progress {
                done,
                total,
                point: Measurement {
                    n,
                    kind,
                    ms: timing.ms,
                },
            });
        }
    }
    report(Report::Finished { total: done });
}

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

    /// The crossover in one sentence, for the panel.
    pub fn crossover_text(&self) -> String {
        let (soft, lin) = (self.series(Kind::Softmax), self.series(Kind::LinearElu1));
        if soft.len() < 2 || lin.len() < 2 {
            return "Crossover: needs at least two sizes of each kind.".into();
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
                format!("the fitted lines cross at n ≈ {}", round_n(n))
            }
            Some(n) => format!(
                "the fitted lines cross at n ≈ {}, outside the measured {lo}…{hi}",
                round_n(n)
            ),
            None => "the fitted lines are parallel".into(),
        };
        match c.measured {
            Some(n) => format!(
                "Crossover: the measured curves cross at n ≈ {} (linear attention is faster above); {fitted}.",
                round_n(n)
            ),
            None => {
                let faster = match (soft.last(), lin.last()) {
                    (Some(s), Some(l)) if s.1 > l.1 => "linear attention",
                    _ => "softmax attention",
                };
                format!(
                    "Crossover: the measured curves do not cross between n = {lo} and {hi} ({faster} is faster at every size); {fitted}."
                )
            }
        }
    }
}

/// `n` rounded to a readable number of significant digits (2 below 1000, 3 above).
fn round_n(n: f64) -> String {
    if !n.is_finite() {
        return "∞".into();
    }
    let digits = if n >= 1000.0 { 3 } else { 2 };
    let magnitude = 10f64.powi(n.abs().max(1.0).log10().floor() as i32 + 1 - digits);
    format!("{}", ((n / magnitude).round() * magnitude).round() as u64)
}

/// The legend label of a kind's fitted slope: `"softmax (streaming) slope 1.97"`.
pub fn slope_label(kind: Kind, fit: Option<&Fit>) -> String {
    match fit {
        Some(f) => format!("{} slope {:.2}", kind.label(), f.slope),
        None => format!("{} (no fit yet)", kind.label()),
    }
}

/// The log–log chart of `m`: each kind's measured points (solid, with markers) and its
/// fitted line (dashed, over the sizes the fit used), the slopes in the legend, the
/// crossover marked (the measured one, or the fitted one when it lies in the measured
/// range). `planned` are the sizes of the run, ticked on the `n` axis.
pub fn chart(m: &Measurements, planned: &[usize]) -> LineChart {
    let mut series = Vec::new();
    for kind in Kind::ALL {
        let points = m.series(kind);
        let fit = m.fit(kind);
        series.push(Series {
            name: Some(slope_label(kind, fit.as_ref())),
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
            label: format!("crossover n ≈ {}", round_n(n)),
        }),
        (None, Some(n)) if n >= lo && n <= hi => Some(VerticalMarker {
            x: n,
            label: format!("fits cross n ≈ {}", round_n(n)),
        }),
        _ => None,
    };
    let ticks: Vec<f64> = planned.iter().map(|&n| n as f64).collect();
    LineChart {
        title: "Time per attention call against sequence length (log–log)".into(),
        x: Axis {
            label: "sequence length n".into(),
            scale: AxisScale::Log10,
            ticks: if ticks.is_empty() {
                Ticks::Auto
            } else {
                Ticks::At(ticks)
            },
        },
        y: Axis {
            label: "ms per call".into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series,
        markers: marker.into_iter().collect(),
        note: Some(format!(
            "dashed: least-squares fit of log t on log n over n ≥ {FIT_FROM_N}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn sizes_are_powers_of_two_from_64() {
        assert_eq!(sizes(N_MAX).len(), 9);
        assert_eq!(sizes(N_MAX).first(), Some(&64));
        assert_eq!(sizes(N_MAX).last(), Some(&16_384));
        assert_eq!(sizes(4096), vec![64, 128, 256, 512, 1024, 2048, 4096]);
        assert_eq!(sizes(5000).last(), Some(&4096));
        assert_eq!(sizes(1), vec![64]);
        assert_eq!(sizes(usize::MAX).last(), Some(&N_MAX));
        assert_eq!(max_n_choices(), vec![2048, 4096, 8192, 16_384]);
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
        let text = m.crossover_text();
        assert!(
            text.contains("do not cross between n = 64 and 4096"),
            "{text}"
        );
        assert!(
            text.contains("linear attention is faster at every size"),
            "{text}"
        );
        assert!(text.contains("parallel"), "{text}");
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

    /// A fake clock that the fake call advances by `cost` ms each time.
    fn fake_timing(cost: f64) -> (Timing, u32) {
        let now = std::rc::Rc::new(std::cell::Cell::new(0.0f64));
        let calls = std::rc::Rc::new(std::cell::Cell::new(0u32));
        let (clock_now, call_now, counted) = (now.clone(), now, calls.clone());
        let t = time_call(&mut || clock_now.get(), &mut || {
            counted.set(counted.get() + 1);
            call_now.set(call_now.get() + cost);
        });
        (t, calls.get())
    }

    #[test]
    fn the_timing_policy_batches_short_calls_and_times_long_ones_once() {
        let (t, calls) = fake_timing(0.3);
        assert!(close(t.ms, 0.3, 1e-9), "{t:?}");
        assert!(f64::from(t.reps) * 0.3 >= MIN_BATCH_MS, "{t:?}");
        assert_eq!(t.samples, SAMPLES as u32);
        assert_eq!(calls, 1 + t.reps * t.samples);

        let (t, calls) = fake_timing(150.0);
        assert_eq!((t.reps, t.samples, calls), (1, 3, 4), "{t:?}");
        assert!(close(t.ms, 150.0, 1e-9));

        let (t, calls) = fake_timing(2000.0);
        assert_eq!((t.reps, t.samples, calls), (1, 1, 1), "{t:?}");
        assert!(close(t.ms, 2000.0, 1e-9));
    }

    #[test]
    fn a_run_reports_every_point_then_finishes_and_bad_requests_fail() {
        let request = Request {
            sizes: vec![64, 128],
            d: 16,
            kinds: Kind::ALL.to_vec(),
            seed: 1,
        };
        let start = std::time::Instant::now();
        let mut reports = Vec::new();
        run(
            &request,
            &mut || start.elapsed().as_secs_f64() * 1e3,
            &mut |r| reports.push(r),
        );
        assert_eq!(reports.len(), 5);
        for (i, r) in reports[..4].iter().enumerate() {
            match r {
                Report::Progress { done, total, point } => {
                    assert_eq!((*done, *total), (i + 1, 4));
                    assert_eq!(point.n, [64, 64, 128, 128][i]);
                    assert_eq!(point.kind, Kind::ALL[i % 2]);
                    assert!(point.ms > 0.0 && point.ms.is_finite(), "{point:?}");
                }
                other => panic!("expected progress, got {other:?}"),
            }
        }
        assert_eq!(reports[4], Report::Finished { total: 4 });
        // Round trip through the posted text (serde_json's parser may be one ulp off).
        for r in &reports {
            let back = Report::from_json(&r.to_json()).unwrap();
            match (&back, r) {
                (
                    Report::Progress { done, total, point },
                    Report::Progress {
                        done: d0,
                        total: t0,
                        point: p0,
                    },
                ) => {
                    assert_eq!((done, total, point.n, point.kind), (d0, t0, p0.n, p0.kind));
                    assert!(close(point.ms, p0.ms, 1e-12 * p0.ms), "{point:?} vs {p0:?}");
                }
                _ => assert_eq!(&back, r),
            }
        }

        for bad in [
            Request {
                sizes: vec![32],
                ..request.clone()
            },
            Request {
                sizes: vec![32_768],
                ..request.clone()
            },
            Request {
                d: 7,
                ..request.clone()
            },
            Request {
                kinds: vec![],
                ..request.clone()
            },
        ] {
            let mut got = Vec::new();
            run(&bad, &mut || 0.0, &mut |r| got.push(r));
            assert!(matches!(got.as_slice(), [Report::Failed { .. }]), "{got:?}");
        }
        assert!(Report::from_json("{").is_err());
        assert!(Request::from_json("[]").is_err());
        assert_eq!(Request::from_json(&request.to_json()).unwrap(), request);
    }

    #[test]
    fn both_kinds_compute_attention_without_an_n_by_n_matrix() {
        // The outputs agree with the dense formulas on a small case.
        let w = Workload::new(64, 16, 5);
        let soft = w.run(Kind::Softmax);
        let scores = w.q.dot(&w.k.t()) / 4.0;
        let dense = attnlab_core::linear::softmax_rows(&scores).dot(&w.v);
        for (a, b) in soft.iter().zip(&dense) {
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
        let lin = w.run(Kind::LinearElu1);
        assert_eq!(lin.dim(), (64, 16));
        assert!(lin.iter().all(|x| x.is_finite()));
        // The largest size runs natively in well under a second per kind for linear
        // attention, and softmax's streaming buffers stay fixed in size.
        let big = Workload::new(N_MAX, 8, 5);
        assert_eq!(big.run(Kind::LinearElu1).dim(), (N_MAX, 8));
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
        let c = chart(&m, &sizes(N_MAX));
        let names: Vec<&str> = c.series.iter().filter_map(|s| s.name.as_deref()).collect();
        assert_eq!(
            names,
            ["softmax (streaming) slope 2.00", "linear elu1 slope 1.00"]
        );
        assert_eq!(c.series.len(), 4);
        assert_eq!(c.markers.len(), 1);
        assert!(close(c.markers[0].x, 1000.0, 1e-6));
        assert_eq!(c.markers[0].label, "crossover n ≈ 1000");
        let rows = m.rows();
        assert_eq!(rows.len(), 9);
        assert!(close(rows[0].ratio().unwrap(), 0.4096 / 6.4, 1e-9));
        assert!(
            m.crossover_text()
                .contains("measured curves cross at n ≈ 1000")
        );
    }
}
