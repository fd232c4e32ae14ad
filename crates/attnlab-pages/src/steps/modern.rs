//! The stages of the kinds and options of docs/maths.md §7b–7d and §13, each computed by
//! the core's own functions on the variant's problem: RoPE's turned `q̃`, `k̃`
//! ([`Problem::heads`], turned when the problem was built), the softcap and ALiBi's bias
//! ([`LogitSteps::apply`]), the normalisers ([`normalise`]), differential attention's two
//! maps and their difference, decayed linear attention's `D` and `D ⊙ S`
//! ([`decayed`]), FAVOR+'s features ([`favor`]), and which key/value group a head reads
//! ([`groups`]).

use attnlab_core::attention::{AttentionKind, HeadResult, Problem};
use attnlab_core::logits::LogitSteps;
use attnlab_core::normalise::{self, Normaliser};
use attnlab_core::rope::{Rope, RopePairs};
use attnlab_core::{decayed, favor, groups, linear, score, softmax, tiled};
use attnlab_i18n::Lang;
use attnlab_i18n::msg::steps as text;
use attnlab_lab::compute::LabError;
use attnlab_lab::state::Variant;
use attnlab_plot::number;
use ndarray::Array2;

use super::builder::{Builder, StepsInput, finite};
use super::formula::{self, Side};
use super::stages::{StageKind, StageOptions};

/// The options of `spec` that add stages.
pub(super) fn options(spec: &attnlab_core::attention::AttentionSpec) -> StageOptions {
    let family = spec.attention.is_softmax_family();
    StageOptions {
        rope: spec.rope.is_some(),
        softcap: family && spec.softcap.is_some(),
        alibi: family && spec.alibi.is_some(),
    }
}

/// With grouped keys and values: which group head `head` reads and which heads share it
/// (a sentence to follow the `K` and `V` notes); empty otherwise.
pub(super) fn group_note(input: &StepsInput<'_>, head: usize, lang: Lang) -> String {
    let Some(g) = input.variant.kv_groups else {
        return String::new();
    };
    let h = input.problem.heads().len();
    let group = groups::group_of(head, h, g);
    let sharing: Vec<usize> = (0..h)
        .filter(|&i| groups::group_of(i, h, g) == group)
        .collect();
    text::StepsGroupNote {
        head: &head,
        group: &group,
        groups: &g,
        first: &sharing[0],
        last: &sharing[sharing.len() - 1],
    }
    .say(lang)
}

/// RoPE's stages: the problem's `q̃` and `k̃`, which the core turned when it built the
/// problem.
pub(super) fn push_turned(
    b: &mut Builder<'_>,
    rope: &Rope,
    hin: &attnlab_core::attention::HeadInput,
    d_k: usize,
) {
    let r = rope.dims(d_k);
    let half = rope.pairs == RopePairs::Half;
    let base = number::rounded(rope.base, 6);
    let lang = b.lang;
    for (kind, keys, m) in [
        (StageKind::TurnedQueries, false, &hin.q),
        (StageKind::TurnedKeys, true, &hin.k),
    ] {
        let note = match keys {
            false => text::StepsTurnedQueriesNote {
                base: &base,
                r: &r,
                d_k: &d_k,
            }
            .say(lang),
            true => text::STEPS_TURNED_KEYS_NOTE.get(lang).to_string(),
        };
        b.push(
            kind,
            m.clone(),
            formula::rope_turn(keys, rope.base, r, half),
            note,
        );
    }
}

/// The softcap and ALiBi's stages of head `head`, when on, after the scaled logits
/// `scored / τ`: returns the logits as the core forms them ([`LogitSteps::apply`]).
pub(super) fn push_logit_options(
    b: &mut Builder<'_>,
    steps: &LogitSteps,
    scored: &Array2<f32>,
    head: usize,
) -> Result<Array2<f32>, LabError> {
    let lang = b.lang;
    let largest = |a: &Array2<f32>| a.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x));
    let scaled_only = LogitSteps {
        scale: steps.scale,
        softcap: None,
        alibi: None,
    };
    if let Some(c) = steps.softcap {
        let capped = LogitSteps {
            softcap: Some(c),
            ..scaled_only.clone()
        }
        .apply(scored);
        finite(&capped, "logits (softcap)")?;
        let before = largest(&scaled_only.apply(scored));
        let note = text::StepsSoftcapNote {
            c: &number::rounded(c, 4),
            before: &number::decimals(before, 3),
            after: &number::decimals(largest(&capped), 3),
        }
        .say(lang);
        b.push(StageKind::Softcap, capped, formula::softcap(c), note);
    }
    if let Some(a) = &steps.alibi {
        let biased = steps.apply(scored);
        finite(&biased, "logits (ALiBi)")?;
        let slope = number::rounded(a.slope, 4);
        let note = text::StepsAlibiNote {
            head: &head,
            slope: &slope,
        }
        .say(lang);
        b.push(
            StageKind::Alibi,
            biased,
            formula::alibi(head, a.slope),
            note,
        );
    }
    let logits = steps.apply(scored);
    finite(&logits, "logits (score / temperature)")?;
    Ok(logits)
}

