//! The rules' tests: which settings combine, the reasons given, and the repairs.

use super::*;
const EN: Lang = Lang::En;
use attnlab_core::position::Layout;
use attnlab_core::score::ScoreFunction;

#[test]
fn heads_and_d_model_must_fit() {
    let m = ModelConfig::default();
    assert_eq!(m.why_not_heads(8, EN), None);
    assert!(
        m.why_not_heads(5, EN)
            .unwrap()
            .contains("do not divide d_model = 64")
    );
    assert!(m.why_not_heads(17, EN).unwrap().contains("1 to 16"));
    assert!(
        m.why_not_d_model(66, EN)
            .unwrap()
            .contains("not divisible by 4 heads")
    );
    assert!(m.why_not_d_model(4, EN).is_some());
    let one = ModelConfig { heads: 1, ..m };
    assert!(one.why_not_d_model(9, EN).unwrap().contains("even d_model"));
    let mut learned = one;
    learned.position.kind = PositionKind::Learned;
    assert_eq!(learned.why_not_d_model(9, EN), None);
    assert!(
        learned
            .why_not_position(PositionKind::Sinusoidal, EN)
            .is_none()
    );
    learned.d_model = 9;
    assert!(
        learned
            .why_not_position(PositionKind::Sinusoidal, EN)
            .is_some()
    );
    assert!(m.why_not_projection(Projection::Identity, EN).is_some());
    assert!(one.why_not_projection(Projection::Identity, EN).is_none());
    let identity = ModelConfig {
        projection: Projection::Identity,
        ..one
    };
    assert!(identity.why_not_heads(2, EN).unwrap().contains("one head"));
    assert!(m.why_not_d_pos(7, EN).is_some() && m.why_not_d_pos(8, EN).is_none());
    assert!(m.d_pos_unused(EN).is_some() && m.sinusoid_settings_unused(EN).is_none());
}

#[test]
fn masks_follow_the_attention_kind() {
    let mut v = Variant::named("A");
    for kind in MaskKind::ALL {
        assert_eq!(v.why_not_mask(kind, EN), None, "{kind:?}");
    }
    v.attention = AttentionKind::Efficient;
    assert_eq!(v.why_not_mask(MaskKind::Padding, EN), None);
    let why = v.why_not_mask(MaskKind::Causal, EN).unwrap();
    assert!(
        why.starts_with("efficient attention cannot apply a causal mask: "),
        "{why}"
    );
    v.attention = AttentionKind::Linformer;
    assert!(
        v.why_not_mask(MaskKind::Causal, EN)
            .unwrap()
            .contains("cannot be made causal")
    );
    assert!(v.why_not_mask(MaskKind::Padding, EN).is_some());

    let mut causal = Variant::named("B");
    causal.masks.causal = true;
    assert!(causal.why_not_attention(AttentionKind::Elu1, EN).is_none());
    let why = causal
        .why_not_attention(AttentionKind::Linformer, EN)
        .unwrap();
    assert!(
        why.contains("causal mask that is on (turn it off first)"),
        "{why}"
    );
}

#[test]
fn unused_controls_say_why() {
    let mut v = Variant::named("A");
    assert!(v.temperature_unused(EN).is_none() && v.score_unused(EN).is_none());
    assert!(v.linformer_k_unused(EN).is_some());
    v.attention = AttentionKind::Elu1;
    assert_eq!(
        v.temperature_unused(EN).unwrap(),
        "elu+1 linear attention has no logits to divide, so it ignores the temperature"
    );
    assert!(v.score_unused(EN).unwrap().contains("φ(q)·φ(k)"));
    v.attention = AttentionKind::Linformer;
    assert!(v.temperature_unused(EN).is_none() && v.linformer_k_unused(EN).is_none());
    assert!(v.score_unused(EN).is_some());
}

#[test]
fn the_default_state_has_no_problems() {
    assert_eq!(LabState::default().problems(), Vec::<Said>::new());
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
    assert!(s.padding_hint(EN).is_none() && s.why_not_remove_variant().is_none());
    s.variants[1].masks.padding = true;
    assert!(s.padding_hint(EN).unwrap().contains("pad to length"));
    s.pad_to = Some(16);
    assert!(s.padding_hint(EN).is_none());
}

#[test]
fn every_reason_is_in_chinese_too() {
    let mut v = Variant::named("A");
    v.attention = AttentionKind::Linformer;
    let why = v.why_not_mask(MaskKind::Causal, Lang::Zh).unwrap();
    assert!(why.starts_with("Linformer无法应用因果掩码"), "{why}");
    let mut s = LabState::default();
    s.model.heads = 7;
    let fixes = s.repair();
    assert!(fixes[0].get(Lang::Zh).contains("个头不能整除"), "{fixes:?}");
    assert!(fixes[0].get(Lang::En).contains("heads do not divide"));
}

