//! The tokenizers the tokenizer targets run, built once per process.

use std::path::PathBuf;
use std::sync::OnceLock;

use attnlab_model::Pretrained;
use attnlab_model::tokenizer::{Tokenizer, Unigram, UnigramParts, WordPiece};

/// all-MiniLM-L6-v2's vocabulary (the model crate's fixture).
const MINILM_VOCAB: &str = include_str!("../../attnlab-model/testdata/vocab.txt");

/// MiniLM's WordPiece, from its real vocabulary.
pub fn wordpiece() -> &'static WordPiece {
    static W: OnceLock<WordPiece> = OnceLock::new();
    W.get_or_init(|| WordPiece::from_vocab(MINILM_VOCAB).expect("MiniLM's vocabulary"))
}

/// The E5 asset `cargo xtask model` writes (or `ATTNLAB_E5_ASSET`), when it is there.
pub fn e5_asset_path() -> PathBuf {
    std::env::var_os("ATTNLAB_E5_ASSET").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/model/multilingual-e5-small.q4.safetensors")
        },
        PathBuf::from,
    )
}

/// multilingual-E5's unigram tokenizer as the app has it (the asset's pieces), or, with
/// no asset built, a small unigram vocabulary of the same kind (specials, `▁`, pieces of
/// several scripts, NFKC-style replacements) so the target still runs the same code.
pub fn unigram() -> &'static dyn Tokenizer {
    enum Held {
        Asset(Box<Pretrained>),
        Small(Box<Unigram>),
    }
    static U: OnceLock<Held> = OnceLock::new();
    let held = U.get_or_init(|| {
        match std::fs::read(e5_asset_path()).map(|bytes| Pretrained::from_asset(&bytes)) {
            Ok(Ok(model)) => Held::Asset(Box::new(model)),
            _ => Held::Small(Box::new(small_unigram())),
        }
    });
    match held {
        Held::Asset(model) => model.tokenizer(),
        Held::Small(u) => u.as_ref(),
    }
}

fn small_unigram() -> Unigram {
    let words = [
        "<s>",
        "<pad>",
        "</s>",
        "<unk>",
        "▁",
        "▁the",
        "▁cat",
        "▁sat",
        "s",
        "a",
        "t",
        "e",
        "c",
        "▁注意",
        "力",
        "猫",
        "▁مرحبا",
        "ب",
        "▁Привет",
        "й",
        "é",
        "́",
        ".",
        ",",
        "!",
        "<mask>",
    ];
    let pieces = words
        .iter()
        .enumerate()
        .map(|(i, w)| (i as u32, w.to_string(), -1.0 - i as f32 / 4.0))
        .collect();
    Unigram::new(UnigramParts {
        pieces,
        vocab_size: words.len(),
        unk_score: -20.0,
        normalization: vec![('\u{FF01}', "!".into()), ('\u{00A0}', " ".into())],
        charset: None,
        charset_name: "every character".into(),
    })
    .expect("a small unigram vocabulary")
}
