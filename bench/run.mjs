// The driver of `cargo xtask bench`: serves the benchmark page and the built app on
// 127.0.0.1, runs both in Debian's Chromium through playwright-core (never a downloaded
// browser), prints one table and writes it as JSON.
//
//   node bench/run.mjs [--out target/bench/report.json] [--quick] [--only SECTIONS]
//                      [--model-unavailable WHY]
//
// Expects (cargo xtask bench builds them): target/bench/pkg-simd and target/bench/pkg-scalar
// (crates/attnlab-bench through wasm-bindgen --target web, with and without SIMD128) and
// dist/ (trunk build --release); for the forward rows the model files of `cargo xtask model`
// (target/model-cache/all-minilm-l6-v2/ and target/model/), else those rows say "skipped".

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import { chromium } from 'playwright-core';

import { serveStatic } from '../end2end/serve.mjs';
import { DESKTOP, MAX_TOKENS, PHONE, median, openLab, openPage, percentile, settle, typing } from './page.mjs';
import { PHONE_TARGETS, TYPED, phoneTable, phoneTargets } from './phone.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const HELP = `usage: node bench/run.mjs [options]
  --out FILE               the JSON report (default target/bench/report.json)
  --quick                  smaller sizes and fewer samples, for trying the harness out
  --only SECTIONS          a comma-separated subset of: kernels (softmax and linear attention
                           against tfjs-wasm, the roof; RoPE, GQA, tiled softmax and decayed
                           linear attention against their peers), forward (the pretrained encoder's
                           forward pass against the same BERT from tfjs-wasm ops, its matrix
                           products against the roof, the int8 asset), app (interaction, load),
                           phone (load, interaction at 64 tokens and typing in a phone's
                           viewport with the CPU slowed 4×)
  --model-unavailable WHY  the model could not be had: the forward rows say "skipped: WHY"
`;
if (flag('--help') || flag('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}
const quick = flag('--quick');
const SECTIONS = ['kernels', 'forward', 'app', 'phone'];
const sections = new Set(option('--only', SECTIONS.join(',')).split(',').filter(Boolean));
for (const s of sections) {
  if (!SECTIONS.includes(s)) {
    process.stderr.write(`bench/run.mjs: unknown section ${s} in --only (one of ${SECTIONS.join(', ')})\n${HELP}`);
    process.exit(2);
  }
}
const modelUnavailable = option('--model-unavailable', null);
const outPath = path.resolve(root, option('--out', 'target/bench/report.json'));
const chromiumPath = process.env.ATTNLAB_CHROMIUM ?? '/usr/bin/chromium';
const wasmDis = process.env.ATTNLAB_WASM_DIS ?? path.join(root, 'end2end/node_modules/.bin/wasm-dis');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const pkg = {
  simd: path.join(root, 'target/bench/pkg-simd'),
  scalar: path.join(root, 'target/bench/pkg-scalar'),
};
const dist = path.join(root, 'dist');
// The files of `cargo xtask model` (xtask/src/model.rs: MODEL_DIR and ASSET).
const model = {
  dir: path.join(root, 'target/model-cache/all-minilm-l6-v2'),
  assetDir: path.join(root, 'target/model'),
  files: ['model.safetensors', 'config.json', 'vocab.txt'],
  asset: 'all-minilm-l6-v2.q8.safetensors',
};

// Issue 33's rows: RoPE and GQA (H = 8 query heads over G groups) at ropeN, gqaN; tiled
// softmax at tiledN; decayed linear attention's recurrence at decayedN, checked on its
// first decayedCheckRows rows against the parallel form.
const VARIANT_OPTIONS = { gqaHeads: 8, gqaGroups: [8, 2, 1], decayedCheckRows: 1024 };
// Issue 34's rows: one Transformer layer (d = blockD, blockHeads heads) at each of blockN
// tokens, and decoding decodeN positions with the KV cache against recomputing.
const BLOCK_OPTIONS = { blockN: [128, 512], blockD: 256, blockHeads: 8, decodeN: 256 };
const KERNEL_OPTIONS = quick
  ? { d: 64, softmaxN: [128, 512], linearN: [1024, 16384], ropeN: 128, gqaN: 128, tiledN: 512, decayedN: 16384,
      ...VARIANT_OPTIONS, ...BLOCK_OPTIONS, samples: 5, minSampleMs: 20, warmUpMs: 50 }
  : { d: 64, softmaxN: [128, 512, 2048], linearN: [1024, 16384, 65536], ropeN: 512, gqaN: 512, tiledN: 2048, decayedN: 65536,
      ...VARIANT_OPTIONS, ...BLOCK_OPTIONS, samples: 15, minSampleMs: 20, warmUpMs: 300 };
const INTERACTION = {
  changes: quick ? 10 : 50,
  warmUp: 5,
  // Until this long passes without a new paint mark, the change is still being painted.
  quietMs: 100,
  // 1,024 tokens is past the lab's limit (MAX_TOKENS, 512): the lab cuts the text there
  // and says so, and the row times what that costs; the growth exponent leaves it out.
  configs: [
    { label: '64 tokens', tokens: 64, heads: 8, dModel: 256, targetP95: 8 },
    { label: '128 tokens', tokens: 128, heads: 8, dModel: 256 },
    { label: '256 tokens', tokens: 256, heads: 8, dModel: 256 },
    { label: '512 tokens', tokens: 512, heads: 8, dModel: 256, targetP95: 50 },
    { label: '1,024 tokens', tokens: 1024, heads: 8, dModel: 256 },
  ],
};
// Typing on the desktop: a 508-token text, then words typed a character at a time up to
// 512 tokens (the lab's limit), each keystroke timed to its repaint; long tasks counted.
const DESKTOP_TYPING = { config: { label: '508 tokens', tokens: 508, heads: 8, dModel: 256 }, typed: ' and then the dog', targetP95Ms: 100, longTaskMs: 50 };
// The largest lab the controls allow, every page opened once: the main wasm memory after.
const LARGEST = { tokens: 512, heads: 16, dModel: 512, variants: 4, targetMB: 256 };
// Both sizes the issue names in either mode; --quick takes fewer samples.
const FORWARD_OPTIONS = quick
  ? { tokens: [16, 128], e5Tokens: [32, 128], samples: 5, minSampleMs: 20, warmUpMs: 100 }
  : { tokens: [16, 128], e5Tokens: [32, 128], samples: 15, minSampleMs: 50, warmUpMs: 500 };
const LOADS = quick ? 2 : 5;
const TARGETS = { mainWasmGzipKB: 400, firstPaintMs: 300, roofFraction: 0.5, forwardSpeedup: 1.0, modelFromCacheMs: 1500 };
// The kernels at n = 512 (d = 64) against the roof, and linear attention at its largest n.
const KERNEL_TARGETS = { n: 512, softmaxRoof: 0.6, qkRoof: 0.7, linearN: 65536, linearMs: 60 };

// ---------------------------------------------------------------------------- serving

// The static server the browser tests use too (end2end/serve.mjs).

const origin = (server) => `http://127.0.0.1:${server.address().port}`;

