//! The rules of a variant's options beyond the score, τ, the kind and the masks: each is
//! refused exactly where the core refuses it (docs/tensors.md's choices), so a variant
//! can never reach a combination the core would refuse.

use attnlab_core::attention::AttentionKind;
use attnlab_core::rope::RopeScaling;
use attnlab_core::score::ScoreFunction;

use crate::explain::kind_label;
use crate::state::{LabState, Mode, ModelConfig, Variant};
use attnlab_i18n::Lang;
use attnlab_i18n::Tr;
use attnlab_i18n::msg::rules as m;

/// An option of a variant that only some kinds take, and is refused by the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindOption {
    /// ALiBi's bias on the logits (the softmax family).
    Alibi,
    /// The softcap of the logits (the softmax family).
    Softcap,
    /// The tiles of the online softmax (softmax only).
    Tiles,
}

impl KindOption {
    /// Every option, in the panel's order.
    pub const ALL: [KindOption; 3] = [KindOption::Alibi, KindOption::Softcap, KindOption::Tiles];

    /// Whether the kind `kind` takes this option.
    pub fn allowed(self, kind: AttentionKind) -> bool {
        match self {
            KindOption::Alibi | KindOption::Softcap => kind.is_softmax_family(),
            KindOption::Tiles => kind == AttentionKind::Softmax,
        }
    }

    /// Whether the option is on in `v`.
    pub fn is_on(self, v: &Variant) -> bool {
        match self {
            KindOption::Alibi => v.alibi,
            KindOption::Softcap => v.softcap.is_some(),
            KindOption::Tiles => v.tiles.is_some(),
        }
    }

    /// Turns the option off in `v`.
    pub fn turn_off(self, v: &mut Variant) {
        match self {
            KindOption::Alibi => v.alibi = false,
            KindOption::Softcap => v.softcap = None,
            KindOption::Tiles => v.tiles = None,
        }
    }

    /// Its name in a sentence.
    pub fn name(self) -> Tr {
        match self {
            KindOption::Alibi => m::OPTION_ALIBI,
            KindOption::Softcap => m::OPTION_SOFTCAP,
            KindOption::Tiles => m::OPTION_TILES,
        }
    }

    /// Why `kind` does not take it, in `lang`.
    pub fn why_not_for(self, kind: AttentionKind, lang: Lang) -> String {
        match self {
            KindOption::Tiles => m::TILES_UNUSED.get(lang).to_string(),
            KindOption::Alibi | KindOption::Softcap => {
                let who = kind_label(kind, lang);
                m::LogitsOptionUnused { who: &who }.say(lang)
            }
        }
    }
}

/// Whether decayed linear attention can score with `score` (the core refuses the others).
pub fn decayed_scores_with(score: ScoreFunction) -> bool {
    matches!(score, ScoreFunction::Dot | ScoreFunction::ScaledDot)
}

impl Variant {
    /// Why this variant cannot switch to `kind` because of an option that is on (or its
    /// score function): nothing is dropped silently, turn the option off first.
    pub fn why_not_kind_options(&self, kind: AttentionKind, lang: Lang) -> Option<String> {
        if let Some(option) = KindOption::ALL
            .into_iter()
            .find(|o| o.is_on(self) && !o.allowed(kind))
        {
            let who = kind_label(kind, lang);
            return Some(
                m::OptionOnUnsupported {
                    who: &who,
                    option: &option.name().get(lang),
                    why: &option.why_not_for(kind, lang),
                }
                .say(lang),
            );
        }
        (kind == AttentionKind::DecayedLinear && !decayed_scores_with(self.score))
            .then(|| m::DECAYED_NEEDS_DOT.get(lang).to_string())
    }

    /// Why the score function `score` cannot be chosen with this variant's kind.
    pub fn why_not_score(&self, score: ScoreFunction, lang: Lang) -> Option<&'static str> {
        (self.attention == AttentionKind::DecayedLinear && !decayed_scores_with(score))
            .then(|| m::DECAYED_SCORE.get(lang))
    }

    /// Why `option` has no effect with this variant's kind (its control is disabled).
    pub fn option_unused(&self, option: KindOption, lang: Lang) -> Option<String> {
        (!option.allowed(self.attention)).then(|| option.why_not_for(self.attention, lang))
    }

    /// Why sigmoid attention's bias has no effect.
    pub fn sigmoid_bias_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.attention != AttentionKind::Sigmoid).then(|| m::SIGMOID_BIAS_UNUSED.get(lang))
    }

    /// Why differential attention's λ has no effect.
    pub fn lambda_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.attention != AttentionKind::Differential).then(|| m::LAMBDA_UNUSED.get(lang))
    }

    /// Why the decay γ has no effect.
    pub fn decay_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.attention != AttentionKind::DecayedLinear).then(|| m::DECAY_UNUSED.get(lang))
    }

    /// Why the sink logit has no effect.
    pub fn sink_logit_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.attention != AttentionKind::Sink).then(|| m::SINK_LOGIT_UNUSED.get(lang))
    }

    /// Why FAVOR+'s number of features has no effect.
    pub fn features_unused(&self, lang: Lang) -> Option<&'static str> {
        (self.attention != AttentionKind::Favor).then(|| m::FEATURES_UNUSED.get(lang))
    }

    /// Why RoPE's scaling, factor and trained length have no effect.
    pub fn rope_scaling_unused(&self, lang: Lang) -> Option<&'static str> {
        self.rope
            .is_none()
            .then(|| m::ROPE_SCALING_UNUSED.get(lang))
    }
}

