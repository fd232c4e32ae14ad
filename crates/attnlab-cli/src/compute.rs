//! `attnlab compute`: one `attnlab-tensors/1` JSON document in, its `attnlab-result/1`
//! result out on standard output.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::Failure;
use crate::tensors;

/// The arguments of `attnlab compute`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Compute attention for tensors you bring and print the result as JSON",
    long_about = "Compute attention for tensors you bring (Q, K, V per head, from PyTorch, \
                  numpy or anywhere else) and print the result (attnlab-result/1: per head \
                  the weights, what each key contributes (norms: |α_ij| ‖v_j‖), output, row \
                  entropy and empty rows; the combined output) as JSON on standard output.\n\n\
                  Fields that are not part of attnlab-tensors/1 are reported as warnings on \
                  standard error and ignored. README.md documents the format."
)]
pub struct ComputeArgs {
    /// The attnlab-tensors/1 JSON document to read, or - for standard input
    ///
    /// The document holds Q, K and V per head, and optionally the score function,
    /// temperature, attention kind, mask, W^O and token labels.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// The largest input document read, in bytes.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The most attention weights computed at once, summed over the heads (`n · m` each):
/// 2²⁶ f32, 256 MiB, about what the result's JSON can still hold.
pub const MAX_WEIGHTS: usize = 1 << 26;

fn too_large(what: &str) -> String {
    format!(
        "input: {what} is larger than {} MiB, the most attnlab compute reads",
        MAX_INPUT_BYTES >> 20
    )
}

fn read_input(source: &Path) -> Result<String, String> {
    let mut text = String::new();
    if source == Path::new("-") {
        let read = io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("input: cannot read standard input ({e})"))?;
        if read as u64 > MAX_INPUT_BYTES {
            return Err(too_large("standard input"));
        }
    } else {
        let shown = source.display();
        let len = std::fs::metadata(source)
            .map_err(|e| format!("input: cannot read {shown} ({e})"))?
            .len();
        if len > MAX_INPUT_BYTES {
            return Err(too_large(&shown.to_string()));
        }
        text = std::fs::read_to_string(source)
            .map_err(|e| format!("input: cannot read {shown} ({e})"))?;
    }
    Ok(text)
}

/// Refuses a problem whose weights would not fit [`MAX_WEIGHTS`], before any is computed.
fn check_size(problem: &attnlab_core::attention::Problem) -> Result<(), String> {
    let heads = problem.heads();
    let cells = heads.iter().try_fold(0usize, |sum, h| {
        h.q.nrows()
            .checked_mul(h.k.nrows())
            .and_then(|c| sum.checked_add(c))
    });
    match (cells, heads.first()) {
        (Some(c), _) if c <= MAX_WEIGHTS => Ok(()),
        (_, Some(h)) => Err(format!(
            "heads: {} of {} × {} weights are more than the {MAX_WEIGHTS} weights attnlab compute holds at once",
            if heads.len() == 1 {
                "1 head".to_string()
            } else {
                format!("{} heads", heads.len())
            },
            h.q.nrows(),
            h.k.nrows()
        )),
        (_, None) => Ok(()),
    }
}

/// Runs `attnlab compute`: warnings for unknown fields go to standard error, the result
/// to standard output.
pub fn run(args: &ComputeArgs) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let doc = tensors::parse(&text).map_err(|e| e.to_string())?;
    for field in &doc.unknown_fields {
        eprintln!("warning: ignoring unknown field {field}");
    }
    check_size(&doc.problem)?;
    let result = doc
        .problem
        .compute()
        .map_err(|e| tensors::FieldError::from(e).to_string())?;
    let json = tensors::result_json(&doc, &result)
        .map_err(|e| tensors::FieldError::from(e).to_string())?
        .to_string();
    writeln!(io::stdout().lock(), "{json}").map_err(Failure::Output)
}