/// What the weights of a softmax-family head are formed from.
pub(super) struct Normalising<'a> {
    pub(super) problem: &'a Problem,
    pub(super) head: usize,
    /// The scores `score(q_i, k_j)`, before `τ`.
    pub(super) scored: &'a Array2<f32>,
    /// The logits as the core forms them (τ, softcap, ALiBi), before the mask.
    pub(super) logits: &'a Array2<f32>,
    pub(super) steps: &'a LogitSteps,
}

fn sum_text(b: &Builder<'_>, w: &Array2<f32>) -> String {
    let sum: f32 = b
        .query
        .as_ref()
        .map_or(0.0, |q| w.row(q.index).iter().sum());
    number::decimals(sum, 3)
}

/// The weights stage(s) of a softmax-family head, masked cells blocked: softmax (in
/// one pass or tile by tile), softmax + 1, sigmoid, softpick, sink, or differential
/// attention's two maps and their difference, by the core's functions exactly as
/// [`Problem::compute_head`] calls them.
pub(super) fn push_weights(b: &mut Builder<'_>, w: &Normalising<'_>) -> Result<(), LabError> {
    let (problem, spec) = (w.problem, w.problem.spec());
    let mask = problem.mask();
    let hin = &problem.heads()[w.head];
    let m = hin.k.nrows();
    let lang = b.lang;
    let kind = spec.attention;
    let (stage, weights, formula, note) = match kind {
        AttentionKind::Softmax => {
            let weights = match spec.tiles {
                Some(tile) => tiled::softmax_tiled(w.logits, 1.0, mask, &hin.v, tile).0,
                None if w.steps.scale_only() => {
                    softmax::softmax_masked_scaled(w.scored, w.steps.scale, mask)
                }
                None => softmax::softmax_masked_entropy_scaled(w.logits, 1.0, mask).0,
            };
            let note = match spec.tiles {
                Some(tile) => text::StepsSoftmaxTiledNote { tile: &tile }.say(lang),
                None => text::STEPS_SOFTMAX_NOTE.get(lang).to_string(),
            };
            (StageKind::Softmax, weights, formula::softmax(), note)
        }
        AttentionKind::Differential => {
            let (q2, k2) = (hin.q2.as_ref(), hin.k2.as_ref());
            let (Some(q2), Some(k2)) = (q2, k2) else {
                unreachable!("a validated differential head has q2 and k2")
            };
            let raw2 = score::scores(spec.score, q2, k2, &hin.score_params);
            let z2 = w.steps.apply(&raw2);
            finite(&z2, "logits of q2, k2 (score / temperature)")?;
            b.push(
                StageKind::FirstSoftmax,
                softmax::softmax_masked(w.logits, mask),
                formula::differential_map(1),
                text::STEPS_FIRST_SOFTMAX_NOTE.get(lang).to_string(),
            );
            b.block(mask.allowed());
            b.push(
                StageKind::SecondSoftmax,
                softmax::softmax_masked(&z2, mask),
                formula::differential_map(2),
                text::STEPS_SECOND_SOFTMAX_NOTE.get(lang).to_string(),
            );
            b.block(mask.allowed());
            let weights = normalise::differential(w.logits, &z2, spec.lambda, mask);
            let note = text::StepsDifferentialNote {
                lambda: &number::rounded(spec.lambda, 3),
                sum: &sum_text(b, &weights),
            }
            .say(lang);
            (
                StageKind::Differential,
                weights,
                formula::differential(spec.lambda),
                note,
            )
        }
        AttentionKind::SoftmaxPlusOne => {
            let weights = normalise::normalise(w.logits, mask, Normaliser::PlusOne);
            let note = text::StepsPlusOneNote {
                sum: &sum_text(b, &weights),
            }
            .say(lang);
            (StageKind::PlusOne, weights, formula::plus_one(), note)
        }
        AttentionKind::Sigmoid => {
            // The core's default bias: −ln m.
            let bias = spec.sigmoid_bias.unwrap_or(-(m as f32).ln());
            let weights = normalise::normalise(w.logits, mask, Normaliser::Sigmoid { bias });
            let note = text::StepsSigmoidNote {
                b: &number::decimals(bias, 3),
                sum: &sum_text(b, &weights),
            }
            .say(lang);
            let f = formula::sigmoid(bias, spec.sigmoid_bias.is_none(), m);
            (StageKind::Sigmoid, weights, f, note)
        }
        AttentionKind::Softpick => {
            let weights = normalise::normalise(w.logits, mask, Normaliser::Softpick);
            let note = text::StepsSoftpickNote {
                sum: &sum_text(b, &weights),
            }
            .say(lang);
            (StageKind::Softpick, weights, formula::softpick(), note)
        }
        AttentionKind::Sink => {
            let sink = hin.sink.expect("a validated sink head has its logit");
            let weights = normalise::normalise(w.logits, mask, Normaliser::Sink { sink });
            let sum = sum_text(b, &weights);
            let rest: f32 = 1.0 - sum.parse::<f32>().unwrap_or(0.0);
            let note = text::StepsSinkNote {
                s: &number::rounded(sink, 3),
                sum: &sum,
                rest: &number::decimals(rest, 3),
            }
            .say(lang);
            (
                StageKind::SinkWeights,
                weights,
                formula::sink(w.head, sink),
                note,
            )
        }
        other => unreachable!("{other:?} is not of the softmax family"),
    };
    b.push(stage, weights, formula, note);
    b.block(mask.allowed());
    Ok(())
}

