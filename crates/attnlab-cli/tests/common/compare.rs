//! Comparing a command's JSON output with a reference's, number by number, within a
//! tolerance, naming the path of every number that differs.

use serde_json::Value;

/// A tolerance: `|Δ| ≤ max(abs, rel · |expected|)`.
#[derive(Clone, Copy, Debug)]
pub struct Tol {
    pub abs: f64,
    pub rel: f64,
}

impl Tol {
    pub const fn abs(abs: f64) -> Tol {
        Tol { abs, rel: 0.0 }
    }
    pub fn allows(self, expected: f64) -> f64 {
        self.abs.max(self.rel * expected.abs())
    }
}

/// `|actual − expected| ≤ tol`, or a message naming `label`.
pub fn check_close(actual: f64, expected: f64, tol: f64, label: &str) -> Result<(), String> {
    let ok = (actual - expected).abs() <= tol; // false for NaN
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{label}: expected {expected:.9}, got {actual:.9} (|Δ| = {:.3e}, tol {tol:e})",
            (actual - expected).abs()
        ))
    }
}

/// STYLE.md's helper, for single values.
pub fn assert_close(actual: f64, expected: f64, tol: f64, label: &str) {
    if let Err(e) = check_close(actual, expected, tol, label) {
        panic!("{e}");
    }
}

/// Compare `got` against `want` recursively, following `want`'s structure:
/// every key of `want` must be in `got` (extra keys in `got` are ignored),
/// arrays must have equal lengths, numbers agree to `tol`.
pub fn compare(got: &Value, want: &Value, tol: f64, path: &str, errs: &mut Vec<String>) {
    compare_tol(got, want, Tol::abs(tol), path, errs);
}

/// [`compare`] with an absolute-or-relative tolerance.
pub fn compare_tol(got: &Value, want: &Value, tol: Tol, path: &str, errs: &mut Vec<String>) {
    match want {
        Value::Object(w) => {
            let Some(g) = got.as_object() else {
                errs.push(format!("{path}: expected an object, got {}", short(got)));
                return;
            };
            for (key, wv) in w {
                let sub = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                match g.get(key) {
                    Some(gv) => compare_tol(gv, wv, tol, &sub, errs),
                    None => errs.push(format!("{sub}: missing from the output")),
                }
            }
        }
        Value::Array(w) => {
            let Some(g) = got.as_array() else {
                errs.push(format!("{path}: expected an array, got {}", short(got)));
                return;
            };
            if g.len() != w.len() {
                errs.push(format!(
                    "{path}: expected {} entries, got {} ({} vs {})",
                    w.len(),
                    g.len(),
                    short(want),
                    short(got)
                ));
                return;
            }
            for (i, (gv, wv)) in g.iter().zip(w).enumerate() {
                compare_tol(gv, wv, tol, &format!("{path}[{i}]"), errs);
            }
        }
        Value::Number(w) => match got.as_f64() {
            Some(g) => {
                let w = w.as_f64().unwrap();
                if let Err(e) = check_close(g, w, tol.allows(w), path) {
                    errs.push(e);
                }
            }
            None => errs.push(format!("{path}: expected number {w}, got {}", short(got))),
        },
        other => {
            if got != other {
                errs.push(format!("{path}: expected {other}, got {}", short(got)));
            }
        }
    }
}

pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(200).collect::<String>())
    } else {
        s
    }
}