// ---------------------------------------------------------------------------- checks

// How many SIMD instructions a wasm file holds, from binaryen's text form.
function simdInstructions(file) {
  const text = execFileSync(wasmDis, [file], { maxBuffer: 1 << 30, encoding: 'utf8' });
  return text.split('\n').filter((l) => /\b(v128|[fi](8x16|16x8|32x4|64x2))\./.test(l)).length;
}

function wasmIn(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.wasm'));
  if (files.length === 0) throw new Error(`no .wasm in ${dir}: build first (cargo xtask bench)`);
  return files.map((f) => path.join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

// ---------------------------------------------------------------------------- the app

// Item 4: from a change of variant B's temperature to the last canvas painted for it.
async function interaction(browser, appOrigin, config, device = DESKTOP) {
  const { context, page, errors } = await openLab(browser, appOrigin, device, config, { quietMs: INTERACTION.quietMs, timeout: 60_000 });
  const setup = await page.evaluate(() => ({
    canvases: document.querySelectorAll('canvas').length,
    tokens: [...document.querySelectorAll('canvas[data-rendered-tokens]')].map((c) => Number(c.dataset.renderedTokens)),
    temperatureInputs: document.querySelectorAll('[data-testid=temperature-value]').length,
  }));
  if (setup.temperatureInputs < 2) throw new Error(`interaction: variant B has no temperature input (${JSON.stringify(setup)})`);
  const samples = [];
  const paints = [];
  for (let i = 0; i < INTERACTION.warmUp + INTERACTION.changes; i++) {
    const tau = (0.5 + 0.1 * ((i % 10) + 1)).toFixed(2);
    const r = await page.evaluate(
      async ({ tau, quiet }) => {
        performance.clearMarks('attnlab:paint');
        const input = document.querySelectorAll('[data-testid=temperature-value]')[1];
        const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
        const t0 = performance.now();
        input.value = tau;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
        await frame();
        await frame();
        const all = await window.attnlabPaintsSince(t0, quiet);
        return all.length ? { ms: all[all.length - 1] - t0, paints: all.length } : null;
      },
      { tau, quiet: INTERACTION.quietMs },
    );
    if (!r) throw new Error(`interaction ${config.label}: changing τ to ${tau} painted nothing`);
    if (i >= INTERACTION.warmUp) {
      samples.push(r.ms);
      paints.push(r.paints);
    }
  }
  await context.close();
  if (errors.length) throw new Error(`interaction ${config.label}: page errors: ${errors.join('; ')}`);
  return {
    ...config,
    device: device.label,
    changes: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    max: Math.max(...samples),
    paintsPerChange: median(paints),
    canvases: setup.canvases,
    renderedTokens: setup.tokens,
    samples,
  };
}

// The growth exponent of the interaction's p50 against n: the slope of log p50 on log n
// by least squares, over the rows the lab drew at their full size.
function growthExponent(rows) {
  const pts = rows.filter((c) => c.renderedTokens.includes(c.tokens)).map((c) => [Math.log(c.tokens), Math.log(c.p50)]);
  if (pts.length < 2) return null;
  const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
  const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
  const sxy = pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return { exponent: sxy / sxx, from: Math.min(...rows.map((c) => c.tokens)), to: Math.exp(Math.max(...pts.map(([x]) => x))), points: pts.length };
}

// The main wasm memory with the largest lab the controls allow (LARGEST), every page tab
// opened once: wasm memory only grows, so its size at the end is the peak. The memory is
// the one trunk's loader hands to `TrunkApplicationStarted`.
async function peakMemory(browser, appOrigin) {
  const init = () => {
    window.__attnlabMemory = null;
    addEventListener('TrunkApplicationStarted', (e) => { window.__attnlabMemory = e.detail?.wasm?.memory ?? null; });
  };
  const { context, page, errors } = await openLab(browser, appOrigin, DESKTOP, LARGEST, { quietMs: 300, init });
  const mb = () => page.evaluate(() => (window.__attnlabMemory ? window.__attnlabMemory.buffer.byteLength / 2 ** 20 : null));
  const steps = [{ step: 'lab, 2 variants', mb: await mb() }];
  for (let v = 2; v < LARGEST.variants; v++) {
    await page.getByTestId('add-variant').click();
    await settle(page, 300);
    steps.push({ step: `lab, ${v + 1} variants`, mb: await mb() });
  }
  const tabs = await page.locator('.page-tab').evaluateAll((els) => els.map((e) => e.dataset.testid));
  for (const tab of [...tabs.filter((t) => t !== 'page-lab'), 'page-lab']) {
    await page.getByTestId(tab).click();
    // A page other than the lab is a module of its own, fetched the first time it opens.
    await page.waitForFunction(() => !document.querySelector('.page-loading'), null, { timeout: 30_000 });
    await settle(page, 300);
    steps.push({ step: tab.replace(/^page-/, ''), mb: await mb() });
  }
  const variants = await page.locator('[data-testid=temperature-value]').count();
  await context.close();
  if (errors.length) throw new Error(`peak memory: page errors: ${errors.join('; ')}`);
  if (steps.some((s) => s.mb === null)) throw new Error('peak memory: the page never handed over its wasm memory (TrunkApplicationStarted)');
  if (variants !== LARGEST.variants) throw new Error(`peak memory: ${variants} variants on the page, not ${LARGEST.variants}`);
  return { ...LARGEST, peakMB: Math.max(...steps.map((s) => s.mb)), steps };
}

// Item 5: navigation → first heatmap painted, each load in a fresh browser context (empty
// cache). "Painted" is the first canvas whose `data-rendered-tokens` becomes non-zero (the
// paint functions set it last, then the `attnlab:paint` mark; a canvas without a size yet
// is marked with 0 tokens, so the first mark alone could be an empty paint). Times count
// from the navigation start (performance.now()'s origin).
async function loads(browser, appOrigin, device = DESKTOP) {
  const times = [];
  const firstMarks = [];
  for (let i = 0; i < LOADS; i++) {
    const { context, page } = await openPage(browser, device, () => {
      window.__attnlabFirstHeatmap = null;
      new MutationObserver((records) => {
        if (window.__attnlabFirstHeatmap !== null) return;
        if (records.some((r) => Number(r.target.getAttribute('data-rendered-tokens')) > 0)) {
          window.__attnlabFirstHeatmap = performance.now();
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-rendered-tokens'] });
    });
    await page.goto(appOrigin + '/');
    const handle = await page.waitForFunction(() => window.__attnlabFirstHeatmap, null, { timeout: 60_000 });
    times.push(await handle.jsonValue());
    firstMarks.push(await page.evaluate(() => performance.getEntriesByName('attnlab:paint', 'mark')[0]?.startTime ?? null));
    await context.close();
  }
  const wasm = wasmIn(dist);
  const bytes = readFileSync(wasm);
  // The lazily loaded modules (the explanatory pages, the text exports): fetched when first
  // used, never on the way to the first heatmap.
  const lazyDir = readdirSync(dist).find((f) => /^lazy-[0-9a-f]+$/.test(f));
  const lazy = lazyDir
    ? readdirSync(path.join(dist, lazyDir)).filter((f) => f.endsWith('.wasm')).map((f) => readFileSync(path.join(dist, lazyDir, f)))
    : [];
  return {
    device: device.label,
    loads: times.length,
    firstPaintMs: median(times),
    samples: times,
    firstPaintMarkMs: firstMarks,
    mainWasm: path.relative(root, wasm),
    mainWasmBytes: bytes.length,
    mainWasmGzipBytes: zlib.gzipSync(bytes, { level: 9 }).length,
    lazyModules: lazy.length,
    lazyBytes: lazy.reduce((sum, b) => sum + b.length, 0),
    lazyGzipBytes: lazy.reduce((sum, b) => sum + zlib.gzipSync(b, { level: 9 }).length, 0),
    gzip: 'node zlib, level 9',
  };
}

// The phone rows: load, the 64-token interaction and typing, on PHONE.
async function phone(browser, appOrigin) {
  const config = INTERACTION.configs.find((c) => c.tokens === PHONE_TARGETS.tokens);
  console.error(`[bench] phone: ${PHONE.context.viewport.width} × ${PHONE.context.viewport.height} CSS px, ` +
    `${PHONE.context.deviceScaleFactor}× pixels, CPU slowed ${PHONE.cpuSlowdown}×: load`);
  const load = await loads(browser, appOrigin, PHONE);
  console.error('[bench] phone: interaction at 64 tokens');
  const inter = await interaction(browser, appOrigin, config, PHONE);
  console.error('[bench] phone: typing');
  const typed = await typing(browser, appOrigin, PHONE, { config, typed: quick ? TYPED.quick : TYPED.full, quietMs: INTERACTION.quietMs });
  return { device: PHONE, load, interaction: inter, typing: typed };
}

// ---------------------------------------------------------------------------- report

function machine(browserVersion) {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':')[1].trim();
  } catch {}
  return {
    cpu,
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    chromium: browserVersion,
    node: process.version,
  };
}

// The commit measured: its hash, and whether files other than markdown differed from it
// (docs/benchmarks.md is rewritten from this report, so its own change does not count).
// null outside a git checkout.
function commit() {
  const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const hash = git('rev-parse', 'HEAD');
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)*.md');
    return { hash, dirty: changed !== '' };
  } catch {
    return null;
  }
}

function derive(kernels) {
  const find = (group, kernel, n, engine) =>
    kernels.rows.find((r) => r.group === group && r.kernel === kernel && r.n === n && r.engine === engine);
  const roof = find('roof', 'roof', null, 'attnlab simd');
  const roofGflops = roof.flops / roof.ms / 1e6;
  for (const r of kernels.rows) {
    // A row without a count of its arithmetic (RoPE's turn: sines and cosines) has none.
    r.gflops = r.flops ? r.flops / r.ms / 1e6 : null;
    r.roofFraction = r.flops ? r.gflops / roofGflops : null;
    const ours = find(r.group, r.kernel, r.n, 'attnlab simd');
    // How many times faster attnlab simd is than this row: the time ratio peer / attnlab
    // simd, as a GFLOP/s ratio so that the roofs (4 lanes against 1) compare too.
    r.simdSpeedup = ours && r !== ours && r.flops ? ours.gflops / r.gflops : null;
  }
  return { roofGflops, find };
}

// The forward rows: GFLOP/s and the share of the roof of the products, tfjs / attnlab.
function deriveForward(forward) {
  const find = (kernel, n, engine) => forward.rows.find((r) => r.kernel === kernel && r.n === n && r.engine === engine);
  const roof = find('roof', null, 'attnlab simd');
  forward.roofGflops = roof.flops / roof.ms / 1e6;
  for (const r of forward.rows) {
    if (r.flops) {
      r.gflops = r.flops / r.ms / 1e6;
      r.roofFraction = r.gflops / forward.roofGflops;
      r.bestRoofFraction = r.flops / r.bestMs / (roof.flops / roof.bestMs);
    }
    const ours = find('forward', r.n, 'attnlab simd');
    // How many times faster attnlab's f32 MiniLM forward pass is than this row (not
    // for the E5 rows: another model).
    r.speedup = r.kernel === 'forward' && r !== ours && ours && r.model !== 'e5' ? r.ms / ours.ms : null;
  }
  return find;
}

function forwardTargets(forward, add) {
  const find = (kernel, n, engine) => forward.rows.find((r) => r.kernel === kernel && r.n === n && r.engine === engine);
  for (const n of forward.options.tokens) {
    const ours = find('forward', n, 'attnlab simd');
    const tfjs = forward.rows.find((r) => r.kernel === 'forward' && r.n === n && r.fastestTfjs);
    const r = tfjs.ms / ours.ms;
    add(`forward.speedup-${n}`, `forward ${n} tokens: attnlab simd ≥ ${TARGETS.forwardSpeedup.toFixed(1)}× tfjs-wasm`,
      `≥ ${TARGETS.forwardSpeedup.toFixed(1)}× the faster tfjs-wasm`, r >= TARGETS.forwardSpeedup,
      `${r.toFixed(2)}× (${fmtMs(tfjs.ms)} / ${fmtMs(ours.ms)} ms; ${tfjs.engine}, the faster tfjs composition)`);
  }
  for (const n of forward.options.tokens) {
    const p = find('products', n, 'attnlab simd');
    add(`forward.products-${n}`, `forward ${n} tokens: matrix products ≥ ${TARGETS.roofFraction * 100}% of the roof`,
      `≥ ${TARGETS.roofFraction * 100}% of the roof`, p.roofFraction >= TARGETS.roofFraction,
      `${(p.roofFraction * 100).toFixed(0)}% (${p.gflops.toFixed(2)} of ${forward.roofGflops.toFixed(2)} GFLOP/s; ` +
        `best samples: ${(p.bestRoofFraction * 100).toFixed(0)}%)`);
  }
}

function targets(report) {
  const out = [];
  // id: `section.what`, stable (docs/benchmarks.md's table finds a target's row by it);
  // target: the threshold alone; met: true, false, or null when the rows were skipped.
  const add = (id, name, target, met, measured) => out.push({ id, name, target, met, measured });
  if (report.kernels) kernelTargets(report.kernels, report.findKernel, report.roofGflops, add);
  if (report.forward?.rows) forwardTargets(report.forward, add);
  if (report.forward?.skipped) {
    add('forward.skipped', 'forward 16 and 128 tokens: attnlab simd ≥ 1.0× tfjs-wasm, matrix products ≥ 50% of the roof',
      '≥ 1.0× tfjs-wasm, products ≥ 50% of the roof', null, `skipped: ${report.forward.skipped}`);
  }
  if (report.interaction) appTargets(report, add);
  if (report.phone) phoneTargets(report.phone, report.interaction, report.load, add);
  if (report.modelLoad) {
    const m = report.modelLoad;
    add('app.model-from-cache', `real model from the Cache API + first atlas ≤ ${TARGETS.modelFromCacheMs} ms after navigation`,
      `≤ ${TARGETS.modelFromCacheMs} ms`, m.cachedMs <= TARGETS.modelFromCacheMs,
      `${m.cachedMs.toFixed(0)} ms (median of ${m.loads}; from the network after the click: ${m.networkMs.toFixed(0)} ms)`);
  }
  return out;
}

function kernelTargets(kernels, find, roofGflops, add) {
  for (const n of kernels.options.softmaxN) {
    const ours = find('softmax', 'app', n, 'attnlab simd');
    const tfjs = find('softmax', 'app', n, 'tfjs-wasm');
    const r = tfjs.ms / ours.ms;
    add(`kernels.softmax-tfjs-${n}`, `softmax n=${n}: attnlab simd (app path) ≥ 1.0× tfjs-wasm`, '≥ 1.0× tfjs-wasm', r >= 1, `${r.toFixed(2)}× (${tfjs.ms.toFixed(3)} / ${ours.ms.toFixed(3)} ms)`);
  }
  for (const n of kernels.options.softmaxN.filter((n) => n >= 512)) {
    const ours = find('softmax', 'app', n, 'attnlab simd');
    const sc = find('softmax', 'app', n, 'attnlab scalar');
    const r = sc.ms / ours.ms;
    add(`kernels.softmax-scalar-${n}`, `softmax n=${n}: attnlab simd ≥ 3× attnlab scalar (app path)`, '≥ 3× attnlab scalar', r >= 3, `${r.toFixed(2)}× (${sc.ms.toFixed(3)} / ${ours.ms.toFixed(3)} ms)`);
  }
  for (const n of kernels.options.linearN) {
    const ours = find('linear', 'global', n, 'attnlab simd');
    const tfjs = find('linear', 'global', n, 'tfjs-wasm');
    const r = tfjs.ms / ours.ms;
    add(`kernels.linear-tfjs-${n}`, `linear elu1 non-causal n=${n}: attnlab simd ≥ 1.0× tfjs-wasm`, '≥ 1.0× tfjs-wasm', r >= 1, `${r.toFixed(2)}× (${tfjs.ms.toFixed(3)} / ${ours.ms.toFixed(3)} ms)`);
  }
  const nMax = Math.max(...kernels.options.linearN);
  add('kernels.linear-no-nxn', `linear elu1 n=${nMax} completes without an n×n buffer`, 'completes without an n×n buffer',
    !!find('linear', 'global', nMax, 'attnlab simd'),
    `completed; an n×n f32 buffer would be ${((nMax * nMax * 4) / 2 ** 30).toFixed(0)} GiB, wasm32 memory is at most 4 GiB`);
  const o = kernels.options;
  const plain = find('tiled', 'plain', o.tiledN, 'attnlab simd');
  for (const b of [64, 128]) {
    const tiled = find('tiled', `B=${b}`, o.tiledN, 'attnlab simd');
    const r = tiled.ms / plain.ms;
    add(`kernels.tiled-${b}`, `softmax tiled B=${b} n=${o.tiledN} ≤ 1.0× plain softmax`, 'tiled ≤ 1.0× plain', r <= 1,
      `${r.toFixed(2)}× (${tiled.ms.toFixed(3)} / ${plain.ms.toFixed(3)} ms)`);
  }
  add('kernels.decayed-no-nxn', `decayed linear (recurrent) n=${o.decayedN} completes without an n×n buffer`, 'completes without an n×n buffer',
    !!find('decayed', 'decayed', o.decayedN, 'attnlab simd'),
    `completed; its n×n weights would be ${((o.decayedN * o.decayedN * 4) / 2 ** 30).toFixed(0)} GiB as f32`);
  const cache = find('decode', 'cache', o.decodeN, 'attnlab simd');
  const recompute = find('decode', 'recompute', o.decodeN, 'attnlab simd');
  if (cache && recompute) {
    const r = recompute.ms / cache.ms;
    add('kernels.decode-cache', `decoding ${o.decodeN} positions with the KV cache faster than recomputing the prefix`, 'cache > 1.0× recomputing', r > 1,
      `${r.toFixed(1)}× (${recompute.ms.toFixed(1)} / ${cache.ms.toFixed(1)} ms)`);
  }
  const k = KERNEL_TARGETS;
  const atN = (kernel) => find('softmax', kernel, k.n, 'attnlab simd');
  if (atN('app') && atN('qk')) {
    for (const [kernel, what, fraction] of [['app', 'softmax attention (app path)', k.softmaxRoof], ['qk', 'Q·Kᵀ', k.qkRoof]]) {
      const r = atN(kernel);
      add(`kernels.${kernel}-roof`, `${what} n=${k.n} ≥ ${fraction * 100}% of the roof`, `≥ ${fraction * 100}% of the roof`, r.roofFraction >= fraction,
        `${(r.roofFraction * 100).toFixed(0)}% (${r.gflops.toFixed(2)} of ${roofGflops.toFixed(2)} GFLOP/s, ${r.ms.toFixed(3)} ms)`);
    }
  }
  const lin = find('linear', 'global', k.linearN, 'attnlab simd');
  if (lin) {
    add('kernels.linear-ms', `linear elu1 non-causal n=${k.linearN} ≤ ${k.linearMs} ms`, `≤ ${k.linearMs} ms`, lin.ms <= k.linearMs, `${lin.ms.toFixed(1)} ms (best sample ${lin.bestMs.toFixed(1)} ms)`);
  }
  const qkN = Math.max(...kernels.options.softmaxN);
  const qk = find('softmax', 'qk', qkN, 'attnlab simd');
  // Medians against medians decide; the best samples are shown too, since a busy machine
  // slows the short roof loop and the long kernel by different factors.
  const roof = find('roof', 'roof', null, 'attnlab simd');
  const bestFraction = (qk.flops / qk.bestMs) / (roof.flops / roof.bestMs);
  add('kernels.qk-roof-largest', `Q·Kᵀ n=${qkN} ≥ ${TARGETS.roofFraction * 100}% of the roof`, `≥ ${TARGETS.roofFraction * 100}% of the roof`,
    qk.roofFraction >= TARGETS.roofFraction,
    `${(qk.roofFraction * 100).toFixed(0)}% (${qk.gflops.toFixed(2)} of ${roofGflops.toFixed(2)} GFLOP/s; ` +
      `best samples: ${(bestFraction * 100).toFixed(0)}%)`);
}

function appTargets(report, add) {
  const { interaction: inter, load, typing: typed, memory } = report;
  for (const c of inter.filter((c) => c.targetP95 !== undefined)) {
    add(`app.interaction-${c.tokens}`, `interaction p95 at ${c.label} ≤ ${c.targetP95} ms`, `p95 ≤ ${c.targetP95} ms`, c.p95 <= c.targetP95, `p95 ${c.p95.toFixed(1)} ms (p50 ${c.p50.toFixed(1)} ms)`);
  }
  if (typed) {
    add('app.typing', `typing at ${DESKTOP_TYPING.config.tokens}–${MAX_TOKENS} tokens: keystroke → repainted p95 ≤ ${DESKTOP_TYPING.targetP95Ms} ms`,
      `p95 ≤ ${DESKTOP_TYPING.targetP95Ms} ms`,
      typed.paintedP95 <= DESKTOP_TYPING.targetP95Ms, `p95 ${typed.paintedP95.toFixed(1)} ms (p50 ${typed.paintedP50.toFixed(1)} ms)`);
    add('app.long-tasks', `typing at ${DESKTOP_TYPING.config.tokens}–${MAX_TOKENS} tokens: no task blocks input > ${DESKTOP_TYPING.longTaskMs} ms`,
      `none over ${DESKTOP_TYPING.longTaskMs} ms`,
      typed.longTasks.length === 0, typed.longTasks.length === 0 ? 'no long task' :
        `${typed.longTasks.length} long tasks, longest ${Math.max(...typed.longTasks).toFixed(0)} ms`);
  }
  if (memory) {
    add('app.memory', `peak wasm memory at 512 tokens, 16 heads, 4 variants ≤ ${memory.targetMB} MB`, `≤ ${memory.targetMB} MB`,
      memory.peakMB <= memory.targetMB,
      `${memory.peakMB.toFixed(0)} MB`);
  }
  add('app.main-wasm', `main wasm ≤ ${TARGETS.mainWasmGzipKB} KB gzip`, `≤ ${TARGETS.mainWasmGzipKB} KB gzip`,
    load.mainWasmGzipBytes <= TARGETS.mainWasmGzipKB * 1000,
    `${(load.mainWasmGzipBytes / 1000).toFixed(1)} KB (${(load.mainWasmBytes / 1000).toFixed(1)} KB raw)`);
  add('app.first-heatmap', `first heatmap ≤ ${TARGETS.firstPaintMs} ms after navigation`, `≤ ${TARGETS.firstPaintMs} ms`,
    load.firstPaintMs <= TARGETS.firstPaintMs,
    `${load.firstPaintMs.toFixed(0)} ms (median of ${load.loads})`);
}

const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));

