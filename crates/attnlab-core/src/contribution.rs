//! What each key contributes to a query's output (docs/maths.md §12; Kobayashi et al.
//! 2020, "Attention is Not Only a Weight").
//!
//! A head's output for query `i` is `Σ_j α_ij f(x_j)`: key `j` adds the vector
//! `α_ij f(x_j)`, whose size depends on the transformed value `f(x_j)` as much as on the
//! weight. In a transformer `f(x_j) = v_j W^O_h`, the key's value vector through the
//! head's rows of the output projection (the bias left out, as in the paper); without an
//! output projection, `f(x_j) = v_j`. The matrix `N_ij = ‖α_ij f(x_j)‖ = |α_ij| ‖f(x_j)‖`
//! is drawn beside `α` with the same layout.
//!
//! ```
//! use attnlab_core::contribution::norms;
//! use ndarray::array;
//!
//! // Two keys: value (3, 4) has length 5, value (0, 1) length 1.
//! let alpha = array![[0.5f32, 0.5], [0.9, 0.1]];
//! let v = array![[3.0f32, 4.0], [0.0, 1.0]];
//! let n = norms(alpha.view(), v.view(), None)?;
//! assert_eq!(n, array![[2.5, 0.5], [4.5, 0.1]]);
//! // Through a projection that doubles the first coordinate: (6, 4) and (0, 1).
//! let w = array![[2.0f32, 0.0], [0.0, 1.0]];
//! let n = norms(alpha.view(), v.view(), Some(w.view()))?;
//! assert!((n[[0, 0]] - 0.5 * 52f32.sqrt()).abs() < 1e-6);
//! # Ok::<(), attnlab_core::CoreError>(())
//! ```

use ndarray::{Array2, ArrayView2, s};

use crate::attention::{HeadResult, Problem};
use crate::error::{CoreError, Expected, Result};

/// `‖f(x_j)‖` for every row `v_j` of `values`: `‖v_j P‖` with the projection `P`
/// (`d_v × d_out`), or `‖v_j‖` without one. The product in f32, each length accumulated
/// in f64; a length beyond f32 is an [`CoreError::Overflow`], never infinity.
pub fn transformed_norms(
    values: ArrayView2<'_, f32>,
    projection: Option<ArrayView2<'_, f32>>,
) -> Result<Vec<f32>> {
    if let Some(p) = projection
        && p.nrows() != values.ncols()
    {
        return Err(CoreError::ShapeMismatch {
            head: None,
            field: "w_o",
            expected: Expected::ValueWidthRows { n: values.ncols() },
            got: p.dim(),
        });
    }
    // The product in f32 (ndarray's matrixmultiply, as every other product), each
    // length accumulated in f64.
    let transformed;
    let rows = match projection {
        Some(p) => {
            transformed = values.dot(&p);
            transformed.view()
        }
        None => values,
    };
    let mut out = Vec::with_capacity(rows.nrows());
    for f in rows.rows() {
        let square: f64 = f.iter().map(|a| f64::from(*a) * f64::from(*a)).sum();
        let norm = square.sqrt() as f32;
        if !norm.is_finite() {
            return Err(CoreError::Overflow {
                head: 0,
                what: "the length of a transformed value vector",
            });
        }
        out.push(norm);
    }
    Ok(out)
}

/// `N_ij = |α_ij| ‖f(x_j)‖` for weights `α` (`n × m`) and the `m` value rows `values`
/// (`m × d_v`), through the projection `P` (`d_v × d_out`) when given.
pub fn norms(
    weights: ArrayView2<'_, f32>,
    values: ArrayView2<'_, f32>,
    projection: Option<ArrayView2<'_, f32>>,
) -> Result<Array2<f32>> {
    if values.nrows() != weights.ncols() {
        return Err(CoreError::ShapeMismatch {
            head: None,
            field: "v",
            expected: Expected::WeightColumnsRows { n: weights.ncols() },
            got: values.dim(),
        });
    }
    let lengths = transformed_norms(values, projection)?;
    scaled_by_lengths(weights, &lengths)
}

