//! The whole configuration of the lab: the texts, the mode, the model settings shared by
//! every variant, one to four attention variants, and the view selections a shared link
//! restores. Plain data with a few editing methods; which combinations are allowed is in
//! [`crate::rules`], how it travels in a link in `attnlab_link`.

use std::ops::RangeInclusive;

pub use attnlab_core::model::ModelConfig;
use attnlab_core::score::ScoreFunction;

use attnlab_i18n::msg::lab;
use attnlab_i18n::said::Said;

pub mod masks;
mod options;
mod pretrained;
mod variant;
mod view;
pub use masks::{MaskKind, Masks};
pub use options::*;
pub use pretrained::{Checkpoint, PretrainedView, Relevance};
pub use variant::{Variant, model_label, score_label};
pub use view::{
    Activation, BLOCK_FFN_MULTIPLES, BLOCK_LAYERS_RANGE, BlockView, CompareWhat,
    DEFAULT_LINES_THRESHOLD, DecodeStepView, KvCache, LINES_THRESHOLD_RANGE, Norm, Page,
    Seq2seqView, View, Zoom,
};

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
                kv_cache: KvCache::default(),
                block: BlockView::default(),
                seq2seq: Seq2seqView::default(),
                decode_step: DecodeStepView::default(),
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
    use attnlab_i18n::Lang;

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