function table(report) {
  const lines = [];
  const at = report.commit ? `, commit ${report.commit.hash.slice(0, 7)}${report.commit.dirty ? ' with uncommitted changes' : ''}` : '';
  lines.push(`attnlab bench — ${report.machine.cpu}, ${report.machine.nproc} cores, Chromium ${report.machine.chromium}, ${report.date}${at}` +
    (report.quick ? ' (--quick)' : ''));
  const load = (xs) => xs.map((x) => x.toFixed(1)).join(' ');
  lines.push(`load average (1, 5, 15 min) before: ${load(report.machine.loadBefore)}, after: ${load(report.machine.loadAfter)} on ${report.machine.nproc} cores`);
  const tfjs = report.kernels?.tfjs ?? report.forward?.tfjs;
  if (tfjs) {
    lines.push(`tfjs-wasm ${tfjs.version}: ${report.builds.tfjsWasm.join(', ')} (SIMD ${tfjs.simd}, threads ${tfjs.multithread})`);
  }
  if (report.kernels) kernelTable(report, lines);
  if (report.forward) forwardTable(report.forward, lines);
  if (report.interaction) appTable(report, lines);
  if (report.phone) phoneTable(report, lines);
  lines.push('');
  lines.push('targets:');
  for (const t of report.targets) lines.push(`  ${t.met === null ? 'skip  ' : t.met ? 'met   ' : 'MISSED'}  ${pad(t.name, 58)} ${t.measured}`);
  return lines.join('\n');
}

