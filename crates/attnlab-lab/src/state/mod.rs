//! The whole configuration of the lab: the texts, the mode, the model settings shared by
//! every variant, one to four attention variants, and the view selections a shared link
//! restores. Plain data with a few editing methods; which combinations are allowed is in
//! [`crate::rules`], how it travels in a link in `attnlab_link`.

use std::ops::RangeInclusive;

use attnlab_core::alibi::Alibi;
use attnlab_core::attention::{AttentionKind, AttentionSpec};
use attnlab_core::mask::MaskSpec;
use attnlab_core::model::HeadParams;
pub use attnlab_core::model::ModelConfig;
use attnlab_core::rope::{Rope, RopeScaling};
use attnlab_core::score::ScoreFunction;
use ndarray::Array2;

use attnlab_i18n::Lang;
use attnlab_i18n::msg::lab;
use attnlab_i18n::said::Said;

mod options;
mod pretrained;
mod view;
pub use options::*;
pub use pretrained::{Checkpoint, PretrainedView, Relevance};
pub use view::{CompareWhat, DEFAULT_LINES_THRESHOLD, LINES_THRESHOLD_RANGE, Page, View, Zoom};

/// The sentence the lab opens with (the classic "what does *it* refer to?" example).
pub const DEFAULT_SENTENCE: &str = "The animal didn't cross the street because it was too tired";

/// The sentence the lab opens with for a first visit in 中文 (no link): the same question
/// of what a pronoun (它) refers to, one token per character.
pub const DEFAULT_SENTENCE_ZH: &str = "小猫坐在垫子上，因为它很累。";

/// The source (encoder) sentence of cross-attention mode: six characters, six tokens.
pub const DEFAULT_SOURCE: &str = "我爱机器学习";

/// The target (decoder) sentence that cross-attention mode opens with.
pub const DEFAULT_TARGET: &str = "I love machine learning";

/// The most tokens of one text that are computed and drawn. Longer texts are kept whole
/// (in the box and in the link); only their first `MAX_TOKENS` tokens are used.
pub const MAX_TOKENS: usize = 512;

/// The most variants shown side by side.
pub const MAX_VARIANTS: usize = 4;

/// The choices of `d_model`.
pub const D_MODEL_RANGE: RangeInclusive<usize> = 8..=512;

/// The choices of the number of heads (each must also divide `d_model`).
pub const HEADS_RANGE: RangeInclusive<usize> = 1..=16;

/// The choices of the temperature τ (a log slider in the app).
pub const TEMPERATURE_RANGE: RangeInclusive<f32> = 0.01..=100.0;

/// The choices of the sinusoid base (the Transformer's is 10000; docs/maths.md §2).
pub const BASE_RANGE: RangeInclusive<f64> = 2.0..=1e8;

/// The choices of the width of concatenated position vectors (even: sines and cosines
/// come in pairs).
pub const D_POS_RANGE: RangeInclusive<usize> = 2..=512;

/// The choices of "pad to length L".
pub const PAD_RANGE: RangeInclusive<usize> = 1..=MAX_TOKENS;

/// The choices of Linformer's number of projected keys `k`.
pub const LINFORMER_K_RANGE: RangeInclusive<usize> = 1..=MAX_TOKENS;

/// Linformer's `k` in a new variant.
pub const DEFAULT_LINFORMER_K: usize = 4;

/// The choices of the window radius `r` (0 = each token sees only itself).
pub const WINDOW_RANGE: RangeInclusive<usize> = 0..=MAX_TOKENS;

/// The choices of the stride `s`.
pub const STRIDE_RANGE: RangeInclusive<usize> = 1..=MAX_TOKENS;

/// The longest variant name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The text of a padding token appended by "pad to length L".
pub const PAD_TOKEN: &str = "<pad>";

/// Self-attention over one sentence, or encoder–decoder cross-attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Queries, keys and values all come from the sentence ([`LabState::text`]).
    #[default]
    SelfAttention,
    /// Queries come from the target ([`LabState::text`]), keys and values from the
    /// source ([`LabState::source`]).
    Cross,
}

