//! The one error type of the core.
//!
//! Variants carry the operation, the offending field (named as in the JSON interchange
//! format, e.g. `k`, `score_params.w`) and the shapes involved, so that an edge (the CLI,
//! the app) can turn them into a sentence naming exactly what is wrong. The few
//! free-text parts (what a shape had to be, why a setting is refused) are written at the
//! check in English and in Simplified Chinese, the languages of the edges, so that no
//! edge has to guess the words of a check it did not make; the core only carries them.

use std::fmt;

use crate::kind::AttentionKind;

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
        /// What the shape had to be, e.g. `"4 columns (the width of q)"`.
        expected: String,
        /// The same in Chinese, e.g. `"4 列（q 的宽度）"`.
        expected_zh: String,
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
        /// Why it is needed, e.g. `"the general score needs w"`.
        reason: &'static str,
        /// The same in Chinese.
        reason_zh: &'static str,
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
        /// What is wrong, as a sentence fragment.
        reason: String,
        /// The same in Chinese.
        reason_zh: String,
    },
    /// A result overflowed f32 (inputs too large): reported instead of showing inf or NaN.
    Overflow {
        /// Head index.
        head: usize,
        /// What overflowed, e.g. `"scores"`.
        what: &'static str,
    },
}

impl CoreError {
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
            CoreError::MissingParams { reason, .. } => format!("missing: {reason}"),
            CoreError::UnsupportedMask { attention, mask } => format!(
                "{} attention cannot apply a {mask} mask ({})",
                attention.name(),
                attention.mask_limitation()
            ),
            CoreError::IndexOutOfRange { index, len, .. } => {
                format!("index {index} is out of range (must be below {len})")
            }
            CoreError::InvalidSetting { reason, .. } => reason.clone(),
            CoreError::Overflow { what, .. } => format!(
                "{what} overflow the f32 range; scale the inputs down or raise the temperature"
            ),
        }
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path(), self.reason())
    }
}

impl std::error::Error for CoreError {}

/// Result alias of the core.
pub type Result<T> = std::result::Result<T, CoreError>;
