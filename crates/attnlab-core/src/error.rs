//! The one error type of the core.
//!
//! Variants carry the operation, the offending field (named as in the JSON interchange
//! format, e.g. `k`, `score_params.w`) and the shapes involved, so that an edge (the CLI,
//! the app) can turn them into a sentence naming exactly what is wrong. What a shape had
//! to be ([`Expected`]), why a setting is refused ([`Invalid`]) and what a score or a
//! kind needs ([`Needs`]) are values too, not text: the edges say them in their
//! language from the message catalogue (`attnlab-i18n`'s `core.ftl`). The core's own
//! words are its `Display`, in English, for logs and for programs that use it as a
//! library; the catalogue's English is the same sentence (a test of `attnlab-lab` holds
//! the two together).

use std::fmt;

use crate::kind::AttentionKind;

mod block;
mod pipeline;
pub use block::BlockInvalid;
pub use pipeline::PipelineInvalid;

/// Which matrix of a head (or of the problem) an error is about, named as in the
/// `attnlab-tensors/1` format so callers can build a field path like `heads[0].k`.
pub type Field = &'static str;

/// Everything that can go wrong in the core. Validation happens once, in constructors
/// such as [`crate::attention::Problem::new`]; kernels then take valid input.
#[derive(Debug, Clone, PartialEq)]
pub enum CoreError {
    /// A matrix has the wrong number of rows or columns.
    ShapeMismatch {
        /// Head index, or `None` for problem-level fields such as `w_o`.
        head: Option<usize>,
        /// The field, e.g. `"k"`.
        field: Field,
        /// What the shape had to be.
        expected: Expected,
        /// The shape found, `(rows, cols)`.
        got: (usize, usize),
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// Head index, or `None` for problem-level fields.
        head: Option<usize>,
        /// The field, e.g. `"q"`.
        field: Field,
        /// Row of the value.
        row: usize,
        /// Column of the value.
        col: usize,
    },
    /// A problem needs at least one head.
    NoHeads,
    /// Temperature must be finite and greater than zero.
    InvalidTemperature(f32),
    /// The score function or attention kind needs parameters the head does not carry.
    MissingParams {
        /// Head index.
        head: usize,
        /// The missing field, e.g. `"score_params"`.
        field: Field,
        /// What it needs.
        needs: Needs,
    },
    /// The attention kind cannot honour this mask (docs/maths.md §7): never ignored silently.
    UnsupportedMask {
        /// The attention kind.
        attention: AttentionKind,
        /// The mask kind, e.g. `"causal"`.
        mask: &'static str,
    },
    /// An index (global token, padding key) is outside the sequence.
    IndexOutOfRange {
        /// The field, e.g. `"mask.padding_keys"`.
        field: Field,
        /// The index given.
        index: usize,
        /// The exclusive upper bound.
        len: usize,
    },
    /// A numeric setting is outside what the maths allows (e.g. window 0 is fine but
    /// strided 0 is not; d_model not divisible by heads).
    InvalidSetting {
        /// The setting, e.g. `"mask.strided"`.
        field: Field,
        /// What is wrong.
        reason: Invalid,
    },
    /// A result overflowed f32 (inputs too large): reported instead of showing inf or NaN.
    Overflow {
        /// Head index.
        head: usize,
        /// What overflowed, e.g. `"scores"`.
        what: &'static str,
    },
    /// A setting of one head is outside what the maths allows (e.g. a decay above 1).
    InvalidHeadSetting {
        /// Head index.
        head: usize,
        /// The head's field, e.g. `"decay"`.
        field: Field,
        /// What is wrong.
        reason: Invalid,
    },
    /// An error inside one layer of a Transformer block ([`crate::block`]): its path is
    /// below `layers[layer]`, e.g. `layers[1].ffn.w_1`.
    InLayer {
        /// The layer, from 0.
        layer: usize,
        /// The error, its field named inside the layer (`ffn.w_1`, `self.heads`).
        error: Box<CoreError>,
    },
}

