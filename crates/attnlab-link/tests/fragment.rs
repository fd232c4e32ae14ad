//! The URL fragment: every state survives a round trip exactly; damaged, cut, edited or
//! future links give a typed error or a repaired state with a message — never a panic,
//! and never lost text when it can still be read.

use attnlab_core::attention::AttentionKind;
use attnlab_core::embed::EmbeddingScale;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, Layout, PositionConfig, PositionKind};
use attnlab_core::rope::{Rope, RopePairs, RopeScaling};
use attnlab_core::score::ScoreFunction;
use attnlab_lab::state::LAB_KINDS;
use attnlab_lab::state::{Activation, BlockView, DecodeStepView, Norm, Seq2seqView};
use attnlab_lab::state::{Checkpoint, KvCache, PretrainedView, Relevance};
use attnlab_lab::{
    CompareWhat, DEFAULT_LINES_THRESHOLD, DEFAULT_SENTENCE, DEFAULT_SOURCE, LINES_THRESHOLD_RANGE,
    LabState, Masks, Mode, ModelConfig, Page, Variant, View, Zoom,
};
use attnlab_link::{FragmentErrorKind, MAX_FRAGMENT_LEN};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x0a77_1ab5),
        ..ProptestConfig::default()
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(DEFAULT_SENTENCE.to_string()),
        Just(String::new()),
        "\\PC{0,60}",
        ".{0,30}",
        "[a-z #.\"\\\\]{0,30}",
    ]
}

/// The model settings and the "pad to length" of a state.
fn model() -> impl Strategy<Value = (ModelConfig, Option<usize>)> {
    (
        (1usize..700, 0usize..20, any::<u64>()),
        (
            prop::sample::select(vec![
                PositionKind::None,
                PositionKind::Sinusoidal,
                PositionKind::Learned,
            ]),
            prop_oneof![Just(10_000.0), Just(1_000.0), 1.0f64..2e8],
            any::<bool>(),
            prop::option::of(0usize..600),
        ),
        (
            any::<bool>(),
            prop::bool::weighted(0.1),
            prop::option::of(0usize..600),
        ),
    )
        .prop_map(
            |((d_model, heads, seed), (kind, base, split, d_pos), (unit, identity, pad_to))| {
                let model = ModelConfig {
                    d_model,
                    heads,
                    seed,
                    position: PositionConfig {
                        kind,
                        base,
                        layout: if split {
                            Layout::Split
                        } else {
                            Layout::Interleaved
                        },
                        combine: d_pos.map_or(Combine::Add, |d_pos| Combine::Concat { d_pos }),
                    },
                    embedding_scale: if unit {
                        EmbeddingScale::Unit
                    } else {
                        EmbeddingScale::SqrtDModel
                    },
                    projection: if identity {
                        Projection::Identity
                    } else {
                        Projection::Seeded
                    },
                };
                (model, pad_to)
            },
        )
}

fn masks() -> impl Strategy<Value = Masks> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0usize..600),
        prop::option::of(0usize..600),
        prop::collection::vec(0usize..600, 0..4),
        prop::collection::vec((0usize..600, 0usize..600), 0..4),
        prop::option::of(0usize..600),
    )
        .prop_map(
            |(causal, padding, window, strided, global, custom, sinks)| Masks {
                causal,
                padding,
                window,
                strided,
                global,
                custom,
                sinks,
            },
        )
}

/// RoPE off, or on with any base, pairs, rotary dims and scaling (some out of range).
fn rope() -> impl Strategy<Value = Option<Rope>> {
    prop::option::of(
        (
            prop_oneof![Just(10_000.0f32), 0.5f32..2e8],
            any::<bool>(),
            prop::option::of(0usize..40),
            0usize..4,
            prop_oneof![Just(2.0f32), 0.1f32..100.0],
            prop_oneof![Just(8.0f32), 0.5f32..2e6],
        )
            .prop_map(
                |(base, interleaved, rotary_dims, scaling, factor, l)| Rope {
                    base,
                    pairs: if interleaved {
                        RopePairs::Interleaved
                    } else {
                        RopePairs::Half
                    },
                    rotary_dims,
                    scaling: match scaling {
                        0 => RopeScaling::None,
                        1 => RopeScaling::Linear { factor },
                        2 => RopeScaling::Ntk { factor },
                        _ => RopeScaling::Yarn {
                            factor,
                            original_max_positions: l,
                            beta_fast: 32.0,
                            beta_slow: 1.0,
                        },
                    },
                    ..Rope::default()
                },
            ),
    )
}

/// The options of issue 33 (some out of range, some on with kinds that refuse them).
#[derive(Debug, Clone)]
struct Options {
    rope: Option<Rope>,
    alibi: bool,
    softcap: Option<f32>,
    kv_groups: Option<usize>,
    tiles: Option<usize>,
    sigmoid_bias: Option<f32>,
    lambda: f32,
    decay: f32,
    sink_logit: f32,
    features: usize,
}

fn options() -> impl Strategy<Value = Options> {
    (
        rope(),
        any::<bool>(),
        prop::option::of(0.01f32..200.0),
        prop::option::of(0usize..20),
        prop::option::of(0usize..600),
        prop::option::of(-30f32..30.0),
        (
            prop_oneof![Just(0.8f32), -1f32..2.0],
            prop_oneof![Just(0.9f32), -1f32..2.0],
            prop_oneof![Just(0f32), -30f32..30.0],
            prop_oneof![Just(64usize), 0usize..2000],
        ),
    )
        .prop_map(
            |(
                rope,
                alibi,
                softcap,
                kv_groups,
                tiles,
                sigmoid_bias,
                (lambda, decay, sink_logit, features),
            )| Options {
                rope,
                alibi,
                softcap,
                kv_groups,
                tiles,
                sigmoid_bias,
                lambda,
                decay,
                sink_logit,
                features,
            },
        )
}

fn variant() -> impl Strategy<Value = Variant> {
    (
        prop_oneof![Just("A".to_string()), "[A-Za-z0-9 ]{0,30}"],
        prop::sample::select(ScoreFunction::ALL.to_vec()),
        prop_oneof![Just(1.0f32), 1e-4f32..1e4],
        prop::sample::select(LAB_KINDS.to_vec()),
        0usize..600,
        masks(),
        options(),
    )
        .prop_map(
            |(name, score, temperature, attention, linformer_k, masks, o)| Variant {
                name,
                score,
                temperature,
                attention,
                linformer_k,
                masks,
                rope: o.rope,
                alibi: o.alibi,
                softcap: o.softcap,
                kv_groups: o.kv_groups,
                tiles: o.tiles,
                sigmoid_bias: o.sigmoid_bias,
                lambda: o.lambda,
                decay: o.decay,
                sink_logit: o.sink_logit,
                features: o.features,
            },
        )
}

