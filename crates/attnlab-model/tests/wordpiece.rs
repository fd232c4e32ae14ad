//! WordPiece against the reference: ids the `tokenizers` package gave for a committed
//! corpus (`testdata/wordpiece.json`, written by `testdata/wordpiece_reference.py`), with
//! the real vocabulary of all-MiniLM-L6-v2 (`testdata/vocab.txt`, BERT uncased's).

use attnlab_model::{Tokenizer, WordPiece};
use serde_json::Value;

fn load() -> (WordPiece, Value) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/");
    let vocab = std::fs::read_to_string(format!("{dir}vocab.txt")).expect("vocab.txt");
    let cases = std::fs::read_to_string(format!("{dir}wordpiece.json")).expect("wordpiece.json");
    (
        WordPiece::from_vocab(&vocab).expect("vocabulary"),
        serde_json::from_str(&cases).expect("JSON"),
    )
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("ids")
        .iter()
        .map(|i| i.as_u64().expect("id") as u32)
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("tokens")
        .iter()
        .map(|t| t.as_str().expect("token").to_owned())
        .collect()
}

#[test]
fn every_corpus_sentence_gets_the_reference_ids() {
    let (wp, reference) = load();
    let cases = reference["cases"].as_array().expect("cases");
    assert!(cases.len() >= 20);
    for case in cases {
        let text = case["text"].as_str().expect("text");
        let got = wp.encode(text, 10_000).expect("encodes");
        assert_eq!(got.ids, ids(&case["ids"]), "ids of {text:?}");
        assert_eq!(got.tokens, strings(&case["tokens"]), "tokens of {text:?}");
        assert_eq!(got.truncated_from, None);
    }
}

#[test]
fn a_long_text_is_cut_to_256_tokens_as_the_reference_cuts_it() {
    let (wp, reference) = load();
    let case = &reference["truncated"];
    let got = wp
        .encode(case["text"].as_str().expect("text"), 256)
        .expect("encodes");
    assert_eq!(got.ids, ids(&case["ids"]));
    assert_eq!(got.ids.len(), 256);
    assert_eq!(got.tokens.last().map(String::as_str), Some("[SEP]"));
    let whole = wp.encode(case["text"].as_str().unwrap(), 10_000).unwrap();
    assert_eq!(got.truncated_from, Some(whole.ids.len()));
}
