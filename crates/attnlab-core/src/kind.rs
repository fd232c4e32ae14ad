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

    /// The name used in the interchange format and the URL.
    pub fn name(self) -> &'static str {
        match self {
            AttentionKind::Softmax => "softmax",
            AttentionKind::Elu1 => "elu1",
            AttentionKind::Relu => "relu",
            AttentionKind::Taylor => "taylor",
            AttentionKind::Efficient => "efficient",
            AttentionKind::Linformer => "linformer",
        }
    }

    /// Parses a name from [`AttentionKind::name`].
    pub fn parse(name: &str) -> Option<AttentionKind> {
        Self::ALL.into_iter().find(|a| a.name() == name)
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
        matches!(self, AttentionKind::Softmax | AttentionKind::Linformer)
    }

    /// Whether the score function is used (softmax only: the linear variants define their
    /// own similarity, Linformer uses `qᵀk'/√d_k`).
    pub fn uses_score_function(self) -> bool {
        self == AttentionKind::Softmax
    }

    /// Whether this kind can apply the mask kind `mask` (a name from [`crate::mask::KINDS`]).
    pub fn supports_mask(self, mask: &str) -> bool {
        match self {
            AttentionKind::Softmax
            | AttentionKind::Elu1
            | AttentionKind::Relu
            | AttentionKind::Taylor => true,
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
