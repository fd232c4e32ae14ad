//! # attnlab-link
//!
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
//! | `t` | the sentence (self) or target (cross) | [`DEFAULT_SENTENCE`](attnlab_lab::state::DEFAULT_SENTENCE) |
//! | `s` | the source sentence (cross) | [`DEFAULT_SOURCE`](attnlab_lab::state::DEFAULT_SOURCE) |
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
//! | `u` | the page: `"steps"`, `"model"`, … | the lab |
//! | `m` | the real model's view (below) | the toy (seeded) model |
//! | `y` | the real model's second sentence (a pair, e.g. a translation) | none |
//! | `z` | the large heatmaps' zoom: `[first query, last query, first key, last key]` (ends included) | the whole matrix |
//! | `lw` | the Lines page's least weight drawn, in thousandths | 50 (0.05) |
//!
//! A variant: `n` name, `f` score function, `tau` temperature, `a` attention kind (the
//! core's names, e.g. `"scaled_dot"`, `"elu1"`), `k` Linformer k, `c` causal, `p`
//! padding, `w` window r, `s` stride, `g` global token indices, `x` custom blocked cells
//! `[[query, key], …]`; defaults: scaled dot, τ = 1, softmax, k = 4, no masks.
//!
//! The real model (`m`): `k` the checkpoint (`"minilm-l6"`), `l` layer, `h` head, `x`
//! `[CLS]`/`[SEP]` hidden, `q` the head search's `[query, key]` token indices, `f`
//! `"flow"`; defaults: layer 0, head 0, every token shown, no search, rollout. An unknown
//! checkpoint opens the toy model with a notice.
//!
//! # Decoding
//!
//! [`decode`] accepts the fragment with or without `#`, or a whole URL. Values out of
//! range and forbidden combinations are repaired and reported
//! ([`Decoded::repairs`], see [`LabState::repair`]); anything unreadable is a
//! [`FragmentError`] that says what is wrong and carries the texts when they could still
//! be read. [`load`] is the app's policy on top: defaults plus a notice, never lost text.
//! [`decode_value`] reads the same JSON object from a `serde_json::Value` (a lesson step's
//! state, in the `lessons` module), through the same repairs, and also reports every key that
//! version 1 does not have.
//!
//! # Lessons in the link
//!
//! A lesson and one of its steps have their own place, a part before the state:
//!
//! ```text
//! #lesson=LESSON            the lesson's first step
//! #lesson=LESSON/STEP       that step, in the state the lesson gives it
//! #lesson=LESSON/STEP&v1.…  that step, in the state the learner changed it to
//! ```
//!
//! `LESSON` and `STEP` are the lesson's and step's ids (lower-case ASCII letters, digits
//! and `-`, so they need no escaping). [`LessonLink::parse`] reads that part and
//! [`LessonLink::fragment`] writes it; [`decode`] and [`load`] skip it, so a lesson link
//! opened by a page that has no lessons shows the state after `&` (or the defaults,
//! without a notice). A link to a lesson or step that does not exist is the lesson list's
//! to report (`lessons::LessonError`).

#![deny(missing_docs)]

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use std::fmt;

use attnlab_i18n::msg::link;
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};
use attnlab_lab::state::{LabState, Mode};

