//! Installing what `serve` and `test` need, each step only when it is missing.
//!
//! Pinned versions live here, in `Trunk.toml` (`wasm_opt`) and in `end2end/package.json`
//! (`binaryen`); wasm-bindgen-cli follows `Cargo.lock`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::cmd::{Ctx, Error, Result, human, say, shown};

/// The trunk release the project is built with.
pub const TRUNK_VERSION: &str = "0.21.14";
/// wasm-split-cli (crate `wasm_split_cli_support`), which splits the app's `#[lazy]`
/// modules off its wasm (web/build/wasm-bindgen); it reads the split points that
/// `wasm_split_helpers` (through leptos, in Cargo.lock) marks.
pub const WASM_SPLIT_VERSION: &str = "0.2.4";
/// The binaryen (wasm-opt) release from npm; Trunk.toml says `version_<this>`.
pub const WASM_OPT_VERSION: &str = "132";
/// The app is built for the first, the core's tests run under Node for the second.
const RUST_TARGETS: [&str; 2] = ["wasm32-unknown-unknown", "wasm32-wasip1"];
/// `cargo fmt` and `cargo clippy`.
const RUST_COMPONENTS: [&str; 2] = ["rustfmt", "clippy"];
/// Debian's Chromium, driven by Playwright (which never downloads a browser of its own).
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// The Debian packages behind the browser tests; the CJK font makes Chinese tokens render.
const BROWSER_PACKAGES: [&str; 3] = ["chromium", "chromium-driver", "fonts-noto-cjk"];
/// Written into a folder's node_modules after a successful `npm ci` there.
const NPM_STAMP: &str = "node_modules/.xtask-npm-ci.stamp";

/// Whether a step needs the browser (only `test` does).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Browser {
    Needed,
    NotNeeded,
}

/// The directories that go in front of `PATH` for every tool xtask runs: `web/build` (the
/// wasm-bindgen that trunk calls, which splits the app's lazy modules off first), the npm
/// packages' bin dir (for wasm-opt 132, which must win over any other wasm-opt on the
/// machine) and the cargo bin dir (for trunk, wasm-bindgen and wasm-split-cli).
pub fn tool_path(root: &Path) -> Vec<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let mut dirs = vec![
        root.join("web").join("build"),
        root.join("end2end").join("node_modules").join(".bin"),
    ];
    dirs.extend(cargo_home.map(|h| h.join("bin")));
    dirs
}

/// Everything `serve` needs, and with [`Browser::Needed`] everything `test` needs.
pub fn run(ctx: &Ctx, browser: Browser) -> Result {
    rust_targets(ctx)?;
    rust_components(ctx)?;
    trunk(ctx)?;
    cargo_fetch(ctx)?;
    wasm_bindgen(ctx)?;
    wasm_split(ctx)?;
    node_packages(ctx)?;
    if browser == Browser::Needed {
        chromium(ctx)?;
    }
    Ok(())
}

fn rust_targets(ctx: &Ctx) -> Result {
    let installed = ctx
        .cmd("rustup")
        .args(["target", "list", "--installed"])
        .probe()
        .ok_or_else(|| {
            Error::new(
                "`rustup target list --installed` failed: rustup is needed to add the wasm targets",
            )
        })?;
    let missing: Vec<&str> = RUST_TARGETS
        .into_iter()
        .filter(|t| !installed.lines().any(|l| l.trim() == *t))
        .collect();
    if missing.is_empty() {
        say!("rust targets {} already installed", RUST_TARGETS.join(", "));
        return Ok(());
    }
    let add = ctx.cmd("rustup").args(["target", "add"]).args(&missing);
    say!("installing rust targets {} ({add})", missing.join(", "));
    let took = add.run_timed()?;
    say!("installed rust targets in {}", human(took));
    Ok(())
}

fn rust_components(ctx: &Ctx) -> Result {
    let installed = ctx
        .cmd("rustup")
        .args(["component", "list", "--installed"])
        .probe()
        .ok_or_else(|| Error::new("`rustup component list --installed` failed"))?;
    // Lines look like `clippy-x86_64-unknown-linux-gnu` or `rustfmt-x86_64-…`.
    let missing: Vec<&str> = RUST_COMPONENTS
        .into_iter()
        .filter(|c| {
            !installed
                .lines()
                .any(|l| l.trim().starts_with(&format!("{c}-")))
        })
        .collect();
    if missing.is_empty() {
        say!(
            "rust components {} already installed",
            RUST_COMPONENTS.join(", ")
        );
        return Ok(());
    }
    let add = ctx.cmd("rustup").args(["component", "add"]).args(&missing);
    say!("installing rust components {} ({add})", missing.join(", "));
    let took = add.run_timed()?;
    say!("installed rust components in {}", human(took));
    Ok(())
}

