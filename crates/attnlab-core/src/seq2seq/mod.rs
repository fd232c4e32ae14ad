//! The classic encoder–decoder with additive attention (Bahdanau, Cho & Bengio 2015;
//! docs/maths.md §15): a bidirectional GRU reads the source into annotations
//! `h_j = [→h_j; ←h_j]`; a GRU decoder, one target word per step, scores every annotation
//! against its previous state `s_{t−1}` with the additive score of §4
//! (`e_tj = v_aᵀ tanh(W_a s_{t−1} + U_a h_j)`), takes `α_t = softmax(e_t)` and the
//! context `c_t = Σ_j α_tj h_j`, and feeds the context into its next state
//! `s_t = GRU(s_{t−1}, [y_{t−1}; c_t])`.
//!
//! The weights are seeded ([`Seq2seq::seeded`]), not trained: the alignments show the
//! mechanism, not a translation. The target words are given (teacher forcing): `y_{t−1}`
//! is the previous target word's vector, a start vector at the first step.
//!
//! ```
//! use attnlab_core::seq2seq::Seq2seq;
//! use ndarray::{Array1, Array2};
//!
//! let model = Seq2seq::seeded(7, 4, 3);
//! let source = Array2::from_shape_fn((5, 4), |(i, j)| ((i * 4 + j) as f32).sin());
//! let target = Array2::from_shape_fn((3, 4), |(i, j)| ((i + 2 * j) as f32).cos());
//! let run = model.run(&source, &target, &Array1::zeros(4), true)?;
//! assert_eq!(run.steps.len(), 3);
//! assert_eq!(run.alignment().dim(), (3, 5));
//! assert!(run.steps.iter().all(|s| (s.weights.sum() - 1.0).abs() < 1e-5));
//! # Ok::<(), attnlab_core::CoreError>(())
//! ```

mod gru;

pub use gru::{Gru, sigmoid};

use ndarray::{Array1, Array2, ArrayView1, Axis, s};

use crate::error::{BlockInvalid, CoreError, Expected, Invalid, Result};
use crate::rng;
use crate::score::additive_projected;
use crate::softmax::{RowStatus, softmax_row_full};

/// The seeded encoder–decoder: input width `d_x` (the word vectors), encoder state `d_e`
/// per direction, decoder state and annotations `2·d_e` wide.
#[derive(Debug, Clone, PartialEq)]
pub struct Seq2seq {
    /// The encoder's forward GRU (`d_x → d_e`).
    pub forward: Gru,
    /// The encoder's backward GRU (`d_x → d_e`).
    pub backward: Gru,
    /// The decoder's GRU: input `[y; c]` (`d_x + 2·d_e`), state `2·d_e`.
    pub decoder: Gru,
    /// `W_s` (`2·d_e × d_e`): the first state `s_0 = tanh(W_s ←h_1)`.
    pub w_s: Array2<f32>,
    /// The additive score's `W_a` (`d_a × 2·d_e`), applied to the state.
    pub w_a: Array2<f32>,
    /// The additive score's `U_a` (`d_a × 2·d_e`), applied to the annotations.
    pub u_a: Array2<f32>,
    /// The additive score's `v_a` (`d_a`).
    pub v_a: Array1<f32>,
}

/// One decoder step `t` (from 1): what it reads and what it computes.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The query: the previous state `s_{t−1}`.
    pub query: Array1<f32>,
    /// The scores `e_tj`, one per source word.
    pub scores: Array1<f32>,
    /// The weights `α_t = softmax(e_t)`: they sum to 1.
    pub weights: Array1<f32>,
    /// The context `c_t = Σ_j α_tj h_j`.
    pub context: Array1<f32>,
    /// The new state `s_t`.
    pub state: Array1<f32>,
}

/// A run over a source and a target.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The annotations `h_j = [→h_j; ←h_j]`, `m × 2·d_e`.
    pub annotations: Array2<f32>,
    /// `s_0`.
    pub initial: Array1<f32>,
    /// The steps `t = 1 … T`.
    pub steps: Vec<Step>,
}

