//! Which combinations of settings docs/maths.md allows, and why not.
//!
//! Every `why_not_*` method answers for one control: `None` when the choice is allowed,
//! or one sentence (no trailing full stop) saying why it is disabled, for the control's
//! tooltip. `*_unused` methods say why a control has no effect for the current choice
//! (it is greyed out, never silently ignored). [`LabState::problems`] lists every
//! forbidden combination a state holds, and [`LabState::repair`] fixes them, saying what
//! it changed: the fragment decoder uses it on links that were edited by hand.

use attnlab_core::attention::AttentionKind;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, PositionKind};
use attnlab_plot::number;

use crate::state::{
    BASE_RANGE, D_MODEL_RANGE, D_POS_RANGE, HEADS_RANGE, LINFORMER_K_RANGE, LabState,
    MAX_NAME_CHARS, MAX_TOKENS, MAX_VARIANTS, MaskKind, ModelConfig, PAD_RANGE, STRIDE_RANGE,
    TEMPERATURE_RANGE, Variant, View, WINDOW_RANGE,
};

/// The rules on the model settings: why a value cannot be chosen with the others.
pub trait ModelRules {
    /// Why `heads` heads cannot be chosen with the current `d_model` and projection.
    fn why_not_heads(&self, heads: usize) -> Option<String>;
    /// Why `d_model` cannot be chosen with the current heads and position encoding.
    fn why_not_d_model(&self, d_model: usize) -> Option<String>;
    /// Why the projection `projection` cannot be chosen.
    fn why_not_projection(&self, projection: Projection) -> Option<String>;
    /// Why the position kind `kind` cannot be chosen (sinusoids need an even width).
    fn why_not_position(&self, kind: PositionKind) -> Option<String>;
    /// Why the concatenated position width `d_pos` cannot be chosen.
    fn why_not_d_pos(&self, d_pos: usize) -> Option<String>;
    /// Why the sinusoid base and layout have no effect.
    fn sinusoid_settings_unused(&self) -> Option<&'static str>;
    /// Why `d_pos` has no effect.
    fn d_pos_unused(&self) -> Option<&'static str>;
    /// Whether sinusoids are added to the word vectors (so `d_model` must be even).
    fn sinusoids_added(&self) -> bool;
}

impl ModelRules for ModelConfig {
    fn why_not_heads(&self, heads: usize) -> Option<String> {
        if !HEADS_RANGE.contains(&heads) {
            return Some(format!(
                "the lab offers {} to {} heads",
                HEADS_RANGE.start(),
                HEADS_RANGE.end()
            ));
        }
        if self.projection == Projection::Identity && heads != 1 {
            return Some("identity projections (Q = K = V = X) have exactly one head".into());
        }
        if !self.d_model.is_multiple_of(heads) {
            return Some(format!(
                "{heads} heads do not divide d_model = {} (d_k = d_model / heads must be whole)",
                self.d_model
            ));
        }
        None
    }

    fn why_not_d_model(&self, d_model: usize) -> Option<String> {
        if !D_MODEL_RANGE.contains(&d_model) {
            return Some(format!(
                "d_model is between {} and {}",
                D_MODEL_RANGE.start(),
                D_MODEL_RANGE.end()
            ));
        }
        if self.heads > 0 && !d_model.is_multiple_of(self.heads) {
            return Some(format!(
                "d_model = {d_model} is not divisible by {} heads (d_k = d_model / heads must be whole)",
                self.heads
            ));
        }
        if self.sinusoids_added() && d_model % 2 == 1 {
            return Some(format!(
                "sinusoidal positions added to the word vectors need an even d_model (sines and cosines come in pairs), got {d_model}"
            ));
        }
        None
    }

    fn why_not_projection(&self, projection: Projection) -> Option<String> {
        (projection == Projection::Identity && self.heads != 1).then(|| {
            "identity projections (Q = K = V = X) have exactly one head: set heads to 1 first"
                .into()
        })
    }

