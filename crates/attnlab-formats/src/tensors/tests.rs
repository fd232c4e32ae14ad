//! Brought files: every format, every order and byte order, and every broken file with
//! its message. The `.npy` bytes are written here by hand from the format's definition
//! (magic, version, header length, a Python dict, the data), not by the reading library.

use std::io::Write;

use super::*;
use attnlab_i18n::Lang;
use attnlab_lab::state::MAX_TOKENS;

/// A `.npy` (version 1) of `descr` (e.g. `<f8`), `shape` and raw `data`.
fn npy_bytes(descr: &str, fortran: bool, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let order = if fortran { "True" } else { "False" };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}");
    // Padded with spaces and a newline so that the data starts at a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn f32_le(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f64_be(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_be_bytes()).collect()
}

/// `rows × cols` numbered from `start`: row i, column j holds `start + i·cols + j`.
fn counting(start: f32, rows: usize, cols: usize) -> Vec<f32> {
    (0..rows * cols).map(|i| start + i as f32).collect()
}

fn npy32(shape: &[usize], values: &[f32]) -> Vec<u8> {
    npy_bytes("<f4", false, shape, &f32_le(values))
}

fn bring_named(files: &[(&str, Vec<u8>)]) -> Result<Brought, BringError> {
    let files: Vec<File<'_>> = files
        .iter()
        .map(|(name, bytes)| File { name, bytes })
        .collect();
    bring(&files)
}

fn message(files: &[(&str, Vec<u8>)]) -> String {
    bring_named(files).unwrap_err().to_string()
}

/// q, k, v of one head, 3 tokens, d = 2.
fn qkv() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("q.npy", npy32(&[3, 2], &counting(0.0, 3, 2))),
        ("k.npy", npy32(&[3, 2], &counting(10.0, 3, 2))),
        ("v.npy", npy32(&[3, 2], &counting(20.0, 3, 2))),
    ]
}

#[test]
fn three_npy_files_are_one_head() {
    let b = bring_named(&qkv()).unwrap();
    assert_eq!(b.heads(), 1);
    assert_eq!(b.sizes(), (3, 3, 2, 2));
    assert_eq!(b.projected.heads[0].q[[2, 1]], 5.0);
    assert_eq!(b.projected.heads[0].k[[0, 1]], 11.0);
    assert_eq!(b.queries, ["t0", "t1", "t2"]);
    assert!(!b.is_cross());
    assert_eq!(
        b.summary(),
        "q.npy, k.npy, v.npy: 1 head \u{b7} 3 queries \u{d7} 3 keys \u{b7} d_k 2 \u{b7} d_v 2"
    );
}

#[test]
fn float64_big_endian_fortran_order_is_read_in_its_own_index() {
    // q of shape (2 heads, 3, 2): element [h, i, j] = 100h + 10i + j, written column-major
    // (the first axis fastest) as big-endian float64.
    let shape = [2, 3, 2];
    let mut fortran = Vec::new();
    for j in 0..2 {
        for i in 0..3 {
            for h in 0..2 {
                fortran.push(f64::from(100 * h + 10 * i + j));
            }
        }
    }
    let mut files = qkv();
    files[0] = ("q.npy", npy_bytes(">f8", true, &shape, &f64_be(&fortran)));
    // k and v need two heads too.
    files[1] = ("k.npy", npy32(&[2, 3, 2], &counting(0.0, 6, 2)));
    files[2] = ("v.npy", npy32(&[1, 2, 3, 2], &counting(0.0, 6, 2)));
    let b = bring_named(&files).unwrap();
    assert_eq!(b.heads(), 2);
    for h in 0..2 {
        for i in 0..3 {
            for j in 0..2 {
                assert_eq!(
                    b.projected.heads[h].q[[i, j]],
                    (100 * h + 10 * i + j) as f32,
                    "[{h}, {i}, {j}]"
                );
            }
        }
    }
    assert_eq!(b.projected.heads[1].v[[0, 0]], 6.0);
}

