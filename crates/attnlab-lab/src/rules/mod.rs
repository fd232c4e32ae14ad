//! Which combinations of settings docs/maths.md allows, and why not.
//!
//! Every `why_not_*` method answers for one control, in the language asked for: `None`
//! when the choice is allowed, or one sentence (no trailing full stop) saying why it is
//! disabled, for the control's tooltip. `*_unused` methods say why a control has no
//! effect for the current choice (it is greyed out, never silently ignored).
//! [`LabState::problems`] lists every forbidden combination a state holds, and
//! [`LabState::repair`] fixes them, saying what it changed in every language: the
//! fragment decoder uses it on links that were edited by hand.

use attnlab_core::attention::AttentionKind;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, PositionKind};

use crate::explain::{kind_label, mask_limitation};
use crate::state::{
    D_MODEL_RANGE, D_POS_RANGE, HEADS_RANGE, LabState, MAX_VARIANTS, MaskKind, Mode, ModelConfig,
    PAD_RANGE, Variant,
};
use attnlab_i18n::msg::rules as m;
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};

/// The rules on the model settings: why a value cannot be chosen with the others.
pub trait ModelRules {
    /// Why `heads` heads cannot be chosen with the current `d_model` and projection.
    fn why_not_heads(&self, heads: usize, lang: Lang) -> Option<String>;
    /// Why `d_model` cannot be chosen with the current heads and position encoding.
    fn why_not_d_model(&self, d_model: usize, lang: Lang) -> Option<String>;
    /// Why the projection `projection` cannot be chosen.
    fn why_not_projection(&self, projection: Projection, lang: Lang) -> Option<String>;
    /// Why the position kind `kind` cannot be chosen (sinusoids need an even width).
    fn why_not_position(&self, kind: PositionKind, lang: Lang) -> Option<String>;
    /// Why the concatenated position width `d_pos` cannot be chosen.
    fn why_not_d_pos(&self, d_pos: usize, lang: Lang) -> Option<String>;
    /// Why the sinusoid base and layout have no effect.
    fn sinusoid_settings_unused(&self, lang: Lang) -> Option<&'static str>;
    /// Why `d_pos` has no effect.
    fn d_pos_unused(&self, lang: Lang) -> Option<&'static str>;
    /// Whether sinusoids are added to the word vectors (so `d_model` must be even).
    fn sinusoids_added(&self) -> bool;
}

impl ModelRules for ModelConfig {
    fn why_not_heads(&self, heads: usize, lang: Lang) -> Option<String> {
        if !HEADS_RANGE.contains(&heads) {
            let (lo, hi) = (HEADS_RANGE.start(), HEADS_RANGE.end());
            return Some(m::HeadsRange { lo, hi }.say(lang));
        }
        if self.projection == Projection::Identity && heads != 1 {
            return Some(m::IDENTITY_ONE_HEAD.get(lang).into());
        }
        if !self.d_model.is_multiple_of(heads) {
            let d_model = &self.d_model;
            return Some(
                m::HeadsDivide {
                    heads: &heads,
                    d_model,
                }
                .say(lang),
            );
        }
        None
    }

    fn why_not_d_model(&self, d_model: usize, lang: Lang) -> Option<String> {
        if !D_MODEL_RANGE.contains(&d_model) {
            let (lo, hi) = (D_MODEL_RANGE.start(), D_MODEL_RANGE.end());
            return Some(m::DModelRange { lo, hi }.say(lang));
        }
        if self.heads > 0 && !d_model.is_multiple_of(self.heads) {
            return Some(
                m::DModelDivide {
                    d_model: &d_model,
                    heads: &self.heads,
                }
                .say(lang),
            );
        }
        if self.sinusoids_added() && d_model % 2 == 1 {
            return Some(m::DModelEven { d_model: &d_model }.say(lang));
        }
        None
    }

    fn why_not_projection(&self, projection: Projection, lang: Lang) -> Option<String> {
        (projection == Projection::Identity && self.heads != 1)
            .then(|| m::IDENTITY_SET_HEADS.get(lang).into())
    }

