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
    // `at`: the key of the list, in English and in Chinese, or nothing.
    let list = |v: &Value, at: (&str, &str)| -> Result<Vec<String>, BringError> {
        let (at, at_zh) = at;
        let Value::Array(items) = v else {
            return Err(BringError::both(
                file,
                format!("{at}is not a list of strings"),
                format!("{at_zh}不是字符串列表"),
            ));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(BringError::both(
                    file,
                    format!("{at}item {i} is {other}, expected a string"),
                    format!("{at_zh}第 {i} 项是{}，应为字符串", kind_zh(other)),
                )),
            })
            .collect()
    };
    match value {
        Value::Array(_) => Ok(Labels::Both(list(value, ("", ""))?)),
        Value::Object(map) => {
            let get = |key: &str| {
                map.get(key).ok_or_else(|| {
                    BringError::both(
                        file,
                        format!("has no \"{key}\": give a list of tokens, or {{\"queries\": […], \"keys\": […]}}"),
                        format!("没有 \"{key}\"：请给出词元列表，或 {{\"queries\": […], \"keys\": […]}}"),
                    )
                })
            };
            Ok(Labels::Each {
                queries: list(get("queries")?, ("queries: ", "\"queries\"："))?,
                keys: list(get("keys")?, ("keys: ", "\"keys\"："))?,
            })
        }
        _ => Err(BringError::both(
            file,
            "is not a list of tokens: give a list of strings, or {\"queries\": […], \"keys\": […]}",
            "不是词元列表：请给出字符串列表，或 {\"queries\": […], \"keys\": […]}",
        )),
    }
}

/// A JSON value that is not a string, as the Chinese message names it: its kind, and a
/// number or a boolean itself.
fn kind_zh(value: &Value) -> String {
    match value {
        Value::Null => "空值".into(),
        Value::Bool(_) => "布尔值".into(),
        Value::Number(n) => format!("数 {n}"),
        Value::String(_) => "字符串".into(),
        Value::Array(_) => "数组".into(),
        Value::Object(_) => "对象".into(),
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
