//! The neuron view of one cell: why query `i` puts weight `α_ij` on key `j`, in the
//! honest form of the variant's score function, term by term.
//!
//! A score is a sum over dimensions of two factors' products: `q_i ⊙ k_j` for the dot
//! products, `(q_i W) ⊙ k_j` for the general score, `v ⊙ tanh(W q_i + U k_j)` for the
//! additive one, `q̂_i ⊙ k̂_j` (each divided by its norm) for cosine, `φ(q_i) ⊙ φ(k_j)` for
//! the kernel kinds and `softmax(q_i) ⊙ softmax_col(K)_j` for efficient attention. The
//! sum is the raw score the step-by-step page shows ([`crate::steps`]); then the
//! scaling, the temperature, the mask and the softmax over the whole row (or the kernel's
//! row normaliser) turn it into the weight the lab computed. The view works on any
//! validated [`Problem`]: the toy model's, tensors a person brings, a real model's head.
//!
//! ```
//! use attnlab_lab::{LabState, Pipeline};
//! use attnlab_pages::neuron::{Form, Order, neuron};
//!
//! let state = LabState::default(); // A: scaled dot product
//! let a = Pipeline::new(&state).variant(0)?;
//! // Head 0, query 7 ("it"), key 1 ("animal").
//! let view = neuron(&a.problem, 0, 7, 1)?;
//! assert_eq!(view.form, Form::ScaledDot { d_k: 16 });
//! let sum: f32 = view.products.iter().sum();
//! assert!((sum - view.sum).abs() < 1e-5);
//! assert!((view.weight - a.heads[0].weights[[7, 1]]).abs() < 1e-6);
//! // The dimensions that decide the score first.
//! let order = view.order(Order::Magnitude);
//! assert!(view.products[order[0]].abs() >= view.products[order[1]].abs());
//! # Ok::<(), attnlab_lab::LabError>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::attention::{AttentionKind, Problem};
use attnlab_core::linear::{self, EPSILON, FeatureMap};
use attnlab_core::mask::Mask;
use attnlab_core::score::{self, ScoreFunction, ScoreParams};
use attnlab_core::softmax;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::neuron as text;
use ndarray::{Array2, ArrayView1, s};

use crate::steps::Family;
use attnlab_lab::compute::LabError;

mod present;
#[cfg(test)]
mod tests;

pub use present::{RowEntry, Strip};

/// The form of the decomposition: which two factors are multiplied dimension by
/// dimension.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Form {
    /// `q_i ⊙ k_j`.
    Dot,
    /// `q_i ⊙ k_j`, the sum then divided by `√d_k`.
    ScaledDot {
        /// The key width.
        d_k: usize,
    },
    /// `(q_i W) ⊙ k_j`.
    General,
    /// `v ⊙ tanh(W q_i + U k_j)`: the tanh features weighted by `v`.
    Additive,
    /// `(q_i / ‖q_i‖) ⊙ (k_j / ‖k_j‖)`; a zero vector scores 0.
    Cosine {
        /// `‖q_i‖`.
        q_norm: f32,
        /// `‖k_j‖`.
        k_norm: f32,
    },
    /// `φ(q_i) ⊙ φ(k_j)`, the similarity then divided by the row's sum.
    Kernel(FeatureMap),
    /// `softmax(q_i) ⊙ softmax_col(K)_j`: the sum is the weight itself.
    Efficient,
}

