//! The options of a variant beyond its score, τ, kind and masks (docs/maths.md §13): RoPE
//! and its scalings, ALiBi, the softcap, grouped keys and values, the tiles of the online
//! softmax, and the parameters of the kinds beyond the lab's first six. Their ranges and
//! the values a new variant starts with; which combinations are allowed is in
//! [`crate::rules`].

use std::ops::RangeInclusive;

use attnlab_core::attention::AttentionKind;
use attnlab_core::rope::{Rope, RopePairs, RopeScaling};

use super::MAX_TOKENS;

/// The attention kinds the lab offers, in menu order: all thirteen the core computes.
pub const LAB_KINDS: [AttentionKind; 13] = AttentionKind::EVERY;

/// Parses a kind's name among [`LAB_KINDS`].
pub fn parse_kind(name: &str) -> Option<AttentionKind> {
    LAB_KINDS.into_iter().find(|k| k.name() == name)
}

/// The choices of RoPE's base (models use 10000; Llama 3 500000).
pub const ROPE_BASE_RANGE: RangeInclusive<f32> = 2.0..=1e8;

/// The choices of a RoPE scaling's factor `s`.
pub const ROPE_FACTOR_RANGE: RangeInclusive<f32> = 0.25..=64.0;

/// A scaling's factor when it is first chosen: twice the trained context.
pub const DEFAULT_ROPE_FACTOR: f32 = 2.0;

/// The choices of YaRN's trained context length `L`.
pub const ROPE_ORIGINAL_RANGE: RangeInclusive<f32> = 1.0..=1_048_576.0;

/// YaRN's `L` when first chosen: short, so that the toy sentences reach past it.
pub const DEFAULT_ROPE_ORIGINAL: f32 = 8.0;

/// The choices of the softcap `c` (Gemma 2 caps its attention logits at 50).
pub const SOFTCAP_RANGE: RangeInclusive<f32> = 0.1..=100.0;

/// The softcap when first turned on: small enough to bend the toy model's logits.
pub const DEFAULT_SOFTCAP: f32 = 5.0;

/// The choices of the number of attention sinks (keys `0 … s − 1` kept open).
pub const SINKS_RANGE: RangeInclusive<usize> = 1..=MAX_TOKENS;

/// The choices of the tile width `B` of the online softmax.
pub const TILES_RANGE: RangeInclusive<usize> = 1..=MAX_TOKENS;

/// `B` when the tiles are first turned on.
pub const DEFAULT_TILES: usize = 4;

/// The choices of sigmoid attention's bias `b` (its default is `−ln m`).
pub const SIGMOID_BIAS_RANGE: RangeInclusive<f32> = -20.0..=20.0;

/// The choices of differential attention's `λ`.
pub const LAMBDA_RANGE: RangeInclusive<f32> = 0.0..=1.0;

/// `λ` of a new variant (the core's default).
pub const DEFAULT_LAMBDA: f32 = attnlab_core::attention::DEFAULT_LAMBDA;

/// The choices of decayed linear attention's `γ`.
pub const DECAY_RANGE: RangeInclusive<f32> = 0.0..=1.0;

/// Linformer's `k` in a new variant.
pub const DEFAULT_LINFORMER_K: usize = 4;

/// `γ` of a new variant: a token keeps 0.9 of what it held at each step.
pub const DEFAULT_DECAY: f32 = 0.9;

/// The choices of sink attention's logit `s_h`.
pub const SINK_LOGIT_RANGE: RangeInclusive<f32> = -20.0..=20.0;

/// The choices of FAVOR+'s number of random features `r`.
pub const FEATURES_RANGE: RangeInclusive<usize> = 1..=1024;

/// FAVOR+'s `r` of a new variant.
pub const DEFAULT_FEATURES: usize = 64;

/// RoPE as the lab turns it on: base 10000, half pairs, every dimension, no scaling.
pub fn default_rope() -> Rope {
    Rope::default()
}

