//! Rotary position embedding, RoPE (Su et al. 2021; docs/maths.md §13): each query and
//! key is turned, pair of dimensions by pair, by an angle proportional to its position,
//! so that `q̃_i · k̃_j` depends on the positions only through `p_i − p_j`.
//!
//! With `r` rotary dimensions (even, at most `d_k`) and `θ_t = base^(−2t/r)` for
//! `t < r/2`, position `p` turns pair `t` by `φ = p · θ_t`: `a' = a cos φ − b sin φ`,
//! `b' = a sin φ + b cos φ`. The pair is `(t, t + r/2)` in the `half` layout (GPT-NeoX,
//! Llama) and `(2t, 2t + 1)` in the `interleaved` one (RoFormer, GPT-J); dimensions from
//! `r` on are not touched. The scalings stretch the frequencies for contexts longer than
//! trained: `linear` divides the positions by `s`, `ntk` raises the base to
//! `base · s^(r/(r−2))`, `yarn` blends both per frequency (Peng et al. 2023).
//!
//! The angles, their cosines and sines and the turn are computed in f64 and rounded once
//! to f32.

use ndarray::Array2;

use crate::error::{CoreError, Invalid, PipelineInvalid, Result};

/// Which dimensions form a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RopePairs {
    /// `(t, t + r/2)`: the two halves (GPT-NeoX, Llama, Hugging Face's `rotate_half`).
    #[default]
    Half,
    /// `(2t, 2t + 1)`: neighbours (RoFormer, GPT-J).
    Interleaved,
}

impl RopePairs {
    /// Both layouts.
    pub const ALL: [RopePairs; 2] = [RopePairs::Half, RopePairs::Interleaved];

    /// The name in the interchange format.
    pub fn name(self) -> &'static str {
        match self {
            RopePairs::Half => "half",
            RopePairs::Interleaved => "interleaved",
        }
    }

    /// Parses [`RopePairs::name`].
    pub fn parse(name: &str) -> Option<RopePairs> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The two dimensions of pair `t` of `r` rotary dimensions.
    pub fn dims(self, t: usize, r: usize) -> (usize, usize) {
        match self {
            RopePairs::Half => (t, t + r / 2),
            RopePairs::Interleaved => (2 * t, 2 * t + 1),
        }
    }
}

/// How the frequencies are stretched for contexts longer than the trained one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum RopeScaling {
    /// None: `θ_t` as it is.
    #[default]
    None,
    /// Position interpolation: `φ = (p / s) θ_t`.
    Linear {
        /// `s > 0`.
        factor: f32,
    },
    /// "NTK-aware": the base becomes `base · s^(r/(r−2))`.
    Ntk {
        /// `s > 0`.
        factor: f32,
    },
    /// YaRN (Peng et al. 2023), as Hugging Face transformers' `_compute_yarn_parameters`.
    Yarn {
        /// `s > 0`.
        factor: f32,
        /// `L > 0`, the context length the model was trained on.
        original_max_positions: f32,
        /// `β_fast > 0` (32 by default): rotations over `L` above which a frequency
        /// is kept (extrapolated).
        beta_fast: f32,
        /// `β_slow > 0` (1 by default): rotations over `L` below which a frequency is
        /// interpolated.
        beta_slow: f32,
    },
}

impl RopeScaling {
    /// The names of the scalings in the interchange format.
    pub const NAMES: [&'static str; 3] = ["linear", "ntk", "yarn"];

    /// The name in the interchange format (`None` has none).
    pub fn name(self) -> Option<&'static str> {
        match self {
            RopeScaling::None => None,
            RopeScaling::Linear { .. } => Some("linear"),
            RopeScaling::Ntk { .. } => Some("ntk"),
            RopeScaling::Yarn { .. } => Some("yarn"),
        }
    }
}

/// RoPE's settings, shared by every head.
#[derive(Debug, Clone, PartialEq)]
pub struct Rope {
    /// The base of the frequencies, finite and `> 0` (10000 by default).
    pub base: f32,
    /// Which dimensions pair.
    pub pairs: RopePairs,
    /// `r`: how many leading dimensions turn (even, `2 ≤ r ≤ d_k`); `None` for `d_k`.
    pub rotary_dims: Option<usize>,
    /// One finite position per query row; `None` for `0 … n − 1`.
    pub query_positions: Option<Vec<f32>>,
    /// One finite position per key row; `None` for `0 … m − 1`.
    pub key_positions: Option<Vec<f32>>,
    /// The frequency scaling.
    pub scaling: RopeScaling,
}

