//! Measures quantisation plans against the f32 checkpoint (`cargo xtask model` first):
//!
//! ```sh
//! cargo run --release -p attnlab-model --example quant_sweep -- [SET…]
//! ```
//!
//! Every plan runs the same 29 sentences as `tests/real_model.rs` (the numpy reference's
//! and the tokenizer corpus's) through the quantised model and the f32 one, and prints
//! the worst attention weight deviation over every head and sentence (and where: layer,
//! head, sentence), the worst per layer, and the lowest embedding cosine. The sets:
//!
//! - `sensitivity` (the default) and `word`: real assets. The f32 encoder is written by
//!   `asset::write` in memory with one group of matrices as int8 (the rest f32), loaded
//!   back and run; `current default` is the whole `default_plan` asset, gzipped with
//!   `gzip -9` (the others are mostly f32, their gzip size means nothing).
//! - `fake-word`, `front` and `fake:KIND=LEVELS,…`: schemes the asset format does not
//!   have yet, simulated. Each matrix of the checkpoint is quantised and dequantised in
//!   place (levels above 127, per-group scales, some word rows kept f32) and the f32
//!   model loaded from the result; the size is `gzip -9` of what an asset would hold:
//!   values of more than 8 bits as two planes (`q >> b` as i8, the low `b` bits as u8),
//!   the f32 scales, f32 rows, the small tensors and the vocabulary. It estimates the
//!   real `default_plan` asset at 19.96 MB gzip (measured: 19.79). In `fake:` the kinds
//!   are `word`, `pos` (position and token-type tables), `qk` (query and key), `vo`
//!   (value and attention output), `up` and `down` (the feed-forward matrices), each
//!   with the largest quantised magnitude (0: f32); `g=N` gives the layers' matrices a
//!   scale per group of N columns instead of row and column scales (`wg=N` the word
//!   table), `sp=1` keeps the special tokens' rows ([PAD], [UNK], [CLS], [SEP], [MASK])
//!   in f32.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use attnlab_model::asset::{self, Precision};
use attnlab_model::weights::{ColumnScaling, Matrix};
use attnlab_model::{About, AttentionOverride, Pretrained};
use serde_json::Value;

/// A matrix's group: what it is and its layer.
fn group(name: &str) -> (&'static str, Option<usize>) {
    let layer = name
        .strip_prefix("encoder.layer.")
        .and_then(|r| r.split('.').next())
        .and_then(|l| l.parse().ok());
    let kind = if name.contains("word_embeddings") {
        "word"
    } else if name.contains("position_embeddings") || name.contains("token_type") {
        "pos"
    } else if name.contains("self.query") || name.contains("self.key") {
        "qk"
    } else if name.contains("self.value") || name.contains("attention.output.dense") {
        "vo"
    } else if name.contains("intermediate.dense") {
        "up"
    } else {
        "down"
    };
    (kind, layer)
}

/// A rule: the groups it covers (empty: all), the layer (None: all), the precision.
type Rule = (&'static [&'static str], Option<usize>, Precision);

/// The rules of the plan being measured (first match wins; no match: f32).
static RULES: Mutex<Vec<Rule>> = Mutex::new(Vec::new());

fn sweep_plan(name: &str, m: &Matrix) -> Precision {
    if m.rows() < asset::INT8_MIN_ROWS {
        return Precision::F32;
    }
    let (kind, layer) = group(name);
    RULES
        .lock()
        .unwrap()
        .iter()
        .find(|(kinds, l, _)| {
            (kinds.is_empty() || kinds.contains(&kind)) && (l.is_none() || *l == layer)
        })
        .map(|r| r.2)
        .unwrap_or(Precision::F32)
}

fn int8(levels: u8) -> Precision {
    Precision::Int8 {
        levels,
        columns: ColumnScaling::Largest,
    }
}

fn gzip_size(bytes: &[u8]) -> usize {
    let mut child = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gzip");
    let mut stdin = child.stdin.take().unwrap();
    let data = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data).expect("to gzip"));
    let out = child.wait_with_output().expect("gzip output");
    writer.join().unwrap();
    out.stdout.len()
}

struct Reference {
    texts: Vec<String>,
    /// Per sentence: per layer, per head, the attention weights.
    heads: Vec<Vec<Vec<Vec<f32>>>>,
    embeddings: Vec<Vec<f32>>,
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (norm(a) * norm(b))
}

/// How far a model's attention and embeddings are from the reference's.
struct Deviation {
    /// The largest |ΔA| over every head of every sentence.
    worst: f32,
    /// Where it is: (layer, head, sentence).
    at: (usize, usize, usize),
    /// The lowest embedding cosine.
    lowest: f32,
    /// The largest |ΔA| of each layer.
    per_layer: Vec<f32>,
}

