//! `attnlab compute`: one `attnlab-tensors/1` JSON document in, its `attnlab-result/1`
//! result out on standard output.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::tensors;
use crate::{Failure, input};

/// The arguments of `attnlab compute`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Compute attention for tensors you bring and print the result as JSON",
    long_about = "Compute attention for tensors you bring (Q, K, V per head, from PyTorch, \
                  numpy or anywhere else) and print the result (attnlab-result/1: per head \
                  the weights, what each key contributes (norms: |α_ij| ‖v_j‖), output, row \
                  sum, row entropy (null where rows are not distributions) and empty rows; \
                  the combined output) as JSON on standard output.\n\n\
                  Fields that are not part of attnlab-tensors/1 are reported as warnings on \
                  standard error and ignored; a field of the format that the chosen kind \
                  does not use is an error. docs/tensors.md documents the format."
)]
pub struct ComputeArgs {
    /// The attnlab-tensors/1 JSON document to read, or - for standard input
    ///
    /// The document holds Q, K and V per head, and optionally the score function,
    /// temperature, attention kind, mask, W^O and token labels.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// The largest input document read, in bytes (from a file or standard input).
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Runs `attnlab compute`: warnings for unknown fields go to standard error, the result
/// to standard output.
pub fn run(args: &ComputeArgs) -> Result<(), Failure> {
    let text = input::read_text(&args.file, MAX_INPUT_BYTES, "input", "")?;
    let doc = tensors::parse(&text).map_err(|e| e.to_string())?;
    for field in &doc.unknown_fields {
        eprintln!("warning: ignoring unknown field {field}");
    }
    let result = doc
        .problem
        .compute()
        .map_err(|e| tensors::FieldError::from(e).to_string())?;
    let json = tensors::result_json(&doc, &result)
        .map_err(|e| tensors::FieldError::from(e).to_string())?
        .to_string();
    writeln!(io::stdout().lock(), "{json}").map_err(Failure::Output)
}
