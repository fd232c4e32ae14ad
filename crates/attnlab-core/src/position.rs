//! Position encodings (docs/maths.md §2).
//!
//! Sinusoidal: `PE(p, 2i) = sin(p / base^{2i/d})`, `PE(p, 2i+1) = cos(p / base^{2i/d})`
//! (`interleaved`), or the first half sines and the second half cosines (`split`).
//! The identity `PE(p+k) = R_k · PE(p)` with a block-diagonal rotation `R_k` makes
//! `PE(p)·PE(p+k)` depend on `k` only; the scores after `W_Q` and `W_K` do not keep it
//! (RoPE, [`crate::rope`], does). [`rotation_residual`] measures the identity.

use ndarray::Array2;

use crate::error::{CoreError, Invalid, Result};
use crate::rng;

/// The default sinusoid base (the Transformer's 10000; docs/maths.md §2).
pub const DEFAULT_BASE: f64 = 10_000.0;

/// How sines and cosines are laid out along the feature axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// `sin, cos, sin, cos, …` (dimension pairs `2i, 2i+1`).
    #[default]
    Interleaved,
    /// All sines, then all cosines (dimension pairs `i, d/2 + i`).
    Split,
}

/// Which position encoding is used.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum PositionKind {
    /// No position information: attention sees a bag of words.
    None,
    /// Fixed sinusoids.
    #[default]
    Sinusoidal,
    /// A seeded random table, standing in for trained position vectors.
    Learned,
}

/// How the position vector is combined with the word vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Combine {
    /// `x = e + PE` (width `d_model`).
    #[default]
    Add,
    /// `x = [e, PE]` (width `d_model + d_pos`).
    Concat {
        /// Width of the position vector.
        d_pos: usize,
    },
}

/// A complete position-encoding setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PositionConfig {
    /// Which encoding.
    pub kind: PositionKind,
    /// Sinusoid base (> 1).
    pub base: f64,
    /// Sinusoid layout.
    pub layout: Layout,
    /// Add or concatenate.
    pub combine: Combine,
}

impl Default for PositionConfig {
    fn default() -> Self {
        PositionConfig {
            kind: PositionKind::Sinusoidal,
            base: DEFAULT_BASE,
            layout: Layout::Interleaved,
            combine: Combine::Add,
        }
    }
}

impl PositionConfig {
    /// The width of the position vectors given the model width.
    pub fn width(&self, d_model: usize) -> usize {
        match self.combine {
            Combine::Add => d_model,
            Combine::Concat { d_pos } => d_pos,
        }
    }

    /// Checks the base and widths.
    pub fn validate(&self, d_model: usize) -> Result<()> {
        if !(self.base.is_finite() && self.base > 1.0) {
            return Err(CoreError::InvalidSetting {
                field: "position.base",
                reason: Invalid::PositionBase(self.base),
            });
        }
        let d = self.width(d_model);
        if d == 0 && self.kind != PositionKind::None {
            return Err(CoreError::InvalidSetting {
                field: "position.d_pos",
                reason: Invalid::PositionWidth,
            });
        }
        if self.kind == PositionKind::Sinusoidal && d % 2 == 1 {
            return Err(CoreError::InvalidSetting {
                field: "position.d_pos",
                reason: Invalid::SinusoidalOdd(d),
            });
        }
        Ok(())
    }

    /// [`PositionConfig::table`] for `n` positions given the table `before` of this
    /// configuration for fewer or more: position `p`'s row does not depend on `n`, so the
    /// rows both have are kept and only the new ones computed (sinusoids; a learned
    /// table is drawn again, its stream being sequential). The same numbers as
    /// [`PositionConfig::table`].
    pub fn table_after(
        &self,
        n: usize,
        d_model: usize,
        seed: u64,
        before: &Array2<f32>,
    ) -> Array2<f32> {
        let d = self.width(d_model);
        let n0 = before.nrows();
        if before.ncols() != d || (n > n0 && self.kind != PositionKind::Sinusoidal) {
            return self.table(n, d_model, seed);
        }
        if n <= n0 {
            return before.slice(ndarray::s![..n, ..]).to_owned();
        }
        let new = sinusoidal_rows(n0..n, d, self.base, self.layout);
        ndarray::concatenate(ndarray::Axis(0), &[before.view(), new.view()])
            .expect("the same width")
    }

