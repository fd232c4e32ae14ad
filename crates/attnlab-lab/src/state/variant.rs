//! One attention variant: its kind, score, knobs and masks, the core spec it forms and
//! how it is described to people.

use attnlab_core::alibi::Alibi;
use attnlab_core::attention::{AttentionKind, AttentionSpec, DEFAULT_LAMBDA};
use attnlab_core::model::{HeadParams, ModelConfig};
use attnlab_core::rope::{Rope, RopeScaling};
use attnlab_core::score::ScoreFunction;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::lab;

use super::masks::{MaskKind, Masks};
use super::options::{DEFAULT_DECAY, DEFAULT_FEATURES, DEFAULT_LINFORMER_K, scaling_factor};

/// One attention variant: how the weights are formed from the shared Q, K and V.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// A short name (at most [`MAX_NAME_CHARS`](super::MAX_NAME_CHARS) characters), e.g. `"A"`.
    pub name: String,
    /// The score function (softmax attention only).
    pub score: ScoreFunction,
    /// τ in [`TEMPERATURE_RANGE`](super::TEMPERATURE_RANGE): `logits = score / τ` (softmax and Linformer).
    pub temperature: f32,
    /// Softmax or a linear variant.
    pub attention: AttentionKind,
    /// Linformer's number of projected keys `k` (Linformer only).
    pub linformer_k: usize,
    /// The masks.
    pub masks: Masks,
    /// RoPE: q and k turned by their positions (every kind); `None`: off. Its positions
    /// are always the tokens' indices.
    pub rope: Option<Rope>,
    /// ALiBi with the paper's slopes for the model's heads (the softmax family).
    pub alibi: bool,
    /// The softcap `c` of the logits (the softmax family); `None`: off.
    pub softcap: Option<f32>,
    /// `G` groups of keys and values shared by the heads (a divisor of the heads: 1 is
    /// multi-query attention); `None`: every head its own (multi-head attention).
    pub kv_groups: Option<usize>,
    /// The tile width `B` of the online softmax (softmax only); `None`: one pass.
    pub tiles: Option<usize>,
    /// Sigmoid attention's bias `b`; `None`: `−ln m`.
    pub sigmoid_bias: Option<f32>,
    /// Differential attention's `λ`.
    pub lambda: f32,
    /// Decayed linear attention's `γ`.
    pub decay: f32,
    /// Sink attention's logit `s_h` (every head the same).
    pub sink_logit: f32,
    /// FAVOR+'s number of random features `r`.
    pub features: usize,
}

impl Variant {
    /// The Transformer's scaled dot-product softmax attention, τ = 1, no mask.
    pub fn named(name: impl Into<String>) -> Variant {
        Variant {
            name: name.into(),
            score: ScoreFunction::ScaledDot,
            temperature: 1.0,
            attention: AttentionKind::Softmax,
            linformer_k: DEFAULT_LINFORMER_K,
            masks: Masks::default(),
            rope: None,
            alibi: false,
            softcap: None,
            kv_groups: None,
            tiles: None,
            sigmoid_bias: None,
            lambda: DEFAULT_LAMBDA,
            decay: DEFAULT_DECAY,
            sink_logit: 0.0,
            features: DEFAULT_FEATURES,
        }
    }

    /// The core's attention spec for `n` queries and `m` keys, of which `padding_keys`
    /// are padding. The parameters of a kind go only to that kind (a sigmoid's bias kept
    /// in a variant that is now softmax is not softmax's).
    pub fn spec(&self, n: usize, m: usize, padding_keys: &[usize]) -> AttentionSpec {
        AttentionSpec {
            score: self.score,
            temperature: self.temperature,
            attention: self.attention,
            mask: self.masks.spec(n, m, padding_keys),
            rope: self.rope.clone(),
            alibi: self.alibi.then_some(Alibi::Paper),
            softcap: self.softcap,
            tiles: self.tiles,
            sigmoid_bias: self
                .sigmoid_bias
                .filter(|_| self.attention == AttentionKind::Sigmoid),
            lambda: self.lambda,
            gates: None,
        }
    }

    /// What this variant's heads need beyond Q, K and V: Linformer's `k`, FAVOR+'s `r`,
    /// the sink logit, the decay and the key/value groups. `draw_second`: whether
    /// differential attention's second queries and keys are the seeded ones (the toy
    /// model) or must come with the heads (brought tensors).
    pub fn head_params(&self, draw_second: bool) -> HeadParams {
        HeadParams {
            linformer_k: self.linformer_k,
            features: self.features,
            sink: self.sink_logit,
            decay: self.decay,
            kv_groups: self.kv_groups,
            draw_second,
        }
    }

    /// A short human description in `lang`, e.g.
    /// `"scaled dot-product softmax · 4 heads · d_model 64"`: what sets this variant
    /// apart ([`Variant::describe_own`]), then the model every variant shares.
    pub fn describe(&self, model: &ModelConfig, lang: Lang) -> String {
        format!(
            "{} \u{b7} {}",
            self.describe_own(lang),
            model_label(model, lang)
        )
    }