impl Default for Rope {
    fn default() -> Self {
        Rope {
            base: 10000.0,
            pairs: RopePairs::Half,
            rotary_dims: None,
            query_positions: None,
            key_positions: None,
            scaling: RopeScaling::None,
        }
    }
}

/// What turns a pair: per pair `t` the angle per unit of position, and one factor on
/// the cosine and sine (YaRN's `0.1 ln s + 1`; 1 otherwise).
#[derive(Debug, Clone, PartialEq)]
pub struct Frequencies {
    /// `φ = p · per_position[t]` for pair `t` (`r/2` of them).
    pub per_position: Vec<f64>,
    /// The factor on `cos φ` and `sin φ`.
    pub mscale: f64,
}

fn invalid(field: &'static str, reason: PipelineInvalid) -> CoreError {
    CoreError::InvalidSetting {
        field,
        reason: Invalid::Pipeline(reason),
    }
}

fn positive(field: &'static str, x: f32) -> Result<()> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(invalid(field, PipelineInvalid::NotPositive(x)))
    }
}

/// `0, 1, …, len − 1`, or the positions given.
pub fn positions_or_count(given: Option<&[f32]>, len: usize) -> Vec<f32> {
    match given {
        Some(p) => p.to_vec(),
        None => (0..len).map(|p| p as f32).collect(),
    }
}

impl Rope {
    /// `r` for a head of width `d_k`.
    pub fn dims(&self, d_k: usize) -> usize {
        self.rotary_dims.unwrap_or(d_k)
    }

    /// Checks the settings against heads of widths `widths`, `n` queries and `m` keys;
    /// each error names its field (`positions.base`, `positions.scaling.factor`, …).
    pub fn validate(&self, widths: &[usize], n: usize, m: usize) -> Result<()> {
        positive("positions.base", self.base)?;
        for &d_k in widths {
            let r = self.dims(d_k);
            match self.rotary_dims {
                Some(got) if got < 2 || got % 2 == 1 || got > d_k => {
                    let reason = PipelineInvalid::RotaryDims { got, d_k };
                    return Err(invalid("positions.rotary_dims", reason));
                }
                None if d_k % 2 == 1 => {
                    let reason = PipelineInvalid::OddWidth { d_k };
                    return Err(invalid("positions.rotary_dims", reason));
                }
                _ => {}
            }
            if matches!(self.scaling, RopeScaling::Ntk { .. }) && r == 2 {
                return Err(invalid("positions.scaling", PipelineInvalid::NtkTwoDims));
            }
        }
        for (field, given, rows) in [
            ("positions.query_positions", &self.query_positions, n),
            ("positions.key_positions", &self.key_positions, m),
        ] {
            let Some(p) = given else { continue };
            if p.len() != rows {
                let reason = PipelineInvalid::PositionCount { got: p.len(), rows };
                return Err(invalid(field, reason));
            }
            if let Some(col) = p.iter().position(|x| !x.is_finite()) {
                return Err(CoreError::NonFinite {
                    head: None,
                    field,
                    row: 0,
                    col,
                });
            }
        }
        match self.scaling {
            RopeScaling::None => {}
            RopeScaling::Linear { factor } | RopeScaling::Ntk { factor } => {
                positive("positions.scaling.factor", factor)?;
            }
            RopeScaling::Yarn {
                factor,
                original_max_positions,
                beta_fast,
                beta_slow,
            } => {
                positive("positions.scaling.factor", factor)?;
                positive(
                    "positions.scaling.original_max_positions",
                    original_max_positions,
                )?;
                positive("positions.scaling.beta_fast", beta_fast)?;
                positive("positions.scaling.beta_slow", beta_slow)?;
                if self.base == 1.0 {
                    return Err(invalid("positions.base", PipelineInvalid::YarnBaseOne));
                }
            }
        }
        Ok(())
    }

