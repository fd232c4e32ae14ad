//! What each key contributes in every head of a forward pass (docs/maths.md §12;
//! Kobayashi et al. 2020): `N_ij = ‖α_ij f_h(x_j)‖` with `f_h(x_j) = v_j W^O_h`, key
//! `j`'s value vector of head `h` through that head's rows of the layer's attention
//! output projection, its bias left out.
//!
//! The values and weights come from the forward pass's [`HeadTrace`]s; `W^O` from the
//! encoder, so the forward pass itself is unchanged. The formula is the core's
//! [`attnlab_core::contribution::norms`].
//!
//! ```
//! use attnlab_model::{AttentionOverride, Pretrained, contribution};
//! # let (weights, config, vocab) = attnlab_model::testing::tiny_checkpoint(7);
//! let model = Pretrained::from_hugging_face(&weights, &config, None, &vocab)?;
//! let run = model.run("the cat sat", &AttentionOverride::default())?;
//! let norms = contribution::norms(model.encoder(), &run.forward)?;
//! let n = run.encoding.ids.len();
//! assert_eq!(norms.len(), 2); // layers
//! assert_eq!(norms[0][1].dim(), (n, n)); // layer 0, head 1
//! # Ok::<(), attnlab_model::ModelError>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::contribution;
use ndarray::{Array2, s};

use crate::encoder::{Encoder, Forward, HeadTrace};
use crate::error::{ModelError, Result};

/// Layer `layer`'s attention output projection as `W^O` in the core's convention
/// (`hidden × hidden`, `output = concat(heads) · W^O`, the transpose of the stored
/// `out × in` weight); `None` past the last layer.
pub fn output_projection(encoder: &Encoder, layer: usize) -> Option<Array2<f32>> {
    let weight = encoder.layers.get(layer)?.attention_output.weight();
    let w = Array2::from_shape_vec((weight.rows(), weight.cols()), weight.to_f32())
        .unwrap_or_else(|_| unreachable!("a matrix holds rows × cols values"));
    Some(w.reversed_axes().as_standard_layout().into_owned())
}

/// One head's contributions, `n × n`, with `w_o` its layer's [`output_projection`].
fn head_norms(
    layer: usize,
    head: usize,
    trace: &HeadTrace,
    w_o: &Array2<f32>,
) -> Result<Array2<f32>> {
    let d_v = trace.v.ncols();
    let failed = |error| ModelError::Attention { layer, error };
    let rows = w_o.slice(s![head * d_v..(head + 1) * d_v, ..]);
    if trace.weights.ncols() != trace.v.nrows() {
        // A Linformer override weighs projected keys, whose values the trace lacks.
        return Err(failed(CoreError::InvalidSetting {
            field: "attention",
            reason: attnlab_core::Invalid::ProjectedKeys {
                head,
                keys: trace.weights.ncols(),
                tokens: trace.v.nrows(),
            },
        }));
    }
    contribution::norms(trace.weights.view(), trace.v.view(), Some(rows))
        .map_err(|e| in_head(layer, head, e))
}

/// A core error of head `head` of layer `layer` (an overflow names the head).
fn in_head(layer: usize, head: usize, error: CoreError) -> ModelError {
    let error = match error {
        CoreError::Overflow { what, .. } => CoreError::Overflow { head, what },
        other => other,
    };
    ModelError::Attention { layer, error }
}

/// Every head's lengths `‖v_j W^O_h‖`, `[layer][head][j]`: with the weights, all the
/// contributions hold (`N_ij = α_ij ‖v_j W^O_h‖`), in `n` numbers per head instead of `n²`.
pub fn value_lengths(encoder: &Encoder, forward: &Forward) -> Result<Vec<Vec<Vec<f32>>>> {
    forward
        .heads
        .iter()
        .enumerate()
        .map(|(l, heads)| {
            let w_o = layer_projection(encoder, l)?;
            heads
                .iter()
                .enumerate()
                .map(|(h, trace)| {
                    let d_v = trace.v.ncols();
                    let rows = w_o.slice(s![h * d_v..(h + 1) * d_v, ..]);
                    contribution::transformed_norms(trace.v.view(), Some(rows))
                        .map_err(|e| in_head(l, h, e))
                })
                .collect()
        })
        .collect()
}

fn layer_projection(encoder: &Encoder, l: usize) -> Result<Array2<f32>> {
    output_projection(encoder, l).ok_or(ModelError::Attention {
        layer: l,
        error: CoreError::IndexOutOfRange {
            field: "layer",
            index: l,
            len: encoder.layers.len(),
        },
    })
}

/// Every head's contributions `[layer][head]`, each `n × n`: `‖α_ij v_j W^O_h‖`.
pub fn norms(encoder: &Encoder, forward: &Forward) -> Result<Vec<Vec<Array2<f32>>>> {
    forward
        .heads
        .iter()
        .enumerate()
        .map(|(l, heads)| {
            let w_o = layer_projection(encoder, l)?;
            heads
                .iter()
                .enumerate()
                .map(|(h, trace)| head_norms(l, h, trace, &w_o))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AttentionOverride, Pretrained};

    #[test]
    fn norms_follow_the_papers_formula_written_out() {
        let (weights, config, vocab) = crate::testing::tiny_checkpoint(3);
        let model = Pretrained::from_hugging_face(&weights, &config, None, &vocab).unwrap();
        let run = model
            .run("the quick dog ran", &AttentionOverride::default())
            .unwrap();
        let norms = norms(model.encoder(), &run.forward).unwrap();
        let lengths = value_lengths(model.encoder(), &run.forward).unwrap();
        let (d, dk) = (8, 4);
        for (l, layer) in run.forward.heads.iter().enumerate() {
            // W stored out × in: output_c = Σ_r context_r W[c][r] + b_c.
            let w = model.encoder().layers[l].attention_output.weight().to_f32();
            for (h, trace) in layer.iter().enumerate() {
                let n = trace.weights.nrows();
                for i in 0..n {
                    for j in 0..n {
                        // α_ij · (v_j placed in head h's block of the context) Wᵀ.
                        let mut square = 0.0f64;
                        for c in 0..d {
                            let mut x = 0.0f64;
                            for r in 0..dk {
                                x += f64::from(trace.v[[j, r]]) * f64::from(w[c * d + h * dk + r]);
                            }
                            let y = f64::from(trace.weights[[i, j]]) * x;
                            square += y * y;
                        }
                        let expected = square.sqrt();
                        let got = f64::from(norms[l][h][[i, j]]);
                        let from_lengths =
                            f64::from(trace.weights[[i, j]]) * f64::from(lengths[l][h][j]);
                        assert!((from_lengths - expected).abs() <= 1e-5 * expected.max(1e-3));
                        assert!(
                            (got - expected).abs() <= 1e-5 * expected.max(1e-3),
                            "layer {l} head {h} ({i}, {j}): {got} vs {expected}"
                        );
                    }
                }
            }
        }
    }
}