impl Form {
    /// The left factor's name, e.g. `"q_i W"`.
    pub fn left_name(self) -> &'static str {
        match self {
            Form::Dot | Form::ScaledDot { .. } => "q_i",
            Form::General => "q_i W",
            Form::Additive => "tanh(W q_i + U k_j)",
            Form::Cosine { .. } => "q_i / \u{2016}q_i\u{2016}",
            Form::Kernel(_) => "\u{3c6}(q_i)",
            Form::Efficient => "softmax(q_i)",
        }
    }

    /// The right factor's name, e.g. `"v"`.
    pub fn right_name(self) -> &'static str {
        match self {
            Form::Dot | Form::ScaledDot { .. } | Form::General => "k_j",
            Form::Additive => "v",
            Form::Cosine { .. } => "k_j / \u{2016}k_j\u{2016}",
            Form::Kernel(_) => "\u{3c6}(k_j)",
            Form::Efficient => "softmax_col(K)_j",
        }
    }

    /// What the sum of the products is, in words, in `lang`.
    pub fn sum_name(self, lang: Lang) -> &'static str {
        match self {
            Form::Kernel(_) => text::NEURON_SUM_SIMILARITY,
            Form::Efficient => text::NEURON_WEIGHT,
            _ => text::NEURON_RAW_SCORE,
        }
        .get(lang)
    }
}

/// How the raw scores of the row become weights.
#[derive(Debug, Clone, PartialEq)]
pub enum Normalisation {
    /// `α_ij = softmax_j(s_ij · scale / τ)` over the keys the mask allows.
    Softmax {
        /// What the raw score is multiplied by before τ: `1/√d_k` for the scaled dot
        /// product (Linformer too), 1 otherwise.
        scale: f32,
        /// τ.
        temperature: f32,
        /// Every key's logit `s_ij · scale / τ` (blocked keys keep theirs; they count as
        /// −∞).
        logits: Vec<f32>,
    },
    /// `α_ij = s_ij / (Σ_j' s_ij' + ε)`, the sum over the allowed keys (blocked ones
    /// weigh 0).
    Kernel {
        /// `Σ_j' s_ij' + ε`.
        normaliser: f32,
    },
    /// Efficient attention normalises the factors, not the row: the sum is the weight.
    None,
    /// A kind beyond softmax, or softmax after a softcap or ALiBi: the row's weights are
    /// the core's own for the head (`compute_head`), from these scores through the kind's
    /// stages (Step by step shows them one by one).
    Computed {
        /// The kind.
        kind: AttentionKind,
    },
}

/// The neuron view of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Neuron {
    /// The head.
    pub head: usize,
    /// The query row `i`.
    pub query: usize,
    /// The key column `j` (a projected key for Linformer).
    pub key: usize,
    /// The decomposition.
    pub form: Form,
    /// Whether the keys are Linformer's projected keys `E K`.
    pub projected_keys: bool,
    /// `q_i`.
    pub q: Vec<f32>,
    /// `k_j` (`(E K)_j` for Linformer).
    pub k: Vec<f32>,
    /// The left factor ([`Form::left_name`]).
    pub left: Vec<f32>,
    /// The right factor ([`Form::right_name`]).
    pub right: Vec<f32>,
    /// `left ⊙ right`, one per dimension.
    pub products: Vec<f32>,
    /// `Σ products`: the raw score (the similarity for kernels, the weight for efficient
    /// attention).
    pub sum: f32,
    /// Every key's raw score in the row, as the step-by-step page computes them.
    pub row_scores: Vec<f32>,
    /// Which keys of the row the mask allows.
    pub allowed: Vec<bool>,
    /// From raw scores to weights.
    pub normalisation: Normalisation,
    /// The row's weights.
    pub row_weights: Vec<f32>,
    /// `α_ij`.
    pub weight: f32,
}

/// The order the dimensions are listed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// 0, 1, 2, ….
    #[default]
    Dimension,
    /// Largest `|left ⊙ right|` first: the few dimensions that decide the score.
    Magnitude,
}

impl Neuron {
    /// The dimensions in `order`.
    pub fn order(&self, order: Order) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.products.len()).collect();
        if order == Order::Magnitude {
            idx.sort_by(|&a, &b| {
                self.products[b]
                    .abs()
                    .total_cmp(&self.products[a].abs())
                    .then(a.cmp(&b))
            });
        }
        idx
    }

    /// Whether the mask allows the cell.
    pub fn is_allowed(&self) -> bool {
        self.allowed[self.key]
    }
}

fn out_of_range(field: &'static str, index: usize, len: usize) -> LabError {
    LabError::Core(CoreError::IndexOutOfRange { field, index, len })
}

