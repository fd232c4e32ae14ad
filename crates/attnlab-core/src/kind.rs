//! The kinds of attention and the feature maps of the linear ones: plain names and
//! properties, known to every part of the core (the error type names the kind that
//! refused a mask) without depending on any of them.

use ndarray::Array2;

use crate::kernels;

/// How attention weights are formed from queries and keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttentionKind {
    /// `softmax(score / τ)`: the standard, O(n·m).
    #[default]
    Softmax,
    /// Kernel linear attention with `φ(x) = elu(x) + 1`.
    Elu1,
    /// Kernel linear attention with `φ(x) = max(x, 0)`.
    Relu,
    /// Kernel linear attention with `sim = 1 + q̂ᵀk̂`.
    Taylor,
    /// `softmax_row(Q) · (softmax_col(K)ᵀ V)` (Shen et al.).
    Efficient,
    /// Softmax over `k` projected keys (Wang et al.): `n × k` weights.
    Linformer,
    /// `e^z / (1 + Σ e^z)`: softmax with an extra zero logit, rows may sum below 1.
    SoftmaxPlusOne,
    /// `σ(z + b)` per cell, no normaliser (Ramapuram et al. 2024).
    Sigmoid,
    /// `max(e^z − 1, 0) / (Σ |e^z − 1| + 10⁻⁶)` (Zuhri et al. 2025).
    Softpick,
    /// `e^z / (e^{s_h} + Σ e^z)`: softmax with a learnt sink logit per head.
    Sink,
    /// `softmax(z₁) − λ softmax(z₂)` (Ye et al. 2024): weights can be negative.
    Differential,
    /// `D_ij · score(q_i, k_j)` for `j ≤ i`, no normaliser (RetNet, GLA, SSD).
    DecayedLinear,
    /// Performer's FAVOR+ with positive random features (Choromanski et al. 2021).
    Favor,
}

impl AttentionKind {
    /// Every kind, in display order.
    pub const ALL: [AttentionKind; 6] = [
        AttentionKind::Softmax,
        AttentionKind::Elu1,
        AttentionKind::Relu,
        AttentionKind::Taylor,
        AttentionKind::Efficient,
        AttentionKind::Linformer,
    ];

    /// Every kind the `attnlab-tensors/1` format reads: [`AttentionKind::ALL`] (what the
    /// lab offers) and the kinds only the format computes so far.
    pub const EVERY: [AttentionKind; 13] = [
        AttentionKind::Softmax,
        AttentionKind::Elu1,
        AttentionKind::Relu,
        AttentionKind::Taylor,
        AttentionKind::Efficient,
        AttentionKind::Linformer,
        AttentionKind::SoftmaxPlusOne,
        AttentionKind::Sigmoid,
        AttentionKind::Softpick,
        AttentionKind::Sink,
        AttentionKind::Differential,
        AttentionKind::DecayedLinear,
        AttentionKind::Favor,
    ];

