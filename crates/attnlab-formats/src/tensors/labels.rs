//! Token labels brought beside the arrays: a text file (one per line), a JSON list, or
//! `{"queries": […], "keys": […]}` when queries and keys differ.

use serde_json::Value;

use super::BringError;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;

/// Token labels as given: one list for both axes, or one per axis.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Labels {
    Both(Vec<String>),
    Each {
        queries: Vec<String>,
        keys: Vec<String>,
    },
}

/// Labels from a text file: one per line (a final empty line is not a token).
pub(super) fn text_labels(text: &str) -> Labels {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    Labels::Both(lines)
}

/// Labels from JSON: a list of strings, or `{"queries": […], "keys": […]}`.
pub(super) fn json_labels(file: &str, value: &Value) -> Result<Labels, BringError> {
    // `key`: the key of the list, or nothing.
    let list = |v: &Value, key: Option<&str>| -> Result<Vec<String>, BringError> {
        let at = |lang: Lang| {
            key.map_or(String::new(), |key| {
                formats::LabelsAtKey { key: &key }.say(lang)
            })
        };
        let Value::Array(items) = v else {
            let said = Said::of(|lang| formats::LabelsNotList { at: &at(lang) }.say(lang));
            return Err(BringError::said(file, said));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => {
                    let said = Said::of(|lang| {
                        formats::LabelsItem {
                            at: &at(lang),
                            index: &i,
                            value: other,
                            kind: &kind(other, lang),
                        }
                        .say(lang)
                    });
                    Err(BringError::said(file, said))
                }
            })
            .collect()
    };
    match value {
        Value::Array(_) => Ok(Labels::Both(list(value, None)?)),
        Value::Object(map) => {
            let get = |key: &str| {
                map.get(key).ok_or_else(|| {
                    BringError::said(file, formats::LabelsNoKey { key: &key }.said())
                })
            };
            Ok(Labels::Each {
                queries: list(get("queries")?, Some("queries"))?,
                keys: list(get("keys")?, Some("keys"))?,
            })
        }
        _ => Err(BringError::said(file, formats::LABELS_NOT_TOKENS.into())),
    }
}

/// A JSON value that is not a string, as the Chinese message names it: its kind, and a
/// number itself (the English names the value itself).
fn kind(value: &Value, lang: Lang) -> String {
    let (kind, number) = match value {
        Value::Null => ("null", None),
        Value::Bool(_) => ("bool", None),
        Value::Number(n) => ("number", Some(n)),
        Value::String(_) => ("string", None),
        Value::Array(_) => ("array", None),
        Value::Object(_) => ("object", None),
    };
    let number: &dyn std::fmt::Display = match number {
        Some(n) => n,
        None => &"",
    };
    formats::LabelsJsonKind { kind, number }.say(lang)
}

/// Whether a JSON value is a token list rather than an `attnlab-tensors/1` document.
pub(super) fn is_labels(value: &Value) -> bool {
    match value {
        Value::Array(_) => true,
        Value::Object(map) => map.contains_key("queries") && !map.contains_key("heads"),
        _ => false,
    }
}
