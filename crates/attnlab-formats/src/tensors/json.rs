//! The `attnlab-tensors/1` interchange format: JSON in, a validated
//! [`attnlab_core::attention::Problem`] out.
//!
//! Every error names the path of the bad value (`heads[1].k[3]`) and what is wrong with it
//! (`expected 4 numbers, found 3`), in one line. serde reads the document into the typed
//! structs of `json_input`, and `serde_path_to_error` names the value it rejects; the checks
//! serde cannot make (rectangular matrices, sizes that agree, values in range) follow here
//! and name their paths the same way. Unknown fields are collected, with their paths, by
//! `serde_ignored`.

use std::fmt;

use attnlab_core::CoreError;
use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, LinformerParams, Problem};
use attnlab_core::mask::MaskSpec;
use attnlab_core::score::{ScoreFunction, ScoreParams};
use ndarray::{Array1, Array2};
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny};
use serde_json::Value;

use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;
use attnlab_i18n::said::serde_text::{bare, json_in, message_zh};
use attnlab_i18n::{Lang, Tr};

pub(super) mod pipeline;

use super::json_input::{
    Array, Count, Finite, Object, RawDocument, RawHead, RawLinformer, RawMask, RawScoreParams, Rows,
};

mod kinds;

/// The format tag of inputs.
pub const INPUT_FORMAT: &str = crate::export::TENSORS_FORMAT;

/// A bad input: the field path and what is wrong, in every language.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// e.g. `heads[0].k[3]`.
    pub path: String,
    /// e.g. `expected 4 numbers, found 5` (Display and the command line say the English).
    pub message: Said,
}

impl FieldError {
    pub(crate) fn new(
        path: impl Into<String>,
        en: impl Into<String>,
        zh: impl Into<String>,
    ) -> FieldError {
        FieldError {
            path: path.into(),
            message: Said::new(en, zh),
        }
    }