function kernelTable(report, lines) {
  const { kernels, roofGflops } = report;
  lines.push('');
  lines.push(`kernels — builds: simd ${report.builds.simd.simdInstructions} SIMD instructions (cfg simd128 = ${kernels.builds.simd.simd128}), ` +
    `scalar ${report.builds.scalar.simdInstructions} (cfg simd128 = ${kernels.builds.scalar.simd128})`);
  lines.push(`timing: median of ${kernels.options.samples} samples, each ≥ ${kernels.options.minSampleMs} ms, after warm-up; d = ${kernels.options.d}; ` +
    `"× slower" = this row's time / attnlab simd's (roofs: GFLOP/s ratio); GFLOP/s and % roof from the medians`);
  const worst = (group) => Math.max(...kernels.checks.filter((c) => c.group === group).flatMap((c) => Object.values(c.maxAbsDiff)));
  lines.push(`agreement before timing (max |Δ| against attnlab simd, tolerance ${kernels.options.tolerance}): ` +
    `softmax ${worst('softmax').toExponential(1)}, linear ${worst('linear').toExponential(1)}; ` +
    `RoPE ${worst('rope').toExponential(1)}, GQA (each head against one head of its group) ${worst('gqa').toExponential(1)}, ` +
    `tiled ${worst('tiled').toExponential(1)}, decayed (first ${kernels.options.decayedCheckRows} rows against (D∘QKᵀ/√d)V) ${worst('decayed').toExponential(1)}`);
  const gqa = kernels.rows.filter((r) => r.group === 'gqa');
  lines.push(`RoPE: Problem::new (turns q and k) + compute_head, against the same without RoPE; GQA: H = ${kernels.options.gqaHeads} query heads, ` +
    `per rep share_key_values + Problem::new + every head's compute_head, ms per query head: ` +
    gqa.map((r) => `G = ${r.groups} ${fmtMs(r.msPerHead)} ms (K/V ${r.kvBytesPerToken} B/token)`).join(', ') +
    `; decayed: decayed::recurrent called directly (γ = ${kernels.rows.find((r) => r.group === 'decayed' && r.decay)?.decay.toFixed(2)})`);
  lines.push('');
  const head = `${pad('kernel', 26)}${lpad('n', 7)}  ${pad('engine', 16)}${lpad('ms', 10)}${lpad('best ms', 10)}${lpad('GFLOP/s', 9)}${lpad('% roof', 8)}${lpad('× slower', 10)}`;
  lines.push(head);
  lines.push('-'.repeat(head.length));
  const names = {
    'roof/roof': 'roof (f32x4 mul+add)',
    'softmax/app': 'softmax (app path)',
    'softmax/streaming': 'softmax (streaming)',
    'softmax/qk': 'Q·Kᵀ only',
    'linear/global': 'linear elu1 non-causal',
    'linear/recurrent': 'linear elu1 causal (RNN)',
    'rope/without': 'head built, no RoPE',
    'rope/with': 'head built, RoPE',
    'rope/turn': 'RoPE turn of q, k alone',
    'gqa/G=8': 'H=8 heads, G=8 (MHA)',
    'gqa/G=2': 'H=8 heads, G=2 (GQA)',
    'gqa/G=1': 'H=8 heads, G=1 (MQA)',
    'tiled/plain': 'softmax plain (app path)',
    'tiled/B=64': 'softmax tiled B=64',
    'tiled/B=128': 'softmax tiled B=128',
    'decayed/elu1': 'linear elu1 causal (RNN)',
    'decayed/decayed': 'decayed linear (recurrent)',
  };
  let last = null;
  for (const r of kernels.rows) {
    const key = `${r.group}/${r.kernel}`;
    const block = `${r.group}/${r.n}`;
    if (last && block !== last) lines.push('');
    last = block;
    lines.push(
      `${pad(names[key] ?? key, 26)}${lpad(r.n ?? '', 7)}  ${pad(r.engine, 16)}${lpad(fmtMs(r.ms), 10)}${lpad(fmtMs(r.bestMs), 10)}` +
        `${lpad(r.gflops == null ? '' : r.gflops.toFixed(2), 9)}${lpad(r.roofFraction == null ? '' : (r.roofFraction * 100).toFixed(0) + '%', 8)}` +
        `${lpad(r.simdSpeedup == null ? '' : r.simdSpeedup.toFixed(2) + '×', 10)}`,
    );
  }
  lines.push('');
  lines.push(`roof: ${roofGflops.toFixed(2)} GFLOP/s (attnlab simd build, register-only f32x4: 6 multiply and 6 add chains)`);
}

