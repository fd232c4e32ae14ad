//! Every refusal of the readers said wholly in Chinese: a broken file of every kind the
//! readers refuse (JSON documents, labels, `.npy`, `.npz`, sets of files), read, and its
//! Chinese checked for English left in it.

use super::*;
use attnlab_i18n::check::latin_words;

/// A broken `attnlab-tensors/1` document for each check of the reader.
const DOCUMENTS: &[&str] = &[
    "{",
    "[1, 2]",
    "{\"heads\":[{\"q\":[[1]]",
    "{\"heads\":[{\"q\":[[1]]}] x",
    "{\"heads\":[{\"q\":[[1,]]}]}",
    "{\"heads\":[{\"q\":[[NaN]],\"k\":[[1]],\"v\":[[1]]}]}",
    r#"{"format":"attnlab-tensors/9","heads":[]}"#,
    r#"{"format":"attnlab-tensors/1"}"#,
    r#"{"heads":null}"#,
    r#"{"heads":[]}"#,
    r#"{"heads":[{"q":[[1,2],[3]],"k":[[1,2]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1,2],[3,4],[5,"x"]],"k":[[1,2]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[1],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}, [1]]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"q":[[2]]}]}"#,
    r#"{"heads":[{"q":[[1]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1,2]],"k":[[1,2,3]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1],[2]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1e39]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1],[-1e999]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"heads":[{"q":[[1,2]],"k":[[1,2]],"v":[[1]]},{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"score":"dott","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"attention":"fast","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"temperature":0,"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"temperature":"1","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"score":"general","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"score":"general","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"score_params":{"w":[[null]]}}]}"#,
    r#"{"score":"general","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"score_params":{"w":[[1,2]]}}]}"#,
    r#"{"score":"additive","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"score_params":{"w_a":[[1]],"u_a":[[1]]}}]}"#,
    r#"{"score":"additive","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"score_params":[]}]}"#,
    r#"{"attention":"linformer","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
    r#"{"attention":"linformer","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"linformer":{"e":[[1]]}}]}"#,
    r#"{"attention":"linformer","mask":{"causal":true},"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"linformer":{"e":[[1]],"f":[[1]]}}]}"#,
    r#"{"heads":[{"q":[[1],[2]],"k":[[1],[2]],"v":[[1],[2]]}],"mask":{"custom":[[true,true],[true,1]]}}"#,
    r#"{"heads":[{"q":[[1],[2]],"k":[[1],[2]],"v":[[1],[2]]}],"mask":{"custom":[[true,true]]}}"#,
    r#"{"heads":[{"q":[[1],[2]],"k":[[1],[2]],"v":[[1],[2]]}],"mask":{"custom":[[true],[true]]}}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"global":[0,-1]}}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"global":[3]}}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"strided":0}}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"window":1.5}}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"causal":"yes"}}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":[]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"query_tokens":["a","b"]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"key_tokens":[1]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"w_o":[[1],[2]]}"#,
    r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"w_o":{}}"#,
    r#"{"heads":{}}"#,
];

/// The sentence after the names that lead it (`q.npy：`, `heads[0].q：`, `format：`),
/// which are names of files and fields, in no language.
fn after_names(zh: &str) -> &str {
    let mut rest = zh;
    while let Some((name, after)) = rest.split_once('：') {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_graphic() || c == '\u{203a}' || c == ' ')
        {
            break;
        }
        rest = after;
    }
    rest
}

/// Asserts that `e` is said in Chinese, with no English left in it.
fn said_in_chinese(e: &BringError, case: &str) {
    let zh = e.text(Lang::Zh);
    assert!(e.message_zh.is_some(), "{case}: said only in English: {e}");
    assert_eq!(e.refusal().text(Lang::Zh), zh, "{case}");
    let left = latin_words(after_names(&zh));
    assert!(left.is_empty(), "{case}: {left:?} in {zh}");
}

#[test]
fn every_broken_document_is_refused_in_chinese() {
    for doc in DOCUMENTS {
        let e = bring_named(&[("a.json", doc.as_bytes().to_vec())])
            .expect_err(&format!("{doc} is broken"));
        said_in_chinese(&e, doc);
        // Some are refused only when the tensors are put together, after parsing.
        if let Err(field) = parse(doc) {
            assert_eq!(field.text(Lang::En), field.to_string());
            assert!(
                latin_words(after_names(&field.text(Lang::Zh))).is_empty(),
                "{doc}"
            );
        }
    }
    let e = bring_named(&[("a.json", b"{\"heads\":\xff}".to_vec())]).unwrap_err();
    said_in_chinese(&e, "not UTF-8");
}

