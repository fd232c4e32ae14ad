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
        &vocab,
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
