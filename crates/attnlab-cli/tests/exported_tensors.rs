//! The app's "Q, K, V" export (`attnlab_formats::export::tensors`) read back by
//! `attnlab compute`: for links with every score function, masks, linear kinds and
//! Linformer, the binary computes the weights and the output the lab computes.

use std::process::Command;

use attnlab_core::attention::AttentionKind;
use attnlab_core::score::ScoreFunction;
use attnlab_formats::export;
use attnlab_lab::compute::Pipeline;
use attnlab_lab::{LabState, Mode};
use serde_json::Value;

fn compute(doc: &str, name: &str) -> Value {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("exported");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, doc).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(["compute", path.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON out")
}

fn states() -> Vec<(&'static str, LabState)> {
    let mut out = Vec::new();
    let mut s = LabState::default();
    s.variants[1].masks.causal = true;
    s.variants[1].masks.global = vec![2];
    out.push(("default", s));
    for (name, score) in [
        ("general", ScoreFunction::General),
        ("additive", ScoreFunction::Additive),
        ("cosine", ScoreFunction::Cosine),
    ] {
        let mut s = LabState::default();
        s.variants[0].score = score;
        s.variants[0].temperature = 0.5;
        s.variants[0].masks.window = Some(2);
        out.push((name, s));
    }
    for (name, kind) in [
        ("elu1", AttentionKind::Elu1),
        ("linformer", AttentionKind::Linformer),
    ] {
        let mut s = LabState::default();
        s.variants[0].attention = kind;
        s.variants[0].linformer_k = 3;
        out.push((name, s));
    }
    let mut cross = LabState::default();
    cross.set_mode(Mode::Cross);
    cross.pad_to = Some(8);
    cross.variants[0].masks.padding = true;
    cross.variants[0].masks.custom = vec![(0, 1), (2, 0)];
    out.push(("cross-padding-custom", cross));
    out
}

#[test]
fn compute_reads_the_apps_tensors_and_gets_the_apps_weights() {
    for (name, state) in states() {
        let run = Pipeline::new(&state);
        let variant = run.variant(0).unwrap();
        let queries = run.queries().labels();
        let keys = run.keys().labels();
        let doc = export::tensors(&variant.problem, &queries, &keys).unwrap();
        let result = compute(&doc, &format!("{name}.json"));
        let heads = result["heads"].as_array().unwrap();
        assert_eq!(heads.len(), variant.heads.len(), "{name}");
        for (h, (got, want)) in heads.iter().zip(&variant.heads).enumerate() {
            let rows = got["weights"].as_array().unwrap();
            assert_eq!(rows.len(), want.weights.nrows(), "{name} head {h}");
            for (i, row) in rows.iter().enumerate() {
                for (j, v) in row.as_array().unwrap().iter().enumerate() {
                    let (g, w) = (v.as_f64().unwrap() as f32, want.weights[[i, j]]);
                    assert!(
                        (g - w).abs() <= 1e-6,
                        "{name} head {h} [{i}][{j}]: {g} vs {w}"
                    );
                }
            }
        }
    }
}
