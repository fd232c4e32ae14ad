//! `cargo xtask fuzz [--minutes N] [--target T]`: every target of `crates/attnlab-fuzz`
//! under AFL++, one after the other (one `afl-fuzz` at a time), for N minutes each.
//!
//! It installs `cargo-afl` when missing (crates.io; it builds AFL++ and its runtime from
//! the source it ships, with the machine's C compiler), builds the targets' binary with
//! coverage (`cargo afl build --release`, in `target/afl`), fuzzes each from its
//! committed seeds into `target/fuzz/TARGET` (resuming the queue of earlier runs), then
//! prints per target the executions, the corpus (the unique paths kept), crashes and
//! hangs read from AFL's `fuzzer_stats`, appends them to `target/fuzz/runs.tsv`, and
//! copies every crash into `crates/attnlab-fuzz/regressions/TARGET/`, where
//! `cargo test` replays it from then on.

use std::collections::BTreeMap;
use std::path::Path;

use crate::cmd::{Ctx, Error, Result, say, shown};

/// The targets, as `attnlab_fuzz::TARGETS` names them (their seed folders).
const TARGETS: [&str; 10] = [
    "link",
    "tensors_json",
    "block_json",
    "npy",
    "npz",
    "lesson",
    "wordpiece",
    "unigram",
    "minilm_asset",
    "e5_asset",
];

/// The time one input may take before AFL calls it a hang, in milliseconds.
const TIMEOUT_MS: u32 = 2000;

const BINARY: &str = "target/afl/release/attnlab-fuzz-afl";

pub struct Options {
    minutes: f64,
    targets: Vec<&'static str>,
}

impl Options {
    pub fn parse(args: &[String]) -> std::result::Result<Options, String> {
        let mut options = Options {
            minutes: 1.0,
            targets: Vec::new(),
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--minutes" => {
                    let value = args.next().ok_or("--minutes needs a number")?;
                    options.minutes = value
                        .parse()
                        .ok()
                        .filter(|m: &f64| m.is_finite() && *m > 0.0)
                        .ok_or_else(|| format!("--minutes {value}: expected minutes above 0"))?;
                }
                "--target" => {
                    let value = args.next().ok_or("--target needs a target's name")?;
                    let target = TARGETS.into_iter().find(|t| t == value).ok_or_else(|| {
                        format!("--target {value}: one of {}", TARGETS.join(", "))
                    })?;
                    options.targets.push(target);
                }
                other => return Err(format!("unknown option {other}")),
            }
        }
        if options.targets.is_empty() {
            options.targets = TARGETS.to_vec();
        }
        Ok(options)
    }
}

pub fn run(ctx: &Ctx, options: &Options) -> Result {
    install(ctx)?;
    let build = ctx
        .cmd("cargo")
        .args(["afl", "build", "--release", "-p", "attnlab-fuzz"])
        .args(["--features", "afl", "--bin", "attnlab-fuzz-afl"])
        .env("CARGO_TARGET_DIR", "target/afl");
    say!("building the targets with AFL++'s coverage: {build}");
    build.run()?;

    let seconds = (options.minutes * 60.0).round().max(1.0) as u64;
    let fuzz_dir = ctx.at("target/fuzz");
    std::fs::create_dir_all(&fuzz_dir).map_err(|e| {
        Error::new(format!(
            "cannot create {}: {e}",
            shown(&fuzz_dir, &ctx.root)
        ))
    })?;
    let mut rows = Vec::new();
    for target in &options.targets {
        let out = ctx.at(&format!("target/fuzz/{target}"));
        let seeds = ctx.at(&format!("crates/attnlab-fuzz/seeds/{target}"));
        let fuzz = ctx
            .cmd("cargo")
            .args(["afl", "fuzz", "-i"])
            .arg(&seeds)
            .arg("-o")
            .arg(&out)
            .args(["-V", &seconds.to_string(), "-t", &TIMEOUT_MS.to_string()])
            .args(["-m", "none", "--", BINARY, target])
            // Plain status lines; no CPU binding (the machine is shared); a queue from
            // an earlier run is resumed; a core_pattern that pipes to a crash reporter
            // only slows crash detection.
            .env("AFL_NO_UI", "1")
            .env("AFL_NO_AFFINITY", "1")
            .env("AFL_AUTORESUME", "1")
            .env("AFL_SKIP_CPUFREQ", "1")
            .env("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1");
        say!("fuzzing {target} for {seconds}s: {fuzz}");
        fuzz.run()?;
        let stats = read_stats(&out.join("default/fuzzer_stats"))?;
        let copied = keep_crashes(ctx, target, &out.join("default/crashes"))?;
        log_run(ctx, target, &stats)?;
        rows.push((target, stats, copied));
    }

    say!("target        seconds      execs   execs/s  corpus  crashes  hangs  coverage");
    for (target, s, _) in &rows {
        let get = |key: &str| s.get(key).map_or("?", String::as_str);
        say!(
            "{target:<13} {:>7} {:>10} {:>9} {:>7} {:>8} {:>6}  {}",
            get("run_time"),
            get("execs_done"),
            get("execs_per_sec"),
            get("corpus_count"),
            get("saved_crashes"),
            get("saved_hangs"),
            get("bitmap_cvg")
        );
    }
    let crashes: usize = rows.iter().map(|(_, _, c)| c).sum();
    if crashes > 0 {
        return Err(Error::new(format!(
            "{crashes} crashing input(s) copied to crates/attnlab-fuzz/regressions/: \
             `cargo test -p attnlab-fuzz --test smoke` replays them"
        )));
    }
    say!("no crash; every run is in target/fuzz/runs.tsv");
    Ok(())
}