impl Run {
    /// The alignment matrix: row `t − 1` is `α_t`, `T × m`.
    pub fn alignment(&self) -> Array2<f32> {
        let m = self.annotations.nrows();
        let mut a = Array2::zeros((self.steps.len(), m));
        for (mut row, step) in a.rows_mut().into_iter().zip(&self.steps) {
            row.assign(&step.weights);
        }
        a
    }
}

/// The standard deviation of `v_a`'s entries: 1, so the scores spread over a few units
/// and the seeded rows are not all near uniform (a trained `v_a` is as large as the task
/// needs).
pub const V_A_STD: f32 = 1.0;

/// `W_a`'s entries are drawn this many times wider than `U_a`'s: with equal widths the
/// annotations' term `U_a h_j`, the same at every step, decides most of every row, and
/// the rows barely differ; a trained model learns both.
pub const W_A_SCALE: f32 = 3.0;

impl Seq2seq {
    /// The model for word vectors of width `d_x` and encoder states of width `d_e` (at
    /// least 1), drawn from `seed`: the GRUs as [`Gru::seeded`] draws them (streams
    /// `seq2seq-forward`, `seq2seq-backward`, `seq2seq-decoder`), `W_s` ~ N(0, 1/d_e)
    /// (`seq2seq-init`), `U_a` ~ N(0, 1/(2·d_e)) and `W_a` [`W_A_SCALE`] times that
    /// (`d_a = 2·d_e`; `seq2seq-u-a`, `seq2seq-w-a`) and `v_a` ~ N(0, [`V_A_STD`]²)
    /// (`seq2seq-v-a`).
    pub fn seeded(seed: u64, d_x: usize, d_e: usize) -> Seq2seq {
        let d_e = d_e.max(1);
        let n = 2 * d_e;
        let std = 1.0 / (n as f32).sqrt();
        let square = |label: &str, cols: usize| {
            rng::normal_matrix(&mut rng::stream(seed, label, 0), n, cols, std)
        };
        Seq2seq {
            forward: Gru::seeded(seed, "seq2seq-forward", d_x, d_e),
            backward: Gru::seeded(seed, "seq2seq-backward", d_x, d_e),
            decoder: Gru::seeded(seed, "seq2seq-decoder", d_x + n, n),
            w_s: rng::normal_matrix(
                &mut rng::stream(seed, "seq2seq-init", 0),
                n,
                d_e,
                1.0 / (d_e as f32).sqrt(),
            ),
            w_a: square("seq2seq-w-a", n).mapv(|v| v * W_A_SCALE),
            u_a: square("seq2seq-u-a", n),
            v_a: Array1::from(rng::normal_vec(
                &mut rng::stream(seed, "seq2seq-v-a", 0),
                n,
                V_A_STD,
            )),
        }
    }

    /// The width of the word vectors it reads.
    pub fn input(&self) -> usize {
        self.forward.input()
    }

    /// The annotations of a source (`m × d_x`, `m ≥ 1`): the forward GRU from `→h_0 = 0`
    /// over words `1 … m`, the backward GRU from `←h_{m+1} = 0` over words `m … 1`, each
    /// row `[→h_j; ←h_j]`.
    pub fn annotations(&self, source: &Array2<f32>) -> Array2<f32> {
        let (m, d_e) = (source.nrows(), self.forward.hidden());
        let mut h = Array2::zeros((m, 2 * d_e));
        let mut state = Array1::zeros(d_e);
        for j in 0..m {
            state = self.forward.step(state.view(), source.row(j));
            h.slice_mut(s![j, ..d_e]).assign(&state);
        }
        let mut state = Array1::zeros(d_e);
        for j in (0..m).rev() {
            state = self.backward.step(state.view(), source.row(j));
            h.slice_mut(s![j, d_e..]).assign(&state);
        }
        h
    }