    pub(crate) fn said(path: impl Into<String>, message: impl Into<Said>) -> FieldError {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// `path: message` in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            // "input" is the document itself, which the file's name already names.
            Lang::Zh if self.path == "input" => self.message.zh.clone(),
            Lang::Zh => self.in_lang(lang),
        }
    }

    fn in_lang(&self, lang: Lang) -> String {
        formats::FormatsWhere {
            place: &self.path,
            what: &self.message.get(lang),
        }
        .say(lang)
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

impl From<CoreError> for FieldError {
    fn from(e: CoreError) -> FieldError {
        FieldError::new(
            e.path(),
            attnlab_lab::explain::reason_in(&e, Lang::En),
            attnlab_lab::explain::reason_in(&e, Lang::Zh),
        )
    }
}

pub(crate) type Parsed<T> = Result<T, FieldError>;

/// A parsed input document: the problem and optional token labels.
#[derive(Debug, Clone)]
pub struct Document {
    /// The validated problem.
    pub problem: Problem,
    /// Query labels, if given.
    pub query_tokens: Option<Vec<String>>,
    /// Key labels, if given.
    pub key_tokens: Option<Vec<String>>,
    /// Fields that were not recognised (reported as warnings, not errors).
    pub unknown_fields: Vec<String>,
}

/// `at` followed by the path `rest` below it: `heads[0]` + `q[2]` → `heads[0].q[2]`.
pub(crate) fn join(at: &str, rest: &str) -> String {
    match (at, rest) {
        ("", _) => rest.to_string(),
        (_, "") => at.to_string(),
        (_, r) if r.starts_with('[') => format!("{at}{rest}"),
        _ => format!("{at}.{rest}"),
    }
}

/// An unknown field's path as the messages write paths (`heads[0].extra`).
fn ignored_path(path: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path;
    match path {
        Path::Root => String::new(),
        Path::Seq { parent, index } => format!("{}[{index}]", ignored_path(parent)),
        Path::Map { parent, key } => join(&ignored_path(parent), key),
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => ignored_path(parent),
    }
}

/// serde_json's message without its ` at line L column C` (the path names the place),
/// in every language.
fn message(e: &serde_json::Error) -> (String, String) {
    let en = bare(e);
    let zh = message_zh(&en);
    (en, zh)
}

/// Reads a `T` from `from`, a value found at the path `at`: a value serde rejects is named
/// by its path, and the paths of fields `T` does not have are added to `unknown`.
pub(crate) fn typed<'de, D, T>(from: D, at: &str, unknown: &mut Vec<String>) -> Parsed<T>
where
    D: Deserializer<'de, Error = serde_json::Error>,
    T: Deserialize<'de>,
{
    let mut note = |path: serde_ignored::Path<'_>| unknown.push(join(at, &ignored_path(&path)));
    let ignoring = serde_ignored::Deserializer::new(from, &mut note);
    serde_path_to_error::deserialize(ignoring).map_err(|e| {
        // The library writes the empty path as ".": the document itself.
        let below = match e.path().iter().next() {
            Some(_) => e.path().to_string(),
            None => String::new(),
        };
        let (en, zh) = message(e.inner());
        match join(at, &below) {
            path if path.is_empty() => FieldError::new("input", en, zh),
            path => FieldError::new(path, en, zh),
        }
    })
}

/// A rectangular matrix with at least one row and one column.
pub(crate) fn matrix(rows: Rows, path: &str) -> Parsed<Array2<f32>> {
    let rows = rows.0;
    let Some(first) = rows.first() else {
        return Err(FieldError::said(path, formats::JSON_NO_ROWS));
    };
    let width = first.0.len();
    if width == 0 {
        return Err(FieldError::said(
            format!("{path}[0]"),
            formats::JSON_EMPTY_ROW,
        ));
    }
    let mut data = Vec::with_capacity(rows.len() * width);
    for (i, row) in rows.iter().enumerate() {
        if row.0.len() != width {
            return Err(FieldError::said(
                format!("{path}[{i}]"),
                formats::JsonRowWidth {
                    width,
                    found: &row.0.len(),
                }
                .said(),
            ));
        }
        data.extend(row.0.iter().map(|x| x.0));
    }
    Ok(Array2::from_shape_vec((rows.len(), width), data).expect("rectangular by construction"))
}

/// A matrix that must be there.
fn required_matrix(rows: Option<Rows>, path: &str, why: Tr) -> Parsed<Array2<f32>> {
    matrix(rows.ok_or_else(|| FieldError::said(path, why))?, path)
}

/// A field that is not there.
pub(crate) const MISSING: Tr = formats::JSON_MISSING;

pub(crate) fn vector(values: Array<Finite>, path: &str) -> Parsed<Array1<f32>> {
    if values.0.is_empty() {
        return Err(FieldError::said(path, formats::JSON_EMPTY_VECTOR));
    }
    Ok(values.0.iter().map(|x| x.0).collect())
}

fn bool_matrix(rows: Array<Array<bool>>, path: &str, n: usize, m: usize) -> Parsed<Array2<bool>> {
    let rows = rows.0;
    if rows.len() != n {
        return Err(FieldError::said(
            path,
            formats::JsonMaskRows {
                rows: &rows.len(),
                n: &n,
            }
            .said(),
        ));
    }
    let mut data = Vec::with_capacity(n * m);
    for (i, row) in rows.iter().enumerate() {
        if row.0.len() != m {
            return Err(FieldError::said(
                format!("{path}[{i}]"),
                formats::JsonMaskRowWidth {
                    m,
                    found: &row.0.len(),
                }
                .said(),
            ));
        }
        data.extend_from_slice(&row.0);
    }
    Ok(Array2::from_shape_vec((n, m), data).expect("rectangular by construction"))
}

fn labels(values: Array<String>, path: &str, len: usize, what: Tr) -> Parsed<Vec<String>> {
    if values.0.len() != len {
        let said = Said::of(|lang| {
            formats::JsonLabelCount {
                count: &values.0.len(),
                len: &len,
                what: &what.get(lang),
            }
            .say(lang)
        });
        return Err(FieldError::said(path, said));
    }
    Ok(values.0)
}

/// A string as messages quote it: its first 20 characters.
pub(crate) fn quoted(s: &str) -> Said {
    let short: String = s.chars().take(20).collect();
    formats::JsonQuotedString {
        text: &format!("{short:?}"),
    }
    .said()
}

/// A name among `all`, as `T::parse` reads it.
pub(crate) fn choice<T: Copy>(
    given: Option<String>,
    path: &str,
    default: T,
    all: &[T],
    parse: fn(&str) -> Option<T>,
    name: fn(T) -> &'static str,
) -> Parsed<T> {
    let Some(given) = given else {
        return Ok(default);
    };
    parse(&given).ok_or_else(|| {
        let names: Vec<String> = all.iter().map(|&x| format!("\"{}\"", name(x))).collect();
        let given = quoted(&given);
        let said = Said::of(|lang| {
            formats::JsonChoice {
                given: &given.get(lang),
                names: &names.join(attnlab_i18n::msg::lab::LIST_SEPARATOR.get(lang)),
            }
            .say(lang)
        });
        FieldError::said(path, said)
    })
}

fn parse_mask(raw: RawMask, n: usize, m: usize) -> Parsed<MaskSpec> {
    if let Some(Count(0)) = raw.strided {
        return Err(FieldError::said("mask.strided", formats::JSON_STRIDED_ZERO));
    }
    let indices = |list: Option<Array<Count>>| -> Vec<usize> {
        list.map_or(Vec::new(), |l| l.0.iter().map(|c| c.0).collect())
    };
    Ok(MaskSpec {
        causal: raw.causal.unwrap_or(false),
        window: raw.window.map(|c| c.0),
        strided: raw.strided.map(|c| c.0),
        global: indices(raw.global),
        padding_keys: indices(raw.padding_keys),
        custom: raw
            .custom
            .map(|c| bool_matrix(c, "mask.custom", n, m))
            .transpose()?,
        sinks: raw.sinks.map(|c| c.0),
    })
}

fn parse_score_params(
    raw: Option<&Value>,
    at: &str,
    score: ScoreFunction,
    unknown: &mut Vec<String>,
) -> Parsed<ScoreParams> {
    let base = format!("{at}.score_params");
    let params: Option<Object<RawScoreParams>> =
        raw.map(|v| typed(v, &base, unknown)).transpose()?;
    let RawScoreParams { w, w_a, u_a, v_a } = params.map(|p| p.0).unwrap_or_default();
    let field = |key: &str| format!("{base}.{key}");
    Ok(match score {
        ScoreFunction::General => {
            let why = formats::JSON_GENERAL_NEEDS_W;
            ScoreParams::General {
                w: required_matrix(w, &field("w"), why)?,
            }
        }
        ScoreFunction::Additive => {
            let why = formats::JSON_ADDITIVE_NEEDS;
            ScoreParams::Additive {
                w_a: required_matrix(w_a, &field("w_a"), why)?,
                u_a: required_matrix(u_a, &field("u_a"), why)?,
                v_a: vector(
                    v_a.ok_or_else(|| FieldError::said(field("v_a"), why))?,
                    &field("v_a"),
                )?,
            }
        }
        _ => ScoreParams::None,
    })
}

/// The heads (`groups`: `kv_heads`, when given) and how many there are.
struct Heads<'a> {
    count: usize,
    groups: Option<&'a [attnlab_core::groups::KeyValues]>,
}