fn pretrained() -> impl Strategy<Value = Option<PretrainedView>> {
    prop::option::of(
        (
            prop::sample::select(Checkpoint::KNOWN.to_vec()),
            0usize..15,
            0usize..15,
            any::<bool>(),
            prop::option::of((0usize..300, 0usize..300)),
            any::<bool>(),
        )
            .prop_map(|(checkpoint, layer, head, hide_special, search, flow)| {
                PretrainedView {
                    checkpoint,
                    layer,
                    head,
                    hide_special,
                    search,
                    relevance: if flow {
                        Relevance::Flow
                    } else {
                        Relevance::Rollout
                    },
                }
            }),
    )
}

/// A zoom of the large heatmaps, or none: mostly within the drawing limit, sometimes
/// reversed or past it (then repaired).
fn zoom() -> impl Strategy<Value = Option<Zoom>> {
    prop::option::of(
        (0usize..600, 0usize..600, 0usize..600, 0usize..600).prop_map(|(a, b, c, d)| Zoom {
            queries: (a, b),
            keys: (c, d),
        }),
    )
}

/// The Lines page's threshold in thousandths: mostly the default, sometimes past 1.
/// Any calculator settings, out of range too (the page clamps them, the link keeps them).
fn kv_cache() -> impl Strategy<Value = KvCache> {
    (
        (0u64..600, 0u64..600, 0u64..600, 0u64..2000),
        prop::sample::select(vec![4u64, 8, 16, 32, 7]),
        prop::option::of((0u64..9000, 0u64..2000)),
        (0u64..20_000_000, 0u64..2000),
    )
        .prop_map(
            |((layers, query_heads, kv_heads, head_dim), bits, latent, (context, batch))| KvCache {
                layers,
                query_heads,
                kv_heads,
                head_dim,
                bits,
                latent,
                context,
                batch,
            },
        )
}

/// The Block page's settings, out of range too (the page keeps them within its choices).
fn block() -> impl Strategy<Value = BlockView> {
    prop_oneof![
        Just(BlockView::default()),
        (
            0usize..9,
            any::<bool>(),
            any::<bool>(),
            0usize..20,
            0usize..10,
            0usize..8
        )
            .prop_map(
                |(layers, pre, gelu, heads, ffn_multiple, shown)| BlockView {
                    layers,
                    norm: if pre { Norm::Pre } else { Norm::Post },
                    activation: if gelu {
                        Activation::Gelu
                    } else {
                        Activation::Relu
                    },
                    heads,
                    ffn_multiple,
                    shown,
                }
            ),
    ]
}

/// The classic decoder's stepper, its step out of range too.
fn seq2seq() -> impl Strategy<Value = Seq2seqView> {
    prop_oneof![
        Just(Seq2seqView::default()),
        (0usize..600, any::<bool>()).prop_map(|(step, feed)| Seq2seqView { step, feed }),
    ]
}

/// The Decoding page's stepper, past the decoder's step, layer and head too.
fn decode_step() -> impl Strategy<Value = DecodeStepView> {
    prop_oneof![
        Just(DecodeStepView::default()),
        (0usize..600, 0usize..9, 0usize..20).prop_map(|(step, layer, head)| DecodeStepView {
            step,
            layer,
            head
        }),
    ]
}

fn threshold() -> impl Strategy<Value = usize> {
    prop_oneof![Just(DEFAULT_LINES_THRESHOLD), 0usize..1200]
}

/// Any state, including values out of range and forbidden combinations.
fn any_state() -> impl Strategy<Value = LabState> {
    (
        (pretrained(), text()),
        any::<bool>(),
        text(),
        text(),
        model(),
        prop::collection::vec(variant(), 0..6),
        (0usize..6, 0usize..20, 0usize..6, 0usize..6, any::<bool>()),
        (
            prop::sample::select(Page::ALL.to_vec()),
            zoom(),
            threshold(),
            kv_cache(),
            block(),
            seq2seq(),
            decode_step(),
        ),
    )
        .prop_map(
            |(
                (pretrained, pair),
                cross,
                text,
                source,
                (model, pad_to),
                variants,
                (variant, head, a, b, average),
                (page, zoom, lines_threshold, kv_cache, block, seq2seq, decode_step),
            )| {
                LabState {
                    mode: if cross {
                        Mode::Cross
                    } else {
                        Mode::SelfAttention
                    },
                    text,
                    source,
                    model,
                    pad_to,
                    variants,
                    view: View {
                        page,
                        variant,
                        head,
                        compare: (a, b),
                        compare_what: if average {
                            CompareWhat::Average
                        } else {
                            CompareWhat::Head
                        },
                        zoom,
                        lines_threshold,
                        kv_cache,
                        block,
                        seq2seq,
                        decode_step,
                    },
                    pretrained,
                    pair,
                }
            },
        )
}

/// A state the app can produce: one that needs no repair.
fn valid_state() -> impl Strategy<Value = LabState> {
    any_state().prop_map(|mut s| {
        s.repair();
        s
    })
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn every_valid_state_round_trips_exactly(state in valid_state()) {
        prop_assert!(state.problems().is_empty(), "{:?}", state.problems());
        let f = attnlab_link::encode(&state);
        prop_assert!(f.starts_with("v1.") || f.starts_with("v1z."));
        prop_assert!(f.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "{f}");
        let decoded = attnlab_link::decode(&format!("#{f}")).unwrap();
        prop_assert_eq!(&decoded.state, &state);
        prop_assert!(decoded.repairs.is_empty(), "{:?}", decoded.repairs);
    }

    #[test]
    fn any_state_comes_back_repaired_with_the_same_messages(state in any_state()) {
        let mut repaired = state.clone();
        let fixes = repaired.repair();
        let decoded = attnlab_link::decode(&attnlab_link::encode(&state)).unwrap();
        prop_assert_eq!(&decoded.state, &repaired);
        prop_assert_eq!(&decoded.repairs, &fixes);
        prop_assert!(repaired.problems().is_empty());
    }

    #[test]
    fn a_cut_link_never_panics_and_never_invents_text(state in valid_state(), cut in 0.0f64..1.0) {
        let f = attnlab_link::encode(&state);
        let at = ((f.len() as f64) * cut) as usize;
        match attnlab_link::decode(&f[..at]) {
            Ok(d) => prop_assert!(d.state.problems().is_empty()),
            Err(e) => {
                // What is recovered is the real text, or nothing.
                prop_assert!(e.text.as_ref().is_none_or(|t| *t == state.text));
                prop_assert!(e.source.as_ref().is_none_or(|t| *t == state.source));
                prop_assert!(!e.message().is_empty());
            }
        }
    }

    #[test]
    fn a_flipped_bit_never_panics(state in valid_state(), at in any::<prop::sample::Index>(), bit in 0u8..6) {
        let f = attnlab_link::encode(&state);
        let (tag, payload) = f.split_once('.').unwrap();
        let mut bytes = URL_SAFE_NO_PAD.decode(payload).unwrap();
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            bytes[i] ^= 1 << bit;
        }
        let tampered = format!("{tag}.{}", URL_SAFE_NO_PAD.encode(&bytes));
        let loaded = attnlab_link::load(&tampered);
        prop_assert!(loaded.state.problems().is_empty());
    }
}

