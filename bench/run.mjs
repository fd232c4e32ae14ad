// The driver of `cargo xtask bench`: serves the benchmark page and the built app on
// 127.0.0.1, runs both in Debian's Chromium through playwright-core (never a downloaded
// browser), prints one table and writes it as JSON.
//
//   node bench/run.mjs [--out target/bench/report.json] [--quick]
//
// Expects (cargo xtask bench builds them): target/bench/pkg-simd and target/bench/pkg-scalar
// (crates/attnlab-bench through wasm-bindgen --target web, with and without SIMD128) and
// dist/ (trunk build --release). --quick runs smaller sizes, for trying the harness out.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import { chromium } from 'playwright-core';

import { serveStatic } from '../end2end/serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const quick = flag('--quick');
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

const KERNEL_OPTIONS = quick
  ? { d: 64, softmaxN: [128, 512], linearN: [1024, 16384], samples: 5, minSampleMs: 20, warmUpMs: 50 }
  : { d: 64, softmaxN: [128, 512, 2048], linearN: [1024, 16384, 65536], samples: 15, minSampleMs: 20, warmUpMs: 300 };
const INTERACTION = {
  changes: quick ? 10 : 50,
  warmUp: 5,
  // Until this long passes without a new paint mark, the change is still being painted.
  quietMs: 100,
  configs: [
    { label: '64 tokens', tokens: 64, heads: 8, dModel: 256, targetP95: 16 },
    { label: '512 tokens', tokens: 512, heads: 8, dModel: 256, targetP95: 100 },
  ],
};
const LOADS = quick ? 2 : 5;
const TARGETS = { mainWasmGzipKB: 400, firstPaintMs: 500, roofFraction: 0.5 };

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

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  // Nearest rank.
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const median = (xs) => percentile(xs, 50);

// ---------------------------------------------------------------------------- the app

// The lab's state as the link carries it (crates/attnlab-lab/src/fragment.rs): `#v1.` and
// base64url of JSON with short keys; leaving out `v` keeps the two default variants.
function fragment({ tokens, heads, dModel }) {
  const words = ['the', 'cat', 'sat', 'on', 'a', 'warm', 'mat', 'and', 'watched', 'birds', 'fly', 'past'];
  const text = Array.from({ length: tokens }, (_, i) => words[i % words.length]).join(' ');
  const json = JSON.stringify({ t: text, d: dModel, h: heads });
  return '#v1.' + Buffer.from(json).toString('base64url');
}

async function settle(page, quietMs) {
  await page.evaluate(async (quiet) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const count = () => performance.getEntriesByName('attnlab:paint', 'mark').length;
    let seen = count();
    let since = performance.now();
    while (performance.now() - since < quiet) {
      await frame();
      if (count() !== seen) {
        seen = count();
        since = performance.now();
      }
    }
  }, quietMs);
}

// Item 4: from a change of variant B's temperature to the last canvas painted for it.
async function interaction(browser, appOrigin, config) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(appOrigin + '/' + fragment(config));
  await page.waitForFunction(
    (n) => document.querySelectorAll(`canvas[data-rendered-tokens="${n}"]`).length > 0,
    config.tokens,
    { timeout: 60_000 },
  );
  await settle(page, INTERACTION.quietMs);
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
        const marks = () => performance.getEntriesByName('attnlab:paint', 'mark').filter((m) => m.startTime >= t0);
        let seen = marks().length;
        let since = performance.now();
        while (performance.now() - since < quiet) {
          await frame();
          if (marks().length !== seen) {
            seen = marks().length;
            since = performance.now();
          }
        }
        const all = marks();
        return all.length ? { ms: all[all.length - 1].startTime - t0, paints: all.length } : null;
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