/// The core's refusal of `v` on a problem of `n` tokens, if any: what the rules
/// promise never to reach.
fn core_refuses(s: &LabState, v: &Variant) -> Option<String> {
    use crate::tokens::Tokens;
    let tokens = crate::tokens::query_tokens(s.mode, &s.text, s.pad_to);
    let _ = Tokens::labels;
    let encoded = crate::compute::encode(&s.model, &tokens).unwrap();
    let projected = crate::compute::project(&s.model, None, &encoded, None).unwrap();
    assert!(projected.heads[0].q.nrows() > 3);
    let problem = crate::compute::problem(&s.model, &projected, v, &tokens);
    let heads = problem.and_then(|p| crate::compute::compute_heads(&p));
    heads.err().map(|e| e.to_string())
}

#[test]
fn every_kind_with_every_option_the_rules_allow_is_one_the_core_takes() {
    use crate::state::LAB_KINDS;
    let mut s = LabState::default();
    for kind in LAB_KINDS {
        for option in 0..6 {
            let mut v = Variant::named("V");
            match option {
                0 => v.rope = Some(crate::state::default_rope()),
                1 => v.alibi = true,
                2 => v.softcap = Some(5.0),
                3 => v.tiles = Some(3),
                4 => v.masks.sinks = Some(1),
                _ => v.kv_groups = Some(2),
            }
            v.masks.causal = kind == AttentionKind::Softmax;
            let refused = s.why_not_kind(&v, kind, EN);
            v.attention = kind;
            let core = core_refuses(&s, &v);
            if refused.is_none() {
                assert_eq!(
                    core, None,
                    "{kind:?} with option {option}: the core refuses"
                );
            } else {
                // What the rules refuse, the repair takes away again.
                let mut r = s.clone();
                r.variants = vec![v.clone()];
                assert!(
                    !r.repair().is_empty(),
                    "{kind:?} option {option}: {refused:?}"
                );
                assert_eq!(core_refuses(&r, &r.variants[0]), None, "{kind:?} {option}");
            }
        }
    }
    s.mode = crate::state::Mode::Cross;
    let v = Variant::named("V");
    assert!(
        s.why_not_kind(&v, AttentionKind::DecayedLinear, EN)
            .unwrap()
            .contains("needs self-attention")
    );
}

#[test]
fn a_causal_mask_has_no_place_in_cross_attention() {
    let zh = Lang::Zh;
    let v = Variant::named("A");
    assert_eq!(
        v.why_not_mask_in(MaskKind::Causal, Mode::SelfAttention, EN),
        None
    );
    let why = v
        .why_not_mask_in(MaskKind::Causal, Mode::Cross, EN)
        .unwrap();
    assert!(why.contains("decoder's self-attention"), "{why}");
    assert!(
        v.why_not_mask_in(MaskKind::Causal, Mode::Cross, zh)
            .is_some()
    );
    // The other masks stay allowed across the two sentences (padding of the source).
    for kind in [MaskKind::Padding, MaskKind::Window, MaskKind::Custom] {
        assert_eq!(v.why_not_mask_in(kind, Mode::Cross, EN), None, "{kind:?}");
    }

    // Switching to cross-attention turns every causal mask off and says so; back to
    // self-attention nothing changes.
    let mut s = LabState::default();
    s.variants[0].masks.causal = true;
    s.variants[0].masks.window = Some(2);
    s.variants.push(Variant::named("B"));
    let notice = s.switch_mode(Mode::Cross).unwrap();
    assert!(!s.variants[0].masks.causal);
    assert_eq!(
        s.variants[0].masks.window,
        Some(2),
        "only the causal mask goes"
    );
    let said = notice.get(EN);
    assert!(
        said.starts_with("Switched to cross-attention: variant A: the causal mask was turned off"),
        "{said}"
    );
    assert!(!said.contains("variant B"), "{said}");
    assert!(notice.get(zh).starts_with("已切换到交叉注意力"));
    assert_eq!(s.switch_mode(Mode::SelfAttention), None);
    assert_eq!(s.switch_mode(Mode::Cross), None, "nothing left to turn off");

    // A state that holds both (a link edited by hand) is repaired the same way.
    let mut s = LabState::default();
    s.set_mode(Mode::Cross);
    s.variants[0].masks.causal = true;
    let fixes = s.repair();
    assert!(!s.variants[0].masks.causal);
    assert!(
        fixes
            .iter()
            .any(|f| f.get(EN).contains("causal mask was turned off"))
    );
    assert!(s.problems().is_empty());
}

