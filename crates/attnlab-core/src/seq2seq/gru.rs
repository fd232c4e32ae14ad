//! The gated recurrent unit (Cho et al. 2014) of the classic encoder–decoder
//! (docs/maths.md §15), without biases, as Bahdanau et al. (2015) write it:
//!
//! ```text
//! z = σ(W_z x + U_z h)              the update gate
//! r = σ(W_r x + U_r h)              the reset gate
//! h̃ = tanh(W x + U (r ⊙ h))         the candidate
//! h' = (1 − z) ⊙ h + z ⊙ h̃
//! ```

use ndarray::{Array1, Array2, ArrayView1};

use crate::error::{CoreError, Expected, Result};
use crate::rng;

/// One GRU cell: input width `d_x`, state width `d_h`. The `W` are `d_h × d_x`, the `U`
/// `d_h × d_h`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gru {
    w_z: Array2<f32>,
    u_z: Array2<f32>,
    w_r: Array2<f32>,
    u_r: Array2<f32>,
    w_h: Array2<f32>,
    u_h: Array2<f32>,
}

/// The logistic function `1 / (1 + e^−x)`, in a form that never overflows.
pub fn sigmoid(x: f32) -> f32 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl Gru {
    /// The cell of these matrices, `[W_z, U_z, W_r, U_r, W, U]`, refused when their
    /// shapes disagree (`W`: `d_h × d_x`, `U`: `d_h × d_h`, `d_h ≥ 1`) or a value is not
    /// finite.
    pub fn new(m: [Array2<f32>; 6]) -> Result<Gru> {
        const FIELDS: [&str; 6] = ["w_z", "u_z", "w_r", "u_r", "w", "u"];
        let (d_h, d_x) = m[0].dim();
        for (i, a) in m.iter().enumerate() {
            let want = if i.is_multiple_of(2) {
                (d_h, d_x)
            } else {
                (d_h, d_h)
            };
            if a.dim() != want || d_h == 0 {
                return Err(CoreError::ShapeMismatch {
                    head: None,
                    field: FIELDS[i],
                    expected: Expected::FirstShape {
                        rows: want.0.max(1),
                        cols: want.1,
                    },
                    got: a.dim(),
                });
            }
            if let Some(((row, col), _)) = a.indexed_iter().find(|(_, v)| !v.is_finite()) {
                return Err(CoreError::NonFinite {
                    head: None,
                    field: FIELDS[i],
                    row,
                    col,
                });
            }
        }
        let [w_z, u_z, w_r, u_r, w_h, u_h] = m.map(|a| a.as_standard_layout().into_owned());
        Ok(Gru {
            w_z,
            u_z,
            w_r,
            u_r,
            w_h,
            u_h,
        })
    }

    /// A cell drawn from `seed`: the `W ~ N(0, 1/d_x)`, the `U ~ N(0, 1/d_h)`, each from
    /// the stream `(seed, label, i)`, `i` its place in `[W_z, U_z, W_r, U_r, W, U]`.
    pub fn seeded(seed: u64, label: &str, d_x: usize, d_h: usize) -> Gru {
        let d_h = d_h.max(1);
        let draw = |i: u64| {
            let cols = if i.is_multiple_of(2) { d_x } else { d_h };
            let std = 1.0 / (cols.max(1) as f32).sqrt();
            rng::normal_matrix(&mut rng::stream(seed, label, i), d_h, cols, std)
        };
        Gru {
            w_z: draw(0),
            u_z: draw(1),
            w_r: draw(2),
            u_r: draw(3),
            w_h: draw(4),
            u_h: draw(5),
        }
    }

    /// The matrices `[W_z, U_z, W_r, U_r, W, U]`.
    pub fn matrices(&self) -> [&Array2<f32>; 6] {
        [
            &self.w_z, &self.u_z, &self.w_r, &self.u_r, &self.w_h, &self.u_h,
        ]
    }

    /// The input width `d_x`.
    pub fn input(&self) -> usize {
        self.w_z.ncols()
    }

    /// The state width `d_h`.
    pub fn hidden(&self) -> usize {
        self.w_z.nrows()
    }

    /// The next state `h'` from the state `h` (`d_h`) and the input `x` (`d_x`). The
    /// caller gives the widths the cell has (the encoder and decoder below do).
    pub fn step(&self, h: ArrayView1<f32>, x: ArrayView1<f32>) -> Array1<f32> {
        debug_assert_eq!((h.len(), x.len()), (self.hidden(), self.input()));
        let z = (self.w_z.dot(&x) + self.u_z.dot(&h)).mapv(sigmoid);
        let r = (self.w_r.dot(&x) + self.u_r.dot(&h)).mapv(sigmoid);
        let candidate = (self.w_h.dot(&x) + self.u_h.dot(&(&r * &h))).mapv(f32::tanh);
        let keep = z.mapv(|z| 1.0 - z);
        keep * h + z * candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn a_one_dimensional_cell_by_hand() {
        // W_z = 1, U_z = 0: z = σ(x); W_r = 0, U_r = 2: r = σ(2h);
        // W = 1, U = 1: h̃ = tanh(x + r·h).
        let one = |v: f32| array![[v]];
        let gru =
            Gru::new([one(1.0), one(0.0), one(0.0), one(2.0), one(1.0), one(1.0)]).expect("valid");
        let (h, x) = (0.5f32, 1.0f32);
        // z = σ(1) = 0.731059; r = σ(1) = 0.731059; h̃ = tanh(1 + 0.365529) = 0.877669;
        // h' = 0.268941·0.5 + 0.731059·0.877669 = 0.776098.
        let next = gru.step(array![h].view(), array![x].view())[0];
        assert!((next - 0.776_098).abs() < 1e-5, "{next}");
        // The same by the formula, step by step.
        let z = 1.0 / (1.0 + (-1.0f32).exp());
        let r = 1.0 / (1.0 + (-2.0 * h).exp());
        let cand = (x + r * h).tanh();
        assert!((next - ((1.0 - z) * h + z * cand)).abs() < 1e-6);
        // A closed update gate (W_z = −∞ in effect) keeps the state.
        let shut = Gru::new([
            one(-100.0),
            one(0.0),
            one(0.0),
            one(0.0),
            one(1.0),
            one(1.0),
        ])
        .unwrap();
        assert!((shut.step(array![h].view(), array![1.0].view())[0] - h).abs() < 1e-6);
    }

    #[test]
    fn shapes_and_values_are_checked() {
        let ok = || Array2::<f32>::zeros((2, 3));
        let sq = || Array2::<f32>::zeros((2, 2));
        assert!(Gru::new([ok(), sq(), ok(), sq(), ok(), sq()]).is_ok());
        let err = Gru::new([ok(), sq(), ok(), ok(), ok(), sq()]).unwrap_err();
        assert!(matches!(err, CoreError::ShapeMismatch { field: "u_r", .. }));
        let mut bad = ok();
        bad[[1, 2]] = f32::NAN;
        let err = Gru::new([ok(), sq(), ok(), sq(), bad, sq()]).unwrap_err();
        assert!(matches!(
            err,
            CoreError::NonFinite {
                field: "w",
                row: 1,
                col: 2,
                ..
            }
        ));
    }

    #[test]
    fn sigmoid_never_overflows() {
        assert_eq!(sigmoid(-1000.0), 0.0);
        assert_eq!(sigmoid(1000.0), 1.0);
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn seeded_cells_are_deterministic_and_state_stays_bounded() {
        let a = Gru::seeded(7, "t", 3, 4);
        assert_eq!(a, Gru::seeded(7, "t", 3, 4));
        assert_ne!(a, Gru::seeded(8, "t", 3, 4));
        let mut h = Array1::zeros(4);
        for _ in 0..50 {
            h = a.step(h.view(), array![10.0, -10.0, 10.0].view());
        }
        // A convex mix of the old state and a tanh: always in [−1, 1].
        assert!(h.iter().all(|v| v.abs() <= 1.0));
    }
}