function forwardTable(forward, lines) {
  lines.push('');
  if (forward.skipped) {
    lines.push(`forward pass (all-MiniLM-L6-v2): skipped: ${forward.skipped}`);
    return;
  }
  const c = forward.config;
  lines.push(`forward pass — ${forward.model} (${c.layers} layers × ${c.heads} heads, hidden ${c.hidden}, intermediate ${c.intermediate}), ` +
    `one sequence, single thread, wasm SIMD; median of ${forward.options.samples} samples, each ≥ ${forward.options.minSampleMs} ms, after warm-up`);
  lines.push('  attnlab simd: ForwardPass (attnlab-model, f32 checkpoint); tfjs-wasm: the same BERT from tfjs ops (matMul, softmax, moments, erf), ' +
    'same weights; int8: the asset the app runs; products: the Linear products alone (2·m·k·n FLOPs each)');
  if (forward.e5) {
    const f = forward.e5.fixture;
    lines.push(`  E5 q4 simd: ${forward.e5.model}, ${forward.e5.layers} layers × ${forward.e5.heads} heads, its asset parsed in ${forward.e5.parseMs.toFixed(0)} ms; ` +
      'its Q4_0 blocks widened to f32 256 rows at a time inside each product; ' +
      `against the numpy float64 fixture before timing: ${f.heads} heads within ${f.attentionMaxAbsDiff.toExponential(1)}, embedding cosine ≥ ${f.embeddingCosine.toFixed(7)}`);
  } else {
    lines.push('  E5 rows: skipped (no target/model/multilingual-e5-small.q4.safetensors; run `cargo xtask model`)');
  }
  lines.push('  tfjs-wasm (batched): the heads as one heads × n × d matMul; (per head): a 2-D matMul per head; weights pre-transposed to in × out, ' +
    'Kᵀ by a transpose (transposeB is slower in tfjs-wasm); the target takes the faster');
  const worstCosine = (k) => Math.min(...Object.values(k.tfjs).map((a) => a.embeddingCosine));
  const worstAttention = (k) => Math.max(...Object.values(k.tfjs).map((a) => a.attentionMaxAbsDiff));
  lines.push(`  agreement before timing (tfjs against attnlab f32; thresholds cosine > ${forward.agreement.cosine}, |Δ| ≤ ${forward.agreement.attention}): ` +
    forward.checks.map((k) =>
      `n=${k.n}: embedding cosine ≥ ${worstCosine(k).toFixed(7)}, layer ${k.attentionLayer} attention max |Δ| ${worstAttention(k).toExponential(1)}` +
        ` (int8 against f32: cosine ${k.int8EmbeddingCosine.toFixed(4)})`).join('; '));
  lines.push('');
  const head = `${pad('row', 22)}${lpad('n', 5)}  ${pad('engine', 24)}${lpad('ms', 10)}${lpad('best ms', 10)}${lpad('GFLOP/s', 9)}${lpad('% roof', 8)}${lpad('× slower', 10)}`;
  lines.push(head);
  lines.push('-'.repeat(head.length));
  const names = { 'roof': 'roof (f32x4 mul+add)', 'forward': 'forward pass', 'products': 'matrix products only' };
  let last;
  for (const r of forward.rows) {
    if (last !== undefined && r.n !== last) lines.push('');
    last = r.n;
    lines.push(
      `${pad(names[r.kernel] ?? r.kernel, 22)}${lpad(r.n ?? '', 5)}  ${pad(r.engine, 24)}${lpad(fmtMs(r.ms), 10)}${lpad(fmtMs(r.bestMs), 10)}` +
        `${lpad(r.gflops == null ? '' : r.gflops.toFixed(2), 9)}${lpad(r.roofFraction == null ? '' : (r.roofFraction * 100).toFixed(0) + '%', 8)}` +
        `${lpad(r.speedup == null ? '' : r.speedup.toFixed(2) + '×', 10)}`,
    );
  }
}