// Item 5: navigation → first heatmap painted, each load in a fresh browser context (empty
// cache). "Painted" is the first canvas whose `data-rendered-tokens` becomes non-zero (the
// paint functions set it last, then the `attnlab:paint` mark; a canvas without a size yet
// is marked with 0 tokens, so the first mark alone could be an empty paint). Times count
// from the navigation start (performance.now()'s origin).
async function loads(browser, appOrigin) {
  const times = [];
  const firstMarks = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      window.__attnlabFirstHeatmap = null;
      new MutationObserver((records) => {
        if (window.__attnlabFirstHeatmap !== null) return;
        if (records.some((r) => Number(r.target.getAttribute('data-rendered-tokens')) > 0)) {
          window.__attnlabFirstHeatmap = performance.now();
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-rendered-tokens'] });
    });
    const page = await context.newPage();
    await page.goto(appOrigin + '/');
    const handle = await page.waitForFunction(() => window.__attnlabFirstHeatmap, null, { timeout: 60_000 });
    times.push(await handle.jsonValue());
    firstMarks.push(await page.evaluate(() => performance.getEntriesByName('attnlab:paint', 'mark')[0]?.startTime ?? null));
    await context.close();
  }
  const wasm = wasmIn(dist);
  const bytes = readFileSync(wasm);
  return {
    loads: times.length,
    firstPaintMs: median(times),
    samples: times,
    firstPaintMarkMs: firstMarks,
    mainWasm: path.relative(root, wasm),
    mainWasmBytes: bytes.length,
    mainWasmGzipBytes: zlib.gzipSync(bytes, { level: 9 }).length,
    gzip: 'node zlib, level 9',
  };
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

function derive(kernels) {
  const find = (group, kernel, n, engine) =>
    kernels.rows.find((r) => r.group === group && r.kernel === kernel && r.n === n && r.engine === engine);
  const roof = find('roof', 'roof', null, 'attnlab simd');
  const roofGflops = roof.flops / roof.ms / 1e6;
  for (const r of kernels.rows) {
    r.gflops = r.flops / r.ms / 1e6;
    r.roofFraction = r.gflops / roofGflops;
    const ours = find(r.group, r.kernel, r.n, 'attnlab simd');
    // How many times faster attnlab simd is than this row: the time ratio peer / attnlab
    // simd, as a GFLOP/s ratio so that the roofs (4 lanes against 1) compare too.
    r.simdSpeedup = ours && r !== ours ? ours.gflops / r.gflops : null;
  }
  return { roofGflops, find };
}

function targets(kernels, find, roofGflops, inter, load) {
  const out = [];
  const add = (name, met, measured) => out.push({ name, met, measured });
  for (const n of kernels.options.softmaxN) {
    const ours = find('softmax', 'app', n, 'attnlab simd');
    const tfjs = find('softmax', 'app', n, 'tfjs-wasm');
    const r = tfjs.ms / ours.ms;
    add(`softmax n=${n}: attnlab simd (app path) ≥ 1.0× tfjs-wasm`, r >= 1, `${r.toFixed(2)}× (${tfjs.ms.toFixed(3)} / ${ours.ms.toFixed(3)} ms)`);
  }
  for (const n of kernels.options.softmaxN.filter((n) => n >= 512)) {
    const ours = find('softmax', 'app', n, 'attnlab simd');
    const sc = find('softmax', 'app', n, 'attnlab scalar');
    const r = sc.ms / ours.ms;
    add(`softmax n=${n}: attnlab simd ≥ 3× attnlab scalar (app path)`, r >= 3, `${r.toFixed(2)}× (${sc.ms.toFixed(3)} / ${ours.ms.toFixed(3)} ms)`);
  }
  for (const n of kernels.options.linearN) {
    const ours = find('linear', 'global', n, 'attnlab simd');
    const tfjs = find('linear', 'global', n, 'tfjs-wasm');
    const r = tfjs.ms / ours.ms;
    add(`linear elu1 non-causal n=${n}: attnlab simd ≥ 1.0× tfjs-wasm`, r >= 1, `${r.toFixed(2)}× (${tfjs.ms.toFixed(3)} / ${ours.ms.toFixed(3)} ms)`);
  }
  const nMax = Math.max(...kernels.options.linearN);
  add(`linear elu1 n=${nMax} completes without an n×n buffer`, !!find('linear', 'global', nMax, 'attnlab simd'),
    `completed; an n×n f32 buffer would be ${((nMax * nMax * 4) / 2 ** 30).toFixed(0)} GiB, wasm32 memory is at most 4 GiB`);
  const qkN = Math.max(...kernels.options.softmaxN);
  const qk = find('softmax', 'qk', qkN, 'attnlab simd');
  // Medians against medians decide; the best samples are shown too, since a busy machine
  // slows the short roof loop and the long kernel by different factors.
  const roof = find('roof', 'roof', null, 'attnlab simd');
  const bestFraction = (qk.flops / qk.bestMs) / (roof.flops / roof.bestMs);
  add(`Q·Kᵀ n=${qkN} ≥ ${TARGETS.roofFraction * 100}% of the roof`, qk.roofFraction >= TARGETS.roofFraction,
    `${(qk.roofFraction * 100).toFixed(0)}% (${qk.gflops.toFixed(2)} of ${roofGflops.toFixed(2)} GFLOP/s; ` +
      `best samples: ${(bestFraction * 100).toFixed(0)}%)`);
  for (const c of inter) {
    add(`interaction p95 at ${c.label} ≤ ${c.targetP95} ms`, c.p95 <= c.targetP95, `p95 ${c.p95.toFixed(1)} ms (p50 ${c.p50.toFixed(1)} ms)`);
  }
  add(`main wasm ≤ ${TARGETS.mainWasmGzipKB} KB gzip`, load.mainWasmGzipBytes <= TARGETS.mainWasmGzipKB * 1000,
    `${(load.mainWasmGzipBytes / 1000).toFixed(1)} KB (${(load.mainWasmBytes / 1000).toFixed(1)} KB raw)`);
  add(`first heatmap ≤ ${TARGETS.firstPaintMs} ms after navigation`, load.firstPaintMs <= TARGETS.firstPaintMs,
    `${load.firstPaintMs.toFixed(0)} ms (median of ${load.loads})`);
  return out;
}

const pad = (s, w) => String(s).padEnd(w);
const lpad = (s, w) => String(s).padStart(w);
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));

