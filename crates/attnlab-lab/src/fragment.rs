//! The lab's state in a URL fragment: compact, versioned, and forgiving of links that
//! were cut short or edited by hand.
//!
//! # Format (version 1)
//!
//! `#v1.PAYLOAD` or `#v1z.PAYLOAD`, where `PAYLOAD` is base64url without padding of a
//! JSON object with short keys (`v1z`: of that JSON compressed with raw DEFLATE). The
//! encoder writes whichever of the two is shorter: plain for short states, compressed
//! for long texts and several variants.
//!
//! The JSON leaves out every value equal to its version-1 default (the defaults below
//! are frozen: changing them would change what old links mean, so a new default needs a
//! new version). Its first key is the text (`t`), then the source (`s`), so that the text
//! can still be read from a link whose end was lost.
//!
//! | key | meaning | v1 default |
//! |---|---|---|
//! | `t` | the sentence (self) or target (cross) | [`DEFAULT_SENTENCE`] |
//! | `s` | the source sentence (cross) | [`DEFAULT_SOURCE`] |
//! | `x` | mode: `"cross"` | self-attention |
//! | `d`, `h`, `r` | d_model, heads, seed | 64, 4, 42 |
//! | `p` | position: `"none"`, `"sinusoidal"`, `"learned"` | sinusoidal |
//! | `b`, `l` | sinusoid base (a string: the shortest exact decimal); layout `"split"` | 10000, interleaved |
//! | `c` | d_pos when positions are concatenated | added |
//! | `e` | embedding ×√d_model | `true` |
//! | `i` | identity projections (Q = K = V = X) | `false` |
//! | `n` | pad to length | no padding |
//! | `v` | variants (below) | A (scaled dot), B (dot) |
//! | `w` | view: `[variant, head, compare a, compare b]` | `[0, 0, 0, 1]` |
//! | `o` | what the comparison compares: `"average"` (the head averages) | the selected head |
//!
//! A variant: `n` name, `f` score function, `tau` temperature, `a` attention kind (the
//! core's names, e.g. `"scaled_dot"`, `"elu1"`), `k` Linformer k, `c` causal, `p`
//! padding, `w` window r, `s` stride, `g` global token indices, `x` custom blocked cells
//! `[[query, key], …]`; defaults: scaled dot, τ = 1, softmax, k = 4, no masks.
//!
//! # Decoding
//!
//! [`decode`] accepts the fragment with or without `#`, or a whole URL. Values out of
//! range and forbidden combinations are repaired and reported
//! ([`Decoded::repairs`], see [`LabState::repair`]); anything unreadable is a
//! [`FragmentError`] that says what is wrong and carries the texts when they could still
//! be read. [`load`] is the app's policy on top: defaults plus a notice, never lost text.

use attnlab_core::attention::AttentionKind;
use attnlab_core::embed::EmbeddingScale;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, Layout, PositionKind};
use attnlab_core::score::ScoreFunction;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::state::{
    CompareWhat, DEFAULT_SENTENCE, DEFAULT_SOURCE, LabState, Masks, Mode, ModelSettings, Page,
    Variant, View,
};

/// The version this build writes.
pub const VERSION: u32 = 1;

/// The longest fragment read, in bytes (a link of a few pages of text).
pub const MAX_FRAGMENT_LEN: usize = 256 * 1024;

/// The most bytes a compressed payload may expand to.
const MAX_JSON_LEN: usize = 1024 * 1024;

/// The deflate level: the strongest (states are small, so it costs nothing).
const LEVEL: u8 = 10;

/// A fragment that was read, with what had to be repaired.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The state, valid (see [`LabState::problems`]).
    pub state: LabState,
    /// One sentence per value that was out of range or combination that docs/maths.md
    /// forbids, saying what it became. Empty for links the app wrote.
    pub repairs: Vec<String>,
}

/// What is wrong with a fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FragmentErrorKind {
    /// There is no fragment (the app then opens with the defaults, without a notice).
    Empty,
    /// The fragment is not a lab state (it does not start with `v1.` or `v1z.`).
    NotAState,
    /// The link was written by a newer version of the lab.
    UnknownVersion(u32),
    /// The fragment is longer than [`MAX_FRAGMENT_LEN`].
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The payload is not base64url (a character was changed or the link was cut).
    Encoding,
    /// The compressed payload is damaged or cut short.
    Compression,
    /// The payload is not the JSON of a state (e.g. a value of the wrong type).
    Data(String),
}

/// A fragment that could not be read: what is wrong, and the texts if they could still
/// be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FragmentError {
    /// What is wrong.
    pub kind: FragmentErrorKind,
    /// The sentence (self) or target (cross) text, when it could be read.
    pub text: Option<String>,
    /// The source text, when it could be read.
    pub source: Option<String>,
    /// The mode, when it could be read (it follows the texts).
    pub mode: Option<Mode>,
}