#[test]
fn options_say_why_they_do_not_apply() {
    let mut v = Variant::named("A");
    assert!(v.option_unused(KindOption::Tiles, EN).is_none());
    assert!(v.sigmoid_bias_unused(EN).is_some() && v.lambda_unused(EN).is_some());
    assert!(v.decay_unused(EN).is_some() && v.sink_logit_unused(EN).is_some());
    assert!(v.features_unused(EN).is_some() && v.rope_scaling_unused(EN).is_some());
    v.attention = AttentionKind::Sigmoid;
    assert!(v.sigmoid_bias_unused(EN).is_none());
    assert_eq!(
        v.option_unused(KindOption::Tiles, EN).unwrap(),
        "only softmax attention is computed tile by tile (FlashAttention's online softmax)"
    );
    assert!(v.option_unused(KindOption::Alibi, EN).is_none());
    v.attention = AttentionKind::Favor;
    assert!(
        v.option_unused(KindOption::Softcap, EN)
            .unwrap()
            .starts_with("FAVOR+ (Performer) has no logits")
    );
    assert!(v.features_unused(EN).is_none());

    let mut tiled = Variant::named("B");
    tiled.tiles = Some(4);
    let why = tiled
        .why_not_kind_options(AttentionKind::Sigmoid, EN)
        .unwrap();
    assert!(
        why.contains("tiles that is on (turn it off first)"),
        "{why}"
    );
    let mut additive = Variant::named("C");
    additive.score = ScoreFunction::Additive;
    assert!(
        additive
            .why_not_kind_options(AttentionKind::DecayedLinear, EN)
            .is_some()
    );
    additive.score = ScoreFunction::Dot;
    additive.attention = AttentionKind::DecayedLinear;
    assert!(additive.why_not_score(ScoreFunction::Cosine, EN).is_some());
    assert!(
        additive
            .why_not_score(ScoreFunction::ScaledDot, EN)
            .is_none()
    );

    let s = LabState::default();
    assert!(s.why_not_kv_groups(2, EN).is_none() && s.why_not_kv_groups(1, EN).is_none());
    assert!(
        s.why_not_kv_groups(3, EN)
            .unwrap()
            .contains("do not divide 4 heads")
    );
    assert!(s.why_not_rotary_dims(16, EN).is_none());
    assert!(s.why_not_rotary_dims(7, EN).is_some() && s.why_not_rotary_dims(18, EN).is_some());
    let mut two = Variant::named("D");
    two.rope = Some(attnlab_core::rope::Rope {
        rotary_dims: Some(2),
        ..Default::default()
    });
    let ntk = attnlab_core::rope::RopeScaling::Ntk { factor: 2.0 };
    assert!(s.why_not_scaling(&two, ntk, EN).is_some());
    assert!(s.why_not_scaling(&Variant::named("E"), ntk, EN).is_none());
    assert!(
        options::why_not_differential_on(false, Lang::Zh)
            .unwrap()
            .contains("q2")
    );
}

#[test]
fn the_model_cannot_change_under_a_variants_groups_or_rope() {
    let mut s = LabState::default();
    s.variants[1].kv_groups = Some(2);
    let three = ModelConfig {
        heads: 2,
        d_model: 66,
        ..s.model
    };
    assert!(s.why_not_model_for_variants(&three, EN).is_none());
    let one = ModelConfig {
        heads: 1,
        ..s.model
    };
    let why = s.why_not_model_for_variants(&one, EN).unwrap();
    assert!(
        why.starts_with("variant B shares keys and values in 2 groups"),
        "{why}"
    );
    s.variants[1].kv_groups = None;
    s.variants[1].rope = Some(attnlab_core::rope::Rope::default());
    // d_k = 66 / 2 = 33: odd, RoPE cannot turn every dimension in pairs.
    assert!(
        s.why_not_model_for_variants(&three, EN)
            .unwrap()
            .contains("d_k = 33")
    );
    s.variants[1].rope.as_mut().unwrap().rotary_dims = Some(32);
    assert!(s.why_not_model_for_variants(&three, EN).is_none());
}

#[test]
fn repair_brings_every_option_back_within_what_the_core_takes() {
    let mut s = LabState::default();
    s.model.heads = 4;
    let v = &mut s.variants[1];
    v.attention = AttentionKind::Elu1;
    v.alibi = true;
    v.softcap = Some(1e9);
    v.tiles = Some(0);
    v.kv_groups = Some(3);
    v.lambda = f32::NAN;
    v.decay = 7.0;
    v.features = 0;
    v.masks.sinks = Some(0);
    v.rope = Some(attnlab_core::rope::Rope {
        rotary_dims: Some(99),
        base: -1.0,
        ..Default::default()
    });
    let fixes = s.repair();
    let v = &s.variants[1];
    assert!(
        !v.alibi && v.softcap.is_none() && v.tiles.is_none(),
        "{v:?}"
    );
    assert_eq!(v.kv_groups, Some(2));
    assert_eq!((v.lambda, v.decay, v.features), (0.8, 1.0, 1));
    assert_eq!(v.masks.sinks, Some(1));
    let rope = v.rope.as_ref().unwrap();
    assert_eq!((rope.base, rope.rotary_dims), (2.0, None));
    assert!(
        fixes
            .iter()
            .any(|f| f.contains("the ALiBi bias was turned off")),
        "{fixes:#?}"
    );
    assert!(fixes.iter().any(|f| f.get(Lang::Zh).contains("键值组")));
    assert!(s.problems().is_empty(), "{:#?}", s.problems());
}