fn deviation(model: &Pretrained, reference: &Reference) -> Deviation {
    let (mut worst, mut at, mut lowest) = (0.0f32, (0, 0, 0), 1.0f32);
    let mut per_layer = vec![0.0f32; model.encoder().config().num_hidden_layers];
    for (s, text) in reference.texts.iter().enumerate() {
        let run = model.run(text, &AttentionOverride::default()).unwrap();
        for (l, layer) in run.forward.heads.iter().enumerate() {
            for (h, head) in layer.iter().enumerate() {
                let w = head
                    .weights
                    .iter()
                    .zip(&reference.heads[s][l][h])
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f32::max);
                per_layer[l] = per_layer[l].max(w);
                if w > worst {
                    (worst, at) = (w, (l, h, s));
                }
            }
        }
        lowest = lowest.min(cosine(&run.forward.embedding, &reference.embeddings[s]));
    }
    Deviation {
        worst,
        at,
        lowest,
        per_layer,
    }
}

/// One line of the sweep: the plan, its sizes, the deviation and the time it took.
fn report(label: &str, sizes: &str, d: &Deviation, start: Instant) {
    let layers: Vec<String> = d.per_layer.iter().map(|w| format!("{w:.4}")).collect();
    let (l, h, s) = d.at;
    println!(
        "{label:<34} {sizes}  worst {:.4} (L{l} H{h} s{s})  cos {:.6}  per layer [{}]  {:.1}s",
        d.worst,
        d.lowest,
        layers.join(" "),
        start.elapsed().as_secs_f64()
    );
}

fn measure(label: &str, f32m: &Pretrained, vocab: &str, reference: &Reference, gzip: bool) {
    let start = Instant::now();
    let bytes = asset::write(
        f32m.encoder(),
        asset::Vocabulary::WordPiece(vocab),
        &About::default(),
        sweep_plan,
    )
    .unwrap();
    let gz = if gzip {
        format!("{:>6.2}", gzip_size(&bytes) as f64 / 1e6)
    } else {
        "     -".into()
    };
    let model = Pretrained::from_asset(&bytes).unwrap();
    let sizes = format!("raw {:>6.2} MB  gzip {gz} MB", bytes.len() as f64 / 1e6);
    report(label, &sizes, &deviation(&model, reference), start);
}

fn plans(set: &str) -> Vec<(String, Vec<Rule>, bool)> {
    let all: &[&str] = &[];
    let mut out: Vec<(String, Vec<Rule>, bool)> = Vec::new();
    match set {
        "sensitivity" => {
            out.push((
                "current default".into(),
                vec![(&["word"], None, int8(63)), (all, None, int8(127))],
                true,
            ));
            for (g, kinds) in [
                ("word", &["word"][..]),
                ("pos", &["pos"][..]),
                ("qk", &["qk"][..]),
                ("vo", &["vo"][..]),
                ("up", &["up"][..]),
                ("down", &["down"][..]),
            ] {
                let levels = if g == "word" { 63 } else { 127 };
                out.push((
                    format!("only {g} @{levels}"),
                    vec![(kinds, None, int8(levels))],
                    false,
                ));
            }
            for l in 0..6 {
                out.push((
                    format!("only layer {l} @127"),
                    vec![(&["qk", "vo", "up", "down"], Some(l), int8(127))],
                    false,
                ));
            }
        }
        "word" => {
            for levels in [63, 31, 15, 7] {
                out.push((
                    format!("only word @{levels}"),
                    vec![(&["word"], None, int8(levels))],
                    false,
                ));
            }
        }
        _ => panic!("unknown set {set}"),
    }
    out
}