function appTable(report, lines) {
  lines.push('');
  lines.push('interaction (variant B\'s τ changed → last canvas painted, performance marks), 8 heads, d_model 256, 2 variants:');
  for (const c of report.interaction) {
    const cut = c.renderedTokens.includes(c.tokens) ? '' : `, cut to ${Math.max(...c.renderedTokens)} by the lab's limit`;
    lines.push(`  ${pad(c.label, 13)} p50 ${lpad(c.p50.toFixed(1), 6)} ms  p95 ${lpad(c.p95.toFixed(1), 6)} ms  max ${lpad(c.max.toFixed(1), 6)} ms  ` +
      `(${c.changes} changes, ${c.paintsPerChange} canvases painted per change${cut})`);
  }
  const g = report.growth;
  if (g) lines.push(`  growth of p50 with n: n^${g.exponent.toFixed(2)} (least squares on log–log, ${g.from}–${g.to.toFixed(0)} tokens, ${g.points} sizes)`);
  const k = report.typing;
  if (k) {
    lines.push(`typing (${k.keystrokes} keystrokes after ${k.tokensBefore} tokens, up to ${MAX_TOKENS}) → next painted frame: ` +
      `p50 ${k.nextFrameP50.toFixed(1)} ms  p95 ${k.nextFrameP95.toFixed(1)} ms; → last canvas painted: ` +
      `p50 ${k.paintedP50.toFixed(1)} ms  p95 ${k.paintedP95.toFixed(1)} ms; long tasks (> 50 ms): ${k.longTasks.length}` +
      (k.longTasks.length ? `, longest ${Math.max(...k.longTasks).toFixed(0)} ms` : ''));
  }
  const mem = report.memory;
  if (mem) {
    lines.push(`main wasm memory, ${mem.tokens} tokens, ${mem.heads} heads, d_model ${mem.dModel}, ${mem.variants} variants, every page opened once: ` +
      `peak ${mem.peakMB.toFixed(0)} MB (${mem.steps.map((s) => `${s.step} ${s.mb.toFixed(0)}`).join(', ')})`);
  }
  const l = report.load;
  lines.push(`load: ${l.mainWasm} ${(l.mainWasmBytes / 1000).toFixed(1)} KB, ${(l.mainWasmGzipBytes / 1000).toFixed(1)} KB gzip (${l.gzip}); ` +
    `${l.lazyModules} lazily loaded modules, ${(l.lazyBytes / 1000).toFixed(1)} KB, ${(l.lazyGzipBytes / 1000).toFixed(1)} KB gzip; ` +
    `navigation → first heatmap painted: median ${l.firstPaintMs.toFixed(0)} ms of ${l.loads} cold loads (${l.samples.map((t) => t.toFixed(0)).join(', ')})`);
  const m = report.modelLoad;
  if (m) {
    lines.push(`real model: click → asset from the network, parsed, atlas painted: median ${m.networkMs.toFixed(0)} ms; ` +
      `navigation → asset from the Cache API, atlas painted: median ${m.cachedMs.toFixed(0)} ms (${m.loads} loads each)`);
  } else {
    lines.push('real model: skipped (dist/ has no model asset: cargo xtask model)');
  }
  const e = report.e5Load;
  if (e) {
    lines.push(`multilingual-E5-small (4-bit): click → asset from the network, parsed, 12 × 12 atlas painted: median ${e.networkMs.toFixed(0)} ms; ` +
      `navigation → asset from the Cache API, atlas painted: median ${e.cachedMs.toFixed(0)} ms (${e.loads} loads each)`);
  } else if (report.interaction) {
    lines.push(`multilingual-E5-small: skipped (dist/ has no ${E5_ASSET}: cargo xtask model)`);
  }
}