fn trunk(ctx: &Ctx) -> Result {
    let found = ctx.cmd("trunk").arg("--version").probe();
    // `trunk --version` prints `trunk 0.21.14`.
    if found.as_deref().and_then(|v| v.split_whitespace().nth(1)) == Some(TRUNK_VERSION) {
        say!("trunk {TRUNK_VERSION} already installed");
        return Ok(());
    }
    let install =
        ctx.cmd("cargo")
            .args(["install", "--locked", "trunk", "--version", TRUNK_VERSION]);
    match found {
        Some(other) => say!("installing trunk {TRUNK_VERSION} over {other} ({install})"),
        None => say!("installing trunk {TRUNK_VERSION} ({install})"),
    }
    let took = install.run_timed()?;
    say!("installed trunk {TRUNK_VERSION} in {}", human(took));
    Ok(())
}

/// Downloads every crate the workspace needs, so that trunk can build `--offline`.
/// In CI, Cargo.lock must already match the manifests (`--locked`); locally cargo may
/// update it, as any `cargo build` would.
fn cargo_fetch(ctx: &Ctx) -> Result {
    if !ctx.at("Cargo.lock").exists() {
        let generate = ctx.cmd("cargo").arg("generate-lockfile");
        say!("Cargo.lock is missing: creating it ({generate})");
        generate.run()?;
    }
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
    let fetch = if in_ci {
        ctx.cmd("cargo").args(["fetch", "--locked"])
    } else {
        ctx.cmd("cargo").arg("fetch")
    };
    say!("fetching crates ({fetch})");
    let took = fetch.run_timed().map_err(|e| {
        if in_ci {
            Error::new(format!(
                "{e}\n  if cargo says the lock file needs updating: run `cargo fetch` locally and commit Cargo.lock"
            ))
        } else {
            e
        }
    })?;
    say!("crates ready in {}", human(took));
    Ok(())
}