    fn why_not_position(&self, kind: PositionKind, lang: Lang) -> Option<String> {
        let width = self.position.width(self.d_model);
        (kind == PositionKind::Sinusoidal && width % 2 == 1)
            .then(|| m::SinusoidWidthEven { width: &width }.say(lang))
    }

    fn why_not_d_pos(&self, d_pos: usize, lang: Lang) -> Option<String> {
        if !D_POS_RANGE.contains(&d_pos) {
            let (lo, hi) = (D_POS_RANGE.start(), D_POS_RANGE.end());
            return Some(m::DPosRange { lo, hi }.say(lang));
        }
        (d_pos % 2 == 1).then(|| m::D_POS_EVEN.get(lang).to_string())
    }

    fn sinusoid_settings_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.position.kind != PositionKind::Sinusoidal)
            .then(|| m::SINUSOID_SETTINGS_UNUSED.get(lang))
    }

    fn d_pos_unused(&self, lang: Lang) -> Option<&'static str> {
        match self.position.combine {
            Combine::Add => Some(m::D_POS_UNUSED.get(lang)),
            Combine::Concat { .. } => None,
        }
    }

    fn sinusoids_added(&self) -> bool {
        self.position.kind == PositionKind::Sinusoidal && self.position.combine == Combine::Add
    }
}

impl Variant {
    /// Why the mask `kind` cannot be turned on with this variant's attention kind.
    pub fn why_not_mask(&self, kind: MaskKind, lang: Lang) -> Option<String> {
        (!self.attention.supports_mask(kind.core_name())).then(|| {
            let (who, mask) = (kind_label(self.attention, lang), kind.shown(lang));
            let limit = mask_limitation(self.attention, lang);
            m::MaskUnsupported {
                who: &who,
                mask: &mask,
                limit: &limit,
            }
            .say(lang)
        })
    }

    /// [`Variant::why_not_mask`] in `mode`: besides the kind's own limits, a causal mask
    /// has nothing to order across the two sentences of cross-attention.
    pub fn why_not_mask_in(&self, kind: MaskKind, mode: Mode, lang: Lang) -> Option<String> {
        if kind == MaskKind::Causal && mode == Mode::Cross {
            return Some(m::CAUSAL_CROSS.get(lang).to_string());
        }
        self.why_not_mask(kind, lang)
    }

    /// Why this variant cannot switch to the attention kind `kind`: a mask that is on
    /// would have to be dropped (turn it off first; nothing is dropped silently).
    pub fn why_not_attention(&self, kind: AttentionKind, lang: Lang) -> Option<String> {
        let mask = self
            .masks
            .on()
            .into_iter()
            .find(|m| !kind.supports_mask(m.core_name()))?;
        let (who, shown) = (kind_label(kind, lang), mask.shown(lang));
        let limit = mask_limitation(kind, lang);
        Some(
            m::MaskOnUnsupported {
                who: &who,
                mask: &shown,
                limit: &limit,
            }
            .say(lang),
        )
    }

    /// Why the temperature has no effect (kernel and efficient attention have no logits).
    pub fn temperature_unused(&self, lang: Lang) -> Option<String> {
        (!self.attention.uses_temperature()).then(|| {
            let who = kind_label(self.attention, lang);
            m::TemperatureUnused { who: &who }.say(lang)
        })
    }

    /// Why the score function has no effect.
    pub fn score_unused(&self, lang: Lang) -> Option<&'static str> {
        let why = match self.attention {
            _ if self.attention.uses_score_function() => return None,
            AttentionKind::Linformer => m::SCORE_UNUSED_LINFORMER,
            AttentionKind::Efficient => m::SCORE_UNUSED_EFFICIENT,
            _ => m::SCORE_UNUSED_LINEAR,
        };
        Some(why.get(lang))
    }

    /// Why Linformer's `k` has no effect.
    pub fn linformer_k_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.attention != AttentionKind::Linformer).then(|| m::LINFORMER_K_UNUSED.get(lang))
    }
}

/// Why another variant cannot be added.
pub const NO_MORE_VARIANTS: Tr = m::NO_MORE_VARIANTS;

/// Why the last variant cannot be removed.
pub const LAST_VARIANT: Tr = m::LAST_VARIANT;