    fn why_not_position(&self, kind: PositionKind) -> Option<String> {
        let width = self.position.width(self.d_model);
        (kind == PositionKind::Sinusoidal && width % 2 == 1).then(|| {
            format!(
                "sinusoidal encodings need an even width (sines and cosines come in pairs), and it is {width}"
            )
        })
    }

    fn why_not_d_pos(&self, d_pos: usize) -> Option<String> {
        if !D_POS_RANGE.contains(&d_pos) {
            return Some(format!(
                "d_pos is between {} and {}",
                D_POS_RANGE.start(),
                D_POS_RANGE.end()
            ));
        }
        (d_pos % 2 == 1)
            .then(|| "d_pos is even: sinusoidal positions come in sine–cosine pairs".to_string())
    }

    fn sinusoid_settings_unused(&self) -> Option<&'static str> {
        (self.position.kind != PositionKind::Sinusoidal)
            .then_some("the base and the layout shape sinusoidal encodings only")
    }

    fn d_pos_unused(&self) -> Option<&'static str> {
        match self.position.combine {
            Combine::Add => Some(
                "added position vectors have the width of the word vectors (d_model); choose concat to set d_pos",
            ),
            Combine::Concat { .. } => None,
        }
    }

    fn sinusoids_added(&self) -> bool {
        self.position.kind == PositionKind::Sinusoidal && self.position.combine == Combine::Add
    }
}

fn kind_label(kind: AttentionKind) -> &'static str {
    match kind {
        AttentionKind::Softmax => "softmax attention",
        AttentionKind::Elu1 => "elu+1 linear attention",
        AttentionKind::Relu => "ReLU linear attention",
        AttentionKind::Taylor => "Taylor linear attention",
        AttentionKind::Efficient => "efficient attention",
        AttentionKind::Linformer => "Linformer",
    }
}

impl Variant {
    /// Why the mask `kind` cannot be turned on with this variant's attention kind.
    pub fn why_not_mask(&self, kind: MaskKind) -> Option<String> {
        (!self.attention.supports_mask(kind.core_name())).then(|| {
            format!(
                "{} cannot apply a {} mask: {}",
                kind_label(self.attention),
                kind.label(),
                self.attention.mask_limitation()
            )
        })
    }

    /// Why this variant cannot switch to the attention kind `kind`: a mask that is on
    /// would have to be dropped (turn it off first; nothing is dropped silently).
    pub fn why_not_attention(&self, kind: AttentionKind) -> Option<String> {
        let mask = self
            .masks
            .on()
            .into_iter()
            .find(|m| !kind.supports_mask(m.core_name()))?;
        Some(format!(
            "{} cannot apply the {} mask that is on (turn it off first): {}",
            kind_label(kind),
            mask.label(),
            kind.mask_limitation()
        ))
    }

    /// Why the temperature has no effect (kernel and efficient attention have no logits).
    pub fn temperature_unused(&self) -> Option<String> {
        (!self.attention.uses_temperature()).then(|| {
            format!(
                "{} has no logits to divide, so it ignores the temperature",
                kind_label(self.attention)
            )
        })
    }

    /// Why the score function has no effect.
    pub fn score_unused(&self) -> Option<&'static str> {
        match self.attention {
            _ if self.attention.uses_score_function() => None,
            AttentionKind::Linformer => {
                Some("Linformer always scores with the scaled dot product q·k'/√d_k")
            }
            AttentionKind::Efficient => Some(
                "efficient attention normalises Q and K with softmaxes instead of scoring pairs",
            ),
            _ => Some(
                "linear attention uses its own similarity φ(q)·φ(k) instead of a score function",
            ),
        }
    }

    /// Why Linformer's `k` has no effect.
    pub fn linformer_k_unused(&self) -> Option<&'static str> {
        (self.attention != AttentionKind::Linformer)
            .then_some("only Linformer projects the keys down to k")
    }
}

