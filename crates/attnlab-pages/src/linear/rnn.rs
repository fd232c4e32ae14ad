//! Causal kernel attention as an RNN, step by step beside the masked parallel form,
//! and the figures of one step.

use attnlab_core::CoreError;
use attnlab_core::attention::{AttentionKind, Problem};
use attnlab_core::linear::{self, RecurrentState};
use attnlab_core::mask::{Mask, MaskSpec};
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::Array2;

use super::{LinearLabError, feature_map, head_input, labels, max_abs_diff, signed};
use attnlab_i18n::{Lang, msg};

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

/// The figures of one RNN step: `S_t` (`d_φ × d_v`) and the strips `z_t`, `o_t` and
/// row `t` of the parallel form (one row each), their words in `lang`.
pub fn step_figures(step: &RnnStep, lang: Lang) -> Result<[Heatmap; 4], HeatmapError> {
    let (dp, dv) = step.s.dim();
    let t = step.t;
    let feature = msg::linear::LINEAR_PHI_FEATURE.get(lang);
    let value_dim = msg::linear::LINEAR_VALUE_DIMENSION.get(lang);
    let output = msg::linear::LINEAR_OUTPUT.get(lang);
    let s = signed(
        format!("S_{t} = \u{3a3}_(j\u{2264}{t}) \u{3c6}(k_j) v_j\u{1d40}"),
        (labels("", dp), labels("", dv)),
        &step.s,
        msg::linear::LINEAR_S_ENTRY.get(lang),
        (feature, value_dim),
        lang,
    )?;
    let strip = |title: String, row: &str, v: &[f32], col: &str, value: &str| {
        let a = Array2::from_shape_vec((1, v.len()), v.to_vec()).expect("one row");
        signed(
            title,
            (vec![row.to_string()], labels("", v.len())),
            &a,
            value,
            (msg::linear::LINEAR_VECTOR.get(lang), col),
            lang,
        )
    };
    let z = strip(
        format!("z_{t} = \u{3a3}_(j\u{2264}{t}) \u{3c6}(k_j)"),
        &format!("z_{t}"),
        &step.z,
        feature,
        msg::linear::LINEAR_Z_ENTRY.get(lang),
    )?;
    let o_title = msg::linear::LinearOTitle { t: &t }.say(lang);
    let p_title = msg::linear::LinearParallelTitle { t: &t }.say(lang);
    let o = strip(o_title, &format!("o_{t}"), &step.output, value_dim, output)?;
    let p = strip(
        p_title,
        &format!("(\u{c2}V)_{t}"),
        &step.parallel,
        value_dim,
        output,
    )?;
    Ok([s, z, o, p])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::test_support::{long_state, problem_of};
    use crate::linear::*;
    use attnlab_lab::state::LabState;

    #[test]
    fn the_rnn_equals_the_parallel_form_at_every_step() {
        let mut state = long_state();
        state.pad_to = Some(28);
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
            let [s, z, o, par] = step_figures(last, Lang::En).unwrap();
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
}