    /// `s_0 = tanh(W_s ←h_1)`, `←h_1` the backward half of the first annotation.
    pub fn initial(&self, annotations: &Array2<f32>) -> Array1<f32> {
        let d_e = self.forward.hidden();
        let backward = annotations.slice(s![0, d_e..]);
        let s: Array1<f32> = self.w_s.dot(&backward);
        s.mapv(f32::tanh)
    }

    /// `U_a h_j` for every annotation (`m × d_a`), the part of the scores no step changes.
    pub fn keys(&self, annotations: &Array2<f32>) -> Array2<f32> {
        annotations
            .dot(&self.u_a.t())
            .as_standard_layout()
            .into_owned()
    }

    /// One decoder step: from `s_{t−1}` and `y_{t−1}`, the scores through the core's
    /// additive score ([`additive_projected`]), their softmax, the context and the next
    /// state — with the context fed in when `feed`, with zeros in its place when not (the
    /// state then ignores the source).
    pub fn step(
        &self,
        previous: ArrayView1<f32>,
        y: ArrayView1<f32>,
        annotations: &Array2<f32>,
        keys: &Array2<f32>,
        feed: bool,
    ) -> Step {
        let query = previous.to_owned();
        let a = self.w_a.dot(&query).insert_axis(Axis(0));
        let scores = additive_projected(&a, keys, &self.v_a).row(0).to_owned();
        let mut weights = Array1::zeros(scores.len());
        let status = softmax_row_full(
            scores.as_slice().expect("standard layout"),
            weights.as_slice_mut().expect("fresh array"),
        );
        debug_assert_eq!(status, RowStatus::Normalised);
        let context = weights.dot(annotations);
        let d_x = y.len();
        let mut input = Array1::zeros(d_x + context.len());
        input.slice_mut(s![..d_x]).assign(&y);
        if feed {
            input.slice_mut(s![d_x..]).assign(&context);
        }
        let state = self.decoder.step(query.view(), input.view());
        Step {
            query,
            scores,
            weights,
            context,
            state,
        }
    }

    /// The run over a source (`m × d_x`) and a target (`T × d_x`) given word by word
    /// (teacher forcing): step `t` reads `y_{t−1}`, `start` at `t = 1` and target word
    /// `t − 1` after, and its row of the alignment is the one target word `t` is
    /// generated with. Refused when the source or the target has no word, a width is not
    /// `d_x`, or a value is not finite.
    pub fn run(
        &self,
        source: &Array2<f32>,
        target: &Array2<f32>,
        start: &Array1<f32>,
        feed: bool,
    ) -> Result<Run> {
        let d_x = self.input();
        for (field, x) in [("source", source), ("target", target)] {
            if x.nrows() == 0 {
                return Err(CoreError::InvalidSetting {
                    field,
                    reason: Invalid::Block(BlockInvalid::NoTokens),
                });
            }
            check(field, x, d_x)?;
        }
        check("start", &start.view().insert_axis(Axis(0)).to_owned(), d_x)?;
        let annotations = self.annotations(source);
        let keys = self.keys(&annotations);
        let initial = self.initial(&annotations);
        let mut steps: Vec<Step> = Vec::with_capacity(target.nrows());
        for t in 0..target.nrows() {
            let previous = steps.last().map_or(initial.view(), |s| s.state.view());
            let y = if t == 0 {
                start.view()
            } else {
                target.row(t - 1)
            };
            let step = self.step(previous, y, &annotations, &keys, feed);
            steps.push(step);
        }
        Ok(Run {
            annotations,
            initial,
            steps,
        })
    }
}

/// `x` has `d` columns and finite values.
fn check(field: &'static str, x: &Array2<f32>, d: usize) -> Result<()> {
    if x.ncols() != d {
        return Err(CoreError::ShapeMismatch {
            head: None,
            field,
            expected: Expected::InputColumns { d_in: d },
            got: x.dim(),
        });
    }
    match x.indexed_iter().find(|(_, v)| !v.is_finite()) {
        Some(((row, col), _)) => Err(CoreError::NonFinite {
            head: None,
            field,
            row,
            col,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