/// Which masks a variant applies. Indices refer to tokens of the current texts; those
/// beyond the texts are kept (so shortening and re-typing a sentence does not lose them)
/// and ignored when the mask is built.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Masks {
    /// `j ≤ i`.
    pub causal: bool,
    /// Block the [`PAD_TOKEN`] keys (see [`LabState::pad_to`]).
    pub padding: bool,
    /// `|i − j| ≤ r`.
    pub window: Option<usize>,
    /// Sparse Transformer's strided pattern with stride `s ≥ 1`.
    pub strided: Option<usize>,
    /// Token indices that attend to and are attended by everything (ascending).
    pub global: Vec<usize>,
    /// Cells `(query, key)` blocked by hand (ascending).
    pub custom: Vec<(usize, usize)>,
    /// Attention sinks: keys `0 … s − 1` kept open for every query after causal, window
    /// and strided (StreamingLLM); padding and custom still close them.
    pub sinks: Option<usize>,
}

/// One kind of mask, as a control of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaskKind {
    /// `j ≤ i`.
    Causal,
    /// Padding keys blocked.
    Padding,
    /// `|i − j| ≤ r`.
    Window,
    /// Strided with stride `s`.
    Strided,
    /// Global tokens.
    Global,
    /// Cells toggled by hand.
    Custom,
    /// Attention sinks: the first `s` keys open for every query.
    Sinks,
}

impl MaskKind {
    /// Every kind, in display order.
    pub const ALL: [MaskKind; 7] = [
        MaskKind::Causal,
        MaskKind::Padding,
        MaskKind::Window,
        MaskKind::Strided,
        MaskKind::Global,
        MaskKind::Custom,
        MaskKind::Sinks,
    ];

    /// The name the core uses (`attnlab_core::mask::KINDS`).
    pub fn core_name(self) -> &'static str {
        match self {
            MaskKind::Causal => "causal",
            MaskKind::Padding => "padding_keys",
            MaskKind::Window => "window",
            MaskKind::Strided => "strided",
            MaskKind::Global => "global",
            MaskKind::Custom => "custom",
            MaskKind::Sinks => "sinks",
        }
    }

    /// A short label for people, e.g. `"padding"`.
    pub fn label(self) -> &'static str {
        match self {
            MaskKind::Padding => "padding",
            other => other.core_name(),
        }
    }

    /// The label in `lang` (`"padding"`, `"填充"`).
    pub fn shown(self, lang: Lang) -> &'static str {
        match self {
            MaskKind::Causal => lab::MASK_CAUSAL,
            MaskKind::Padding => lab::MASK_PADDING,
            MaskKind::Window => lab::MASK_WINDOW,
            MaskKind::Strided => lab::MASK_STRIDED,
            MaskKind::Global => lab::MASK_GLOBAL,
            MaskKind::Custom => lab::MASK_CUSTOM,
            MaskKind::Sinks => lab::MASK_SINKS,
        }
        .get(lang)
    }
}

impl Masks {
    /// Whether the mask of `kind` is on.
    pub fn is_on(&self, kind: MaskKind) -> bool {
        match kind {
            MaskKind::Causal => self.causal,
            MaskKind::Padding => self.padding,
            MaskKind::Window => self.window.is_some(),
            MaskKind::Strided => self.strided.is_some(),
            MaskKind::Global => !self.global.is_empty(),
            MaskKind::Custom => !self.custom.is_empty(),
            MaskKind::Sinks => self.sinks.is_some(),
        }
    }

    /// The kinds that are on, in display order.
    pub fn on(&self) -> Vec<MaskKind> {
        MaskKind::ALL
            .into_iter()
            .filter(|&k| self.is_on(k))
            .collect()
    }

    /// Turns the mask of `kind` off (for global and custom: forgets the tokens and cells).
    pub fn turn_off(&mut self, kind: MaskKind) {
        match kind {
            MaskKind::Causal => self.causal = false,
            MaskKind::Padding => self.padding = false,
            MaskKind::Window => self.window = None,
            MaskKind::Strided => self.strided = None,
            MaskKind::Global => self.global.clear(),
            MaskKind::Custom => self.custom.clear(),
            MaskKind::Sinks => self.sinks = None,
        }
    }

    /// Makes token `index` global, or not global any more.
    pub fn toggle_global(&mut self, index: usize) {
        match self.global.binary_search(&index) {
            Ok(at) => {
                self.global.remove(at);
            }
            Err(at) => self.global.insert(at, index),
        }
    }

    /// Blocks cell `(query, key)` by hand, or unblocks it.
    pub fn toggle_custom(&mut self, cell: (usize, usize)) {
        match self.custom.binary_search(&cell) {
            Ok(at) => {
                self.custom.remove(at);
            }
            Err(at) => self.custom.insert(at, cell),
        }
    }