impl CoreError {
    /// `self` inside layer `layer` of a block.
    pub fn in_layer(self, layer: usize) -> CoreError {
        CoreError::InLayer {
            layer,
            error: Box::new(self),
        }
    }

    /// The field path in the interchange format, e.g. `heads[0].k` or `temperature`.
    pub fn path(&self) -> String {
        let head_path = |head: &Option<usize>, field: &str| match head {
            Some(h) => format!("heads[{h}].{field}"),
            None => field.to_string(),
        };
        match self {
            CoreError::ShapeMismatch { head, field, .. } => head_path(head, field),
            CoreError::NonFinite { head, field, .. } => head_path(head, field),
            CoreError::NoHeads => "heads".into(),
            CoreError::InvalidTemperature(_) => "temperature".into(),
            CoreError::MissingParams { head, field, .. } => format!("heads[{head}].{field}"),
            CoreError::UnsupportedMask { mask, .. } => format!("mask.{mask}"),
            CoreError::IndexOutOfRange { field, .. } => field.to_string(),
            CoreError::InvalidSetting { field, .. } => field.to_string(),
            CoreError::Overflow { head, .. } => format!("heads[{head}]"),
            CoreError::InvalidHeadSetting { head, field, .. } => format!("heads[{head}].{field}"),
            CoreError::InLayer { layer, error } => format!("layers[{layer}].{}", error.path()),
        }
    }

    /// What is wrong, without the path.
    pub fn reason(&self) -> String {
        match self {
            CoreError::ShapeMismatch { expected, got, .. } => {
                format!("has shape {}×{}, expected {expected}", got.0, got.1)
            }
            CoreError::NonFinite { row, col, .. } => {
                format!("value at row {row}, column {col} is not a finite number")
            }
            CoreError::NoHeads => "at least one head is needed".into(),
            CoreError::InvalidTemperature(t) => {
                format!("must be a finite number greater than 0, got {t}")
            }
            CoreError::MissingParams { needs, .. } => format!("missing: {needs}"),
            CoreError::UnsupportedMask { attention, mask } => format!(
                "{} attention cannot apply a {mask} mask ({})",
                attention.name(),
                attention.mask_limitation()
            ),
            CoreError::IndexOutOfRange { index, len, .. } => {
                format!("index {index} is out of range (must be below {len})")
            }
            CoreError::InvalidSetting { reason, .. }
            | CoreError::InvalidHeadSetting { reason, .. } => reason.to_string(),
            CoreError::Overflow { what, .. } => format!(
                "{what} overflow the f32 range; scale the inputs down or raise the temperature"
            ),
            CoreError::InLayer { error, .. } => error.reason(),
        }
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path(), self.reason())
    }
}

impl std::error::Error for CoreError {}