impl LabState {
    /// Why the model settings `model` cannot replace this state's: a variant's key/value
    /// groups would not divide its heads, or its RoPE would not fit its `d_k` (change the
    /// variant first: nothing is changed silently).
    pub fn why_not_model_for_variants(&self, model: &ModelConfig, lang: Lang) -> Option<String> {
        let (heads, d_k) = (model.heads, model.d_k());
        self.variants.iter().find_map(|v| {
            let name = &v.name;
            if let Some(g) = v.kv_groups
                && (g == 0 || heads == 0 || !heads.is_multiple_of(g))
            {
                return Some(m::HeadsGroupsVariant { name, groups: &g }.say(lang));
            }
            let rope = v.rope.as_ref()?;
            let r = rope.dims(d_k);
            (d_k < 2 || r > d_k || r % 2 == 1 || r < 2).then(|| {
                m::DKRopeVariant {
                    name,
                    r: &r,
                    d_k: &d_k,
                }
                .say(lang)
            })
        })
    }

    /// Why variant `v` (of this state) cannot switch to the kind `kind`: a mask or an
    /// option that is on, its score function, or the mode.
    pub fn why_not_kind(&self, v: &Variant, kind: AttentionKind, lang: Lang) -> Option<String> {
        v.why_not_attention(kind, lang)
            .or_else(|| v.why_not_kind_options(kind, lang))
            .or_else(|| {
                (kind == AttentionKind::DecayedLinear && self.mode == Mode::Cross)
                    .then(|| m::DECAYED_CROSS.get(lang).to_string())
            })
    }

    /// Why `groups` key/value groups cannot be chosen: they must divide the heads.
    pub fn why_not_kv_groups(&self, groups: usize, lang: Lang) -> Option<String> {
        let heads = self.model.heads;
        (groups == 0 || !heads.is_multiple_of(groups)).then(|| {
            m::GroupsDivide {
                groups: &groups,
                heads: &heads,
            }
            .say(lang)
        })
    }

    /// Why RoPE cannot be turned on: a head needs a pair of dimensions to turn.
    pub fn why_not_rope(&self, lang: Lang) -> Option<String> {
        let d_k = self.model.d_k();
        (d_k < 2).then(|| m::RopeNarrow { d_k: &d_k }.say(lang))
    }

    /// The rotary dims RoPE turns on this state's heads when turned on: every dimension,
    /// or all but the last of an odd `d_k`.
    pub fn rope_dims_for(&self) -> Option<usize> {
        let d_k = self.model.d_k();
        (d_k % 2 == 1).then(|| d_k - 1)
    }

    /// Why RoPE's rotary dims `r` cannot be chosen: even, from 2 to `d_k`.
    pub fn why_not_rotary_dims(&self, r: usize, lang: Lang) -> Option<String> {
        let d_k = self.model.d_k();
        (r < 2 || r % 2 == 1 || r > d_k).then(|| m::RopeDims { d_k: &d_k }.say(lang))
    }

    /// Why the RoPE scaling `scaling` cannot be chosen for variant `v` (NTK needs r > 2).
    pub fn why_not_scaling(
        &self,
        v: &Variant,
        scaling: RopeScaling,
        lang: Lang,
    ) -> Option<&'static str> {
        let r = v
            .rope
            .as_ref()
            .map_or(self.model.d_k(), |rope| rope.dims(self.model.d_k()));
        (matches!(scaling, RopeScaling::Ntk { .. }) && r <= 2).then(|| m::ROPE_NTK_TWO.get(lang))
    }
}

/// Why differential attention cannot run on brought tensors whose heads have no second
/// queries and keys (`has_second`): nothing is drawn in their place.
pub fn why_not_differential_on(has_second: bool, lang: Lang) -> Option<&'static str> {
    (!has_second).then(|| m::SECOND_NOT_BROUGHT.get(lang))
}