/// The scaling named `name` (`"none"`, `"linear"`, `"ntk"`, `"yarn"`), keeping the
/// factor (and YaRN's `L`) of `from` where it has them.
pub fn scaling_named(name: &str, from: RopeScaling) -> Option<RopeScaling> {
    let factor = scaling_factor(from).unwrap_or(DEFAULT_ROPE_FACTOR);
    let original = match from {
        RopeScaling::Yarn {
            original_max_positions,
            ..
        } => original_max_positions,
        _ => DEFAULT_ROPE_ORIGINAL,
    };
    Some(match name {
        "none" => RopeScaling::None,
        "linear" => RopeScaling::Linear { factor },
        "ntk" => RopeScaling::Ntk { factor },
        "yarn" => RopeScaling::Yarn {
            factor,
            original_max_positions: original,
            beta_fast: 32.0,
            beta_slow: 1.0,
        },
        _ => return None,
    })
}

/// The names of the scalings in menu order.
pub const SCALING_NAMES: [&str; 4] = ["none", "linear", "ntk", "yarn"];

/// The name of a scaling (`"none"` for none).
pub fn scaling_name(s: RopeScaling) -> &'static str {
    s.name().unwrap_or("none")
}

/// The factor `s` of a scaling (none for none).
pub fn scaling_factor(s: RopeScaling) -> Option<f32> {
    match s {
        RopeScaling::None => None,
        RopeScaling::Linear { factor }
        | RopeScaling::Ntk { factor }
        | RopeScaling::Yarn { factor, .. } => Some(factor),
    }
}

/// The scaling with its factor set to `f` (none stays none).
pub fn with_factor(s: RopeScaling, f: f32) -> RopeScaling {
    match s {
        RopeScaling::None => RopeScaling::None,
        RopeScaling::Linear { .. } => RopeScaling::Linear { factor: f },
        RopeScaling::Ntk { .. } => RopeScaling::Ntk { factor: f },
        RopeScaling::Yarn {
            original_max_positions,
            beta_fast,
            beta_slow,
            ..
        } => RopeScaling::Yarn {
            factor: f,
            original_max_positions,
            beta_fast,
            beta_slow,
        },
    }
}

/// The pairs' names in menu order.
pub const PAIRS: [RopePairs; 2] = RopePairs::ALL;

/// The divisors of `heads`, from `heads` (every head its own keys and values) down to 1
/// (multi-query attention): the choices of the number of key/value groups `G`.
pub fn group_choices(heads: usize) -> Vec<usize> {
    (1..=heads.max(1))
        .rev()
        .filter(|g| heads.is_multiple_of(*g))
        .collect()
}

/// Which query heads read each key/value group: `heads` heads in `groups` groups (a
/// divisor of `heads`), each group's heads in order (`⌊h·G/H⌋`, consecutive heads share).
pub fn group_members(heads: usize, groups: usize) -> Vec<Vec<usize>> {
    let groups = groups.clamp(1, heads.max(1));
    let mut members = vec![Vec::new(); groups];
    for h in 0..heads {
        members[attnlab_core::groups::group_of(h, heads, groups)].push(h);
    }
    members
}

/// The bytes of keys and values a decoder caches per token and layer: `2 · G · d_k`
/// f32 numbers for `G` key/value groups of width `d_k` (`G = H`: multi-head, `G = 1`:
/// multi-query).
pub fn kv_cache_bytes(groups: usize, d_k: usize) -> usize {
    2 * groups * d_k * std::mem::size_of::<f32>()
}

#[cfg(test)]
mod group_tests {
    use super::*;

    #[test]
    fn consecutive_heads_share_and_the_cache_shrinks_by_heads_over_groups() {
        assert_eq!(group_members(4, 2), [vec![0, 1], vec![2, 3]]);
        assert_eq!(group_members(4, 1), [vec![0, 1, 2, 3]]);
        assert_eq!(group_members(4, 4), [vec![0], vec![1], vec![2], vec![3]]);
        // 4 heads of width 16: 512 bytes per token for multi-head, 128 for multi-query.
        assert_eq!(kv_cache_bytes(4, 16), 512);
        assert_eq!(kv_cache_bytes(1, 16), 128);
        assert_eq!(kv_cache_bytes(4, 16) / kv_cache_bytes(2, 16), 4 / 2);
    }
}
