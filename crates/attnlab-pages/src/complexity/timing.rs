//! The sizes, the workload, the timing policy and the worker's loop with its messages.

use attnlab_core::linear::{FeatureMap, global_attention};
use attnlab_core::rng;
use attnlab_core::streaming::{Causality, softmax_attention};
use attnlab_plot::RGBColor;
use ndarray::Array2;
use serde::{Deserialize, Serialize};

use attnlab_i18n::{Lang, msg};

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

    /// The label on the chart and in the table, in English (the lessons' answers name
    /// the curves by it).
    pub fn label(self) -> &'static str {
        self.label_in(Lang::En)
    }

    /// The label on the chart and in the table, in `lang`.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match self {
            Kind::Softmax => msg::complexity::COMPLEXITY_KIND_SOFTMAX,
            Kind::LinearElu1 => msg::complexity::COMPLEXITY_KIND_LINEAR,
        }
        .get(lang)
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
                global_attention(FeatureMap::Elu1, &self.q, &self.k, &self.v, &self.keys)
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
}