/// Appends one target's run to `target/fuzz/runs.tsv` as soon as it ends (runs of other
/// targets may go on beside it). `seconds` and `execs` are AFL's totals for the target's
/// output folder, which resumed runs carry on.
fn log_run(ctx: &Ctx, target: &str, stats: &BTreeMap<String, String>) -> Result {
    use std::io::Write;
    let get = |key: &str| stats.get(key).map_or("?", String::as_str);
    let runs = ctx.at("target/fuzz/runs.tsv");
    let fresh = !runs.exists();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&runs)
        .map_err(|e| Error::new(format!("cannot open {}: {e}", shown(&runs, &ctx.root))))?;
    let mut row = String::new();
    if fresh {
        row.push_str("last_update\ttarget\tseconds\texecs\tcorpus\tcrashes\thangs\n");
    }
    row.push_str(&format!(
        "{}\t{target}\t{}\t{}\t{}\t{}\t{}\n",
        get("last_update"),
        get("run_time"),
        get("execs_done"),
        get("corpus_count"),
        get("saved_crashes"),
        get("saved_hangs")
    ));
    file.write_all(row.as_bytes())
        .map_err(|e| Error::new(format!("cannot write {}: {e}", shown(&runs, &ctx.root))))
}

/// cargo-afl, and the AFL++ it builds, when missing.
fn install(ctx: &Ctx) -> Result {
    if ctx
        .cmd("cargo")
        .args(["afl", "--version"])
        .probe()
        .is_some()
    {
        say!("cargo-afl already installed");
    } else {
        let install = ctx.cmd("cargo").args(["install", "cargo-afl", "--locked"]);
        say!("installing cargo-afl: {install}");
        install.run()?;
    }
    // Builds AFL++ and its runtime for this rustc; it refuses (and changes nothing) when
    // they are already built.
    let config = ctx.cmd("cargo").args(["afl", "config", "--build"]);
    match config.output() {
        Some(out) if out.status.success() => say!("built AFL++ for this rustc"),
        Some(out) if String::from_utf8_lossy(&out.stderr).contains("already built") => {
            say!("AFL++ already built for this rustc");
        }
        _ => {
            say!("building AFL++ for this rustc: {config}");
            config.run()?;
        }
    }
    Ok(())
}

/// AFL's `fuzzer_stats`: `key : value` lines.
fn read_stats(path: &Path) -> Result<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
    Ok(text
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect())
}

/// Copies each crash (AFL names them `id:000000,sig:06,…`) into the target's regression
/// folder as `crash-HASH`; returns how many were new.
fn keep_crashes(ctx: &Ctx, target: &str, crashes: &Path) -> Result<usize> {
    let Ok(entries) = std::fs::read_dir(crashes) else {
        return Ok(0);
    };
    let dir = ctx.at(&format!("crates/attnlab-fuzz/regressions/{target}"));
    let mut copied = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if !entry.file_name().to_string_lossy().starts_with("id:") {
            continue;
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
        let kept = dir.join(format!("crash-{:016x}", fnv1a(&bytes)));
        if kept.exists() {
            continue;
        }
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&kept, &bytes))
            .map_err(|e| Error::new(format!("cannot write {}: {e}", kept.display())))?;
        say!("crash kept as {}", shown(&kept, &ctx.root));
        copied += 1;
    }
    Ok(copied)
}

/// FNV-1a, 64 bits: a stable name for an input.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let o = Options::parse(&[]).unwrap();
        assert_eq!((o.minutes, o.targets.len()), (1.0, TARGETS.len()));
        let args: Vec<String> = ["--minutes", "0.5", "--target", "npz", "--target", "link"]
            .map(String::from)
            .to_vec();
        let o = Options::parse(&args).unwrap();
        assert_eq!((o.minutes, o.targets), (0.5, vec!["npz", "link"]));
        assert!(Options::parse(&["--target".into(), "png".into()]).is_err());
        assert!(Options::parse(&["--minutes".into(), "-1".into()]).is_err());
    }

    #[test]
    fn crash_names_are_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(fnv1a(b"a"), fnv1a(b"b"));
    }
}
