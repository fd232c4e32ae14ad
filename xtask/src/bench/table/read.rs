//! Reading the driver's report (`serde_json::Value`) with an error naming the missing
//! or mistyped key, and writing its numbers as the table prints them.

use serde_json::Value;

pub(super) fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key)
        .filter(|f| !f.is_null())
        .ok_or_else(|| format!("`{key}` is missing"))
}

pub(super) fn array<'a>(v: &'a Value, key: &str) -> Result<&'a [Value], String> {
    field(v, key)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("`{key}` is not a list"))
}

pub(super) fn number(v: &Value, key: &str) -> Result<f64, String> {
    field(v, key)?
        .as_f64()
        .ok_or_else(|| format!("`{key}` is not a number"))
}

pub(super) fn numbers(v: &Value, key: &str) -> Result<Vec<f64>, String> {
    array(v, key)?
        .iter()
        .map(|x| {
            x.as_f64()
                .ok_or_else(|| format!("`{key}` holds a non-number"))
        })
        .collect()
}

pub(super) fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| format!("`{key}` is not a string"))
}

/// Milliseconds with three significant figures or so, as the driver's table prints them.
pub(super) fn ms(x: f64) -> String {
    if x >= 1000.0 {
        int(x.round())
    } else if x >= 100.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// A whole number with thousands separated: 65536 → "65,536".
pub(super) fn int(x: f64) -> String {
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 { format!("-{out}") } else { out }
}

/// A table cell: a `|` would end it.
pub(super) fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}
