//! The kinds beyond the lab's six (softmax + 1, sigmoid, softpick, sink, differential,
//! decayed linear, FAVOR+): their parameters checked once in [`Problem::new`]'s loop, and
//! one head computed.
//!
//! [`Problem::new`]: super::Problem::new

use ndarray::{ArcArray2, Array2};

use crate::decayed;
use crate::error::{CoreError, Expected, Invalid, Needs, Result};
use crate::favor;
use crate::linear;
use crate::logits::LogitSteps;
use crate::mask::Mask;
use crate::normalise::{self, Normaliser};
use crate::score::{self, ScoreFunction};

use super::checks::{check_finite, check_shape, finite_or, finite_scaled_or, standard};
use crate::kind::AttentionKind;
use crate::spec::{AttentionSpec, Computation, HeadInput};

fn unit(x: f32) -> bool {
    (0.0..=1.0).contains(&x)
}

/// The settings of the whole problem that the new kinds read.
pub(super) fn validate_spec(spec: &AttentionSpec) -> Result<()> {
    let finite = |field, x: f32| match x.is_finite() {
        true => Ok(()),
        false => Err(CoreError::InvalidSetting {
            field,
            reason: Invalid::NotFinite,
        }),
    };
    match spec.attention {
        AttentionKind::Sigmoid => {
            if let Some(b) = spec.sigmoid_bias {
                finite("sigmoid_bias", b)?;
            }
        }
        AttentionKind::Differential => finite("lambda", spec.lambda)?,
        AttentionKind::DecayedLinear => {
            if !matches!(spec.score, ScoreFunction::Dot | ScoreFunction::ScaledDot) {
                return Err(CoreError::InvalidSetting {
                    field: "score",
                    reason: Invalid::DecayedScore {
                        score: spec.score.name(),
                    },
                });
            }
            if let Some(gates) = &spec.gates
                && let Some((index, &value)) = gates.iter().enumerate().find(|(_, g)| !unit(**g))
            {
                return Err(CoreError::InvalidSetting {
                    field: "gates",
                    reason: Invalid::GateUnit { index, value },
                });
            }
        }
        _ => {}
    }
    Ok(())
}

/// Head `h`'s parameters of the new kinds, for a problem of `n` queries and `m` keys
/// (its `q`, `k`, `v` already checked).
pub(super) fn validate_head(
    h: usize,
    spec: &AttentionSpec,
    head: &mut HeadInput,
    n: usize,
    m: usize,
) -> Result<()> {
    let hd = Some(h);
    let d_k = head.q.ncols();
    let missing = |field, needs| CoreError::MissingParams {
        head: h,
        field,
        needs,
    };
    let invalid = |field, reason| CoreError::InvalidHeadSetting {
        head: h,
        field,
        reason,
    };
    match spec.attention {
        AttentionKind::Sink => {
            let s = head.sink.ok_or(missing("sink", Needs::Sink))?;
            if !s.is_finite() {
                return Err(invalid("sink", Invalid::NotFinite));
            }
        }
        AttentionKind::Differential => {
            let q2 = head.q2.as_mut().ok_or(missing("q2", Needs::Differential))?;
            let like_q = Expected::AsField {
                rows: n,
                cols: d_k,
                field: "q",
            };
            check_shape(hd, "q2", q2, Some(n), Some(d_k), like_q)?;
            check_finite(hd, "q2", q2)?;
            standard(q2);
            let k2 = head.k2.as_mut().ok_or(missing("k2", Needs::Differential))?;
            let like_k = Expected::AsField {
                rows: m,
                cols: d_k,
                field: "k",
            };
            check_shape(hd, "k2", k2, Some(m), Some(d_k), like_k)?;
            check_finite(hd, "k2", k2)?;
            standard(k2);
        }
        AttentionKind::DecayedLinear => {
            if n != m {
                return Err(CoreError::ShapeMismatch {
                    head: hd,
                    field: "k",
                    expected: Expected::DecayedKeys { n, d_k },
                    got: head.k.dim(),
                });
            }
            let any_gates = head.gates.is_some() || spec.gates.is_some();
            match head.decay {
                Some(_) if any_gates => return Err(invalid("decay", Invalid::DecayAndGates)),
                Some(gamma) if !unit(gamma) => return Err(invalid("decay", Invalid::Unit(gamma))),
                None if !any_gates => return Err(missing("decay", Needs::Decay)),
                _ => {}
            }
            let (gates, own) = match (&head.gates, &spec.gates) {
                (Some(g), _) => (Some(g), true),
                (None, g) => (g.as_ref(), false),
            };
            if let Some(gates) = gates {
                if gates.len() != n {
                    return Err(CoreError::ShapeMismatch {
                        head: own.then_some(h),
                        field: "gates",
                        expected: Expected::Gates { n },
                        got: (1, gates.len()),
                    });
                }
                if own
                    && let Some((index, &value)) =
                        gates.iter().enumerate().find(|(_, g)| !unit(**g))
                {
                    return Err(invalid("gates", Invalid::GateUnit { index, value }));
                }
            }
        }
        AttentionKind::Favor => {
            let w = head
                .features
                .as_mut()
                .ok_or(missing("features", Needs::Features))?;
            if w.nrows() == 0 || w.ncols() != d_k {
                return Err(CoreError::ShapeMismatch {
                    head: hd,
                    field: "features",
                    expected: Expected::Features { d_k },
                    got: w.dim(),
                });
            }
            check_finite(hd, "features", w)?;
            standard(w);
        }
        _ => {}
    }
    Ok(())
}

