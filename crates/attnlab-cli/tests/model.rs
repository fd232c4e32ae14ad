//! `attnlab model`: on a tiny random checkpoint written here (f32 and as an int8
//! asset), so that these run everywhere; and once on the real model, skipped with a
//! printed message when `cargo xtask model` has not been run.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use attnlab_model::{About, Pretrained, asset, testing};
use serde_json::Value;

fn attnlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(args)
        // The tests name their weights; none may come from the environment.
        .env_remove("ATTNLAB_MODEL_ASSET")
        .env_remove("ATTNLAB_MODEL_CACHE")
        .env_remove("ATTNLAB_E5_ASSET")
        .output()
        .expect("the binary runs")
}

/// A directory with a tiny f32 checkpoint, and the path of its int8 asset; one directory
/// per test (`name`), since the tests run in parallel.
fn tiny(name: &str) -> (PathBuf, PathBuf) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("model-tiny-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let (weights, config, vocab) = testing::tiny_checkpoint(3);
    std::fs::write(dir.join("model.safetensors"), &weights).unwrap();
    std::fs::write(dir.join("config.json"), &config).unwrap();
    std::fs::write(dir.join("vocab.txt"), &vocab).unwrap();
    let model = Pretrained::from_hugging_face(&weights, &config, None, &vocab).unwrap();
    let bytes = asset::write(
        model.encoder(),
        asset::Vocabulary::WordPiece(&vocab),
        &About::default(),
        asset::default_plan,
    )
    .unwrap();
    let asset = dir.join("tiny.q8.safetensors");
    std::fs::write(&asset, bytes).unwrap();
    (dir, asset)
}

fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON on standard output")
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn prints_tokens_every_head_and_the_embedding() {
    let (dir, asset) = tiny("prints");
    for args in [
        vec!["--weights", "f32", "--model-dir", dir.to_str().unwrap()],
        vec!["--asset", asset.to_str().unwrap()],
    ] {
        let mut all = vec!["model", "--text", "The cat sat on the mat."];
        all.extend(args);
        let doc = json(&attnlab(&all));
        assert_eq!(doc["format"], "attnlab-model/1");
        assert_eq!(
            doc["tokens"],
            serde_json::json!([
                "[CLS]", "the", "cat", "sat", "on", "the", "mat", ".", "[SEP]"
            ])
        );
        assert_eq!(doc["ids"].as_array().unwrap().len(), 9);
        assert_eq!(doc["truncated"], false);
        let layers = doc["attentions"].as_array().unwrap();
        assert_eq!(layers.len(), 2);
        for layer in layers {
            assert_eq!(layer.as_array().unwrap().len(), 2);
            for head in layer.as_array().unwrap() {
                let a = matrix(head);
                assert_eq!(a.len(), 9);
                for row in a {
                    assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5);
                }
            }
        }
        let e: Vec<f64> = doc["embedding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(e.len(), 8);
        assert!((e.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn a_pair_is_read_together_and_says_where_the_second_text_starts() {
    let (_, asset) = tiny("pair");
    let doc = json(&attnlab(&[
        "model",
        "--text",
        "the cat sat",
        "--pair",
        "a dog ran",
        "--asset",
        asset.to_str().unwrap(),
    ]));
    assert_eq!(doc["model"], "minilm-l6");
    assert_eq!(
        doc["tokens"],
        serde_json::json!([
            "[CLS]", "the", "cat", "sat", "[SEP]", "a", "dog", "ran", "[SEP]"
        ])
    );
    assert_eq!(doc["second"], 5);
    assert_eq!(doc["attentions"][0][0].as_array().unwrap().len(), 9);
    let alone = json(&attnlab(&[
        "model",
        "--text",
        "the cat sat a dog ran",
        "--asset",
        asset.to_str().unwrap(),
    ]));
    assert_eq!(alone["second"], Value::Null);
    let bad = attnlab(&[
        "model",
        "--text",
        "the",
        "--pair",
        " ",
        "--asset",
        asset.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).starts_with("--pair: "));
}

#[test]
fn an_exported_head_computes_to_the_same_weights() {
    let (dir, _) = tiny("export");
    let base = ["model", "--text", "a big red dog ran", "--weights", "f32"];
    let with_dir = |extra: &[&str]| {
        let mut all: Vec<&str> = base.to_vec();
        all.extend(["--model-dir", dir.to_str().unwrap()]);
        all.extend(extra);
        attnlab(&all)
    };
    let doc = json(&with_dir(&[]));
    let exported = with_dir(&["--export-tensors", "1,1"]);
    let tensors = json(&exported);
    assert_eq!(tensors["format"], "attnlab-tensors/1");
    assert_eq!(tensors["query_tokens"], doc["tokens"]);
    let mut compute = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(["compute", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    compute
        .stdin
        .take()
        .unwrap()
        .write_all(&exported.stdout)
        .unwrap();
    let result = json(&compute.wait_with_output().unwrap());
    assert_eq!(result["format"], "attnlab-result/1");
    let got = matrix(&result["heads"][0]["weights"]);
    let expected = matrix(&doc["attentions"][1][1]);
    for (g, e) in got.iter().flatten().zip(expected.iter().flatten()) {
        assert!((g - e).abs() < 1e-6, "{g} vs {e}");
    }
}

#[test]
fn bad_text_is_one_line_and_status_2() {
    let (_, asset) = tiny("bad-text");
    let long = "a ".repeat(6000);
    for text in ["", " \u{7}\u{1b} \t\u{200b}", long.as_str()] {
        let o = attnlab(&["model", "--text", text, "--asset", asset.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{text:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("--text: "), "{err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn a_missing_asset_says_how_to_get_it() {
    let o = attnlab(&["model", "--text", "hi", "--asset", "/nonexistent/asset"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cargo xtask model"));
}

#[test]
fn the_real_model_prints_72_heads() {
    let asset = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/model/all-minilm-l6-v2.q8.safetensors");
    if !asset.exists() {
        println!(
            "skipped: the_real_model_prints_72_heads: no asset at {} (run `cargo xtask model`)",
            asset.display()
        );
        return;
    }
    let text = "The animal didn't cross the street because it was too tired";
    let doc = json(&attnlab(&[
        "model",
        "--text",
        text,
        "--asset",
        asset.to_str().unwrap(),
    ]));
    assert_eq!(doc["tokens"].as_array().unwrap().len(), 15);
    let layers = doc["attentions"].as_array().unwrap();
    let heads: usize = layers.iter().map(|l| l.as_array().unwrap().len()).sum();
    assert_eq!(heads, 72);
    assert_eq!(doc["embedding"].as_array().unwrap().len(), 384);
}

/// multilingual-E5-small's asset, or `None` (with a printed reason) when `cargo xtask
/// model` has not made it.
fn e5_asset(test: &str) -> Option<PathBuf> {
    let asset = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/model/multilingual-e5-small.q4.safetensors");
    if asset.exists() {
        Some(asset)
    } else {
        println!(
            "skipped: {test}: no asset at {} (run `cargo xtask model`)",
            asset.display()
        );
        None
    }
}

#[test]
fn e5_attentions_and_embeddings_match_the_float64_reference() {
    let Some(asset) = e5_asset("e5 reference") else {
        return;
    };
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../attnlab-model/testdata/e5_forward.json"
    );
    let reference: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut worst, mut lowest) = (0.0f64, 1.0f64);
    for case in reference["cases"].as_array().unwrap() {
        let mut args = vec![
            "model",
            "--model",
            "multilingual-e5-small",
            "--asset",
            asset.to_str().unwrap(),
            "--text",
            case["text"].as_str().unwrap(),
        ];
        if let Some(b) = case["pair"].as_str() {
            args.extend(["--pair", b]);
        }
        let doc = json(&attnlab(&args));
        assert_eq!(doc["model"], "multilingual-e5-small");
        assert_eq!(doc["ids"], case["ids"]);
        let layers = doc["attentions"].as_array().unwrap();
        assert_eq!(layers.len(), 12);
        assert!(layers.iter().all(|l| l.as_array().unwrap().len() == 12));
        for head in case["heads"].as_array().unwrap() {
            let (l, h) = (
                head["layer"].as_u64().unwrap() as usize,
                head["head"].as_u64().unwrap() as usize,
            );
            let got = matrix(&doc["attentions"][l][h]);
            let expected = matrix(&head["weights"]);
            for (g, e) in got.iter().flatten().zip(expected.iter().flatten()) {
                worst = worst.max((g - e).abs());
            }
        }
        let e: Vec<f64> = case["embedding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let g: Vec<f64> = doc["embedding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let dot: f64 = e.iter().zip(&g).map(|(a, b)| a * b).sum();
        let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        lowest = lowest.min(dot / (norm(&e) * norm(&g)));
    }
    println!(
        "attnlab model (E5) vs numpy float64: worst attention deviation {worst:.2e}, lowest cosine {lowest:.7}"
    );
    assert!(worst <= 1e-4, "{worst}");
    assert!(lowest >= 0.9999, "{lowest}");
}

#[test]
fn e5_reads_characters_it_does_not_ship_as_unk_and_refuses_f32_weights() {
    let Some(asset) = e5_asset("e5 errors") else {
        return;
    };
    let e5 = |extra: &[&str]| {
        let mut args = vec![
            "model",
            "--model",
            "multilingual-e5-small",
            "--asset",
            asset.to_str().unwrap(),
        ];
        args.extend(extra);
        attnlab(&args)
    };
    let tokens = |o: &std::process::Output| -> Vec<String> {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        doc["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    // A character the file has no piece for is the model's <unk>, in its place; the text
    // around it is read as it is.
    let t = tokens(&e5(&["--text", "我的猫🐱喜欢吃鱼"]));
    let unk = t.iter().position(|t| t == "<unk>").expect("an <unk> piece");
    assert_eq!(t[unk - 1], "猫", "{t:?}");
    assert_eq!(t[unk + 1], "喜欢", "{t:?}");
    assert!(t.contains(&"鱼".to_string()), "{t:?}");
    let t = tokens(&e5(&["--text", "猫", "--pair", "ねこ"]));
    assert!(
        t.ends_with(&["<unk>".to_string(), "</s>".to_string()]),
        "{t:?}"
    );
    let o = e5(&["--text", "猫", "--weights", "f32"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("4-bit"));
}

#[test]
fn an_exported_e5_head_computes_to_the_same_weights() {
    let Some(asset) = e5_asset("e5 export") else {
        return;
    };
    let base = [
        "model",
        "--model",
        "multilingual-e5-small",
        "--asset",
        asset.to_str().unwrap(),
        "--text",
        "我的猫喜欢吃鱼",
        "--pair",
        "My cat likes eating fish.",
    ];
    let doc = json(&attnlab(&base));
    let mut export = base.to_vec();
    export.extend(["--export-tensors", "5,5"]);
    let exported = attnlab(&export);
    let tensors = json(&exported);
    assert_eq!(tensors["query_tokens"], doc["tokens"]);
    let mut compute = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(["compute", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    compute
        .stdin
        .take()
        .unwrap()
        .write_all(&exported.stdout)
        .unwrap();
    let result = json(&compute.wait_with_output().unwrap());
    let got = matrix(&result["heads"][0]["weights"]);
    let expected = matrix(&doc["attentions"][5][5]);
    for (g, e) in got.iter().flatten().zip(expected.iter().flatten()) {
        assert!((g - e).abs() < 1e-6, "{g} vs {e}");
    }
    let o = attnlab(&[&base[..], &["--export-tensors", "12,0"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("layers 0 to 11"));
}

#[test]
fn norms_are_each_keys_value_through_its_heads_rows_of_w_o() {
    let (dir, _) = tiny("norms");
    let text = "the quick dog ran, it was tired";
    let doc = json(&attnlab(&[
        "model",
        "--text",
        text,
        "--weights",
        "f32",
        "--model-dir",
        dir.to_str().unwrap(),
        "--norms",
    ]));
    // The values from the library's forward pass (tested against numpy elsewhere), W^O
    // read from the file, the weights from the document: ‖α_ij v_j W_hᵀ‖ in f64.
    let (weights, config, vocab) = testing::tiny_checkpoint(3);
    let model = Pretrained::from_hugging_face(&weights, &config, None, &vocab).unwrap();
    let run = model
        .run(text, &attnlab_model::AttentionOverride::default())
        .unwrap();
    let tensors = attnlab_model::tensors::Tensors::parse(&weights).unwrap();
    let (d, dk) = (8, 4);
    let norms = doc["norms"].as_array().unwrap();
    assert_eq!(norms.len(), 2);
    let mut checked = 0;
    for (l, layer) in norms.iter().enumerate() {
        let w = tensors
            .matrix(
                &format!("encoder.layer.{l}.attention.output.dense.weight"),
                d,
                d,
            )
            .unwrap()
            .to_f32();
        for (h, head) in layer.as_array().unwrap().iter().enumerate() {
            let got = matrix(head);
            let alpha = matrix(&doc["attentions"][l][h]);
            let v = &run.forward.heads[l][h].v;
            for (i, row) in got.iter().enumerate() {
                for (j, n) in row.iter().enumerate() {
                    let square: f64 = (0..d)
                        .map(|c| {
                            let f: f64 = (0..dk)
                                .map(|r| f64::from(v[[j, r]]) * f64::from(w[c * d + h * dk + r]))
                                .sum();
                            (alpha[i][j] * f).powi(2)
                        })
                        .sum();
                    let expected = square.sqrt();
                    assert!(
                        (n - expected).abs() <= 1e-5 * expected.max(1e-3),
                        "layer {l} head {h} ({i}, {j}): {n} vs {expected}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 4 * 10 * 10);
    // Without --norms the document has none; with --export-tensors it is refused.
    let plain = json(&attnlab(&[
        "model",
        "--text",
        text,
        "--weights",
        "f32",
        "--model-dir",
        dir.to_str().unwrap(),
    ]));
    assert!(plain.get("norms").is_none());
    let both = attnlab(&[
        "model",
        "--text",
        text,
        "--norms",
        "--export-tensors",
        "0,0",
    ]);
    assert_eq!(both.status.code(), Some(2));
}
