//! Why a setting of the logits pipeline or of the positions is refused: RoPE and its
//! scalings, ALiBi, the softcap, grouped keys and values, attention sinks and tiles
//! ([`super::Invalid::Pipeline`]). Values, not text: the edges say them from the
//! catalogue's `pipeline.ftl`; the `Display` here is its English.

use std::fmt;

use crate::kind::AttentionKind;

/// Why a setting of the logits pipeline or of the positions is refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PipelineInvalid {
    /// A base, a factor, a cap or a length that must be a finite number above 0.
    NotPositive(f32),
    /// RoPE's rotary width is odd, 0 or wider than the head.
    RotaryDims {
        /// The width asked for.
        got: usize,
        /// The head's width.
        d_k: usize,
    },
    /// RoPE turning the whole head (no `rotary_dims`) of an odd width.
    OddWidth {
        /// The head's width.
        d_k: usize,
    },
    /// Not one position per row.
    PositionCount {
        /// The positions given.
        got: usize,
        /// The rows.
        rows: usize,
    },
    /// NTK scaling of a rotary width of 2 (its exponent r/(r − 2) has no value).
    NtkTwoDims,
    /// YaRN with base 1 (its correction range divides by ln base).
    YarnBaseOne,
    /// Not one ALiBi slope per head.
    SlopeCount {
        /// The slopes given.
        got: usize,
        /// The heads.
        heads: usize,
    },
    /// A field the attention kind does not use.
    NotForKind(AttentionKind),
    /// No group of keys and values.
    NoGroups,
    /// The groups do not divide the heads.
    GroupsDivide {
        /// The query heads.
        heads: usize,
        /// The groups of keys and values.
        groups: usize,
    },
    /// More sink keys than keys.
    Sinks {
        /// The sinks asked for.
        got: usize,
        /// The keys.
        m: usize,
    },
    /// Tiles of 0 keys.
    Tiles,
}

impl fmt::Display for PipelineInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PipelineInvalid::NotPositive(x) => {
                write!(f, "must be a finite number greater than 0, got {x}")
            }
            PipelineInvalid::RotaryDims { got, d_k } => write!(
                f,
                "must be an even number from 2 to d_k = {d_k} (dimensions turn in pairs), got {got}"
            ),
            PipelineInvalid::OddWidth { d_k } => write!(
                f,
                "RoPE turns dimensions in pairs, so a head of odd width d_k = {d_k} needs an even rotary_dims"
            ),
            PipelineInvalid::PositionCount { got, rows } => {
                write!(f, "has {got} positions, expected {rows} (one per row)")
            }
            PipelineInvalid::NtkTwoDims => f.write_str(
                "NTK scaling needs rotary_dims of at least 4 (its exponent is r/(r − 2))",
            ),
            PipelineInvalid::YarnBaseOne => f.write_str(
                "YaRN needs a base other than 1 (its correction range divides by ln base)",
            ),
            PipelineInvalid::SlopeCount { got, heads } => {
                write!(f, "has {got} slopes, expected {heads} (one per head)")
            }
            PipelineInvalid::NotForKind(kind) => {
                write!(f, "{} attention does not use this field", kind.name())
            }
            PipelineInvalid::NoGroups => {
                f.write_str("is empty, expected at least one group of k and v")
            }
            PipelineInvalid::GroupsDivide { heads, groups } => write!(
                f,
                "has {groups} groups, which do not divide the {heads} heads (each group serves H/G heads)"
            ),
            PipelineInvalid::Sinks { got, m } => {
                write!(f, "is {got}, more than the {m} keys")
            }
            PipelineInvalid::Tiles => f.write_str("is 0, expected an integer ≥ 1"),
        }
    }
}
