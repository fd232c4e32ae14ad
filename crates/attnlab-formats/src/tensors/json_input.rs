//! The `attnlab-tensors/1` document as serde reads it: every field typed, every number a
//! finite f32, every list a JSON array. What serde cannot check — equal row lengths, sizes
//! that agree between fields, values in range — is checked afterwards, in the parent
//! module. Every field is optional here (`null` counts as absent), so that a missing one
//! is reported with its path too.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde_json::Value;

/// The whole document. `score_params` and `linformer` are kept as JSON and read only when
/// the score function or the attention kind uses them.
#[derive(Debug, Deserialize)]
pub struct RawDocument {
    /// The format tag, `attnlab-tensors/1`.
    pub format: Option<String>,
    /// One label per query row.
    pub query_tokens: Option<Array<String>>,
    /// One label per key row.
    pub key_tokens: Option<Array<String>>,
    /// The heads.
    pub heads: Option<Array<Object<RawHead>>>,
    /// The score function's name.
    pub score: Option<String>,
    /// τ.
    pub temperature: Option<Finite>,
    /// The attention kind's name.
    pub attention: Option<String>,
    /// The mask.
    pub mask: Option<Object<RawMask>>,
    /// W^O.
    pub w_o: Option<Rows>,
    /// RoPE (`json::pipeline`).
    pub positions: Option<Object<RawPositions>>,
    /// ALiBi: `true` or `{"slopes": […]}`, read by `json::pipeline`.
    pub alibi: Option<Value>,
    /// The softcap `c`.
    pub softcap: Option<Finite>,
    /// Groups of keys and values shared by the heads.
    pub kv_heads: Option<Array<Object<RawKv>>>,
    /// The online softmax's tile width `B`.
    pub tiles: Option<Count>,
    /// `b` of `sigmoid` attention.
    pub sigmoid_bias: Option<Finite>,
    /// `λ` of `differential` attention.
    pub lambda: Option<Finite>,
    /// The gates of `decayed_linear` attention shared by the heads.
    pub gates: Option<Array<Finite>>,
}

/// One head.
#[derive(Debug, Deserialize)]
pub struct RawHead {
    /// Q, n×d_k.
    pub q: Option<Rows>,
    /// K, m×d_k.
    pub k: Option<Rows>,
    /// V, m×d_v.
    pub v: Option<Rows>,
    /// The score function's parameters, read as [`RawScoreParams`] when used.
    pub score_params: Option<Value>,
    /// Linformer's projections, read as [`RawLinformer`] when used.
    pub linformer: Option<Value>,
    /// `s_h` of `sink` attention.
    pub sink: Option<Finite>,
    /// The second queries of `differential` attention.
    pub q2: Option<Rows>,
    /// The second keys of `differential` attention.
    pub k2: Option<Rows>,
    /// `γ` of `decayed_linear` attention.
    pub decay: Option<Finite>,
    /// The head's own gates of `decayed_linear` attention.
    pub gates: Option<Array<Finite>>,
    /// FAVOR+'s features W, r×d_k.
    pub features: Option<Rows>,
}

/// The parameters of the `general` and `additive` score functions.
#[derive(Debug, Default, Deserialize)]
pub struct RawScoreParams {
    /// `general`: W, d_k×d_k.
    pub w: Option<Rows>,
    /// `additive`: W_a, d_a×d_k.
    pub w_a: Option<Rows>,
    /// `additive`: U_a, d_a×d_k.
    pub u_a: Option<Rows>,
    /// `additive`: v_a, d_a.
    pub v_a: Option<Array<Finite>>,
}

/// Linformer's projections of the keys and the values.
#[derive(Debug, Deserialize)]
pub struct RawLinformer {
    /// E, k×m.
    pub e: Option<Rows>,
    /// F, k×m.
    pub f: Option<Rows>,
}

/// The mask; its fields are `attnlab_core::mask::KINDS`.
#[derive(Debug, Deserialize)]
pub struct RawMask {
    /// j ≤ i.
    pub causal: Option<bool>,
    /// |i − j| ≤ r.
    pub window: Option<Count>,
    /// The stride s (at least 1, checked later).
    pub strided: Option<Count>,
    /// Rows and columns opened.
    pub global: Option<Array<Count>>,
    /// Keys closed.
    pub padding_keys: Option<Array<Count>>,
    /// n×m cells set by hand.
    pub custom: Option<Array<Array<bool>>>,
    /// Keys 0 … s − 1 kept open (attention sinks).
    pub sinks: Option<Count>,
}

