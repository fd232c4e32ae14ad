//! The `attnlab-tensors/1` interchange format: JSON in, a validated
//! [`attnlab_core::attention::Problem`] out, and the result back as JSON.
//!
//! Every error names the field path (`heads[0].k`) and what is wrong with it
//! (`row 3 has 5 values, expected 4`), in one line.

use std::fmt;

use attnlab_core::CoreError;
use attnlab_core::attention::{
    AttentionKind, AttentionResult, AttentionSpec, Computation, HeadInput, LinformerParams, Problem,
};
use attnlab_core::mask::MaskSpec;
use attnlab_core::score::{ScoreFunction, ScoreParams};
use ndarray::{Array1, Array2};
use serde_json::{Map, Value, json};

/// The format tag of inputs.
pub const INPUT_FORMAT: &str = "attnlab-tensors/1";
/// The format tag of results.
pub const OUTPUT_FORMAT: &str = "attnlab-result/1";

/// A bad input: the field path and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// e.g. `heads[0].k`.
    pub path: String,
    /// e.g. `row 3 has 5 values, expected 4`.
    pub message: String,
}

impl FieldError {
    fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl From<CoreError> for FieldError {
    fn from(e: CoreError) -> FieldError {
        FieldError::new(e.path(), e.reason())
    }
}

type Parsed<T> = Result<T, FieldError>;

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

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let short: String = s.chars().take(20).collect();
            format!("the string {short:?}")
        }
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A finite f32 from a JSON number.
fn number(v: &Value, path: &str, place: impl FnOnce() -> String) -> Parsed<f32> {
    let Some(x) = v.as_f64() else {
        let problem = if v.is_number() {
            "outside the f32 range (|x| ≤ 3.4e38)"
        } else {
            "expected a number"
        };
        return Err(FieldError::new(
            path,
            format!("{} is {}, {problem}", place(), describe(v)),
        ));
    };
    let y = x as f32;
    if !y.is_finite() {
        return Err(FieldError::new(
            path,
            format!("{} is {x}, outside the f32 range (|x| ≤ 3.4e38)", place()),
        ));
    }
    Ok(y)
}

/// A rectangular matrix of finite numbers with at least one row and one column.
fn matrix(v: &Value, path: &str) -> Parsed<Array2<f32>> {
    let rows = v.as_array().ok_or_else(|| {
        FieldError::new(
            path,
            format!("is {}, expected an array of rows", describe(v)),
        )
    })?;
    if rows.is_empty() {
        return Err(FieldError::new(path, "has no rows, expected at least one"));
    }
    let mut width = None;
    let mut data = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let vals = row.as_array().ok_or_else(|| {
            FieldError::new(
                path,
                format!("row {i} is {}, expected an array of numbers", describe(row)),
            )
        })?;
        let w = *width.get_or_insert(vals.len());
        if vals.len() != w {
            return Err(FieldError::new(
                path,
                format!("row {i} has {} values, expected {w}", vals.len()),
            ));
        }
        for (j, x) in vals.iter().enumerate() {
            data.push(number(x, path, || format!("row {i}, column {j}"))?);
        }
    }
    let w = width.unwrap_or(0);
    if w == 0 {
        return Err(FieldError::new(
            path,
            "rows are empty, expected at least one value per row",
        ));
    }
    Ok(Array2::from_shape_vec((rows.len(), w), data).expect("rectangular by construction"))
}

fn vector(v: &Value, path: &str) -> Parsed<Array1<f32>> {
    let vals = v.as_array().ok_or_else(|| {
        FieldError::new(
            path,
            format!("is {}, expected an array of numbers", describe(v)),
        )
    })?;
    if vals.is_empty() {
        return Err(FieldError::new(
            path,
            "is empty, expected at least one value",
        ));
    }
    vals.iter()
        .enumerate()
        .map(|(j, x)| number(x, path, || format!("value {j}")))
        .collect::<Parsed<Vec<f32>>>()
        .map(Array1::from)
}

