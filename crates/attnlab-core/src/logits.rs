//! The one step that turns raw scores into logits, for every kind of the softmax family
//! (docs/maths.md §13): `z → z / τ → c·tanh(z/(τc)) (softcap) → + ALiBi's bias`. The mask
//! and the normaliser follow. With neither softcap nor ALiBi the step is only `× 1/τ`,
//! which the softmax kernels apply as they go ([`LogitSteps::scale_only`]).

use ndarray::{Array2, ArrayRef2};

use crate::alibi;
use crate::error::{CoreError, Result};
use crate::mask::Mask;
use crate::rope::{Rope, positions_or_count};
use crate::spec::{AttentionSpec, Computation, HeadInput};
use crate::{softmax, tiled};

/// ALiBi's bias of one head: its slope and the rows' positions.
#[derive(Debug, Clone, PartialEq)]
pub struct AlibiBias {
    /// `m_h`.
    pub slope: f32,
    /// One per query row.
    pub query_positions: Vec<f32>,
    /// One per key row.
    pub key_positions: Vec<f32>,
}

/// What turns one head's raw scores into logits.
#[derive(Debug, Clone, PartialEq)]
pub struct LogitSteps {
    /// `1/τ`.
    pub scale: f32,
    /// The cap `c`: `z ← c·tanh(z/c)` after the temperature.
    pub softcap: Option<f32>,
    /// ALiBi's bias, added after the softcap.
    pub alibi: Option<AlibiBias>,
}

impl LogitSteps {
    /// Only the temperature: the logits are `scale · raw`.
    pub fn scale_only(&self) -> bool {
        self.softcap.is_none() && self.alibi.is_none()
    }

    /// The logit of raw score `z` of query `i` and key `j`.
    pub fn logit(&self, z: f32, i: usize, j: usize) -> f32 {
        let mut l = z * self.scale;
        if let Some(c) = self.softcap {
            l = c * (l / c).tanh();
        }
        if let Some(a) = &self.alibi {
            l += alibi::bias(a.slope, a.query_positions[i], a.key_positions[j]);
        }
        l
    }

    /// The `n × m` logits of the raw scores.
    pub fn apply(&self, raw: &ArrayRef2<f32>) -> Array2<f32> {
        let mut out = raw.to_owned();
        for ((i, j), z) in out.indexed_iter_mut() {
            *z = self.logit(*z, i, j);
        }
        out
    }
}

/// Every head's q and k turned by RoPE, once, when the problem is built (the checks of
/// [`Rope::validate`] first).
pub(crate) fn turn_heads(rope: &Rope, heads: &mut [HeadInput], n: usize, m: usize) -> Result<()> {
    let widths: Vec<usize> = heads.iter().map(|h| h.q.ncols()).collect();
    rope.validate(&widths, n, m)?;
    let queries = positions_or_count(rope.query_positions.as_deref(), n);
    let keys = positions_or_count(rope.key_positions.as_deref(), m);
    for (h, head) in heads.iter_mut().enumerate() {
        rope.turn(&mut head.q, &queries);
        rope.turn(&mut head.k, &keys);
        // Differential attention's second queries and keys sit at the same positions.
        if let Some(q2) = head.q2.as_mut() {
            rope.turn(q2, &queries);
        }
        if let Some(k2) = head.k2.as_mut() {
            rope.turn(k2, &keys);
        }
        let second = head.q2.iter().chain(&head.k2).flatten();
        if head
            .q
            .iter()
            .chain(&head.k)
            .chain(second)
            .any(|x| !x.is_finite())
        {
            return Err(CoreError::Overflow {
                head: h,
                what: "q and k turned by RoPE",
            });
        }
    }
    Ok(())
}

/// Head `h`'s steps (see [`crate::attention::Problem::logit_steps`]).
pub(crate) fn steps(
    spec: &AttentionSpec,
    slopes: Option<&[f32]>,
    h: usize,
    n: usize,
    m: usize,
) -> LogitSteps {
    let rope = spec.rope.as_ref();
    LogitSteps {
        scale: 1.0 / spec.temperature,
        softcap: spec.softcap,
        alibi: slopes.map(|s| AlibiBias {
            slope: s[h],
            query_positions: positions_or_count(rope.and_then(|r| r.query_positions.as_deref()), n),
            key_positions: positions_or_count(rope.and_then(|r| r.key_positions.as_deref()), m),
        }),
    }
}

/// Softmax weights over logits formed by `steps` (softcap, ALiBi) or tile by tile: the
/// weights, the output when the tiles formed it (else `0 × 0`), how, and the rows'
/// entropy when the softmax gave it.
pub(crate) type Formed = (Array2<f32>, Array2<f32>, Computation, Option<Vec<f32>>);

/// See [`Formed`].
pub(crate) fn softmax_formed(
    raw: &ArrayRef2<f32>,
    steps: &LogitSteps,
    spec: &AttentionSpec,
    mask: &Mask,
    v: &Array2<f32>,
) -> Result<Formed> {
    // The tiles scale the raw scores as they read them (checked finite with the scale
    // by the caller); a softcap or ALiBi forms the logits first.
    if let (Some(b), true) = (spec.tiles, steps.scale_only()) {
        let (a, o, h) = tiled::softmax_tiled(raw, steps.scale, mask, v, b);
        return Ok((a, o, Computation::Tiled, Some(h)));
    }
    let logits = steps.apply(raw);
    if logits.iter().any(|l| !l.is_finite()) {
        return Err(CoreError::Overflow {
            head: 0,
            what: "logits (score / temperature, softcap, ALiBi)",
        });
    }
    Ok(match spec.tiles {
        Some(b) => {
            let (a, o, h) = tiled::softmax_tiled(&logits, 1.0, mask, v, b);
            (a, o, Computation::Tiled, Some(h))
        }
        None => {
            let (a, h) = softmax::softmax_masked_entropy_scaled(&logits, 1.0, mask);
            (a, Array2::zeros((0, 0)), Computation::Quadratic, Some(h))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn softcap_bounds_the_logits_and_keeps_small_ones() {
        let steps = LogitSteps {
            scale: 0.5,
            softcap: Some(5.0),
            alibi: None,
        };
        // 1e6/2 → 5·tanh(1e5) = 5; −1e6 → −5; 0.02/2 = 0.01 → 5·tanh(0.002) ≈ 0.01.
        let l = steps.apply(&array![[1e6f32, -1e6, 0.02]]);
        assert_eq!(l[[0, 0]], 5.0);
        assert_eq!(l[[0, 1]], -5.0);
        assert!((l[[0, 2]] - 0.01).abs() < 1e-7);
        for z in [-1e30f32, -7.0, -0.3, 0.0, 0.3, 7.0, 3e38] {
            assert!(steps.logit(z, 0, 0).abs() <= 5.0, "{z}");
        }
    }

    #[test]
    fn the_order_is_temperature_softcap_then_bias() {
        // z = 8, τ = 2 → 4; cap 2 → 2·tanh(2); bias −0.5·|1 − 4| = −1.5.
        let steps = LogitSteps {
            scale: 0.5,
            softcap: Some(2.0),
            alibi: Some(AlibiBias {
                slope: 0.5,
                query_positions: vec![1.0],
                key_positions: vec![0.0, 4.0],
            }),
        };
        let want = 2.0 * 2f32.tanh() - 1.5;
        assert!((steps.logit(8.0, 0, 1) - want).abs() < 1e-6);
        // The bias is not capped: a far key's logit goes below −c.
        assert!(steps.logit(0.0, 0, 1) < -1.0);
    }
}