/// `N_ij = |α_ij| · lengths_j` for weights `α` (`n × m`) and the `m` lengths `‖f(x_j)‖`
/// ([`transformed_norms`]): the contributions when the lengths were computed elsewhere
/// (the model worker sends `n` lengths per head, not `n²` contributions).
pub fn scaled_by_lengths(weights: ArrayView2<'_, f32>, lengths: &[f32]) -> Result<Array2<f32>> {
    if lengths.len() != weights.ncols() {
        return Err(CoreError::ShapeMismatch {
            head: None,
            field: "v",
            expected: Expected::WeightColumnsLengths { n: weights.ncols() },
            got: (lengths.len(), 1),
        });
    }
    let mut out = Array2::zeros(weights.dim());
    for (mut o, a) in out.rows_mut().into_iter().zip(weights.rows()) {
        for ((o, a), len) in o.iter_mut().zip(a).zip(lengths) {
            *o = a.abs() * len;
        }
    }
    if out.iter().any(|x: &f32| !x.is_finite()) {
        return Err(CoreError::Overflow {
            head: 0,
            what: "a contribution ‖α f(x)‖",
        });
    }
    Ok(out)
}

/// The value rows head `head`'s weights mix: `V` itself, or Linformer's projected values
/// `F V` (its weights are over the `k` projected keys).
pub fn mixed_values(problem: &Problem, head: usize) -> Result<Array2<f32>> {
    let input = problem
        .heads()
        .get(head)
        .ok_or(CoreError::IndexOutOfRange {
            field: "head",
            index: head,
            len: problem.heads().len(),
        })?;
    Ok(match &input.linformer {
        Some(lin) => lin.f.dot(&input.v),
        None => input.v.clone(),
    })
}

/// Head `head`'s rows of the problem's `W^O` (`d_v × d_out`), when it has one.
pub fn output_rows(problem: &Problem, head: usize) -> Option<ArrayView2<'_, f32>> {
    let w = problem.w_o()?;
    let d_v = problem.heads().get(head)?.v.ncols();
    let start = head * d_v;
    (start + d_v <= w.nrows()).then(|| w.slice(s![start..start + d_v, ..]))
}

/// Head `head`'s contributions with `f(x_j)` its value vector itself (the lab's toy model
/// and tensors a person brings, whatever their `W^O`): `|α_ij| ‖v_j‖`, Linformer's
/// projected values for Linformer.
pub fn value_norms(problem: &Problem, head: usize, result: &HeadResult) -> Result<Array2<f32>> {
    let values = mixed_values(problem, head)?;
    norms(result.weights.view(), values.view(), None).map_err(|e| with_head(e, head))
}

