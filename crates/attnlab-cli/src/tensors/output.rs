//! The result of a computation as an `attnlab-result/1` JSON document.

use attnlab_core::CoreError;
use attnlab_core::attention::{AttentionResult, Computation};
use attnlab_core::contribution;
use ndarray::ArrayRef2;
use serde_json::{Value, json};

use super::Document;

/// The format tag of results.
pub const OUTPUT_FORMAT: &str = "attnlab-result/1";

/// An f32 as the shortest JSON number that reads back as the same f32.
pub(crate) fn num(x: f32) -> Value {
    let shortest: f64 = format!("{x}").parse().expect("f32 Display is a valid f64");
    serde_json::Number::from_f64(shortest)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

pub(crate) fn rows(a: &ArrayRef2<f32>) -> Value {
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
        Computation::Tiled => "tiled",
        Computation::DecayedRecurrent => "decayed_recurrent",
        Computation::DecayedMaskedQuadratic => "decayed_masked_quadratic",
        Computation::FavorLinear => "favor_linear",
        Computation::FavorRecurrent => "favor_recurrent",
        Computation::FavorMaskedQuadratic => "favor_masked_quadratic",
    }
}

/// A list of numbers, or `null` when the core left it empty (the row entropies of the
/// kinds whose rows are not distributions).
fn numbers_or_null(x: &[f32]) -> Value {
    match x {
        [] => Value::Null,
        x => Value::Array(x.iter().map(|&x| num(x)).collect()),
    }
}

/// The result as an `attnlab-result/1` JSON document. Each head carries its weights,
/// output, row entropies (`null` for the kinds whose rows are not distributions), each
/// row's sum of weights, empty rows, how it was computed, and `norms`, what each key
/// contributes, `‖α_ij v_j‖` (the value vectors as `f`; Linformer's projected values).
pub fn result_json(doc: &Document, result: &AttentionResult) -> Result<Value, CoreError> {
    let heads: Vec<Value> = result
        .heads
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let norms = contribution::value_norms(&doc.problem, i, h)?;
            Ok(json!({
                "weights": rows(&h.weights),
                "norms": rows(&norms),
                "output": rows(&h.output),
                "row_entropy": numbers_or_null(&h.row_entropy),
                "row_entropy_normalised": numbers_or_null(&h.row_entropy_normalised),
                "row_sum": h.row_sum.iter().map(|&x| num(x)).collect::<Vec<_>>(),
                "empty_rows": h.empty_rows,
                "computation": computation_name(h.computation),
            }))
        })
        .collect::<Result<_, CoreError>>()?;
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
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_shortest() {
        assert_eq!(num(0.1).to_string(), "0.1");
        assert_eq!(num(1.0).to_string(), "1.0");
    }
}
