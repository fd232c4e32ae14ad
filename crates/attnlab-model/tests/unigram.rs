//! XLM-R's SentencePiece unigram against the reference: ids the `tokenizers` package gave
//! for a committed corpus (`testdata/unigram.json`, written by
//! `testdata/unigram_reference.py` from `testdata/unigram_corpus_base.txt`), with
//! multilingual-E5-small's vocabulary — the whole of it from the `E5S1` container, and
//! the part the asset ships.
//!
//! These need `cargo xtask model` (the container in
//! `target/model-cache/multilingual-e5-small/`, the asset in `target/model/`); without
//! them each test prints `skipped: …` and passes. The paths can be given with
//! `ATTNLAB_E5_CONTAINER` and `ATTNLAB_E5_ASSET`.

use std::path::PathBuf;

use attnlab_model::e5s1::E5s1;
use attnlab_model::{Pretrained, TextError, Tokenizer};
use serde_json::Value;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn path(env: &str, relative: &str) -> PathBuf {
    std::env::var_os(env)
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join(relative))
}

fn read(test: &str, env: &str, relative: &str) -> Option<Vec<u8>> {
    let p = path(env, relative);
    match std::fs::read(&p) {
        Ok(bytes) => Some(bytes),
        Err(_) => {
            println!(
                "skipped: {test}: no {} (run `cargo xtask model`)",
                p.display()
            );
            None
        }
    }
}

fn container(test: &str) -> Option<Vec<u8>> {
    read(
        test,
        "ATTNLAB_E5_CONTAINER",
        "target/model-cache/multilingual-e5-small/e5-small-q4.bin",
    )
}

fn asset(test: &str) -> Option<Pretrained> {
    let bytes = read(
        test,
        "ATTNLAB_E5_ASSET",
        "target/model/multilingual-e5-small.q4.safetensors",
    )?;
    Some(Pretrained::from_asset(&bytes).expect("the E5 asset loads"))
}

fn reference() -> Value {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/unigram.json");
    serde_json::from_str(&std::fs::read_to_string(p).expect("unigram.json")).expect("JSON")
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("ids")
        .iter()
        .map(|i| i.as_u64().expect("id") as u32)
        .collect()
}

fn chars(v: &Value) -> Vec<char> {
    v.as_array()
        .expect("characters")
        .iter()
        .map(|c| {
            c.as_str()
                .expect("a string")
                .chars()
                .next()
                .expect("a character")
        })
        .collect()
}

/// Checks every line of the corpus; `cut` says whether the tokenizer holds only the
/// shipped pieces (then a line with characters outside them runs with each such
/// stretch as `<unk>`, naming them). Returns the number of lines whose ids were
/// compared.
fn check_corpus(tok: &dyn Tokenizer, cut: bool) -> usize {
    let reference = reference();
    let cases = reference["cases"].as_array().expect("cases");
    assert!(cases.len() >= 200, "{} lines", cases.len());
    let mut compared = 0;
    for case in cases {
        let text = case["text"].as_str().expect("text");
        let outside = chars(&case["outside"]);
        let got = tok.encode(text, 100_000);
        if text.trim().is_empty() {
            assert_eq!(got, Err(TextError::Empty), "{text:?}");
        } else if cut && !outside.is_empty() {
            let got = got.unwrap_or_else(|e| panic!("{text:?}: {e}"));
            replaced_as_unknown(text, &got, &outside);
        } else {
            let got = got.unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(
                got.ids,
                ids(&case["ids"]),
                "ids of {text:?}: {:?}",
                got.tokens
            );
            // The reference names an unknown piece by the text it covers; the ids say
            // `<unk>` (3) either way.
            let tokens: Vec<&str> = case["tokens"]
                .as_array()
                .unwrap()
                .iter()
                .zip(&got.ids)
                .map(|(t, id)| {
                    if *id == 3 {
                        "<unk>"
                    } else {
                        t.as_str().unwrap()
                    }
                })
                .collect();
            assert_eq!(got.tokens, tokens, "tokens of {text:?}");
            compared += 1;
        }
    }
    compared
}