fn finite(values: &[f32], what: &'static str, head: usize) -> Result<(), LabError> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(LabError::Core(CoreError::Overflow { head, what }))
    }
}

fn vec(a: ArrayView1<'_, f32>) -> Vec<f32> {
    a.iter().copied().collect()
}

fn norm(x: &[f32]) -> f32 {
    x.iter()
        .map(|&v| f64::from(v) * f64::from(v))
        .sum::<f64>()
        .sqrt() as f32
}

/// The factors of the score function `function` for query row `q` and key `k`.
fn factors(
    function: ScoreFunction,
    params: &ScoreParams,
    q: &[f32],
    k: &[f32],
) -> (Form, Vec<f32>, Vec<f32>) {
    let d_k = q.len();
    match (function, params) {
        (ScoreFunction::General, ScoreParams::General { w }) => {
            let qw = (0..d_k)
                .map(|c| q.iter().zip(w.column(c)).map(|(a, b)| a * b).sum())
                .collect();
            (Form::General, qw, k.to_vec())
        }
        (ScoreFunction::Additive, ScoreParams::Additive { w_a, u_a, v_a }) => {
            let features = w_a
                .rows()
                .into_iter()
                .zip(u_a.rows())
                .map(|(wr, ur)| {
                    let a: f32 = wr.iter().zip(q).map(|(x, y)| x * y).sum();
                    let b: f32 = ur.iter().zip(k).map(|(x, y)| x * y).sum();
                    (a + b).tanh()
                })
                .collect();
            (Form::Additive, features, v_a.to_vec())
        }
        (ScoreFunction::Cosine, _) => {
            let (qn, kn) = (norm(q), norm(k));
            // A zero vector scores 0 (as the core's cosine): its unit vector is 0.
            let unit = |x: &[f32], n: f32| {
                let inv = if qn > 0.0 && kn > 0.0 { 1.0 / n } else { 0.0 };
                x.iter().map(|v| v * inv).collect()
            };
            (
                Form::Cosine {
                    q_norm: qn,
                    k_norm: kn,
                },
                unit(q, qn),
                unit(k, kn),
            )
        }
        (ScoreFunction::ScaledDot, _) => (Form::ScaledDot { d_k }, q.to_vec(), k.to_vec()),
        // Dot, and the parametrised functions whose parameters a validated problem
        // always carries.
        _ => (Form::Dot, q.to_vec(), k.to_vec()),
    }
}