function table(report) {
  const lines = [];
  const { kernels, roofGflops } = report;
  lines.push(`attnlab bench — ${report.machine.cpu}, ${report.machine.nproc} cores, Chromium ${report.machine.chromium}, ${report.date}`);
  lines.push(`builds: simd ${report.builds.simd.simdInstructions} SIMD instructions (cfg simd128 = ${kernels.builds.simd.simd128}), ` +
    `scalar ${report.builds.scalar.simdInstructions} (cfg simd128 = ${kernels.builds.scalar.simd128}); ` +
    `tfjs-wasm ${kernels.tfjs.version}: ${report.builds.tfjsWasm.join(', ')} (SIMD ${kernels.tfjs.simd}, threads ${kernels.tfjs.multithread})`);
  lines.push(`timing: median of ${kernels.options.samples} samples, each ≥ ${kernels.options.minSampleMs} ms, after warm-up; d = ${kernels.options.d}; ` +
    `"× slower" = this row's time / attnlab simd's (roofs: GFLOP/s ratio); GFLOP/s and % roof from the medians`);
  const load = (xs) => xs.map((x) => x.toFixed(1)).join(' ');
  lines.push(`load average (1, 5, 15 min) before: ${load(report.machine.loadBefore)}, after: ${load(report.machine.loadAfter)} on ${report.machine.nproc} cores`);
  const worst = (group) => Math.max(...kernels.checks.filter((c) => c.group === group).flatMap((c) => Object.values(c.maxAbsDiff)));
  lines.push(`agreement before timing (max |Δ| against attnlab simd, tolerance ${kernels.options.tolerance}): ` +
    `softmax ${worst('softmax').toExponential(1)}, linear ${worst('linear').toExponential(1)}`);
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
  };
  let last = null;
  for (const r of kernels.rows) {
    const key = `${r.group}/${r.kernel}`;
    const block = `${r.group}/${r.n}`;
    if (last && block !== last) lines.push('');
    last = block;
    lines.push(
      `${pad(names[key] ?? key, 26)}${lpad(r.n ?? '', 7)}  ${pad(r.engine, 16)}${lpad(fmtMs(r.ms), 10)}${lpad(fmtMs(r.bestMs), 10)}` +
        `${lpad(r.gflops.toFixed(2), 9)}${lpad((r.roofFraction * 100).toFixed(0) + '%', 8)}` +
        `${lpad(r.simdSpeedup == null ? '' : r.simdSpeedup.toFixed(2) + '×', 10)}`,
    );
  }
  lines.push('');
  lines.push(`roof: ${roofGflops.toFixed(2)} GFLOP/s (attnlab simd build, register-only f32x4 multiply + add, 12 chains)`);
  lines.push('');
  lines.push('interaction (variant B\'s τ changed → last canvas painted, performance marks), 8 heads, d_model 256, 2 variants:');
  for (const c of report.interaction) {
    lines.push(`  ${pad(c.label, 11)} p50 ${lpad(c.p50.toFixed(1), 6)} ms  p95 ${lpad(c.p95.toFixed(1), 6)} ms  max ${lpad(c.max.toFixed(1), 6)} ms  ` +
      `(${c.changes} changes, ${c.paintsPerChange} canvases painted per change)`);
  }
  const l = report.load;
  lines.push(`load: ${l.mainWasm} ${(l.mainWasmBytes / 1000).toFixed(1)} KB, ${(l.mainWasmGzipBytes / 1000).toFixed(1)} KB gzip (${l.gzip}); ` +
    `navigation → first heatmap painted: median ${l.firstPaintMs.toFixed(0)} ms of ${l.loads} cold loads (${l.samples.map((t) => t.toFixed(0)).join(', ')})`);
  lines.push('');
  lines.push('targets:');
  for (const t of report.targets) lines.push(`  ${t.met ? 'met   ' : 'MISSED'}  ${pad(t.name, 58)} ${t.measured}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------- main

async function main() {
  for (const dir of [pkg.simd, pkg.scalar]) {
    if (!existsSync(path.join(dir, 'attnlab_bench.js'))) throw new Error(`${dir}/attnlab_bench.js is missing: run cargo xtask bench`);
  }
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('dist/index.html is missing: run cargo xtask bench');
  const builds = {
    simd: { wasm: path.relative(root, wasmIn(pkg.simd)), simdInstructions: simdInstructions(wasmIn(pkg.simd)) },
    scalar: { wasm: path.relative(root, wasmIn(pkg.scalar)), simdInstructions: simdInstructions(wasmIn(pkg.scalar)) },
  };
  if (builds.scalar.simdInstructions !== 0) throw new Error(`the scalar build has ${builds.scalar.simdInstructions} SIMD instructions`);
  if (builds.simd.simdInstructions === 0) throw new Error('the SIMD build has no SIMD instructions');
  console.error(`[bench] simd build: ${builds.simd.simdInstructions} SIMD instructions; scalar build: none`);

  const benchServer = await serveStatic([
    ['/pkg-simd/', pkg.simd],
    ['/pkg-scalar/', pkg.scalar],
    ['/node_modules/', path.join(here, 'node_modules')],
    ['/', here],
  ]);
  const appServer = await serveStatic([['/', dist]]);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  try {
    const loadBefore = os.loadavg();
    const page = await (await browser.newContext()).newPage();
    const wasmFetched = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.wasm')) wasmFetched.push(new URL(r.url()).pathname);
    });
    page.on('console', (m) => console.error(m.text()));
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(origin(benchServer) + '/index.html');
    await page.waitForFunction(() => window.kernelsReady === true, null, { timeout: 30_000 }).catch(() => {
      throw new Error(`the benchmark page did not load: ${pageErrors.join('; ') || 'no error reported'}`);
    });
    console.error('[bench] items 1–3: kernels (this takes a few minutes)');
    const kernels = await page.evaluate((o) => window.runKernels(o), KERNEL_OPTIONS);
    builds.tfjsWasm = wasmFetched.filter((p) => p.includes('tfjs-backend-wasm')).map((p) => path.posix.basename(p));
    const { roofGflops, find } = derive(kernels);

    console.error('[bench] item 4: interaction');
    const inter = [];
    for (const config of INTERACTION.configs) inter.push(await interaction(browser, origin(appServer), config));
    console.error('[bench] item 5: load');
    const load = await loads(browser, origin(appServer));

    const report = {
      format: 'attnlab-bench/1',
      date: new Date().toISOString(),
      machine: { ...machine(browser.version()), loadBefore, loadAfter: os.loadavg() },
      quick,
      builds,
      roofGflops,
      kernels,
      interaction: inter,
      load,
    };
    report.targets = targets(kernels, find, roofGflops, inter, load);
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