/// `got` (of `text`) names `outside` as the characters it replaced, and each of them
/// is inside an `<unk>` token that keeps the characters it stands for, as typed.
fn replaced_as_unknown(text: &str, got: &attnlab_model::Encoding, outside: &[char]) {
    assert_eq!(got.outside, outside, "{text:?}");
    assert!(!got.unknown.is_empty(), "{text:?}");
    for u in &got.unknown {
        assert_eq!(got.tokens[u.token], "<unk>", "{text:?}");
        assert_eq!(got.ids[u.token], 3, "{text:?}");
        assert_eq!(&text[u.span.clone()], u.text, "{text:?}");
        assert!(!u.second);
    }
    for c in outside {
        assert!(
            got.unknown.iter().any(|u| u.text.contains(*c)),
            "{text:?}: {c} is in no <unk> ({:?})",
            got.unknown
        );
    }
}

#[test]
fn the_whole_vocabulary_gives_the_reference_ids_for_every_line() {
    let Some(bytes) = container("whole vocabulary") else {
        return;
    };
    let tok = E5s1::parse(&bytes).unwrap().tokenizer().unwrap();
    let compared = check_corpus(&tok, false);
    println!("whole vocabulary: {compared} lines equal to the reference");
    assert!(compared >= 250);
}

#[test]
fn the_asset_gives_the_reference_ids_for_every_line_within_its_characters() {
    let Some(model) = asset("asset vocabulary") else {
        return;
    };
    let compared = check_corpus(model.tokenizer(), true);
    println!("asset: {compared} lines equal to the reference, the rest with <unk>");
    assert!(compared >= 200, "{compared}");
}

#[test]
fn pairs_and_the_token_limit_follow_the_reference() {
    let Some(model) = asset("pairs") else {
        return;
    };
    let reference = reference();
    let tok = model.tokenizer();
    for pair in reference["pairs"].as_array().unwrap() {
        let (a, b) = (pair["a"].as_str().unwrap(), pair["b"].as_str().unwrap());
        let got = tok.encode_pair(a, b, 512).unwrap();
        assert_eq!(got.ids, ids(&pair["ids"]), "{a:?} / {b:?}");
        assert!(got.type_ids.iter().all(|t| *t == 0));
        let second = got.second.unwrap();
        assert_eq!(&got.ids[second - 2..second], &[2, 2], "</s></s> before B");
    }
    let cut = &reference["truncated"];
    let got = tok
        .encode(
            cut["text"].as_str().unwrap(),
            cut["max_tokens"].as_u64().unwrap() as usize,
        )
        .unwrap();
    assert_eq!(got.ids, ids(&cut["ids"]));
    assert!(got.truncated_from.is_some());
}

#[test]
fn characters_outside_the_asset_are_read_as_unknown_and_named() {
    let Some(model) = asset("outside") else {
        return;
    };
    let reference = reference();
    for case in reference["outside"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        let expected = chars(&case["outside"]);
        assert!(!expected.is_empty());
        let got = model
            .encode(text)
            .unwrap_or_else(|e| panic!("{text:?}: {e}"));
        replaced_as_unknown(text, &got, &expected);
    }
    // The text: an emoji, an accented letter and an Arabic word, each one
    // <unk> standing for what was typed; the Chinese and ASCII around them are pieces.
    let text = "我的猫🐱 café مرحبا";
    let got = model.encode(text).unwrap();
    let replaced: Vec<&str> = got.unknown.iter().map(|u| u.text.as_str()).collect();
    assert_eq!(replaced, ["🐱", "é", "مرحبا"], "{:?}", got.tokens);
    assert_eq!(got.outside, ['🐱', 'é', 'م', 'ر', 'ح', 'ب', 'ا']);
    assert!(
        got.tokens.iter().any(|t| t.contains('猫')),
        "{:?}",
        got.tokens
    );
    // In a pair, the second text's unknown token says so, its bytes are its own text's.
    let got = model.encode_pair("我的猫", "🙂").unwrap();
    let u = &got.unknown[0];
    assert!(u.second && u.text == "🙂" && u.span == (0..4), "{u:?}");
    assert!(u.token > got.second.unwrap());
}

#[test]
fn a_damaged_container_is_an_error_not_a_panic() {
    let Some(bytes) = container("damaged container") else {
        return;
    };
    // Cut inside the header, the pieces, the normalisation map, the directory and the
    // tensors: each an error that names the container.
    for cut in [6, 40, 1_000, 2_000_000, 4_600_000, 4_638_000, 60_000_000] {
        let err = E5s1::parse(&bytes[..cut])
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains("E5S1"), "cut at {cut}: {err}");
    }
    // A count made absurd: the number of pieces (bytes 44..48) set to 2³¹ − 1.
    let mut huge = bytes[..100_000].to_vec();
    huge[44..48].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(E5s1::parse(&huge).is_err());
}
