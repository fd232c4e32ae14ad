//! `attnlab block` checked through its JSON interface against an independent `f64`
//! implementation of the block written from the definitions (`block/reference.rs`):
//!
//! - generated documents: post-LN and pre-LN, ReLU and GELU, with and without a memory
//!   and a final norm, 1–3 layers, 1–4 heads, causal or not, biases or none; every
//!   weight and output within [`TOL`] of the reference;
//! - `--decode` prints what the parallel pass prints (within 1e-5 relative), and the
//!   cache's size at each step;
//! - hand-checkable cases: one token attends to itself with weight 1; post-LN rows have
//!   mean 0 and variance 1 before gain and bias; the feed-forward works on each token
//!   alone and permutes with them, attention mixes them; GELU(0) = 0, GELU(10) = 10;
//! - bad documents: exit status 2 and one line naming the bad value's path.
//!
//! Inputs are rounded to f32 before they are written, so the binary and the reference
//! read the same numbers.

mod common;
#[path = "block/hand.rs"]
mod hand;
#[path = "block/reference.rs"]
mod reference;

use serde_json::{Value, json};

use common::compare::{Tol, compare_tol};
use common::rng::Rng;
use common::{block_refused, block_result};

/// The agreed tolerance against the f64 reference: `max(1e-4, 1e-4 · |expected|)`.
const TOL: Tol = Tol {
    abs: 1e-4,
    rel: 1e-4,
};

/// `--decode` against the parallel pass: `max(1e-5 · |x|, 1e-6)`.
const DECODE_TOL: Tol = Tol {
    abs: 1e-6,
    rel: 1e-5,
};

/// What a generated document looks like.
#[derive(Clone, Copy, Debug)]
struct Shape {
    n: usize,
    d: usize,
    layers: usize,
    memory: Option<usize>,
    pre: bool,
    causal: bool,
    final_norm: bool,
}

fn vector(rng: &mut Rng, len: usize, sd: f64, around: f64) -> Vec<f64> {
    (0..len)
        .map(|_| common::rng::r32(around + rng.normal() * sd))
        .collect()
}

fn attention(rng: &mut Rng, d: usize, causal: bool) -> Value {
    let divisors: Vec<usize> = (1..=4).filter(|h| d.is_multiple_of(*h)).collect();
    let heads = rng.pick(&divisors);
    let sd = 1.0 / (d as f64).sqrt();
    let mut a = json!({
        "heads": heads,
        "w_q": rng.matrix(d, d, 1.5 * sd),
        "w_k": rng.matrix(d, d, 1.5 * sd),
        "w_v": rng.matrix(d, d, sd),
        "w_o": rng.matrix(d, d, sd),
    });
    if causal || rng.chance(0.3) {
        a["causal"] = json!(causal);
    }
    for b in ["b_q", "b_k", "b_v", "b_o"] {
        if rng.chance(0.5) {
            a[b] = json!(vector(rng, d, 0.1, 0.0));
        }
    }
    a
}

fn norm(rng: &mut Rng, d: usize) -> Value {
    json!({"gain": vector(rng, d, 0.2, 1.0), "bias": vector(rng, d, 0.1, 0.0)})
}

/// One random, valid document of `shape`.
fn document(rng: &mut Rng, shape: Shape) -> Value {
    let d = shape.d;
    let layers: Vec<Value> = (0..shape.layers)
        .map(|_| {
            let f = rng.range(1, 10);
            let mut ffn = json!({
                "w_1": rng.matrix(d, f, 1.0 / (d as f64).sqrt()),
                "w_2": rng.matrix(f, d, 1.0 / (f as f64).sqrt()),
                "activation": rng.pick(&["relu", "gelu"]),
            });
            if rng.chance(0.7) {
                ffn["b_1"] = json!(vector(rng, f, 0.1, 0.0));
                ffn["b_2"] = json!(vector(rng, d, 0.1, 0.0));
            }
            let mut layer = json!({
                "self": attention(rng, d, shape.causal),
                "ln_self": norm(rng, d),
                "ln_ffn": norm(rng, d),
                "ffn": ffn,
            });
            if shape.memory.is_some() {
                layer["cross"] = attention(rng, d, false);
                layer["ln_cross"] = norm(rng, d);
            }
            layer
        })
        .collect();
    let mut doc = json!({
        "format": "attnlab-block/1",
        "x": rng.matrix(shape.n, d, 1.0),
        "norm": if shape.pre { "pre" } else { "post" },
        "layers": layers,
    });
    if let Some(m) = shape.memory {
        doc["memory"] = json!(rng.matrix(m, d, 1.0));
    }
    if shape.final_norm {
        doc["final_norm"] = norm(rng, d);
    }
    if rng.chance(0.3) {
        doc["layer_norm_eps"] = json!(rng.pick(&[1e-6, 1e-5, 1e-3]));
    }
    doc
}

fn rows(m: &reference::Mat) -> Value {
    json!(m)
}

