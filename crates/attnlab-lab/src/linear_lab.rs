//! The linear-attention lab (docs/maths.md §7, §8): for one head's Q, K, V, softmax
//! attention against a kernel variant's implied matrix, the singular values of both
//! un-normalised similarity matrices, causal kernel attention run as an RNN step by step
//! beside the masked parallel form, and Linformer's projections.
//!
//! Every number comes from the core (`attnlab_core::linear`, `attnlab_core::metrics`):
//! this module picks the inputs, runs the core's steps and shapes the results for the
//! page and its figures.
//!
//! ```
//! use attnlab_core::attention::AttentionKind;
//! use attnlab_lab::linear_lab::{kernel_comparison, rnn_trace};
//! use attnlab_lab::{LabState, Pipeline};
//!
//! let state = LabState::default();
//! let run = Pipeline::new(&state);
//! let problem = run.variant(0)?.problem;
//! let cmp = kernel_comparison(&problem, 0, AttentionKind::Elu1)?;
//! assert!(cmp.metrics.max_abs > 0.0);
//! let spectra = cmp.spectra.as_ref().unwrap();
//! assert!(spectra.linear_rank <= cmp.phi_width);
//!
//! // The RNN form agrees with the masked parallel form at every step.
//! let trace = rnn_trace(&problem, 0, AttentionKind::Elu1)?;
//! assert!((0..trace.len()).all(|t| trace.step(t).unwrap().max_abs_diff < 1e-5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, HeadResult, Problem};
use attnlab_core::linear::{self, FeatureMap, RecurrentState};
use attnlab_core::mask::{Mask, MaskSpec};
use attnlab_core::metrics::{self, Comparison};
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{
    Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series, Ticks,
    VerticalMarker,
};
use ndarray::Array2;

use crate::compute::explain;
use crate::state::ModelSettings;

/// The kernel kinds the lab compares with softmax.
pub const KERNEL_KINDS: [AttentionKind; 3] = [
    AttentionKind::Elu1,
    AttentionKind::Relu,
    AttentionKind::Taylor,
];

/// A singular value counts towards the numerical rank when it is above this fraction of
/// the largest one. The matrices are computed in `f32` (relative rounding ≈ 6·10⁻⁸ per
/// entry), so the rounding residue of a rank-deficient matrix stays orders of magnitude
/// below it.
pub const RANK_TOLERANCE: f32 = 1e-5;

/// The largest `min(n, m)` whose singular values are computed (one-sided Jacobi costs
/// O(n³) per sweep, which would freeze the page for long sentences).
pub const MAX_SPECTRUM_TOKENS: usize = 160;

/// Why the linear-attention lab cannot show something.
#[derive(Debug, Clone, PartialEq)]
pub enum LinearLabError {
    /// The core refused the input.
    Core(CoreError),
    /// The kind given is not a kernel kind (elu1, relu, taylor).
    NotKernel(AttentionKind),
    /// The RNN form needs one sequence: queries and keys the same tokens.
    NotOneSequence {
        /// Queries.
        n: usize,
        /// Keys.
        m: usize,
    },
    /// There are no tokens.
    Empty,
}

impl From<CoreError> for LinearLabError {
    fn from(e: CoreError) -> Self {
        LinearLabError::Core(e)
    }
}

impl From<HeatmapError> for LinearLabError {
    fn from(e: HeatmapError) -> Self {
        LinearLabError::Core(CoreError::InvalidSetting {
            field: "figure",
            reason: e.to_string(),
        })
    }
}

impl LinearLabError {
    /// One sentence for a student.
    pub fn sentence(&self) -> String {
        match self {
            LinearLabError::Core(e) => explain(e),
            LinearLabError::NotKernel(kind) => format!(
                "{} is not a kernel (feature-map) variant: choose elu1, relu or taylor.",
                kind.name()
            ),
            LinearLabError::NotOneSequence { n, m } => format!(
                "The RNN form runs over one sequence, but this is cross-attention: {n} target \
                 tokens read {m} source tokens that are all known from the start, so there is \
                 nothing to recur over. Switch to self-attention to step through it."
            ),
            LinearLabError::Empty => "There are no tokens: type a sentence.".to_string(),
        }
    }
}