    /// The core's mask for `n` queries and `m` keys, of which `padding_keys` are padding.
    /// Global indices beyond both sequences and custom cells outside `n × m` are left out.
    pub fn spec(&self, n: usize, m: usize, padding_keys: &[usize]) -> MaskSpec {
        let custom = (!self.custom.is_empty()).then(|| {
            let mut allowed = Array2::from_elem((n, m), true);
            for &(i, j) in self.custom.iter().filter(|&&(i, j)| i < n && j < m) {
                allowed[[i, j]] = false;
            }
            allowed
        });
        MaskSpec {
            causal: self.causal,
            window: self.window,
            strided: self.strided,
            global: self
                .global
                .iter()
                .copied()
                .filter(|&g| g < n.max(m))
                .collect(),
            padding_keys: if self.padding {
                padding_keys.iter().copied().filter(|&p| p < m).collect()
            } else {
                Vec::new()
            },
            custom,
            sinks: self.sinks.map(|s| s.min(m)),
        }
    }
}

/// One attention variant: how the weights are formed from the shared Q, K and V.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// A short name (at most [`MAX_NAME_CHARS`] characters), e.g. `"A"`.
    pub name: String,
    /// The score function (softmax attention only).
    pub score: ScoreFunction,
    /// τ in [`TEMPERATURE_RANGE`]: `logits = score / τ` (softmax and Linformer).
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

/// The whole configuration of the lab.
#[derive(Debug, Clone, PartialEq)]
pub struct LabState {
    /// Self-attention or cross-attention.
    pub mode: Mode,
    /// The sentence (self-attention), or the target whose tokens are the queries
    /// (cross-attention). Kept exactly as typed.
    pub text: String,
    /// The source sentence of cross-attention (keys and values). Kept in self mode too.
    pub source: String,
    /// The real model's second sentence (e.g. a translation): with it, the model reads
    /// the pair (`<s> A </s></s> B </s>`); empty: the text alone.
    pub pair: String,
    /// The model settings shared by every variant.
    pub model: ModelConfig,
    /// "Pad to length L": append [`PAD_TOKEN`]s to the key sequence (the sentence, or
    /// the source in cross mode) until it has `L` tokens, so a padding mask has
    /// something to block.
    pub pad_to: Option<usize>,
    /// One to [`MAX_VARIANTS`] variants.
    pub variants: Vec<Variant>,
    /// The view selections.
    pub view: View,
    /// The real (pretrained) model and what its page selects; `None`: the toy (seeded)
    /// model only.
    pub pretrained: Option<PretrainedView>,
}

impl Default for LabState {
    /// The classic sentence in self-attention mode, the Transformer's defaults, and two
    /// variants: A, scaled dot-product softmax, and B, the same without the `1/√d_k`
    /// (the plain dot product) — one change, so the difference view shows exactly what
    /// the scaling does: B's rows are sharper (lower entropy) than A's.
    fn default() -> Self {
        let mut b = Variant::named("B");
        b.score = ScoreFunction::Dot;
        LabState {
            mode: Mode::SelfAttention,
            text: DEFAULT_SENTENCE.to_string(),
            source: DEFAULT_SOURCE.to_string(),
            model: ModelConfig::default(),
            pad_to: None,
            variants: vec![Variant::named("A"), b],
            view: View {
                page: Page::Lab,
                variant: 0,
                head: 0,
                compare: (0, 1),
                compare_what: CompareWhat::Head,
                zoom: None,
                lines_threshold: DEFAULT_LINES_THRESHOLD,
            },
            pair: String::new(),
            pretrained: None,
        }
    }
}

impl LabState {
    /// The state a visit without a link opens with in `lang`: the defaults, with the
    /// sentence in that language.
    pub fn default_in(lang: attnlab_i18n::Lang) -> LabState {
        let mut state = LabState::default();
        if lang == attnlab_i18n::Lang::Zh {
            state.text = DEFAULT_SENTENCE_ZH.to_string();
        }
        state
    }

    /// Switches the mode. The texts are never lost: if the query text is still the other
    /// mode's example, it becomes this mode's example; anything typed stays as it is.
    pub fn set_mode(&mut self, mode: Mode) {
        let (from, to) = match mode {
            Mode::SelfAttention => (DEFAULT_TARGET, DEFAULT_SENTENCE),
            Mode::Cross => (DEFAULT_SENTENCE, DEFAULT_TARGET),
        };
        if self.text == from {
            self.text = to.to_string();
        }
        self.mode = mode;
    }

