//! The checks a problem and its computation make: finiteness (of a matrix, or of a
//! matrix times a scale without forming it), shapes, and the score functions' parameters.

use ndarray::{Array2, ArrayRef2};

use crate::error::{CoreError, Expected, Needs, Result};
use crate::kernels;
use crate::score::{ScoreFunction, ScoreParams};

/// Whether every element of `scale · a` is finite (scale 1: of `a` itself), without
/// forming it: over `a`'s memory as one slice by [`kernels::all_finite_scaled`] when it
/// has one.
fn all_finite_scaled(a: &ArrayRef2<f32>, scale: f32) -> bool {
    match a.as_slice_memory_order() {
        Some(cells) => kernels::all_finite_scaled(cells, scale),
        None => a.iter().all(|v| (v * scale).is_finite()),
    }
}

pub(super) fn check_finite(
    head: Option<usize>,
    field: &'static str,
    a: &Array2<f32>,
) -> Result<()> {
    if all_finite_scaled(a, 1.0) {
        return Ok(());
    }
    match a.indexed_iter().find(|(_, v)| !v.is_finite()) {
        Some(((row, col), _)) => Err(CoreError::NonFinite {
            head,
            field,
            row,
            col,
        }),
        None => Ok(()),
    }
}

pub(super) fn check_shape(
    head: Option<usize>,
    field: &'static str,
    a: &Array2<f32>,
    rows: Option<usize>,
    cols: Option<usize>,
    expected: Expected,
) -> Result<()> {
    let (r, c) = a.dim();
    if rows.is_some_and(|x| x != r) || cols.is_some_and(|x| x != c) {
        return Err(CoreError::ShapeMismatch {
            head,
            field,
            expected,
            got: (r, c),
        });
    }
    Ok(())
}

pub(super) fn validate_score_params(
    h: usize,
    score: ScoreFunction,
    d_k: usize,
    params: &mut ScoreParams,
) -> Result<()> {
    let hd = Some(h);
    match (score, params) {
        (ScoreFunction::General, ScoreParams::General { w }) => {
            check_shape(
                hd,
                "score_params.w",
                w,
                Some(d_k),
                Some(d_k),
                Expected::GeneralW { d_k },
            )?;
            check_finite(hd, "score_params.w", w)?;
            standard(w);
        }
        (ScoreFunction::General, _) => {
            return Err(CoreError::MissingParams {
                head: h,
                field: "score_params.w",
                needs: Needs::GeneralW,
            });
        }
        (ScoreFunction::Additive, ScoreParams::Additive { w_a, u_a, v_a }) => {
            // d_a is set by W_a (its rows); U_a and v must agree with it.
            let d_a = w_a.nrows();
            check_shape(
                hd,
                "score_params.w_a",
                w_a,
                None,
                Some(d_k),
                Expected::AdditiveWa { d_k },
            )?;
            check_shape(
                hd,
                "score_params.u_a",
                u_a,
                Some(d_a),
                Some(d_k),
                Expected::AdditiveUa { d_a, d_k },
            )?;
            if v_a.len() != d_a {
                return Err(CoreError::ShapeMismatch {
                    head: hd,
                    field: "score_params.v_a",
                    expected: Expected::AdditiveVa { d_a },
                    got: (1, v_a.len()),
                });
            }
            check_finite(hd, "score_params.w_a", w_a)?;
            check_finite(hd, "score_params.u_a", u_a)?;
            if let Some(col) = v_a.iter().position(|v| !v.is_finite()) {
                return Err(CoreError::NonFinite {
                    head: hd,
                    field: "score_params.v_a",
                    row: 0,
                    col,
                });
            }
            standard(w_a);
            standard(u_a);
        }
        (ScoreFunction::Additive, _) => {
            return Err(CoreError::MissingParams {
                head: h,
                field: "score_params",
                needs: Needs::Additive,
            });
        }
        _ => {}
    }
    Ok(())
}

pub(super) fn finite_or(a: &ArrayRef2<f32>, what: &'static str) -> Result<()> {
    finite_scaled_or(a, 1.0, what)
}

/// [`finite_or`] for `scale · a`, without forming it.
pub(super) fn finite_scaled_or(a: &ArrayRef2<f32>, scale: f32, what: &'static str) -> Result<()> {
    if all_finite_scaled(a, scale) {
        Ok(())
    } else {
        Err(CoreError::Overflow { head: 0, what })
    }
}

/// `a` in standard (row-major, contiguous) layout, copied only when it is not.
pub(super) fn standard(a: &mut Array2<f32>) {
    if !a.is_standard_layout() {
        *a = a.as_standard_layout().into_owned();
    }
}
