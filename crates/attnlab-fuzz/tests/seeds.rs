//! Writes the committed seed corpus (`seeds/TARGET/`): real links, tensor files, lesson
//! folders, sentences in several scripts, a tiny model asset and the heads of the real
//! assets. Run by hand, after `cargo xtask model` for the assets' heads:
//! `cargo test -p attnlab-fuzz --test seeds -- --ignored`.

use std::io::Write;
use std::path::{Path, PathBuf};

use attnlab_core::attention::AttentionKind;
use attnlab_core::score::ScoreFunction;
use attnlab_lab::state::{LabState, Mode, Variant};
use attnlab_model::Pretrained;
use attnlab_model::asset::{self, About};
use attnlab_model::testing;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn put(target: &str, name: &str, bytes: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}

/// The first `len` bytes of a file, if it is there.
fn head(path: &Path, len: usize) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    Some(bytes[..len.min(bytes.len())].to_vec())
}

/// A `.npy` (version 1) of `descr`, `shape` and raw `data`, from the format's definition.
fn npy(descr: &str, fortran: bool, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let order = if fortran { "True" } else { "False" };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}");
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

/// The JSON state inside a `v1.` or `v1z.` link.
fn link_json(link: &str) -> Vec<u8> {
    use std::io::Read;
    let (packed, body) = match link.strip_prefix("v1z.") {
        Some(body) => (true, body),
        None => (false, link.strip_prefix("v1.").expect("a v1 link")),
    };
    let bytes = URL_SAFE_NO_PAD.decode(body).expect("base64url");
    if !packed {
        return bytes;
    }
    let mut json = Vec::new();
    flate2::read::DeflateDecoder::new(&bytes[..])
        .read_to_end(&mut json)
        .expect("deflate");
    json
}

fn f32s(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| (i as f32 * 0.25).to_le_bytes())
        .collect()
}

