// Step 4 of the build (ARCHITECTURE.md, "The build"): Trunk.toml's one post_build hook.
// trunk has built every wasm (step 1, the app's with emit-relocs.rs), bound them (step 2,
// this folder's wasm-bindgen, which splits the app's lazy modules off), optimised them and
// written index.html (step 3) into its staging folder, which becomes dist/ after this
// script. Hooks of one stage run at the same time, and these steps write the same files,
// hence one hook that runs them in order:
//
//   a. the real models' assets (target/model/, written by `cargo xtask model`, not
//      committed) beside the app as model/…; a build without them works, and the model
//      choice says how to get them;
//   b. the app's lazily loaded modules into lazy-<hash>/, their loader among index.html's
//      preloads (lazy.mjs);
//   c. in release builds, the Content-Security-Policy in index.html (csp.mjs);
//   d. last, the service worker (sw.js, copied from web/sw.js by index.html) gets this
//      build's file list, lazy modules included, and a version hashed from the files, so
//      a new release installs its own cache whole and drops the old one. The model assets
//      are not listed (the model worker caches them itself).
//
//   TRUNK_STAGING_DIR=… TRUNK_PROFILE=release node web/build/post-build.mjs

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { addCsp } from './csp.mjs';
import { addLazyModules } from './lazy.mjs';

/** The real models' assets, as `cargo xtask model` names them in target/model/. */
const MODEL_ASSETS = ['all-minilm-l6-v2.q8.safetensors', 'multilingual-e5-small.q4.safetensors'];

/** a. Copies the model assets that exist into `staging`/model/. */
function copyModelAssets(staging) {
  const found = MODEL_ASSETS.map((name) => path.join('target', 'model', name)).filter((f) => existsSync(f));
  for (const file of found) {
    mkdirSync(path.join(staging, 'model'), { recursive: true });
    copyFileSync(file, path.join(staging, 'model', path.basename(file)));
  }
  return `post-build.mjs: ${found.length} model asset(s) in model/`;
}

/** Every file under `dir`, as a path relative to it with `/` between folders. */
function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : entry.isFile()
        ? [`${prefix}${entry.name}`]
        : [],
  );
}

/** d. Fills in sw.js's `__FILES__` and `__VERSION__` from the files in `staging`. */
function fillServiceWorker(staging) {
  const files = filesUnder(staging)
    .filter((f) => !f.startsWith('model/') && path.posix.basename(f) !== 'sw.js')
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(readFileSync(path.join(staging, f)));
  const version = hash.digest('hex').slice(0, 16);
  const sw = path.join(staging, 'sw.js');
  const text = readFileSync(sw, 'utf8');
  if (!text.includes('__FILES__') || !text.includes('__VERSION__')) {
    throw new Error(`post-build.mjs: ${sw} has no __FILES__ or __VERSION__ to fill in`);
  }
  const list = files.map((f) => JSON.stringify(f)).join(',');
  writeFileSync(sw, text.replace('__FILES__', () => list).replace('__VERSION__', () => version));
  return `post-build.mjs: sw.js lists ${files.length} files, version ${version}`;
}

const staging = process.env.TRUNK_STAGING_DIR;
const profile = process.env.TRUNK_PROFILE ?? 'debug';
try {
  if (!staging) throw new Error('post-build.mjs: TRUNK_STAGING_DIR is not set (run it as a trunk hook)');
  console.log(copyModelAssets(staging));
  console.log(await addLazyModules({ staging, profile, html: process.env.TRUNK_HTML_FILE ?? 'index.html' }));
  if (profile === 'release') console.log(addCsp(path.join(staging, 'index.html')));
  console.log(fillServiceWorker(staging));
} catch (error) {
  console.error(`web/build/post-build.mjs failed: ${error.message}`);
  process.exit(1);
}