impl LabState {
    /// Why another variant cannot be added.
    pub fn why_not_add_variant(&self) -> Option<&'static str> {
        (self.variants.len() >= MAX_VARIANTS)
            .then_some("the lab compares at most 4 variants side by side")
    }

    /// Why a variant cannot be removed.
    pub fn why_not_remove_variant(&self) -> Option<&'static str> {
        (self.variants.len() <= 1).then_some("the lab needs at least one variant")
    }

    /// A hint when a variant's padding mask has nothing to block.
    pub fn padding_hint(&self) -> Option<&'static str> {
        (self.pad_to.is_none() && self.variants.iter().any(|v| v.masks.padding)).then_some(
            "there are no <pad> tokens to block yet: set “pad to length” in the model settings",
        )
    }

    /// Every forbidden combination or out-of-range value this state holds, as the
    /// sentences [`LabState::repair`] would report. Empty for a state the app can use.
    pub fn problems(&self) -> Vec<String> {
        self.clone().repair()
    }

    /// Brings every value into range and every combination within what docs/maths.md allows,
    /// and says what it changed, one sentence each (empty when nothing was wrong).
    pub fn repair(&mut self) -> Vec<String> {
        let mut fixes = Vec::new();
        for (what, text) in [
            ("the text", &mut self.text),
            ("the source", &mut self.source),
            ("the second sentence", &mut self.pair),
        ] {
            let (clipped, said) = crate::tokens::clip_text(text);
            if said.is_some() {
                fixes.push(format!(
                    "{what} was longer than {} characters, so only its beginning was kept",
                    crate::tokens::MAX_TEXT_CHARS
                ));
                *text = clipped;
            }
        }
        repair_model(&mut self.model, &mut fixes);
        if let Some(pad) = &mut self.pad_to {
            clamp_usize(pad, &PAD_RANGE, "pad to length", &mut fixes);
        }
        if self.variants.is_empty() {
            self.variants = LabState::default().variants;
            fixes.push("there were no variants, so the two default ones were added".into());
        }
        if self.variants.len() > MAX_VARIANTS {
            self.variants.truncate(MAX_VARIANTS);
            fixes.push(format!("only the first {MAX_VARIANTS} variants were kept"));
        }
        for i in 0..self.variants.len() {
            repair_name(self, i, &mut fixes);
            let v = &mut self.variants[i];
            repair_variant(v, &mut fixes);
        }
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

fn clamp_usize(
    value: &mut usize,
    range: &std::ops::RangeInclusive<usize>,
    what: &str,
    fixes: &mut Vec<String>,
) {
    let clamped = (*value).clamp(*range.start(), *range.end());
    if clamped != *value {
        fixes.push(format!(
            "{what} {value} is outside {}–{}, so it is {clamped}",
            range.start(),
            range.end()
        ));
        *value = clamped;
    }
}

fn repair_model(m: &mut ModelConfig, fixes: &mut Vec<String>) {
    clamp_usize(&mut m.d_model, &D_MODEL_RANGE, "d_model", fixes);
    if m.sinusoids_added() && m.d_model % 2 == 1 {
        let even = m.d_model - 1;
        fixes.push(format!(
            "sinusoidal positions need an even d_model, so d_model {} is {even}",
            m.d_model
        ));
        m.d_model = even;
    }
    if m.projection == Projection::Identity && m.heads != 1 {
        fixes.push(format!(
            "identity projections have one head, so heads {} is 1",
            m.heads
        ));
        m.heads = 1;
    }
    clamp_usize(&mut m.heads, &HEADS_RANGE, "heads", fixes);
    if !m.d_model.is_multiple_of(m.heads) {
        let divisor = (1..=m.heads)
            .rev()
            .find(|h| m.d_model.is_multiple_of(*h))
            .unwrap_or(1);
        fixes.push(format!(
            "{} heads do not divide d_model = {}, so there are {divisor}",
            m.heads, m.d_model
        ));
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
        fixes.push(format!(
            "the sinusoid base {} is outside {}–{}, so it is {base}",
            m.position.base,
            BASE_RANGE.start(),
            BASE_RANGE.end()
        ));
        m.position.base = base;
    }
    if let Combine::Concat { d_pos } = &mut m.position.combine {
        clamp_usize(d_pos, &D_POS_RANGE, "d_pos", fixes);
        if *d_pos % 2 == 1 {
            fixes.push(format!(
                "d_pos is even (sine–cosine pairs), so d_pos {d_pos} is {}",
                *d_pos - 1
            ));
            *d_pos -= 1;
        }
    }
}

fn repair_name(state: &mut LabState, i: usize, fixes: &mut Vec<String>) {
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
        fixes.push(format!(
            "variant {} was renamed {fixed} (names are unique, 1–{MAX_NAME_CHARS} characters)",
            i + 1
        ));
        state.variants[i].name = fixed;
    }
}