/// What the binary should print (without the cache).
fn expected_json(e: &reference::Expected) -> Value {
    let layers: Vec<Value> = e
        .layers
        .iter()
        .map(|l| {
            let mut v = json!({
                "self_attention": l.self_attention.iter().map(rows).collect::<Vec<_>>(),
                "output": rows(&l.output),
            });
            if let Some(c) = &l.cross_attention {
                v["cross_attention"] = json!(c.iter().map(rows).collect::<Vec<_>>());
            }
            v
        })
        .collect();
    json!({"format": "attnlab-block-result/1", "layers": layers, "output": rows(&e.output)})
}

/// The largest `|got − want|` over every number of `want`, relative to `max(1, |want|)`.
fn largest_deviation(got: &Value, want: &Value) -> f64 {
    match (got, want) {
        (Value::Array(g), Value::Array(w)) => g
            .iter()
            .zip(w)
            .map(|(g, w)| largest_deviation(g, w))
            .fold(0.0, f64::max),
        (Value::Object(g), Value::Object(w)) => w
            .iter()
            .filter_map(|(k, w)| g.get(k).map(|g| largest_deviation(g, w)))
            .fold(0.0, f64::max),
        (g, Value::Number(w)) => {
            let w = w.as_f64().unwrap();
            (g.as_f64().unwrap() - w).abs() / w.abs().max(1.0)
        }
        _ => 0.0,
    }
}

fn shapes(rng: &mut Rng, count: usize) -> Vec<Shape> {
    (0..count)
        .map(|i| Shape {
            n: rng.range(1, 6),
            d: rng.pick(&[1, 2, 4, 6, 8, 12]),
            layers: rng.range(1, 3),
            memory: (i % 2 == 1).then(|| rng.range(1, 5)),
            pre: i % 4 >= 2,
            causal: rng.chance(0.6),
            final_norm: rng.chance(0.5),
        })
        .collect()
}

#[test]
fn generated_documents_match_the_f64_reference() {
    let mut rng = Rng::new(0x5EED_B10C);
    let mut errors = Vec::new();
    let mut largest: f64 = 0.0;
    for (i, shape) in shapes(&mut rng, 48).into_iter().enumerate() {
        let doc = document(&mut rng, shape);
        let want = expected_json(&reference::run(&doc));
        let got = block_result(&doc, false);
        largest = largest.max(largest_deviation(&got, &want));
        let mut errs = Vec::new();
        compare_tol(&got, &want, TOL, "", &mut errs);
        if let Some(e) = errs.first() {
            errors.push(format!("case {i} {shape:?}: {e} ({} differ)", errs.len()));
        }
        let keys = got["layers"][0].as_object().unwrap().len();
        assert_eq!(keys, 2 + usize::from(shape.memory.is_some()), "case {i}");
    }
    eprintln!("largest deviation from the f64 reference: {largest:.3e}");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn decoding_prints_what_the_parallel_pass_prints_and_the_cache() {
    let mut rng = Rng::new(0x5EED_B10D);
    let mut largest: f64 = 0.0;
    for (i, shape) in shapes(&mut rng, 24).into_iter().enumerate() {
        let shape = Shape {
            causal: true,
            ..shape
        };
        let doc = document(&mut rng, shape);
        let parallel = block_result(&doc, false);
        let decoded = block_result(&doc, true);
        largest = largest.max(largest_deviation(&decoded, &parallel));
        let mut errs = Vec::new();
        compare_tol(&decoded, &parallel, DECODE_TOL, "", &mut errs);
        assert!(errs.is_empty(), "case {i} {shape:?}: {}", errs.join("\n"));
        let want = expected_json(&reference::run(&doc));
        let mut errs = Vec::new();
        compare_tol(&decoded, &want, TOL, "", &mut errs);
        assert!(
            errs.is_empty(),
            "case {i} against the reference: {}",
            errs.join("\n")
        );
        // One key row and one value row per layer and step, and the memory's once.
        let (layers, m) = (shape.layers, shape.memory.unwrap_or(0));
        let cache = decoded["cache"].as_array().unwrap();
        assert_eq!(cache.len(), shape.n);
        for (t, c) in cache.iter().enumerate() {
            let entries = 2 * layers * (t + 1) + 2 * layers * m;
            assert_eq!(
                c,
                &json!({"step": t, "entries": entries, "bytes": entries * shape.d * 4}),
                "case {i}"
            );
        }
        assert!(parallel.get("cache").is_none());
    }
    eprintln!("largest difference between --decode and the parallel pass: {largest:.3e}");
}

#[test]
fn decoding_needs_causal_self_attention() {
    let mut rng = Rng::new(0x5EED_B10E);
    let shape = Shape {
        n: 3,
        d: 4,
        layers: 2,
        memory: None,
        pre: false,
        causal: true,
        final_norm: false,
    };
    let mut doc = document(&mut rng, shape);
    doc["layers"][1]["self"]["causal"] = json!(false);
    assert_eq!(
        block_refused(&doc, true),
        "layers[1].self.causal: decoding one position at a time needs causal self-attention in every layer"
    );
    block_result(&doc, false);
}
