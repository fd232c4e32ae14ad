//! Decayed linear attention (docs/maths.md §7c; RetNet, GLA, Mamba-2's SSD) in the RNN
//! stepper: the recurrence `S_t = a_t S_{t−1} + k_t v_tᵀ`, `o_t = S_tᵀ q_t / √d_k`, beside
//! the masked parallel form `(D ⊙ QKᵀ/√d_k) V` with `D_ij = Π_{t=j+1..i} a_t`, and their
//! difference.
//!
//! Every number comes from the core: the weights from `decayed_linear` attention
//! ([`attnlab_core::attention::Problem`]), `D` from [`decayed::decay_matrix`], the states
//! from [`decayed::DecayedState`]. This module picks the gates and shapes the results for
//! the page and its figures.

use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, Problem};
use attnlab_core::decayed::{self, DecayedState};
use attnlab_core::linear;
use attnlab_core::mask::{Mask, MaskSpec};
use attnlab_core::rng;
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::Array2;

use super::{LinearLabError, head_input, labels, max_abs_diff, signed, values};
use attnlab_i18n::{Lang, msg, plot_words};

/// Where the stepper's decay `a_t` comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decay {
    /// The same `γ ∈ [0, 1]` at every step (RetNet).
    Constant(f32),
    /// A gate per token from its key, `a_t = σ(w·k_t + b)` ([`seeded_gates`]; GLA,
    /// Mamba-2).
    Gates,
}

/// The decay `γ` the stepper starts with (RetNet's heads use 1 − 2^(−5…−12), about
/// 0.97–0.9998; 0.9 forgets fast enough to see within a sentence).
pub const DEFAULT_GAMMA: f32 = 0.9;

/// `b` of the seeded gates `σ(w·k_t + b)`: `σ(1) ≈ 0.73`, so a token with `w·k_t = 0`
/// keeps about three quarters of the state.
pub const GATE_BIAS: f32 = 1.0;

/// The seeded gates of head `head` of a model of seed `seed`: `a_t = σ(w·k_t + b)` with
/// `w ~ N(0, 1/d_k)` drawn from its own stream (`decay-gates`, the head) and
/// `b` = [`GATE_BIAS`]: each token sets how much of the state it keeps from its own key
/// (GLA and Mamba-2 compute theirs from the token's input by a learned projection; `k_t`
/// is itself a projection of that input).
pub fn seeded_gates(seed: u64, head: usize, k: &Array2<f32>) -> Vec<f32> {
    let d_k = k.ncols();
    let std = 1.0 / (d_k.max(1) as f32).sqrt();
    let w = rng::normal_vec(&mut rng::stream(seed, "decay-gates", head as u64), d_k, std);
    k.rows()
        .into_iter()
        .map(|kt| {
            let z: f32 = kt.iter().zip(&w).map(|(a, b)| a * b).sum::<f32>() + GATE_BIAS;
            let a = 1.0 / (1.0 + (-f64::from(z)).exp());
            (a as f32).clamp(0.0, 1.0)
        })
        .collect()
}

/// One step `t` of decayed linear attention as an RNN.
#[derive(Debug, Clone, PartialEq)]
pub struct DecayedStep {
    /// The position.
    pub t: usize,
    /// Whether key `t` was absorbed (padding keys only decay the state).
    pub absorbed: bool,
    /// `a_t`, the decay of this step (at `t = 0` it multiplies `S_{−1} = 0`).
    pub gate: f32,
    /// `S_t = a_t S_{t−1} + k_t v_tᵀ`, `d_k × d_v`.
    pub s: Array2<f32>,
    /// `o_t = S_tᵀ q_t / √d_k`, read from the state.
    pub output: Vec<f32>,
    /// Row `t` of `W V`, `W = D ⊙ QKᵀ/√d_k` under the causal mask: the parallel form.
    pub parallel: Vec<f32>,
    /// `max |o_t − (W V)_t|`.
    pub max_abs_diff: f32,
}

/// Decayed linear attention on one head, as an RNN and as the masked parallel form.
#[derive(Debug, Clone, PartialEq)]
pub struct DecayedTrace {
    /// Where the decay comes from.
    pub decay: Decay,
    /// `a_t` for every position (`a_0` is never used).
    pub gates: Vec<f32>,
    /// `D`, `n × n`, lower triangular.
    pub d: Array2<f32>,
    /// The causal (and padding) mask of the parallel form.
    pub mask: Mask,
    /// `W = D ⊙ QKᵀ/√d_k` on the allowed cells: the weights, not normalised.
    pub weights: Array2<f32>,
    /// `W V`: the parallel form's outputs.
    pub parallel: Array2<f32>,
    /// `o_t` of the recurrence, one row per step.
    pub recurrent: Array2<f32>,
    /// `max |o_t − (W V)_t|` for every step `t`.
    pub diffs: Vec<f32>,
    /// The score's scale `1/√d_k`.
    pub scale: f32,
    q: Array2<f32>,
    k: Array2<f32>,
    v: Array2<f32>,
    key_allowed: Vec<bool>,
}

