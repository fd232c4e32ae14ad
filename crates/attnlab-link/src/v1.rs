//! The version-1 wire format: short keys, every field optional (absent means the v1
//! default), so a link carries only what differs from the defaults.

use attnlab_core::attention::AttentionKind;
use attnlab_core::embed::EmbeddingScale;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, Layout, PositionKind};
use attnlab_core::rope::{Rope, RopePairs, RopeScaling};
use attnlab_core::score::ScoreFunction;
use serde::{Deserialize, Serialize};
use std::fmt;

use attnlab_i18n::msg::link;
use attnlab_i18n::said::Said;
use attnlab_lab::state::{Checkpoint, PretrainedView, Relevance};
use attnlab_lab::state::{
    CompareWhat, DEFAULT_SENTENCE, DEFAULT_SOURCE, LabState, Masks, Mode, ModelConfig, Page,
    Variant, View, Zoom,
};

mod page_settings;
use page_settings::{WireBlock, WireKv, WireSeq2seq, WireStep};

/// v1's frozen defaults (not `LabState::default()`, which may change).
pub(super) mod defaults {
    pub const D_MODEL: u64 = 64;
    pub const HEADS: u64 = 4;
    pub const SEED: u64 = 42;
    pub const BASE: f64 = 10_000.0;
    pub const TEMPERATURE: f32 = 1.0;
    pub const LINFORMER_K: u64 = 4;
    pub const VIEW: [u64; 4] = [0, 0, 0, 1];
    /// The Lines page's threshold in thousandths (added to v1 with the field `lw`).
    pub const LINES_THRESHOLD: u64 = 50;
    /// A variant's options added to v1 with issue 33 (fields `ro`, `al`, `sc`, `kv`,
    /// `tl`, `sb`, `la`, `dg`, `sk`, `fr`, `sn`): absent means off, or these values.
    pub const LAMBDA: f32 = 0.8;
    pub const DECAY: f32 = 0.9;
    pub const SINK_LOGIT: f32 = 0.0;
    pub const FEATURES: u64 = 64;
    pub const ROPE_BASE: f32 = 10_000.0;
    /// The Decoding page's KV-cache calculator (added to v1 with the field `kv`): a
    /// Llama-3-8B-shaped model at fp16, 8,192 tokens, one sequence.
    pub const KV_CACHE: attnlab_lab::state::KvCache = attnlab_lab::state::KvCache {
        layers: 32,
        query_heads: 32,
        kv_heads: 8,
        head_dim: 128,
        bits: 16,
        latent: None,
        context: 8192,
        batch: 1,
    };
    /// The Block page's settings (added to v1 with the field `bk`): two post-LN layers,
    /// ReLU, four heads, `f = 4·d`, layer 0 shown.
    pub const BLOCK: attnlab_lab::state::BlockView = attnlab_lab::state::BlockView {
        layers: 2,
        norm: attnlab_lab::state::Norm::Post,
        activation: attnlab_lab::state::Activation::Relu,
        heads: 4,
        ffn_multiple: 4,
        shown: 0,
    };
    /// The Decoding page's classic decoder (added to v1 with the field `s2`): step 1, the
    /// context fed back.
    pub const SEQ2SEQ: attnlab_lab::state::Seq2seqView = attnlab_lab::state::Seq2seqView {
        step: 1,
        feed: true,
    };
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub(super) struct Wire {
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<Base>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    i: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    v: Option<Vec<WireVariant>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    w: Option<[u64; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    u: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    m: Option<WirePretrained>,
    #[serde(skip_serializing_if = "Option::is_none")]
    y: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    z: Option<[u64; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lw: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kv: Option<WireKv>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bk: Option<WireBlock>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s2: Option<WireSeq2seq>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ds: Option<WireStep>,
}

/// The real model's view: `k` checkpoint, `l` layer, `h` head, `x` hide `[CLS]`/`[SEP]`,
/// `q` the head search's `[query, key]`, `f` `"flow"`; defaults layer 0, head 0, shown,
/// no search, rollout.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct WirePretrained {
    k: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    q: Option<(u64, u64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<String>,
}

impl WirePretrained {
    fn from_view(v: &PretrainedView) -> WirePretrained {
        WirePretrained {
            k: v.checkpoint.name().into(),
            l: unless(v.layer as u64, 0),
            h: unless(v.head as u64, 0),
            x: v.hide_special.then_some(true),
            q: v.search.map(|(q, k)| (q as u64, k as u64)),
            f: unless(v.relevance, Relevance::Rollout).map(|r| r.name().into()),
        }
    }

    fn into_view(self, unknown: &mut Vec<Said>) -> Option<PretrainedView> {
        let Some(checkpoint) = Checkpoint::parse(&self.k) else {
            let k = &self.k;
            unknown.push(link::LinkUnknownModel { name: k }.said());
            return None;
        };
        let relevance = match self.f.as_deref() {
            None => Relevance::Rollout,
            Some(name) => Relevance::parse(name).unwrap_or_else(|| {
                unknown.push(link::LinkUnknownRelevance { name: &name }.said());
                Relevance::Rollout
            }),
        };
        Some(PretrainedView {
            checkpoint,
            layer: count(self.l.unwrap_or(0)),
            head: count(self.h.unwrap_or(0)),
            hide_special: self.x.unwrap_or(false),
            search: self.q.map(|(q, k)| (count(q), count(k))),
            relevance,
        })
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct WireVariant {
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tau: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    w: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    g: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<Vec<(u64, u64)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sn: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ro: Option<WireRope>,
    #[serde(skip_serializing_if = "Option::is_none")]
    al: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sc: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kv: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tl: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sb: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    la: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dg: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sk: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fr: Option<u64>,
}

/// RoPE on: `b` base (10000), `p` `"interleaved"` pairs (half), `r` rotary dims (d_k),
/// `s` scaling `"linear"`, `"ntk"` or `"yarn"` (none), `f` its factor, `l` YaRN's
/// trained length.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct WireRope {
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<f32>,
}

impl WireRope {
    fn from_rope(r: &Rope) -> WireRope {
        let (factor, original) = match r.scaling {
            RopeScaling::None => (None, None),
            RopeScaling::Linear { factor } | RopeScaling::Ntk { factor } => (Some(factor), None),
            RopeScaling::Yarn {
                factor,
                original_max_positions,
                ..
            } => (Some(factor), Some(original_max_positions)),
        };
        WireRope {
            b: unless(r.base, defaults::ROPE_BASE),
            p: (r.pairs == RopePairs::Interleaved).then(|| "interleaved".into()),
            r: r.rotary_dims.map(|d| d as u64),
            s: r.scaling.name().map(String::from),
            f: factor,
            l: original,
        }
    }

    fn into_rope(self, variant: &str, unknown: &mut Vec<Said>) -> Rope {
        let pairs = match self.p.as_deref() {
            None => RopePairs::Half,
            Some(name) => RopePairs::parse(name).unwrap_or_else(|| {
                unknown.push(
                    link::LinkUnknownPairs {
                        variant: &variant,
                        name: &name,
                    }
                    .said(),
                );
                RopePairs::Half
            }),
        };
        let factor = self.f.unwrap_or(attnlab_lab::state::DEFAULT_ROPE_FACTOR);
        let scaling = match self.s.as_deref() {
            None => RopeScaling::None,
            Some("linear") => RopeScaling::Linear { factor },
            Some("ntk") => RopeScaling::Ntk { factor },
            Some("yarn") => RopeScaling::Yarn {
                factor,
                original_max_positions: self.l.unwrap_or(attnlab_lab::state::DEFAULT_ROPE_ORIGINAL),
                beta_fast: 32.0,
                beta_slow: 1.0,
            },
            Some(name) => {
                unknown.push(
                    link::LinkUnknownScaling {
                        variant: &variant,
                        name: &name,
                    }
                    .said(),
                );
                RopeScaling::None
            }
        };
        Rope {
            base: self.b.unwrap_or(defaults::ROPE_BASE),
            pairs,
            rotary_dims: self.r.map(count),
            scaling,
            ..Rope::default()
        }
    }
}

/// The sinusoid base, written as a string of the shortest decimal that reads back as the
/// same `f64` (and read with `str::parse`, which rounds correctly), so every base survives
/// the round trip exactly; a number is accepted too.
#[derive(Debug, Clone, Copy)]
struct Base(f64);

impl Serialize for Base {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Base {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Base, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Base;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the sinusoid base as a number")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Base, E> {
                Ok(Base(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Base, E> {
                Ok(Base(v as f64))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Base, E> {
                Ok(Base(v as f64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Base, E> {
                v.parse()
                    .map(Base)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// `Some(value)` unless it is the default.
fn unless<T: PartialEq>(value: T, default: T) -> Option<T> {
    (value != default).then_some(value)
}

fn position_name(kind: PositionKind) -> &'static str {
    match kind {
        PositionKind::None => "none",
        PositionKind::Sinusoidal => "sinusoidal",
        PositionKind::Learned => "learned",
    }
}

pub(super) fn v1_variants() -> Vec<Variant> {
    let mut b = Variant::named("B");
    b.score = ScoreFunction::Dot;
    vec![Variant::named("A"), b]
}

fn v1_variant(name: &str) -> Variant {
    let mut v = Variant::named(name);
    v.temperature = defaults::TEMPERATURE;
    v.linformer_k = defaults::LINFORMER_K as usize;
    v
}

/// A count from the wire: numbers beyond `usize` become `usize::MAX` (and are then
/// clamped by the repair, with a message).
fn count(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

impl Wire {
    pub(super) fn from_state(state: &LabState) -> Wire {
        let m = &state.model;
        let view = [
            state.view.variant as u64,
            state.view.head as u64,
            state.view.compare.0 as u64,
            state.view.compare.1 as u64,
        ];
        Wire {
            t: unless(state.text.as_str(), DEFAULT_SENTENCE).map(String::from),
            s: unless(state.source.as_str(), DEFAULT_SOURCE).map(String::from),
            x: (state.mode == Mode::Cross).then(|| "cross".into()),
            d: unless(m.d_model as u64, defaults::D_MODEL),
            h: unless(m.heads as u64, defaults::HEADS),
            r: unless(m.seed, defaults::SEED),
            p: unless(m.position.kind, PositionKind::Sinusoidal).map(|k| position_name(k).into()),
            b: unless(m.position.base, defaults::BASE).map(Base),
            l: (m.position.layout == Layout::Split).then(|| "split".into()),
            c: match m.position.combine {
                Combine::Add => None,
                Combine::Concat { d_pos } => Some(d_pos as u64),
            },
            e: unless(m.embedding_scale == EmbeddingScale::SqrtDModel, true),
            i: (m.projection == Projection::Identity).then_some(true),
            n: state.pad_to.map(|n| n as u64),
            v: (state.variants != v1_variants()).then(|| {
                state
                    .variants
                    .iter()
                    .map(WireVariant::from_variant)
                    .collect()
            }),
            w: unless(view, defaults::VIEW),
            o: (state.view.compare_what == CompareWhat::Average).then(|| "average".into()),
            u: (state.view.page != Page::Lab).then(|| state.view.page.name().into()),
            m: state.pretrained.as_ref().map(WirePretrained::from_view),
            y: (!state.pair.is_empty()).then(|| state.pair.clone()),
            z: state
                .view
                .zoom
                .map(|z| [z.queries.0, z.queries.1, z.keys.0, z.keys.1].map(|i| i as u64)),
            lw: unless(state.view.lines_threshold as u64, defaults::LINES_THRESHOLD),
            kv: WireKv::from_cache(&state.view.kv_cache),
            bk: WireBlock::from_view(&state.view.block),
            s2: WireSeq2seq::from_view(&state.view.seq2seq),
            ds: WireStep::from_view(&state.view.decode_step),
        }
    }

    /// The state this wire describes, with a sentence for every unknown name.
    pub(super) fn into_state(self) -> (LabState, Vec<Said>) {
        let mut unknown = Vec::new();
        let mut model = ModelConfig {
            d_model: count(self.d.unwrap_or(defaults::D_MODEL)),
            heads: count(self.h.unwrap_or(defaults::HEADS)),
            seed: self.r.unwrap_or(defaults::SEED),
            ..ModelConfig::default()
        };
        model.position.kind = match self.p.as_deref() {
            None | Some("sinusoidal") => PositionKind::Sinusoidal,
            Some("none") => PositionKind::None,
            Some("learned") => PositionKind::Learned,
            Some(other) => {
                unknown.push(link::LinkUnknownPosition { name: &other }.said());
                PositionKind::Sinusoidal
            }
        };
        model.position.base = self.b.map_or(defaults::BASE, |b| b.0);
        model.position.layout = match self.l.as_deref() {
            None | Some("interleaved") => Layout::Interleaved,
            Some("split") => Layout::Split,
            Some(other) => {
                unknown.push(link::LinkUnknownLayout { name: &other }.said());
                Layout::Interleaved
            }
        };
        model.position.combine = match self.c {
            None => Combine::Add,
            Some(d_pos) => Combine::Concat {
                d_pos: count(d_pos),
            },
        };
        model.embedding_scale = if self.e.unwrap_or(true) {
            EmbeddingScale::SqrtDModel
        } else {
            EmbeddingScale::Unit
        };
        model.projection = if self.i.unwrap_or(false) {
            Projection::Identity
        } else {
            Projection::Seeded
        };
        let mode = match self.x.as_deref() {
            None | Some("self") => Mode::SelfAttention,
            Some("cross") => Mode::Cross,
            Some(other) => {
                unknown.push(link::LinkUnknownMode { name: &other }.said());
                Mode::SelfAttention
            }
        };
        let variants = match self.v {
            None => v1_variants(),
            Some(list) => list
                .into_iter()
                .enumerate()
                .map(|(i, w)| w.into_variant(i, &mut unknown))
                .collect(),
        };
        let [variant, head, a, b] = self.w.unwrap_or(defaults::VIEW).map(count);
        let compare_what = match self.o.as_deref() {
            None | Some("head") => CompareWhat::Head,
            Some("average") => CompareWhat::Average,
            Some(other) => {
                unknown.push(link::LinkUnknownComparison { name: &other }.said());
                CompareWhat::Head
            }
        };
        let page = match self.u.as_deref() {
            None => Page::Lab,
            Some(name) => Page::parse(name).unwrap_or_else(|| {
                unknown.push(link::LinkUnknownPage { name: &name }.said());
                Page::Lab
            }),
        };
        let state = LabState {
            mode,
            text: self.t.unwrap_or_else(|| DEFAULT_SENTENCE.into()),
            source: self.s.unwrap_or_else(|| DEFAULT_SOURCE.into()),
            model,
            pad_to: self.n.map(count),
            variants,
            view: View {
                page,
                variant,
                head,
                compare: (a, b),
                compare_what,
                // As written: a reversed or too large range is the repair's to report.
                zoom: self.z.map(|[a, b, c, d]| Zoom {
                    queries: (count(a), count(b)),
                    keys: (count(c), count(d)),
                }),
                lines_threshold: count(self.lw.unwrap_or(defaults::LINES_THRESHOLD)),
                kv_cache: self.kv.map_or(defaults::KV_CACHE, WireKv::into_cache),
                block: self
                    .bk
                    .map_or(defaults::BLOCK, |b| b.into_view(&mut unknown)),
                seq2seq: self.s2.map_or(defaults::SEQ2SEQ, WireSeq2seq::into_view),
                decode_step: self.ds.map_or_else(Default::default, WireStep::into_view),
            },
            pretrained: self.m.and_then(|m| m.into_view(&mut unknown)),
            pair: self.y.unwrap_or_default(),
        };
        (state, unknown)
    }
}

impl WireVariant {
    fn from_variant(v: &Variant) -> WireVariant {
        let m = &v.masks;
        WireVariant {
            n: Some(v.name.clone()),
            f: unless(v.score, ScoreFunction::ScaledDot).map(|s| s.name().into()),
            tau: unless(v.temperature, defaults::TEMPERATURE),
            a: unless(v.attention, AttentionKind::Softmax).map(|a| a.name().into()),
            k: unless(v.linformer_k as u64, defaults::LINFORMER_K),
            c: m.causal.then_some(true),
            p: m.padding.then_some(true),
            w: m.window.map(|r| r as u64),
            s: m.strided.map(|s| s as u64),
            g: (!m.global.is_empty()).then(|| m.global.iter().map(|&g| g as u64).collect()),
            x: (!m.custom.is_empty()).then(|| {
                m.custom
                    .iter()
                    .map(|&(i, j)| (i as u64, j as u64))
                    .collect()
            }),
            sn: m.sinks.map(|s| s as u64),
            ro: v.rope.as_ref().map(WireRope::from_rope),
            al: v.alibi.then_some(true),
            sc: v.softcap,
            kv: v.kv_groups.map(|g| g as u64),
            tl: v.tiles.map(|b| b as u64),
            sb: v.sigmoid_bias,
            la: unless(v.lambda, defaults::LAMBDA),
            dg: unless(v.decay, defaults::DECAY),
            sk: unless(v.sink_logit, defaults::SINK_LOGIT),
            fr: unless(v.features as u64, defaults::FEATURES),
        }
    }

    fn into_variant(self, index: usize, unknown: &mut Vec<Said>) -> Variant {
        let letter = char::from(b'A' + (index % 26) as u8).to_string();
        let mut v = v1_variant(&letter);
        let name = self.n.unwrap_or(letter);
        if let Some(f) = self.f {
            match ScoreFunction::parse(&f) {
                Some(score) => v.score = score,
                None => unknown.push(
                    link::LinkUnknownScore {
                        variant: &name,
                        name: &f,
                    }
                    .said(),
                ),
            }
        }
        if let Some(a) = self.a {
            match attnlab_lab::state::parse_kind(&a) {
                Some(kind) => v.attention = kind,
                None => unknown.push(
                    link::LinkUnknownAttention {
                        variant: &name,
                        name: &a,
                    }
                    .said(),
                ),
            }
        }
        v.name = name;
        v.temperature = self.tau.unwrap_or(defaults::TEMPERATURE);
        v.linformer_k = count(self.k.unwrap_or(defaults::LINFORMER_K));
        v.masks = Masks {
            causal: self.c.unwrap_or(false),
            padding: self.p.unwrap_or(false),
            window: self.w.map(count),
            strided: self.s.map(count),
            global: self.g.unwrap_or_default().into_iter().map(count).collect(),
            custom: self
                .x
                .unwrap_or_default()
                .into_iter()
                .map(|(i, j)| (count(i), count(j)))
                .collect(),
            sinks: self.sn.map(count),
        };
        v.rope = self.ro.map(|r| r.into_rope(&v.name, unknown));
        v.alibi = self.al.unwrap_or(false);
        v.softcap = self.sc;
        v.kv_groups = self.kv.map(count);
        v.tiles = self.tl.map(count);
        v.sigmoid_bias = self.sb;
        v.lambda = self.la.unwrap_or(defaults::LAMBDA);
        v.decay = self.dg.unwrap_or(defaults::DECAY);
        v.sink_logit = self.sk.unwrap_or(defaults::SINK_LOGIT);
        v.features = count(self.fr.unwrap_or(defaults::FEATURES));
        v
    }
}

/// The keys of a v1 state, of one of its variants, and of its real-model view.
const STATE_KEYS: [&str; 25] = [
    "t", "s", "x", "d", "h", "r", "p", "b", "l", "c", "e", "i", "n", "v", "w", "o", "u", "m", "y",
    "z", "lw", "kv", "bk", "s2", "ds",
];
const VARIANT_KEYS: [&str; 22] = [
    "n", "f", "tau", "a", "k", "c", "p", "w", "s", "g", "x", "sn", "ro", "al", "sc", "kv", "tl",
    "sb", "la", "dg", "sk", "fr",
];
const ROPE_KEYS: [&str; 6] = ["b", "p", "r", "s", "f", "l"];
const PRETRAINED_KEYS: [&str; 6] = ["k", "l", "h", "x", "q", "f"];
const KV_KEYS: [&str; 8] = ["l", "h", "g", "e", "b", "c", "t", "n"];
const BLOCK_KEYS: [&str; 6] = ["l", "n", "a", "h", "f", "s"];
const SEQ2SEQ_KEYS: [&str; 2] = ["t", "f"];
const STEP_KEYS: [&str; 3] = ["t", "l", "h"];

/// The paths of the keys of a JSON state that version 1 does not have (`"tx"`,
/// `"v[1].temp"`, `"m.layer"`): a link ignores them, a lesson must not have them.
pub(super) fn unknown_keys(value: &serde_json::Value) -> Vec<String> {
    fn check(object: &serde_json::Value, known: &[&str], at: &str, out: &mut Vec<String>) {
        if let Some(map) = object.as_object() {
            out.extend(
                map.keys()
                    .filter(|k| !known.contains(&k.as_str()))
                    .map(|k| format!("{at}{k}")),
            );
        }
    }
    let mut out = Vec::new();
    check(value, &STATE_KEYS, "", &mut out);
    if let Some(variants) = value.get("v").and_then(|v| v.as_array()) {
        for (i, variant) in variants.iter().enumerate() {
            check(variant, &VARIANT_KEYS, &format!("v[{i}]."), &mut out);
            if let Some(rope) = variant.get("ro") {
                check(rope, &ROPE_KEYS, &format!("v[{i}].ro."), &mut out);
            }
        }
    }
    if let Some(m) = value.get("m") {
        check(m, &PRETRAINED_KEYS, "m.", &mut out);
    }
    if let Some(kv) = value.get("kv") {
        check(kv, &KV_KEYS, "kv.", &mut out);
    }
    if let Some(bk) = value.get("bk") {
        check(bk, &BLOCK_KEYS, "bk.", &mut out);
    }
    if let Some(s2) = value.get("s2") {
        check(s2, &SEQ2SEQ_KEYS, "s2.", &mut out);
    }
    if let Some(ds) = value.get("ds") {
        check(ds, &STEP_KEYS, "ds.", &mut out);
    }
    out
}
