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
    scores_in(function, q, k, params, Place::whole(q, k))
}

/// Where the scores a call computes sit in the matrix they belong to (see
/// [`kernels::scores_part`]): `n × m`, with these queries and all keys (`columns`
/// `None`), or these queries and the keys numbered `columns`.
#[derive(Clone, Copy)]
struct Place<'a> {
    shape: (usize, usize),
    columns: Option<&'a [usize]>,
}

impl Place<'_> {
    fn whole(q: &Array2<f32>, k: &Array2<f32>) -> Place<'static> {
        Place {
            shape: (q.nrows(), k.nrows()),
            columns: None,
        }
    }
}

/// [`scores`] of some queries and keys of a larger matrix, at their `place` in it.
fn scores_in(
    function: ScoreFunction,
    q: &Array2<f32>,
    k: &Array2<f32>,
    params: &ScoreParams,
    place: Place<'_>,
) -> Array2<f32> {
    let (n, m) = (q.nrows(), k.nrows());
    let d_k = q.ncols();
    let pairwise = |qq: &Array2<f32>, kk: &Array2<f32>, factor: f32| {
        let mut s = Array2::zeros((n, m));
        kernels::scores_part(
            qq.as_slice().expect("standard layout"),
            kk.as_slice().expect("standard layout"),
            qq.ncols(),
            factor,
            s.as_slice_mut().expect("fresh array"),
            place.shape,
            place.columns,
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
            additive_projected(&a, &b, v_a)
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

/// The additive score from its projections: `s_ij = vᵀ tanh(a_i + b_j)` for the rows
/// `a_i = W_a q_i` (`a`: `n × d_a`) and `b_j = U_a k_j` (`b`: `m × d_a`), `v` of length
/// `d_a`. [`scores`] calls it; a caller that keeps `U_a k_j` across many queries (the
/// classic decoder's one query per step, [`crate::seq2seq`]) computes them once.
pub fn additive_projected(a: &Array2<f32>, b: &Array2<f32>, v_a: &Array1<f32>) -> Array2<f32> {
    let (n, m) = (a.nrows(), b.nrows());
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

/// Which rows of `a` are, bit for bit, row `i` of `before` (rows past `before`'s end, or
/// of another width, are not).
pub(crate) fn same_rows(a: &Array2<f32>, before: &Array2<f32>) -> Vec<bool> {
    let (n, d) = a.dim();
    if d != before.ncols() {
        return vec![false; n];
    }
    let (a, b) = (a.as_standard_layout(), before.as_standard_layout());
    let (a, b) = (
        a.as_slice().expect("standard layout"),
        b.as_slice().expect("standard layout"),
    );
    let rows_before = before.nrows();
    (0..n)
        .map(|i| {
            i < rows_before
                && a[i * d..(i + 1) * d]
                    .iter()
                    .zip(&b[i * d..(i + 1) * d])
                    .all(|(x, y)| x.to_bits() == y.to_bits())
        })
        .collect()
}

/// An `n × m` matrix (`n = same.len()`), row by row: where `same[i]`, row `i` of `old`
/// (its first `m` columns, zeros past its width), else the next row of `computed` (the
/// rows that are not `same`, in order). A slice copy a row; nothing is zeroed first.
pub(crate) fn rows_merged(
    same: &[bool],
    old: &ndarray::ArrayRef2<f32>,
    computed: Option<&Array2<f32>>,
    m: usize,
) -> Array2<f32> {
    let (old, m0) = (old.as_standard_layout(), old.ncols());
    let old = old.as_slice().expect("standard layout");
    let shared = m.min(m0);
    let mut data = Vec::with_capacity(same.len() * m);
    let mut next = 0;
    for (i, &kept) in same.iter().enumerate() {
        if kept {
            data.extend_from_slice(&old[i * m0..i * m0 + shared]);
            data.resize(data.len() + (m - shared), 0.0);
        } else {
            let row = computed
                .expect("a row that is not kept is computed")
                .row(next);
            data.extend_from_slice(row.as_slice().expect("standard layout"));
            next += 1;
        }
    }
    Array2::from_shape_vec((same.len(), m), data).expect("n × m")
}

/// The rows of `a` numbered in `rows`, as a standard-layout matrix.
fn rows_of(a: &Array2<f32>, rows: &[usize]) -> Array2<f32> {
    a.select(ndarray::Axis(0), rows)
}

/// [`scores`] of `q` and `k` when `before` = `(q₀, k₀, scores(function, q₀, k₀, params))`
/// were computed with the same function and parameters: an entry whose query row and key
/// row are unchanged (bit for bit, at the same index) is copied, the others are computed.
/// Every score is a function of its own query and key alone, and the parts are computed
/// in the order their place in the whole matrix gets ([`kernels::scores_part`]), so the
/// result is bit for bit [`scores`]'s. Appending a character to a sentence's last word
/// changes one query and one key: one row and one column are computed instead of the
/// whole matrix.
pub fn scores_reusing(
    function: ScoreFunction,
    q: &Array2<f32>,
    k: &Array2<f32>,
    params: &ScoreParams,
    before: (&Array2<f32>, &Array2<f32>, &ndarray::ArrayRef2<f32>),
) -> Array2<f32> {
    let (q0, k0, s0) = before;
    let (n, m) = (q.nrows(), k.nrows());
    if s0.dim() != (q0.nrows(), k0.nrows()) {
        return scores(function, q, k, params);
    }
    // A kept score must also have been added up in the same order (see
    // `kernels::score_order`); the queries' count picks the kernel.
    let d = q.ncols();
    let order = |shape: (usize, usize), j: usize| kernels::score_order(d, shape, j);
    if order((q0.nrows(), 1), 0) != order((n, 1), 0) {
        return scores(function, q, k, params);
    }
    let same_q = same_rows(q, q0);
    let same_k: Vec<bool> = same_rows(k, k0)
        .into_iter()
        .enumerate()
        .map(|(j, same)| same && order((n, m), j) == order((q0.nrows(), k0.nrows()), j))
        .collect();
    let split =
        |same: &[bool]| -> (Vec<usize>, Vec<usize>) { (0..same.len()).partition(|&i| same[i]) };
    let ((kept_q, new_q), (kept_k, new_k)) = (split(&same_q), split(&same_k));
    if kept_q.is_empty() || kept_k.is_empty() {
        return scores(function, q, k, params);
    }
    // The new queries against every key; then, row by row, a kept query's row copied
    // where both matrices have columns (the columns of new keys among them are
    // overwritten below) or a new query's row; a slice copy each, nothing zeroed first.
    let shape = (n, m);
    let rows = (!new_q.is_empty()).then(|| {
        let place = Place {
            shape,
            columns: None,
        };
        scores_in(function, &rows_of(q, &new_q), k, params, place)
    });
    let mut s = rows_merged(&same_q, s0, rows.as_ref(), m);
    if !new_k.is_empty() {
        let place = Place {
            shape,
            columns: Some(&new_k),
        };
        let cols = scores_in(
            function,
            &rows_of(q, &kept_q),
            &rows_of(k, &new_k),
            params,
            place,
        );
        for (r, &i) in kept_q.iter().enumerate() {
            for (c, &j) in new_k.iter().enumerate() {
                s[[i, j]] = cols[[r, c]];
            }
        }
    }
    s
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