    /// The name used in the interchange format and the URL.
    pub fn name(self) -> &'static str {
        match self {
            AttentionKind::Softmax => "softmax",
            AttentionKind::Elu1 => "elu1",
            AttentionKind::Relu => "relu",
            AttentionKind::Taylor => "taylor",
            AttentionKind::Efficient => "efficient",
            AttentionKind::Linformer => "linformer",
            AttentionKind::SoftmaxPlusOne => "softmax_plus_one",
            AttentionKind::Sigmoid => "sigmoid",
            AttentionKind::Softpick => "softpick",
            AttentionKind::Sink => "sink",
            AttentionKind::Differential => "differential",
            AttentionKind::DecayedLinear => "decayed_linear",
            AttentionKind::Favor => "favor",
        }
    }

    /// Parses a name from [`AttentionKind::name`] among the lab's kinds
    /// ([`AttentionKind::ALL`]; the link and the pages read names with it).
    pub fn parse(name: &str) -> Option<AttentionKind> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Parses a name among every kind the format reads ([`AttentionKind::EVERY`]).
    pub fn parse_any(name: &str) -> Option<AttentionKind> {
        Self::EVERY.into_iter().find(|a| a.name() == name)
    }

    /// Whether this kind turns logits into weights row by row with one of the softmax
    /// family's normalisers (softmax and the kinds of `crate::normalise`): the kinds whose
    /// logits pass through `z / τ` and the mask.
    pub fn is_softmax_family(self) -> bool {
        matches!(
            self,
            AttentionKind::Softmax
                | AttentionKind::SoftmaxPlusOne
                | AttentionKind::Sigmoid
                | AttentionKind::Softpick
                | AttentionKind::Sink
                | AttentionKind::Differential
        )
    }

    /// Whether every row of this kind's weights is a distribution over the allowed keys
    /// (non-negative, summing to 1, up to the linear kinds' ε), so that its entropy means
    /// something. False for the kinds whose rows may sum to anything or go negative.
    pub fn rows_are_distributions(self) -> bool {
        !matches!(
            self,
            AttentionKind::SoftmaxPlusOne
                | AttentionKind::Sigmoid
                | AttentionKind::Softpick
                | AttentionKind::Sink
                | AttentionKind::Differential
                | AttentionKind::DecayedLinear
        )
    }

    /// The feature map of a kernel variant.
    pub fn feature_map(self) -> Option<FeatureMap> {
        match self {
            AttentionKind::Elu1 => Some(FeatureMap::Elu1),
            AttentionKind::Relu => Some(FeatureMap::Relu),
            AttentionKind::Taylor => Some(FeatureMap::Taylor),
            _ => None,
        }
    }

    /// Whether the temperature divides this kind's logits (softmax and Linformer only;
    /// kernel variants ignore it).
    pub fn uses_temperature(self) -> bool {
        self.is_softmax_family() || self == AttentionKind::Linformer
    }

    /// Whether the score function is used (the softmax family, and decayed linear
    /// attention with `dot` or `scaled_dot`: the kernel variants and FAVOR+ define their
    /// own similarity, Linformer uses `qᵀk'/√d_k`).
    pub fn uses_score_function(self) -> bool {
        self.is_softmax_family() || self == AttentionKind::DecayedLinear
    }

    /// Whether this kind can apply the mask kind `mask` (a name from [`crate::mask::KINDS`]).
    pub fn supports_mask(self, mask: &str) -> bool {
        match self {
            AttentionKind::Softmax
            | AttentionKind::Elu1
            | AttentionKind::Relu
            | AttentionKind::Taylor
            | AttentionKind::SoftmaxPlusOne
            | AttentionKind::Sigmoid
            | AttentionKind::Softpick
            | AttentionKind::Sink
            | AttentionKind::Differential
            | AttentionKind::DecayedLinear
            | AttentionKind::Favor => true,
            AttentionKind::Efficient => mask == "padding_keys",
            AttentionKind::Linformer => false,
        }
    }

    /// One sentence on which masks this kind cannot apply, and why.
    pub fn mask_limitation(self) -> &'static str {
        match self {
            AttentionKind::Efficient => {
                "efficient attention normalises keys over all positions at once, so only padding can be applied"
            }
            AttentionKind::Linformer => {
                "Linformer mixes all positions into k projected keys, so no key can be masked and it cannot be made causal"
            }
            _ => "every mask is supported",
        }
    }
}

/// A non-negative feature map φ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureMap {
    /// `φ(x) = elu(x) + 1` elementwise (Katharopoulos et al. 2020).
    Elu1,
    /// `φ(x) = max(x, 0)` elementwise.
    Relu,
    /// `φ(x) = [1, x/‖x‖]` (zero vector ↦ `[1, 0…]`), so `sim = 1 + q̂ᵀk̂` (the
    /// first-order Taylor form of `exp(q̂ᵀk̂)`, docs/maths.md §7).
    Taylor,
}

impl FeatureMap {
    /// The width of `φ(x)` for an input of width `d`.
    pub fn width(self, d: usize) -> usize {
        match self {
            FeatureMap::Elu1 | FeatureMap::Relu => d,
            FeatureMap::Taylor => d + 1,
        }
    }

    /// `φ(x)` written to `out` (length [`FeatureMap::width`]).
    pub fn apply(self, x: &[f32], out: &mut [f32]) {
        match self {
            FeatureMap::Elu1 => kernels::elu1(x, &mut out[..x.len()]),
            FeatureMap::Relu => kernels::relu(x, &mut out[..x.len()]),
            FeatureMap::Taylor => {
                // The norm in f64, so that parallel and antiparallel vectors give
                // q̂ᵀk̂ = ±1 as exactly as f32 allows: sim = 1 + q̂ᵀk̂ is then 0, not a
                // rounding residue that would be comparable to ε.
                let norm = x
                    .iter()
                    .map(|&v| f64::from(v) * f64::from(v))
                    .sum::<f64>()
                    .sqrt();
                out[0] = 1.0;
                let inv = if norm > 0.0 { 1.0 / norm } else { 0.0 };
                for (o, &v) in out[1..].iter_mut().zip(x) {
                    *o = (f64::from(v) * inv) as f32;
                }
            }
        }
    }

    /// `φ` of every row of `x`.
    pub fn features(self, x: &Array2<f32>) -> Array2<f32> {
        let (n, d) = x.dim();
        let w = self.width(d);
        let mut out = Array2::zeros((n, w));
        let x = x.as_standard_layout();
        for (xi, mut oi) in x.rows().into_iter().zip(out.rows_mut()) {
            self.apply(
                xi.as_slice().expect("standard layout"),
                oi.as_slice_mut().expect("fresh array"),
            );
        }
        out
    }
}
