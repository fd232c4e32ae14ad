//! ALiBi, attention with linear biases (Press et al. 2022; docs/maths.md §13): no
//! position vectors at all; head `h` adds `−m_h · |p_i − p_j|` to each logit, so a key
//! further away is penalised in proportion to its distance, more steeply in the heads of
//! larger slope `m_h`.
//!
//! The paper's slopes for `H` heads, as its code computes them: for `H` a power of two,
//! the geometric sequence `m_h = 2^(−8(h+1)/H)` (`1/2, 1/4, …, 1/256` for 8 heads);
//! otherwise, with `c = 2^⌊log₂ H⌋`, the `c` slopes of `c` heads followed by every other
//! slope of `2c` heads (`[0::2]`), the first `H − c` of them.

use crate::error::{CoreError, Invalid, PipelineInvalid, Result};

/// Which slopes ALiBi uses.
#[derive(Debug, Clone, PartialEq)]
pub enum Alibi {
    /// The paper's slopes for the number of heads ([`paper_slopes`]).
    Paper,
    /// One finite slope per head.
    Slopes(Vec<f32>),
}

impl Alibi {
    /// The slopes of `heads` heads; an error naming `alibi.slopes` when they are not one
    /// finite number per head.
    pub fn slopes(&self, heads: usize) -> Result<Vec<f32>> {
        match self {
            Alibi::Paper => Ok(paper_slopes(heads).into_iter().map(|m| m as f32).collect()),
            Alibi::Slopes(s) if s.len() != heads => Err(CoreError::InvalidSetting {
                field: "alibi.slopes",
                reason: Invalid::Pipeline(PipelineInvalid::SlopeCount {
                    got: s.len(),
                    heads,
                }),
            }),
            Alibi::Slopes(s) => match s.iter().position(|m| !m.is_finite()) {
                Some(col) => Err(CoreError::NonFinite {
                    head: None,
                    field: "alibi.slopes",
                    row: 0,
                    col,
                }),
                None => Ok(s.clone()),
            },
        }
    }
}

impl Alibi {
    /// The slopes of some of `heads` heads, `members` (indices below `heads`), as their
    /// own list: what a problem of those heads alone needs to give each head the slope it
    /// has among all of them (the paper's slopes depend on the number of heads).
    pub fn for_members(&self, heads: usize, members: &[usize]) -> Result<Alibi> {
        let all = self.slopes(heads)?;
        Ok(Alibi::Slopes(
            members
                .iter()
                .map(|&h| all.get(h).copied().unwrap_or(0.0))
                .collect(),
        ))
    }
}

/// The paper's slopes for `heads` heads (its `get_slopes`), in f64.
pub fn paper_slopes(heads: usize) -> Vec<f64> {
    let power_of_two = |n: usize| -> Vec<f64> {
        (1..=n)
            .map(|h| (-8.0 * h as f64 / n as f64).exp2())
            .collect()
    };
    if heads == 0 {
        return Vec::new();
    }
    if heads.is_power_of_two() {
        return power_of_two(heads);
    }
    let c = 1usize << heads.ilog2();
    let mut slopes = power_of_two(c);
    slopes.extend(paper_slopes(2 * c).into_iter().step_by(2).take(heads - c));
    slopes
}

/// The bias `−slope · |p_i − p_j|` (computed in f64, rounded once).
pub fn bias(slope: f32, query_position: f32, key_position: f32) -> f32 {
    (-f64::from(slope) * (f64::from(query_position) - f64::from(key_position)).abs()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_keep_the_slope_they_have_among_every_head() {
        let all = Alibi::Paper.slopes(12).unwrap();
        assert_eq!(
            Alibi::Paper.for_members(12, &[3, 7]).unwrap(),
            Alibi::Slopes(vec![all[3], all[7]])
        );
        let own = Alibi::Slopes(vec![0.5, 0.25]);
        assert_eq!(own.for_members(2, &[1]).unwrap(), Alibi::Slopes(vec![0.25]));
        assert!(own.for_members(3, &[1]).is_err());
    }

    #[test]
    fn eight_heads_halve_from_one_half_to_one_over_256() {
        // 2^(−8(h+1)/8) = 2^−(h+1).
        let want: Vec<f64> = (1..=8).map(|h| 0.5f64.powi(h)).collect();
        assert_eq!(paper_slopes(8), want);
        assert_eq!(paper_slopes(1), [1.0 / 256.0]);
        assert_eq!(paper_slopes(2), [1.0 / 16.0, 1.0 / 256.0]);
    }

    #[test]
    fn other_head_counts_interleave_as_the_papers_code() {
        // get_slopes(6) = get_slopes(4) + get_slopes(8)[0::2][:2]
        //               = [2^−2, 2^−4, 2^−6, 2^−8] + [2^−1, 2^−3].
        assert_eq!(
            paper_slopes(6),
            [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125]
        );
        // get_slopes(12) = get_slopes(8) + get_slopes(16)[0::2][:4]
        //                = 2^−1 … 2^−8, then 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5:
        // the values printed by the paper's code (ofirpress/attention_with_linear_biases).
        let want = [
            0.5,
            0.25,
            0.125,
            0.0625,
            0.03125,
            0.015625,
            0.0078125,
            0.00390625,
            std::f64::consts::FRAC_1_SQRT_2, // 0.7071067811865476
            0.35355339059327384,
            0.17677669529663692,
            0.08838834764831849,
        ];
        for (got, want) in paper_slopes(12).iter().zip(want) {
            assert!((got - want).abs() < 1e-15, "{got} {want}");
        }
        assert_eq!(paper_slopes(12).len(), 12);
    }

    #[test]
    fn given_slopes_must_be_one_per_head() {
        let e = Alibi::Slopes(vec![0.5]).slopes(2).unwrap_err();
        assert_eq!(e.path(), "alibi.slopes");
        assert_eq!(
            Alibi::Slopes(vec![0.5, -1.0]).slopes(2),
            Ok(vec![0.5, -1.0])
        );
    }

    #[test]
    fn the_bias_is_minus_slope_times_distance() {
        assert_eq!(bias(0.5, 3.0, 7.0), -2.0);
        assert_eq!(bias(0.5, 7.0, 3.0), -2.0);
        assert_eq!(bias(0.25, 2.0, 2.0), 0.0);
    }
}