/// One thing a person does in the lab that changes what its link holds.
#[derive(Debug, Clone)]
enum Edit {
    Add,
    Duplicate(prop::sample::Index),
    Remove(prop::sample::Index),
    /// Picks a variant in the comparison's first (false) or second (true) menu.
    Compare(bool, prop::sample::Index),
    Show(prop::sample::Index),
    Head(prop::sample::Index),
    Cross(bool),
    Average(bool),
    /// Zooms the large heatmaps: a rectangle dragged or the range inputs (any order), or
    /// the reset.
    Zoom(Option<((usize, usize), (usize, usize))>),
    /// Moves the Lines page's threshold slider.
    Threshold(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        Just(Edit::Add),
        any::<prop::sample::Index>().prop_map(Edit::Duplicate),
        any::<prop::sample::Index>().prop_map(Edit::Remove),
        (any::<bool>(), any::<prop::sample::Index>()).prop_map(|(s, i)| Edit::Compare(s, i)),
        any::<prop::sample::Index>().prop_map(Edit::Show),
        any::<prop::sample::Index>().prop_map(Edit::Head),
        any::<bool>().prop_map(Edit::Cross),
        any::<bool>().prop_map(Edit::Average),
        prop::option::of(((0usize..512, 0usize..512), (0usize..512, 0usize..512)))
            .prop_map(Edit::Zoom),
        LINES_THRESHOLD_RANGE.prop_map(Edit::Threshold),
    ]
}