/** multilingual-E5-small's asset, as `cargo xtask model` makes it and trunk copies it. */
const E5_ASSET = 'multilingual-e5-small.q4.safetensors';

// Why the forward rows cannot run, or null.
function forwardSkipped() {
  if (modelUnavailable) return `the model is unavailable (${modelUnavailable})`;
  const files = [...model.files.map((f) => path.join(model.dir, f)), path.join(model.assetDir, model.asset)];
  const missing = files.find((f) => !existsSync(f));
  return missing ? `${path.relative(root, missing)} is missing (cargo xtask model)` : null;
}

// Item 6: the real model. In a fresh context, choose it and time from the click to its
// atlas painted (the asset from the network, then kept in the Cache API); then open the
// page's link anew in the same context and time from navigation to the atlas painted
// (the asset from the cache). `null` when the build has no asset.
async function modelLoads(browser, appOrigin, checkpoint = { name: 'minilm-l6', asset: model.asset }) {
  if (!existsSync(path.join(dist, 'model', checkpoint.asset))) return null;
  const network = [];
  const cached = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(appOrigin + '/');
    await page.getByTestId('heatmap').waitFor();
    const start = await page.evaluate(() => performance.now());
    await page.getByTestId(`model-${checkpoint.name}`).check();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=atlas]')?.getAttribute('data-rendered-tokens')) > 0, null, { timeout: 120_000 });
    network.push((await page.evaluate(() => performance.now())) - start);
    const link = page.url();
    await page.close();
    const again = await context.newPage();
    await again.goto(link);
    await again.waitForFunction(() => Number(document.querySelector('[data-testid=atlas]')?.getAttribute('data-rendered-tokens')) > 0, null, { timeout: 120_000 });
    const fromCache = await again.getByTestId('model-status').getAttribute('data-from-cache');
    if (fromCache !== 'true') throw new Error('the second load of the model did not come from the Cache API');
    cached.push(await again.evaluate(() => performance.now()));
    await context.close();
  }
  return { loads: network.length, networkMs: median(network), cachedMs: median(cached), network, cached };
}

