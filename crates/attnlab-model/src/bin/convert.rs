//! `attnlab-model-convert DIR OUT [--name N] [--source S] [--licence L]`: reads a Hugging
//! Face checkpoint from DIR (`model.safetensors`, `config.json`, `vocab.txt`, and
//! `pooling_config.json` if present: sentence-transformers' `1_Pooling/config.json`)
//! and writes the `attnlab-model-asset/1` asset (int8 matrices) to OUT.
//!
//! `attnlab-model-convert --e5s1 FILE OUT [--name N] [--source S] [--licence L]`: reads
//! multilingual-E5-small's `E5S1` container and writes the asset with its Q4_0 blocks bit
//! for bit, the word-embedding rows and the tokenizer's pieces cut to
//! `e5s1::SHIPPED`'s characters.
//!
//! `cargo xtask model` runs it; the library itself never touches files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use attnlab_model::e5s1::{self, E5s1};
use attnlab_model::{About, Encoder, Pretrained, asset};

fn read(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn text(dir: &Path, name: &str) -> Result<String, String> {
    String::from_utf8(read(dir, name)?).map_err(|e| format!("{name} is not UTF-8: {e}"))
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: attnlab-model-convert (DIR | --e5s1 FILE) OUT [--name N] [--source S] [--licence L]";
    let (mut positional, mut about) = (Vec::new(), About::default());
    let mut container = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let field = match a.as_str() {
            "--e5s1" => {
                container = Some(it.next().ok_or(usage)?.clone());
                continue;
            }
            "--name" => &mut about.name,
            "--source" => &mut about.source,
            "--licence" => &mut about.licence,
            _ => {
                positional.push(a.clone());
                continue;
            }
        };
        *field = it.next().ok_or(usage)?.clone();
    }
    if let Some(file) = container {
        let [out] = positional.as_slice() else {
            return Err(usage.into());
        };
        return convert_e5s1(Path::new(&file), out, &about);
    }
    let [dir, out] = positional.as_slice() else {
        return Err(usage.into());
    };
    let dir = PathBuf::from(dir);
    let weights = read(&dir, "model.safetensors")?;
    let pooling = dir
        .join("pooling_config.json")
        .exists()
        .then(|| text(&dir, "pooling_config.json"))
        .transpose()?;
    let vocab = text(&dir, "vocab.txt")?;
    let model = Pretrained::from_hugging_face(
        &weights,
        &text(&dir, "config.json")?,
        pooling.as_deref(),
        &vocab,
    )
    .map_err(|e| e.to_string())?;
    let bytes = asset::write(
        model.encoder(),
        asset::Vocabulary::WordPiece(&vocab),
        &about,
        asset::default_plan,
    )
    .map_err(|e| e.to_string())?;
    save(out, &bytes, weights.len())
}

/// multilingual-E5-small: the container's blocks as they are, the vocabulary cut.
fn convert_e5s1(file: &Path, out: &str, about: &About) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let fail = |e: attnlab_model::ModelError| format!("{}: {e}", file.display());
    let container = E5s1::parse(&bytes).map_err(fail)?;
    let tokenizer = container
        .tokenizer()
        .and_then(|t| t.restricted(e5s1::SHIPPED.to_vec(), e5s1::SHIPPED_NAME))
        .map_err(fail)?;
    let mut ids: Vec<u32> = tokenizer
        .parts()
        .pieces
        .iter()
        .map(|(id, _, _)| *id)
        .collect();
    ids.sort_unstable();
    let encoder = Encoder::load(container.config().clone(), &container)
        .and_then(|e| e.with_word_rows(ids))
        .map_err(fail)?;
    let asset = asset::write(
        &encoder,
        asset::Vocabulary::Unigram(&tokenizer),
        about,
        asset::stored_plan,
    )
    .map_err(|e| e.to_string())?;
    eprintln!(
        "{} of {} pieces shipped",
        tokenizer.parts().pieces.len(),
        container.tokenizer().map_err(fail)?.parts().pieces.len()
    );
    save(out, &asset, bytes.len())
}

/// Checks that `bytes` load as an asset, then writes them to `out`.
fn save(out: &str, bytes: &[u8], source_len: usize) -> Result<(), String> {
    // Check that what was written loads, before anything relies on it.
    Pretrained::from_asset(bytes).map_err(|e| format!("the written asset does not load: {e}"))?;
    if let Some(parent) = Path::new(out).parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(out, bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!(
        "wrote {out}: {:.1} MB from {:.1} MB of weights",
        bytes.len() as f64 / 1e6,
        source_len as f64 / 1e6
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("attnlab-model-convert: {e}");
            ExitCode::from(2)
        }
    }
}