impl FragmentError {
    fn new(kind: FragmentErrorKind) -> FragmentError {
        FragmentError {
            kind,
            text: None,
            source: None,
            mode: None,
        }
    }

    /// What is wrong, without a full stop, e.g. "This link was made by a newer version
    /// of attnlab (state version 2; this one reads version 1)".
    pub fn reason(&self) -> String {
        match &self.kind {
            FragmentErrorKind::Empty => "There is no lab state in this link".into(),
            FragmentErrorKind::NotAState => {
                "The end of this link (after #) is not an attnlab state".to_string()
            }
            FragmentErrorKind::UnknownVersion(v) => format!(
                "This link was made by a newer version of attnlab (state version {v}; this one reads version {VERSION})"
            ),
            FragmentErrorKind::TooLong { len } => format!(
                "The state in this link is too long ({len} bytes; at most {MAX_FRAGMENT_LEN} are read)"
            ),
            FragmentErrorKind::Encoding => {
                "The state in this link is damaged (a character was changed or the link was cut)"
                    .to_string()
            }
            FragmentErrorKind::Compression => {
                "The state in this link is damaged (it was cut short or changed)".to_string()
            }
            FragmentErrorKind::Data(detail) => {
                format!("The state in this link could not be read ({detail})")
            }
        }
    }

    /// One sentence for the notice the app shows: what is wrong, and what is shown
    /// instead ([`FragmentError::fallback`]).
    pub fn message(&self) -> String {
        if self.kind == FragmentErrorKind::Empty {
            return format!("{}.", self.reason());
        }
        let what = self.reason();
        let kept = match (&self.text, &self.source) {
            (Some(_), Some(_)) => ", so the default settings are shown with the link's texts",
            (Some(_), None) => ", so the default settings are shown with the link's text",
            (None, Some(_)) => ", so the default settings are shown with the link's source text",
            (None, None) => ", so the defaults are shown",
        };
        format!("{what}{kept}.")
    }

    /// The state to show instead: the defaults, with every text that could be read.
    pub fn fallback(&self) -> LabState {
        let mut state = LabState::default();
        if let Some(text) = &self.text {
            state.text = text.clone();
        }
        if let Some(source) = &self.source {
            state.source = source.clone();
        }
        if let Some(mode) = self.mode {
            state.mode = mode;
        }
        state
    }
}

impl fmt::Display for FragmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for FragmentError {}

/// What the app opens with for a fragment.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The state to show.
    pub state: LabState,
    /// A notice for the page: what was repaired, or why the link could not be read.
    pub notice: Option<String>,
}

/// The app's policy for the fragment it finds on load: no fragment → the defaults; a
/// good one → its state; a repaired one → its state and a notice listing the repairs;
/// an unreadable one → the defaults with the link's texts (when they could be read) and
/// a notice. Never an error, never lost text.
pub fn load(fragment: &str) -> Loaded {
    match decode(fragment) {
        Ok(Decoded { state, repairs }) => Loaded {
            state,
            notice: (!repairs.is_empty()).then(|| {
                format!(
                    "Some settings in this link were out of range and were changed: {}.",
                    repairs.join("; ")
                )
            }),
        },
        Err(e) if e.kind == FragmentErrorKind::Empty => Loaded {
            state: LabState::default(),
            notice: None,
        },
        Err(e) => Loaded {
            state: e.fallback(),
            notice: Some(e.message()),
        },
    }
}

/// The fragment of `state`, without the leading `#`: `v1.…` or `v1z.…`.
pub fn encode(state: &LabState) -> String {
    let json = serde_json::to_vec(&Wire::from_state(state)).expect("a state serialises");
    let plain = URL_SAFE_NO_PAD.encode(&json);
    let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, LEVEL));
    if packed.len() < plain.len() {
        format!("v{VERSION}z.{packed}")
    } else {
        format!("v{VERSION}.{plain}")
    }
}