#[test]
#[ignore = "writes the seed corpus"]
fn write_seeds() {
    // Links.
    let cross = LabState {
        mode: Mode::Cross,
        text: "the cat sat on the mat".into(),
        ..LabState::default()
    };
    let mut long = LabState {
        text: "attention is all you need ".repeat(20),
        ..LabState::default()
    };
    long.model.heads = 2;
    let _ = long.add_variant();
    let links = [
        ("default", attnlab_link::encode(&LabState::default())),
        ("cross", attnlab_link::encode(&cross)),
        ("compressed", attnlab_link::encode(&long)),
        (
            "url",
            format!(
                "https://example.invalid/attnlab/#{}&lang=zh",
                attnlab_link::encode(&cross)
            ),
        ),
        (
            "lesson",
            format!("#lesson=masks/causal&{}", attnlab_link::encode(&cross)),
        ),
        ("tampered", "#v1.this-is-not!!base64".into()),
    ];
    for (name, link) in links {
        put("link", name, link.as_bytes());
    }
    // The JSON inside links (the target also opens an input starting with `{` as a
    // state): every attention kind, score function and mask, four variants, padding.
    let mut every = LabState {
        text: "the cat sat on the mat because it was tired".into(),
        pad_to: Some(12),
        ..LabState::default()
    };
    every.variants.clear();
    let kinds = [
        (AttentionKind::Softmax, ScoreFunction::Additive),
        (AttentionKind::Elu1, ScoreFunction::ScaledDot),
        (AttentionKind::Linformer, ScoreFunction::ScaledDot),
        (AttentionKind::Taylor, ScoreFunction::General),
    ];
    for (i, (attention, score)) in kinds.into_iter().enumerate() {
        let mut v = Variant::named(["A", "B", "C", "D"][i]);
        v.attention = attention;
        v.score = score;
        v.temperature = 0.5 + i as f32;
        every.variants.push(v);
    }
    every.variants[0].masks.causal = true;
    every.variants[0].masks.padding = true;
    every.variants[0].masks.custom = vec![(1, 0), (3, 2)];
    every.variants[1].masks.window = Some(2);
    every.variants[3].masks.strided = Some(3);
    every.variants[3].masks.global = vec![0, 4];
    let mut cross_linear = cross.clone();
    cross_linear.variants[1].attention = AttentionKind::Efficient;
    cross_linear.variants[0].attention = AttentionKind::Relu;
    cross_linear.model.heads = 8;
    for (name, state) in [("state-every", &every), ("state-cross", &cross_linear)] {
        put("link", name, &link_json(&attnlab_link::encode(state)));
    }

    // attnlab-tensors/1 documents: the CLI's hand-checked cases and a lesson's.
    let cases = root().join("crates/attnlab-cli/testdata");
    let mut names: Vec<_> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names.iter().take(8) {
        let case: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        put("tensors_json", name, case["input"].to_string().as_bytes());
    }
    // …and the hand-checked cases of every modern kind and option (RoPE, ALiBi, grouped
    // heads, sinks, softcap, tiles, the softmax alternatives, decayed linear, FAVOR+).
    let mut modern: Vec<_> = std::fs::read_dir(cases.join("modern"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    modern.sort();
    for path in &modern {
        let case: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let name = format!("modern-{}", path.file_name().unwrap().to_str().unwrap());
        put("tensors_json", &name, case["input"].to_string().as_bytes());
    }
    let lesson_tensors = std::fs::read(root().join("lessons/01-alignment/alignment.json")).unwrap();
    put("tensors_json", "lesson-alignment.json", &lesson_tensors);

    // .npy arrays: byte orders, dtypes, orders, a string array.
    put("npy", "f4-3x4.npy", &npy("<f4", false, &[3, 4], &f32s(12)));
    let f8_be: Vec<u8> = (0..6).flat_map(|i| (i as f64).to_be_bytes()).collect();
    put(
        "npy",
        "f8-be-fortran-2x3.npy",
        &npy(">f8", true, &[2, 3], &f8_be),
    );
    put(
        "npy",
        "f4-heads-2x3x2.npy",
        &npy("<f4", false, &[2, 3, 2], &f32s(12)),
    );
    let i4: Vec<u8> = (0..4i32).flat_map(i32::to_le_bytes).collect();
    put("npy", "i4-2x2.npy", &npy("<i4", false, &[2, 2], &i4));

    // An .npz of q, k, v and the tokens, one entry deflated.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, options) in [("q.npy", deflated), ("k.npy", stored), ("v.npy", stored)] {
        zip.start_file(name, options).unwrap();
        zip.write_all(&npy("<f4", false, &[3, 2], &f32s(6)))
            .unwrap();
    }
    let labels: Vec<u8> = ["cat", "sat", "on"]
        .iter()
        .flat_map(|l| {
            let mut cps: Vec<u32> = l.chars().map(u32::from).collect();
            cps.resize(3, 0);
            cps.into_iter().flat_map(u32::to_le_bytes)
        })
        .collect();
    zip.start_file("tokens.npy", stored).unwrap();
    zip.write_all(&npy("<U3", false, &[3], &labels)).unwrap();
    put("npz", "qkv-tokens.npz", &zip.finish().unwrap().into_inner());

    // Lesson folders: lesson.toml, en.toml, zh.toml and the tensors, split by NUL.
    for lesson in ["01-alignment", "05-masks"] {
        let dir = root().join("lessons").join(lesson);
        let mut joined = Vec::new();
        for (i, file) in ["lesson.toml", "en.toml", "zh.toml", "alignment.json"]
            .iter()
            .enumerate()
        {
            if i > 0 {
                joined.push(0);
            }
            if let Ok(bytes) = std::fs::read(dir.join(file)) {
                joined.extend_from_slice(&bytes);
            }
        }
        put("lesson", lesson, &joined);
    }

    // Sentences in several scripts, for both tokenizers.
    let sentences = [
        ("english", "The cat sat on the mat, didn't it?"),
        ("chinese", "注意力机制是一种对齐方法。"),
        ("arabic", "مرحبا بالعالم"),
        ("hindi", "नमस्ते दुनिया"),
        ("combining", "e\u{301}le\u{300}ve cafe\u{301} ﬁ Ｆｕｌｌ"),
        (
            "emoji",
            "I \u{2764}\u{FE0F} \u{1F469}\u{200D}\u{1F4BB} [CLS] <s> [MASK]",
        ),
    ];
    for (name, text) in sentences {
        put("wordpiece", name, text.as_bytes());
        put("unigram", name, text.as_bytes());
    }

    // Model assets: a tiny valid one, and the heads of the real ones.
    let (w, c, v) = testing::tiny_checkpoint(3);
    let tiny = Pretrained::from_hugging_face(&w, &c, None, &v).unwrap();
    let about = About {
        name: "tiny".into(),
        source: "attnlab-fuzz seeds".into(),
        licence: "none".into(),
    };
    let bytes = asset::write(
        tiny.encoder(),
        asset::Vocabulary::WordPiece(&v),
        &about,
        asset::default_plan,
    )
    .unwrap();
    put("minilm_asset", "tiny.safetensors", &bytes);
    let model = root().join("target/model");
    for (name, file) in [
        ("minilm-head", "all-minilm-l6-v2.q8.safetensors"),
        ("e5-head", "multilingual-e5-small.q4.safetensors"),
    ] {
        if let Some(h) = head(&model.join(file), 16 * 1024) {
            put("minilm_asset", name, &h);
        }
    }
    let container = root().join("target/model-cache/multilingual-e5-small/e5-small-q4.bin");
    if let Some(h) = head(&container, 16 * 1024) {
        put("e5_asset", "e5s1-head", &h);
    }
}