#[test]
fn an_npz_holds_the_arrays_and_the_tokens() {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in qkv() {
        zip.start_file(name, deflated).unwrap();
        zip.write_all(&bytes).unwrap();
    }
    // numpy writes a list of str as a little-endian UTF-32 array, `<U5` here.
    let labels = ["cat", "sat", "on"];
    let utf32: Vec<u8> = labels
        .iter()
        .flat_map(|l| {
            let mut cps: Vec<u32> = l.chars().map(u32::from).collect();
            cps.resize(5, 0);
            cps.into_iter().flat_map(u32::to_le_bytes)
        })
        .collect();
    zip.start_file("tokens.npy", deflated).unwrap();
    zip.write_all(&npy_bytes("<U5", false, &[3], &utf32))
        .unwrap();
    let bytes = zip.finish().unwrap().into_inner();
    let b = bring_named(&[("attn.npz", bytes.clone())]).unwrap();
    assert_eq!(b.queries, labels);
    assert_eq!(b.keys, labels);
    assert_eq!(b.files, ["attn.npz"]);
    // Cut short, it says so.
    let cut = bytes[..bytes.len() / 2].to_vec();
    let e = message(&[("attn.npz", cut)]);
    assert!(
        e.starts_with("attn.npz: is not a readable .npz (zip) archive"),
        "{e}"
    );
}

