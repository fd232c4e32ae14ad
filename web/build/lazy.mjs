// Step 4b of the build (ARCHITECTURE.md, "The build"), called by post-build.mjs after the
// model assets and before the Content-Security-Policy and the service worker's list:
// puts the app's lazily loaded modules into the site, and their loader among
// index.html's preloads.
//
// wasm-bindgen (this folder's, step 2) split them off the app's wasm into
// <target>/wasm-bindgen/<profile>/split/lazy-<hash>/: one module per `#[lazy]` function,
// the modules they share, and __wasm_split.js, which fetches and instantiates them against
// the main module's memory and function table. This step copies that folder beside the
// app, optimises each module with the app's own wasm-opt level and features (read from
// index.html) in release builds, and points the loader at the main bindings' hashed name.

import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Why the step cannot be done. */
const fail = (message) => {
  throw new Error(`lazy.mjs: ${message}`);
};

/**
 * Adds the lazy modules to the site in `staging` (trunk's staging folder) for `profile`
 * ('release' or 'debug'); `html` is the source index.html, which names the app's wasm-opt
 * settings. Returns what it did, in a line.
 */
export async function addLazyModules({ staging, profile, html }) {
  const mainJs = readdirSync(staging).find((f) => /^attnlab-web-[0-9a-f]+\.js$/.test(f));
  if (!mainJs) fail(`no attnlab-web-<hash>.js in ${staging}`);
  const folder = readFileSync(path.join(staging, mainJs), 'utf8').match(/\.\/(lazy-[0-9a-f]{16})\/__wasm_split\.js/)?.[1];
  if (!folder) fail(`${mainJs} imports no lazy-<hash>/__wasm_split.js: was it bound by web/build/wasm-bindgen?`);

  const target = process.env.CARGO_TARGET_DIR ?? 'target';
  const source = path.join(target, 'wasm-bindgen', profile, 'split', folder);
  if (!existsSync(source)) fail(`${source} is missing: web/build/wasm-bindgen writes it`);
  const dest = path.join(staging, folder);
  cpSync(source, dest, { recursive: true });

  const loader = path.join(dest, '__wasm_split.js');
  const text = readFileSync(loader, 'utf8');
  if (!text.includes('"./attnlab-web.js"')) fail(`${loader} does not import ./attnlab-web.js`);
  writeFileSync(loader, text.replaceAll('"./attnlab-web.js"', `"../${mainJs}"`));

  const modules = readdirSync(dest).filter((f) => f.endsWith('.wasm'));
  if (profile === 'release') {
    // The app's <link data-trunk rel="rust" … data-bin="attnlab-web" …>: its level and features,
    // applied with binaryen's own API (the wasm-opt that trunk runs, npm binaryen 132), in one
    // process instead of one wasm-opt per module.
    const link = readFileSync(html, 'utf8').match(/<link[^>]*data-bin="attnlab-web"[^>]*>/s)?.[0];
    const level = link?.match(/data-wasm-opt="([^"]+)"/)?.[1];
    const params = link?.match(/data-wasm-opt-params="([^"]*)"/)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    // wasm-opt's -O<level> as (optimize level, shrink level).
    const levels = { 0: null, 1: [1, 0], 2: [2, 0], 3: [3, 0], 4: [4, 0], s: [2, 1], z: [2, 2] };
    if (!(level in levels)) fail(`index.html names no known data-wasm-opt for attnlab-web (${level})`);
    const { default: binaryen } = await import(new URL('../../end2end/node_modules/binaryen/index.js', import.meta.url));
    const named = {
      '--enable-simd': binaryen.Features.SIMD128,
      // wasm-opt's flag turns on both halves of the proposal.
      '--enable-bulk-memory': binaryen.Features.BulkMemory | binaryen.Features.BulkMemoryOpt,
      '--enable-nontrapping-float-to-int': binaryen.Features.NontrappingFPToInt,
      '--enable-sign-ext': binaryen.Features.SignExt,
      '--enable-mutable-globals': binaryen.Features.MutableGlobals,
      '--enable-reference-types': binaryen.Features.ReferenceTypes,
      '--enable-multivalue': binaryen.Features.Multivalue,
    };
    let features = binaryen.Features.MVP;
    for (const p of params) {
      if (!(p in named)) fail(`index.html passes ${p} to wasm-opt; lazy.mjs knows only ${Object.keys(named).join(' ')}`);
      features |= named[p];
    }
    if (levels[level]) {
      binaryen.setOptimizeLevel(levels[level][0]);
      binaryen.setShrinkLevel(levels[level][1]);
      for (const file of modules) {
        const wasm = path.join(dest, file);
        const module = binaryen.readBinary(withoutNames(readFileSync(wasm)));
        module.setFeatures(features);
        module.optimize();
        if (!module.validate()) fail(`${file} does not validate after optimisation`);
        writeFileSync(wasm, module.emitBinary());
        module.dispose();
      }
    }
  }
  // The loader is imported by the main bindings: fetched beside them (a modulepreload)
  // instead of after them, so the app's module graph, and the wasm's instantiation, do not
  // wait for one more round trip.
  const indexHtml = path.join(staging, 'index.html');
  const page = readFileSync(indexHtml, 'utf8');
  const preload = `<link rel="modulepreload" href="./${folder}/__wasm_split.js" crossorigin="anonymous">`;
  const bindings = new RegExp(`<link rel="modulepreload" href="\\./${mainJs.replaceAll('.', '\\.')}"[^>]*>`);
  if (!bindings.test(page)) fail(`index.html has no modulepreload of ${mainJs} to put the loader's beside`);
  if (!page.includes(preload)) writeFileSync(indexHtml, page.replace(bindings, (m) => `${m}${preload}`));

  const bytes = modules.reduce((sum, f) => sum + readFileSync(path.join(dest, f)).length, 0);
  return `lazy.mjs: ${modules.length} lazily loaded modules, ${(bytes / 1000).toFixed(0)} KB, in ${folder}/`;
}

// A module without its "name" custom section: the optimised module drops it anyway, and
// binaryen warns about every subsection of it wasm-split writes that it does not know.
function withoutNames(bytes) {
  const leb = (at) => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return [value, at];
  };
  const kept = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    const [size, body] = leb(at + 1);
    const end = body + size;
    let drop = false;
    if (bytes[at] === 0) {
      const [length, name] = leb(body);
      drop = Buffer.from(bytes.subarray(name, name + length)).toString() === 'name';
    }
    if (!drop) kept.push(bytes.subarray(at, end));
    at = end;
  }
  return Buffer.concat(kept);
}