/// `edit` as the app applies it: the menus offer only what exists.
fn apply(state: &mut LabState, edit: &Edit) {
    let count = state.variants.len();
    match edit {
        Edit::Add => drop(state.add_variant()),
        Edit::Duplicate(i) => drop(state.duplicate_variant(i.index(count))),
        Edit::Remove(i) => drop(state.remove_variant(i.index(count))),
        Edit::Compare(second, i) => {
            state.view.compare = View::compare_picked(state.view.compare, *second, i.index(count));
        }
        Edit::Show(i) => state.view.variant = i.index(count),
        Edit::Head(i) => state.view.head = i.index(state.model.heads.max(1)),
        // As the app's switch does: in cross-attention the causal masks go.
        Edit::Cross(cross) => drop(state.switch_mode(if *cross {
            Mode::Cross
        } else {
            Mode::SelfAttention
        })),
        Edit::Zoom(zoom) => state.view.zoom = zoom.map(|(q, k)| Zoom::new(q, k)),
        Edit::Threshold(t) => state.view.lines_threshold = *t,
        Edit::Average(average) => {
            state.view.compare_what = if *average {
                CompareWhat::Average
            } else {
                CompareWhat::Head
            };
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Whatever a person does in the lab, the link it writes reopens the same state with
    /// no notice (comparing a variant with itself, once offered, came back refused).
    #[test]
    fn every_link_the_app_writes_reopens_without_a_notice(
        start in valid_state(),
        edits in prop::collection::vec(edit(), 0..24),
    ) {
        let mut state = start;
        for (step, e) in edits.iter().enumerate() {
            apply(&mut state, e);
            prop_assert!(state.problems().is_empty(), "after {step} {e:?}: {:?}", state.problems());
            let loaded = attnlab_link::load(&attnlab_link::encode(&state));
            prop_assert_eq!(&loaded.notice, &None, "after {} {:?}", step, e);
            prop_assert_eq!(&loaded.state, &state);
        }
    }
}

#[test]
fn picking_the_other_sides_variant_swaps_the_pair() {
    assert_eq!(View::compare_picked((0, 1), false, 2), (2, 1));
    assert_eq!(View::compare_picked((0, 1), true, 2), (0, 2));
    assert_eq!(View::compare_picked((0, 1), false, 1), (1, 0));
    assert_eq!(View::compare_picked((0, 1), true, 0), (1, 0));
    assert_eq!(View::compare_picked((2, 3), true, 3), (2, 3));
}

#[test]
fn lengths_of_typical_links() {
    // The default state is "{}": every value is a v1 default.
    assert_eq!(attnlab_link::encode(&LabState::default()), "v1.e30");

    let mut four = LabState::default();
    four.add_variant().unwrap();
    four.add_variant().unwrap();
    four.variants[1].attention = AttentionKind::Elu1;
    four.variants[1].masks.causal = true;
    four.variants[2].score = ScoreFunction::Additive;
    four.variants[2].temperature = 0.35;
    four.variants[2].masks.window = Some(2);
    four.variants[2].masks.global = vec![0, 7];
    four.variants[3].attention = AttentionKind::Linformer;
    four.variants[3].linformer_k = 6;
    four.variants[0].masks.padding = true;
    four.variants[0].masks.custom = vec![(7, 1), (7, 3)];
    four.model.d_model = 128;
    four.model.heads = 8;
    four.pad_to = Some(14);
    four.view = View {
        page: Page::Linear,
        variant: 2,
        head: 5,
        compare: (0, 2),
        compare_what: CompareWhat::Head,
        ..View::default()
    };
    let f = attnlab_link::encode(&four);
    assert!(f.starts_with("v1z."), "deflate pays for four variants: {f}");
    assert!(f.len() < 200, "{} chars", f.len());
    assert_eq!(attnlab_link::decode(&f).unwrap().state, four);
}

/// A fragment of hand-written JSON.
fn fragment_of(json: &str) -> String {
    format!("#v1.{}", URL_SAFE_NO_PAD.encode(json))
}

#[test]
fn urls_with_and_without_hash_are_read() {
    let s = LabState {
        text: "a b c".into(),
        ..LabState::default()
    };
    let f = attnlab_link::encode(&s);
    for input in [
        f.clone(),
        format!("#{f}"),
        format!("https://example.org/attnlab/?x=1#{f}"),
        format!("  #{f}\n"),
    ] {
        assert_eq!(attnlab_link::decode(&input).unwrap().state, s, "{input}");
    }
}

#[test]
fn no_fragment_is_the_defaults_without_a_notice() {
    for input in ["", "#", "https://example.org/attnlab/"] {
        let e = attnlab_link::decode(input).unwrap_err();
        assert_eq!(e.kind, FragmentErrorKind::Empty, "{input}");
        let loaded = attnlab_link::load(input);
        assert_eq!(loaded.state, LabState::default());
        assert_eq!(loaded.notice, None);
    }
}

#[test]
fn a_future_version_is_a_clear_error() {
    let e = attnlab_link::decode("#v2.e30").unwrap_err();
    assert_eq!(e.kind, FragmentErrorKind::UnknownVersion(2));
    assert_eq!(
        e.message(),
        "This link was made by a newer version of attnlab (state version 2; this one reads \
         version 1), so the defaults are shown."
    );
    assert_eq!(
        attnlab_link::decode("#v17z.abc").unwrap_err().kind,
        FragmentErrorKind::UnknownVersion(17)
    );
}

#[test]
fn foreign_fragments_are_not_states() {
    for input in ["#section-2", "#v.e30", "#vx.e30", "#top", "#1.e30"] {
        let e = attnlab_link::decode(input).unwrap_err();
        assert_eq!(e.kind, FragmentErrorKind::NotAState, "{input}");
        let loaded = attnlab_link::load(input);
        assert_eq!(loaded.state, LabState::default());
        assert!(loaded.notice.unwrap().contains("not an attnlab state"));
    }
}

#[test]
fn an_overlong_fragment_is_refused_before_decoding() {
    let huge = format!("#v1.{}", "A".repeat(MAX_FRAGMENT_LEN + 1));
    let e = attnlab_link::decode(&huge).unwrap_err();
    assert!(matches!(e.kind, FragmentErrorKind::TooLong { .. }));
}

#[test]
fn a_bad_character_keeps_the_text_before_it() {
    let mut s = LabState {
        text: "Les chats dorment beaucoup".into(),
        ..LabState::default()
    };
    s.view.head = 3;
    let f = attnlab_link::encode(&s);
    assert!(f.starts_with("v1."), "{f}");
    let damaged = format!("{}!!{}", &f[..f.len() - 10], &f[f.len() - 8..]);
    let e = attnlab_link::decode(&damaged).unwrap_err();
    assert_eq!(e.kind, FragmentErrorKind::Encoding);
    assert_eq!(e.text.as_deref(), Some("Les chats dorment beaucoup"));
    let loaded = attnlab_link::load(&damaged);
    assert_eq!(loaded.state.text, "Les chats dorment beaucoup");
    assert_eq!(loaded.state.variants, LabState::default().variants);
    assert_eq!(
        loaded.notice.as_deref(),
        Some(
            "The state in this link is damaged (a character was changed or the link was cut), \
             so the default settings are shown with the link's text."
        )
    );
}

#[test]
fn a_cut_compressed_link_keeps_the_text() {
    let mut s = LabState {
        text: "Attention is all you need. ".repeat(12),
        ..LabState::default()
    };
    s.source = "源文本".into();
    s.mode = Mode::Cross;
    for _ in 0..2 {
        s.add_variant().unwrap();
    }
    let f = attnlab_link::encode(&s);
    assert!(f.starts_with("v1z."), "{f}");
    // Cut off the end: the texts and the mode come first, so they are still readable.
    let cut = &f[..f.len() - 12];
    let e = attnlab_link::decode(cut).unwrap_err();
    assert!(
        matches!(
            e.kind,
            FragmentErrorKind::Compression | FragmentErrorKind::Encoding
        ),
        "{e:?}"
    );
    assert_eq!(e.text.as_deref(), Some(s.text.as_str()));
    assert_eq!(e.source.as_deref(), Some("源文本"));
    assert_eq!(e.mode, Some(Mode::Cross));
    let fallback = e.fallback();
    assert_eq!(
        (fallback.text, fallback.source, fallback.mode),
        (s.text, s.source, Mode::Cross)
    );
    assert!(e.message().ends_with("with the link's texts."));
}

#[test]
fn wrong_types_are_data_errors_that_keep_the_text() {
    let e =
        attnlab_link::decode(&fragment_of(r#"{"t":"my sentence","d":"sixty-four"}"#)).unwrap_err();
    assert_eq!(
        e.kind,
        FragmentErrorKind::Data("invalid type: string \"sixty-four\", expected u64".into())
    );
    assert_eq!(e.text.as_deref(), Some("my sentence"));
    assert_eq!(e.source, None);

    let e = attnlab_link::decode(&fragment_of(r#"{"t":"x","v":[{"tau":"hot"}]}"#)).unwrap_err();
    assert!(matches!(e.kind, FragmentErrorKind::Data(_)));
    assert_eq!(e.text.as_deref(), Some("x"));

    let e = attnlab_link::decode(&fragment_of(r#"{"t":"cut here"#)).unwrap_err();
    assert_eq!(e.kind, FragmentErrorKind::Data("it was cut short".into()));
    assert_eq!(e.text, None, "an unfinished text is not recovered");

    let e = attnlab_link::decode(&fragment_of("[1,2,3]")).unwrap_err();
    assert!(matches!(e.kind, FragmentErrorKind::Data(_)));
    let e = attnlab_link::decode(&fragment_of("\u{0}\u{1}garbage")).unwrap_err();
    assert_eq!(
        e.kind,
        FragmentErrorKind::Data("it is not valid JSON".into())
    );
}

#[test]
fn huge_numbers_are_rejected_or_clamped_with_a_message() {
    // Beyond u64: not a state.
    let e = attnlab_link::decode(&fragment_of(r#"{"t":"hi","d":1e999}"#)).unwrap_err();
    assert!(matches!(e.kind, FragmentErrorKind::Data(_)), "{e:?}");
    assert_eq!(e.text.as_deref(), Some("hi"));
    let e = attnlab_link::decode(&fragment_of(r#"{"d":184467440737095516150}"#)).unwrap_err();
    assert!(matches!(e.kind, FragmentErrorKind::Data(_)), "{e:?}");
    let e = attnlab_link::decode(&fragment_of(r#"{"d":-3}"#)).unwrap_err();
    assert!(matches!(e.kind, FragmentErrorKind::Data(_)), "{e:?}");
    let e = attnlab_link::decode(&fragment_of(r#"{"b":"ten thousand"}"#)).unwrap_err();
    assert_eq!(
        e.kind,
        FragmentErrorKind::Data(
            "invalid value: string \"ten thousand\", expected the sinusoid base as a number".into()
        )
    );
    // A hand-written number is read too.
    let d = attnlab_link::decode(&fragment_of(r#"{"b":1000}"#)).unwrap();
    assert_eq!(d.state.model.position.base, 1000.0);

    // Within u64 but out of range: clamped, and said.
    let d = attnlab_link::decode(&fragment_of(
        r#"{"d":18446744073709551615,"h":0,"n":99999,"b":"1e300",
            "v":[{"n":"A","tau":1e30,"k":0,"s":0,"w":4000000000,"g":[5,5,70000]},
                 {"n":"B","tau":-5,"x":[[1,2],[1,2],[9999,1]]}],
            "w":[9,99,3,3]}"#,
    ))
    .unwrap();
    let s = &d.state;
    assert_eq!(
        (s.model.d_model, s.model.heads, s.pad_to),
        (512, 1, Some(512))
    );
    assert_eq!(s.model.position.base, 1e8);
    let a = &s.variants[0];
    assert_eq!((a.temperature, a.linformer_k), (100.0, 1));
    assert_eq!((a.masks.strided, a.masks.window), (Some(1), Some(512)));
    assert_eq!(a.masks.global, [5]);
    let b = &s.variants[1];
    assert_eq!(b.temperature, 0.01);
    assert_eq!(b.masks.custom, [(1, 2)]);
    assert_eq!(
        s.view,
        View {
            page: Page::Lab,
            variant: 1,
            head: 0,
            compare: (0, 1),
            compare_what: CompareWhat::Head,
            ..View::default()
        }
    );
    assert!(
        d.repairs
            .iter()
            .any(|r| r.contains("d_model 18446744073709551615 is outside 8–512"))
    );
    assert!(d.repairs.iter().any(|r| {
        r.contains("variant A: the temperature 1000000000000000000000000000000 is outside")
    }));
    let loaded = attnlab_link::load(&fragment_of(r#"{"h":7}"#));
    assert_eq!(loaded.state.model.heads, 4);
    assert_eq!(
        loaded.notice.as_deref(),
        Some(
            "Some settings in this link were out of range and were changed: 7 heads do not divide d_model = 64, so there are 4."
        )
    );
}

#[test]
fn forbidden_combinations_are_repaired_with_the_reason() {
    let d = attnlab_link::decode(&fragment_of(
        r#"{"v":[{"n":"L","a":"linformer","c":true},{"n":"E","a":"efficient","p":true,"w":3}]}"#,
    ))
    .unwrap();
    assert!(!d.state.variants[0].masks.causal);
    assert!(
        d.state.variants[1].masks.padding,
        "efficient attention takes padding"
    );
    assert_eq!(d.state.variants[1].masks.window, None);
    assert_eq!(d.repairs.len(), 2, "{:?}", d.repairs);
    assert!(d.repairs[0].starts_with(
        "variant L: the causal mask was turned off (Linformer cannot apply a causal mask"
    ));
}

#[test]
fn a_causal_mask_in_cross_attention_is_repaired_with_the_reason() {
    let d = attnlab_link::decode(&fragment_of(
        r#"{"x":"cross","v":[{"n":"A","c":true},{"n":"B"}]}"#,
    ))
    .unwrap();
    assert_eq!(d.state.mode, Mode::Cross);
    assert!(!d.state.variants[0].masks.causal);
    assert_eq!(d.repairs.len(), 1, "{:?}", d.repairs);
    assert!(
        d.repairs[0].starts_with("variant A: the causal mask was turned off (in cross-attention"),
        "{:?}",
        d.repairs
    );
    let loaded = attnlab_link::load(&fragment_of(
        r#"{"x":"cross","v":[{"n":"A","c":true},{"n":"B"}]}"#,
    ));
    assert!(loaded.notice.unwrap().contains("decoder's self-attention"));
    // The same variant in self-attention keeps its causal mask.
    let d = attnlab_link::decode(&fragment_of(r#"{"v":[{"n":"A","c":true},{"n":"B"}]}"#)).unwrap();
    assert!(d.state.variants[0].masks.causal && d.repairs.is_empty());
}

#[test]
fn unknown_names_fall_back_with_a_message_and_unknown_keys_are_ignored() {
    let d = attnlab_link::decode(&fragment_of(
        r#"{"x":"sideways","p":"rope","l":"zigzag","future":1,"v":[{"n":"Q","f":"quantum","a":"magic","zz":[]}],"w":[0,0,0,0]}"#,
    ))
    .unwrap();
    assert_eq!(d.state.mode, Mode::SelfAttention);
    assert_eq!(d.state.model.position.kind, PositionKind::Sinusoidal);
    assert_eq!(d.state.variants[0].score, ScoreFunction::ScaledDot);
    assert_eq!(d.state.variants[0].attention, AttentionKind::Softmax);
    assert_eq!(d.repairs.len(), 5, "{:?}", d.repairs);
    assert!(
        d.repairs.iter().any(
            |r| *r == "variant Q: the score function “quantum” is unknown, so it is scaled_dot"
        )
    );
}

#[test]
fn the_comparison_of_head_averages_is_in_the_link_and_the_head_is_left_out() {
    let mut s = LabState::default();
    assert_eq!(
        attnlab_link::encode(&s),
        "v1.e30",
        "comparing the selected head is the default"
    );
    s.view.compare_what = CompareWhat::Average;
    let f = attnlab_link::encode(&s);
    assert_eq!(
        f,
        format!("v1.{}", URL_SAFE_NO_PAD.encode(r#"{"o":"average"}"#))
    );
    assert_eq!(attnlab_link::decode(&f).unwrap().state, s);
    let d = attnlab_link::decode(&fragment_of(r#"{"o":"median"}"#)).unwrap();
    assert_eq!(d.state.view.compare_what, CompareWhat::Head);
    assert_eq!(
        d.repairs,
        ["the comparison of “median” is unknown, so it compares the selected head"]
    );
}

#[test]
fn the_page_travels_in_the_link_and_an_unknown_one_opens_the_lab() {
    let mut s = LabState::default();
    for page in Page::ALL {
        s.view.page = page;
        let f = attnlab_link::encode(&s);
        assert_eq!(
            attnlab_link::decode(&f).unwrap().state.view.page,
            page,
            "{f}"
        );
    }
    s.view.page = Page::Positions;
    assert_eq!(
        attnlab_link::encode(&s),
        format!("v1.{}", URL_SAFE_NO_PAD.encode(r#"{"u":"positions"}"#))
    );
    let d = attnlab_link::decode(&fragment_of(r#"{"u":"<b>x</b>"}"#)).unwrap();
    assert_eq!(d.state.view.page, Page::Lab);
    assert_eq!(
        d.repairs,
        ["the page “<b>x</b>” is unknown, so the lab is shown"]
    );
}

#[test]
fn a_decompression_bomb_is_cut_off() {
    // 2 MiB of spaces compress to a few kilobytes; the decoder stops at its limit.
    let json = format!("{{\"t\":\"x\"{}}}", " ".repeat(2 << 20));
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 10);
    let f = format!("v1z.{}", URL_SAFE_NO_PAD.encode(packed));
    assert!(f.len() < MAX_FRAGMENT_LEN);
    let e = attnlab_link::decode(&f).unwrap_err();
    assert_eq!(e.kind, FragmentErrorKind::Compression);
    assert_eq!(e.text.as_deref(), Some("x"));
}

#[test]
fn the_default_texts_are_omitted_but_restored() {
    let mut s = LabState::default();
    s.set_mode(Mode::Cross);
    let f = attnlab_link::encode(&s);
    let d = attnlab_link::decode(&f).unwrap();
    assert_eq!(d.state.source, DEFAULT_SOURCE);
    assert_eq!(d.state.text, "I love machine learning");
    assert_eq!(d.state.mode, Mode::Cross);
}

#[test]
fn a_link_with_a_text_over_the_limit_keeps_its_beginning_and_says_so() {
    use attnlab_lab::tokens::MAX_TEXT_CHARS;
    let mut state = LabState::default();
    // Random-looking emoji compress badly: the longest link two full texts can make.
    let emoji: String = (0..MAX_TEXT_CHARS)
        .map(|i| char::from_u32(0x1F600 + (i * 7919 % 80) as u32).unwrap())
        .collect();
    state.text = emoji.clone();
    state.source = emoji.clone();
    let link = attnlab_link::encode(&state);
    assert!(link.len() <= MAX_FRAGMENT_LEN, "{} bytes", link.len());
    assert_eq!(attnlab_link::decode(&link).unwrap().state, state);

    // A hand-made link with more than the limit: the beginning is kept, with a repair.
    state.text = format!("{emoji}and more");
    let decoded = attnlab_link::decode(&attnlab_link::encode(&state)).unwrap();
    assert_eq!(decoded.state.text, emoji);
    assert!(
        decoded
            .repairs
            .iter()
            .any(|r| r.contains("longer than 20000 characters"))
    );
}

#[test]
fn the_zoom_and_the_lines_threshold_travel_in_the_link() {
    // A link written before either existed: the whole matrix, the default threshold.
    let old = attnlab_link::decode(&fragment_of(r#"{"t":"a b c","u":"lines"}"#)).unwrap();
    assert_eq!(old.state.view.zoom, None);
    assert_eq!(old.state.view.lines_threshold, DEFAULT_LINES_THRESHOLD);
    assert!(old.repairs.is_empty());

    let mut s = LabState::default();
    s.view.zoom = Some(Zoom::new((160, 120), (100, 180)));
    assert_eq!(s.view.zoom.unwrap().queries, (120, 160));
    s.view.lines_threshold = 200;
    let f = attnlab_link::encode(&s);
    // The same state written by hand in the v1 JSON reads back the same.
    let by_hand =
        attnlab_link::decode(&fragment_of(r#"{"z":[120,160,100,180],"lw":200}"#)).unwrap();
    assert_eq!(by_hand.state, s);
    let d = attnlab_link::decode(&f).unwrap();
    assert_eq!(d.state, s);
    assert!(d.repairs.is_empty());
    // The defaults are left out.
    assert_eq!(attnlab_link::encode(&LabState::default()), "v1.e30");
}

#[test]
fn the_kv_cache_calculator_travels_in_the_link() {
    // A link written before the calculator existed opens it on its defaults.
    let old = attnlab_link::decode(&fragment_of(r#"{"t":"a b c","u":"linear"}"#)).unwrap();
    assert_eq!(old.state.view.kv_cache, KvCache::default());
    assert!(old.repairs.is_empty());

    let mut s = LabState::default();
    s.view.page = Page::Decoding;
    s.view.kv_cache = KvCache {
        layers: 60,
        query_heads: 128,
        kv_heads: 128,
        head_dim: 128,
        bits: 4,
        latent: Some((512, 64)),
        context: 131_072,
        batch: 3,
    };
    let by_hand = attnlab_link::decode(&fragment_of(
        r#"{"u":"decoding","kv":{"l":60,"h":128,"g":128,"b":4,"c":[512,64],"t":131072,"n":3}}"#,
    ))
    .unwrap();
    assert_eq!(by_hand.state, s);
    let d = attnlab_link::decode(&attnlab_link::encode(&s)).unwrap();
    assert_eq!(d.state, s);
    // Only what differs from the defaults is written.
    let mut g4 = LabState::default();
    g4.view.kv_cache.kv_heads = 4;
    assert_eq!(
        attnlab_link::encode(&g4),
        format!("v1.{}", URL_SAFE_NO_PAD.encode(r#"{"kv":{"g":4}}"#))
    );
    // An unknown key inside it is named by its path.
    let u = attnlab_link::decode_value(serde_json::json!({"kv": {"zz": 1}})).unwrap();
    assert_eq!(u.state.view.kv_cache, KvCache::default());
    assert_eq!(
        u.repairs,
        ["the key “kv.zz” is not part of a state and was ignored"]
    );
}

#[test]
fn the_block_pages_settings_travel_in_the_link_and_old_links_open_with_the_defaults() {
    // A link written before the page existed: its defaults, nothing to repair.
    let old = attnlab_link::decode(&fragment_of(r#"{"t":"a b c","u":"steps"}"#)).unwrap();
    assert_eq!(old.state.view.block, BlockView::default());
    assert!(old.repairs.is_empty());
    assert_eq!(Page::parse("block"), Some(Page::Block));

    let mut s = LabState::default();
    s.view.page = Page::Block;
    s.view.block = BlockView {
        layers: 5,
        norm: Norm::Pre,
        activation: Activation::Gelu,
        heads: 8,
        ffn_multiple: 2,
        shown: 3,
    };
    let by_hand = attnlab_link::decode(&fragment_of(
        r#"{"u":"block","bk":{"l":5,"n":"pre","a":"gelu","h":8,"f":2,"s":3}}"#,
    ))
    .unwrap();
    assert_eq!(by_hand.state, s);
    let d = attnlab_link::decode(&attnlab_link::encode(&s)).unwrap();
    assert_eq!(d.state, s);
    assert!(d.repairs.is_empty());
    // Only what differs from the defaults is written.
    let mut one = LabState::default();
    one.view.block.norm = Norm::Pre;
    let json = String::from_utf8(
        URL_SAFE_NO_PAD
            .decode(attnlab_link::encode(&one).trim_start_matches("v1."))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(json, r#"{"bk":{"n":"pre"}}"#);

    // Unknown names fall back to the defaults with a sentence in both languages.
    let bad = attnlab_link::decode(&fragment_of(r#"{"bk":{"n":"middle","a":"tanh"}}"#)).unwrap();
    assert_eq!(bad.state.view.block, BlockView::default());
    assert_eq!(bad.repairs.len(), 2, "{:?}", bad.repairs);
    assert!(bad.repairs.iter().all(|r| !r.zh.is_empty()));
}

#[test]
fn the_classic_decoders_step_and_feed_travel_in_the_link_and_old_links_open_with_the_defaults() {
    // A link written before the section existed: step 1, the context fed back.
    let old = attnlab_link::decode(&fragment_of(r#"{"t":"a b c","u":"decoding"}"#)).unwrap();
    assert_eq!(old.state.view.seq2seq, Seq2seqView::default());
    assert_eq!(
        Seq2seqView::default(),
        Seq2seqView {
            step: 1,
            feed: true
        }
    );
    assert!(old.repairs.is_empty());

    let mut s = LabState::default();
    s.view.page = Page::Decoding;
    s.view.seq2seq = Seq2seqView {
        step: 4,
        feed: false,
    };
    let by_hand =
        attnlab_link::decode(&fragment_of(r#"{"u":"decoding","s2":{"t":4,"f":false}}"#)).unwrap();
    assert_eq!(by_hand.state, s);
    assert!(by_hand.repairs.is_empty());
    let d = attnlab_link::decode(&attnlab_link::encode(&s)).unwrap();
    assert_eq!(d.state, s);
    // Only what differs from the defaults is written; the defaults write nothing.
    let mut one = LabState::default();
    one.view.seq2seq.step = 3;
    let json = |state: &LabState| {
        String::from_utf8(
            URL_SAFE_NO_PAD
                .decode(attnlab_link::encode(state).trim_start_matches("v1."))
                .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(json(&one), r#"{"s2":{"t":3}}"#);
    assert!(!json(&LabState::default()).contains("s2"));
    // An unknown key inside it is named by its path.
    let u = attnlab_link::decode_value(serde_json::json!({"s2": {"q": 1}})).unwrap();
    assert_eq!(u.state.view.seq2seq, Seq2seqView::default());
    assert_eq!(
        u.repairs,
        ["the key “s2.q” is not part of a state and was ignored"]
    );
}

#[test]
fn the_decoding_steppers_step_layer_and_head_travel_in_the_link_and_old_links_open_at_step_0() {
    // A link written before the stepper existed (the page's calculator set): step 0,
    // layer 0, head 0, nothing to repair.
    let old = attnlab_link::decode(&fragment_of(r#"{"u":"decoding","kv":{"t":4096}}"#)).unwrap();
    assert_eq!(old.state.view.decode_step, DecodeStepView::default());
    assert_eq!(old.state.view.kv_cache.context, 4096);
    assert!(old.repairs.is_empty());

    let mut s = LabState::default();
    s.view.page = Page::Decoding;
    s.view.decode_step = DecodeStepView {
        step: 7,
        layer: 1,
        head: 2,
    };
    let by_hand =
        attnlab_link::decode(&fragment_of(r#"{"u":"decoding","ds":{"t":7,"l":1,"h":2}}"#)).unwrap();
    assert_eq!(by_hand.state, s);
    let d = attnlab_link::decode(&attnlab_link::encode(&s)).unwrap();
    assert_eq!(d.state, s);
    assert!(d.repairs.is_empty());
    // Only what differs from the defaults is written.
    let mut one = LabState::default();
    one.view.decode_step.step = 3;
    let json = String::from_utf8(
        URL_SAFE_NO_PAD
            .decode(attnlab_link::encode(&one).trim_start_matches("v1."))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(json, r#"{"ds":{"t":3}}"#);
    // An unknown key inside it is reported.
    let u = attnlab_link::decode_value(serde_json::json!({"ds": {"t": 2, "q": 1}})).unwrap();
    assert_eq!(u.state.view.decode_step.step, 2);
    assert_eq!(
        u.repairs,
        ["the key “ds.q” is not part of a state and was ignored"]
    );
}

#[test]
fn a_tampered_zoom_or_threshold_is_repaired_with_a_message() {
    let d =
        attnlab_link::decode(&fragment_of(r#"{"z":[900,40,3,99999999999],"lw":5000}"#)).unwrap();
    assert_eq!(
        d.state.view.zoom,
        Some(Zoom {
            queries: (40, 511),
            keys: (3, 511)
        })
    );
    assert_eq!(d.state.view.lines_threshold, 1000);
    let en: Vec<&str> = d.repairs.iter().map(|r| r.en.as_str()).collect();
    assert!(
        en.contains(
            &"the zoom queries 900–40, keys 3–99999999999 is outside 0–511 or reversed, so it is queries 40–511, keys 3–511"
        ),
        "{en:?}"
    );
    assert!(
        en.contains(&"the lines' least weight 5 is outside 0–1, so it is 1"),
        "{en:?}"
    );
    assert!(d.repairs.iter().all(|r| !r.zh.is_empty()));
    // A reversed range within the limit is put in order, and said so.
    let d = attnlab_link::decode(&fragment_of(r#"{"z":[160,120,100,180]}"#)).unwrap();
    assert_eq!(d.state.view.zoom, Some(Zoom::new((120, 160), (100, 180))));
    assert_eq!(d.repairs.len(), 1);
    // Wrong types are data errors that keep the text.
    let e = attnlab_link::decode(&fragment_of(r#"{"t":"kept","z":[1,2]}"#)).unwrap_err();
    assert_eq!(e.text.as_deref(), Some("kept"));
}

#[test]
fn a_zoom_is_fitted_to_the_text_it_is_drawn_with() {
    let z = Zoom::new((120, 160), (100, 180));
    assert_eq!(z.within(300, 300), (120..161, 100..181));
    // A shorter text: the same number of rows and columns, at its end.
    assert_eq!(z.within(140, 90), (99..140, 9..90));
    assert_eq!(z.within(11, 11), (0..11, 0..11));
    assert_eq!(z.within(0, 5), (0..0, 0..5));
    assert!(z.is_whole(11, 11));
    assert!(Zoom::new((0, 10), (0, 10)).is_whole(11, 11));
    assert!(Zoom::new((0, 511), (0, 511)).is_whole(11, 11));
    assert!(!z.is_whole(300, 300));
}

/// Each option of issue 33 alone in variant B: it round-trips, it travels under its own
/// key (and only it: a default variant writes none of them).
#[test]
fn every_modern_option_travels_under_its_key_and_round_trips() {
    type Set = Box<dyn Fn(&mut Variant)>;
    let cases: Vec<(&str, Set)> = vec![
        ("\"sn\":2", Box::new(|v| v.masks.sinks = Some(2))),
        ("\"ro\":{}", Box::new(|v| v.rope = Some(Rope::default()))),
        (
            "\"ro\":{\"b\":500000.0,\"p\":\"interleaved\",\"r\":8,\"s\":\"yarn\",\"f\":4.0,\"l\":16.0}",
            Box::new(|v| {
                v.rope = Some(Rope {
                    base: 500_000.0,
                    pairs: RopePairs::Interleaved,
                    rotary_dims: Some(8),
                    scaling: RopeScaling::Yarn {
                        factor: 4.0,
                        original_max_positions: 16.0,
                        beta_fast: 32.0,
                        beta_slow: 1.0,
                    },
                    ..Rope::default()
                })
            }),
        ),
        (
            "\"ro\":{\"s\":\"ntk\",\"f\":2.5}",
            Box::new(|v| {
                v.rope = Some(Rope {
                    scaling: RopeScaling::Ntk { factor: 2.5 },
                    ..Rope::default()
                })
            }),
        ),
        ("\"al\":true", Box::new(|v| v.alibi = true)),
        ("\"sc\":5.0", Box::new(|v| v.softcap = Some(5.0))),
        ("\"kv\":1", Box::new(|v| v.kv_groups = Some(1))),
        ("\"tl\":3", Box::new(|v| v.tiles = Some(3))),
        (
            "\"a\":\"sigmoid\",\"sb\":-1.5",
            Box::new(|v| {
                v.attention = AttentionKind::Sigmoid;
                v.sigmoid_bias = Some(-1.5);
            }),
        ),
        (
            "\"a\":\"differential\",\"la\":0.5",
            Box::new(|v| {
                v.attention = AttentionKind::Differential;
                v.lambda = 0.5;
            }),
        ),
        (
            "\"a\":\"decayed_linear\",\"dg\":0.75",
            Box::new(|v| {
                v.attention = AttentionKind::DecayedLinear;
                v.decay = 0.75;
            }),
        ),
        (
            "\"a\":\"sink\",\"sk\":2.0",
            Box::new(|v| {
                v.attention = AttentionKind::Sink;
                v.sink_logit = 2.0;
            }),
        ),
        (
            "\"a\":\"favor\",\"fr\":16",
            Box::new(|v| {
                v.attention = AttentionKind::Favor;
                v.features = 16;
            }),
        ),
        (
            "\"a\":\"softmax_plus_one\"",
            Box::new(|v| v.attention = AttentionKind::SoftmaxPlusOne),
        ),
        (
            "\"a\":\"softpick\"",
            Box::new(|v| v.attention = AttentionKind::Softpick),
        ),
    ];
    let plain = json_of(&LabState::default());
    for key in [
        "sn", "ro", "al", "sc", "kv", "tl", "sb", "la", "dg", "sk", "fr",
    ] {
        assert!(!plain.contains(&format!("\"{key}\"")), "{plain}");
    }
    for (json, set) in cases {
        let mut state = LabState::default();
        set(&mut state.variants[1]);
        assert!(
            state.problems().is_empty(),
            "{json}: {:?}",
            state.problems()
        );
        let written = json_of(&state);
        assert!(written.contains(json), "{json} not in {written}");
        let decoded = attnlab_link::decode(&attnlab_link::encode(&state)).unwrap();
        assert_eq!(decoded.state, state, "{json}");
        assert!(decoded.repairs.is_empty(), "{json}: {:?}", decoded.repairs);
    }
}

#[test]
fn tampered_modern_options_are_repaired_with_a_message() {
    let d = attnlab_link::decode(&fragment_of(
        r#"{"v":[{"n":"A","a":"elu1","al":true,"sc":9999,"kv":3},{"n":"B","ro":{"r":7,"s":"warp"},"la":7,"fr":0,"tl":4,"a":"sigmoid"}]}"#,
    ))
    .unwrap();
    let (a, b) = (&d.state.variants[0], &d.state.variants[1]);
    assert!(!a.alibi, "elu+1 has no logits for ALiBi");
    assert_eq!(a.softcap, None, "nor for a softcap");
    assert_eq!(a.kv_groups, Some(2), "3 groups do not divide 4 heads");
    let rope = b.rope.as_ref().unwrap();
    assert_eq!(
        (rope.rotary_dims, rope.scaling),
        (Some(6), RopeScaling::None)
    );
    assert_eq!((b.lambda, b.features, b.tiles), (1.0, 1, None));
    let said = d.repairs.join("\n");
    for part in [
        "variant B: RoPE's scaling “warp” is unknown, so RoPE is not scaled",
        "variant A: the ALiBi bias was turned off (elu+1 linear attention has no logits",
        "variant A: 3 key/value groups do not divide 4 heads, so there are 2",
        "variant B: RoPE's rotary dims r = 7 do not fit d_k = 16, so r = 6",
        "variant B: the tiles was turned off (only softmax attention is computed tile by tile",
        "variant B: λ 7 is outside 0–1, so it is 1",
    ] {
        assert!(said.contains(part), "{part}\n in\n{said}");
    }
    let zh = d
        .repairs
        .iter()
        .map(|r| r.get(attnlab_i18n::Lang::Zh))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(zh.contains("键值组"), "{zh}");
}

/// The JSON a state's link carries.
fn json_of(state: &LabState) -> String {
    let f = attnlab_link::encode(state);
    let (tag, body) = f.split_once('.').unwrap();
    let bytes = URL_SAFE_NO_PAD.decode(body).unwrap();
    let bytes = match tag {
        "v1z" => miniz_oxide::inflate::decompress_to_vec(&bytes).unwrap(),
        _ => bytes,
    };
    String::from_utf8(bytes).unwrap()
}
