//! Token labels brought beside the arrays: a text file (one per line), a JSON list, or
//! `{"queries": […], "keys": […]}` when queries and keys differ.

use serde_json::Value;

use super::BringError;

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
    let list = |v: &Value, at: &str| -> Result<Vec<String>, BringError> {
        let Value::Array(items) = v else {
            return Err(BringError::new(
                file,
                format!("{at}is not a list of strings"),
            ));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(BringError::new(
                    file,
                    format!("{at}item {i} is {other}, expected a string"),
                )),
            })
            .collect()
    };
    match value {
        Value::Array(_) => Ok(Labels::Both(list(value, "")?)),
        Value::Object(map) => {
            let get = |key: &str| {
                map.get(key).ok_or_else(|| {
                    BringError::new(
                        file,
                        format!("has no \"{key}\": give a list of tokens, or {{\"queries\": […], \"keys\": […]}}"),
                    )
                })
            };
            Ok(Labels::Each {
                queries: list(get("queries")?, "queries: ")?,
                keys: list(get("keys")?, "keys: ")?,
            })
        }
        _ => Err(BringError::new(
            file,
            "is not a list of tokens: give a list of strings, or {\"queries\": […], \"keys\": […]}",
        )),
    }
}

/// Whether a JSON value is a token list rather than an `attnlab-tensors/1` document.
pub(super) fn is_labels(value: &Value) -> bool {
    match value {
        Value::Array(_) => true,
        Value::Object(map) => map.contains_key("queries") && !map.contains_key("heads"),
        _ => false,
    }
}
