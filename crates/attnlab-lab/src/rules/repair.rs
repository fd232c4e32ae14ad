//! What [`LabState::repair`](crate::LabState::repair) changes in a state, one value at a
//! time, and how it says so in every language.

use attnlab_core::model::Projection;
use attnlab_core::position::Combine;
use attnlab_plot::number;

use super::ModelRules;
use crate::state::{
    BASE_RANGE, D_MODEL_RANGE, D_POS_RANGE, HEADS_RANGE, LINES_THRESHOLD_RANGE, LINFORMER_K_RANGE,
    LabState, MAX_NAME_CHARS, MAX_TOKENS, MaskKind, Mode, ModelConfig, STRIDE_RANGE,
    TEMPERATURE_RANGE, Variant, View, WINDOW_RANGE, Zoom,
};
use attnlab_i18n::Lang;
use attnlab_i18n::msg::rules as m;
use attnlab_i18n::said::Said;

pub(super) fn clamp_usize(
    value: &mut usize,
    range: &std::ops::RangeInclusive<usize>,
    what: Said,
    fixes: &mut Vec<Said>,
) {
    let clamped = (*value).clamp(*range.start(), *range.end());
    if clamped != *value {
        let (lo, hi) = (range.start(), range.end());
        fixes.push(Said::of(|lang| {
            m::Clamped {
                what: &what.get(lang),
                value,
                lo,
                hi,
                clamped: &clamped,
            }
            .say(lang)
        }));
        *value = clamped;
    }
}

/// A technical name, the same in every language.
fn named(name: &str) -> Said {
    Said::new(name, name)
}

pub(super) fn repair_model(m: &mut ModelConfig, fixes: &mut Vec<Said>) {
    clamp_usize(&mut m.d_model, &D_MODEL_RANGE, named("d_model"), fixes);
    if m.sinusoids_added() && m.d_model % 2 == 1 {
        let (odd, even) = (m.d_model, m.d_model - 1);
        fixes.push(
            m::DModelMadeEven {
                odd: &odd,
                even: &even,
            }
            .said(),
        );
        m.d_model = even;
    }
    if m.projection == Projection::Identity && m.heads != 1 {
        let h = m.heads;
        fixes.push(m::IdentityHeadsOne { heads: &h }.said());
        m.heads = 1;
    }
    clamp_usize(&mut m.heads, &HEADS_RANGE, m::FIELD_HEADS.into(), fixes);
    if !m.d_model.is_multiple_of(m.heads) {
        let divisor = (1..=m.heads)
            .rev()
            .find(|h| m.d_model.is_multiple_of(*h))
            .unwrap_or(1);
        let (h, d) = (m.heads, m.d_model);
        fixes.push(
            m::HeadsMadeDivisor {
                heads: &h,
                d_model: &d,
                divisor: &divisor,
            }
            .said(),
        );
        m.heads = divisor;
    }
    if !(m.position.base.is_finite() && BASE_RANGE.contains(&m.position.base)) {
        let base = if m.position.base.is_nan() {
            attnlab_core::position::DEFAULT_BASE
        } else {
            m.position
                .base
                .clamp(*BASE_RANGE.start(), *BASE_RANGE.end())
        };
        let (was, lo, hi) = (m.position.base, BASE_RANGE.start(), BASE_RANGE.end());
        fixes.push(
            m::BaseClamped {
                was: &was,
                lo,
                hi,
                base: &base,
            }
            .said(),
        );
        m.position.base = base;
    }
    if let Combine::Concat { d_pos } = &mut m.position.combine {
        clamp_usize(d_pos, &D_POS_RANGE, named("d_pos"), fixes);
        if *d_pos % 2 == 1 {
            let (odd, even) = (*d_pos, *d_pos - 1);
            fixes.push(
                m::DPosMadeEven {
                    odd: &odd,
                    even: &even,
                }
                .said(),
            );
            *d_pos -= 1;
        }
    }
}

pub(super) fn repair_name(state: &mut LabState, i: usize, fixes: &mut Vec<Said>) {
    let cut: String = state.variants[i]
        .name
        .trim()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    let mut fixed = cut.trim_end().to_string();
    let taken = |n: &str, s: &LabState| s.variants[..i].iter().any(|v| v.name == n);
    if fixed.is_empty() || taken(&fixed, state) {
        fixed = ('A'..='Z')
            .map(String::from)
            .find(|n| !state.variants.iter().any(|v| &v.name == n))
            .unwrap_or_else(|| format!("V{}", i + 1));
    }
    if fixed != state.variants[i].name {
        let n = i + 1;
        fixes.push(
            m::VariantRenamed {
                n: &n,
                name: &fixed,
                max: &MAX_NAME_CHARS,
            }
            .said(),
        );
        state.variants[i].name = fixed;
    }
}