// ---------------------------------------------------------------------------- main

async function main() {
  const needed = [];
  if (sections.has('kernels') || sections.has('forward')) needed.push(pkg.simd);
  if (sections.has('kernels')) needed.push(pkg.scalar);
  for (const dir of needed) {
    if (!existsSync(path.join(dir, 'attnlab_bench.js'))) throw new Error(`${dir}/attnlab_bench.js is missing: run cargo xtask bench`);
  }
  if ((sections.has('app') || sections.has('phone')) && !existsSync(path.join(dist, 'index.html'))) throw new Error('dist/index.html is missing: run cargo xtask bench');
  const builds = {};
  for (const [name, dir] of Object.entries(pkg)) {
    if (existsSync(dir)) builds[name] = { wasm: path.relative(root, wasmIn(dir)), simdInstructions: simdInstructions(wasmIn(dir)) };
  }
  if (needed.includes(pkg.scalar) && builds.scalar.simdInstructions !== 0) throw new Error(`the scalar build has ${builds.scalar.simdInstructions} SIMD instructions`);
  if (needed.includes(pkg.simd) && builds.simd.simdInstructions === 0) throw new Error('the SIMD build has no SIMD instructions');
  if (builds.simd) console.error(`[bench] simd build: ${builds.simd.simdInstructions} SIMD instructions; scalar build: ${builds.scalar?.simdInstructions ?? 'not built'}`);

  const benchServer = await serveStatic([
    ['/pkg-simd/', pkg.simd],
    ['/pkg-scalar/', pkg.scalar],
    ['/node_modules/', path.join(here, 'node_modules')],
    // The model of `cargo xtask model`, for the forward rows.
    ['/model/', model.dir],
    ['/asset/', model.assetDir],
    // The committed numpy fixtures the E5 rows check the wasm forward pass against.
    ['/testdata/', path.join(root, 'crates/attnlab-model/testdata')],
    ['/', here],
  ]);
  const appServer = await serveStatic([['/', dist]]);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  try {
    const loadBefore = os.loadavg();
    const report = {
      format: 'attnlab-bench/3',
      date: new Date().toISOString(),
      commit: commit(),
      quick,
      sections: SECTIONS.filter((s) => sections.has(s)),
      builds,
    };
    if (sections.has('kernels') || sections.has('forward')) {
      const page = await (await browser.newContext()).newPage();
      const wasmFetched = [];
      page.on('request', (r) => {
        if (r.url().endsWith('.wasm')) wasmFetched.push(new URL(r.url()).pathname);
      });
      page.on('console', (m) => console.error(m.text()));
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      await page.goto(origin(benchServer) + '/index.html');
      await page.waitForFunction(() => window.kernelsReady === true && window.forwardReady === true, null, { timeout: 30_000 }).catch(() => {
        throw new Error(`the benchmark page did not load: ${pageErrors.join('; ') || 'no error reported'}`);
      });
      if (sections.has('kernels')) {
        console.error('[bench] items 1–3: kernels (this takes a few minutes)');
        report.kernels = await page.evaluate((o) => window.runKernels(o), KERNEL_OPTIONS);
        const { roofGflops, find } = derive(report.kernels);
        report.roofGflops = roofGflops;
        Object.defineProperty(report, 'findKernel', { value: find, enumerable: false });
      }
      if (sections.has('forward')) {
        const skipped = forwardSkipped();
        if (skipped) {
          console.error(`[bench] forward rows skipped: ${skipped}`);
          report.forward = { skipped };
        } else {
          console.error('[bench] forward pass: attnlab against tfjs-wasm ops, 16 and 128 tokens');
          report.forward = await page.evaluate((o) => window.runForward(o), FORWARD_OPTIONS);
          deriveForward(report.forward);
        }
      }
      builds.tfjsWasm = [...new Set(wasmFetched.filter((p) => p.includes('tfjs-backend-wasm')).map((p) => path.posix.basename(p)))];
      await page.context().close();
    }
    if (sections.has('app')) {
      console.error('[bench] item 4: interaction');
      report.interaction = [];
      for (const config of INTERACTION.configs) report.interaction.push(await interaction(browser, origin(appServer), config));
      report.growth = growthExponent(report.interaction);
      console.error('[bench] item 4b: typing at 508–512 tokens');
      report.typing = await typing(browser, origin(appServer), DESKTOP, { config: DESKTOP_TYPING.config, typed: DESKTOP_TYPING.typed, quietMs: INTERACTION.quietMs });
      console.error('[bench] item 4c: peak wasm memory at the largest settings');
      report.memory = await peakMemory(browser, origin(appServer));
      console.error('[bench] item 5: load');
      report.load = await loads(browser, origin(appServer));
      console.error('[bench] item 6: the real model, loaded and its atlas painted');
      report.modelLoad = await modelLoads(browser, origin(appServer));
      console.error('[bench] item 7: multilingual-E5-small, loaded and its atlas painted');
      report.e5Load = await modelLoads(browser, origin(appServer), { name: 'multilingual-e5-small', asset: E5_ASSET });
    }
    if (sections.has('phone')) {
      console.error('[bench] item 8: a phone');
      report.phone = await phone(browser, origin(appServer));
    }
    report.machine = { ...machine(browser.version()), loadBefore, loadAfter: os.loadavg() };
    report.targets = targets(report);
    const text = table(report);
    report.table = text;
    mkdirSync(path.dirname(outPath), { recursive: true });
    writeFileSync(outPath, JSON.stringify(report, null, 2) + '\n');
    console.log(text);
    console.error(`[bench] wrote ${path.relative(process.cwd(), outPath)}`);
  } finally {
    await browser.close();
    benchServer.close();
    appServer.close();
  }
}

main().catch((e) => {
  console.error(`bench/run.mjs: ${e.stack ?? e}`);
  process.exit(1);
});
