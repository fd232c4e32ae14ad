//! Tiny random checkpoints for tests and examples (no download needed).

use std::collections::HashMap;

use safetensors::Dtype;
use safetensors::tensor::TensorView;

/// The config of [`tiny_checkpoint`]: 2 layers, 2 heads of width 4, 24 words.
pub const TINY_CONFIG: &str = r#"{"model_type": "bert", "hidden_size": 8,
  "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 16,
  "vocab_size": 24, "max_position_embeddings": 32, "type_vocab_size": 2,
  "layer_norm_eps": 1e-12, "hidden_act": "gelu"}"#;

/// The vocabulary of [`tiny_checkpoint`].
pub const TINY_VOCAB: &str = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\ncat\nsat\non\nmat\na\ndog\n\
##s\n.\n,\nran\nit\nwas\ntired\nbig\nred\n##ly\nquick\nslow";

/// A random BERT checkpoint from `seed` in Hugging Face's layout (names under `bert.`,
/// f32): `(model.safetensors bytes, config.json, vocab.txt)`.
pub fn tiny_checkpoint(seed: u64) -> (Vec<u8>, String, String) {
    let config = crate::Config::from_json(TINY_CONFIG).expect("tiny config");
    let (d, ff) = (config.hidden_size, config.intermediate_size);
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        // xorshift64*: uniform in [-1, 1).
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545F4914F6CDD1D) >> 40;
        r as f32 / (1u64 << 23) as f32 - 1.0
    };
    let mut tensors: Vec<(String, Vec<usize>, Vec<f32>)> = Vec::new();
    let mut add = |name: &str, shape: Vec<usize>, scale: f32, offset: f32| {
        let len = shape.iter().product();
        let values = (0..len).map(|_| offset + scale * next()).collect();
        tensors.push((format!("bert.{name}"), shape, values));
    };
    add(
        "embeddings.word_embeddings.weight",
        vec![config.vocab_size, d],
        1.0,
        0.0,
    );
    add(
        "embeddings.position_embeddings.weight",
        vec![config.max_position_embeddings, d],
        0.5,
        0.0,
    );
    add(
        "embeddings.token_type_embeddings.weight",
        vec![2, d],
        0.1,
        0.0,
    );
    add("embeddings.LayerNorm.weight", vec![d], 0.1, 1.0);
    add("embeddings.LayerNorm.bias", vec![d], 0.1, 0.0);
    for i in 0..config.num_hidden_layers {
        let p = format!("encoder.layer.{i}.");
        for (name, out, inp) in [
            ("attention.self.query", d, d),
            ("attention.self.key", d, d),
            ("attention.self.value", d, d),
            ("attention.output.dense", d, d),
            ("intermediate.dense", ff, d),
            ("output.dense", d, ff),
        ] {
            add(&format!("{p}{name}.weight"), vec![out, inp], 0.8, 0.0);
            add(&format!("{p}{name}.bias"), vec![out], 0.1, 0.0);
        }
        for name in ["attention.output.LayerNorm", "output.LayerNorm"] {
            add(&format!("{p}{name}.weight"), vec![d], 0.1, 1.0);
            add(&format!("{p}{name}.bias"), vec![d], 0.1, 0.0);
        }
    }
    let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = tensors
        .into_iter()
        .map(|(n, s, v)| (n, s, v.iter().flat_map(|x| x.to_le_bytes()).collect()))
        .collect();
    let views: Vec<(String, TensorView<'_>)> = bytes
        .iter()
        .map(|(n, s, b)| {
            (
                n.clone(),
                TensorView::new(Dtype::F32, s.clone(), b).expect("view"),
            )
        })
        .collect();
    let file = safetensors::serialize(views, Some(HashMap::new())).expect("serialise");
    (file, TINY_CONFIG.to_owned(), TINY_VOCAB.to_owned())
}