impl LabState {
    /// Why another variant cannot be added.
    pub fn why_not_add_variant(&self) -> Option<Tr> {
        (self.variants.len() >= MAX_VARIANTS).then_some(NO_MORE_VARIANTS)
    }

    /// Why a variant cannot be removed.
    pub fn why_not_remove_variant(&self) -> Option<Tr> {
        (self.variants.len() <= 1).then_some(LAST_VARIANT)
    }

    /// A hint when a variant's padding mask has nothing to block.
    pub fn padding_hint(&self, lang: Lang) -> Option<&'static str> {
        (self.pad_to.is_none() && self.variants.iter().any(|v| v.masks.padding))
            .then(|| m::PADDING_HINT.get(lang))
    }

    /// Switches to self- or cross-attention ([`LabState::set_mode`]); in cross-attention
    /// every variant's causal mask is turned off, as [`LabState::repair`] would, and
    /// what was turned off is said as one notice (`None` when nothing was).
    pub fn switch_mode(&mut self, mode: Mode) -> Option<Said> {
        self.set_mode(mode);
        let mut fixes = Vec::new();
        repair_cross_causal(self, &mut fixes);
        (!fixes.is_empty()).then(|| {
            Said::of(|lang| {
                let said: Vec<&str> = fixes.iter().map(|f| f.get(lang)).collect();
                let separator = attnlab_i18n::msg::link::LINK_REPAIRS_SEPARATOR.get(lang);
                m::CrossModeRepaired {
                    repairs: &said.join(separator),
                }
                .say(lang)
            })
        })
    }

    /// Every forbidden combination or out-of-range value this state holds, as the
    /// sentences [`LabState::repair`] would report. Empty for a state the app can use.
    pub fn problems(&self) -> Vec<Said> {
        self.clone().repair()
    }

    /// Brings every value into range and every combination within what docs/maths.md allows,
    /// and says what it changed, one sentence each in every language (empty when nothing
    /// was wrong).
    pub fn repair(&mut self) -> Vec<Said> {
        let mut fixes = Vec::new();
        for (what, text) in [
            ("text", &mut self.text),
            ("source", &mut self.source),
            ("pair", &mut self.pair),
        ] {
            let (clipped, said) = crate::tokens::clip_text(text);
            if said.is_some() {
                let max = &crate::tokens::MAX_TEXT_CHARS;
                fixes.push(m::TextClipped { what, max }.said());
                *text = clipped;
            }
            let controls = text.chars().filter(|&c| unreadable_control(c)).count();
            if controls > 0 {
                *text = text
                    .chars()
                    .map(|c| if unreadable_control(c) { '\u{FFFD}' } else { c })
                    .collect();
                let controls = &controls;
                fixes.push(m::TextControls { what, controls }.said());
            }
        }
        repair_model(&mut self.model, &mut fixes);
        if let Some(pad) = &mut self.pad_to {
            clamp_usize(pad, &PAD_RANGE, m::FIELD_PAD_TO.into(), &mut fixes);
        }
        if self.variants.is_empty() {
            self.variants = LabState::default().variants;
            fixes.push(m::DEFAULT_VARIANTS_ADDED.into());
        }
        if self.variants.len() > MAX_VARIANTS {
            self.variants.truncate(MAX_VARIANTS);
            fixes.push(m::VariantsTruncated { max: &MAX_VARIANTS }.said());
        }
        for i in 0..self.variants.len() {
            repair_name(self, i, &mut fixes);
            let v = &mut self.variants[i];
            repair_variant(v, &mut fixes);
        }
        repair_state_options(self, &mut fixes);
        repair_cross_causal(self, &mut fixes);
        repair_view(
            &mut self.view,
            self.variants.len(),
            self.model.heads,
            &mut fixes,
        );
        if let Some(view) = &mut self.pretrained {
            fixes.extend(view.repair());
        }
        fixes
    }
}

/// A control character a text cannot show (tabs and line breaks it can).
fn unreadable_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

mod options;
mod repair;

pub use options::{KindOption, decayed_scores_with, why_not_differential_on};
use repair::{
    clamp_usize, repair_cross_causal, repair_model, repair_name, repair_state_options,
    repair_variant, repair_view,
};

#[cfg(test)]
mod tests;