/// The neuron view of cell `(query, key)` of head `head` of `problem`.
pub fn neuron(
    problem: &Problem,
    head: usize,
    query: usize,
    key: usize,
) -> Result<Neuron, LabError> {
    let heads = problem.heads();
    let hin = heads
        .get(head)
        .ok_or_else(|| out_of_range("head", head, heads.len()))?;
    let spec = problem.spec();
    let family = Family::of(spec.attention);
    let (n, m) = (hin.q.nrows(), hin.k.nrows());
    if query >= n {
        return Err(out_of_range("query", query, n));
    }
    let q_row = hin.q.slice(s![query..query + 1, ..]).to_owned();
    let q = vec(hin.q.row(query));
    let mask = problem.mask();

    let (keys, projected_keys) = match (&hin.linformer, family) {
        (Some(lin), Family::Linformer) => (lin.e.dot(&hin.k), true),
        _ => (hin.k.clone(), false),
    };
    let width = keys.nrows();
    if key >= width {
        return Err(out_of_range("key", key, width));
    }
    let k = vec(keys.row(key));
    let allowed: Vec<bool> = if projected_keys {
        vec![true; width]
    } else {
        mask.row(query).to_vec()
    };

    let (form, left, right, row_scores, normalisation, row_weights) = match family {
        // The kinds beyond softmax share its raw scores; their weights are the core's
        // (below).
        Family::Softmax
        | Family::Linformer
        | Family::Normalised(_)
        | Family::Differential
        | Family::Decayed
        | Family::Favor => {
            let (function, params) = if projected_keys {
                (ScoreFunction::ScaledDot, &ScoreParams::None)
            } else {
                (spec.score, &hin.score_params)
            };
            let (form, left, right) = factors(function, params, &q, &k);
            // The raw scores exactly as the step-by-step page computes them: the scaled
            // dot product's raw score is the plain dot product.
            let raw_fn = match function {
                ScoreFunction::ScaledDot => ScoreFunction::Dot,
                f => f,
            };
            let keys = keys.as_standard_layout().into_owned();
            let raw = score::scores(raw_fn, &q_row, &keys, params);
            let scaled = score::scores(function, &q_row, &keys, params);
            // The logits as the core forms them: times 1/τ, inside the softmax.
            let inverse = 1.0 / spec.temperature;
            let logits: Vec<f32> = scaled.iter().map(|s| s * inverse).collect();
            finite(&logits, "logits (score / temperature)", head)?;
            let row_mask = Mask::from_array(
                Array2::from_shape_vec((1, width), allowed.clone())
                    .unwrap_or_else(|_| unreachable!("one row of the keys' width")),
            );
            let weights = softmax::softmax_masked_scaled(&scaled, inverse, &row_mask);
            let scale = match function {
                ScoreFunction::ScaledDot => 1.0 / (q.len() as f32).sqrt(),
                _ => 1.0,
            };
            (
                form,
                left,
                right,
                vec(raw.row(0)),
                Normalisation::Softmax {
                    scale,
                    temperature: spec.temperature,
                    logits,
                },
                vec(weights.row(0)),
            )
        }
        Family::Kernel(map) => {
            let phi_q = map.features(&q_row);
            let phi_k = map.features(&hin.k);
            // Every key's similarity as a number (a blocked one too), the row's sum over
            // the allowed keys only.
            let full = linear::kernel_similarity(&phi_q, &phi_k, &Mask::full(1, m));
            let row = vec(full.row(0));
            finite(&row, "similarities φ(q)ᵀφ(k)", head)?;
            let row_mask =
                Mask::from_array(mask.allowed().slice(s![query..query + 1, ..]).to_owned());
            let sim = linear::kernel_similarity(&phi_q, &phi_k, &row_mask);
            let normaliser = sim.sum() + EPSILON;
            let weights = linear::implied_from_similarity(&sim);
            (
                Form::Kernel(map),
                vec(phi_q.row(0)),
                vec(phi_k.row(key)),
                row,
                Normalisation::Kernel { normaliser },
                vec(weights.row(0)),
            )
        }
        Family::Efficient => {
            let keep = spec.mask.key_allowed(m);
            let qs = linear::softmax_rows(&q_row);
            let ks = linear::softmax_columns(&hin.k, &keep);
            let implied = qs.dot(&ks.t());
            let row = vec(implied.row(0));
            (
                Form::Efficient,
                vec(qs.row(0)),
                vec(ks.row(key)),
                row.clone(),
                Normalisation::None,
                row,
            )
        }
    };
    // The kinds beyond softmax, and softmax with a softcap or ALiBi: what the softmax
    // above gives is not their weight, so the row's weights are the core's own.
    let own_weights = !matches!(family, Family::Softmax | Family::Linformer)
        || !problem.logit_steps(head)?.scale_only();
    let (normalisation, row_weights) = match family {
        Family::Kernel(_) | Family::Efficient => (normalisation, row_weights),
        _ if own_weights => {
            let computed = problem.compute_head(head)?;
            (
                Normalisation::Computed {
                    kind: spec.attention,
                },
                vec(computed.weights.row(query)),
            )
        }
        _ => (normalisation, row_weights),
    };
    let products: Vec<f32> = left.iter().zip(&right).map(|(a, b)| a * b).collect();
    finite(&products, "the products of the neuron view", head)?;
    let sum = products.iter().map(|&p| f64::from(p)).sum::<f64>() as f32;
    let weight = row_weights[key];
    Ok(Neuron {
        head,
        query,
        key,
        form,
        projected_keys,
        q,
        k,
        left,
        right,
        products,
        sum,
        row_scores,
        allowed,
        normalisation,
        row_weights,
        weight,
    })
}