impl std::fmt::Display for LinearLabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sentence())
    }
}

impl std::error::Error for LinearLabError {}

/// The kernel kind the lab starts with for a variant: its own kind if it is a kernel
/// kind, else elu1.
pub fn default_kernel(variant: AttentionKind) -> AttentionKind {
    if variant.feature_map().is_some() {
        variant
    } else {
        AttentionKind::Elu1
    }
}

/// Whether `kind` can be made causal, and how or why not, as one sentence.
pub fn causality(kind: AttentionKind) -> String {
    match kind {
        AttentionKind::Softmax => {
            "softmax: can be made causal: the mask sets the logits of later keys \
                                   to −∞ before the softmax (at O(n²) cost)."
                .to_string()
        }
        AttentionKind::Elu1 | AttentionKind::Relu | AttentionKind::Taylor => format!(
            "{}: can be made causal and stays O(n): query t reads only the running sums \
             S_t = Σ_(j≤t) φ(k_j) v_jᵀ and z_t = Σ_(j≤t) φ(k_j), an RNN (stepped through below).",
            kind.name()
        ),
        AttentionKind::Efficient => format!(
            "efficient: cannot be made causal: {}; the softmax of K runs over the sequence axis, \
             so every key's weights depend on later keys.",
            kind.mask_limitation()
        ),
        AttentionKind::Linformer => format!(
            "linformer: cannot be made causal: {}; each projected key E K is a mix of every \
             position, including later ones.",
            kind.mask_limitation()
        ),
    }
}

fn head_input(problem: &Problem, head: usize) -> Result<&HeadInput, LinearLabError> {
    problem.heads().get(head).ok_or_else(|| {
        LinearLabError::Core(CoreError::IndexOutOfRange {
            field: "head",
            index: head,
            len: problem.heads().len(),
        })
    })
}

fn feature_map(kind: AttentionKind) -> Result<FeatureMap, LinearLabError> {
    kind.feature_map().ok_or(LinearLabError::NotKernel(kind))
}

