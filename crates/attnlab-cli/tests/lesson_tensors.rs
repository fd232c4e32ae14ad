//! The `attnlab-tensors/1` documents lessons carry (`lessons/*/*.json`) go through
//! `attnlab compute` without a warning, and the hand-built alignment of lesson 1 gives
//! the weights its text describes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn lessons() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons")
}

/// Runs `attnlab compute FILE`; the result's JSON.
fn compute(file: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .arg("compute")
        .arg(file)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {stderr}", file.display());
    assert!(stderr.is_empty(), "{}: {stderr}", file.display());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_lesson_tensors_document_computes_without_a_warning() {
    let mut found = 0;
    for folder in fs::read_dir(lessons()).unwrap().flatten() {
        for file in fs::read_dir(folder.path()).unwrap().flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "json") {
                found += 1;
                let result = compute(&path);
                for head in result["heads"].as_array().unwrap() {
                    for row in head["weights"].as_array().unwrap() {
                        let sum: f64 = row
                            .as_array()
                            .unwrap()
                            .iter()
                            .filter_map(Value::as_f64)
                            .sum();
                        assert!((sum - 1.0).abs() < 1e-5, "{}: {sum}", path.display());
                    }
                }
            }
        }
    }
    assert!(found >= 1, "lesson 1 carries its alignment");
}

#[test]
fn the_hand_built_alignment_is_an_alignment() {
    let result = compute(&lessons().join("01-alignment/alignment.json"));
    let keys: Vec<&str> = result["key_tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let weights = result["heads"][0]["weights"].as_array().unwrap();
    // "“I” looks at 我, “love” at 爱, “machine” shares its weight between 机 and 器,
    // “learning” between 学 and 习."
    let expected: [(&str, &[&str]); 4] = [
        ("I", &["我"]),
        ("love", &["爱"]),
        ("machine", &["机", "器"]),
        ("learning", &["学", "习"]),
    ];
    for (row, (query, aligned)) in weights.iter().zip(expected) {
        let row: Vec<f64> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_f64().unwrap())
            .collect();
        let mut order: Vec<usize> = (0..row.len()).collect();
        order.sort_by(|&a, &b| row[b].total_cmp(&row[a]));
        let top: Vec<&str> = order[..aligned.len()].iter().map(|&j| keys[j]).collect();
        let mut want = aligned.to_vec();
        let mut got = top.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{query}: {row:?}");
        let share: f64 = order[..aligned.len()].iter().map(|&j| row[j]).sum();
        assert!(share > 0.75, "{query}: the aligned characters take {share}");
        if aligned.len() == 2 {
            let (a, b) = (row[order[0]], row[order[1]]);
            assert!(
                (a - b).abs() < 1e-6,
                "{query} shares its weight equally: {a} {b}"
            );
        }
    }
}