mod lang_part;
mod lesson_link;
pub mod qr;
mod readable;
mod v1;
pub use lang_part::{LANG_PREFIX, lang_of, split_lang, with_lang};
pub use lesson_link::{LESSON_PREFIX, LessonLink};
use v1::Wire;

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
    /// forbids, saying what it became, in every language. Empty for links the app wrote.
    pub repairs: Vec<Said>,
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

    /// What is wrong, in English, without a full stop, e.g. "This link was made by a
    /// newer version of attnlab (state version 2; this one reads version 1)".
    pub fn reason(&self) -> String {
        self.reason_in(Lang::En)
    }

    /// What is wrong, in `lang`, without a full stop.
    pub fn reason_in(&self, lang: Lang) -> String {
        match &self.kind {
            FragmentErrorKind::Empty => link::LINK_EMPTY.get(lang).into(),
            FragmentErrorKind::NotAState => link::LINK_NOT_A_STATE.get(lang).into(),
            FragmentErrorKind::UnknownVersion(v) => link::LinkNewerVersion {
                version: v,
                reads: &VERSION,
            }
            .say(lang),
            FragmentErrorKind::TooLong { len } => link::LinkTooLong {
                len,
                max: &MAX_FRAGMENT_LEN,
            }
            .say(lang),
            FragmentErrorKind::Encoding => link::LINK_ENCODING.get(lang).into(),
            FragmentErrorKind::Compression => link::LINK_COMPRESSION.get(lang).into(),
            FragmentErrorKind::Data(detail) => link::LinkData {
                detail: &data_detail(detail, lang),
            }
            .say(lang),
        }
    }

    /// One sentence in English for the notice: what is wrong, and what is shown
    /// instead ([`FragmentError::fallback`]).
    pub fn message(&self) -> String {
        self.message_in(Lang::En)
    }

    /// One sentence in `lang` for the notice the app shows: what is wrong, and what is
    /// shown instead ([`FragmentError::fallback`]).
    pub fn message_in(&self, lang: Lang) -> String {
        let reason = &self.reason_in(lang);
        if self.kind == FragmentErrorKind::Empty {
            return link::LinkNoticeEmpty { reason }.say(lang);
        }
        match (&self.text, &self.source) {
            (Some(_), Some(_)) => link::LinkNoticeTexts { reason }.say(lang),
            (Some(_), None) => link::LinkNoticeText { reason }.say(lang),
            (None, Some(_)) => link::LinkNoticeSource { reason }.say(lang),
            (None, None) => link::LinkNoticeDefaults { reason }.say(lang),
        }
    }

    /// The state to show instead: the defaults, with every text that could be read
    /// (repaired as [`LabState::repair`] repairs them).
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
        // The texts as a state holds them (clipped, control characters shown as U+FFFD);
        // the notice already says the link was not read as it was.
        state.repair();
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
    /// A notice for the page in every language: what was repaired, or why the link
    /// could not be read.
    pub notice: Option<Said>,
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
                Said::of(|lang| {
                    let said: Vec<&str> = repairs.iter().map(|r| r.get(lang)).collect();
                    link::LinkRepaired {
                        repairs: &said
                            .join(attnlab_i18n::msg::link::LINK_REPAIRS_SEPARATOR.get(lang)),
                    }
                    .say(lang)
                })
            }),
        },
        Err(e) if e.kind == FragmentErrorKind::Empty => Loaded {
            state: LabState::default(),
            notice: None,
        },
        Err(e) => Loaded {
            state: e.fallback(),
            notice: Some(Said::new(e.message_in(Lang::En), e.message_in(Lang::Zh))),
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
    // The language and a lesson's place ride beside the state (see "Lessons in the link").
    let (_, fragment) = split_lang(fragment);
    let fragment = LessonLink::split(&fragment).1.trim();
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

    // Base64url needs no escaping: a `%` means something on the way escaped the link
    // (`%2D` for `-`), so the escapes are undone first.
    let payload = percent_encoding::percent_decode_str(payload).decode_utf8_lossy();
    let payload = payload.as_ref();

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
            return Err(salvaged(
                FragmentErrorKind::Encoding,
                readable::readable_json(&prefix).0.as_bytes(),
            ));
        }
    };
    let json = if compressed {
        inflate(&bytes).map_err(|partial| {
            salvaged(
                FragmentErrorKind::Compression,
                readable::readable_json(&partial).0.as_bytes(),
            )
        })?
    } else {
        bytes
    };
    let (json, unreadable) = readable::readable_json(&json);
    let wire: Wire = serde_json::from_str(&json)
        .map_err(|e| salvaged(FragmentErrorKind::Data(data_error(&e)), json.as_bytes()))?;
    let (mut state, mut repairs) = wire.into_state();
    if unreadable > 0 {
        repairs.push(link::LinkUnreadableCharacters { count: &unreadable }.said());
    }
    repairs.extend(state.repair());
    Ok(Decoded { state, repairs })
}

/// Reads the JSON object of a version-1 state (the payload of a `#v1.…` link, before base64)
/// from a JSON value, with the same repairs as [`decode`]; every key version 1 does not
/// have is reported as a repair too ("the key “tx” is not part of a state and was
/// ignored"), so a state written by hand is checked for typing errors.
pub fn decode_value(value: serde_json::Value) -> Result<Decoded, FragmentError> {
    if !value.is_object() {
        return Err(FragmentError::new(FragmentErrorKind::Data(
            NOT_AN_OBJECT.en.into(),
        )));
    }
    let unknown = v1::unknown_keys(&value);
    let wire = Wire::deserialize(value)
        .map_err(|e| FragmentError::new(FragmentErrorKind::Data(data_error(&e))))?;
    let (mut state, mut repairs) = wire.into_state();
    repairs.extend(
        unknown
            .into_iter()
            .map(|key| link::LinkUnknownKey { key: &key }.said()),
    );
    repairs.extend(state.repair());
    Ok(Decoded { state, repairs })
}

/// Inflates a payload; on failure, returns what was inflated before the damage.
fn inflate(bytes: &[u8]) -> Result<Vec<u8>, Vec<u8>> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, MAX_JSON_LEN).map_err(|e| e.output)
}

