//! Score functions (docs/maths.md §4).
//!
//! For a query `q` and key `k` of width `d_k`: `dot` `qᵀk`, `scaled_dot` `qᵀk/√d_k`,
//! `general` `qᵀWk`, `additive` `vᵀ tanh(W_a q + U_a k)`, `cosine` `qᵀk/(‖q‖‖k‖)`
//! (0 when either vector is zero).

use ndarray::{Array1, Array2};

use crate::kernels;

/// A score function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreFunction {
    /// `qᵀk`.
    Dot,
    /// `qᵀk / √d_k` (the Transformer's).
    #[default]
    ScaledDot,
    /// `qᵀ W k` (bilinear, Luong).
    General,
    /// `vᵀ tanh(W_a q + U_a k)` (Bahdanau, concat).
    Additive,
    /// `qᵀk / (‖q‖‖k‖)`.
    Cosine,
}

impl ScoreFunction {
    /// Every score function, in display order.
    pub const ALL: [ScoreFunction; 5] = [
        ScoreFunction::Dot,
        ScoreFunction::ScaledDot,
        ScoreFunction::General,
        ScoreFunction::Additive,
        ScoreFunction::Cosine,
    ];

    /// The name used in the interchange format and the URL.
    pub fn name(self) -> &'static str {
        match self {
            ScoreFunction::Dot => "dot",
            ScoreFunction::ScaledDot => "scaled_dot",
            ScoreFunction::General => "general",
            ScoreFunction::Additive => "additive",
            ScoreFunction::Cosine => "cosine",
        }
    }

    /// Parses a name from [`ScoreFunction::name`].
    pub fn parse(name: &str) -> Option<ScoreFunction> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Learned parameters of the parametrised score functions.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ScoreParams {
    /// No parameters (dot, scaled dot, cosine).
    #[default]
    None,
    /// `W ∈ R^{d_k×d_k}` of the general (bilinear) score.
    General {
        /// `W`.
        w: Array2<f32>,
    },
    /// `W_a, U_a ∈ R^{d_a×d_k}`, `v ∈ R^{d_a}` of the additive score.
    Additive {
        /// `W_a`, applied to the query.
        w_a: Array2<f32>,
        /// `U_a`, applied to the key.
        u_a: Array2<f32>,
        /// `v`.
        v_a: Array1<f32>,
    },
}

fn row(a: &Array2<f32>, i: usize) -> &[f32] {
    let c = a.ncols();
    &a.as_slice().expect("standard layout")[i * c..(i + 1) * c]
}

/// The `n × m` matrix of raw scores (before temperature). `q`, `k` and the parameters
/// must be validated and in standard layout (see [`crate::attention::Problem::new`]).
pub fn scores(
    function: ScoreFunction,
    q: &Array2<f32>,
    k: &Array2<f32>,
    params: &ScoreParams,
) -> Array2<f32> {
    let (n, m) = (q.nrows(), k.nrows());
    let d_k = q.ncols();
    let pairwise = |qq: &Array2<f32>, kk: &Array2<f32>, factor: f32| {
        let mut s = Array2::zeros((n, m));
        kernels::scores(
            qq.as_slice().expect("standard layout"),
            kk.as_slice().expect("standard layout"),
            qq.ncols(),
            factor,
            s.as_slice_mut().expect("fresh array"),
        );
        s
    };
    match (function, params) {
        (ScoreFunction::Dot, _) => pairwise(q, k, 1.0),
        (ScoreFunction::ScaledDot, _) => pairwise(q, k, 1.0 / (d_k as f32).sqrt()),
        (ScoreFunction::General, ScoreParams::General { w }) => {
            // qᵀ W k = (qᵀ W) · k
            let qw = q.dot(w).as_standard_layout().into_owned();
            pairwise(&qw, k, 1.0)
        }
        (ScoreFunction::Additive, ScoreParams::Additive { w_a, u_a, v_a }) => {
            let a = q.dot(&w_a.t()); // n × d_a
            let b = k.dot(&u_a.t()); // m × d_a
            let mut s = Array2::zeros((n, m));
            for i in 0..n {
                for j in 0..m {
                    s[[i, j]] = a
                        .row(i)
                        .iter()
                        .zip(b.row(j))
                        .zip(v_a)
                        .map(|((x, y), v)| v * (x + y).tanh())
                        .sum();
                }
            }
            s
        }
        (ScoreFunction::Cosine, _) => {
            let norms = |x: &Array2<f32>| -> Vec<f32> {
                (0..x.nrows())
                    .map(|i| kernels::dot(row(x, i), row(x, i)).sqrt())
                    .collect()
            };
            let (qn, kn) = (norms(q), norms(k));
            let mut s = pairwise(q, k, 1.0);
            for ((i, j), v) in s.indexed_iter_mut() {
                let denom = qn[i] * kn[j];
                *v = if denom > 0.0 { *v / denom } else { 0.0 };
            }
            s
        }
        // Validation guarantees the parameters match the function.
        (ScoreFunction::General | ScoreFunction::Additive, _) => {
            unreachable!("score parameters are validated in Problem::new")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn hand_checked_scores() {
        let q = array![[1.0f32, 2.0]];
        let k = array![[3.0f32, 4.0], [0.0, 0.0]];
        // dot: 1·3 + 2·4 = 11; with the zero key 0.
        let s = scores(ScoreFunction::Dot, &q, &k, &ScoreParams::None);
        assert_eq!(s, array![[11.0, 0.0]]);
        // scaled: 11 / √2
        let s = scores(ScoreFunction::ScaledDot, &q, &k, &ScoreParams::None);
        assert!((s[[0, 0]] - 11.0 / 2f32.sqrt()).abs() < 1e-6);
        // cosine: 11 / (√5 · 5); the zero key scores 0, not NaN.
        let s = scores(ScoreFunction::Cosine, &q, &k, &ScoreParams::None);
        assert!((s[[0, 0]] - 11.0 / (5f32.sqrt() * 5.0)).abs() < 1e-6);
        assert_eq!(s[[0, 1]], 0.0);
        // general with W = [[0, 1], [1, 0]]: qᵀWk = q·(k swapped) = 1·4 + 2·3 = 10.
        let w = array![[0.0f32, 1.0], [1.0, 0.0]];
        let s = scores(ScoreFunction::General, &q, &k, &ScoreParams::General { w });
        assert_eq!(s[[0, 0]], 10.0);
        // additive with W_a = U_a = I, v = [1, 1]: tanh(1+3) + tanh(2+4).
        let p = ScoreParams::Additive {
            w_a: Array2::eye(2),
            u_a: Array2::eye(2),
            v_a: array![1.0, 1.0],
        };
        let s = scores(ScoreFunction::Additive, &q, &k, &p);
        assert!((s[[0, 0]] - (4f32.tanh() + 6f32.tanh())).abs() < 1e-6);
        // against the zero key: tanh(1) + tanh(2).
        assert!((s[[0, 1]] - (1f32.tanh() + 2f32.tanh())).abs() < 1e-6);
    }

    #[test]
    fn names_round_trip() {
        for s in ScoreFunction::ALL {
            assert_eq!(ScoreFunction::parse(s.name()), Some(s));
        }
        assert_eq!(ScoreFunction::parse("bogus"), None);
    }
}