/// `positions`: RoPE's settings.
#[derive(Debug, Deserialize)]
pub struct RawPositions {
    /// `"rope"`, the one kind.
    pub kind: Option<String>,
    /// The frequencies' base (10000).
    pub base: Option<Finite>,
    /// `"half"` or `"interleaved"`.
    pub pairs: Option<String>,
    /// `r`.
    pub rotary_dims: Option<Count>,
    /// One per query row.
    pub query_positions: Option<Array<Finite>>,
    /// One per key row.
    pub key_positions: Option<Array<Finite>>,
    /// `{"kind": "linear" | "ntk" | "yarn", …}`.
    pub scaling: Option<Object<RawScaling>>,
}

/// `positions.scaling`.
#[derive(Debug, Deserialize)]
pub struct RawScaling {
    /// `"linear"`, `"ntk"` or `"yarn"`.
    pub kind: Option<String>,
    /// `s`.
    pub factor: Option<Finite>,
    /// YaRN's `L`.
    pub original_max_positions: Option<Finite>,
    /// YaRN's `β_fast` (32).
    pub beta_fast: Option<Finite>,
    /// YaRN's `β_slow` (1).
    pub beta_slow: Option<Finite>,
}

/// `alibi` as an object.
#[derive(Debug, Deserialize)]
pub struct RawAlibi {
    /// One per head.
    pub slopes: Option<Array<Finite>>,
}

/// One group of `kv_heads`.
#[derive(Debug, Deserialize)]
pub struct RawKv {
    /// K, m×d_k.
    pub k: Option<Rows>,
    /// V, m×d_v.
    pub v: Option<Rows>,
}

impl Plural for Object<RawKv> {
    const PLURAL: &'static str = "groups of k and v";
}

/// A matrix as JSON has it: an array of rows of numbers, not yet checked to be rectangular.
pub type Rows = Array<Array<Finite>>;

/// What the entries of an array are called in messages: "an array of *numbers*".
pub trait Plural {
    /// The entries, in the plural.
    const PLURAL: &'static str;
}

impl Plural for Finite {
    const PLURAL: &'static str = "numbers";
}

impl Plural for Count {
    const PLURAL: &'static str = "non-negative integers";
}

impl Plural for bool {
    const PLURAL: &'static str = "true/false values";
}

impl Plural for String {
    const PLURAL: &'static str = "strings";
}

impl<T> Plural for Array<T> {
    const PLURAL: &'static str = "rows";
}

impl Plural for Object<RawHead> {
    const PLURAL: &'static str = "heads";
}

/// A JSON array (and nothing else) of `T`s.
#[derive(Debug)]
pub struct Array<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de> + Plural> Deserialize<'de> for Array<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Array<T>, D::Error> {
        struct ArrayVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de> + Plural> Visitor<'de> for ArrayVisitor<T> {
            type Value = Array<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of {}", T::PLURAL)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Array<T>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Array(items))
            }
        }

        deserializer.deserialize_seq(ArrayVisitor(PhantomData))
    }
}

/// A JSON object (and nothing else) read as `T`. A derived struct alone would also accept
/// an array, its fields by position.
#[derive(Debug)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Object<T>, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = Object<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Object)
            }
        }

        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

/// A JSON number that is a finite f32.
#[derive(Debug, Clone, Copy)]
pub struct Finite(pub f32);

impl<'de> Deserialize<'de> for Finite {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Finite, D::Error> {
        // Through `Value`, so that a number beyond f64 (1e999) arrives as its digits
        // (`arbitrary_precision`) and is named in the message, not refused by the parser.
        let value = Value::deserialize(deserializer)?;
        let Value::Number(n) = &value else {
            return Err(de::Error::invalid_type(unexpected(&value), &"f32"));
        };
        n.as_f64()
            .map(|x| x as f32)
            .filter(|y| y.is_finite())
            .map(Finite)
            .ok_or_else(|| {
                de::Error::custom(format_args!("is {n}, outside the f32 range (|x| ≤ 3.4e38)"))
            })
    }
}

/// What serde calls a JSON value that is not the expected type.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(_) => Unexpected::Other("number"),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// A non-negative integer: a count or a token index.
#[derive(Debug, Clone, Copy)]
pub struct Count(pub usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        struct CountVisitor;

        impl Visitor<'_> for CountVisitor {
            type Value = Count;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a non-negative integer")
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count, E> {
                usize::try_from(v)
                    .map(Count)
                    .map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Count, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
                }
            }
        }

        deserializer.deserialize_u64(CountVisitor)
    }
}
