//! Decayed linear attention (docs/maths.md §7c; RetNet, GLA, Mamba-2's SSD): no
//! normaliser, `w_ij = D_ij · score(q_i, k_j)` for `j ≤ i`, with the decay
//! `D_ij = Π_{t=j+1..i} a_t` (`D_ii = 1`). A fixed decay `γ` gives `D_ij = γ^{i−j}`; gates
//! `a_t` vary with the position (`a_0` is never used).
//!
//! Two forms of the same numbers: the masked parallel form (the `n × n` weights, any mask
//! ANDed with `j ≤ i`), and, when the mask is only causal, the recurrence
//! `S_t = a_t S_{t−1} + k_t v_tᵀ`, `o_t = c · S_tᵀ q_t` with `c` the score's scale
//! (1 for `dot`, `1/√d_k` for `scaled_dot`), in O(n·d_k·d_v) time and O(d_k·d_v) memory.
//!
//! ```
//! use attnlab_core::decayed::{decay_matrix, recurrent};
//! use ndarray::array;
//!
//! // γ = 0.5 over three positions: D = [[1, 0, 0], [0.5, 1, 0], [0.25, 0.5, 1]].
//! let d = decay_matrix(&[0.5, 0.5, 0.5]);
//! assert_eq!(d, array![[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.25, 0.5, 1.0]]);
//! // One-dimensional q = k = v = 1, dot score: o_t = Σ_{j≤t} 0.5^{t−j}.
//! let o = recurrent(&array![[1.0f32], [1.0], [1.0]], &array![[1.0f32], [1.0], [1.0]],
//!     &array![[1.0f32], [1.0], [1.0]], &[0.5, 0.5, 0.5], 1.0);
//! assert_eq!(o, array![[1.0], [1.5], [1.75]]);
//! ```

use ndarray::Array2;

use crate::mask::Mask;
use crate::spec::{AttentionSpec, HeadInput};

/// The gates `a_t` of a decayed head of a validated problem of `n` positions: its own,
/// else the problem's, else its decay `γ` at every position.
pub fn gates(head: &HeadInput, spec: &AttentionSpec, n: usize) -> Vec<f32> {
    match (&head.gates, &spec.gates, head.decay) {
        (Some(g), _, _) | (None, Some(g), None) => g.clone(),
        (_, _, Some(gamma)) => vec![gamma; n],
        (None, None, None) => unreachable!("validated: a decay or gates"),
    }
}

/// `D` (`n × n`, lower triangular) of the gates `a` (`a_t` for `t < n`; `a_0` unused).
/// Each row is built from the diagonal leftwards, `D_{i,j−1} = D_ij · a_j`, in f64.
pub fn decay_matrix(gates: &[f32]) -> Array2<f32> {
    let n = gates.len();
    let mut d = Array2::zeros((n, n));
    for i in 0..n {
        let mut p = 1.0f64;
        d[[i, i]] = 1.0;
        for j in (0..i).rev() {
            p *= f64::from(gates[j + 1]);
            d[[i, j]] = p as f32;
        }
    }
    d
}

/// The mask decayed attention applies: `mask` ANDed with `j ≤ i` (a global token does not
/// open the future).
pub fn causal_mask(mask: &Mask) -> Mask {
    let mut allowed = mask.allowed().to_owned();
    for ((i, j), a) in allowed.indexed_iter_mut() {
        *a &= j <= i;
    }
    Mask::from_array(allowed)
}

/// The weights `w_ij = D_ij · raw_ij` on the cells `mask` allows (0 elsewhere), with
/// `raw` the `n × n` scores and `mask` already causal ([`causal_mask`]).
pub fn weights(raw: &Array2<f32>, gates: &[f32], mask: &Mask) -> Array2<f32> {
    let d = decay_matrix(gates);
    let mut w = Array2::zeros(raw.dim());
    for (((c, &r), &dij), &a) in w.iter_mut().zip(raw).zip(&d).zip(mask.allowed()) {
        if a {
            *c = dij * r;
        }
    }
    w
}

/// The state of the recurrence, `S_t` (`d_k × d_v`, in f64): one [`DecayedState::step`]
/// per position, `S_t = a_t S_{t−1} + k_t v_tᵀ` (or `a_t S_{t−1}` for a key that is not
/// absorbed), and [`DecayedState::read`] gives `o_t = scale · S_tᵀ q_t`.
#[derive(Debug, Clone, PartialEq)]
pub struct DecayedState {
    s: Vec<f64>,
    d_k: usize,
    d_v: usize,
}

impl DecayedState {
    /// `S_{−1} = 0`, `d_k × d_v`.
    pub fn new(d_k: usize, d_v: usize) -> DecayedState {
        DecayedState {
            s: vec![0.0; d_k * d_v],
            d_k,
            d_v,
        }
    }

    /// `S ← a·S + k vᵀ` (`k` of length `d_k`, `v` of length `d_v`); `None` for `k, v`
    /// only decays the state.
    pub fn step(&mut self, a: f64, kv: Option<(&[f32], &[f32])>) {
        match kv {
            Some((k, v)) => {
                for (r, kr) in self.s.chunks_mut(self.d_v.max(1)).zip(k) {
                    for (x, vc) in r.iter_mut().zip(v) {
                        *x = a * *x + f64::from(*kr) * f64::from(*vc);
                    }
                }
            }
            None => self.s.iter_mut().for_each(|x| *x *= a),
        }
    }

    /// `o = scale · Sᵀ q` (length `d_v`).
    pub fn read(&self, q: &[f32], scale: f32) -> Vec<f32> {
        (0..self.d_v)
            .map(|c| {
                let sum: f64 = q
                    .iter()
                    .enumerate()
                    .map(|(r, qr)| f64::from(*qr) * self.s[r * self.d_v + c])
                    .sum();
                (f64::from(scale) * sum) as f32
            })
            .collect()
    }

    /// `S` as an `f32` matrix, `d_k × d_v`.
    pub fn matrix(&self) -> Array2<f32> {
        Array2::from_shape_fn((self.d_k, self.d_v), |(r, c)| {
            self.s[r * self.d_v + c] as f32
        })
    }
}

/// The outputs of the causal form by the recurrence `S_t = a_t S_{t−1} + k_t v_tᵀ`,
/// `o_t = scale · S_tᵀ q_t` (`S_{−1} = 0`), the state in f64 ([`DecayedState`]).
pub fn recurrent(
    q: &Array2<f32>,
    k: &Array2<f32>,
    v: &Array2<f32>,
    gates: &[f32],
    scale: f32,
) -> Array2<f32> {
    let (n, d_k) = q.dim();
    let d_v = v.ncols();
    let mut state = DecayedState::new(d_k, d_v);
    let mut out = Array2::zeros((n, d_v));
    for (t, &gate) in gates.iter().enumerate().take(n) {
        let a = if t == 0 { 0.0 } else { f64::from(gate) };
        let (kt, vt) = (k.row(t).to_vec(), v.row(t).to_vec());
        state.step(a, Some((&kt, &vt)));
        let o = state.read(&q.row(t).to_vec(), scale);
        out.row_mut(t).assign(&ndarray::ArrayView1::from(&o));
    }
    out
}

#[cfg(test)]
mod tests;
