//! The `attnlab-tensors/1` interchange format: read and validated by
//! [`attnlab_formats::tensors`] (the app reads brought files with the same code); the result
//! is written back as JSON here.

mod output;

pub use attnlab_formats::tensors::{Document, FieldError, INPUT_FORMAT, parse};
pub use output::result_json;
pub(crate) use output::{num, rows};