fn parse_head(
    raw: RawHead,
    h: usize,
    score: ScoreFunction,
    attention: AttentionKind,
    heads: &Heads<'_>,
    unknown: &mut Vec<String>,
) -> Parsed<HeadInput> {
    let path = format!("heads[{h}]");
    kinds::refuse_head(&raw, &path, attention, score)?;
    let new_fields = kinds::NewFields {
        sink: raw.sink,
        q2: raw.q2,
        k2: raw.k2,
        decay: raw.decay,
        gates: raw.gates,
        features: raw.features,
    };
    let q = required_matrix(raw.q, &format!("{path}.q"), MISSING)?;
    let (k, v, k_path) = pipeline::keys_and_values(heads.groups, heads.count, h, (raw.k, raw.v))?;
    let d_k = q.ncols();
    if k.ncols() != d_k {
        return Err(FieldError::said(
            k_path,
            formats::JsonKeyWidth {
                width: &k.ncols(),
                d_k: &d_k,
            }
            .said(),
        ));
    }
    if v.nrows() != k.nrows() {
        return Err(FieldError::said(
            format!("{path}.v"),
            formats::JsonValueRows {
                rows: &v.nrows(),
                keys: &k.nrows(),
            }
            .said(),
        ));
    }
    let mut head = HeadInput::new(q, k, v);
    if attention.uses_score_function() {
        head.score_params = parse_score_params(raw.score_params.as_ref(), &path, score, unknown)?;
    }
    if attention == AttentionKind::Linformer {
        let lp = format!("{path}.linformer");
        let lin = raw
            .linformer
            .as_ref()
            .ok_or_else(|| FieldError::said(&lp, formats::JSON_LINFORMER_NEEDS))?;
        let lin: Object<RawLinformer> = typed(lin, &lp, unknown)?;
        head.linformer = Some(LinformerParams {
            e: required_matrix(lin.0.e, &format!("{lp}.e"), MISSING)?,
            f: required_matrix(lin.0.f, &format!("{lp}.f"), MISSING)?,
        });
    }
    new_fields.read(&path, &mut head)?;
    Ok(head)
}

/// The most attention weights a document may ask for, summed over its heads (`n · m`
/// each): 2²⁶ f32, 256 MiB, about what a result's JSON can still hold. Checked before
/// the mask, the problem or any weight is built.
pub const MAX_WEIGHTS: usize = 1 << 26;