/// The detail of a [`FragmentErrorKind::Data`] for a JSON text that ends too soon.
const CUT_SHORT: Tr = link::LINK_DATA_CUT_SHORT;
/// … for a text that is not JSON.
const NOT_JSON: Tr = link::LINK_DATA_NOT_JSON;
/// … for a JSON value that is not an object.
const NOT_AN_OBJECT: Tr = link::LINK_DATA_NOT_OBJECT;

/// The detail of a [`FragmentErrorKind::Data`] (one of ours in English, or serde's
/// message) in `lang`.
fn data_detail(detail: &str, lang: Lang) -> String {
    match [CUT_SHORT, NOT_JSON, NOT_AN_OBJECT]
        .into_iter()
        .find(|t| t.en == detail)
    {
        Some(t) => t.get(lang).into(),
        None if lang == Lang::En => detail.into(),
        None => attnlab_i18n::said::serde_text::message_zh(detail),
    }
}

fn data_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => CUT_SHORT.en.into(),
        Category::Syntax => NOT_JSON.en.into(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::state::DEFAULT_SENTENCE;
    use miniz_oxide::deflate::compress_to_vec;
    use v1::v1_variants;

    #[test]
    fn the_default_state_is_a_tiny_fragment() {
        let f = encode(&LabState::default());
        assert_eq!(f, "v1.e30", "the JSON {{}}: every value is the v1 default");
        assert_eq!(decode(&f).unwrap().state, LabState::default());
    }

    #[test]
    fn a_json_value_decodes_like_a_link_and_names_unknown_keys() {
        let mut state = LabState::default();
        state.variants[1].masks.window = Some(2);
        state.model.heads = 2;
        let value = serde_json::to_value(Wire::from_state(&state)).unwrap();
        assert_eq!(decode_value(value.clone()).unwrap().state, state);
        assert!(decode_value(value).unwrap().repairs.is_empty());

        let typo = serde_json::json!({"t": "a b", "tx": 1, "w": [0, 0, 0, 0], "v": [{"tau": 2, "mask": 1}], "m": {"k": "minilm-l6", "layer": 1}});
        let d = decode_value(typo).unwrap();
        assert_eq!(d.state.text, "a b");
        assert_eq!(d.state.variants[0].temperature, 2.0);
        assert_eq!(
            d.repairs,
            [
                "the key “tx” is not part of a state and was ignored",
                "the key “v[0].mask” is not part of a state and was ignored",
                "the key “m.layer” is not part of a state and was ignored",
            ]
        );
        let e = decode_value(serde_json::json!({"d": "wide"})).unwrap_err();
        assert!(
            e.reason().contains("invalid type: string \"wide\""),
            "{}",
            e.reason()
        );
        assert!(decode_value(serde_json::json!([1])).is_err());
        // The repairs are those of a link.
        let d = decode_value(serde_json::json!({"h": 5})).unwrap();
        assert_eq!(d.repairs.len(), 1);
    }

    #[test]
    fn a_nul_and_a_lone_surrogate_keep_the_rest_of_the_text() {
        let link = |json: &[u8]| format!("#v1.{}", URL_SAFE_NO_PAD.encode(json));
        let packed =
            |json: &[u8]| format!("v1z.{}", URL_SAFE_NO_PAD.encode(compress_to_vec(json, 6)));
        let cases = [
            // The raw bytes: NUL, and U+D800 as UTF-8 would write it.
            link(b"{\"t\":\"a\x00b\xED\xA0\x80c\",\"h\":2}"),
            // The JSON escapes.
            link(br#"{"t":"a\u0000b\ud800c","h":2}"#),
            packed(br#"{"t":"a\u0000b\ud800c","h":2}"#),
            // The same link, percent-escaped on the way.
            format!(
                "https://x.invalid/#v1.{}",
                URL_SAFE_NO_PAD
                    .encode(br#"{"t":"a\u0000b\ud800c","h":2}"#)
                    .replace('e', "%65")
            ),
        ];
        for fragment in cases {
            let loaded = load(&fragment);
            assert_eq!(loaded.state.text, "a\u{FFFD}b\u{FFFD}c", "{fragment}");
            assert_eq!(
                loaded.state.model.heads, 2,
                "the settings are kept: {fragment}"
            );
            let notice = loaded.notice.expect("a notice");
            assert!(notice.contains("unreadable character"), "{notice}");
            assert!(notice.contains("control character"), "{notice}");
        }
        // Cut after the bad characters: the text read so far is kept.
        let cut = link(b"{\"t\":\"a\x00b\xED\xA0\x80c\",\"h\":");
        let loaded = load(&cut);
        assert_eq!(loaded.state.text, "a\u{FFFD}b\u{FFFD}c");
        assert!(loaded.notice.unwrap().contains("cut short"));
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
