//! The compute steps after an edit of the sentence: tokens that did not change keep their
//! vectors and projections, and the scores of unchanged queries and keys are kept (in the
//! core: `ModelConfig::encode_after`, `ModelConfig::project_after`,
//! `Problem::raw_scores_after`); the same numbers as computing afresh, bit for bit.

use attnlab_core::CoreError;
use attnlab_core::model::{Encoded, Projected, ProjectionWeights};
use ndarray::Array2;

use super::{encode, problem, project};
use crate::state::{ModelConfig, Variant};
use crate::tokens::Tokens;

/// [`encode`], given the last encoding: `before` = `(model₀, tokens₀, encoded₀)`; when the
/// model is the same, tokens unchanged at their place keep their vectors
/// ([`ModelConfig::encode_after`]); the same numbers as [`encode`], bit for bit.
pub fn encode_after(
    model: &ModelConfig,
    tokens: &Tokens,
    before: Option<(&ModelConfig, &Tokens, &Encoded)>,
) -> Result<Encoded, CoreError> {
    match before {
        Some((m0, t0, e0)) if m0 == model => model.encode_after(tokens.used(), (t0.used(), e0)),
        _ => encode(model, tokens),
    }
}

/// What a projection was computed from: the model and the queries' and keys' `X`
/// ([`project_after`] keeps the rows of unchanged tokens).
#[derive(Debug, Clone)]
pub struct ProjectedFrom {
    model: ModelConfig,
    x: Array2<f32>,
    x_kv: Option<Array2<f32>>,
}

impl ProjectedFrom {
    /// The inputs of [`project`]`(model, _, queries, keys)`.
    pub fn new(model: &ModelConfig, queries: &Encoded, keys: Option<&Encoded>) -> ProjectedFrom {
        ProjectedFrom {
            model: *model,
            x: queries.x.clone(),
            x_kv: keys.map(|k| k.x.clone()),
        }
    }
}

/// [`project`], given the last projection and what it was computed from: when the model
/// is the same, rows of `X` unchanged since then keep their projected rows
/// ([`ModelConfig::project_after`]); the same numbers as [`project`], bit for bit.
pub fn project_after(
    model: &ModelConfig,
    weights: Option<&ProjectionWeights>,
    queries: &Encoded,
    keys: Option<&Encoded>,
    before: Option<(&ProjectedFrom, &Projected)>,
) -> Result<Projected, CoreError> {
    let x_kv = keys.unwrap_or(queries);
    match before {
        Some((from, p0)) if from.model == *model && from.x_kv.is_some() == keys.is_some() => {
            let x_kv0 = from.x_kv.as_ref().unwrap_or(&from.x);
            model.project_after(weights, &queries.x, &x_kv.x, (&from.x, x_kv0, p0))
        }
        _ => project(model, weights, queries, keys),
    }
}

/// Runs what an edit of `text` runs ([`encode_after`], [`project_after`],
/// `Problem::raw_scores_after`, every head's weights, with `model` and `variant`) for
/// `text` with a letter appended, and returns a number made from the results (so none is
/// left out); a text without tokens uses a made-up sentence. The browser compiles a wasm
/// function when it is first called, optimises it once it has run for a while, and
/// grows the memory when a keystroke's results first sit beside the ones on screen; the
/// app calls this when the page is idle after loading, so the first keystroke does not
/// pay for all that.
pub fn rehearse_edit(model: &ModelConfig, variant: &Variant, text: &str) -> f32 {
    let text = if Tokens::new(text, None).used().is_empty() {
        "the cat sat on the mat because it was warm"
    } else {
        text
    };
    let run = || -> Result<f32, CoreError> {
        let weights = model.projection_weights()?;
        let (t0, t1) = (
            Tokens::new(text, None),
            Tokens::new(&format!("{text}s"), None),
        );
        let e0 = encode(model, &t0)?;
        let p0 = project(model, weights.as_ref(), &e0, None)?;
        let e1 = encode_after(model, &t1, Some((model, &t0, &e0)))?;
        let from = ProjectedFrom::new(model, &e0, None);
        let p1 = project_after(model, weights.as_ref(), &e1, None, Some((&from, &p0)))?;
        let (q0, q1) = (
            problem(model, &p0, variant, &t0)?,
            problem(model, &p1, variant, &t1)?,
        );
        let mut sum = 0.0;
        for h in 0..q1.heads().len() {
            let raw = match q0.raw_scores(h)? {
                Some(raw) => q1.raw_scores_after(h, &q0, &raw)?,
                None => None,
            };
            let head = q1.compute_head_weights(h, raw.as_ref())?;
            sum += head.row_entropy.iter().sum::<f32>();
        }
        Ok(sum)
    };
    run().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Tokens {
        Tokens::new(text, None)
    }

    /// The model before an edit and after it: the same, and another.
    fn models() -> [(ModelConfig, ModelConfig); 2] {
        let small = ModelConfig {
            d_model: 32,
            heads: 2,
            ..ModelConfig::default()
        };
        [
            (ModelConfig::default(), ModelConfig::default()),
            (small, ModelConfig::default()),
        ]
    }

    #[test]
    fn a_projection_after_an_edit_is_the_projection_afresh() {
        for (m0, m1) in models() {
            let (w0, w1) = (
                m0.projection_weights().unwrap(),
                m1.projection_weights().unwrap(),
            );
            let x0 = encode(&m0, &tokens("the cat sat on the")).unwrap();
            let p0 = project(&m0, w0.as_ref(), &x0, None).unwrap();
            let from = ProjectedFrom::new(&m0, &x0, None);
            let x1 = encode(&m1, &tokens("the cat sat on the mat")).unwrap();
            assert_eq!(
                project_after(&m1, w1.as_ref(), &x1, None, Some((&from, &p0))).unwrap(),
                project(&m1, w1.as_ref(), &x1, None).unwrap()
            );
        }
    }

    #[test]
    fn an_encoding_after_an_edit_is_the_encoding_afresh() {
        for (m0, m1) in models() {
            let t0 = tokens("the cat sat on the");
            let e0 = encode(&m0, &t0).unwrap();
            let t1 = tokens("the cat sat on the mat");
            assert_eq!(
                encode_after(&m1, &t1, Some((&m0, &t0, &e0))).unwrap(),
                encode(&m1, &t1).unwrap()
            );
        }
    }

    #[test]
    fn a_rehearsal_computes_every_head_of_the_edit() {
        let variant = Variant::named("A");
        for text in ["the cat sat on the mat", "", "   "] {
            let sum = rehearse_edit(&ModelConfig::default(), &variant, text);
            assert!(sum.is_finite() && sum > 0.0, "{text:?}: {sum}");
        }
    }
}