fn repair_variant(v: &mut Variant, fixes: &mut Vec<String>) {
    let name = v.name.clone();
    let (lo, hi) = (*TEMPERATURE_RANGE.start(), *TEMPERATURE_RANGE.end());
    if !(v.temperature.is_finite() && TEMPERATURE_RANGE.contains(&v.temperature)) {
        let t = if v.temperature.is_nan() {
            1.0
        } else {
            v.temperature.clamp(lo, hi)
        };
        fixes.push(format!(
            "variant {name}: the temperature {} is outside {}–{}, so it is {}",
            number::full(v.temperature),
            number::full(lo),
            number::full(hi),
            number::full(t)
        ));
        v.temperature = t;
    }
    let what = |s: &str| format!("variant {name}: {s}");
    clamp_usize(
        &mut v.linformer_k,
        &LINFORMER_K_RANGE,
        &what("Linformer k"),
        fixes,
    );
    if let Some(r) = &mut v.masks.window {
        clamp_usize(r, &WINDOW_RANGE, &what("the window radius"), fixes);
    }
    if let Some(s) = &mut v.masks.strided {
        clamp_usize(s, &STRIDE_RANGE, &what("the stride"), fixes);
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
        fixes.push(what(&format!(
            "repeated token indices and indices of {MAX_TOKENS} or more were left out of the masks"
        )));
    }
    for kind in v.masks.on() {
        if let Some(why) = v.why_not_mask(kind) {
            v.masks.turn_off(kind);
            fixes.push(what(&format!(
                "the {} mask was turned off ({why})",
                kind.label()
            )));
        }
    }
}