/// One head of `kind` on the head's Q, K, V with `mask`, computed by the core.
fn run(
    input: &HeadInput,
    kind: AttentionKind,
    mask: MaskSpec,
    temperature: f32,
) -> Result<HeadResult, CoreError> {
    let spec = AttentionSpec {
        score: ScoreFunction::ScaledDot,
        temperature,
        attention: kind,
        mask,
    };
    let mut head = HeadInput::new(input.q.clone(), input.k.clone(), input.v.clone());
    head.linformer = input.linformer.clone();
    Problem::new(vec![head], spec, None)?.compute_head(0)
}

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
    /// The sentence on ranks, e.g. "φ(Q)φ(K)ᵀ has rank 11 ≤ φ width 16; exp(QKᵀ/√d_k)
    /// has rank 11 of 11".
    pub fn rank_statement(&self) -> String {
        let Some(s) = &self.spectra else {
            return format!(
                "Singular values are computed for up to {MAX_SPECTRUM_TOKENS} tokens; this text \
                 has more."
            );
        };
        let full = s.softmax.len();
        let mut text = format!(
            "Linear attention: φ(Q)φ(K)ᵀ = (n×{w})·({w}×m), so its rank is at most the φ width \
             {w}; here it is {lr}. Softmax: exp(QKᵀ/√d_k) is not a product of thin matrices, and \
             its rank is {sr} of {full}{tail}.",
            w = self.phi_width,
            lr = s.linear_rank,
            sr = s.softmax_rank,
            tail = if s.softmax_rank == full {
                " (full rank)"
            } else {
                ""
            },
        );
        if full <= self.phi_width {
            text.push_str(&format!(
                " With {full} tokens and φ width {w} the bound does not bite yet: type more than \
                 {w} tokens to see the linear rank stop at {w}.",
                w = self.phi_width
            ));
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
        let s_soft =
            metrics::singular_values(&metrics::unnormalised_similarity(&softmax, &soft_spec));
        let s_lin = metrics::singular_values(&metrics::unnormalised_similarity(&linear, &lin_spec));
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

/// One step `t` of causal kernel attention as an RNN.
#[derive(Debug, Clone, PartialEq)]
pub struct RnnStep {
    /// The position.
    pub t: usize,
    /// Whether key `t` was absorbed (padding keys are skipped).
    pub absorbed: bool,
    /// `φ(k_t)`.
    pub phi_k: Vec<f32>,
    /// `φ(q_t)`.
    pub phi_q: Vec<f32>,
    /// `S_t = Σ_(j≤t) φ(k_j) v_jᵀ`, `d_φ × d_v`.
    pub s: Array2<f32>,
    /// `z_t = Σ_(j≤t) φ(k_j)`.
    pub z: Vec<f32>,
    /// `o_t = φ(q_t)ᵀ S_t / (φ(q_t)ᵀ z_t + ε)`, read from the state.
    pub output: Vec<f32>,
    /// Row `t` of `Â V` with the causal mask: the parallel (quadratic) form.
    pub parallel: Vec<f32>,
    /// `max |o_t − parallel_t|`.
    pub max_abs_diff: f32,
}

/// Causal kernel attention stepped through, with the parallel form it must equal.
///
/// The states are not stored (`S_t` is `d_φ × d_v` per step, which for wide heads and
/// long texts would not fit in memory): [`RnnTrace::step`] runs the recurrence again up
/// to the step asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct RnnTrace {
    /// The kernel kind.
    pub kind: AttentionKind,
    /// The causal (and padding) mask of the parallel form.
    pub mask: Mask,
    /// The parallel form's implied matrix `Â` under that mask.
    pub implied: Array2<f32>,
    /// `Â V`: the parallel form's outputs, one row per step.
    pub parallel: Array2<f32>,
    /// `max |o_t − (ÂV)_t|` for every step `t`.
    pub diffs: Vec<f32>,
    phi_q: Array2<f32>,
    phi_k: Array2<f32>,
    v: Array2<f32>,
    key_allowed: Vec<bool>,
}

impl RnnTrace {
    /// The number of steps (tokens).
    pub fn len(&self) -> usize {
        self.diffs.len()
    }

    /// Whether there is no step.
    pub fn is_empty(&self) -> bool {
        self.diffs.is_empty()
    }

    /// The largest `max |o_t − (ÂV)_t|` over all steps.
    pub fn max_abs_diff(&self) -> f32 {
        self.diffs.iter().fold(0.0, |a, &d| a.max(d))
    }

    /// Runs the recurrence over steps `0..=last`, calling `visit` after each read.
    fn run(&self, last: usize, mut visit: impl FnMut(usize, &RecurrentState, &[f32])) {
        let mut state = RecurrentState::new(self.phi_k.ncols(), self.v.ncols());
        let mut output = vec![0.0; self.v.ncols()];
        for t in 0..=last.min(self.len().saturating_sub(1)) {
            if self.key_allowed[t] {
                let pk: Vec<f32> = self.phi_k.row(t).to_vec();
                let vt: Vec<f32> = self.v.row(t).to_vec();
                state.absorb(&pk, &vt);
            }
            let pq: Vec<f32> = self.phi_q.row(t).to_vec();
            state.read(&pq, &mut output);
            visit(t, &state, &output);
        }
    }

    /// Step `t`: the state after absorbing keys `0..=t`, the output read from it and row
    /// `t` of the parallel form (`None` past the last step).
    pub fn step(&self, t: usize) -> Option<RnnStep> {
        if t >= self.len() {
            return None;
        }
        let mut step = None;
        self.run(t, |i, state, output| {
            if i == t {
                let parallel = self.parallel.row(t).to_vec();
                step = Some(RnnStep {
                    t,
                    absorbed: self.key_allowed[t],
                    phi_k: self.phi_k.row(t).to_vec(),
                    phi_q: self.phi_q.row(t).to_vec(),
                    s: state.s.clone(),
                    z: state.z.to_vec(),
                    max_abs_diff: max_abs_diff(output, &parallel),
                    output: output.to_vec(),
                    parallel,
                });
            }
        });
        step
    }
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).fold(0f32, |m, (x, y)| m.max((x - y).abs()))
}

