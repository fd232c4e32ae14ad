//! Times one native forward pass of the real models: MiniLM at 16 and 128 tokens for the
//! int8 asset and the f32 weights; multilingual-E5-small at 32 and 128 tokens with its
//! Q4_0 blocks widened in each product and with the layers dequantised to f32 once
//! (`cargo xtask model` first):
//!
//! ```sh
//! cargo run --release -p attnlab-model --example forward_timing
//! ```

use std::time::{Duration, Instant};

use attnlab_model::{AttentionOverride, Encoder, Pretrained};

fn time(model: &Pretrained, tokens: usize) -> Duration {
    // [CLS], `tokens - 2` words that are one token each, [SEP].
    let text = vec!["word"; tokens - 2].join(" ");
    let ids = model.encode(&text).expect("encodes").ids;
    assert_eq!(ids.len(), tokens);
    time_ids(model.encoder(), &ids)
}

fn time_ids(encoder: &Encoder, ids: &[u32]) -> Duration {
    let lab = AttentionOverride::default();
    encoder.forward(ids, &lab).expect("runs"); // warm-up
    let runs = 10;
    let start = Instant::now();
    for _ in 0..runs {
        encoder.forward(ids, &lab).expect("runs");
    }
    start.elapsed() / runs
}

/// Bytes of the layers' matrices.
fn layer_bytes(encoder: &Encoder) -> usize {
    encoder.layer_weight_bytes()
}

fn e5(root: &str) {
    let path = format!("{root}model/multilingual-e5-small.q4.safetensors");
    let Ok(bytes) = std::fs::read(&path) else {
        println!("no {path}: run `cargo xtask model` for the E5 rows");
        return;
    };
    let model = Pretrained::from_asset(&bytes).expect("E5 asset");
    let widened = model.encoder().widened();
    println!(
        "E5 layers: Q4_0 {:.1} MB, widened once to f32 {:.1} MB",
        layer_bytes(model.encoder()) as f64 / 1e6,
        layer_bytes(&widened) as f64 / 1e6
    );
    // Chinese words of one piece each, cut to exactly `tokens` ids.
    let text = "猫 ".repeat(200);
    for tokens in [32, 128] {
        let ids = model
            .tokenizer()
            .encode(&text, tokens)
            .expect("encodes")
            .ids;
        assert_eq!(ids.len(), tokens);
        println!(
            "{tokens:>4} tokens: E5 Q4_0 widened per product {:>7.2} ms, dequantised once {:>7.2} ms",
            time_ids(model.encoder(), &ids).as_secs_f64() * 1e3,
            time_ids(&widened, &ids).as_secs_f64() * 1e3
        );
    }
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
    e5(root);
}