    /// The index of the variant called `name` (exactly, else ignoring case).
    pub fn variant_index(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        self.variants
            .iter()
            .position(|v| v.name == name)
            .or_else(|| {
                self.variants
                    .iter()
                    .position(|v| v.name.to_lowercase() == name.to_lowercase())
            })
    }

    /// The variant shown large (the last one if the view points past the end; `None`
    /// only when there is no variant, which [`LabState::repair`] never leaves).
    pub fn selected_variant(&self) -> Option<&Variant> {
        self.variants
            .get(self.view.variant)
            .or_else(|| self.variants.last())
    }

    /// The two variants compared, when there are two different ones.
    pub fn compared(&self) -> Option<(usize, usize)> {
        let (a, b) = self.view.compare;
        (a != b && a < self.variants.len() && b < self.variants.len()).then_some((a, b))
    }

    /// The first of "A", "B", "C", … not yet used as a name.
    pub fn free_name(&self) -> String {
        ('A'..='Z')
            .map(String::from)
            .find(|n| self.variant_index(n).is_none())
            .unwrap_or_else(|| format!("V{}", self.variants.len() + 1))
    }

    /// Adds a default variant with a free name and selects it; returns its index, or why
    /// it cannot be added.
    pub fn add_variant(&mut self) -> Result<usize, Said> {
        self.push_variant(Variant::named(self.free_name()))
    }

    /// Adds a copy of variant `index` (under a free name) and selects it.
    pub fn duplicate_variant(&mut self, index: usize) -> Result<usize, Said> {
        let mut copy = self
            .variants
            .get(index)
            .ok_or_else(|| no_variant(index))?
            .clone();
        copy.name = self.free_name();
        self.push_variant(copy)
    }

    fn push_variant(&mut self, variant: Variant) -> Result<usize, Said> {
        if let Some(why) = self.why_not_add_variant() {
            return Err(why.into());
        }
        self.variants.push(variant);
        let new = self.variants.len() - 1;
        self.view.variant = new;
        if self.compared().is_none() {
            self.view.compare = (0, new);
        }
        Ok(new)
    }

    /// Removes variant `index`; the view keeps pointing at the same variants where it can.
    pub fn remove_variant(&mut self, index: usize) -> Result<(), Said> {
        if let Some(why) = self.why_not_remove_variant() {
            return Err(why.into());
        }
        if index >= self.variants.len() {
            return Err(no_variant(index));
        }
        self.variants.remove(index);
        let len = self.variants.len();
        let shift = |i: usize| if i > index { i - 1 } else { i.min(len - 1) };
        self.view.variant = shift(self.view.variant);
        let (a, b) = self.view.compare;
        let (a, b) = (shift(a), shift(b));
        self.view.compare = if a != b || len < 2 {
            (a, b)
        } else {
            (0, if a == 0 { 1 } else { a })
        };
        Ok(())
    }

    /// Renames variant `index` (trimmed; not empty, at most [`MAX_NAME_CHARS`]
    /// characters, not the name of another variant).
    pub fn rename_variant(&mut self, index: usize, name: &str) -> Result<(), Said> {
        let name = name.trim();
        if name.is_empty() {
            return Err(lab::VARIANT_NEEDS_NAME.into());
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(lab::VariantNameTooLong {
                max: &MAX_NAME_CHARS,
            }
            .said());
        }
        if self
            .variants
            .iter()
            .enumerate()
            .any(|(i, v)| i != index && v.name == name)
        {
            return Err(lab::VariantNameTaken { name: &name }.said());
        }
        let variant = self
            .variants
            .get_mut(index)
            .ok_or_else(|| no_variant(index))?;
        variant.name = name.to_string();
        Ok(())
    }
}

fn no_variant(i: usize) -> Said {
    lab::NoSuchVariant { index: &i }.said()
}