/// Reads a fragment (`v1.…`, `#v1.…`, or a whole URL ending in one).
pub fn decode(input: &str) -> Result<Decoded, FragmentError> {
    let fragment = match input.find('#') {
        Some(at) => &input[at + 1..],
        // A whole URL without a fragment.
        None if input.contains("://") => "",
        None => input,
    }
    .trim();
    if fragment.is_empty() {
        return Err(FragmentError::new(FragmentErrorKind::Empty));
    }
    if fragment.len() > MAX_FRAGMENT_LEN {
        return Err(FragmentError::new(FragmentErrorKind::TooLong {
            len: fragment.len(),
        }));
    }
    let (tag, payload) = fragment
        .split_once('.')
        .ok_or_else(|| FragmentError::new(FragmentErrorKind::NotAState))?;
    let (version, compressed) = match tag.strip_suffix('z') {
        Some(v) => (v, true),
        None => (tag, false),
    };
    let version: u32 = version
        .strip_prefix('v')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| FragmentError::new(FragmentErrorKind::NotAState))?;
    if version != VERSION {
        return Err(FragmentError::new(FragmentErrorKind::UnknownVersion(
            version,
        )));
    }

    // Each stage keeps what it could read, so the texts can be salvaged from a link
    // that was cut or damaged.
    let bytes = match URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')) {
        Ok(bytes) => bytes,
        Err(_) => {
            let valid = payload
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
                .count();
            let prefix = URL_SAFE_NO_PAD
                .decode(&payload[..valid - valid % 4])
                .unwrap_or_default();
            let prefix = if compressed {
                inflate(&prefix).unwrap_or_else(|partial| partial)
            } else {
                prefix
            };
            return Err(salvaged(FragmentErrorKind::Encoding, &prefix));
        }
    };
    let json = if compressed {
        inflate(&bytes).map_err(|partial| salvaged(FragmentErrorKind::Compression, &partial))?
    } else {
        bytes
    };
    let wire: Wire = serde_json::from_slice(&json)
        .map_err(|e| salvaged(FragmentErrorKind::Data(data_error(&e)), &json))?;
    let (mut state, mut repairs) = wire.into_state();
    repairs.extend(state.repair());
    Ok(Decoded { state, repairs })
}

/// Inflates a payload; on failure, returns what was inflated before the damage.
fn inflate(bytes: &[u8]) -> Result<Vec<u8>, Vec<u8>> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, MAX_JSON_LEN).map_err(|e| e.output)
}

fn data_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => "it was cut short".into(),
        Category::Syntax => "it is not valid JSON".into(),
        _ => {
            // "invalid type: string \"x\", expected u64 at line 1 column 12" → without
            // the position, which means nothing to a reader of a link.
            let text = e.to_string();
            match text.rfind(" at line ") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}

/// An error carrying the texts that could be read from the (possibly partial) JSON.
fn salvaged(kind: FragmentErrorKind, json: &[u8]) -> FragmentError {
    FragmentError {
        kind,
        text: read_string_field(json, "t"),
        source: read_string_field(json, "s"),
        mode: read_string_field(json, "x").and_then(|x| match x.as_str() {
            "cross" => Some(Mode::Cross),
            "self" => Some(Mode::SelfAttention),
            _ => None,
        }),
    }
}

/// The complete JSON string value of the top-level key `key` in a possibly damaged or
/// cut JSON text. Inside a JSON string every `"` is escaped, so the exact bytes
/// `"key":"` occur only where that key begins (no nested object has a string under `t`,
/// `s` or `x`).
fn read_string_field(json: &[u8], key: &str) -> Option<String> {
    let pattern = format!("\"{key}\":\"");
    let at = json
        .windows(pattern.len())
        .position(|w| w == pattern.as_bytes())?;
    let start = at + pattern.len() - 1;
    let mut de = serde_json::Deserializer::from_slice(&json[start..]);
    String::deserialize(&mut de).ok()
}

// ---------------------------------------------------------------------------------------
// The version-1 wire format. Every field is optional: absent means the v1 default.