fn index_list(v: &Value, path: &str) -> Parsed<Vec<usize>> {
    let vals = v.as_array().ok_or_else(|| {
        FieldError::new(
            path,
            format!("is {}, expected an array of token indices", describe(v)),
        )
    })?;
    vals.iter()
        .enumerate()
        .map(|(j, x)| {
            x.as_u64().map(|u| u as usize).ok_or_else(|| {
                FieldError::new(
                    path,
                    format!(
                        "entry {j} is {}, expected a non-negative integer",
                        describe(x)
                    ),
                )
            })
        })
        .collect()
}

fn bool_matrix(v: &Value, path: &str, n: usize, m: usize) -> Parsed<Array2<bool>> {
    let rows = v.as_array().ok_or_else(|| {
        FieldError::new(
            path,
            format!(
                "is {}, expected an array of rows of true/false",
                describe(v)
            ),
        )
    })?;
    if rows.len() != n {
        return Err(FieldError::new(
            path,
            format!("has {} rows, expected {n} (one per query)", rows.len()),
        ));
    }
    let mut data = Vec::with_capacity(n * m);
    for (i, row) in rows.iter().enumerate() {
        let vals = row.as_array().ok_or_else(|| {
            FieldError::new(
                path,
                format!(
                    "row {i} is {}, expected an array of true/false",
                    describe(row)
                ),
            )
        })?;
        if vals.len() != m {
            return Err(FieldError::new(
                path,
                format!(
                    "row {i} has {} values, expected {m} (one per key)",
                    vals.len()
                ),
            ));
        }
        for (j, x) in vals.iter().enumerate() {
            data.push(x.as_bool().ok_or_else(|| {
                FieldError::new(
                    path,
                    format!(
                        "row {i}, column {j} is {}, expected true or false",
                        describe(x)
                    ),
                )
            })?);
        }
    }
    Ok(Array2::from_shape_vec((n, m), data).expect("rectangular by construction"))
}

fn labels(v: &Value, path: &str, len: usize, what: &str) -> Parsed<Vec<String>> {
    let vals = v.as_array().ok_or_else(|| {
        FieldError::new(
            path,
            format!("is {}, expected an array of strings", describe(v)),
        )
    })?;
    if vals.len() != len {
        return Err(FieldError::new(
            path,
            format!("has {} labels, expected {len} (one per {what})", vals.len()),
        ));
    }
    vals.iter()
        .enumerate()
        .map(|(j, x)| {
            x.as_str().map(str::to_string).ok_or_else(|| {
                FieldError::new(
                    path,
                    format!("entry {j} is {}, expected a string", describe(x)),
                )
            })
        })
        .collect()
}

/// An object's field, treating `null` as absent.
fn field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

fn object<'a>(v: &'a Value, path: &str) -> Parsed<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| FieldError::new(path, format!("is {}, expected an object", describe(v))))
}

fn note_unknown(obj: &Map<String, Value>, known: &[&str], prefix: &str, out: &mut Vec<String>) {
    for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        out.push(format!("{prefix}{key}"));
    }
}

