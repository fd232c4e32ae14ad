//! `cargo xtask bench`: the browser benchmark. Builds `crates/attnlab-bench` for wasm32
//! with and without SIMD128 and the app (`trunk build --release`), then `bench/run.mjs`
//! times the kernels against TensorFlow.js's wasm backend and the app's interaction and
//! load in Debian's Chromium, prints a table and writes `target/bench/report.json`.

use crate::cmd::{Ctx, Result, human, say};
use crate::setup::{self, Browser, CHROMIUM};

/// What `crates/attnlab-bench` compiles to for each variant, and where its JavaScript
/// glue goes (`bench/run.mjs` serves these folders).
struct Variant {
    name: &'static str,
    rustflags: &'static str,
    target_dir: &'static str,
    out_dir: &'static str,
}

const VARIANTS: [Variant; 2] = [
    // The app's build: `.cargo/config.toml` sets the same flag for wasm32. It is set here
    // too, so that a RUSTFLAGS in the caller's environment cannot drop it.
    Variant {
        name: "simd128",
        rustflags: "-C target-feature=+simd128",
        target_dir: "target/bench-simd",
        out_dir: "target/bench/pkg-simd",
    },
    // RUSTFLAGS (even empty) replaces the config's rustflags: no simd128. run.mjs checks
    // the wasm for SIMD instructions and the page checks `simd128()` of each build.
    Variant {
        name: "scalar",
        rustflags: "",
        target_dir: "target/bench-scalar",
        out_dir: "target/bench/pkg-scalar",
    },
];

/// The sizes the benchmark runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Sizes {
    /// Every size the issue names, 15 samples each.
    Full,
    /// Smaller sizes and fewer samples, for trying the harness out (`--quick`).
    Quick,
}

pub fn run(ctx: &Ctx, sizes: Sizes) -> Result {
    setup::run(ctx, Browser::Needed)?;
    setup::npm_ci(ctx, "bench")?;

    for v in &VARIANTS {
        let build = ctx
            .cmd("cargo")
            .args([
                "build",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
                "-p",
                "attnlab-bench",
            ])
            .env("RUSTFLAGS", v.rustflags)
            .env(
                "CARGO_TARGET_DIR",
                ctx.at(v.target_dir).display().to_string(),
            );
        say!("building the {} benchmark wasm ({build})", v.name);
        let took = build.run_timed()?;
        let wasm = format!(
            "{}/wasm32-unknown-unknown/release/attnlab_bench.wasm",
            v.target_dir
        );
        let bindgen = ctx
            .cmd("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--out-dir", v.out_dir])
            .arg(ctx.at(&wasm));
        say!("running {bindgen}");
        bindgen.run()?;
        say!("built {} in {}", v.out_dir, human(took));
    }

    let app = ctx.cmd("trunk").args(["build", "--release", "--offline"]);
    say!("building the app ({app})");
    let took = app.run_timed()?;
    say!("built dist/ in {}", human(took));

    let mut driver = ctx
        .cmd("node")
        .arg(ctx.at("bench/run.mjs"))
        .args(["--out", "target/bench/report.json"])
        .env("ATTNLAB_CHROMIUM", CHROMIUM)
        .env(
            "ATTNLAB_WASM_DIS",
            ctx.at("end2end/node_modules/.bin/wasm-dis")
                .display()
                .to_string(),
        );
    if sizes == Sizes::Quick {
        driver = driver.arg("--quick");
    }
    say!("running the benchmark ({driver})");
    let took = driver.run_timed()?;
    say!("benchmark done in {}", human(took));
    Ok(())
}