/// What a matrix's shape had to be ([`CoreError::ShapeMismatch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// A general score's `w`: `d_k×d_k`.
    GeneralW {
        /// The width of the queries.
        d_k: usize,
    },
    /// An additive score's `w_a`: `d_a×d_k`, any `d_a`.
    AdditiveWa {
        /// The width of the queries.
        d_k: usize,
    },
    /// An additive score's `u_a`: `d_a×d_k`, with `d_a` the rows of `w_a`.
    AdditiveUa {
        /// The rows of `w_a`.
        d_a: usize,
        /// The width of the queries.
        d_k: usize,
    },
    /// An additive score's `v_a`: `d_a` values.
    AdditiveVa {
        /// The rows of `w_a`.
        d_a: usize,
    },
    /// A head's queries: as many rows as `heads[0].q`.
    QueryRows {
        /// The rows of `heads[0].q`.
        n: usize,
    },
    /// A head's keys: as many rows as `heads[0].k`, as wide as its queries.
    Keys {
        /// The rows of `heads[0].k`.
        m: usize,
        /// The width of the head's queries.
        d_k: usize,
    },
    /// A head's values: as many rows as its keys.
    ValueRows {
        /// The rows of the keys.
        m: usize,
    },
    /// Linformer's `e`: one column per key.
    LinformerE {
        /// The keys.
        m: usize,
    },
    /// Linformer's `f`: the shape of `e`.
    LinformerF {
        /// The rows of `e`.
        k: usize,
        /// The keys.
        m: usize,
    },
    /// The output projection: one row per value column of all heads.
    OutputRows {
        /// The value widths of all heads, added.
        width: usize,
    },
    /// An input of the model's projections: `d_in` columns.
    InputColumns {
        /// The input width.
        d_in: usize,
    },
    /// A custom mask: queries × keys.
    Mask {
        /// Queries.
        n: usize,
        /// Keys.
        m: usize,
    },
    /// The second matrix of a comparison: the first one's shape.
    FirstShape {
        /// Rows of the first matrix.
        rows: usize,
        /// Its columns.
        cols: usize,
    },
    /// A projection of the values: as many rows as `v` is wide.
    ValueWidthRows {
        /// The width of `v`.
        n: usize,
    },
    /// A vector with one value per position (decayed attention's gates).
    Gates {
        /// The positions.
        n: usize,
    },
    /// A matrix with the shape of another field.
    AsField {
        /// Its rows.
        rows: usize,
        /// Its columns.
        cols: usize,
        /// The field whose shape it takes, e.g. `"q"`.
        field: Field,
    },
    /// FAVOR+'s features: any number of rows, `d_k` columns.
    Features {
        /// The width of the queries.
        d_k: usize,
    },
    /// The keys of decayed attention: one per query.
    DecayedKeys {
        /// The queries.
        n: usize,
        /// The width of the queries.
        d_k: usize,
    },
    /// The values of a contribution: one row per column of the weights.
    WeightColumnsRows {
        /// The columns of the weights.
        n: usize,
    },
    /// The value lengths of a contribution: one per column of the weights.
    WeightColumnsLengths {
        /// The columns of the weights.
        n: usize,
    },
    /// A block's projection: `d × d`.
    ModelSquare {
        /// The width of the tokens.
        d: usize,
    },
    /// A block's bias, gain or shift: `d` values.
    ModelVector {
        /// The width of the tokens.
        d: usize,
    },
    /// A block's input or memory: `d` columns.
    ModelColumns {
        /// The width of the tokens.
        d: usize,
    },
    /// The feed-forward network's `W₁`: `d` rows, any `f ≥ 1` columns.
    FfnIn {
        /// The width of the tokens.
        d: usize,
    },
    /// The feed-forward network's `W₂`: `f × d`.
    FfnOut {
        /// The columns of `W₁`.
        f: usize,
        /// The width of the tokens.
        d: usize,
    },
    /// The feed-forward network's `b₁`: `f` values.
    FfnVector {
        /// The columns of `W₁`.
        f: usize,
    },
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Expected::GeneralW { d_k } => write!(f, "{d_k}×{d_k} (d_k×d_k)"),
            Expected::AdditiveWa { d_k } => write!(f, "d_a×{d_k} (d_a×d_k)"),
            Expected::AdditiveUa { d_a, d_k } => {
                write!(f, "{d_a}×{d_k} (d_a×d_k, d_a = the rows of w_a)")
            }
            Expected::AdditiveVa { d_a } => {
                write!(f, "1×{d_a} (d_a values, d_a = the rows of w_a)")
            }
            Expected::QueryRows { n } => write!(f, "{n} rows (as heads[0].q)"),
            Expected::Keys { m, d_k } => {
                write!(f, "{m}×{d_k} ({m} rows as heads[0].k, {d_k} columns as q)")
            }
            Expected::ValueRows { m } => write!(f, "{m} rows (as k)"),
            Expected::LinformerE { m } => write!(f, "k×{m} (one column per key)"),
            Expected::LinformerF { k, m } => write!(f, "{k}×{m} (as linformer.e)"),
            Expected::OutputRows { width } => {
                write!(f, "{width} rows (the total value width of all heads)")
            }
            Expected::InputColumns { d_in } => write!(f, "{d_in} columns (d_in)"),
            Expected::Mask { n, m } => write!(f, "{n}×{m} (queries × keys)"),
            Expected::FirstShape { rows, cols } => {
                write!(f, "{rows}×{cols} (the shape of the first matrix)")
            }
            Expected::ValueWidthRows { n } => write!(f, "{n} rows (the width of v)"),
            Expected::Gates { n } => write!(f, "{n} values (one per position)"),
            Expected::AsField { rows, cols, field } => write!(f, "{rows}×{cols} (as {field})"),
            Expected::Features { d_k } => write!(f, "r×{d_k} (r ≥ 1 features, d_k columns)"),
            Expected::DecayedKeys { n, d_k } => write!(
                f,
                "{n}×{d_k} (one key per query: decayed linear attention is causal)"
            ),
            Expected::WeightColumnsRows { n } => {
                write!(f, "{n} rows (the columns of the weights)")
            }
            Expected::WeightColumnsLengths { n } => {
                write!(f, "{n} lengths (the columns of the weights)")
            }
            Expected::ModelSquare { d } => write!(f, "{d}×{d} (d×d, d = the width of x)"),
            Expected::ModelVector { d } => write!(f, "{d} values (d, the width of x)"),
            Expected::ModelColumns { d } => {
                write!(f, "{d} columns (d, the width of the layers)")
            }
            Expected::FfnIn { d } => write!(f, "{d}×f (d rows, any f ≥ 1 columns)"),
            Expected::FfnOut { f: width, d } => {
                write!(f, "{width}×{d} (f×d, f = the columns of ffn.w_1)")
            }
            Expected::FfnVector { f: width } => {
                write!(f, "{width} values (f, the columns of ffn.w_1)")
            }
        }
    }
}

