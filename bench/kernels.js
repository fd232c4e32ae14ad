// The in-page half of `cargo xtask bench` (items 1–3): attnlab's kernels built with and
// without SIMD128 (crates/attnlab-bench, served at /pkg-simd/ and /pkg-scalar/) against
// TensorFlow.js's wasm backend (single thread) on the same data. run.mjs calls
// `window.runKernels(options)` and gets every measurement back as plain data.
//
// Timing: performance.now() around a batch of `reps` calls, `reps` doubled until one batch
// takes ≥ minSampleMs (that, and warmUpMs more of batches, is the warm-up); then `samples`
// batches; the median batch time / reps is the result. forward.js (the forward rows) times
// with the same `measure` and shares the tfjs set-up.

import initSimd, * as simd from '/pkg-simd/attnlab_bench.js';

const tf = globalThis.tf;
const log = (...args) => console.log('[bench]', ...args);

// A seeded normal generator (mulberry32 + Box–Muller), so every run times the same data.
function normals(count, seed) {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - uniform()));
    const a = 2 * Math.PI * uniform();
    out[i] = r * Math.cos(a);
    if (i + 1 < count) out[i + 1] = r * Math.sin(a);
  }
  return out;
}

function head(n, d) {
  return { n, d, q: normals(n * d, 1000 + n), k: normals(n * d, 2000 + n), v: normals(n * d, 3000 + n) };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// `batch(reps)` does `reps` calls. Returns milliseconds per call (median of the samples).
export function measure(batch, opts) {
  let reps = 1;
  for (;;) {
    const t = performance.now();
    batch(reps);
    if (performance.now() - t >= opts.minSampleMs) break;
    reps *= 2;
  }
  const warmUntil = performance.now() + opts.warmUpMs;
  while (performance.now() < warmUntil) batch(reps);
  const perCall = [];
  for (let i = 0; i < opts.samples; i++) {
    const t = performance.now();
    batch(reps);
    perCall.push((performance.now() - t) / reps);
  }
  const sampleMs = perCall.map((ms) => ms * reps);
  return { ms: median(perCall), bestMs: Math.min(...perCall), reps, samples: perCall.length, minSampleMs: Math.min(...sampleMs) };
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

// TensorFlow.js: the same maths with its ops.
function tfSoftmaxAttention(q, k, v, scale) {
  return tf.tidy(() => tf.matMul(tf.softmax(tf.matMul(tf.mul(q, scale), k, false, true)), v));
}

function tfLinearElu1(q, k, v, one, eps) {
  return tf.tidy(() => {
    const phiQ = tf.add(tf.elu(q), one);
    const phiK = tf.add(tf.elu(k), one);
    const s = tf.matMul(phiK, v, true, false); // d × d
    const z = tf.sum(phiK, 0, true); // 1 × d
    const num = tf.matMul(phiQ, s); // n × d
    const den = tf.add(tf.matMul(phiQ, z, false, true), eps); // n × 1
    return tf.div(num, den);
  });
}

// Once per page: the kernel rows and the forward rows (forward.js) share the backend.
let tfSetUp = null;
export function setUpTf() {
  tfSetUp ??= configureTf();
  return tfSetUp;
}

async function configureTf() {
  // Single thread, whatever the page could do: no SharedArrayBuffer here anyway (the page
  // is not cross-origin isolated), and the flag makes it explicit.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.wasm.setWasmPaths('/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  await tf.setBackend('wasm');
  await tf.ready();
  return {
    backend: tf.getBackend(),
    version: tf.version_core,
    simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'),
    multithread: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    sharedArrayBuffer: typeof SharedArrayBuffer !== 'undefined',
  };
}

window.runKernels = async (options) => {
  const opts = { minSampleMs: 20, samples: 15, warmUpMs: 200, tolerance: 1e-4, ...options };
  await initSimd();
  // Imported here, not above: the forward rows (forward.js imports this module) need only
  // the SIMD build, which `--only forward` builds alone.
  const scalar = await import('/pkg-scalar/attnlab_bench.js');
  await scalar.default();
  const builds = {
    simd: { simd128: simd.simd128(), kernels: simd.kernel_path() },
    scalar: { simd128: scalar.simd128(), kernels: scalar.kernel_path() },
  };
  if (!builds.simd.simd128 || builds.scalar.simd128) {
    throw new Error(`wrong builds: ${JSON.stringify(builds)}`);
  }
  const tfInfo = await setUpTf();
  log('builds', JSON.stringify(builds), 'tfjs', JSON.stringify(tfInfo));

  const rows = [];
  const checks = [];
  const add = (row) => {
    rows.push(row);
    log(`${row.group} ${row.kernel} n=${row.n} ${row.engine}: ${row.ms.toFixed(3)} ms`);
  };
  const d = opts.d;

  // 3. The roof, first (so every kernel can be put against it).
  const roofIterations = 100_000;
  for (const [engine, mod] of [['attnlab simd', simd], ['attnlab scalar', scalar]]) {
    const flops = mod.roof_flops_per_iteration() * roofIterations;
    const m = measure((reps) => mod.roof(reps * roofIterations), opts);
    add({ group: 'roof', kernel: 'roof', n: null, engine, flops, ...m });
  }

  const one = tf.scalar(1);
  const eps = tf.scalar(1e-6);

  // 1. Softmax attention.
  for (const n of opts.softmaxN) {
    const h = head(n, d);
    const ws = new simd.Workload(h.q, h.k, h.v, n, d);
    const wc = new scalar.Workload(h.q, h.k, h.v, n, d);
    const [q, k, v] = [h.q, h.k, h.v].map((x) => tf.tensor2d(x, [n, d]));
    const scale = tf.scalar(1 / Math.sqrt(d));
    const reference = ws.output(simd.Kernel.SoftmaxApp);
    const tfOut = tfSoftmaxAttention(q, k, v, scale);
    const diffs = {
      'attnlab simd streaming': maxAbsDiff(ws.output(simd.Kernel.SoftmaxStreaming), reference),
      'attnlab scalar': maxAbsDiff(wc.output(scalar.Kernel.SoftmaxApp), reference),
      'attnlab scalar streaming': maxAbsDiff(wc.output(scalar.Kernel.SoftmaxStreaming), reference),
      'tfjs-wasm': maxAbsDiff(tfOut.dataSync(), reference),
    };
    tfOut.dispose();
    checks.push({ group: 'softmax', n, against: 'attnlab simd (app path)', maxAbsDiff: diffs });
    for (const [name, diff] of Object.entries(diffs)) {
      if (!(diff <= opts.tolerance)) {
        throw new Error(`softmax n=${n}: ${name} differs from attnlab simd by ${diff} (> ${opts.tolerance})`);
      }
    }
    const flops = 4 * n * n * d;
    const qkFlops = 2 * n * n * d;
    const cases = [
      ['app', 'attnlab simd', (r) => ws.run(simd.Kernel.SoftmaxApp, r), flops],
      ['app', 'attnlab scalar', (r) => wc.run(scalar.Kernel.SoftmaxApp, r), flops],
      ['app', 'tfjs-wasm', (r) => {
        for (let i = 0; i < r; i++) tfSoftmaxAttention(q, k, v, scale).dispose();
      }, flops],
      ['streaming', 'attnlab simd', (r) => ws.run(simd.Kernel.SoftmaxStreaming, r), flops],
      ['streaming', 'attnlab scalar', (r) => wc.run(scalar.Kernel.SoftmaxStreaming, r), flops],
      ['qk', 'attnlab simd', (r) => ws.run(simd.Kernel.Scores, r), qkFlops],
      ['qk', 'attnlab scalar', (r) => wc.run(scalar.Kernel.Scores, r), qkFlops],
      ['qk', 'tfjs-wasm', (r) => {
        for (let i = 0; i < r; i++) tf.tidy(() => tf.matMul(tf.mul(q, scale), k, false, true)).dispose();
      }, qkFlops],
    ];
    for (const [kernel, engine, batch, fl] of cases) {
      add({ group: 'softmax', kernel, n, engine, flops: fl, ...measure(batch, opts) });
    }
    ws.free();
    wc.free();
    tf.dispose([q, k, v, scale]);
  }

  // 2. Linear attention, elu1.
  for (const n of opts.linearN) {
    const h = head(n, d);
    const ws = new simd.Workload(h.q, h.k, h.v, n, d);
    const wc = new scalar.Workload(h.q, h.k, h.v, n, d);
    const [q, k, v] = [h.q, h.k, h.v].map((x) => tf.tensor2d(x, [n, d]));
    const global = ws.output(simd.Kernel.LinearGlobal);
    const recurrent = ws.output(simd.Kernel.LinearRecurrent);
    const tfOut = tfLinearElu1(q, k, v, one, eps);
    const diffs = {
      'global: attnlab scalar': maxAbsDiff(wc.output(scalar.Kernel.LinearGlobal), global),
      'global: tfjs-wasm': maxAbsDiff(tfOut.dataSync(), global),
      'recurrent: attnlab scalar': maxAbsDiff(wc.output(scalar.Kernel.LinearRecurrent), recurrent),
      // The last query of the recurrence has seen every key, as the global state has.
      'recurrent last row: global': maxAbsDiff(recurrent.subarray((n - 1) * d), global.subarray((n - 1) * d)),
    };
    tfOut.dispose();
    checks.push({ group: 'linear', n, against: 'attnlab simd', maxAbsDiff: diffs });
    for (const [name, diff] of Object.entries(diffs)) {
      if (!(diff <= opts.tolerance)) {
        throw new Error(`linear n=${n}: ${name} differs from attnlab simd by ${diff} (> ${opts.tolerance})`);
      }
    }
    const flops = 4 * n * d * d;
    const cases = [
      ['global', 'attnlab simd', (r) => ws.run(simd.Kernel.LinearGlobal, r)],
      ['global', 'attnlab scalar', (r) => wc.run(scalar.Kernel.LinearGlobal, r)],
      ['global', 'tfjs-wasm', (r) => {
        for (let i = 0; i < r; i++) tfLinearElu1(q, k, v, one, eps).dispose();
      }],
      ['recurrent', 'attnlab simd', (r) => ws.run(simd.Kernel.LinearRecurrent, r)],
      ['recurrent', 'attnlab scalar', (r) => wc.run(scalar.Kernel.LinearRecurrent, r)],
    ];
    for (const [kernel, engine, batch] of cases) {
      add({ group: 'linear', kernel, n, engine, flops, ...measure(batch, opts) });
    }
    ws.free();
    wc.free();
    tf.dispose([q, k, v]);
  }
  tf.dispose([one, eps]);

  // 4. Issue 33's variants, each beside its peer in the same run (attnlab simd only).
  const softmaxFlops = (n) => 4 * n * n * d;
  const check = (group, n, against, diffs) => {
    checks.push({ group, n, against, maxAbsDiff: diffs });
    for (const [name, diff] of Object.entries(diffs)) {
      if (!(diff <= opts.tolerance)) {
        throw new Error(`${group} n=${n}: ${name} differs from ${against} by ${diff} (> ${opts.tolerance})`);
      }
    }
  };
  const timeAll = (group, n, cases) => {
    for (const [kernel, batch, flops, extra] of cases) {
      add({ group, kernel, n, engine: 'attnlab simd', flops, ...extra, ...measure(batch, opts) });
    }
  };

  // RoPE: one head with RoPE against the same head without, both built (Problem::new,
  // which turns q and k) and computed (compute_head); and the turn of q and k alone.
  {
    const n = opts.ropeN;
    const h = head(n, d);
    const w = new simd.Workload(h.q, h.k, h.v, n, d);
    const plain = w.output(simd.Kernel.SoftmaxApp);
    const rope = w.output(simd.Kernel.RopeBuilt);
    const wc = new scalar.Workload(h.q, h.k, h.v, n, d);
    check('rope', n, 'attnlab simd', {
      'built, no RoPE: the app path': maxAbsDiff(w.output(simd.Kernel.SoftmaxBuilt), plain),
      'with RoPE: attnlab scalar': maxAbsDiff(wc.output(scalar.Kernel.RopeBuilt), rope),
    });
    wc.free();
    // The turn must change the head, or the row times nothing.
    if (!(maxAbsDiff(rope, plain) > 1e-3)) throw new Error(`rope n=${n}: RoPE left the head unchanged`);
    timeAll('rope', n, [
      ['without', (r) => w.run(simd.Kernel.SoftmaxBuilt, r), softmaxFlops(n)],
      ['with', (r) => w.run(simd.Kernel.RopeBuilt, r), softmaxFlops(n)],
      ['turn', (r) => w.run(simd.Kernel.RopeTurn, r), null],
    ]);
    w.free();
  }

  // GQA: H = 8 query heads over G = 8 (MHA), 2 (GQA) and 1 (MQA) groups of keys and
  // values; per rep the problem is built (groups::share_key_values, Problem::new) and
  // every head computed; the row is per query head. Each head's output is checked
  // against a single head of its q and its group's k, v.
  {
    const n = opts.gqaN;
    const H = opts.gqaHeads;
    const size = n * d;
    const q = normals(H * size, 4000 + n);
    const k = normals(H * size, 5000 + n);
    const v = normals(H * size, 6000 + n);
    for (const G of opts.gqaGroups) {
      const w = new simd.GroupedWorkload(q, k.subarray(0, G * size), v.subarray(0, G * size), n, d, H, G);
      const diffs = {};
      for (let h = 0; h < H; h++) {
        const g = Math.floor((h * G) / H);
        const part = (x, i) => x.subarray(i * size, (i + 1) * size);
        const single = new simd.Workload(part(q, h), part(k, g), part(v, g), n, d);
        diffs[`head ${h} (group ${g})`] = maxAbsDiff(w.output(h), single.output(simd.Kernel.SoftmaxApp));
        single.free();
      }
      check('gqa', n, `one head of its q and its group's k, v (G = ${G})`, diffs);
      const kvBytesPerToken = w.kv_bytes_per_token();
      timeAll('gqa', n, [[`G=${G}`, (r) => w.run(r), H * softmaxFlops(n), { heads: H, groups: G, kvBytesPerToken }]]);
      // Per query head.
      const row = rows[rows.length - 1];
      row.msPerHead = row.ms / H;
      w.free();
    }
  }

  // Tiled softmax (tiles: B) against plain softmax, both by compute_head.
  {
    const n = opts.tiledN;
    const h = head(n, d);
    const w = new simd.Workload(h.q, h.k, h.v, n, d);
    const plain = w.output(simd.Kernel.SoftmaxApp);
    check('tiled', n, 'attnlab simd (app path)', {
      'B = 64': maxAbsDiff(w.output(simd.Kernel.Tiled64), plain),
      'B = 128': maxAbsDiff(w.output(simd.Kernel.Tiled128), plain),
    });
    timeAll('tiled', n, [
      ['plain', (r) => w.run(simd.Kernel.SoftmaxApp, r), softmaxFlops(n)],
      ['B=64', (r) => w.run(simd.Kernel.Tiled64, r), softmaxFlops(n)],
      ['B=128', (r) => w.run(simd.Kernel.Tiled128, r), softmaxFlops(n)],
    ]);
    w.free();
  }

  // Decayed linear attention's recurrence (decayed::recurrent, called directly: γ =
  // simd.decay(), scaled dot product, causal) against causal elu1 (recurrent), one
  // n × d head each, no n × n buffer. Before timing, the first rows of the long run
  // against the parallel form (D ∘ QKᵀ/√d) V on those rows.
  {
    const n = opts.decayedN;
    const h = head(n, d);
    const w = new simd.Workload(h.q, h.k, h.v, n, d);
    const out = w.output(simd.Kernel.DecayedRecurrent);
    if (!out.every(Number.isFinite)) throw new Error(`decayed n=${n}: a non-finite output`);
    check('decayed', n, 'the parallel form on the first rows', {
      [`first ${opts.decayedCheckRows} rows`]: w.decayed_check(opts.decayedCheckRows),
    });
    const flops = 4 * n * d * d;
    timeAll('decayed', n, [
      ['elu1', (r) => w.run(simd.Kernel.LinearRecurrent, r), flops],
      ['decayed', (r) => w.run(simd.Kernel.DecayedRecurrent, r), flops, { decay: simd.decay() }],
    ]);
    w.free();
  }

  // The Transformer block (docs/maths.md §14): one post-LN GELU layer of width blockD
  // with blockHeads heads over n tokens at once; then a causal layer decoding decodeN
  // positions with its KV cache against recomputing the whole prefix at every step, both
  // checked against the parallel pass first.
  {
    const D = opts.blockD, H = opts.blockHeads;
    for (const n of opts.blockN) {
      const w = new simd.BlockWorkload(n, D, H, 1, false);
      // Projections, the feed-forward (4D wide) and the scores and weighted values.
      const flops = n * (2 * 4 * D * D + 2 * 2 * D * 4 * D) + 2 * 2 * n * n * D;
      timeAll('block', n, [['layer', (r) => w.run(r), flops, { d: D, heads: H }]]);
      w.free();
    }
    const n = opts.decodeN;
    const w = new simd.BlockWorkload(n, D, H, 1, true);
    const [decodeGap, recomputeGap] = w.gaps();
    check('decode', n, 'the parallel causal pass', { 'with the cache': decodeGap, recomputing: recomputeGap });
    const cacheBytes = w.cache_bytes();
    timeAll('decode', n, [
      ['cache', (r) => w.decode(r), null, { d: D, heads: H, cacheBytes }],
      ['recompute', (r) => w.recompute(r), null, { d: D, heads: H }],
    ]);
    w.free();
  }

  return { builds, tfjs: tfInfo, options: opts, checks, rows, leakedTensors: tf.memory().numTensors };
};

window.kernelsReady = true;