    /// The `n × width` table of position vectors for positions `0..n` (zeros for `None`).
    pub fn table(&self, n: usize, d_model: usize, seed: u64) -> Array2<f32> {
        let d = self.width(d_model);
        match self.kind {
            PositionKind::None => Array2::zeros((n, d)),
            PositionKind::Sinusoidal => sinusoidal(n, d, self.base, self.layout),
            PositionKind::Learned => learned(n, d, seed),
        }
    }
}

/// Angular frequency of sinusoid pair `i` for width `d`: `ω_i = base^{−2i/d}`.
pub fn frequency(i: usize, d: usize, base: f64) -> f64 {
    base.powf(-2.0 * i as f64 / d as f64)
}

/// The dimension pair `(sin index, cos index)` of frequency `i`.
pub fn pair(i: usize, d: usize, layout: Layout) -> (usize, usize) {
    match layout {
        Layout::Interleaved => (2 * i, 2 * i + 1),
        Layout::Split => (i, d / 2 + i),
    }
}

/// The `n × d` sinusoidal table (`d` even), computed in f64 and rounded once to f32.
pub fn sinusoidal(n: usize, d: usize, base: f64, layout: Layout) -> Array2<f32> {
    sinusoidal_rows(0..n, d, base, layout)
}

/// Rows `rows` of [`sinusoidal`]'s table (each position's row is its own).
pub fn sinusoidal_rows(
    rows: std::ops::Range<usize>,
    d: usize,
    base: f64,
    layout: Layout,
) -> Array2<f32> {
    let mut pe = Array2::zeros((rows.len(), d));
    for i in 0..d / 2 {
        let w = frequency(i, d, base);
        let (s, c) = pair(i, d, layout);
        for (r, p) in rows.clone().enumerate() {
            let angle = p as f64 * w;
            pe[[r, s]] = angle.sin() as f32;
            pe[[r, c]] = angle.cos() as f32;
        }
    }
    pe
}

/// A seeded random `n × d` table with entries ~ N(0, 1/d).
pub fn learned(n: usize, d: usize, seed: u64) -> Array2<f32> {
    let mut rng = rng::stream(seed, "learned-position", 0);
    // Draw row by row so position p's vector does not depend on n.
    let mut pe = Array2::zeros((n, d));
    let std = 1.0 / (d.max(1) as f32).sqrt();
    for mut row in pe.rows_mut() {
        row.assign(&ndarray::ArrayView1::from(&rng::normal_vec(
            &mut rng, d, std,
        )));
    }
    pe
}

/// The block-diagonal rotation `R_k` (d × d) with `PE(p+k) = R_k · PE(p)`: for each
/// frequency, the block `[[cos ω k, sin ω k], [−sin ω k, cos ω k]]` acting on the
/// (sin, cos) pair.
pub fn rotation(k: i64, d: usize, base: f64, layout: Layout) -> Array2<f32> {
    let mut r = Array2::zeros((d, d));
    for i in 0..d / 2 {
        let a = frequency(i, d, base) * k as f64;
        let (s, c) = pair(i, d, layout);
        let (sin, cos) = (a.sin() as f32, a.cos() as f32);
        // sin(x + a) = cos a · sin x + sin a · cos x
        r[[s, s]] = cos;
        r[[s, c]] = sin;
        // cos(x + a) = −sin a · sin x + cos a · cos x
        r[[c, s]] = -sin;
        r[[c, c]] = cos;
    }
    r
}

