//! multilingual-E5-small's 4-bit asset against an independent numpy float64 forward pass
//! over the same dequantised blocks (`testdata/e5_forward.json`, written by
//! `testdata/e5_reference.py`), and the alignment one head draws between a Chinese
//! sentence and its English translation.
//!
//! These need `cargo xtask model` (the asset in `target/model/`, or
//! `ATTNLAB_E5_ASSET`); without it each test prints `skipped: …` and passes.
//! Run with `--nocapture` to see the measured deviations.

use std::path::PathBuf;

use attnlab_model::{AttentionOverride, Pretrained, Run};
use serde_json::Value;

/// The asset's f32 forward pass against numpy's float64 one over the same weights.
const TOLERANCE: f32 = 1e-4;

fn asset(test: &str) -> Option<Pretrained> {
    let path = std::env::var_os("ATTNLAB_E5_ASSET")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/model/multilingual-e5-small.q4.safetensors")
        });
    let Ok(bytes) = std::fs::read(&path) else {
        println!(
            "skipped: {test}: no asset at {} (run `cargo xtask model`)",
            path.display()
        );
        return None;
    };
    Some(Pretrained::from_asset(&bytes).expect("the E5 asset loads"))
}

fn reference() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/e5_forward.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("e5_forward.json")).expect("JSON")
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .expect("array")
        .iter()
        .flat_map(|x| match x.as_array() {
            Some(row) => row.iter().map(|y| y.as_f64().unwrap() as f32).collect(),
            None => vec![x.as_f64().unwrap() as f32],
        })
        .collect()
}

fn run_case(model: &Pretrained, case: &Value) -> Run {
    let text = case["text"].as_str().unwrap();
    let none = AttentionOverride::default();
    match case["pair"].as_str() {
        Some(b) => model.run_pair(text, b, &none),
        None => model.run(text, &none),
    }
    .expect("runs")
}

#[test]
fn attentions_and_embeddings_match_the_float64_reference() {
    let Some(model) = asset("E5 forward") else {
        return;
    };
    let (mut worst, mut lowest_cos, mut heads) = (0.0f32, 1.0f32, 0);
    for case in reference()["cases"].as_array().unwrap() {
        let run = run_case(&model, case);
        let ids: Vec<u32> = case["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(run.encoding.ids, ids, "ids of {}", case["text"]);
        for head in case["heads"].as_array().unwrap() {
            let (l, h) = (
                head["layer"].as_u64().unwrap() as usize,
                head["head"].as_u64().unwrap() as usize,
            );
            let got = &run.forward.heads[l][h].weights;
            let expected = floats(&head["weights"]);
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(&expected) {
                let d = (g - e).abs();
                worst = worst.max(d);
                assert!(
                    d <= TOLERANCE,
                    "{}: layer {l} head {h}: {g} vs {e}",
                    case["text"]
                );
            }
            heads += 1;
        }
        let e = floats(&case["embedding"]);
        let dot: f32 = e
            .iter()
            .zip(&run.forward.embedding)
            .map(|(a, b)| a * b)
            .sum();
        let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt();
        let cos = dot / norm;
        lowest_cos = lowest_cos.min(cos);
        assert!(cos >= 0.9999, "{}: embedding cosine {cos}", case["text"]);
    }
    println!(
        "E5 asset vs numpy float64: {heads} heads, worst attention deviation {worst:.2e}, lowest embedding cosine {lowest_cos:.7}"
    );
}

#[test]
fn one_head_aligns_the_chinese_sentence_with_its_translation() {
    let Some(model) = asset("E5 alignment") else {
        return;
    };
    let run = model
        .run_pair(
            "我的猫喜欢吃鱼",
            "My cat likes eating fish.",
            &AttentionOverride::default(),
        )
        .unwrap();
    let t = &run.encoding.tokens;
    let special: Vec<usize> = model
        .special_tokens(&run.encoding)
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.then_some(i))
        .collect();
    assert_eq!(special, [0, 7, 8, 16], "<s>, </s></s>, </s> of {t:?}");
    let at = |s: &str| {
        t.iter()
            .position(|x| x == s)
            .unwrap_or_else(|| panic!("{s} in {t:?}"))
    };
    let w = &run.forward.heads[5][5].weights;
    let mut line = String::new();
    for (zh, en, low) in [
        ("猫", "▁cat", 0.3),
        ("鱼", "▁fish", 0.3),
        ("喜欢", "▁like", 0.3),
    ] {
        let v = w[[at(zh), at(en)]];
        line.push_str(&format!("{zh} → {en}: {v:.3}  "));
        assert!(v > low, "{zh} → {en}: {v}");
    }
    println!("layer 5 head 5: {line}");
}

/// What lesson 4's last step (lessons/04-heads) says of the heads on its sentence.
#[test]
fn the_heads_lesson_4_names_do_what_it_says() {
    let Some(model) = asset("E5 heads of lesson 4") else {
        return;
    };
    let run = model
        .run(
            "注意力机制让模型关注句子中重要的词。",
            &AttentionOverride::default(),
        )
        .unwrap();
    let n = run.encoding.tokens.len();
    let heads = &run.forward.heads;
    // The share of the inner rows whose strongest key is `key(i)`.
    let share = |l: usize, h: usize, key: &dyn Fn(usize) -> usize| {
        let w = &heads[l][h].weights;
        let hits = (1..n - 1)
            .filter(|&i| {
                let row = w.row(i);
                let best = (0..n).max_by(|&a, &b| row[a].total_cmp(&row[b])).unwrap();
                best == key(i)
            })
            .count();
        hits as f64 / (n - 2) as f64
    };
    assert!(
        share(0, 2, &|i| i - 1) > 0.6,
        "layer 0 head 2: the token before"
    );
    assert!(
        share(1, 7, &|i| i + 1) > 0.6,
        "layer 1 head 7: the token after"
    );
    for h in [8, 10] {
        assert!(share(0, h, &|_| n - 1) > 0.6, "layer 0 head {h}: </s>");
    }
    // "More than half of the heads of the top three layers spread their weight": mean
    // normalised row entropy above 0.7.
    let spread = (9..12)
        .flat_map(|l| (0..12).map(move |h| (l, h)))
        .filter(|&(l, h)| {
            let w = &heads[l][h].weights;
            let mean = (1..n - 1)
                .map(|i| {
                    let e: f64 = w
                        .row(i)
                        .iter()
                        .map(|&p| -(p as f64) * (p as f64 + 1e-12).ln())
                        .sum();
                    e / (n as f64).ln()
                })
                .sum::<f64>()
                / (n - 2) as f64;
            mean > 0.7
        })
        .count();
    assert!(spread > 18, "{spread} of 36 heads spread");
}