impl DecayedTrace {
    /// The number of steps (tokens).
    pub fn len(&self) -> usize {
        self.diffs.len()
    }

    /// Whether there is no step.
    pub fn is_empty(&self) -> bool {
        self.diffs.is_empty()
    }

    /// The largest `max |o_t − (W V)_t|` over all steps.
    pub fn max_abs_diff(&self) -> f32 {
        self.diffs.iter().fold(0.0, |a, &d| a.max(d))
    }

    /// The decay of step `t` as the recurrence applies it (0 at `t = 0`).
    fn gate(&self, t: usize) -> f32 {
        if t == 0 { 0.0 } else { self.gates[t] }
    }

    /// Runs the recurrence over steps `0..=last`, calling `visit` after each read.
    fn run(&self, last: usize, mut visit: impl FnMut(usize, &DecayedState, &[f32])) {
        let mut state = DecayedState::new(self.k.ncols(), self.v.ncols());
        for t in 0..=last.min(self.len().saturating_sub(1)) {
            let (kt, vt) = (self.k.row(t).to_vec(), self.v.row(t).to_vec());
            let kv = self.key_allowed[t].then_some((&kt[..], &vt[..]));
            state.step(f64::from(self.gate(t)), kv);
            let o = state.read(&self.q.row(t).to_vec(), self.scale);
            visit(t, &state, &o);
        }
    }

    /// Step `t`: the state after steps `0..=t`, the output read from it and row `t` of
    /// the parallel form (`None` past the last step).
    pub fn step(&self, t: usize) -> Option<DecayedStep> {
        if t >= self.len() {
            return None;
        }
        let mut step = None;
        self.run(t, |i, state, output| {
            if i == t {
                let parallel = self.parallel.row(t).to_vec();
                step = Some(DecayedStep {
                    t,
                    absorbed: self.key_allowed[t],
                    gate: self.gates[t],
                    s: state.matrix(),
                    max_abs_diff: max_abs_diff(output, &parallel),
                    output: output.to_vec(),
                    parallel,
                });
            }
        });
        step
    }
}

/// Decayed linear attention on head `head` of a self-attention problem with the decay
/// `decay` (the seeded gates of `seed`): the weights `D ⊙ QKᵀ/√d_k` computed by the core's
/// `decayed_linear` kind under the causal mask and the problem's padding, `D`, the
/// parallel outputs `W V` and the recurrence's outputs beside them.
pub fn decayed_trace(
    problem: &Problem,
    head: usize,
    decay: Decay,
    seed: u64,
) -> Result<DecayedTrace, LinearLabError> {
    let input = head_input(problem, head)?;
    let (n, m) = (input.q.nrows(), input.k.nrows());
    if n != m {
        return Err(LinearLabError::NotOneSequence { n, m });
    }
    if n == 0 {
        return Err(LinearLabError::Empty);
    }
    let mask = MaskSpec {
        causal: true,
        padding_keys: problem.spec().mask.padding_keys.clone(),
        ..MaskSpec::default()
    };
    mask.validate(n, m)?;
    let key_allowed = mask.key_allowed(m);
    let mut with = HeadInput::new(input.q.clone(), input.k.clone(), input.v.clone());
    let gates = match decay {
        Decay::Constant(gamma) => {
            with.decay = Some(gamma);
            vec![gamma; n]
        }
        Decay::Gates => {
            let gates = seeded_gates(seed, head, &input.k);
            with.gates = Some(gates.clone());
            gates
        }
    };
    let spec = AttentionSpec {
        score: ScoreFunction::ScaledDot,
        attention: AttentionKind::DecayedLinear,
        mask,
        ..AttentionSpec::default()
    };
    let result = Problem::new(vec![with], spec, None)?.compute_head(0)?;
    let q = input.q.as_standard_layout().into_owned();
    let k = input.k.as_standard_layout().into_owned();
    let v = input.v.as_standard_layout().into_owned();
    let weights = result.weights.into_owned();
    let parallel = linear::weights_times_values(&weights, &v);
    let mut trace = DecayedTrace {
        decay,
        d: decayed::decay_matrix(&gates),
        gates,
        mask: result.mask,
        weights,
        recurrent: Array2::zeros(parallel.dim()),
        parallel,
        diffs: vec![0.0; n],
        scale: 1.0 / (q.ncols().max(1) as f32).sqrt(),
        q,
        k,
        v,
        key_allowed,
    };
    let mut recurrent = Array2::zeros(trace.parallel.dim());
    let mut diffs = vec![0.0; n];
    trace.run(n - 1, |t, _, output| {
        diffs[t] = max_abs_diff(output, &trace.parallel.row(t).to_vec());
        recurrent
            .row_mut(t)
            .assign(&ndarray::ArrayView1::from(output));
    });
    trace.recurrent = recurrent;
    trace.diffs = diffs;
    Ok(trace)
}