/// The seeded settings whose draws give a replacing score function or Linformer its
/// parameters on heads `d_head` wide (`heads` of them): the lab's seed, and `d_model`
/// so that `d_k` is the model's head width.
pub fn seeded(seed: u64, d_head: usize, heads: usize) -> ModelConfig {
    ModelConfig {
        d_model: d_head * heads,
        heads,
        seed,
        ..ModelConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_core::embed::EmbeddingScale;

    #[test]
    fn defaults_are_the_issue_s() {
        let s = LabState::default();
        assert_eq!(s.text, DEFAULT_SENTENCE);
        assert_eq!(s.source, DEFAULT_SOURCE);
        assert_eq!((s.model.d_model, s.model.heads, s.model.d_k()), (64, 4, 16));
        assert_eq!(s.model.embedding_scale, EmbeddingScale::SqrtDModel);
        assert_eq!(s.variants.len(), 2);
        assert_eq!(s.variants[0].score, ScoreFunction::ScaledDot);
        assert_eq!(s.variants[1].score, ScoreFunction::Dot);
        assert_eq!(s.compared(), Some((0, 1)));
        assert_eq!(s.selected_variant().map(|v| v.name.as_str()), Some("A"));
        assert_eq!(
            s.variants[0].describe(&s.model, Lang::En),
            "scaled dot-product softmax \u{b7} 4 heads \u{b7} d_model 64"
        );
    }

    #[test]
    fn a_description_names_what_sets_the_variant_apart_before_the_shared_model() {
        let s = LabState::default();
        let mut v = s.variants[1].clone();
        v.temperature = 0.5;
        v.masks.causal = true;
        v.masks.window = Some(2);
        assert_eq!(
            v.describe(&s.model, Lang::En),
            "dot-product softmax \u{b7} τ 0.5 \u{b7} causal, window 2 \u{b7} 4 heads \u{b7} d_model 64"
        );
        assert_eq!(
            v.describe(&s.model, Lang::Zh),
            "点积 softmax \u{b7} τ 0.5 \u{b7} 因果、局部窗口 2 \u{b7} 4 个头 \u{b7} d_model 64"
        );
    }

    #[test]
    fn switching_mode_swaps_examples_but_never_typed_text() {
        let mut s = LabState::default();
        s.set_mode(Mode::Cross);
        assert_eq!(s.text, DEFAULT_TARGET);
        s.set_mode(Mode::SelfAttention);
        assert_eq!(s.text, DEFAULT_SENTENCE);
        s.text = "my own words".into();
        s.set_mode(Mode::Cross);
        assert_eq!(s.text, "my own words");
        assert_eq!(s.mode, Mode::Cross);
    }

    #[test]
    fn variants_are_added_duplicated_renamed_and_removed() {
        let mut s = LabState::default();
        assert_eq!(s.add_variant(), Ok(2));
        assert_eq!(s.variants[2].name, "C");
        s.variants[1].temperature = 3.0;
        assert_eq!(s.duplicate_variant(1), Ok(3));
        assert_eq!(
            (s.variants[3].name.as_str(), s.variants[3].temperature),
            ("D", 3.0)
        );
        assert!(s.add_variant().unwrap_err().contains("at most 4"));
        assert!(s.rename_variant(0, "B").is_err());
        assert!(s.rename_variant(0, "  ").is_err());
        assert!(s.rename_variant(0, &"x".repeat(25)).is_err());
        s.rename_variant(0, " scaled ").unwrap();
        assert_eq!(s.variant_index("SCALED"), Some(0));

        s.view.variant = 3;
        s.view.compare = (1, 3);
        s.remove_variant(2).unwrap();
        assert_eq!((s.view.variant, s.view.compare), (2, (1, 2)));
        s.remove_variant(1).unwrap();
        assert_eq!(s.compared(), Some((0, 1)));
        s.remove_variant(1).unwrap();
        assert_eq!((s.view.variant, s.compared()), (0, None));
        assert!(s.remove_variant(0).is_err());
        assert_eq!(s.variants.len(), 1);
    }

    #[test]
    fn masks_toggle_and_build() {
        let mut m = Masks::default();
        m.toggle_global(3);
        m.toggle_global(1);
        assert_eq!(m.global, [1, 3]);
        m.toggle_global(3);
        assert_eq!(m.global, [1]);
        m.toggle_custom((0, 1));
        m.toggle_custom((9, 9)); // outside 3 × 3: kept, not built
        m.padding = true;
        let spec = m.spec(3, 3, &[2]);
        assert_eq!(spec.global, [1]);
        assert_eq!(spec.padding_keys, [2]);
        let custom = spec.custom.unwrap();
        assert!(!custom[[0, 1]] && custom[[1, 0]]);
        assert_eq!(
            m.on(),
            [MaskKind::Padding, MaskKind::Global, MaskKind::Custom]
        );
        m.turn_off(MaskKind::Custom);
        assert!(!m.is_on(MaskKind::Custom));
    }
}
