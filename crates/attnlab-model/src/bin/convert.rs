//! `attnlab-model-convert DIR OUT [--name N] [--source S] [--licence L]`: reads a Hugging
//! Face checkpoint from DIR (`model.safetensors`, `config.json`, `vocab.txt`, and
//! `pooling_config.json` if present: sentence-transformers' `1_Pooling/config.json`)
//! and writes the `attnlab-model-asset/1` asset (int8 matrices) to OUT. `cargo xtask model`
//! runs it; the library itself never touches files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use attnlab_model::{About, Pretrained, asset};

fn read(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn text(dir: &Path, name: &str) -> Result<String, String> {
    String::from_utf8(read(dir, name)?).map_err(|e| format!("{name} is not UTF-8: {e}"))
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: attnlab-model-convert DIR OUT [--name N] [--source S] [--licence L]";
    let (mut positional, mut about) = (Vec::new(), About::default());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let field = match a.as_str() {
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
    let bytes = asset::write(model.encoder(), &vocab, &about, asset::default_plan)
        .map_err(|e| e.to_string())?;
    // Check that what was written loads, before anything relies on it.
    Pretrained::from_asset(&bytes).map_err(|e| format!("the written asset does not load: {e}"))?;
    if let Some(parent) = Path::new(out).parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!(
        "wrote {out}: {:.1} MB from {:.1} MB of f32 weights",
        bytes.len() as f64 / 1e6,
        weights.len() as f64 / 1e6
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
