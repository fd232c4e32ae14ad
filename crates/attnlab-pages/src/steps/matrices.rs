//! The stages' matrices, computed by the core's own functions on the variant's validated
//! [`Problem`], for one head and one query.

use attnlab_core::CoreError;
use attnlab_core::attention::{HeadResult, Problem};
use attnlab_core::linear;
use attnlab_core::mask::Mask;
use attnlab_core::model::{Projected, Projection};
use attnlab_core::score::{self, ScoreFunction, ScoreParams};
use attnlab_core::softmax;
use attnlab_core::streaming::Causality;

use super::builder::{Builder, StepsInput, finite};
use super::formula::{self, LinformerInput, Qkv, Side};
use super::stages::{self as meta, Family, Keys, Query, Stage, StageKind};
use attnlab_i18n::Lang;
use attnlab_i18n::msg::steps as text;
use attnlab_lab::compute::{self, LabError};
use attnlab_lab::state::{Mode, ModelConfig, Variant};
use attnlab_lab::tokens::Tokens;

/// The problem of `variant` with RoPE off, whose `Q` and `K` are the projections before
/// they turn ([`StepsInput::unturned`]): the lab's own problem of the same variant
/// (`brought`: heads brought from elsewhere); `None` when RoPE is off.
pub fn unturned(
    model: &ModelConfig,
    projected: &Projected,
    variant: &Variant,
    keys: &Tokens,
    brought: bool,
) -> Option<Result<Problem, CoreError>> {
    variant.rope.as_ref()?;
    let plain = Variant {
        rope: None,
        ..variant.clone()
    };
    let problem = match brought {
        true => compute::problem_brought,
        false => compute::problem,
    };
    Some(problem(model, projected, &plain, keys))
}

