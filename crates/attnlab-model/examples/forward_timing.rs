//! Times one native forward pass of the real model at 16 and 128 tokens, for the int8
//! asset and the f32 weights (`cargo xtask model` first):
//!
//! ```sh
//! cargo run --release -p attnlab-model --example forward_timing
//! ```

use std::time::{Duration, Instant};

use attnlab_model::{AttentionOverride, Pretrained};

fn time(model: &Pretrained, tokens: usize) -> Duration {
    // [CLS], `tokens - 2` words that are one token each, [SEP].
    let text = vec!["word"; tokens - 2].join(" ");
    let ids = model.encode(&text).expect("encodes").ids;
    assert_eq!(ids.len(), tokens);
    let lab = AttentionOverride::default();
    model.encoder().forward(&ids, &lab).expect("runs"); // warm-up
    let runs = 10;
    let start = Instant::now();
    for _ in 0..runs {
        model.encoder().forward(&ids, &lab).expect("runs");
    }
    start.elapsed() / runs
}

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/");
    let dir = format!("{root}model-cache/all-minilm-l6-v2/");
    let read =
        |p: &str| std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e} (run `cargo xtask model`)"));
    let text = |p: &str| String::from_utf8(read(p)).expect("UTF-8");
    let asset = Pretrained::from_asset(&read(&format!(
        "{root}model/all-minilm-l6-v2.q8.safetensors"
    )))
    .expect("asset");
    let f32m = Pretrained::from_hugging_face(
        &read(&format!("{dir}model.safetensors")),
        &text(&format!("{dir}config.json")),
        Some(&text(&format!("{dir}pooling_config.json"))),
        &text(&format!("{dir}vocab.txt")),
    )
    .expect("f32 checkpoint");
    for tokens in [16, 128] {
        println!(
            "{tokens:>4} tokens: int8 asset {:>7.2} ms, f32 {:>7.2} ms",
            time(&asset, tokens).as_secs_f64() * 1e3,
            time(&f32m, tokens).as_secs_f64() * 1e3
        );
    }
}