    /// The frequencies of `r` rotary dimensions, scaling included.
    pub fn frequencies(&self, r: usize) -> Frequencies {
        let half = r / 2;
        let rf = r as f64;
        let theta = |base: f64| -> Vec<f64> {
            (0..half).map(|t| base.powf(-2.0 * t as f64 / rf)).collect()
        };
        let base = f64::from(self.base);
        match self.scaling {
            RopeScaling::None => Frequencies {
                per_position: theta(base),
                mscale: 1.0,
            },
            RopeScaling::Linear { factor } => Frequencies {
                per_position: theta(base)
                    .into_iter()
                    .map(|w| w / f64::from(factor))
                    .collect(),
                mscale: 1.0,
            },
            RopeScaling::Ntk { factor } => Frequencies {
                per_position: theta(base * f64::from(factor).powf(rf / (rf - 2.0))),
                mscale: 1.0,
            },
            RopeScaling::Yarn {
                factor,
                original_max_positions,
                beta_fast,
                beta_slow,
            } => {
                let s = f64::from(factor);
                let (low, high) = yarn_range(
                    rf,
                    base,
                    f64::from(original_max_positions),
                    f64::from(beta_fast),
                    f64::from(beta_slow),
                );
                let per_position = theta(base)
                    .into_iter()
                    .enumerate()
                    .map(|(t, w)| {
                        let ramp = ((t as f64 - low) / (high - low)).clamp(0.0, 1.0);
                        let extrapolation = 1.0 - ramp;
                        w / s * (1.0 - extrapolation) + w * extrapolation
                    })
                    .collect();
                let mscale = if s <= 1.0 { 1.0 } else { 0.1 * s.ln() + 1.0 };
                Frequencies {
                    per_position,
                    mscale,
                }
            }
        }
    }

    /// `x` (one row per position, `positions.len()` rows) turned in place: the first
    /// `r` dimensions of every row by its position, the rest untouched. Call
    /// [`Rope::validate`] first.
    pub fn turn(&self, x: &mut Array2<f32>, positions: &[f32]) {
        let r = self.dims(x.ncols());
        let freq = self.frequencies(r);
        for (mut row, &p) in x.rows_mut().into_iter().zip(positions) {
            for (t, &w) in freq.per_position.iter().enumerate() {
                let (ia, ib) = self.pairs.dims(t, r);
                let phi = f64::from(p) * w;
                let (sin, cos) = phi.sin_cos();
                let (cos, sin) = (cos * freq.mscale, sin * freq.mscale);
                let (a, b) = (f64::from(row[ia]), f64::from(row[ib]));
                row[ia] = (a * cos - b * sin) as f32;
                row[ib] = (a * sin + b * cos) as f32;
            }
        }
    }
}

/// YaRN's correction range `(low, high)` in pair indices, as Hugging Face transformers'
/// `find_correction_range`: `corr(β) = r ln(L / (2π β)) / (2 ln base)`, `low =
/// max(⌊corr(β_fast)⌋, 0)`, `high = min(⌈corr(β_slow)⌉, r − 1)`, and `high + 0.001` when
/// they meet.
pub fn yarn_range(r: f64, base: f64, max_positions: f64, fast: f64, slow: f64) -> (f64, f64) {
    let corr = |rotations: f64| {
        r * (max_positions / (rotations * 2.0 * std::f64::consts::PI)).ln() / (2.0 * base.ln())
    };
    let low = corr(fast).floor().max(0.0);
    let mut high = corr(slow).ceil().min(r - 1.0);
    if low == high {
        high += 0.001;
    }
    (low, high)
}