    /// What sets this variant apart, in `lang`: its score and attention, τ when it is
    /// not 1 and the masks that are on, e.g. `"dot-product softmax · τ 0.5 · causal"`.
    /// Titles put it first, so a title cut to a narrow panel still shows where two
    /// variants differ.
    pub fn describe_own(&self, lang: Lang) -> String {
        let score = score_label(self.score, lang);
        let k = self.linformer_k;
        let num = |x: f32| attnlab_plot::number::rounded(x, 3);
        let own_kind = || crate::explain::kind_label(self.attention, lang);
        let kind = match self.attention {
            AttentionKind::Softmax => format!("{score} softmax"),
            AttentionKind::Linformer => format!("Linformer (k = {k})"),
            AttentionKind::Elu1
            | AttentionKind::Relu
            | AttentionKind::Taylor
            | AttentionKind::Efficient => lab::KindLinear {
                kind: &self.attention.name(),
            }
            .say(lang),
            AttentionKind::Sigmoid => match self.sigmoid_bias {
                Some(b) => format!("{score} {} (b = {})", own_kind(), num(b)),
                None => format!(
                    "{score} {} ({})",
                    own_kind(),
                    lab::DESCRIBE_SIGMOID_DEFAULT_BIAS.get(lang)
                ),
            },
            AttentionKind::Sink => {
                format!("{score} {} (s = {})", own_kind(), num(self.sink_logit))
            }
            AttentionKind::Differential => {
                format!("{score} {} (λ = {})", own_kind(), num(self.lambda))
            }
            AttentionKind::DecayedLinear => {
                format!("{score} {} (γ = {})", own_kind(), num(self.decay))
            }
            AttentionKind::Favor => format!("{} (r = {})", own_kind(), self.features),
            AttentionKind::SoftmaxPlusOne | AttentionKind::Softpick => {
                format!("{score} {}", own_kind())
            }
        };
        let mut own = vec![kind];
        if let Some(rope) = &self.rope {
            let mut r = format!("RoPE {}", num(rope.base));
            let short = match rope.scaling {
                RopeScaling::None => None,
                RopeScaling::Linear { .. } => Some(lab::ROPE_SCALING_SHORT_LINEAR),
                RopeScaling::Ntk { .. } => Some(lab::ROPE_SCALING_SHORT_NTK),
                RopeScaling::Yarn { .. } => Some(lab::ROPE_SCALING_SHORT_YARN),
            };
            if let Some(name) = short {
                let s = scaling_factor(rope.scaling).unwrap_or(1.0);
                r.push_str(&format!(" {} ×{}", name.get(lang), num(s)));
            }
            own.push(r);
        }
        if self.alibi {
            own.push("ALiBi".into());
        }
        if let Some(c) = self.softcap {
            own.push(lab::DescribeSoftcap { c: &num(c) }.say(lang));
        }
        if let Some(g) = self.kv_groups {
            own.push(format!("G {g}"));
        }
        if let Some(b) = self.tiles {
            own.push(format!("B {b}"));
        }
        if self.temperature != 1.0 {
            own.push(format!(
                "τ {}",
                attnlab_plot::number::rounded(self.temperature, 3)
            ));
        }
        let masks: Vec<String> = self
            .masks
            .on()
            .into_iter()
            .map(|m| {
                let name = m.shown(lang);
                match m {
                    MaskKind::Window => format!("{name} {}", self.masks.window.unwrap_or(0)),
                    MaskKind::Strided => format!("{name} {}", self.masks.strided.unwrap_or(0)),
                    MaskKind::Global => format!("{name} ×{}", self.masks.global.len()),
                    MaskKind::Custom => format!("{name} ×{}", self.masks.custom.len()),
                    MaskKind::Sinks => format!("{name} {}", self.masks.sinks.unwrap_or(0)),
                    MaskKind::Causal | MaskKind::Padding => name.to_string(),
                }
            })
            .collect();
        if !masks.is_empty() {
            own.push(masks.join(lab::LIST_SEPARATOR.get(lang)));
        }
        own.join(" \u{b7} ")
    }
}

/// The model every variant shares, in `lang`: `"4 heads · d_model 64"`.
pub fn model_label(model: &ModelConfig, lang: Lang) -> String {
    lab::ModelLabel {
        heads: model.heads,
        d_model: &model.d_model,
    }
    .say(lang)
}

/// A score function for people in `lang`, e.g. `"scaled dot-product"`.
pub fn score_label(score: ScoreFunction, lang: Lang) -> &'static str {
    match score {
        ScoreFunction::Dot => lab::SCORE_DOT,
        ScoreFunction::ScaledDot => lab::SCORE_SCALED_DOT,
        ScoreFunction::General => lab::SCORE_GENERAL,
        ScoreFunction::Additive => lab::SCORE_ADDITIVE,
        ScoreFunction::Cosine => lab::SCORE_COSINE,
    }
    .get(lang)
}
