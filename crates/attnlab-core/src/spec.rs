//! What a variant computes, before anything is computed: one head's inputs
//! ([`HeadInput`]), the spec every head shares ([`AttentionSpec`]) and how a head's
//! output was formed ([`Computation`]). [`crate::attention::Problem`] checks them together.

use ndarray::Array2;

use crate::alibi::Alibi;
use crate::error::{CoreError, Invalid, PipelineInvalid, Result};
use crate::kind::AttentionKind;
use crate::mask::MaskSpec;
use crate::rope::Rope;
use crate::score::{ScoreFunction, ScoreParams};

fn invalid(field: &'static str, reason: PipelineInvalid) -> CoreError {
    CoreError::InvalidSetting {
        field,
        reason: Invalid::Pipeline(reason),
    }
}

/// The projections `E, F ∈ R^{k×m}` of Linformer for one head.
#[derive(Debug, Clone, PartialEq)]
pub struct LinformerParams {
    /// `E`, projects the keys: `K' = E K`.
    pub e: Array2<f32>,
    /// `F`, projects the values: `V' = F V`.
    pub f: Array2<f32>,
}

/// One head's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadInput {
    /// Queries, `n × d_k`.
    pub q: Array2<f32>,
    /// Keys, `m × d_k`.
    pub k: Array2<f32>,
    /// Values, `m × d_v`.
    pub v: Array2<f32>,
    /// Parameters of the general or additive score.
    pub score_params: ScoreParams,
    /// Linformer projections, when that kind is used.
    pub linformer: Option<LinformerParams>,
    /// `s_h`, the sink logit of `sink` attention.
    pub sink: Option<f32>,
    /// The second queries of `differential` attention, `n × d_k`.
    pub q2: Option<Array2<f32>>,
    /// The second keys of `differential` attention, `m × d_k`.
    pub k2: Option<Array2<f32>>,
    /// `γ ∈ [0, 1]`, the fixed decay of `decayed_linear` attention.
    pub decay: Option<f32>,
    /// The gates `a_t ∈ [0, 1]` (one per position) of `decayed_linear` attention; they
    /// win over [`AttentionSpec::gates`].
    pub gates: Option<Vec<f32>>,
    /// FAVOR+'s features `W`, `r × d_k`.
    pub features: Option<Array2<f32>>,
}

impl HeadInput {
    /// A head with plain Q, K, V and no parameters.
    pub fn new(q: Array2<f32>, k: Array2<f32>, v: Array2<f32>) -> HeadInput {
        HeadInput {
            q,
            k,
            v,
            score_params: ScoreParams::None,
            linformer: None,
            sink: None,
            q2: None,
            k2: None,
            decay: None,
            gates: None,
            features: None,
        }
    }
}

/// Everything about how the weights are formed, shared by all heads of a variant.
#[derive(Debug, Clone, PartialEq)]
pub struct AttentionSpec {
    /// The score function (used by softmax attention).
    pub score: ScoreFunction,
    /// `τ > 0`: `logits = score / τ` (softmax and Linformer).
    pub temperature: f32,
    /// Softmax or a linear variant.
    pub attention: AttentionKind,
    /// Masks, combined.
    pub mask: MaskSpec,
    /// RoPE: every head's q and k turned by their positions before anything reads them
    /// (every kind; [`crate::rope`]).
    pub rope: Option<Rope>,
    /// ALiBi's bias `−m_h |p_i − p_j|` on the logits (the softmax family;
    /// [`crate::alibi`]); the positions are RoPE's when given, else `0 … n − 1`.
    pub alibi: Option<Alibi>,
    /// `c > 0`: logits `z/τ ← c·tanh(z/(τc))` (the softmax family; [`crate::logits`]).
    pub softcap: Option<f32>,
    /// `B ≥ 1`: softmax computed tile by tile over `B` keys with the online softmax
    /// (softmax only; [`crate::tiled`]).
    pub tiles: Option<usize>,
    /// `b` of `sigmoid` attention, `σ(z + b)`; `None`: `−ln m`.
    pub sigmoid_bias: Option<f32>,
    /// `λ` of `differential` attention (0.8 by default).
    pub lambda: f32,
    /// The gates `a_t` of `decayed_linear` attention shared by every head that has
    /// neither its own gates nor a decay.
    pub gates: Option<Vec<f32>>,
}

impl Default for AttentionSpec {
    fn default() -> Self {
        AttentionSpec {
            score: ScoreFunction::ScaledDot,
            temperature: 1.0,
            attention: AttentionKind::Softmax,
            mask: MaskSpec::default(),
            rope: None,
            alibi: None,
            softcap: None,
            tiles: None,
            sigmoid_bias: None,
            lambda: DEFAULT_LAMBDA,
            gates: None,
        }
    }
}

/// `λ` of differential attention when none is given.
pub const DEFAULT_LAMBDA: f32 = 0.8;

impl AttentionSpec {
    /// Checks the temperature and that the attention kind can honour every mask given.
    pub fn validate(&self) -> Result<()> {
        if !(self.temperature.is_finite() && self.temperature > 0.0) {
            return Err(CoreError::InvalidTemperature(self.temperature));
        }
        if let Some(mask) = self
            .mask
            .kinds()
            .into_iter()
            .find(|k| !self.attention.supports_mask(k))
        {
            return Err(CoreError::UnsupportedMask {
                attention: self.attention,
                mask,
            });
        }
        self.validate_logit_options()
    }

    /// Checks the spec's softcap, ALiBi and tiles: each is refused, naming its field, by a
    /// kind that does not use it; the cap must be finite and above 0, the tiles at least 1.
    fn validate_logit_options(&self) -> Result<()> {
        let kind = self.attention;
        let not_for = |field| Err(invalid(field, PipelineInvalid::NotForKind(kind)));
        if let Some(c) = self.softcap {
            if !kind.is_softmax_family() {
                return not_for("softcap");
            }
            if !(c.is_finite() && c > 0.0) {
                return Err(invalid("softcap", PipelineInvalid::NotPositive(c)));
            }
        }
        if self.alibi.is_some() && !kind.is_softmax_family() {
            return not_for("alibi");
        }
        match self.tiles {
            Some(_) if kind != AttentionKind::Softmax => not_for("tiles"),
            Some(0) => Err(invalid("tiles", PipelineInvalid::Tiles)),
            _ => Ok(()),
        }
    }
}

/// How a head's output was computed, so the UI can say whether a variant is still linear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computation {
    /// Softmax over the full `n × m` logits.
    Quadratic,
    /// Kernel attention in O(n) from one global state.
    LinearGlobal,
    /// Causal kernel attention in O(n) as an RNN (running `S_i`, `z_i`).
    LinearRecurrent,
    /// Kernel attention with a mask that breaks the factorisation (window, strided,
    /// global, custom): the quadratic form, no longer linear.
    LinearMaskedQuadratic,
    /// Efficient attention in O(n).
    Efficient,
    /// Linformer: O(n·k).
    Linformer,
    /// Softmax tile by tile with the online softmax ([`crate::tiled`]).
    Tiled,
    /// Decayed linear attention by the recurrence `S_t = a_t S_{t−1} + k_t v_tᵀ`.
    DecayedRecurrent,
    /// Decayed linear attention by its masked `n × n` weights.
    DecayedMaskedQuadratic,
    /// FAVOR+ in O(n) from one global state.
    FavorLinear,
    /// Causal FAVOR+ by prefix sums.
    FavorRecurrent,
    /// FAVOR+ with a mask that breaks the factorisation: the quadratic form.
    FavorMaskedQuadratic,
}