/// Refuses heads whose weights would not fit [`MAX_WEIGHTS`].
fn check_weights(heads: &[HeadInput]) -> Parsed<()> {
    let cells = heads.iter().try_fold(0usize, |sum, h| {
        h.q.nrows()
            .checked_mul(h.k.nrows())
            .and_then(|c| sum.checked_add(c))
    });
    match (cells, heads.first()) {
        (Some(c), _) if c <= MAX_WEIGHTS => Ok(()),
        (_, Some(h)) => Err(FieldError::said(
            "heads",
            formats::JsonTooManyWeights {
                heads: heads.len(),
                n: &h.q.nrows(),
                m: &h.k.nrows(),
                max: &MAX_WEIGHTS,
            }
            .said(),
        )),
        (_, None) => Ok(()),
    }
}

/// Syntax first, so that broken JSON is reported as such wherever it breaks (the path
/// `input`: the document itself).
pub(crate) fn check_syntax(text: &str) -> Parsed<()> {
    serde_json::from_str::<IgnoredAny>(text).map_err(|e| {
        let said = Said::of(|lang| {
            formats::BringNotJson {
                error: &json_in(&e, lang),
            }
            .say(lang)
        });
        FieldError::said("input", said)
    })?;
    Ok(())
}

/// Parses and validates a whole `attnlab-tensors/1` document.
pub fn parse(text: &str) -> Parsed<Document> {
    check_syntax(text)?;
    let mut unknown = Vec::new();
    let raw: Object<RawDocument> = typed(
        &mut serde_json::Deserializer::from_str(text),
        "",
        &mut unknown,
    )?;
    let raw = raw.0;
    if let Some(f) = raw.format.as_deref().filter(|&f| f != INPUT_FORMAT) {
        let given = quoted(f);
        let said = Said::of(|lang| {
            formats::JsonFormat {
                given: &given.get(lang),
            }
            .say(lang)
        });
        return Err(FieldError::said("format", said));
    }
    let score = choice(
        raw.score.clone(),
        "score",
        ScoreFunction::ScaledDot,
        &ScoreFunction::ALL,
        ScoreFunction::parse,
        ScoreFunction::name,
    )?;
    let attention = choice(
        raw.attention.clone(),
        "attention",
        AttentionKind::Softmax,
        &AttentionKind::EVERY,
        AttentionKind::parse_any,
        AttentionKind::name,
    )?;
    kinds::refuse_document(&raw, attention)?;
    let temperature = match raw.temperature {
        None => 1.0,
        Some(Finite(x)) if x <= 0.0 => {
            return Err(FieldError::said(
                "temperature",
                formats::JsonTemperature { value: &x }.said(),
            ));
        }
        Some(Finite(x)) => x,
    };
    let heads = raw
        .heads
        .ok_or_else(|| FieldError::said("heads", MISSING))?
        .0;
    if heads.is_empty() {
        return Err(FieldError::said("heads", formats::JSON_NO_HEADS));
    }
    let rope = raw
        .positions
        .map(|p| pipeline::parse_positions(p.0))
        .transpose()?;
    let alibi = pipeline::parse_alibi(raw.alibi.as_ref(), &mut unknown)?;
    let softcap = pipeline::parse_softcap(raw.softcap)?;
    let tiles = pipeline::parse_tiles(raw.tiles)?;
    let groups = raw
        .kv_heads
        .map(|g| pipeline::parse_groups(g, heads.len()))
        .transpose()?;
    let shared = Heads {
        count: heads.len(),
        groups: groups.as_deref(),
    };
    let heads = heads
        .into_iter()
        .enumerate()
        .map(|(h, head)| parse_head(head.0, h, score, attention, &shared, &mut unknown))
        .collect::<Parsed<Vec<_>>>()?;
    check_weights(&heads)?;
    let (n, m) = (heads[0].q.nrows(), heads[0].k.nrows());
    let mask = match raw.mask {
        None => MaskSpec::default(),
        Some(mask) => parse_mask(mask.0, n, m)?,
    };
    let w_o = raw.w_o.map(|w| matrix(w, "w_o")).transpose()?;
    let query_tokens = raw
        .query_tokens
        .map(|v| labels(v, "query_tokens", n, formats::JSON_LABEL_QUERY))
        .transpose()?;
    let key_tokens = raw
        .key_tokens
        .map(|v| labels(v, "key_tokens", m, formats::JSON_LABEL_KEY))
        .transpose()?;
    let (sigmoid_bias, lambda, gates) =
        kinds::read_document(raw.sigmoid_bias, raw.lambda, raw.gates);
    let spec = AttentionSpec {
        score,
        temperature,
        attention,
        mask,
        rope,
        alibi,
        softcap,
        tiles,
        sigmoid_bias,
        lambda,
        gates,
    };
    let problem = Problem::new(heads, spec, w_o)?;
    Ok(Document {
        problem,
        query_tokens,
        key_tokens,
        unknown_fields: unknown,
    })
}

#[cfg(test)]
mod tests;