fn repair_view(view: &mut View, variants: usize, heads: usize, fixes: &mut Vec<String>) {
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
        fixes.push("the selected variant, head or compared pair did not exist, so the first ones are shown".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_core::position::Layout;
    use attnlab_core::score::ScoreFunction;

    #[test]
    fn heads_and_d_model_must_fit() {
        let m = ModelConfig::default();
        assert_eq!(m.why_not_heads(8), None);
        assert!(
            m.why_not_heads(5)
                .unwrap()
                .contains("do not divide d_model = 64")
        );
        assert!(m.why_not_heads(17).unwrap().contains("1 to 16"));
        assert!(
            m.why_not_d_model(66)
                .unwrap()
                .contains("not divisible by 4 heads")
        );
        assert!(m.why_not_d_model(4).is_some());
        let one = ModelConfig { heads: 1, ..m };
        assert!(one.why_not_d_model(9).unwrap().contains("even d_model"));
        let mut learned = one;
        learned.position.kind = PositionKind::Learned;
        assert_eq!(learned.why_not_d_model(9), None);
        assert!(learned.why_not_position(PositionKind::Sinusoidal).is_none());
        learned.d_model = 9;
        assert!(learned.why_not_position(PositionKind::Sinusoidal).is_some());
        assert!(m.why_not_projection(Projection::Identity).is_some());
        assert!(one.why_not_projection(Projection::Identity).is_none());
        let identity = ModelConfig {
            projection: Projection::Identity,
            ..one
        };
        assert!(identity.why_not_heads(2).unwrap().contains("one head"));
        assert!(m.why_not_d_pos(7).is_some() && m.why_not_d_pos(8).is_none());
        assert!(m.d_pos_unused().is_some() && m.sinusoid_settings_unused().is_none());
    }

    #[test]
    fn masks_follow_the_attention_kind() {
        let mut v = Variant::named("A");
        for kind in MaskKind::ALL {
            assert_eq!(v.why_not_mask(kind), None, "{kind:?}");
        }
        v.attention = AttentionKind::Efficient;
        assert_eq!(v.why_not_mask(MaskKind::Padding), None);
        let why = v.why_not_mask(MaskKind::Causal).unwrap();
        assert!(
            why.starts_with("efficient attention cannot apply a causal mask: "),
            "{why}"
        );
        v.attention = AttentionKind::Linformer;
        assert!(
            v.why_not_mask(MaskKind::Causal)
                .unwrap()
                .contains("cannot be made causal")
        );
        assert!(v.why_not_mask(MaskKind::Padding).is_some());

        let mut causal = Variant::named("B");
        causal.masks.causal = true;
        assert!(causal.why_not_attention(AttentionKind::Elu1).is_none());
        let why = causal.why_not_attention(AttentionKind::Linformer).unwrap();
        assert!(
            why.contains("causal mask that is on (turn it off first)"),
            "{why}"
        );
    }

    #[test]
    fn unused_controls_say_why() {
        let mut v = Variant::named("A");
        assert!(v.temperature_unused().is_none() && v.score_unused().is_none());
        assert!(v.linformer_k_unused().is_some());
        v.attention = AttentionKind::Elu1;
        assert_eq!(
            v.temperature_unused().unwrap(),
            "elu+1 linear attention has no logits to divide, so it ignores the temperature"
        );
        assert!(v.score_unused().unwrap().contains("φ(q)·φ(k)"));
        v.attention = AttentionKind::Linformer;
        assert!(v.temperature_unused().is_none() && v.linformer_k_unused().is_none());
        assert!(v.score_unused().is_some());
    }

    #[test]
    fn the_default_state_has_no_problems() {
        assert_eq!(LabState::default().problems(), Vec::<String>::new());
    }

    #[test]
    fn repair_fixes_everything_and_says_so() {
        let mut s = LabState::default();
        s.model.d_model = 100_000;
        s.model.heads = 7;
        s.model.position.base = 1.0;
        s.model.position.layout = Layout::Split;
        s.model.position.combine = Combine::Concat { d_pos: 9 };
        s.pad_to = Some(0);
        s.variants[0].temperature = 1e9;
        s.variants[0].attention = AttentionKind::Linformer;
        s.variants[0].masks.causal = true;
        s.variants[0].masks.global = vec![3, 3, 1, 9999];
        s.variants[1].name = "A".into();
        s.variants[1].masks.strided = Some(0);
        s.variants[1].score = ScoreFunction::Cosine;
        s.view.head = 99;
        let fixes = s.repair();
        assert_eq!(s.model.d_model, 512);
        assert_eq!(s.model.heads, 4, "the largest divisor of 512 below 7");
        assert_eq!(s.model.position.base, 2.0);
        assert_eq!(s.model.position.combine, Combine::Concat { d_pos: 8 });
        assert_eq!(s.pad_to, Some(1));
        assert_eq!(s.variants[0].temperature, 100.0);
        assert!(!s.variants[0].masks.causal);
        assert!(
            s.variants[0].masks.global.is_empty(),
            "Linformer takes no mask"
        );
        assert_eq!(s.variants[1].name, "B");
        assert_eq!(s.variants[1].masks.strided, Some(1));
        assert_eq!(s.view.head, 3);
        assert_eq!(fixes.len(), 12, "{fixes:#?}");
        assert!(
            fixes
                .iter()
                .any(|f| f.contains("causal mask was turned off"))
        );
        assert!(s.problems().is_empty());
    }

    #[test]
    fn padding_hint_and_variant_limits() {
        let mut s = LabState::default();
        assert!(s.padding_hint().is_none() && s.why_not_remove_variant().is_none());
        s.variants[1].masks.padding = true;
        assert!(s.padding_hint().unwrap().contains("pad to length"));
        s.pad_to = Some(16);
        assert!(s.padding_hint().is_none());
    }
}