fn wasm_bindgen(ctx: &Ctx) -> Result {
    let lock_path = ctx.at("Cargo.lock");
    let lock = fs::read_to_string(&lock_path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", lock_path.display())))?;
    let version = match locked_versions(&lock, "wasm-bindgen").as_slice() {
        [one] => one.clone(),
        [] => return Err(Error::new("Cargo.lock has no wasm-bindgen package")),
        many => {
            return Err(Error::new(format!(
                "Cargo.lock has several wasm-bindgen versions ({}); the app needs exactly one",
                many.join(", ")
            )));
        }
    };
    let found = ctx.cmd("wasm-bindgen").arg("--version").probe();
    // `wasm-bindgen --version` prints `wasm-bindgen 0.2.100` (and maybe a commit hash).
    if found.as_deref().and_then(|v| v.split_whitespace().nth(1)) == Some(version.as_str()) {
        say!("wasm-bindgen-cli {version} already installed (matches Cargo.lock)");
        return Ok(());
    }
    // Not `--locked`: wasm-bindgen-cli's own lock file pins a crate version that the
    // registry does not have (webpki-roots, through ureq), so that install fails.
    let install = ctx
        .cmd("cargo")
        .args(["install", "wasm-bindgen-cli", "--version", &version]);
    match found {
        Some(other) => say!(
            "installing wasm-bindgen-cli {version} over {other}, to match Cargo.lock ({install})"
        ),
        None => say!("installing wasm-bindgen-cli {version}, to match Cargo.lock ({install})"),
    }
    let took = install.run_timed()?;
    say!("installed wasm-bindgen-cli {version} in {}", human(took));
    Ok(())
}

fn wasm_split(ctx: &Ctx) -> Result {
    // `cargo install --list` prints `wasm_split_cli_support v0.2.4:` and the binary below.
    let installed = ctx
        .cmd("cargo")
        .args(["install", "--list"])
        .probe()
        .unwrap_or_default();
    let line = format!("wasm_split_cli_support v{WASM_SPLIT_VERSION}:");
    if installed.lines().any(|l| l.trim() == line)
        && ctx.cmd("wasm-split-cli").arg("--help").probe().is_some()
    {
        say!("wasm-split-cli {WASM_SPLIT_VERSION} already installed");
        return Ok(());
    }
    let install = ctx.cmd("cargo").args([
        "install",
        "--locked",
        "wasm_split_cli_support",
        "--version",
        WASM_SPLIT_VERSION,
        "--features",
        "build-binary",
    ]);
    say!(
        "installing wasm-split-cli {WASM_SPLIT_VERSION}, which splits the app's lazy modules off ({install})"
    );
    let took = install.run_timed()?;
    say!(
        "installed wasm-split-cli {WASM_SPLIT_VERSION} in {}",
        human(took)
    );
    Ok(())
}

/// The versions of package `name` in a Cargo.lock file.
fn locked_versions(lock: &str, name: &str) -> Vec<String> {
    let value = |line: &str, key: &str| {
        line.trim()
            .strip_prefix(key)
            .and_then(|rest| rest.trim_start().strip_prefix('='))
            .map(|v| v.trim().trim_matches('"').to_owned())
    };
    lock.split("[[package]]")
        .skip(1)
        .filter_map(|block| {
            let mut lines = block.lines();
            let is_it = lines
                .clone()
                .any(|l| value(l, "name").as_deref() == Some(name));
            if is_it {
                lines.find_map(|l| value(l, "version"))
            } else {
                None
            }
        })
        .collect()
}

/// `npm ci` in end2end/ when node_modules is missing or older than the lock file:
/// Playwright (no browser download) and binaryen's wasm-opt.
fn node_packages(ctx: &Ctx) -> Result {
    for tool in ["node", "npm"] {
        if ctx.cmd(tool).arg("--version").probe().is_none() {
            return Err(Error::new(format!(
                "`{tool}` is needed (Node.js 20 or newer, with npm) but was not found on PATH"
            )));
        }
    }
    npm_ci(ctx, "end2end")?;

    // trunk finds wasm-opt on PATH, where end2end/node_modules/.bin comes first, and
    // insists on the version Trunk.toml names.
    let pin = format!("wasm_opt = \"version_{WASM_OPT_VERSION}\"");
    let trunk_toml = fs::read_to_string(ctx.at("Trunk.toml")).unwrap_or_default();
    if !trunk_toml.lines().any(|l| l.trim() == pin) {
        return Err(Error::new(format!(
            "Trunk.toml should pin `{pin}` under [tools], as xtask and end2end/package.json do"
        )));
    }
    let wasm_opt = ctx.at("end2end/node_modules/.bin/wasm-opt");
    let version = ctx
        .cmd(&wasm_opt)
        .arg("--version")
        .probe()
        .unwrap_or_default();
    // `wasm-opt --version` prints `wasm-opt version 132 (version_132)`.
    if version.split_whitespace().nth(2) != Some(WASM_OPT_VERSION) {
        return Err(Error::new(format!(
            "{} reports {version:?}, expected version {WASM_OPT_VERSION}; delete end2end/node_modules and retry",
            shown(&wasm_opt, &ctx.root)
        )));
    }
    say!(
        "wasm-opt {WASM_OPT_VERSION} ready ({})",
        shown(&wasm_opt, &ctx.root)
    );
    Ok(())
}

/// `npm ci` in the folder `dir` of the repository when its node_modules is missing or
/// older than its `package.json` or `package-lock.json` (a stamp file in node_modules
/// records the last successful run). Never downloads a browser.
pub fn npm_ci(ctx: &Ctx, dir: &str) -> Result {
    let stamp = ctx.at(&format!("{dir}/{NPM_STAMP}"));
    let inputs = [
        ctx.at(&format!("{dir}/package-lock.json")),
        ctx.at(&format!("{dir}/package.json")),
    ];
    let stale = match modified(&stamp) {
        None => true,
        Some(done) => inputs.iter().any(|f| modified(f).is_none_or(|m| m > done)),
    };
    if !stale {
        say!("node packages in {dir}/ already installed (package-lock.json unchanged)");
        return Ok(());
    }
    let ci = ctx
        .cmd("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .dir(ctx.at(dir));
    say!("installing node packages in {dir}/ ({ci})");
    let took = ci.run_timed()?;
    fs::write(
        &stamp,
        "npm ci done; xtask reruns it when package-lock.json is newer\n",
    )
    .map_err(|e| Error::new(format!("cannot write {}: {e}", stamp.display())))?;
    say!("installed node packages in {dir}/ in {}", human(took));
    Ok(())
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Debian's Chromium and a CJK font, installed with apt-get when xtask runs as root.
fn chromium(ctx: &Ctx) -> Result {
    let mut missing: Vec<&str> = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        missing.extend(BROWSER_PACKAGES);
    } else if !debian_package_installed(ctx, "fonts-noto-cjk") {
        missing.push("fonts-noto-cjk");
    }
    if missing.is_empty() {
        let version = ctx
            .cmd(CHROMIUM)
            .arg("--version")
            .probe()
            .unwrap_or_default();
        say!("chromium already installed ({CHROMIUM}: {version})");
        return Ok(());
    }
    let list = missing.join(" ");
    if !is_root(ctx) {
        return Err(Error::new(format!(
            "the browser tests need the Debian packages {list} (missing); install them as root: \
             apt-get update && apt-get install -y {list}"
        )));
    }
    let update = ctx.cmd("apt-get").args(["update"]);
    let install = ctx
        .cmd("apt-get")
        .args(["install", "-y"])
        .args(&missing)
        .env("DEBIAN_FRONTEND", "noninteractive");
    say!("installing {list} ({update}; {install})");
    let took = update.run_timed()? + install.run_timed()?;
    if !Path::new(CHROMIUM).exists() {
        return Err(Error::new(format!(
            "apt-get installed {list} but {CHROMIUM} is still missing"
        )));
    }
    say!("installed {list} in {}", human(took));
    Ok(())
}

/// Whether dpkg knows the package as installed; true where there is no dpkg to ask
/// (not Debian: the font is then the person's business).
fn debian_package_installed(ctx: &Ctx, package: &str) -> bool {
    let status = ctx
        .cmd("dpkg-query")
        .args(["--show", "--showformat=${Status}", package])
        .probe();
    match status {
        Some(s) => s == "install ok installed",
        None => ctx.cmd("dpkg-query").arg("--version").probe().is_none(),
    }
}

fn is_root(ctx: &Ctx) -> bool {
    ctx.cmd("id").arg("-u").probe().as_deref() == Some("0")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.100"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "cfg-if",
]

[[package]]
name = "wasm-bindgen-backend"
version = "0.2.100"

[[package]]
name = "web-sys"
version = "0.3.77"
"#;

    /// The repository, from xtask's own folder.
    fn repository() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask is in the repository")
            .to_path_buf()
    }

    #[test]
    fn the_first_tool_folder_holds_the_wasm_bindgen_that_splits_the_app() {
        let shim = tool_path(&repository())[0].join("wasm-bindgen");
        let text = fs::read_to_string(&shim).unwrap_or_default();
        assert!(
            text.contains("wasm-split-cli"),
            "{} should run wasm-split-cli",
            shim.display()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&shim).map(|m| m.permissions().mode());
            assert!(
                mode.is_ok_and(|m| m & 0o111 != 0),
                "{} is not executable",
                shim.display()
            );
        }
    }

    #[test]
    fn trunk_hooks_run_the_build_scripts_and_no_shell_program() {
        let root = repository();
        let trunk_toml = fs::read_to_string(root.join("Trunk.toml")).expect("Trunk.toml");
        let value = |line: &str, key: &str| {
            let (k, v) = line.split_once('=')?;
            (k.trim() == key).then(|| v.trim().to_string())
        };
        let commands: Vec<String> = trunk_toml
            .lines()
            .filter_map(|l| value(l, "command"))
            .collect();
        let arguments: Vec<String> = trunk_toml
            .lines()
            .filter_map(|l| value(l, "command_arguments"))
            .collect();
        assert_eq!(commands, [r#""node""#], "one hook, a node script");
        assert_eq!(arguments.len(), 1);
        let script = arguments[0]
            .trim_matches(|c| c == '[' || c == ']')
            .trim_matches('"');
        assert!(
            script.starts_with("web/build/"),
            "{script} is not in web/build/"
        );
        assert!(root.join(script).is_file(), "{script} does not exist");
    }

    #[test]
    fn finds_the_locked_version_of_exactly_that_package() {
        assert_eq!(locked_versions(LOCK, "wasm-bindgen"), ["0.2.100"]);
        assert_eq!(locked_versions(LOCK, "web-sys"), ["0.3.77"]);
        assert!(locked_versions(LOCK, "leptos").is_empty());
    }
}