/// Causal kernel attention of kind `kind` on head `head` of a self-attention problem,
/// run as an RNN with the core's [`RecurrentState`] (absorb `φ(k_t), v_t`, then read
/// with `φ(q_t)`), beside the masked quadratic form `Â V` (causal mask and the problem's
/// padding; other masks are not part of the recurrence).
pub fn rnn_trace(
    problem: &Problem,
    head: usize,
    kind: AttentionKind,
) -> Result<RnnTrace, LinearLabError> {
    let map = feature_map(kind)?;
    let input = head_input(problem, head)?;
    let (n, m) = (input.q.nrows(), input.k.nrows());
    if n != m {
        return Err(LinearLabError::NotOneSequence { n, m });
    }
    if n == 0 {
        return Err(LinearLabError::Empty);
    }
    let spec = MaskSpec {
        causal: true,
        padding_keys: problem.spec().mask.padding_keys.clone(),
        ..MaskSpec::default()
    };
    spec.validate(n, m)?;
    let mask = spec.build(n, m);
    let key_allowed = spec.key_allowed(m);
    let phi_q = map.features(&input.q);
    let phi_k = map.features(&input.k);
    let v = input.v.as_standard_layout().into_owned();
    let sim = linear::kernel_similarity(&phi_q, &phi_k, &mask);
    let implied = linear::implied_from_similarity(&sim);
    let parallel = linear::weights_times_values(&implied, &v);
    if parallel.iter().any(|x| !x.is_finite()) {
        return Err(CoreError::Overflow {
            head,
            what: "similarities φ(q)ᵀφ(k)",
        }
        .into());
    }
    let mut trace = RnnTrace {
        kind,
        mask,
        implied,
        parallel,
        diffs: vec![0.0; n],
        phi_q,
        phi_k,
        v,
        key_allowed,
    };
    let mut diffs = vec![0.0; n];
    trace.run(n - 1, |t, _, output| {
        diffs[t] = max_abs_diff(output, &trace.parallel.row(t).to_vec());
    });
    trace.diffs = diffs;
    Ok(trace)
}

/// Linformer on one head: the projections and the `n × k` attention.
#[derive(Debug, Clone, PartialEq)]
pub struct LinformerView {
    /// The number of projected keys.
    pub k: usize,
    /// `E ∈ R^{k×m}`: `K' = E K`.
    pub e: Array2<f32>,
    /// `F ∈ R^{k×m}`: `V' = F V`.
    pub f: Array2<f32>,
    /// `softmax(Q (E K)ᵀ / √d_k)`, `n × k`.
    pub weights: Array2<f32>,
}

/// Linformer with `k` projected keys on head `head` of `problem`, with the model's
/// seeded `E, F` (the lab's own Linformer variants use the same). The temperature is
/// the variant's if it is a Linformer variant, else 1.
pub fn linformer_view(
    model: &ModelSettings,
    problem: &Problem,
    head: usize,
    k: usize,
) -> Result<LinformerView, LinearLabError> {
    let input = head_input(problem, head)?;
    let m = input.k.nrows();
    if input.q.nrows() == 0 || m == 0 {
        return Err(LinearLabError::Empty);
    }
    let params = model.config().linformer_params(k, m, head);
    let mut with = HeadInput::new(input.q.clone(), input.k.clone(), input.v.clone());
    with.linformer = Some(params.clone());
    let temperature = if problem.spec().attention == AttentionKind::Linformer {
        problem.spec().temperature
    } else {
        1.0
    };
    let r = run(
        &with,
        AttentionKind::Linformer,
        MaskSpec::default(),
        temperature,
    )?;
    Ok(LinformerView {
        k,
        e: params.e,
        f: params.f,
        weights: r.weights,
    })
}

