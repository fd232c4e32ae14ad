//! The one error type of the model crate.

use std::fmt;

use attnlab_core::CoreError;

/// Why a text cannot be run through a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextError {
    /// Nothing is left to tokenise: the text is empty, or only whitespace and control
    /// characters.
    Empty,
    /// The text is longer than [`crate::tokenizer::MAX_TEXT_CHARS`] characters.
    TooLong {
        /// Characters in the text.
        chars: usize,
        /// The limit.
        max: usize,
    },
    /// The second text of a pair is at fault.
    InSecond(Box<TextError>),
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Empty => f.write_str(
                "the text has no words: it is empty, or only whitespace and control characters",
            ),
            TextError::TooLong { chars, max } => write!(
                f,
                "the text has {chars} characters, more than the {max} a model reads"
            ),
            TextError::InSecond(e) => write!(f, "the second text: {e}"),
        }
    }
}

/// Everything that can go wrong while loading a checkpoint or running it.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    /// `config.json` (or the asset's copy of it) cannot be read, or describes a model
    /// this crate cannot run.
    Config(String),
    /// The bytes are not a safetensors file (or not an `attnlab-model-asset/1` asset).
    Format(String),
    /// A tensor the architecture needs is not in the file.
    MissingTensor(String),
    /// A tensor has the wrong shape.
    TensorShape {
        /// The tensor's name, without the checkpoint's prefix (`bert.`).
        name: String,
        /// The shape the config implies.
        expected: Vec<usize>,
        /// The shape in the file.
        got: Vec<usize>,
    },
    /// A tensor has a type this crate does not read.
    TensorDtype {
        /// The tensor's name.
        name: String,
        /// Its dtype as safetensors names it.
        dtype: String,
    },
    /// The vocabulary file is malformed (e.g. a special token is missing).
    Vocabulary(String),
    /// The text cannot be tokenised.
    Text(TextError),
    /// A token id is not below the vocabulary size.
    TokenId {
        /// Its position in the input.
        position: usize,
        /// The id.
        id: u32,
        /// The vocabulary size.
        vocab_size: usize,
    },
    /// A token id whose word-embedding row the asset does not ship (its vocabulary was
    /// cut to some scripts; the tokenizer never gives such an id).
    NotShipped {
        /// Its position in the input.
        position: usize,
        /// The id.
        id: u32,
    },
    /// The token types (segments) do not fit the ids or the model.
    Segments(String),
    /// More tokens than the model has positions for.
    TooManyTokens {
        /// Tokens given.
        tokens: usize,
        /// The most the model takes.
        max: usize,
    },
    /// The attention of a layer failed in the core (e.g. a spec whose score function
    /// needs parameters a pretrained head does not have).
    Attention {
        /// The layer.
        layer: usize,
        /// The core's error.
        error: CoreError,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Config(why) => write!(f, "config: {why}"),
            ModelError::Format(why) => write!(f, "weights: {why}"),
            ModelError::MissingTensor(name) => write!(f, "weights: no tensor {name}"),
            ModelError::TensorShape {
                name,
                expected,
                got,
            } => write!(
                f,
                "weights: {name} has shape {got:?}, expected {expected:?}"
            ),
            ModelError::TensorDtype { name, dtype } => {
                write!(f, "weights: {name} is {dtype}, which is not read")
            }
            ModelError::Vocabulary(why) => write!(f, "vocabulary: {why}"),
            ModelError::Text(e) => write!(f, "text: {e}"),
            ModelError::TokenId {
                position,
                id,
                vocab_size,
            } => write!(
                f,
                "ids[{position}]: {id} is not below the vocabulary size {vocab_size}"
            ),
            ModelError::NotShipped { position, id } => write!(
                f,
                "ids[{position}]: {id} has no word-embedding row in this asset"
            ),
            ModelError::Segments(why) => write!(f, "token types: {why}"),
            ModelError::TooManyTokens { tokens, max } => {
                write!(f, "ids: {tokens} tokens, the model takes at most {max}")
            }
            ModelError::Attention { layer, error } => write!(
                f,
                "layer {layer} attention: {}: {}",
                error.path(),
                error.reason()
            ),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<TextError> for ModelError {
    fn from(e: TextError) -> ModelError {
        ModelError::Text(e)
    }
}

/// `Result` with [`ModelError`].
pub type Result<T> = std::result::Result<T, ModelError>;