/// The figures of a [`DecayedTrace`] beside the stepper: `D` (sequential, `0..=1`) and the
/// weights `D ⊙ QKᵀ/√d_k` (diverging: they can be negative), the cells above the diagonal
/// (and padding keys) hatched; rows are the queries `rows`, columns the same tokens.
pub fn decayed_figures(
    trace: &DecayedTrace,
    rows: &[String],
    lang: Lang,
) -> Result<[Heatmap; 2], HeatmapError> {
    let words = plot_words(lang);
    let n = trace.len();
    let (rows, cols) = if rows.len() == n {
        (rows.to_vec(), rows.to_vec())
    } else {
        (labels("", n), labels("", n))
    };
    let tokens = msg::linear::LINEAR_AXIS_TOKENS.get(lang);
    let queries = msg::linear::LINEAR_AXIS_QUERIES.get(lang);
    let above: Vec<bool> = (0..n * n).map(|c| c % n > c / n).collect();
    let d = Heatmap::weights(
        msg::linear::LINEAR_DECAY_D_TITLE.get(lang),
        rows.clone(),
        cols.clone(),
        values(&trace.d),
    )?
    .with_words(words)
    .with_value_label("D_ij")
    .with_axis_titles(queries, tokens)
    .with_blocked(above)?;
    let blocked: Vec<bool> = trace.mask.allowed().iter().map(|a| !a).collect();
    let w = signed(
        msg::linear::LINEAR_DECAY_W_TITLE.get(lang),
        (rows, cols),
        &trace.weights,
        msg::linear::LINEAR_DECAY_W_ENTRY.get(lang),
        (queries, tokens),
        lang,
    )?
    .with_blocked(blocked)?;
    Ok([d, w])
}

/// The figures of one decayed step: `S_t` (`d_k × d_v`), the gates `a_t` of every token
/// (one row, columns `tokens`), and the strips `o_t` and row `t` of `W V`, their words in
/// `lang`.
pub fn decayed_step_figures(
    trace: &DecayedTrace,
    step: &DecayedStep,
    tokens: &[String],
    lang: Lang,
) -> Result<[Heatmap; 4], HeatmapError> {
    let (dk, dv) = step.s.dim();
    let t = step.t;
    let value_dim = msg::linear::LINEAR_VALUE_DIMENSION.get(lang);
    let output = msg::linear::LINEAR_OUTPUT.get(lang);
    let s = signed(
        format!("S_{t} = a_{t}\u{b7}S_{} + k_{t} v_{t}\u{1d40}", previous(t)),
        (labels("", dk), labels("", dv)),
        &step.s,
        msg::linear::LINEAR_S_ENTRY.get(lang),
        (msg::linear::LINEAR_KEY_DIMENSION.get(lang), value_dim),
        lang,
    )?;
    let n = trace.len();
    let cols = if tokens.len() == n {
        tokens.to_vec()
    } else {
        labels("", n)
    };
    let gates = Heatmap::weights(
        msg::linear::LINEAR_DECAY_GATES_TITLE.get(lang),
        vec!["a_t".to_string()],
        cols,
        trace.gates.clone(),
    )?
    .with_words(plot_words(lang))
    .with_value_label("a_t")
    .with_axis_titles(
        msg::linear::LINEAR_VECTOR.get(lang),
        msg::linear::LINEAR_AXIS_TOKENS.get(lang),
    );
    let strip = |title: String, row: &str, v: &[f32]| {
        let a = Array2::from_shape_vec((1, v.len()), v.to_vec()).expect("one row");
        signed(
            title,
            (vec![row.to_string()], labels("", v.len())),
            &a,
            output,
            (msg::linear::LINEAR_VECTOR.get(lang), value_dim),
            lang,
        )
    };
    let o = strip(
        msg::linear::LinearDecayOTitle { t: &t }.say(lang),
        &format!("o_{t}"),
        &step.output,
    )?;
    let p = strip(
        msg::linear::LinearDecayParallelRowTitle { t: &t }.say(lang),
        &format!("(WV)_{t}"),
        &step.parallel,
    )?;
    Ok([s, gates, o, p])
}

/// `t − 1` as the formulas write it: `−1` before the first step.
pub fn previous(t: usize) -> String {
    match t {
        0 => "\u{2212}1".to_string(),
        _ => (t - 1).to_string(),
    }
}

#[cfg(test)]
mod tests;