fn main() {
    let sets: Vec<String> = std::env::args().skip(1).collect();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/");
    let dir = format!("{root}model-cache/all-minilm-l6-v2/");
    let read =
        |p: &str| std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e} (run `cargo xtask model`)"));
    let text = |p: &str| String::from_utf8(read(p)).expect("UTF-8");
    let vocab = text(&format!("{dir}vocab.txt"));
    let f32m = Pretrained::from_hugging_face(
        &read(&format!("{dir}model.safetensors")),
        &text(&format!("{dir}config.json")),
        Some(&text(&format!("{dir}pooling_config.json"))),
        &vocab,
    )
    .expect("f32 checkpoint");
    let testdata = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/");
    let json =
        |f: &str| -> Value { serde_json::from_str(&text(&format!("{testdata}{f}"))).unwrap() };
    let (forward, corpus) = (json("forward.json"), json("wordpiece.json"));
    let texts: Vec<String> = forward["cases"]
        .as_array()
        .unwrap()
        .iter()
        .chain(corpus["cases"].as_array().unwrap())
        .map(|c| c["text"].as_str().unwrap().to_owned())
        .collect();
    let mut reference = Reference {
        texts: texts.clone(),
        heads: Vec::new(),
        embeddings: Vec::new(),
    };
    for t in &texts {
        let run = f32m.run(t, &AttentionOverride::default()).unwrap();
        reference.heads.push(
            run.forward
                .heads
                .iter()
                .map(|l| {
                    l.iter()
                        .map(|h| h.weights.iter().copied().collect())
                        .collect()
                })
                .collect(),
        );
        reference.embeddings.push(run.forward.embedding);
    }
    println!("{} sentences", texts.len());
    let files = (
        text(&format!("{dir}config.json")),
        text(&format!("{dir}pooling_config.json")),
        vocab.clone(),
    );
    let weights = read(&format!("{dir}model.safetensors"));
    let sets = if sets.is_empty() {
        vec!["sensitivity".to_owned()]
    } else {
        sets
    };
    let sets = sets.into_iter().flat_map(|set| {
        if set != "front" {
            return vec![set];
        }
        FRONT.iter().map(|p| format!("fake:{p}")).collect()
    });
    for set in sets {
        if set.starts_with("fake") {
            for (label, plan) in fake_plans(&set) {
                fake_measure(&label, &weights, &files, &reference, &plan);
            }
            continue;
        }
        for (label, rules, gzip) in plans(&set) {
            *RULES.lock().unwrap() = rules;
            measure(&label, &f32m, &vocab, &reference, gzip);
        }
    }
}

/// The measured trade-off between size and deviation (README, "What is measured").
const FRONT: &[&str] = &[
    "word=63,pos=127,qk=127,vo=127,up=127,down=127",
    "word=31,pos=0,qk=127,vo=127,up=127,down=127,sp=1,g=64",
    "word=31,pos=0,qk=255,vo=255,up=255,down=255,sp=1",
    "word=63,pos=0,qk=255,vo=255,up=255,down=255,sp=1,g=64",
    "word=127,pos=0,qk=1023,vo=1023,up=1023,down=1023,sp=1",
    "word=255,pos=0,qk=1023,vo=1023,up=1023,down=1023,sp=1",
    "word=1023,pos=1023,qk=1023,vo=1023,up=1023,down=1023",
];

/// How the fake-quantising sweep stores one matrix.
#[derive(Debug, Clone)]
struct Spec {
    /// Largest quantised magnitude (0: keep f32).
    levels: u32,
    /// Scales per group of this many columns within a row (0: per row, with column scales).
    group: usize,
    /// Rows kept as f32.
    exact_rows: Vec<usize>,
}

fn spec(levels: u32) -> Spec {
    Spec {
        levels,
        group: 0,
        exact_rows: Vec::new(),
    }
}

/// Quantises then dequantises `w` (`rows × cols`), returning what an asset would hold as
/// bytes (planes of at most 8 bits each, scales, f32 rows) for the gzip estimate.
fn fake(w: &mut [f32], _rows: usize, cols: usize, s: &Spec) -> Vec<u8> {
    if s.levels == 0 {
        return w.iter().flat_map(|v| v.to_le_bytes()).collect();
    }
    let top = s.levels as f32;
    let mut col = vec![1.0f32; cols];
    if s.group == 0 {
        col.fill(0.0);
        for row in w.chunks_exact(cols) {
            for (t, v) in col.iter_mut().zip(row) {
                *t = t.max(v.abs());
            }
        }
        col.iter_mut().filter(|t| **t == 0.0).for_each(|t| *t = 1.0);
    }
    let group = if s.group == 0 { cols } else { s.group };
    let mut q = Vec::with_capacity(w.len());
    let mut meta: Vec<u8> = col.iter().flat_map(|v| v.to_le_bytes()).collect();
    for (r, row) in w.chunks_exact_mut(cols).enumerate() {
        if s.exact_rows.contains(&r) {
            meta.extend(row.iter().flat_map(|v| v.to_le_bytes()));
            q.extend(std::iter::repeat_n(0i32, cols));
            continue;
        }
        for (g, chunk) in row.chunks_mut(group).enumerate() {
            let t = &col[g * group..g * group + chunk.len()];
            let largest = chunk
                .iter()
                .zip(t)
                .fold(0.0f32, |m, (v, t)| m.max((v / t).abs()));
            let scale = if largest > 0.0 { largest / top } else { 1.0 };
            meta.extend(scale.to_le_bytes());
            for (v, t) in chunk.iter_mut().zip(t) {
                let k = (*v / t / scale).round().clamp(-top, top);
                q.push(k as i32);
                *v = k * scale * t;
            }
        }
    }
    let mut bits = 0;
    while (s.levels >> bits) > 127 {
        bits += 1;
    }
    let mut out: Vec<u8> = q.iter().map(|k| (k >> bits) as i8 as u8).collect();
    if bits > 0 {
        out.extend(q.iter().map(|k| (k & ((1 << bits) - 1)) as u8));
    }
    out.extend(meta);
    out
}