/// What a head lacks ([`CoreError::MissingParams`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The general score needs `w`.
    GeneralW,
    /// The additive score needs `w_a`, `u_a` and `v_a`.
    Additive,
    /// Linformer attention needs the projections `e` and `f`.
    Linformer,
    /// Sink attention needs the head's sink logit.
    Sink,
    /// Differential attention needs `q2` and `k2`.
    Differential,
    /// Decayed linear attention needs a decay or gates.
    Decay,
    /// FAVOR+ needs its features `W`.
    Features,
}

impl fmt::Display for Needs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Needs::GeneralW => "the general score needs w (d_k×d_k)",
            Needs::Additive => "the additive score needs w_a, u_a (d_a×d_k) and v_a (d_a)",
            Needs::Linformer => "linformer attention needs the projections e and f (k×m)",
            Needs::Sink => "sink attention needs the head's sink logit s_h (a number)",
            Needs::Differential => "differential attention needs q2 (n×d_k) and k2 (m×d_k)",
            Needs::Decay => {
                "decayed linear attention needs decay (γ in [0, 1]) or gates (one per position)"
            }
            Needs::Features => "favor attention needs the features W (r×d_k)",
        })
    }
}

/// Why a setting is refused ([`CoreError::InvalidSetting`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Invalid {
    /// `d_model` is 0 or above the limit.
    DModel {
        /// The value given.
        got: usize,
        /// The limit.
        max: usize,
    },
    /// The head count does not divide `d_model`.
    HeadsDivide {
        /// The model width.
        d_model: usize,
        /// The heads asked for.
        heads: usize,
    },
    /// Identity projections with more than one head.
    IdentityOneHead,
    /// The positions' base is not a finite number above 1.
    PositionBase(f64),
    /// The positions' width is below 2.
    PositionWidth,
    /// A sinusoidal encoding of odd width.
    SinusoidalOdd(usize),
    /// A stride of 0.
    Stride,
    /// Linformer with no projected key.
    LinformerKeys,
    /// A head index past the last head.
    NoSuchHead {
        /// How many heads there are.
        heads: usize,
        /// The head asked for.
        head: usize,
    },
    /// A shuffle that does not fit the sentence.
    Permutation {
        /// The shuffle's positions.
        positions: usize,
        /// The sentence's tokens.
        tokens: usize,
    },
    /// Contributions asked of a head whose weights are over projected keys.
    ProjectedKeys {
        /// The head.
        head: usize,
        /// Its projected keys.
        keys: usize,
        /// The tokens.
        tokens: usize,
    },
    /// The heads are not computed yet.
    NotComputed,
    /// A setting of the logits pipeline or of the positions (RoPE, ALiBi, softcap,
    /// grouped keys and values, sinks, tiles).
    Pipeline(PipelineInvalid),
    /// A number that must be finite (sink logits, λ, the sigmoid's bias).
    NotFinite,
    /// A number that must be in `[0, 1]`.
    Unit(f32),
    /// A gate outside `[0, 1]`.
    GateUnit {
        /// Its position.
        index: usize,
        /// Its value.
        value: f32,
    },
    /// Decayed attention with a score other than `dot` and `scaled_dot`.
    DecayedScore {
        /// The score given.
        score: &'static str,
    },
    /// A head with both a decay and gates.
    DecayAndGates,
    /// A Transformer block or its input ([`crate::block`]).
    Block(BlockInvalid),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Invalid::DModel { got, max } => write!(f, "must be between 1 and {max}, got {got}"),
            Invalid::HeadsDivide { d_model, heads } => write!(
                f,
                "must divide d_model = {d_model} (so d_k = d_model / heads is whole), got {heads}"
            ),
            Invalid::IdentityOneHead => {
                f.write_str("identity projections (Q = K = V = X) use exactly one head")
            }
            Invalid::PositionBase(base) => {
                write!(f, "must be a finite number greater than 1, got {base}")
            }
            Invalid::PositionWidth => f.write_str("must be at least 2"),
            Invalid::SinusoidalOdd(d) => {
                write!(f, "sinusoidal encodings need an even width, got {d}")
            }
            Invalid::Stride => f.write_str("the stride must be at least 1"),
            Invalid::LinformerKeys => f.write_str("Linformer needs k ≥ 1 projected keys"),
            Invalid::NoSuchHead { heads, head } => write!(
                f,
                "there are {heads} heads, numbered from 0, so there is no head {head}"
            ),
            Invalid::Permutation { positions, tokens } => write!(
                f,
                "the shuffle has {positions} positions but the sentence has {tokens} tokens"
            ),
            Invalid::ProjectedKeys { head, keys, tokens } => write!(
                f,
                "head {head}'s weights are over {keys} projected keys, not the {tokens} tokens: \
                 contributions need the model's own keys"
            ),
            Invalid::NotComputed => f.write_str("they are not computed yet"),
            Invalid::Pipeline(p) => p.fmt(f),
            Invalid::NotFinite => f.write_str("must be a finite number"),
            Invalid::Unit(x) => write!(f, "must be between 0 and 1, got {x}"),
            Invalid::GateUnit { index, value } => {
                write!(f, "gate {index} is {value}, outside [0, 1]")
            }
            Invalid::DecayedScore { score } => write!(
                f,
                "decayed linear attention takes the dot or scaled_dot score, not {score}"
            ),
            Invalid::DecayAndGates => f.write_str("give either decay or gates, not both"),
            Invalid::Block(b) => b.fmt(f),
        }
    }
}

/// Result alias of the core.
pub type Result<T> = std::result::Result<T, CoreError>;
