//! `attnlab block`: one `attnlab-block/1` document (a stack of Transformer layers and its
//! input) in, its `attnlab-block-result/1` result out on standard output: every layer's
//! self-attention weights (heads × n × n), cross-attention weights (heads × n × m, with a
//! memory) and output (n × d), and the final output. `--decode` runs the same layers one
//! position at a time with a KV cache and adds the cache's size after each step.

use std::io::{self, Write};
use std::path::PathBuf;

use attnlab_core::block::CacheSize;
use attnlab_formats::block::{BLOCK_RESULT_FORMAT, parse_block};
use attnlab_formats::tensors::FieldError;
use ndarray::Array2;
use serde_json::{Value, json};

use crate::tensors::rows;
use crate::{Failure, input};

/// The arguments of `attnlab block`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Run a stack of Transformer layers you bring and print every layer's attention and output as JSON",
    long_about = "Run a stack of Transformer layers you bring (attnlab-block/1: the tokens x, \
                  optionally an encoder's output as memory, and per layer self-attention, \
                  cross-attention with a memory, LayerNorms and the feed-forward network; \
                  post-LN or pre-LN) and print the result (attnlab-block-result/1: per layer \
                  self_attention (heads × n × n), cross_attention (heads × n × m, with a \
                  memory) and output (n × d); the final output) as JSON on standard output.\n\n\
                  With --decode the layers run one position at a time with a KV cache (every \
                  layer's self-attention must be causal), which prints the same fields and \
                  the cache's size after each step; the result equals the parallel pass. \
                  Fields that are not part of attnlab-block/1 are errors. docs/block.md \
                  documents the format."
)]
pub struct BlockArgs {
    /// The attnlab-block/1 JSON document to read, or - for standard input
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Decode one position at a time with a KV cache instead of all at once
    #[arg(long)]
    pub decode: bool,
}

/// The largest document read, in bytes (as `compute`).
pub const MAX_BLOCK_BYTES: u64 = crate::compute::MAX_INPUT_BYTES;

fn heads(weights: &[Array2<f32>]) -> Value {
    Value::Array(weights.iter().map(|w| rows(w)).collect())
}

fn layer(
    self_attention: &[Array2<f32>],
    cross: Option<&[Array2<f32>]>,
    output: &Array2<f32>,
) -> Value {
    let mut l = json!({
        "self_attention": heads(self_attention),
        "output": rows(output),
    });
    if let Some(cross) = cross {
        l["cross_attention"] = heads(cross);
    }
    l
}

fn cache(sizes: &[CacheSize]) -> Value {
    Value::Array(
        sizes
            .iter()
            .map(|c| json!({"step": c.step, "entries": c.entries, "bytes": c.bytes}))
            .collect(),
    )
}

/// Runs `attnlab block`.
pub fn run(args: &BlockArgs) -> Result<(), Failure> {
    let text = input::read_text(&args.file, MAX_BLOCK_BYTES, "input", "")?;
    let doc = parse_block(&text).map_err(|e| e.to_string())?;
    let said = |e| FieldError::from(e).to_string();
    let memory = doc.memory.as_ref();
    let out = if args.decode {
        let run = doc.block.decode(&doc.x, memory).map_err(said)?;
        let layers: Vec<Value> = run
            .layers
            .iter()
            .map(|l| layer(&l.self_attention, l.cross_attention.as_deref(), &l.output))
            .collect();
        json!({
            "format": BLOCK_RESULT_FORMAT,
            "layers": layers,
            "output": rows(&run.output),
            "cache": cache(&run.cache),
        })
    } else {
        let run = doc.block.run(&doc.x, memory).map_err(said)?;
        let layers: Vec<Value> = run
            .layers
            .iter()
            .map(|l| {
                layer(
                    &l.self_attention,
                    l.cross_attention.as_deref(),
                    &l.output().to_owned(),
                )
            })
            .collect();
        json!({
            "format": BLOCK_RESULT_FORMAT,
            "layers": layers,
            "output": rows(&run.output),
        })
    };
    writeln!(io::stdout().lock(), "{out}").map_err(Failure::Output)
}
