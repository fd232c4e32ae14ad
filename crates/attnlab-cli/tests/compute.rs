//! `attnlab compute` as a user runs it: what goes to standard output and standard error,
//! and the exit status.

mod common;

use std::io::Write;
use std::process::Command;

use common::{compute, spawn_compute};

#[test]
fn unknown_fields_are_warnings_and_the_result_still_comes() {
    let o = compute(
        r#"{"temprature":2,"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"extra":1}],"mask":{"colour":"red"}}"#,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "warning: ignoring unknown field temprature\n\
         warning: ignoring unknown field heads[0].extra\n\
         warning: ignoring unknown field mask.colour\n"
    );
    let result: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(result["heads"][0]["weights"], serde_json::json!([[1.0]]));
}

#[test]
fn a_bad_value_exits_2_with_its_path() {
    let cases = [
        (
            r#"{"heads":[{"q":[[1,2]],"k":[[1,2],[3]],"v":[[1],[2]]}]}"#,
            "heads[0].k[1]: expected 2 numbers, found 1",
        ),
        (
            r#"{"heads":[{"q":[[1,2],[3,"x"]],"k":[[1,2]],"v":[[1]]}]}"#,
            r#"heads[0].q[1][1]: invalid type: string "x", expected f32"#,
        ),
        (r#"{"score":"dot"}"#, "heads: missing"),
        (
            r#"{"score":"bilinear","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#,
            r#"score: is the string "bilinear", expected one of "dot", "scaled_dot", "general", "additive", "cosine""#,
        ),
    ];
    for (input, want) in cases {
        let o = compute(input);
        assert_eq!(o.status.code(), Some(2), "{input}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), format!("{want}\n"));
        assert!(o.stdout.is_empty(), "{input}");
    }
}

#[test]
fn too_many_weights_are_refused_before_any_is_computed() {
    // 8193 × 8193 = 67,125,249 weights, just over 2^26.
    let rows = vec!["[0]"; 8193].join(",");
    let doc = format!(r#"{{"heads":[{{"q":[{rows}],"k":[{rows}],"v":[{rows}]}}]}}"#);
    let o = compute(&doc);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "heads: 1 head of 8193 × 8193 weights are more than the 67108864 weights attnlab holds at once\n"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn a_200000_by_200000_problem_is_refused_before_anything_is_allocated() {
    // 200,000 queries and keys of one number each: 4·10¹⁰ weights, a 40 GB mask.
    let rows = vec!["[0]"; 200_000].join(",");
    let doc = format!(r#"{{"heads":[{{"q":[{rows}],"k":[{rows}],"v":[{rows}]}}]}}"#);
    let o = compute(&doc);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "heads: 1 head of 200000 × 200000 weights are more than the 67108864 weights attnlab holds at once\n"
    );
}

#[test]
fn endless_standard_input_ends_with_an_error() {
    let mut child = spawn_compute();
    let mut stdin = child.stdin.take().unwrap();
    // `yes |`: lines until the reader stops reading (then the pipe breaks).
    let writer = std::thread::spawn(move || {
        let block = "y\n".repeat(32 * 1024);
        while stdin.write_all(block.as_bytes()).is_ok() {}
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "input: standard input is larger than 256 MiB, the most attnlab reads here\n"
    );
}

#[test]
fn a_device_that_never_ends_is_read_up_to_the_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let o = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(["compute", "/dev/zero"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "input: /dev/zero is larger than 256 MiB, the most attnlab reads here\n"
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compute-limits");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.json");
    // A sparse file: 300 MiB long, nothing written.
    std::fs::File::create(&path)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(["compute", path.to_str().unwrap()])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.ends_with("huge.json is larger than 256 MiB, the most attnlab reads here\n"),
        "{err}"
    );
}

/// A JSON matrix as rows of f64.
fn matrix(v: &serde_json::Value) -> Vec<Vec<f64>> {
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
fn every_head_carries_its_contributions_weight_times_value_length() {
    // Every hand-checked case: N_ij = |α_ij| ‖v_j‖, with Linformer's values F V,
    // written out here in f64 from the input and the printed weights.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut checked = 0;
    let cases = files.len();
    for path in files {
        let before = checked;
        let case: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let o = compute(&case["input"].to_string());
        assert_eq!(o.status.code(), Some(0), "{}", path.display());
        let result: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for (h, head) in case["input"]["heads"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let v = matrix(&head["v"]);
            let values: Vec<Vec<f64>> = match head.get("linformer") {
                Some(lin) if case["input"]["attention"] == "linformer" => matrix(&lin["f"])
                    .iter()
                    .map(|f| {
                        (0..v[0].len())
                            .map(|c| f.iter().zip(&v).map(|(a, row)| a * row[c]).sum())
                            .collect()
                    })
                    .collect(),
                _ => v,
            };
            let weights = matrix(&result["heads"][h]["weights"]);
            let norms = matrix(&result["heads"][h]["norms"]);
            assert_eq!(norms.len(), weights.len(), "{}", path.display());
            for (w_row, n_row) in weights.iter().zip(&norms) {
                assert_eq!(n_row.len(), values.len(), "{}", path.display());
                for ((w, n), value) in w_row.iter().zip(n_row).zip(&values) {
                    let len = value.iter().map(|x| x * x).sum::<f64>().sqrt();
                    let expected = w.abs() * len;
                    assert!(
                        (n - expected).abs() <= 1e-5 * expected.max(1e-6),
                        "{} head {h}: {n} vs {expected}",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > before, "{}: no cell checked", path.display());
    }
    // Fifteen cases (97 cells) when this was written.
    assert!(
        cases >= 15 && checked >= 97,
        "{cases} cases, {checked} cells"
    );
}