pub(super) fn repair_variant(v: &mut Variant, fixes: &mut Vec<Said>) {
    let name = v.name.clone();
    let (lo, hi) = (*TEMPERATURE_RANGE.start(), *TEMPERATURE_RANGE.end());
    if !(v.temperature.is_finite() && TEMPERATURE_RANGE.contains(&v.temperature)) {
        let t = if v.temperature.is_nan() {
            1.0
        } else {
            v.temperature.clamp(lo, hi)
        };
        let (was, lo, hi, now) = (
            number::full(v.temperature),
            number::full(lo),
            number::full(hi),
            number::full(t),
        );
        fixes.push(
            m::TemperatureClamped {
                name: &name,
                was: &was,
                lo: &lo,
                hi: &hi,
                now: &now,
            }
            .said(),
        );
        v.temperature = t;
    }
    let what = |s: Said| {
        Said::of(|lang| {
            m::InVariant {
                name: &name,
                what: &s.get(lang),
            }
            .say(lang)
        })
    };
    clamp_usize(
        &mut v.linformer_k,
        &LINFORMER_K_RANGE,
        what(named("Linformer k")),
        fixes,
    );
    if let Some(r) = &mut v.masks.window {
        let radius = what(m::FIELD_WINDOW_RADIUS.into());
        clamp_usize(r, &WINDOW_RANGE, radius, fixes);
    }
    if let Some(s) = &mut v.masks.strided {
        let stride = what(m::FIELD_STRIDE.into());
        clamp_usize(s, &STRIDE_RANGE, stride, fixes);
    }
    let global_before = v.masks.global.len();
    v.masks.global.sort_unstable();
    v.masks.global.dedup();
    v.masks.global.retain(|&g| g < MAX_TOKENS);
    let custom_before = v.masks.custom.len();
    v.masks.custom.sort_unstable();
    v.masks.custom.dedup();
    v.masks
        .custom
        .retain(|&(i, j)| i < MAX_TOKENS && j < MAX_TOKENS);
    if v.masks.global.len() != global_before || v.masks.custom.len() != custom_before {
        fixes.push(what(m::MaskIndicesDropped { max: &MAX_TOKENS }.said()));
    }
    repair_options(v, &what, fixes);
    for kind in v.masks.on() {
        if let (Some(en), Some(zh)) = (
            v.why_not_mask(kind, Lang::En),
            v.why_not_mask(kind, Lang::Zh),
        ) {
            v.masks.turn_off(kind);
            let said = Said::new(en, zh);
            fixes.push(what(Said::of(|lang| {
                m::MaskTurnedOff {
                    mask: &kind.shown(lang),
                    why: &said.get(lang),
                }
                .say(lang)
            })));
        }
    }
}

pub(super) fn repair_view(view: &mut View, variants: usize, heads: usize, fixes: &mut Vec<Said>) {
    if let Some(zoom) = view.zoom {
        let last = MAX_TOKENS - 1;
        let fixed = Zoom::new(
            (zoom.queries.0.min(last), zoom.queries.1.min(last)),
            (zoom.keys.0.min(last), zoom.keys.1.min(last)),
        );
        if fixed != zoom {
            let said = |z: Zoom, lang: Lang| {
                let ((a, b), (c, d)) = (z.queries, z.keys);
                m::ZoomRange {
                    a: &a,
                    b: &b,
                    c: &c,
                    d: &d,
                }
                .say(lang)
            };
            fixes.push(Said::of(|lang| {
                m::ZoomClamped {
                    was: &said(zoom, lang),
                    last: &last,
                    now: &said(fixed, lang),
                }
                .say(lang)
            }));
            view.zoom = Some(fixed);
        }
    }
    let threshold = view.lines_threshold;
    let (lo, hi) = (*LINES_THRESHOLD_RANGE.start(), *LINES_THRESHOLD_RANGE.end());
    let fixed = threshold.clamp(lo, hi);
    if fixed != threshold {
        let weight = |t: usize| number::full(t as f32 / 1000.0);
        let (was, lo, hi, now) = (weight(threshold), weight(lo), weight(hi), weight(fixed));
        fixes.push(
            m::LinesThresholdClamped {
                was: &was,
                lo: &lo,
                hi: &hi,
                now: &now,
            }
            .said(),
        );
        view.lines_threshold = fixed;
    }
    let before = *view;
    view.variant = view.variant.min(variants - 1);
    view.head = view.head.min(heads.max(1) - 1);
    let (a, b) = view.compare;
    view.compare = if variants < 2 {
        (0, 0)
    } else if a != b && a < variants && b < variants {
        (a, b)
    } else {
        (0, 1)
    };
    if *view != before {
        fixes.push(m::VIEW_RESET.into());
    }
}

