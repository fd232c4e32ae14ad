//! What [`LabState::repair`](crate::LabState::repair) changes in a state, one value at a
//! time, and how it says so in every language.

use attnlab_core::model::Projection;
use attnlab_core::position::Combine;
use attnlab_plot::number;

use super::ModelRules;
use crate::state::{
    BASE_RANGE, D_MODEL_RANGE, D_POS_RANGE, HEADS_RANGE, LINES_THRESHOLD_RANGE, LINFORMER_K_RANGE,
    LabState, MAX_NAME_CHARS, MAX_TOKENS, ModelConfig, STRIDE_RANGE, TEMPERATURE_RANGE, Variant,
    View, WINDOW_RANGE, Zoom,
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