/// The long-term decay of RoFormer (Su et al. 2021, §3.4.3) at relative distance `d`:
/// the mean relative upper bound `(1/(r/2)) Σ_{j=1..r/2} |S_j|`, `S_j = Σ_{t<j} e^{i·d·ω_t}`,
/// with `ω_t` = `freq.per_position` (so any scaling), times `mscale²` (YaRN's factor turns
/// both q and k). The score `q̃·k̃` at that distance is at most this times
/// `max_t |h_{t+1} − h_t|` (Abel summation); the bound falls, with ripples, as `d` grows.
/// Computed in f64.
pub fn relative_upper_bound(freq: &Frequencies, distance: f64) -> f64 {
    let half = freq.per_position.len();
    if half == 0 {
        return 0.0;
    }
    let (mut re, mut im, mut total) = (0.0f64, 0.0f64, 0.0f64);
    for &w in &freq.per_position {
        let (sin, cos) = (distance * w).sin_cos();
        re += cos;
        im += sin;
        total += re.hypot(im);
    }
    total / half as f64 * freq.mscale * freq.mscale
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn rope(pairs: RopePairs) -> Rope {
        Rope {
            pairs,
            ..Rope::default()
        }
    }

    #[test]
    fn a_two_dim_vector_at_position_pi_over_two_turns_a_quarter() {
        // r = 2: θ_0 = base^0 = 1, so position π/2 turns by 90°: (1, 0) ↦ (0, 1).
        let mut x = array![[1.0f32, 0.0], [0.0, 2.0]];
        let quarter = std::f32::consts::FRAC_PI_2;
        rope(RopePairs::Half).turn(&mut x, &[quarter, 2.0 * quarter]);
        assert!(
            x[[0, 0]].abs() < 1e-7 && (x[[0, 1]] - 1.0).abs() < 1e-7,
            "{x}"
        );
        // Position π turns (0, 2) half a turn: (0, −2).
        assert!(
            x[[1, 0]].abs() < 1e-6 && (x[[1, 1]] + 2.0).abs() < 1e-6,
            "{x}"
        );
    }

    #[test]
    fn half_and_interleaved_pair_different_dimensions() {
        // d = 4, base 100: θ_0 = 1, θ_1 = 100^(−1/2) = 0.1. Position 1.
        // x = [1, 2, 3, 4].
        // half pairs (0, 2) by 1 rad and (1, 3) by 0.1 rad:
        //   x0' = 1 cos 1 − 3 sin 1, x2' = 1 sin 1 + 3 cos 1,
        //   x1' = 2 cos .1 − 4 sin .1, x3' = 2 sin .1 + 4 cos .1.
        // interleaved pairs (0, 1) by 1 rad and (2, 3) by 0.1 rad:
        //   x0' = 1 cos 1 − 2 sin 1, x1' = 1 sin 1 + 2 cos 1,
        //   x2' = 3 cos .1 − 4 sin .1, x3' = 3 sin .1 + 4 cos .1.
        let (c1, s1, c, s) = (1f64.cos(), 1f64.sin(), 0.1f64.cos(), 0.1f64.sin());
        let half = [
            c1 - 3.0 * s1,
            2.0 * c - 4.0 * s,
            s1 + 3.0 * c1,
            2.0 * s + 4.0 * c,
        ];
        let inter = [
            c1 - 2.0 * s1,
            s1 + 2.0 * c1,
            3.0 * c - 4.0 * s,
            3.0 * s + 4.0 * c,
        ];
        for (pairs, want) in [(RopePairs::Half, half), (RopePairs::Interleaved, inter)] {
            let mut x = array![[1.0f32, 2.0, 3.0, 4.0]];
            let r = Rope {
                base: 100.0,
                ..rope(pairs)
            };
            r.turn(&mut x, &[1.0]);
            for (got, want) in x.iter().zip(want) {
                assert!((f64::from(*got) - want).abs() < 1e-6, "{pairs:?}: {x}");
            }
        }
    }

    #[test]
    fn dimensions_past_rotary_dims_stay() {
        let mut x = array![[1.0f32, 2.0, 3.0, 4.0, 5.0]];
        let r = Rope {
            rotary_dims: Some(2),
            ..Rope::default()
        };
        r.turn(&mut x, &[3.0]);
        assert_eq!(&x.as_slice().unwrap()[2..], &[3.0, 4.0, 5.0]);
        assert!((x[[0, 0]] - (3f32.cos() - 2.0 * 3f32.sin())).abs() < 1e-6);
    }

    #[test]
    fn linear_and_ntk_scalings() {
        // linear: the frequencies ÷ s.
        let r = Rope {
            scaling: RopeScaling::Linear { factor: 4.0 },
            ..Rope::default()
        };
        let f = r.frequencies(4);
        assert_eq!(f.per_position, [0.25, 0.01 / 4.0]);
        // ntk, r = 4: base' = 10000 · 4^(4/2) = 160000, θ_1 = 160000^(−1/2) = 1/400.
        let r = Rope {
            scaling: RopeScaling::Ntk { factor: 4.0 },
            ..Rope::default()
        };
        let f = r.frequencies(4);
        assert_eq!(f.per_position[0], 1.0);
        assert!((f.per_position[1] - 1.0 / 400.0).abs() < 1e-15);
    }

    #[test]
    fn yarn_frequencies_are_hugging_faces() {
        // r = 16, base 10000, s = 4, L = 2048, β = 32, 1. Computed once in Python (f64)
        // with the formulas of transformers' `_compute_yarn_parameters`:
        //   corr(32) = 16 ln(2048/(64π)) / (2 ln 10000) = 2.0160…, low = 2;
        //   corr(1) = 16 ln(2048/(2π)) / (2 ln 10000) = 5.0263…, high = 6;
        //   ramp_t = clamp((t − 2)/4, 0, 1), e_t = 1 − ramp_t,
        //   inv_freq_t = θ_t/s·(1 − e_t) + θ_t·e_t:
        // print([th / 4 * (1 - e) + th * e for th, e in ((10000 ** (-2 * i / 16),
        //        1 - min(max((i - 2) / 4, 0), 1)) for i in range(8))])
        let want = [
            1.0,
            0.31622776601683794,
            0.1,
            0.02569350598886808,
            0.00625,
            0.001383496476323666,
            0.00025,
            7.905694150420948e-05,
        ];
        let (low, high) = yarn_range(16.0, 10000.0, 2048.0, 32.0, 1.0);
        assert_eq!((low, high), (2.0, 6.0));
        let r = Rope {
            scaling: RopeScaling::Yarn {
                factor: 4.0,
                original_max_positions: 2048.0,
                beta_fast: 32.0,
                beta_slow: 1.0,
            },
            ..Rope::default()
        };
        let f = r.frequencies(16);
        for (t, (got, want)) in f.per_position.iter().zip(want).enumerate() {
            assert!(
                (got - want).abs() < 1e-15 * want.max(1.0),
                "t = {t}: {got} {want}"
            );
        }
        // mscale = 0.1 ln 4 + 1 = 1.1386294361119891.
        assert!((f.mscale - 1.138_629_436_111_989).abs() < 1e-15);
    }

    #[test]
    fn validation_names_the_field() {
        let path = |r: &Rope, widths: &[usize]| r.validate(widths, 2, 3).unwrap_err().path();
        let odd = Rope::default();
        assert_eq!(path(&odd, &[3]), "positions.rotary_dims");
        let wide = Rope {
            rotary_dims: Some(6),
            ..Rope::default()
        };
        assert_eq!(path(&wide, &[4]), "positions.rotary_dims");
        let base = Rope {
            base: 0.0,
            ..Rope::default()
        };
        assert_eq!(path(&base, &[4]), "positions.base");
        let count = Rope {
            key_positions: Some(vec![0.0, 1.0]),
            ..Rope::default()
        };
        assert_eq!(path(&count, &[4]), "positions.key_positions");
        let ntk = Rope {
            rotary_dims: Some(2),
            scaling: RopeScaling::Ntk { factor: 2.0 },
            ..Rope::default()
        };
        assert_eq!(path(&ntk, &[4]), "positions.scaling");
        let factor = Rope {
            scaling: RopeScaling::Linear { factor: -1.0 },
            ..Rope::default()
        };
        assert_eq!(path(&factor, &[4]), "positions.scaling.factor");
        assert!(Rope::default().validate(&[4, 6], 2, 3).is_ok());
    }

    #[test]
    fn the_relative_upper_bound_by_hand_and_as_the_paper() {
        // Distance 0: S_j = j, so the mean of 1 … r/2 is (r/2 + 1)/2.
        let f = Rope::default().frequencies(128);
        assert!((relative_upper_bound(&f, 0.0) - 32.5).abs() < 1e-12);
        // r = 4, base 100: ω = 1, 0.1; distance 2: |S_1| = |e^{2i}| = 1 and
        // |S_2| = |e^{2i} + e^{0.2i}| = 2|cos 0.9|.
        let r = Rope {
            base: 100.0,
            ..Rope::default()
        };
        let f = r.frequencies(4);
        let want = (1.0 + 2.0 * 0.9f64.cos().abs()) / 2.0;
        assert!((relative_upper_bound(&f, 2.0) - want).abs() < 1e-12);
        // The paper's Figure 2 (d = 128, base 10000): it decays over 0 … 250.
        let f = Rope::default().frequencies(128);
        let near = relative_upper_bound(&f, 5.0);
        let far = relative_upper_bound(&f, 250.0);
        assert!(near > 2.0 * far, "{near} {far}");
        // YaRN's mscale multiplies the bound by mscale².
        let yarn = Frequencies {
            mscale: 2.0,
            ..f.clone()
        };
        let b = relative_upper_bound(&f, 7.0);
        assert!((relative_upper_bound(&yarn, 7.0) - 4.0 * b).abs() < 1e-12);
    }
}