fn labels(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

fn values(a: &Array2<f32>) -> Vec<f32> {
    a.iter().copied().collect()
}

/// A signed matrix on a diverging scale (white = 0).
fn signed(
    title: impl Into<String>,
    rows: Vec<String>,
    cols: Vec<String>,
    a: &Array2<f32>,
    value: &str,
    axes: (&str, &str),
) -> Result<Heatmap, HeatmapError> {
    Ok(Heatmap::difference(title, rows, cols, values(a))?
        .with_value_label(value)
        .with_axis_titles(axes.0, axes.1))
}

/// The figures of a [`KernelComparison`]: softmax, the implied matrix and `Â − A`.
pub fn comparison_figures(
    cmp: &KernelComparison,
    rows: &[String],
    cols: &[String],
) -> Result<[Heatmap; 3], HeatmapError> {
    let soft = crate::figure::head_heatmap(
        "Softmax: softmax(QK\u{1d40}/\u{221a}d_k)",
        rows,
        cols,
        &cmp.softmax,
    )?;
    let lin = crate::figure::head_heatmap(
        format!("{}: implied matrix \u{c2}", cmp.kind.name()),
        rows,
        cols,
        &cmp.linear,
    )?;
    let diff =
        Heatmap::difference_of(format!("{} \u{2212} softmax", cmp.kind.name()), &lin, &soft)?;
    Ok([soft, lin, diff])
}

/// The figures of one RNN step: `S_t` (`d_φ × d_v`) and the strips `z_t`, `o_t` and
/// row `t` of the parallel form (one row each).
pub fn step_figures(step: &RnnStep) -> Result<[Heatmap; 4], HeatmapError> {
    let (dp, dv) = step.s.dim();
    let t = step.t;
    let s = signed(
        format!("S_{t} = \u{3a3}_(j\u{2264}{t}) \u{3c6}(k_j) v_j\u{1d40}"),
        labels("", dp),
        labels("", dv),
        &step.s,
        "S entry",
        ("\u{3c6} feature", "value dimension"),
    )?;
    let strip = |title: String, row: &str, v: &[f32], col: &str, value: &str| {
        let a = Array2::from_shape_vec((1, v.len()), v.to_vec()).expect("one row");
        signed(
            title,
            vec![row.to_string()],
            labels("", v.len()),
            &a,
            value,
            ("vector", col),
        )
    };
    let z = strip(
        format!("z_{t} = \u{3a3}_(j\u{2264}{t}) \u{3c6}(k_j)"),
        &format!("z_{t}"),
        &step.z,
        "\u{3c6} feature",
        "z entry",
    )?;
    let o = strip(
        format!("o_{t}: read from the state"),
        &format!("o_{t}"),
        &step.output,
        "value dimension",
        "output",
    )?;
    let p = strip(
        format!("row {t} of \u{c2}V: the masked parallel form"),
        &format!("(\u{c2}V)_{t}"),
        &step.parallel,
        "value dimension",
        "output",
    )?;
    Ok([s, z, o, p])
}

/// The figures of a [`LinformerView`]: `Eᵀ` and `Fᵀ` (keys × projected rows) and the
/// `n × k` attention.
pub fn linformer_figures(
    view: &LinformerView,
    rows: &[String],
    keys: &[String],
) -> Result<[Heatmap; 3], HeatmapError> {
    let k = view.k;
    let proj = labels("k'", k);
    let e = signed(
        format!("E\u{1d40}: keys into {k} projected keys"),
        keys.to_vec(),
        proj.clone(),
        &view.e.t().to_owned(),
        "E entry",
        ("keys", "projected keys"),
    )?;
    let f = signed(
        format!("F\u{1d40}: values into {k} projected values"),
        keys.to_vec(),
        proj.clone(),
        &view.f.t().to_owned(),
        "F entry",
        ("keys", "projected values"),
    )?;
    let a = Heatmap::weights(
        format!("softmax(Q(EK)\u{1d40}/\u{221a}d_k): n\u{d7}{k}"),
        rows.to_vec(),
        proj,
        values(&view.weights),
    )?
    .with_axis_titles("queries", "projected keys");
    Ok([e, f, a])
}

/// The colour of softmax in the singular-value chart (the app's accent blue).
pub const SOFTMAX_COLOUR: RGBColor = RGBColor(34, 94, 168);
/// The colour of the kernel variant in the singular-value chart.
pub const LINEAR_COLOUR: RGBColor = RGBColor(181, 65, 14);
/// The colour of the rank threshold in the singular-value chart.
pub const THRESHOLD_COLOUR: RGBColor = RGBColor(110, 110, 120);

/// The singular values of both similarity matrices, each divided by its largest, against
/// their index on a log10 axis; the φ width as a vertical line and the rank threshold
/// ([`RANK_TOLERANCE`]) as a dashed line. `None` without spectra.
pub fn spectrum_chart(cmp: &KernelComparison) -> Option<LineChart> {
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
        title: format!(
            "Singular values of exp(QK\u{1d40}/\u{221a}d_k) and of \u{3c6}(Q)\u{3c6}(K)\u{1d40} ({kind})"
        ),
        x: Axis {
            label: "index i (largest first)".into(),
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
                name: Some(format!("rank threshold {RANK_TOLERANCE:e}")),
                points: vec![
                    (1.0, f64::from(RANK_TOLERANCE)),
                    (count, f64::from(RANK_TOLERANCE)),
                ],
                color: THRESHOLD_COLOUR,
                dash: LineDash::Dashed,
                markers: false,
            },
            Series {
                name: Some(format!("softmax: rank {}", s.softmax_rank)),
                points: relative(&s.softmax),
                color: SOFTMAX_COLOUR,
                dash: LineDash::Solid,
                markers: true,
            },
            Series {
                name: Some(format!("{kind}: rank {}", s.linear_rank)),
                points: relative(&s.linear),
                color: LINEAR_COLOUR,
                dash: LineDash::Solid,
                markers: true,
            },
        ],
        markers: vec![VerticalMarker {
            x: cmp.phi_width as f64,
            label: format!("\u{3c6} width {}", cmp.phi_width),
        }],
        note: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::Pipeline;
    use crate::state::{LabState, Mode};

    fn problem_of(state: &LabState, index: usize) -> Problem {
        Pipeline::new(state).variant(index).unwrap().problem
    }

    fn long_state() -> LabState {
        LabState {
            text: "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi \
                   omicron pi rho sigma tau upsilon phi chi psi omega zero"
                .into(),
            ..LabState::default()
        }
    }

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
            assert!(c.rank_statement().contains("does not bite yet"));
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
        let [_, _, diff] = comparison_figures(&c, &labels, &labels).unwrap();
        assert!(diff.is_blocked(0, 1) && !diff.is_blocked(1, 0));
    }

    #[test]
    fn the_rnn_equals_the_parallel_form_at_every_step() {
        let mut state = long_state();
        state.model.pad_to = Some(28);
        state.variants[0].masks.padding = true;
        let p = problem_of(&state, 0);
        for kind in KERNEL_KINDS {
            let trace = rnn_trace(&p, 2, kind).unwrap();
            assert_eq!(trace.len(), 28);
            assert!(
                trace.max_abs_diff() < 1e-5,
                "{kind:?}: {}",
                trace.max_abs_diff()
            );
            let steps: Vec<RnnStep> = (0..28).map(|t| trace.step(t).unwrap()).collect();
            assert!(trace.step(28).is_none());
            for s in &steps {
                assert_eq!(s.max_abs_diff, trace.diffs[s.t]);
            }
            assert!(!steps[26].absorbed && steps[24].absorbed);
            assert_eq!(steps[26].s, steps[24].s, "padding is not absorbed");
            let last = steps.last().unwrap();
            assert_eq!(last.s.dim(), (kind.feature_map().unwrap().width(16), 16));
            // z_t is the sum of the absorbed φ(k_j).
            let z0: f32 = steps[0].z.iter().sum();
            let k0: f32 = steps[0].phi_k.iter().sum();
            assert!((z0 - k0).abs() < 1e-5);
            let [s, z, o, par] = step_figures(last).unwrap();
            assert_eq!(
                (s.n_rows(), z.n_rows(), o.n_cols(), par.n_cols()),
                (last.s.nrows(), 1, 16, 16)
            );
        }
        assert!(matches!(
            rnn_trace(&p, 0, AttentionKind::Efficient),
            Err(LinearLabError::NotKernel(_))
        ));
    }

    #[test]
    fn rnn_by_hand_on_one_token() {
        let state = LabState {
            text: "cat".into(),
            ..LabState::default()
        };
        let p = problem_of(&state, 0);
        let trace = rnn_trace(&p, 0, AttentionKind::Elu1).unwrap();
        assert_eq!(trace.len(), 1);
        // One key: o_0 = φ(q)ᵀφ(k) v / (φ(q)ᵀφ(k) + ε) ≈ v_0.
        let v0 = p.heads()[0].v.row(0).to_vec();
        for (o, v) in trace.step(0).unwrap().output.iter().zip(&v0) {
            assert!((o - v).abs() < 1e-5);
        }
        let c = kernel_comparison(&p, 0, AttentionKind::Elu1).unwrap();
        assert_eq!(c.metrics.max_abs, 0.0, "one key: both weights are 1");
        assert_eq!(c.spectra.unwrap().linear_rank, 1);
    }

    #[test]
    fn cross_attention_compares_but_does_not_recur() {
        let mut state = LabState::default();
        state.set_mode(Mode::Cross);
        let p = problem_of(&state, 0);
        let c = kernel_comparison(&p, 0, AttentionKind::Taylor).unwrap();
        assert_eq!(c.linear.weights.dim(), (4, 6));
        let e = rnn_trace(&p, 0, AttentionKind::Taylor).unwrap_err();
        assert!(e.sentence().contains("cross-attention"));
        let l = linformer_view(&state.model, &p, 0, 3).unwrap();
        assert_eq!((l.e.dim(), l.weights.dim()), ((3, 6), (4, 3)));
    }

    #[test]
    fn linformer_matches_the_labs_linformer_variant() {
        let mut state = LabState::default();
        state.variants[1].attention = AttentionKind::Linformer;
        state.variants[1].linformer_k = 5;
        let run = Pipeline::new(&state);
        let b = run.variant(1).unwrap();
        let view = linformer_view(&state.model, &b.problem, 1, 5).unwrap();
        assert_eq!(view.weights, b.heads[1].weights);
        let labels = run.queries().labels();
        let [e, f, a] = linformer_figures(&view, &labels, &labels).unwrap();
        assert_eq!((e.n_rows(), e.n_cols()), (11, 5));
        assert_eq!((f.n_rows(), f.n_cols()), (11, 5));
        assert_eq!((a.n_rows(), a.n_cols()), (11, 5));
        for r in view.weights.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn the_spectrum_chart_has_both_curves_and_the_bound() {
        let p = problem_of(&long_state(), 0);
        let c = kernel_comparison(&p, 0, AttentionKind::Relu).unwrap();
        let chart = spectrum_chart(&c).unwrap();
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

    #[test]
    fn causality_statements() {
        assert!(causality(AttentionKind::Linformer).contains("cannot be made causal"));
        assert!(causality(AttentionKind::Linformer).contains("k projected keys"));
        assert!(causality(AttentionKind::Efficient).contains("cannot be made causal"));
        assert!(causality(AttentionKind::Elu1).contains("can be made causal and stays O(n)"));
        assert_eq!(default_kernel(AttentionKind::Softmax), AttentionKind::Elu1);
        assert_eq!(default_kernel(AttentionKind::Taylor), AttentionKind::Taylor);
    }
}