#[test]
fn tokens_come_from_text_or_json() {
    let mut files = qkv();
    files.push(("tokens.txt", b"a\nb\nc\n".to_vec()));
    assert_eq!(bring_named(&files).unwrap().queries, ["a", "b", "c"]);
    files.pop();
    files.push(("tokens.json", br#"["x","y","z"]"#.to_vec()));
    assert_eq!(bring_named(&files).unwrap().keys, ["x", "y", "z"]);
    // Cross-attention: 2 queries over 3 keys, labelled per axis.
    files[0] = ("q.npy", npy32(&[2, 2], &counting(0.0, 2, 2)));
    files.pop();
    files.push((
        "tokens.json",
        br#"{"queries":["I","am"],"keys":["je","suis","la"]}"#.to_vec(),
    ));
    let b = bring_named(&files).unwrap();
    assert!(b.is_cross());
    assert_eq!(b.queries, ["I", "am"]);
    assert_eq!(b.keys, ["je", "suis", "la"]);
    files.pop();
    let b = bring_named(&files).unwrap();
    assert_eq!((b.queries.len(), b.keys[2].as_str()), (2, "k2"));
    files.push(("tokens.txt", b"a\nb\n".to_vec()));
    assert_eq!(
        message(&files),
        "tokens.txt: has 2 labels, but q has 2 rows and k 3: give {\"queries\": […], \"keys\": […]} in tokens.json"
    );
}

#[test]
fn a_tensors_document_is_read_alone() {
    let doc = br#"{"format":"attnlab-tensors/1","score":"dot","query_tokens":["a","b"],
        "heads":[{"q":[[1,0],[0,1]],"k":[[1,0],[0,1]],"v":[[1],[2]]}]}"#;
    let b = bring_named(&[("mine.json", doc.to_vec())]).unwrap();
    assert_eq!(b.queries, ["a", "b"]);
    assert_eq!(b.keys, ["a", "b"]);
    assert_eq!(b.notes.len(), 1, "{:?}", b.notes);
    assert!(b.notes[0].contains("each variant applies its own"));
    let mut files = qkv();
    files.push(("mine.json", doc.to_vec()));
    assert!(message(&files).starts_with("mine.json: is an attnlab-tensors/1 document"));
}

#[test]
fn a_document_with_rope_brings_its_tensors_as_given() {
    // The page applies its own variants: q and k as the document gives them, not turned
    // by the document's RoPE (which would turn key 1 at position 1 by 1 rad).
    let doc = br#"{"heads":[{"q":[[1,0],[0,1]],"k":[[1,0],[0,1]],"v":[[1],[2]]}],
        "positions":{"kind":"rope"}}"#;
    let b = bring_named(&[("rope.json", doc.to_vec())]).unwrap();
    let head = &b.projected.heads[0];
    assert_eq!(head.q.as_slice().unwrap(), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(head.k.as_slice().unwrap(), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(b.notes.len(), 1, "{:?}", b.notes);
    assert!(b.notes[0].contains("each variant applies its own"));
}

#[test]
fn broken_documents_name_the_value() {
    let ragged = br#"{"heads":[{"q":[[1,2],[3]],"k":[[1,2]],"v":[[1]]}]}"#;
    assert_eq!(
        message(&[("a.json", ragged.to_vec())]),
        "a.json: heads[0].q[1]: expected 2 numbers, found 1"
    );
    let types = br#"{"heads":[{"q":[["1"]],"k":[[1]],"v":[[1]]}]}"#;
    assert!(
        message(&[("a.json", types.to_vec())])
            .starts_with("a.json: heads[0].q[0][0]: invalid type: string")
    );
    let empty = br#"{"heads":[{"q":[],"k":[[1]],"v":[[1]]}]}"#;
    assert_eq!(
        message(&[("a.json", empty.to_vec())]),
        "a.json: heads[0].q: has no rows, expected at least one"
    );
    let nan = br#"{"heads":[{"q":[[NaN]],"k":[[1]],"v":[[1]]}]}"#;
    assert!(message(&[("a.json", nan.to_vec())]).starts_with("a.json: input: is not valid JSON"));
    let big = br#"{"heads":[{"q":[[1e39]],"k":[[1]],"v":[[1]]}]}"#;
    assert!(message(&[("a.json", big.to_vec())]).contains("outside the f32 range"));
    let heads =
        br#"{"heads":[{"q":[[1,2]],"k":[[1,2]],"v":[[1]]},{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#;
    assert_eq!(
        message(&[("a.json", heads.to_vec())]),
        "a.json: heads[1] has q, k, v of 1\u{d7}1, 1\u{d7}1, 1\u{d7}1 but heads[0] of 1\u{d7}2, 1\u{d7}2, 1\u{d7}1: every head needs the same sizes"
    );
    assert!(
        message(&[("a.json", b"{\"heads\":[{\"q\":[[1]]".to_vec())])
            .starts_with("a.json: input: is not valid JSON")
    );
}

#[test]
fn broken_arrays_say_what_and_where() {
    let with = |i: usize, name: &'static str, bytes: Vec<u8>| {
        let mut files = qkv();
        files[i] = (name, bytes);
        message(&files)
    };
    let mut values = counting(0.0, 3, 2);
    values[3] = f32::NAN;
    assert_eq!(
        with(0, "q.npy", npy32(&[3, 2], &values)),
        "q.npy: element [1, 1] is NaN; every value must be a finite number"
    );
    let inf: Vec<f64> = vec![1.0, 2.0, f64::NEG_INFINITY, 4.0, 5.0, 6.0];
    assert_eq!(
        with(1, "k.npy", npy_bytes(">f8", true, &[3, 2], &f64_be(&inf))),
        "k.npy: element [2, 0] is -Infinity; every value must be a finite number"
    );
    assert_eq!(
        with(0, "q.npy", npy_bytes("<i4", false, &[3, 2], &[0; 24])),
        "q.npy: has dtype <i4; attnlab reads float32 (<f4, >f4) and float64 (<f8, >f8) arrays (convert with .astype('float32'))"
    );
    assert!(with(0, "q.npy", npy_bytes("<f2", false, &[3, 2], &[0; 12])).contains("float16"));
    assert!(
        with(0, "q.npy", npy_bytes("<c8", false, &[3, 2], &[0; 48]))
            .starts_with("q.npy: has dtype <c8")
    );
    let full = npy32(&[3, 2], &counting(0.0, 3, 2));
    assert_eq!(
        with(0, "q.npy", full[..full.len() - 5].to_vec()),
        "q.npy: is cut short: shape (3, 2) of <f4 needs 24 bytes of data, the file has 19"
    );
    assert!(
        with(0, "q.npy", full[..20].to_vec())
            .starts_with("q.npy: is cut short or damaged: its header says it is 118 bytes long")
    );
    // A header nested 40 deep (which the header's parser would take minutes over).
    let mut nested = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    nested.extend_from_slice(format!("{:<117}\n", "{".repeat(40)).as_bytes());
    assert_eq!(
        with(0, "q.npy", nested),
        "q.npy: has a header nested 40 levels deep; a .npy header nests at most 8"
    );
    // A version 2 header whose 4-byte length lies (662 MB): refused before the reader
    // allocates that much for it.
    let mut lying = full.clone();
    lying[6] = 2;
    lying.splice(8..10, 0x277b_0087u32.to_le_bytes());
    assert_eq!(
        with(0, "q.npy", lying.clone()),
        format!(
            "q.npy: is cut short or damaged: its header says it is 662372487 bytes long, the file has {} bytes",
            lying.len()
        )
    );
    assert!(
        with(0, "q.npy", b"PK\x03\x04".to_vec()).starts_with("q.npy: is not a NumPy .npy file")
    );
    assert_eq!(
        with(0, "q.npy", npy32(&[0, 0], &[])),
        "q.npy: q (queries) has shape (0, 0): it holds no numbers"
    );
    assert_eq!(
        with(1, "k.npy", npy32(&[3, 3], &counting(0.0, 3, 3))),
        "k.npy: has rows of 3 numbers, but q's have 2: queries and keys need the same width d_k"
    );
    assert_eq!(
        with(2, "v.npy", npy32(&[2, 2], &counting(0.0, 2, 2))),
        "v.npy: has 2 rows, but k has 3: one value per key"
    );
    assert_eq!(
        with(1, "k.npy", npy32(&[2, 3, 2], &counting(0.0, 6, 2))),
        "k.npy: has 2 heads, but q has 1: every tensor needs the same heads"
    );
    assert_eq!(
        with(0, "q.npy", npy32(&[2, 1, 3, 2], &counting(0.0, 6, 2))),
        "q.npy: q (queries) has shape (2, 1, 3, 2): a batch of 2; save one example (e.g. q[0])"
    );
    assert!(with(0, "x.npy", full.clone()).starts_with("x.npy: which tensor is this?"));
    assert!(with(0, "q.csv", full.clone()).starts_with("q.csv: is a .csv file"));
    let two_q = {
        let mut files = qkv();
        files[1] = ("query.npy", full.clone());
        message(&files)
    };
    assert_eq!(
        two_q,
        "query.npy: is a second q (queries) (the first is q.npy)"
    );
    let mut files = qkv();
    files.pop();
    assert_eq!(
        message(&files),
        "v missing from q.npy, k.npy: bring q, k and v (name the arrays q, k and v (optionally w_o), and the labels tokens.txt or tokens.json)"
    );
}

#[test]
fn limits_are_checked_before_reading() {
    let big = (MAX_BRING_BYTES + 1) as u64;
    assert_eq!(
        check_sizes(&[("huge.npz".into(), big)])
            .unwrap_err()
            .to_string(),
        "huge.npz: is 67.1 MB; the limit is 67.1 MB (it was not read)"
    );
    let many: Vec<(String, u64)> = (0..9).map(|i| (format!("{i}.npy"), 1)).collect();
    assert!(
        check_sizes(&many)
            .unwrap_err()
            .to_string()
            .starts_with("9 files were given")
    );
    assert_eq!(
        check_sizes(&[]).unwrap_err().to_string(),
        "no file was given"
    );
    let mut files = qkv();
    files[0] = (
        "q.npy",
        npy32(&[MAX_TOKENS + 1, 1], &vec![1.0; MAX_TOKENS + 1]),
    );
    assert!(message(&files).contains("513 tokens; the lab computes at most 512"));
}

#[test]
fn the_seeded_parameters_fit_the_heads() {
    let b = bring_named(&qkv()).unwrap();
    let m = b.model(7);
    assert_eq!((m.d_k(), m.heads, m.seed), (2, 1, 7));
}

#[test]
fn every_variant_and_the_steps_run_on_brought_tensors() {
    use attnlab_core::attention::AttentionKind;
    use attnlab_core::score::ScoreFunction;
    use attnlab_lab::compute;
    use attnlab_lab::state::{Mode, Variant};
    use attnlab_lab::tokens::Tokens;
    use attnlab_pages::steps::{self, StepsInput};

    let b = bring_named(&qkv()).unwrap();
    let model = b.model(42);
    let keys = Tokens::pretokenized(&b.keys);
    for score in ScoreFunction::ALL {
        for attention in [
            AttentionKind::Softmax,
            AttentionKind::Elu1,
            AttentionKind::Linformer,
        ] {
            let mut variant = Variant::named("A");
            variant.score = score;
            variant.attention = attention;
            let problem = compute::problem(&model, &b.projected, &variant, &keys).unwrap();
            let heads = compute::compute_heads(&problem).unwrap();
            assert!(heads[0].weights.iter().all(|w| w.is_finite()));
            let input = StepsInput {
                model: &model,
                variant: &variant,
                mode: Mode::SelfAttention,
                encoded: None,
                problem: &problem,
                unturned: None,
                queries: &b.queries,
                keys: &b.keys,
            };
            let stages = steps::steps(&input, 0, 1, attnlab_i18n::Lang::En).unwrap();
            // No X: the stages start at the brought Q.
            assert_eq!(stages[0].values, b.projected.heads[0].q);
            assert!(stages[0].note.contains("as brought"));
        }
    }
}

/// Files written by numpy itself (end2end/fixtures/bring/make.py): float64 in Fortran
/// order, big-endian float32, a compressed .npz with a `<U4` token array, and the same
/// numbers (to 6 decimals) as an attnlab-tensors/1 document.
#[test]
fn files_written_by_numpy_agree_with_each_other() {
    macro_rules! fixture {
        ($name:literal) => {
            include_bytes!(concat!("../../../../end2end/fixtures/bring/", $name)).to_vec()
        };
    }
    let npy = bring_named(&[
        ("q.npy", fixture!("q.npy")),
        ("k.npy", fixture!("k.npy")),
        ("v.npy", fixture!("v.npy")),
        ("tokens.txt", fixture!("tokens.txt")),
    ])
    .unwrap();
    let npz = bring_named(&[("attn.npz", fixture!("attn.npz"))]).unwrap();
    let json = bring_named(&[("attn.json", fixture!("attn.json"))]).unwrap();
    for b in [&npy, &npz, &json] {
        assert_eq!(b.queries, ["the", "cat", "sat", "down"]);
        assert_eq!((b.heads(), b.sizes()), (2, (4, 4, 3, 2)));
    }
    for (a, b) in [(&npy, &json), (&npz, &json)] {
        for (ha, hb) in a.projected.heads.iter().zip(&b.projected.heads) {
            for (x, y) in [(&ha.q, &hb.q), (&ha.k, &hb.k), (&ha.v, &hb.v)] {
                let worst = x
                    .iter()
                    .zip(y)
                    .map(|(x, y)| (x - y).abs())
                    .fold(0.0, f32::max);
                assert!(worst < 1e-5, "{worst}");
            }
        }
    }
}

#[test]
fn a_refusal_is_said_in_each_language_and_crosses_the_wire_whole() {
    use crate::tensors::wire::Reply;
    use attnlab_i18n::Lang;
    let e = bring(&[File {
        name: "q.npy",
        bytes: b"hello",
    }])
    .unwrap_err();
    assert_eq!(
        e.text(Lang::En),
        "q.npy: is not a NumPy .npy file (it does not start with the \\x93NUMPY signature)"
    );
    assert_eq!(e.to_string(), e.text(Lang::En));
    assert_eq!(
        e.text(Lang::Zh),
        "q.npy：不是 NumPy 的 .npy 文件（开头没有 NumPy 的签名字节）"
    );
    let refusal = e.refusal();
    assert_eq!(refusal.file, "q.npy");
    assert_eq!(refusal.text(Lang::En), e.text(Lang::En));
    assert_eq!(refusal.text(Lang::Zh), e.text(Lang::Zh));
    let json = serde_json::to_string(&Reply::Refused(refusal.clone())).unwrap();
    let back: Reply = serde_json::from_str(&json).unwrap();
    assert_eq!(back, Reply::Refused(refusal));
    // Before any file is read: the sizes, said in both languages too.
    let many: Vec<(String, u64)> = (0..9).map(|i| (format!("f{i}.npy"), 1)).collect();
    let e = check_sizes(&many).unwrap_err();
    assert!(e.text(Lang::En).starts_with("9 files were given"), "{e}");
    assert!(
        e.text(Lang::Zh).starts_with("给出了 9 个文件"),
        "{}",
        e.text(Lang::Zh)
    );
    // What is missing, and a shape the lab cannot read.
    let q = npy32(&[2, 3], &[0.0; 6]);
    let e = bring(&[File {
        name: "q.npy",
        bytes: &q,
    }])
    .unwrap_err();
    assert!(
        e.text(Lang::Zh).starts_with("q.npy 中缺少 k、v"),
        "{}",
        e.text(Lang::Zh)
    );
    let batch = npy32(&[2, 1, 2, 3], &[0.0; 12]);
    let e = bring(&[
        File {
            name: "q.npy",
            bytes: &batch,
        },
        File {
            name: "k.npy",
            bytes: &q,
        },
        File {
            name: "v.npy",
            bytes: &q,
        },
    ])
    .unwrap_err();
    assert_eq!(
        e.text(Lang::Zh),
        "q.npy：q（查询） 的形状是 (2, 1, 2, 3)：一批 2 个样例；请只保存一个（例如 q[0]）"
    );
    // A sentence said only in English stays English in Chinese.
    let plain = BringError::new("a.npy", "odd");
    assert_eq!(plain.text(Lang::Zh), "a.npy: odd");
}

mod zh;