/// The stages of head `head` of the input's variant for query token `query`: its row is
/// highlighted where the rows are the queries, and the formulas name it (a query past
/// the last is neither highlighted nor named).
///
/// The stages are [`Family::stages`] of the variant's attention kind. Softmax: X, Q, K,
/// V, raw scores, scaled, masked, softmax, weights · V, concat · W^O. Linformer: X, Q, K,
/// V, K' = E K, V' = F V, raw scores, scaled, softmax, weights · V', concat · W^O. Kernel
/// variants (elu1, relu, taylor): X, Q, K, V, φ(Q), φ(K), similarities, implied Â,
/// output, concat · W^O. Efficient: X, Q, K, V, softmax_row(Q), softmax_col(K), implied
/// Â, output, concat · W^O.
///
/// Names and notes are in `lang`; the formulas are the same in every language.
pub fn steps(
    input: &StepsInput<'_>,
    head: usize,
    query: usize,
    lang: Lang,
) -> Result<Vec<Stage>, LabError> {
    let problem = input.problem;
    let heads = compute::compute_heads(problem)?;
    let result: &HeadResult = heads
        .get(head)
        .ok_or(LabError::Core(CoreError::InvalidSetting {
            field: "head",
            reason: attnlab_core::Invalid::NoSuchHead {
                heads: heads.len(),
                head,
            },
        }))?;
    let hin = &problem.heads()[head];
    let spec = problem.spec();
    let family = Family::of(spec.attention);
    let n = hin.q.nrows();
    let m = hin.k.nrows();
    let d_k = hin.q.ncols();
    let query = input
        .queries
        .get(query)
        .filter(|_| query < n)
        .map(|token| Query {
            index: query,
            token: token.clone(),
        });
    let mut b = Builder {
        family,
        lang,
        queries: input.queries,
        keys: input.keys,
        query,
        stages: Vec::new(),
    };
    // With RoPE, Q and K before they turn: the problem's own are turned.
    let before = input
        .unturned
        .filter(|_| spec.rope.is_some())
        .and_then(|u| u.heads().get(head))
        .unwrap_or(hin);
    let note_keys = super::modern::group_note(input, head, lang);
    // W^O is there when the heads are projected (or brought with one).
    let projection = match problem.w_o() {
        Some(_) => Projection::Seeded,
        None => Projection::Identity,
    };

    if let Some(encoded) = input.encoded {
        // X.
        b.push(
            StageKind::Input,
            encoded.x.clone(),
            formula::input(input.model, b.query.as_ref()),
            meta::input_note(input.model, input.mode, lang),
        );
        // Q, K, V.
        b.push(
            StageKind::Queries,
            before.q.clone(),
            formula::projection(Qkv::Queries, head, input.mode, input.model.projection),
            text::StepsQueriesNote {
                head: &head,
                n: &n,
                d_k: &d_k,
            }
            .say(lang),
        );
        b.push(
            StageKind::Keys,
            before.k.clone(),
            formula::projection(Qkv::Keys, head, input.mode, input.model.projection),
            match input.mode {
                Mode::Cross => text::StepsKeysCross { m: &m, d_k: &d_k }.say(lang),
                Mode::SelfAttention => text::StepsKeysSelf { m: &m, d_k: &d_k }.say(lang),
            } + &note_keys,
        );
        b.push(
            StageKind::Values,
            hin.v.clone(),
            formula::projection(Qkv::Values, head, input.mode, input.model.projection),
            text::STEPS_VALUES_NOTE.get(lang).to_string() + &note_keys,
        );
    } else {
        let d_v = hin.v.ncols();
        for (kind, which, note) in [
            (
                StageKind::Queries,
                Qkv::Queries,
                text::StepsBroughtQueries {
                    head: &head,
                    n: &n,
                    d_k: &d_k,
                }
                .say(lang),
            ),
            (
                StageKind::Keys,
                Qkv::Keys,
                text::StepsBroughtKeys {
                    head: &head,
                    m: &m,
                    d_k: &d_k,
                }
                .say(lang),
            ),
            (
                StageKind::Values,
                Qkv::Values,
                text::StepsBroughtValues {
                    head: &head,
                    m: &m,
                    d_v: &d_v,
                }
                .say(lang),
            ),
        ] {
            let (values, note) = match which {
                Qkv::Queries => (before.q.clone(), note),
                Qkv::Keys => (before.k.clone(), note + &note_keys),
                Qkv::Values => (hin.v.clone(), note + &note_keys),
            };
            b.push(kind, values, formula::brought(which, head), note);
        }
    }

    if let Some(rope) = &spec.rope {
        super::modern::push_turned(&mut b, rope, hin, d_k);
    }
    let mask = problem.mask();
    match family {
        Family::Softmax | Family::Linformer | Family::Normalised(_) | Family::Differential => {
            let keys_of = family.keys();
            let (keys, values) = match keys_of {
                Keys::Projected => {
                    let lin = hin.linformer.as_ref().expect("a validated Linformer head");
                    let kp = lin.e.dot(&hin.k).as_standard_layout().into_owned();
                    let vp = lin.f.dot(&hin.v).as_standard_layout().into_owned();
                    let k = lin.e.nrows();
                    b.push(
                        StageKind::ProjectedKeys,
                        kp.clone(),
                        formula::linformer_projection(LinformerInput::Keys, k, m),
                        text::StepsProjectedKeysNote { m: &m, k: &k }.say(lang),
                    );
                    b.push(
                        StageKind::ProjectedValues,
                        vp.clone(),
                        formula::linformer_projection(LinformerInput::Values, k, m),
                        text::StepsProjectedValuesNote { k: &k }.say(lang),
                    );
                    (kp, vp)
                }
                Keys::Tokens => (hin.k.clone(), hin.v.clone()),
            };
            let _ = values;
            // Raw scores: the score function before any scaling. For the scaled dot
            // product that is the plain dot product; the scaling is the next stage.
            // Linformer scores with the scaled dot product against the projected keys.
            let (score_fn, score_params) = match keys_of {
                Keys::Projected => (ScoreFunction::ScaledDot, &ScoreParams::None),
                Keys::Tokens => (spec.score, &hin.score_params),
            };
            let (raw_fn, raw_params) = match score_fn {
                ScoreFunction::ScaledDot => (ScoreFunction::Dot, &ScoreParams::None),
                f => (f, score_params),
            };
            let raw = score::scores(raw_fn, &hin.q, &keys, raw_params);
            finite(&raw, "scores")?;
            b.push(
                StageKind::Scores,
                raw,
                formula::scores(score_fn, keys_of),
                meta::score_note(score_fn, keys_of, lang),
            );
            // Logits exactly as the core forms them: the score function, then ÷ τ (times
            // 1/τ, inside the softmax).
            let scored = score::scores(score_fn, &hin.q, &keys, score_params);
            let scale = 1.0 / spec.temperature;
            let logits = scored.mapv(|s| s * scale);
            finite(&logits, "logits (score / temperature)")?;
            b.push(
                StageKind::Scaled,
                logits.clone(),
                formula::scaled(score_fn, d_k, spec.temperature),
                meta::scaled_note(score_fn, d_k, spec.temperature, lang),
            );
            // The softcap, then ALiBi's bias, as the core applies them.
            let steps_h = problem.logit_steps(head)?;
            let logits = super::modern::push_logit_options(&mut b, &steps_h, &scored, head)?;
            match keys_of {
                Keys::Projected => {
                    let weights = softmax::softmax_masked_scaled(
                        &scored,
                        scale,
                        &Mask::full(n, keys.nrows()),
                    );
                    b.push(
                        StageKind::Softmax,
                        weights,
                        formula::softmax(),
                        text::STEPS_SOFTMAX_NOTE.get(lang).to_string(),
                    );
                }
                Keys::Tokens => {
                    b.push(
                        StageKind::Masked,
                        logits.clone(),
                        formula::masked(input.variant),
                        meta::masked_note(input.variant, mask.empty_rows().len(), lang),
                    );
                    b.block(mask.allowed());
                    let normalised = super::modern::Normalising {
                        problem,
                        head,
                        scored: &scored,
                        logits: &logits,
                        steps: &steps_h,
                    };
                    super::modern::push_weights(&mut b, &normalised)?;
                }
            }
            b.push(
                StageKind::HeadOutput,
                result.output.clone(),
                formula::head_output(head, keys_of),
                text::STEPS_HEAD_OUTPUT_NOTE.get(lang).to_string(),
            );
        }
        Family::Decayed => super::modern::push_decayed(&mut b, problem, head, result)?,
        Family::Favor => super::modern::push_favor(&mut b, problem, head, input.variant, result)?,
        Family::Kernel(map) => {
            let phi_q = map.features(&hin.q);
            let phi_k = map.features(&hin.k);
            finite(&phi_q, "feature maps φ(q)")?;
            finite(&phi_k, "feature maps φ(k)")?;
            let sim = linear::kernel_similarity(&phi_q, &phi_k, mask);
            b.push(
                StageKind::FeatureQueries,
                phi_q,
                formula::feature_map(map, Side::Queries),
                meta::feature_note(map, lang),
            );
            b.push(
                StageKind::FeatureKeys,
                phi_k,
                formula::feature_map(map, Side::Keys),
                text::STEPS_FEATURE_KEYS_NOTE.get(lang).to_string(),
            );
            finite(&sim, "similarities φ(q)ᵀφ(k)")?;
            b.push_similarity(sim, input.variant, mask.allowed());
            let causality = if input.variant.masks.causal {
                Causality::Causal
            } else {
                Causality::Full
            };
            b.push(
                StageKind::HeadOutput,
                result.output.clone(),
                formula::linear_output(head, causality),
                meta::linear_output_note(result.computation, lang),
            );
        }
        Family::Efficient => {
            let keep = spec.mask.key_allowed(m);
            b.push(
                StageKind::FeatureQueries,
                linear::softmax_rows(&hin.q),
                formula::efficient_map(Side::Queries),
                text::STEPS_EFFICIENT_QUERIES_NOTE.get(lang).to_string(),
            );
            b.push(
                StageKind::FeatureKeys,
                linear::softmax_columns(&hin.k, &keep),
                formula::efficient_map(Side::Keys),
                text::STEPS_EFFICIENT_KEYS_NOTE.get(lang).to_string(),
            );
            b.push(
                StageKind::Implied,
                result.weights.to_owned(),
                formula::efficient_implied(),
                text::STEPS_EFFICIENT_IMPLIED_NOTE.get(lang).to_string(),
            );
            b.block(result.mask.allowed());
            b.push(
                StageKind::HeadOutput,
                result.output.clone(),
                formula::efficient_output(head),
                text::STEPS_EFFICIENT_OUTPUT_NOTE.get(lang).to_string(),
            );
        }
    }

    // Concat · W^O: the core's own combination of every head.
    let output = problem.combine(&heads)?;
    let h = heads.len();
    let note = match projection {
        Projection::Seeded => text::StepsOutputProjected { heads: &h }.say(lang),
        Projection::Identity => text::StepsOutputIdentity { heads: &h }.say(lang),
    };
    b.push(
        StageKind::Output,
        output,
        formula::output(heads.len(), projection),
        note,
    );
    debug_assert_eq!(
        b.stages.iter().map(|s| s.kind).collect::<Vec<_>>(),
        family
            .stages_with(super::modern::options(spec))
            .iter()
            .filter(|&&k| input.encoded.is_some() || k != StageKind::Input)
            .copied()
            .collect::<Vec<_>>(),
        "the stages built are the family's list"
    );
    Ok(b.stages)
}

#[cfg(test)]
#[path = "matrices_tests.rs"]
mod tests;