/// Clamps `value` into `range` (a value that is not a number becomes `default`), saying
/// so.
fn clamp_f32(
    value: &mut f32,
    range: &std::ops::RangeInclusive<f32>,
    default: f32,
    what: Said,
    fixes: &mut Vec<Said>,
) {
    let fixed = if value.is_nan() {
        default
    } else {
        value.clamp(*range.start(), *range.end())
    };
    if fixed != *value || !value.is_finite() {
        let (was, lo, hi, now) = (
            number::full(*value),
            number::full(*range.start()),
            number::full(*range.end()),
            number::full(fixed),
        );
        fixes.push(Said::of(|lang| {
            m::Clamped {
                what: &what.get(lang),
                value: &was,
                lo: &lo,
                hi: &hi,
                clamped: &now,
            }
            .say(lang)
        }));
        *value = fixed;
    }
}

/// The options' values into their ranges, and the options a kind does not take off.
fn repair_options(v: &mut Variant, what: &dyn Fn(Said) -> Said, fixes: &mut Vec<Said>) {
    use attnlab_core::attention::AttentionKind;
    use attnlab_core::rope::RopeScaling;

    use super::options::{KindOption, decayed_scores_with};
    use crate::state::{
        DECAY_RANGE, DEFAULT_DECAY, DEFAULT_LAMBDA, DEFAULT_ROPE_FACTOR, DEFAULT_ROPE_ORIGINAL,
        DEFAULT_SOFTCAP, FEATURES_RANGE, LAMBDA_RANGE, ROPE_BASE_RANGE, ROPE_FACTOR_RANGE,
        ROPE_ORIGINAL_RANGE, SIGMOID_BIAS_RANGE, SINK_LOGIT_RANGE, SINKS_RANGE, SOFTCAP_RANGE,
        TILES_RANGE,
    };
    if let Some(rope) = &mut v.rope {
        rope.query_positions = None;
        rope.key_positions = None;
        let base = what(m::FIELD_ROPE_BASE.into());
        clamp_f32(&mut rope.base, &ROPE_BASE_RANGE, 10000.0, base, fixes);
        match &mut rope.scaling {
            RopeScaling::None => {}
            RopeScaling::Linear { factor } | RopeScaling::Ntk { factor } => {
                let f = what(m::FIELD_ROPE_FACTOR.into());
                clamp_f32(factor, &ROPE_FACTOR_RANGE, DEFAULT_ROPE_FACTOR, f, fixes);
            }
            RopeScaling::Yarn {
                factor,
                original_max_positions,
                beta_fast,
                beta_slow,
            } => {
                let f = what(m::FIELD_ROPE_FACTOR.into());
                clamp_f32(factor, &ROPE_FACTOR_RANGE, DEFAULT_ROPE_FACTOR, f, fixes);
                let l = what(m::FIELD_ROPE_ORIGINAL.into());
                let original = DEFAULT_ROPE_ORIGINAL;
                clamp_f32(
                    original_max_positions,
                    &ROPE_ORIGINAL_RANGE,
                    original,
                    l,
                    fixes,
                );
                // Not knobs of the lab: the paper's values.
                (*beta_fast, *beta_slow) = (32.0, 1.0);
            }
        }
    }
    if let Some(c) = &mut v.softcap {
        let f = what(m::FIELD_SOFTCAP.into());
        clamp_f32(c, &SOFTCAP_RANGE, DEFAULT_SOFTCAP, f, fixes);
    }
    if let Some(s) = &mut v.masks.sinks {
        clamp_usize(s, &SINKS_RANGE, what(m::FIELD_SINKS.into()), fixes);
    }
    if let Some(b) = &mut v.tiles {
        clamp_usize(b, &TILES_RANGE, what(m::FIELD_TILES.into()), fixes);
    }
    if let Some(b) = &mut v.sigmoid_bias {
        let f = what(m::FIELD_SIGMOID_BIAS.into());
        clamp_f32(b, &SIGMOID_BIAS_RANGE, 0.0, f, fixes);
    }
    let f = what(m::FIELD_LAMBDA.into());
    clamp_f32(&mut v.lambda, &LAMBDA_RANGE, DEFAULT_LAMBDA, f, fixes);
    let f = what(m::FIELD_DECAY.into());
    clamp_f32(&mut v.decay, &DECAY_RANGE, DEFAULT_DECAY, f, fixes);
    let f = what(m::FIELD_SINK_LOGIT.into());
    clamp_f32(&mut v.sink_logit, &SINK_LOGIT_RANGE, 0.0, f, fixes);
    let f = what(m::FIELD_FEATURES.into());
    clamp_usize(&mut v.features, &FEATURES_RANGE, f, fixes);
    for option in KindOption::ALL {
        if option.is_on(v) && !option.allowed(v.attention) {
            option.turn_off(v);
            let kind = v.attention;
            fixes.push(what(Said::of(|lang| {
                m::OptionTurnedOff {
                    option: &option.name().get(lang),
                    why: &option.why_not_for(kind, lang),
                }
                .say(lang)
            })));
        }
    }
    if v.attention == AttentionKind::DecayedLinear && !decayed_scores_with(v.score) {
        v.score = attnlab_core::score::ScoreFunction::ScaledDot;
        fixes.push(what(Said::of(|lang| {
            m::ScoreMadeScaled {
                why: &m::DECAYED_SCORE.get(lang),
            }
            .say(lang)
        })));
    }
}