/// v1's frozen defaults (not `LabState::default()`, which may change).
mod v1 {
    pub const D_MODEL: u64 = 64;
    pub const HEADS: u64 = 4;
    pub const SEED: u64 = 42;
    pub const BASE: f64 = 10_000.0;
    pub const TEMPERATURE: f32 = 1.0;
    pub const LINFORMER_K: u64 = 4;
    pub const VIEW: [u64; 4] = [0, 0, 0, 1];
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct Wire {
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

fn v1_variants() -> Vec<Variant> {
    let mut b = Variant::named("B");
    b.score = ScoreFunction::Dot;
    vec![Variant::named("A"), b]
}

fn v1_variant(name: &str) -> Variant {
    let mut v = Variant::named(name);
    v.temperature = v1::TEMPERATURE;
    v.linformer_k = v1::LINFORMER_K as usize;
    v
}

/// A count from the wire: numbers beyond `usize` become `usize::MAX` (and are then
/// clamped by the repair, with a message).
fn count(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

impl Wire {
    fn from_state(state: &LabState) -> Wire {
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
            d: unless(m.d_model as u64, v1::D_MODEL),
            h: unless(m.heads as u64, v1::HEADS),
            r: unless(m.seed, v1::SEED),
            p: unless(m.position.kind, PositionKind::Sinusoidal).map(|k| position_name(k).into()),
            b: unless(m.position.base, v1::BASE).map(Base),
            l: (m.position.layout == Layout::Split).then(|| "split".into()),
            c: match m.position.combine {
                Combine::Add => None,
                Combine::Concat { d_pos } => Some(d_pos as u64),
            },
            e: unless(m.embedding_scale == EmbeddingScale::SqrtDModel, true),
            i: (m.projection == Projection::Identity).then_some(true),
            n: m.pad_to.map(|n| n as u64),
            v: (state.variants != v1_variants()).then(|| {
                state
                    .variants
                    .iter()
                    .map(WireVariant::from_variant)
                    .collect()
            }),
            w: unless(view, v1::VIEW),
            o: (state.view.compare_what == CompareWhat::Average).then(|| "average".into()),
            u: (state.view.page != Page::Lab).then(|| state.view.page.name().into()),
        }
    }

    /// The state this wire describes, with a sentence for every unknown name.
    fn into_state(self) -> (LabState, Vec<String>) {
        let mut unknown = Vec::new();
        let mut model = ModelSettings {
            d_model: count(self.d.unwrap_or(v1::D_MODEL)),
            heads: count(self.h.unwrap_or(v1::HEADS)),
            seed: self.r.unwrap_or(v1::SEED),
            pad_to: self.n.map(count),
            ..ModelSettings::default()
        };
        model.position.kind = match self.p.as_deref() {
            None | Some("sinusoidal") => PositionKind::Sinusoidal,
            Some("none") => PositionKind::None,
            Some("learned") => PositionKind::Learned,
            Some(other) => {
                unknown.push(format!(
                    "the position encoding “{other}” is unknown, so it is sinusoidal"
                ));
                PositionKind::Sinusoidal
            }
        };
        model.position.base = self.b.map_or(v1::BASE, |b| b.0);
        model.position.layout = match self.l.as_deref() {
            None | Some("interleaved") => Layout::Interleaved,
            Some("split") => Layout::Split,
            Some(other) => {
                unknown.push(format!(
                    "the layout “{other}” is unknown, so it is interleaved"
                ));
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
                unknown.push(format!(
                    "the mode “{other}” is unknown, so it is self-attention"
                ));
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
        let [variant, head, a, b] = self.w.unwrap_or(v1::VIEW).map(count);
        let compare_what = match self.o.as_deref() {
            None | Some("head") => CompareWhat::Head,
            Some("average") => CompareWhat::Average,
            Some(other) => {
                unknown.push(format!(
                    "the comparison of “{other}” is unknown, so it compares the selected head"
                ));
                CompareWhat::Head
            }
        };
        let page = match self.u.as_deref() {
            None => Page::Lab,
            Some(name) => Page::parse(name).unwrap_or_else(|| {
                unknown.push(format!("the page “{name}” is unknown, so the lab is shown"));
                Page::Lab
            }),
        };
        let state = LabState {
            mode,
            text: self.t.unwrap_or_else(|| DEFAULT_SENTENCE.into()),
            source: self.s.unwrap_or_else(|| DEFAULT_SOURCE.into()),
            model,
            variants,
            view: View {
                page,
                variant,
                head,
                compare: (a, b),
                compare_what,
            },
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
            tau: unless(v.temperature, v1::TEMPERATURE),
            a: unless(v.attention, AttentionKind::Softmax).map(|a| a.name().into()),
            k: unless(v.linformer_k as u64, v1::LINFORMER_K),
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
        }
    }

    fn into_variant(self, index: usize, unknown: &mut Vec<String>) -> Variant {
        let letter = char::from(b'A' + (index % 26) as u8).to_string();
        let mut v = v1_variant(&letter);
        let name = self.n.unwrap_or(letter);
        if let Some(f) = self.f {
            match ScoreFunction::parse(&f) {
                Some(score) => v.score = score,
                None => unknown.push(format!(
                    "variant {name}: the score function “{f}” is unknown, so it is scaled_dot"
                )),
            }
        }
        if let Some(a) = self.a {
            match AttentionKind::parse(&a) {
                Some(kind) => v.attention = kind,
                None => unknown.push(format!(
                    "variant {name}: the attention “{a}” is unknown, so it is softmax"
                )),
            }
        }
        v.name = name;
        v.temperature = self.tau.unwrap_or(v1::TEMPERATURE);
        v.linformer_k = count(self.k.unwrap_or(v1::LINFORMER_K));
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
        };
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_state_is_a_tiny_fragment() {
        let f = encode(&LabState::default());
        assert_eq!(f, "v1.e30", "the JSON {{}}: every value is the v1 default");
        assert_eq!(decode(&f).unwrap().state, LabState::default());
    }

    #[test]
    fn v1_defaults_are_frozen() {
        // If LabState::default() changes, old links must keep their meaning: this
        // fragment ("{}") must still decode to the v1 defaults.
        let s = decode("#v1.e30").unwrap().state;
        assert_eq!(s.text, DEFAULT_SENTENCE);
        assert_eq!((s.model.d_model, s.model.heads, s.model.seed), (64, 4, 42));
        assert_eq!(s.variants, v1_variants());
    }
}