type SpecFn = Box<dyn Fn(&str, usize, usize) -> Spec>;

fn fake_measure(
    label: &str,
    weights: &[u8],
    files: &(String, String, String),
    reference: &Reference,
    plan: &SpecFn,
) {
    use safetensors::{Dtype, SafeTensors, tensor::TensorView};
    let start = Instant::now();
    let st = SafeTensors::deserialize(weights).unwrap();
    let mut owned: Vec<(String, Dtype, Vec<usize>, Vec<u8>)> = Vec::new();
    let mut blob: Vec<u8> = Vec::new();
    let mut names = st.names();
    names.sort();
    for name in names {
        let v = st.tensor(name).unwrap();
        let shape = v.shape().to_vec();
        if v.dtype() != Dtype::F32 {
            owned.push((name.to_owned(), v.dtype(), shape, v.data().to_vec()));
            continue;
        }
        let mut w: Vec<f32> = v
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if shape.len() == 2 && shape[0] >= asset::INT8_MIN_ROWS {
            let s = plan(name, shape[0], shape[1]);
            blob.extend(fake(&mut w, shape[0], shape[1], &s));
        } else {
            blob.extend(v.data());
        }
        let bytes = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        owned.push((name.to_owned(), Dtype::F32, shape, bytes));
    }
    blob.extend(files.2.as_bytes());
    let raw = blob.len();
    let gz = gzip_size(&blob);
    let views: Vec<(String, TensorView<'_>)> = owned
        .iter()
        .map(|(n, d, s, b)| (n.clone(), TensorView::new(*d, s.clone(), b).unwrap()))
        .collect();
    let bytes = safetensors::serialize(views, None).unwrap();
    let model = Pretrained::from_hugging_face(&bytes, &files.0, Some(&files.1), &files.2).unwrap();
    let sizes = format!(
        "est raw {:>6.2} MB  gzip {:>6.2} MB",
        raw as f64 / 1e6,
        gz as f64 / 1e6
    );
    report(label, &sizes, &deviation(&model, reference), start);
}

fn fake_plans(set: &str) -> Vec<(String, SpecFn)> {
    let mut out: Vec<(String, SpecFn)> = Vec::new();
    let specials = vec![0, 100, 101, 102, 103];
    match set {
        "fake-word" => {
            for levels in [63u32, 31, 15] {
                out.push((
                    format!("word @{levels}"),
                    Box::new(move |n, _, _| {
                        if group(n).0 == "word" {
                            spec(levels)
                        } else {
                            spec(0)
                        }
                    }),
                ));
                let sp = specials.clone();
                out.push((
                    format!("word @{levels} specials f32"),
                    Box::new(move |n, _, _| {
                        if group(n).0 == "word" {
                            Spec {
                                exact_rows: sp.clone(),
                                ..spec(levels)
                            }
                        } else {
                            spec(0)
                        }
                    }),
                ));
            }
        }
        _ => {
            // e.g. "fake:word=31,pos=0,qk=1023,vo=1023,up=1023,down=1023,g=0,sp=1"
            let body = set.strip_prefix("fake:").expect("a set");
            let mut levels = std::collections::HashMap::new();
            let (mut g, mut wg, mut sp) = (0usize, 0usize, false);
            for kv in body.split(',') {
                let (k, v) = kv.split_once('=').unwrap();
                match k {
                    "g" => g = v.parse().unwrap(),
                    "wg" => wg = v.parse().unwrap(),
                    "sp" => sp = v == "1",
                    _ => {
                        levels.insert(k.to_owned(), v.parse::<u32>().unwrap());
                    }
                }
            }
            out.push((
                body.to_owned(),
                Box::new(move |n, _, _| {
                    let kind = group(n).0;
                    let l = *levels.get(kind).unwrap_or(&0);
                    Spec {
                        levels: l,
                        group: if kind == "word" { wg } else { g },
                        exact_rows: if sp && kind == "word" {
                            specials.clone()
                        } else {
                            Vec::new()
                        },
                    }
                }),
            ));
        }
    }
    out
}