/// Decayed linear attention's stages: the scores, the decay `D`, the weights `D ⊙ S`
/// (no normaliser), and the core's output.
pub(super) fn push_decayed(
    b: &mut Builder<'_>,
    problem: &Problem,
    head: usize,
    result: &HeadResult,
) -> Result<(), LabError> {
    let spec = problem.spec();
    let hin = &problem.heads()[head];
    let n = hin.q.nrows();
    let lang = b.lang;
    let raw = score::scores(spec.score, &hin.q, &hin.k, &hin.score_params);
    finite(&raw, "scores")?;
    let gates = decayed::gates(hin, spec, n);
    let causal = decayed::causal_mask(problem.mask());
    b.push(
        StageKind::Scores,
        raw.clone(),
        formula::decayed_scores(spec.score),
        text::STEPS_DECAYED_SCORES_NOTE.get(lang).to_string(),
    );
    let gamma = hin.decay.unwrap_or(gates.get(1).copied().unwrap_or(1.0));
    b.push(
        StageKind::Decay,
        decayed::decay_matrix(&gates),
        formula::decay(gamma),
        text::StepsDecayNote {
            gamma: &number::rounded(gamma, 3),
        }
        .say(lang),
    );
    b.block(causal.allowed());
    let weights = decayed::weights(&raw, &gates, &causal);
    finite(&weights, "decayed weights D_ij · score")?;
    let note = text::StepsDecayedNote {
        sum: &sum_text(b, &weights),
    }
    .say(lang);
    b.push(StageKind::Decayed, weights, formula::decayed(), note);
    b.block(causal.allowed());
    b.push(
        StageKind::HeadOutput,
        result.output.clone(),
        formula::head_output(head, super::stages::Keys::Tokens),
        text::STEPS_DECAYED_OUTPUT_NOTE.get(lang).to_string(),
    );
    Ok(())
}

/// FAVOR+'s stages: `φ(Q)`, `φ(K)` with the head's features, the similarities, the
/// implied weights, and the core's output.
pub(super) fn push_favor(
    b: &mut Builder<'_>,
    problem: &Problem,
    head: usize,
    variant: &Variant,
    result: &HeadResult,
) -> Result<(), LabError> {
    let hin = &problem.heads()[head];
    let mask = problem.mask();
    let lang = b.lang;
    let w = hin
        .features
        .as_ref()
        .expect("a validated FAVOR+ head has features");
    let (r, d_k) = (w.nrows(), hin.q.ncols());
    let phi_q = favor::features(&hin.q, w);
    let phi_k = favor::features(&hin.k, w);
    finite(&phi_q, "FAVOR+ features φ(q)")?;
    finite(&phi_k, "FAVOR+ features φ(k)")?;
    let sim = linear::kernel_similarity(&phi_q, &phi_k, mask);
    finite(&sim, "similarities φ(q)ᵀφ(k)")?;
    b.push(
        StageKind::FeatureQueries,
        phi_q,
        formula::favor(Side::Queries, r, d_k),
        text::StepsFavorQueriesNote { r: &r }.say(lang),
    );
    b.push(
        StageKind::FeatureKeys,
        phi_k,
        formula::favor(Side::Keys, r, d_k),
        text::STEPS_FAVOR_KEYS_NOTE.get(lang).to_string(),
    );
    b.push_similarity(sim, variant, mask.allowed());
    b.push(
        StageKind::HeadOutput,
        result.output.clone(),
        formula::head_output(head, super::stages::Keys::Tokens),
        text::STEPS_FAVOR_OUTPUT_NOTE.get(lang).to_string(),
    );
    Ok(())
}