/// The error with the head it is about.
fn with_head(e: CoreError, head: usize) -> CoreError {
    match e {
        CoreError::Overflow { what, .. } => CoreError::Overflow { head, what },
        CoreError::ShapeMismatch {
            field,
            expected,
            got,
            ..
        } => CoreError::ShapeMismatch {
            head: Some(head),
            field,
            expected,
            got,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::{AttentionKind, AttentionSpec, HeadInput, LinformerParams};
    use ndarray::array;

    #[test]
    fn hand_checked_norms() {
        // ‖(1, 2, 2)‖ = 3, ‖(0, 0, 0)‖ = 0.
        let v = array![[1.0f32, 2.0, 2.0], [0.0, 0.0, 0.0]];
        let a = array![[0.25f32, 0.75]];
        assert_eq!(
            norms(a.view(), v.view(), None).unwrap(),
            array![[0.75, 0.0]]
        );
        // P (3 × 2) = [[1, 0], [0, 1], [1, 1]]: (1, 2, 2) P = (3, 4), length 5.
        let p = array![[1.0f32, 0.0], [0.0, 1.0], [1.0, 1.0]];
        assert_eq!(
            transformed_norms(v.view(), Some(p.view())).unwrap(),
            vec![5.0, 0.0]
        );
        // A negative weight (a kernel's implied matrix could be) counts by its size.
        let a = array![[-0.5f32, 1.0]];
        assert_eq!(
            norms(a.view(), v.view(), Some(p.view())).unwrap(),
            array![[2.5, 0.0]]
        );
    }

    #[test]
    fn shapes_and_overflow_are_errors_not_panics() {
        let v = array![[1.0f32, 2.0]];
        let a = array![[0.5f32, 0.5]];
        assert!(matches!(
            norms(a.view(), v.view(), None),
            Err(CoreError::ShapeMismatch { field: "v", .. })
        ));
        assert!(scaled_by_lengths(a.view(), &[1.0]).is_err());
        assert_eq!(
            scaled_by_lengths(a.view(), &[2.0, 4.0]).unwrap(),
            array![[1.0, 2.0]]
        );
        let p = array![[1.0f32, 0.0, 0.0]];
        assert!(matches!(
            transformed_norms(v.view(), Some(p.view())),
            Err(CoreError::ShapeMismatch { field: "w_o", .. })
        ));
        // ‖(3e38, 3e38)‖ is finite in f64 but not in f32.
        let big = array![[3e38f32, 3e38]];
        assert!(matches!(
            transformed_norms(big.view(), None),
            Err(CoreError::Overflow { .. })
        ));
        // Lengths at the edge of f32 are still exact enough: (3e38, 0) has length 3e38.
        let edge = array![[3e38f32, 0.0]];
        assert_eq!(transformed_norms(edge.view(), None).unwrap(), vec![3e38]);
    }

    #[test]
    fn a_problems_heads_use_their_own_rows_of_w_o_and_linformers_projected_values() {
        let head = |x: f32| {
            HeadInput::new(
                array![[1.0f32, 0.0], [0.0, 1.0]],
                array![[1.0f32, 0.0], [0.0, 1.0]],
                array![[x, 0.0], [0.0, 2.0 * x]],
            )
        };
        // W^O: 4 × 3, head 0's rows 0–1, head 1's rows 2–3.
        let w_o = Array2::from_shape_fn((4, 3), |(r, c)| (r * 3 + c) as f32);
        let problem = Problem::new(
            vec![head(1.0), head(3.0)],
            AttentionSpec::default(),
            Some(w_o),
        )
        .unwrap();
        assert_eq!(
            output_rows(&problem, 1).unwrap(),
            array![[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]
        );
        assert!(output_rows(&problem, 2).is_none());
        let result = problem.compute_head(1).unwrap();
        let n = value_norms(&problem, 1, &result).unwrap();
        // f = v: lengths 3 and 6.
        for i in 0..2 {
            assert!((n[[i, 0]] - 3.0 * result.weights[[i, 0]]).abs() < 1e-6);
            assert!((n[[i, 1]] - 6.0 * result.weights[[i, 1]]).abs() < 1e-6);
        }
        assert!(mixed_values(&problem, 5).is_err());

        // Linformer: F (1 × 2) = [[1, 1]] mixes the two values into (x, 2x).
        let mut lin = head(1.0);
        lin.linformer = Some(LinformerParams {
            e: array![[1.0f32, 1.0]],
            f: array![[1.0f32, 1.0]],
        });
        let spec = AttentionSpec {
            attention: AttentionKind::Linformer,
            ..AttentionSpec::default()
        };
        let problem = Problem::new(vec![lin], spec, None).unwrap();
        let result = problem.compute_head(0).unwrap();
        assert_eq!(result.weights.dim(), (2, 1));
        let n = value_norms(&problem, 0, &result).unwrap();
        assert!((n[[0, 0]] - 5f32.sqrt()).abs() < 1e-6, "{n}");
    }
}