/// One head of a new kind, computed.
pub(super) struct Done {
    /// The weights the kind applies.
    pub weights: Array2<f32>,
    /// The output when the kind forms it otherwise than `weights · V`.
    pub output: Option<Array2<f32>>,
    /// The raw scores (or FAVOR+'s similarities).
    pub scores: Option<ArcArray2<f32>>,
    /// The mask applied.
    pub mask: Mask,
    /// How.
    pub computation: Computation,
}

/// The logits of the softmax family's kinds: `raw / τ`, the softcap and ALiBi's bias, as
/// softmax's ([`LogitSteps`], the one step that turns raw scores into logits), before the
/// mask; an overflow is an error, never an infinite logit.
fn logits(raw: &ArcArray2<f32>, steps: &LogitSteps) -> Result<Array2<f32>> {
    let z = steps.apply(raw);
    finite_or(&z, "logits (score / temperature, softcap, ALiBi)")?;
    Ok(z)
}

/// Computes one head of `kind` (not one of the lab's six) of a validated problem: `raw`
/// its raw scores (checked finite as logits) when the kind uses a score, `steps` what
/// turns them into logits, `key_allowed` the keys no padding closes.
pub(super) fn compute(
    kind: AttentionKind,
    head: &HeadInput,
    spec: &AttentionSpec,
    mask: &Mask,
    raw: Option<&ArcArray2<f32>>,
    steps: &LogitSteps,
    key_allowed: &[bool],
) -> Result<Done> {
    let quadratic = |weights| Done {
        weights,
        output: None,
        scores: raw.cloned(),
        mask: mask.clone(),
        computation: Computation::Quadratic,
    };
    let raw_or = || raw.expect("a kind with scores");
    let m = head.k.nrows();
    Ok(match kind {
        AttentionKind::SoftmaxPlusOne
        | AttentionKind::Sigmoid
        | AttentionKind::Softpick
        | AttentionKind::Sink => {
            let how = match kind {
                AttentionKind::SoftmaxPlusOne => Normaliser::PlusOne,
                AttentionKind::Sigmoid => Normaliser::Sigmoid {
                    bias: spec.sigmoid_bias.unwrap_or(-(m as f32).ln()),
                },
                AttentionKind::Softpick => Normaliser::Softpick,
                _ => Normaliser::Sink {
                    sink: head.sink.expect("validated"),
                },
            };
            quadratic(normalise::normalise(&logits(raw_or(), steps)?, mask, how))
        }
        AttentionKind::Differential => {
            let (q2, k2) = (head.q2.as_ref(), head.k2.as_ref());
            let raw2 = score::scores(
                spec.score,
                q2.expect("validated"),
                k2.expect("validated"),
                &head.score_params,
            )
            .into_shared();
            finite_scaled_or(&raw2, steps.scale, "logits of q2, k2 (score / temperature)")
                .or_else(|e| finite_or(&raw2, "scores of q2, k2").and(Err(e)))?;
            let z1 = logits(raw_or(), steps)?;
            let z2 = logits(&raw2, steps)?;
            quadratic(normalise::differential(&z1, &z2, spec.lambda, mask))
        }
        AttentionKind::DecayedLinear => {
            let n = head.q.nrows();
            let gates = decayed::gates(head, spec, n);
            let causal = decayed::causal_mask(mask);
            let weights = decayed::weights(&raw_or().to_owned(), &gates, &causal);
            finite_or(&weights, "decayed weights D_ij · score")?;
            let only_causal = spec.mask.kinds().iter().all(|k| *k == "causal");
            let (output, computation) = if only_causal {
                let c = match spec.score {
                    ScoreFunction::ScaledDot => 1.0 / (head.q.ncols() as f32).sqrt(),
                    _ => 1.0,
                };
                let o = decayed::recurrent(&head.q, &head.k, &head.v, &gates, c);
                (Some(o), Computation::DecayedRecurrent)
            } else {
                (None, Computation::DecayedMaskedQuadratic)
            };
            Done {
                weights,
                output,
                scores: raw.cloned(),
                mask: causal,
                computation,
            }
        }
        AttentionKind::Favor => {
            let w = head.features.as_ref().expect("validated");
            let phi_q = favor::features(&head.q, w);
            let phi_k = favor::features(&head.k, w);
            finite_or(&phi_q, "FAVOR+ features φ(q)")?;
            finite_or(&phi_k, "FAVOR+ features φ(k)")?;
            let sim = linear::kernel_similarity(&phi_q, &phi_k, mask);
            finite_or(&sim, "similarities φ(q)ᵀφ(k)")?;
            let implied = linear::implied_from_similarity(&sim);
            // No mask: one global state; only causal: prefix sums; any other mask
            // (padding included): the masked quadratic form.
            let (output, computation) = match spec.mask.kinds().as_slice() {
                [] => {
                    let o = linear::kernel_global(&phi_q, &phi_k, &head.v, key_allowed);
                    (Some(o), Computation::FavorLinear)
                }
                ["causal"] => {
                    let o = linear::kernel_recurrent(&phi_q, &phi_k, &head.v, key_allowed);
                    (Some(o), Computation::FavorRecurrent)
                }
                _ => (None, Computation::FavorMaskedQuadratic),
            };
            Done {
                weights: implied,
                output,
                scores: Some(sim.into_shared()),
                mask: mask.clone(),
                computation,
            }
        }
        _ => unreachable!("the lab's kinds are computed in attention.rs"),
    })
}