/// `max_p max_dim |PE(p+k) − R_k PE(p)|` over the positions `p, p+k` of an `n`-row table
/// (0 when `k ≥ n`). Shows the relative-position property holds to f32 precision.
pub fn rotation_residual(pe: &Array2<f32>, k: usize, base: f64, layout: Layout) -> f32 {
    let (n, d) = pe.dim();
    let r = rotation(k as i64, d, base, layout);
    let mut worst = 0.0f32;
    for p in 0..n.saturating_sub(k) {
        let rotated = r.dot(&pe.row(p));
        for (a, b) in rotated.iter().zip(pe.row(p + k)) {
            worst = worst.max((a - b).abs());
        }
    }
    worst
}

/// The `n × n` matrix `PE(a)·PE(b)`; for sinusoids it depends only on `a − b`.
pub fn dot_matrix(pe: &Array2<f32>) -> Array2<f32> {
    pe.dot(&pe.t())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_values() {
        // d = 4, base 10000: ω_0 = 1, ω_1 = 10000^{-1/2} = 0.01.
        let pe = sinusoidal(3, 4, DEFAULT_BASE, Layout::Interleaved);
        // p = 0: sin 0, cos 0, sin 0, cos 0 = 0, 1, 0, 1
        assert_eq!(pe.row(0).to_vec(), vec![0.0, 1.0, 0.0, 1.0]);
        // p = 1: sin 1, cos 1, sin 0.01, cos 0.01
        let want = [1f64.sin(), 1f64.cos(), 0.01f64.sin(), 0.01f64.cos()];
        for (a, b) in pe.row(1).iter().zip(want) {
            assert!((f64::from(*a) - b).abs() < 1e-7);
        }
        // Split layout: sin 1, sin 0.01, cos 1, cos 0.01.
        let split = sinusoidal(3, 4, DEFAULT_BASE, Layout::Split);
        assert!((f64::from(split[[1, 1]]) - 0.01f64.sin()).abs() < 1e-7);
        assert!((f64::from(split[[1, 2]]) - 1f64.cos()).abs() < 1e-7);
    }

    #[test]
    fn rotation_identity_holds_for_both_layouts_and_bases() {
        for layout in [Layout::Interleaved, Layout::Split] {
            for base in [10_000.0, 1_000.0] {
                let pe = sinusoidal(64, 32, base, layout);
                for k in [0, 1, 2, 7, 31] {
                    let r = rotation_residual(&pe, k, base, layout);
                    assert!(r < 1e-5, "{layout:?} base {base} k {k}: residual {r}");
                }
            }
        }
    }

    #[test]
    fn dot_matrix_depends_only_on_offset() {
        let pe = sinusoidal(20, 16, DEFAULT_BASE, Layout::Interleaved);
        let g = dot_matrix(&pe);
        for a in 0..20 {
            for b in 0..20 {
                // Symmetric, and shifting both positions by s keeps the value.
                assert!((g[[a, b]] - g[[b, a]]).abs() < 1e-5);
                for s in 1..20 - a.max(b) {
                    assert!((g[[a, b]] - g[[a + s, b + s]]).abs() < 1e-4, "{a},{b}+{s}");
                }
            }
        }
    }

    #[test]
    fn learned_table_is_seeded_and_prefix_stable() {
        let a = learned(5, 8, 1);
        let b = learned(9, 8, 1);
        assert_eq!(a.row(4), b.row(4));
        assert_ne!(a, learned(5, 8, 2));
    }

    #[test]
    fn validation() {
        let mut c = PositionConfig::default();
        assert!(c.validate(8).is_ok());
        c.base = 1.0;
        assert!(c.validate(8).is_err());
        c.base = DEFAULT_BASE;
        c.combine = Combine::Concat { d_pos: 5 };
        assert!(c.validate(8).is_err());
        c.kind = PositionKind::Learned;
        assert!(c.validate(8).is_ok());
    }
}