/// What a variant's options need of the whole state: key/value groups that divide the
/// heads, RoPE's dims within `d_k`. (Decayed linear attention in cross-attention is
/// not repaired: it computes when the two texts have as many tokens, and the core says
/// why not otherwise, as for any shape.)
pub(super) fn repair_state_options(state: &mut LabState, fixes: &mut Vec<Said>) {
    use attnlab_core::rope::RopeScaling;

    let heads = state.model.heads;
    let d_k = state.model.d_k();
    for v in &mut state.variants {
        let name = v.name.clone();
        let what = |s: Said| {
            Said::of(|lang| {
                m::InVariant {
                    name: &name,
                    what: &s.get(lang),
                }
                .say(lang)
            })
        };
        if let Some(g) = v.kv_groups {
            let fixed = (1..=g.min(heads).max(1))
                .rev()
                .find(|d| heads.is_multiple_of(*d))
                .unwrap_or(1);
            if g == 0 || !heads.is_multiple_of(g) {
                fixes.push(what(
                    m::GroupsMade {
                        groups: &g,
                        heads: &heads,
                        fixed: &fixed,
                    }
                    .said(),
                ));
                v.kv_groups = Some(fixed);
            }
            if v.kv_groups == Some(heads) {
                // G = H is every head its own keys and values, as without groups.
                v.kv_groups = None;
            }
        }
        if let Some(rope) = &mut v.rope {
            if d_k < 2 {
                v.rope = None;
                fixes.push(what(m::RopeTurnedOff { d_k: &d_k }.said()));
            } else {
                let r = rope.dims(d_k);
                if r < 2 || r % 2 == 1 || r > d_k {
                    let now = (r.min(d_k) & !1).max(2);
                    fixes.push(what(
                        m::RopeDimsFixed {
                            was: &r,
                            d_k: &d_k,
                            now: &now,
                        }
                        .said(),
                    ));
                    rope.rotary_dims = (now != d_k).then_some(now);
                } else if rope.rotary_dims == Some(d_k) {
                    rope.rotary_dims = None;
                }
                if matches!(rope.scaling, RopeScaling::Ntk { .. }) && rope.dims(d_k) <= 2 {
                    rope.scaling = RopeScaling::None;
                    fixes.push(what(m::SCALING_MADE_NONE.into()));
                }
            }
        }
    }
}

/// In cross-attention, turns off every variant's causal mask, saying why: a target
/// position and a source position are not one sequence.
pub(super) fn repair_cross_causal(state: &mut LabState, fixes: &mut Vec<Said>) {
    if state.mode != Mode::Cross {
        return;
    }
    for v in state.variants.iter_mut().filter(|v| v.masks.causal) {
        v.masks.causal = false;
        let name = &v.name;
        fixes.push(Said::of(|lang| {
            let what = m::MaskTurnedOff {
                mask: &MaskKind::Causal.shown(lang),
                why: &m::CAUSAL_CROSS.get(lang),
            }
            .say(lang);
            m::InVariant { name, what: &what }.say(lang)
        }));
    }
}