fn name_list<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> String {
    all.iter()
        .map(|&x| format!("\"{}\"", name(x)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn parse_mask(v: &Value, n: usize, m: usize, unknown: &mut Vec<String>) -> Parsed<MaskSpec> {
    let obj = object(v, "mask")?;
    note_unknown(obj, &attnlab_core::mask::KINDS, "mask.", unknown);
    let mut spec = MaskSpec::default();
    if let Some(c) = field(obj, "causal") {
        spec.causal = c.as_bool().ok_or_else(|| {
            FieldError::new(
                "mask.causal",
                format!("is {}, expected true or false", describe(c)),
            )
        })?;
    }
    let count = |key: &'static str, min: u64| -> Parsed<Option<usize>> {
        match field(obj, key) {
            None => Ok(None),
            Some(x) => match x.as_u64() {
                Some(u) if u >= min => Ok(Some(u as usize)),
                _ => Err(FieldError::new(
                    format!("mask.{key}"),
                    format!("is {}, expected an integer ≥ {min}", describe(x)),
                )),
            },
        }
    };
    spec.window = count("window", 0)?;
    spec.strided = count("strided", 1)?;
    if let Some(g) = field(obj, "global") {
        spec.global = index_list(g, "mask.global")?;
    }
    if let Some(p) = field(obj, "padding_keys") {
        spec.padding_keys = index_list(p, "mask.padding_keys")?;
    }
    if let Some(c) = field(obj, "custom") {
        spec.custom = Some(bool_matrix(c, "mask.custom", n, m)?);
    }
    Ok(spec)
}

fn parse_score_params(
    obj: &Map<String, Value>,
    h: usize,
    score: ScoreFunction,
    unknown: &mut Vec<String>,
) -> Parsed<ScoreParams> {
    let base = format!("heads[{h}].score_params");
    let params = match field(obj, "score_params") {
        Some(p) => Some(object(p, &base)?),
        None => None,
    };
    if let Some(p) = params {
        note_unknown(p, &["w", "w_a", "u_a", "v_a"], &format!("{base}."), unknown);
    }
    let need = |key: &str, why: &str| -> Parsed<&Value> {
        params
            .and_then(|p| field(p, key))
            .ok_or_else(|| FieldError::new(format!("{base}.{key}"), format!("missing: {why}")))
    };
    Ok(match score {
        ScoreFunction::General => ScoreParams::General {
            w: matrix(
                need("w", "the general score needs w (d_k×d_k)")?,
                &format!("{base}.w"),
            )?,
        },
        ScoreFunction::Additive => {
            let why = "the additive score needs w_a, u_a (d_a×d_k) and v_a (d_a)";
            ScoreParams::Additive {
                w_a: matrix(need("w_a", why)?, &format!("{base}.w_a"))?,
                u_a: matrix(need("u_a", why)?, &format!("{base}.u_a"))?,
                v_a: vector(need("v_a", why)?, &format!("{base}.v_a"))?,
            }
        }
        _ => ScoreParams::None,
    })
}

fn parse_head(
    v: &Value,
    h: usize,
    score: ScoreFunction,
    attention: AttentionKind,
    unknown: &mut Vec<String>,
) -> Parsed<HeadInput> {
    let path = format!("heads[{h}]");
    let obj = object(v, &path)?;
    note_unknown(
        obj,
        &["q", "k", "v", "score_params", "linformer"],
        &format!("{path}."),
        unknown,
    );
    let get = |key: &str| -> Parsed<Array2<f32>> {
        let p = format!("{path}.{key}");
        let x = field(obj, key).ok_or_else(|| FieldError::new(&p, "missing"))?;
        matrix(x, &p)
    };
    let (q, k, v) = (get("q")?, get("k")?, get("v")?);
    let (n, d_k) = q.dim();
    if k.ncols() != d_k {
        return Err(FieldError::new(
            format!("{path}.k"),
            format!(
                "rows have {} values, expected {d_k} (the width of q)",
                k.ncols()
            ),
        ));
    }
    if v.nrows() != k.nrows() {
        return Err(FieldError::new(
            format!("{path}.v"),
            format!(
                "has {} rows, expected {} (one per key, as k)",
                v.nrows(),
                k.nrows()
            ),
        ));
    }
    let _ = n;
    let mut head = HeadInput::new(q, k, v);
    if attention.uses_score_function() {
        head.score_params = parse_score_params(obj, h, score, unknown)?;
    }
    if attention == AttentionKind::Linformer {
        let lp = format!("{path}.linformer");
        let lin = field(obj, "linformer").ok_or_else(|| {
            FieldError::new(&lp, "missing: linformer attention needs e and f (k×m)")
        })?;
        let lin = object(lin, &lp)?;
        let mat = |key: &str| -> Parsed<Array2<f32>> {
            let p = format!("{lp}.{key}");
            matrix(
                field(lin, key).ok_or_else(|| FieldError::new(&p, "missing"))?,
                &p,
            )
        };
        head.linformer = Some(LinformerParams {
            e: mat("e")?,
            f: mat("f")?,
        });
    }
    Ok(head)
}

/// Parses and validates a whole `attnlab-tensors/1` document.
pub fn parse(text: &str) -> Parsed<Document> {
    let root: Value = serde_json::from_str(text)
        .map_err(|e| FieldError::new("input", format!("is not valid JSON ({e})")))?;
    let obj = object(&root, "input")?;
    let mut unknown = Vec::new();
    note_unknown(
        obj,
        &[
            "format",
            "query_tokens",
            "key_tokens",
            "heads",
            "score",
            "temperature",
            "attention",
            "mask",
            "w_o",
        ],
        "",
        &mut unknown,
    );
    if let Some(f) = field(obj, "format").filter(|f| f.as_str() != Some(INPUT_FORMAT)) {
        return Err(FieldError::new(
            "format",
            format!("is {}, expected \"{INPUT_FORMAT}\"", describe(f)),
        ));
    }
    let score = match field(obj, "score") {
        None => ScoreFunction::ScaledDot,
        Some(s) => s.as_str().and_then(ScoreFunction::parse).ok_or_else(|| {
            FieldError::new(
                "score",
                format!(
                    "is {}, expected one of {}",
                    describe(s),
                    name_list(&ScoreFunction::ALL, ScoreFunction::name)
                ),
            )
        })?,
    };
    let attention = match field(obj, "attention") {
        None => AttentionKind::Softmax,
        Some(s) => s.as_str().and_then(AttentionKind::parse).ok_or_else(|| {
            FieldError::new(
                "attention",
                format!(
                    "is {}, expected one of {}",
                    describe(s),
                    name_list(&AttentionKind::ALL, AttentionKind::name)
                ),
            )
        })?,
    };
    let temperature = match field(obj, "temperature") {
        None => 1.0,
        Some(t) => {
            let x = number(t, "temperature", || "the value".into())?;
            if x <= 0.0 {
                return Err(FieldError::new(
                    "temperature",
                    format!("is {x}, expected a number greater than 0"),
                ));
            }
            x
        }
    };
    let heads_v = field(obj, "heads").ok_or_else(|| FieldError::new("heads", "missing"))?;
    let heads_a = heads_v.as_array().ok_or_else(|| {
        FieldError::new(
            "heads",
            format!("is {}, expected an array of heads", describe(heads_v)),
        )
    })?;
    if heads_a.is_empty() {
        return Err(FieldError::new(
            "heads",
            "is empty, expected at least one head",
        ));
    }
    let heads = heads_a
        .iter()
        .enumerate()
        .map(|(h, v)| parse_head(v, h, score, attention, &mut unknown))
        .collect::<Parsed<Vec<_>>>()?;
    let (n, m) = (heads[0].q.nrows(), heads[0].k.nrows());
    let mask = match field(obj, "mask") {
        None => MaskSpec::default(),
        Some(v) => parse_mask(v, n, m, &mut unknown)?,
    };
    let w_o = field(obj, "w_o").map(|w| matrix(w, "w_o")).transpose()?;
    let query_tokens = field(obj, "query_tokens")
        .map(|v| labels(v, "query_tokens", n, "query"))
        .transpose()?;
    let key_tokens = field(obj, "key_tokens")
        .map(|v| labels(v, "key_tokens", m, "key"))
        .transpose()?;
    let spec = AttentionSpec {
        score,
        temperature,
        attention,
        mask,
    };
    let problem = Problem::new(heads, spec, w_o)?;
    Ok(Document {
        problem,
        query_tokens,
        key_tokens,
        unknown_fields: unknown,
    })
}

/// An f32 as the shortest JSON number that reads back as the same f32.
pub(crate) fn num(x: f32) -> Value {
    let shortest: f64 = format!("{x}").parse().expect("f32 Display is a valid f64");
    serde_json::Number::from_f64(shortest)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

pub(crate) fn rows(a: &Array2<f32>) -> Value {
    Value::Array(
        a.rows()
            .into_iter()
            .map(|r| Value::Array(r.iter().map(|&x| num(x)).collect()))
            .collect(),
    )
}

fn computation_name(c: Computation) -> &'static str {
    match c {
        Computation::Quadratic => "quadratic",
        Computation::LinearGlobal => "linear",
        Computation::LinearRecurrent => "linear_recurrent",
        Computation::LinearMaskedQuadratic => "linear_kernel_masked_quadratic",
        Computation::Efficient => "efficient",
        Computation::Linformer => "linformer",
    }
}

/// The result as an `attnlab-result/1` JSON document.
pub fn result_json(doc: &Document, result: &AttentionResult) -> Value {
    let heads: Vec<Value> = result
        .heads
        .iter()
        .map(|h| {
            json!({
                "weights": rows(&h.weights),
                "output": rows(&h.output),
                "row_entropy": h.row_entropy.iter().map(|&x| num(x)).collect::<Vec<_>>(),
                "row_entropy_normalised": h.row_entropy_normalised.iter().map(|&x| num(x)).collect::<Vec<_>>(),
                "empty_rows": h.empty_rows,
                "computation": computation_name(h.computation),
            })
        })
        .collect();
    let mut out = json!({
        "format": OUTPUT_FORMAT,
        "heads": heads,
        "output": rows(&result.output),
    });
    if let Some(q) = &doc.query_tokens {
        out["query_tokens"] = json!(q);
    }
    if let Some(k) = &doc.key_tokens {
        out["key_tokens"] = json!(k);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn ragged_rows_name_the_row() {
        let e = err(
            r#"{"heads":[{"q":[[1,2]],"k":[[1,2],[1,2],[1,2],[1,2,3,4,5]],"v":[[1],[1],[1],[1]]}]}"#,
        );
        assert_eq!(e, "heads[0].k: row 3 has 5 values, expected 2");
    }

    #[test]
    fn width_and_row_mismatches() {
        let e = err(r#"{"heads":[{"q":[[1,2]],"k":[[1,2,3]],"v":[[1]]}]}"#);
        assert_eq!(
            e,
            "heads[0].k: rows have 3 values, expected 2 (the width of q)"
        );
        let e = err(r#"{"heads":[{"q":[[1]],"k":[[1],[2]],"v":[[1]]}]}"#);
        assert_eq!(e, "heads[0].v: has 1 rows, expected 2 (one per key, as k)");
    }

    #[test]
    fn names_and_values_are_checked() {
        let ok = r#""heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]"#;
        assert!(
            err(&format!(r#"{{"score":"dott",{ok}}}"#))
                .starts_with("score: is the string \"dott\", expected one of")
        );
        assert!(err(&format!(r#"{{"attention":"fast",{ok}}}"#)).starts_with("attention:"));
        assert!(err(&format!(r#"{{"temperature":0,{ok}}}"#)).starts_with("temperature: is 0"));
        assert!(err(&format!(r#"{{"temperature":"1",{ok}}}"#)).starts_with("temperature:"));
        assert!(err(r#"{"attention":"linformer","mask":{"causal":true},"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"linformer":{"e":[[1]],"f":[[1]]}}]}"#).starts_with("mask.causal: linformer attention cannot"));
        assert!(
            err(r#"{"heads":[{"q":[[1e39]],"k":[[1]],"v":[[1]]}]}"#)
                .contains("outside the f32 range")
        );
        assert!(
            err(r#"{"heads":[{"q":[["x"]],"k":[[1]],"v":[[1]]}]}"#)
                .starts_with("heads[0].q: row 0, column 0 is the string")
        );
        assert!(err("{").starts_with("input: is not valid JSON"));
        let e = err(r#"{"heads":[{"q":[[1],[-1e999]],"k":[[1]],"v":[[1]]}]}"#);
        assert_eq!(
            e,
            "heads[0].q: row 1, column 0 is -1e+999, outside the f32 range (|x| ≤ 3.4e38)"
        );
    }

    #[test]
    fn unknown_fields_are_collected() {
        let d = parse(r#"{"temprature":2,"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"extra":1}]}"#)
            .unwrap();
        assert_eq!(d.unknown_fields, ["temprature", "heads[0].extra"]);
    }

    #[test]
    fn numbers_print_shortest() {
        assert_eq!(num(0.1).to_string(), "0.1");
        assert_eq!(num(1.0).to_string(), "1.0");
    }
}
