// Runs a wasm32-wasip1 program (here: a libtest test binary) under Node's WASI, so that
// `cargo test --target wasm32-wasip1` works with
//   CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings <repo>/xtask/wasi-run.mjs"
// (`cargo xtask test` sets that up).
//
// Usage: node wasi-run.mjs <program.wasm> [args...]
//
// Arguments and environment are passed through and the exit code is the program's.
// Files: relative paths resolve against the current directory (cargo runs a test with
// its package directory as the current directory, as natively), and absolute paths
// inside the Cargo workspace (e.g. built from `env!("CARGO_MANIFEST_DIR")`) work too.
// Nothing else of the file system is visible.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { WASI } from 'node:wasi';

const [wasmPath, ...args] = process.argv.slice(2);
if (!wasmPath) {
  console.error('usage: node wasi-run.mjs <program.wasm> [args...]');
  process.exit(2);
}

/** The nearest directory at or above `dir` holding a Cargo.lock, or `dir` itself. */
function workspaceRoot(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'Cargo.lock'))) return d;
    if (path.dirname(d) === d) return dir;
  }
}

const cwd = process.cwd();
const root = workspaceRoot(cwd);
// WASI programs start in "/", and wasi-libc resolves a path against the preopen with the
// longest matching prefix; "." counts as "/". Order matters for equal prefixes, so "." goes
// last: relative paths land in cwd, absolute ones under the workspace root in the root.
const preopens = { [root]: root, '.': cwd };

const wasi = new WASI({
  version: 'preview1',
  args: [wasmPath, ...args],
  env: process.env,
  preopens,
  returnOnExit: true,
});

let code;
try {
  const module = await WebAssembly.compile(await readFile(wasmPath));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  code = wasi.start(instance);
} catch (err) {
  // A Rust panic under wasm's panic=abort ends in an `unreachable` trap after the panic
  // message has been printed, so only say how the program ended.
  const why = err instanceof Error ? err.message : String(err);
  console.error(`wasi-run: ${path.basename(wasmPath)} aborted (${why})`);
  code = 101;
}
process.exit(code ?? 0);