#[test]
fn every_broken_array_and_label_list_is_refused_in_chinese() {
    let with = |i: usize, name: &'static str, bytes: Vec<u8>| {
        let mut files = qkv();
        files[i] = (name, bytes);
        bring_named(&files).unwrap_err()
    };
    let full = npy32(&[3, 2], &counting(0.0, 3, 2));
    let mut nan = counting(0.0, 3, 2);
    nan[3] = f32::NAN;
    let inf: Vec<f64> = vec![1.0, 2.0, f64::NEG_INFINITY, 4.0, 5.0, 6.0];
    let huge: Vec<f64> = vec![1.0, 2.0, 1e300, 4.0, 5.0, 6.0];
    let cases = [
        with(0, "q.npy", npy32(&[3, 2], &nan)),
        with(1, "k.npy", npy_bytes(">f8", true, &[3, 2], &f64_be(&inf))),
        with(
            1,
            "k.npy",
            npy_bytes("<f8", false, &[3, 2], &{
                huge.iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect::<Vec<u8>>()
            }),
        ),
        with(0, "q.npy", npy_bytes("<i4", false, &[3, 2], &[0; 24])),
        with(0, "q.npy", npy_bytes("<f2", false, &[3, 2], &[0; 12])),
        with(0, "q.npy", npy_bytes("<c8", false, &[3, 2], &[0; 48])),
        with(0, "q.npy", full[..full.len() - 5].to_vec()),
        with(0, "q.npy", full[..20].to_vec()),
        with(0, "q.npy", b"PK\x03\x04".to_vec()),
        with(0, "q.npy", npy32(&[0, 0], &[])),
        with(0, "q.npy", npy32(&[6], &counting(0.0, 6, 1))),
        with(1, "k.npy", npy32(&[3, 3], &counting(0.0, 3, 3))),
        with(2, "v.npy", npy32(&[2, 2], &counting(0.0, 2, 2))),
        with(1, "k.npy", npy32(&[2, 3, 2], &counting(0.0, 6, 2))),
        with(0, "q.npy", npy32(&[2, 1, 3, 2], &counting(0.0, 6, 2))),
        with(
            0,
            "q.npy",
            npy32(&[MAX_HEADS + 1, 1, 1], &[1.0; MAX_HEADS + 1]),
        ),
        with(
            0,
            "q.npy",
            npy32(&[1, MAX_WIDTH + 1], &vec![1.0; MAX_WIDTH + 1]),
        ),
        with(
            0,
            "q.npy",
            npy32(&[MAX_TOKENS + 1, 1], &vec![1.0; MAX_TOKENS + 1]),
        ),
        with(0, "x.npy", full.clone()),
        with(0, "q.csv", full.clone()),
        with(1, "query.npy", full.clone()),
        with(0, "tokens.npy", full.clone()),
        with(0, "q.npz", b"PK\x03\x04 cut".to_vec()),
        bring_named(&qkv()[..2]).unwrap_err(),
        bring_named(&[qkv(), vec![("w_o.npy", npy32(&[2, 2, 1], &[1.0; 4]))]].concat())
            .unwrap_err(),
        bring_named(&[qkv(), vec![("w_o.npy", npy32(&[3, 2], &[1.0; 6]))]].concat()).unwrap_err(),
        bring_named(&[qkv(), vec![("a.json", b"{\"heads\":[]}".to_vec())]].concat()).unwrap_err(),
    ];
    let labels: [&[u8]; 9] = [
        b"[\"a\", 1, \"c\"]",
        b"{\"queries\": [\"a\"]}",
        b"{\"queries\": \"a\", \"keys\": []}",
        b"{\"queries\": [\"a\",\"b\",\"c\"], \"keys\": [null]}",
        b"{\"queries\": [\"a\"], \"keys\": [\"b\"]}",
        b"[\"a\", \"b\"]",
        b"[\"a\", \"b\"",
        b"\"a b c\"",
        b"[\"a\", \xff]",
    ];
    let labels = labels
        .iter()
        .map(|l| bring_named(&[qkv(), vec![("tokens.json", l.to_vec())]].concat()).unwrap_err());
    let text = bring_named(&[qkv(), vec![("tokens.txt", b"a\nb\n".to_vec())]].concat());
    let sizes = [
        check_sizes(&[]).unwrap_err(),
        check_sizes(&[("huge.npz".into(), (MAX_BRING_BYTES + 1) as u64)]).unwrap_err(),
        check_sizes(&(0..9).map(|i| (format!("{i}.npy"), 1)).collect::<Vec<_>>()).unwrap_err(),
    ];
    for (i, e) in cases
        .into_iter()
        .chain(labels)
        .chain([text.unwrap_err()])
        .chain(sizes)
        .enumerate()
    {
        said_in_chinese(&e, &format!("case {i}: {e}"));
    }
}

#[test]
fn a_notes_and_a_wire_mismatch_are_said_in_chinese() {
    let doc = br#"{"temperature":2,"extra":1,"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#;
    let b = bring_named(&[("a.json", doc.to_vec())]).unwrap();
    assert_eq!(b.notes.len(), 2);
    for n in &b.notes {
        assert!(latin_words(n.get(Lang::Zh)).is_empty(), "{}", n.zh);
    }
    let (header, data) = b.to_wire();
    let e = Brought::from_wire(header, &data[1..]).unwrap_err();
    assert!(latin_words(&e.zh).is_empty(), "{}", e.zh);
}

/// Every refusal the readers write is written in both languages: `BringError::new`
/// (English only) is not used by them.
#[test]
fn no_reader_says_a_refusal_in_english_only() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tensors");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".rs") || name == "error.rs" || name == "tests.rs" {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        assert!(
            !src.contains("BringError::new("),
            "{name} says a refusal in English only"
        );
    }
}
