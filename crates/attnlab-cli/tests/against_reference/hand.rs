//! The hand-checked cases of the modern variants, `testdata/modern/*.json`
//! (`note` with the arithmetic, `input`, `expected`): the reference must
//! reproduce every number (this keeps the reference honest against hand
//! arithmetic, and runs now), and so must the binary once the core has the
//! variants. Then the reference's own checks against numbers computed
//! outside it (the ALiBi paper's `get_slopes`, one YaRN case) and against the
//! other forms the spec gives (the decayed recurrence, FAVOR+'s linear and
//! prefix-sum forms, RoPE's relative positions).

use std::path::{Path, PathBuf};

use serde_json::Value;

use serde_json::json;

use super::{
    Fields, Rng, TOL_TESTDATA, Via, assert_close, compare, expected_json, reference, run_compute,
};

fn modern_cases() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/modern");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 20,
        "expected at least 20 modern testdata cases, found {}",
        files.len()
    );
    files
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                file["note"].as_str().is_some_and(|s| !s.is_empty()),
                "{name}: a testdata case explains its arithmetic in \"note\""
            );
            assert!(file["expected"].is_object(), "{name}: missing \"expected\"");
            (name, file)
        })
        .collect()
}

/// The reference alone (no binary) against the hand arithmetic, to 1e-9.
#[test]
fn modern_testdata_reference_matches_hand_arithmetic() {
    let mut failed = Vec::new();
    let cases = modern_cases();
    for (name, file) in &cases {
        let mut errs = Vec::new();
        let got = expected_json(&reference::compute(&file["input"]), Fields::Modern);
        compare(&got, &file["expected"], 1e-9, "reference", &mut errs);
        if !errs.is_empty() {
            failed.push(format!("{name}:\n  {}", errs.join("\n  ")));
        }
    }
    eprintln!(
        "modern testdata (reference): {} cases, {} failed",
        cases.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "the reference misses the hand arithmetic:\n{}",
        failed.join("\n")
    );
}

/// The binary against the same hand arithmetic, to 1e-6.
#[test]
fn modern_testdata_binary_matches_hand_arithmetic() {
    let mut failed = Vec::new();
    let cases = modern_cases();
    for (name, file) in &cases {
        let mut errs = Vec::new();
        let out = run_compute(
            &file["input"].to_string(),
            Via::File,
            &format!("modern-testdata-{name}"),
        );
        if !out.status.success() {
            errs.push(format!(
                "exit status {:?}, stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        } else {
            match serde_json::from_slice::<Value>(&out.stdout) {
                Ok(got) => compare(&got, &file["expected"], TOL_TESTDATA, "binary", &mut errs),
                Err(e) => errs.push(format!("stdout is not JSON ({e})")),
            }
        }
        if !errs.is_empty() {
            errs.truncate(6);
            failed.push(format!("{name}:\n  {}", errs.join("\n  ")));
        }
    }
    eprintln!(
        "modern testdata (binary): {} cases, {} failed",
        cases.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "the binary misses the hand arithmetic:\n{}",
        failed.join("\n")
    );
}

// ------------------------------------------------- the reference's own ---

/// `get_slopes(n)` of the ALiBi paper's code (Press et al. 2022), run once in
/// python3 for these `n`.
#[test]
#[allow(clippy::approx_constant)] // python's digits, as printed
fn reference_alibi_slopes_are_the_papers() {
    let paper: [(usize, &[f64]); 7] = [
        (1, &[0.00390625]),
        (2, &[0.0625, 0.00390625]),
        (3, &[0.0625, 0.00390625, 0.25]),
        (5, &[0.25, 0.0625, 0.015625, 0.00390625, 0.5]),
        (6, &[0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125]),
        (
            7,
            &[0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125, 0.03125],
        ),
        (
            12,
            &[
                0.5,
                0.25,
                0.125,
                0.0625,
                0.03125,
                0.015625,
                0.0078125,
                0.00390625,
                0.7071067811865476,
                0.35355339059327384,
                0.17677669529663692,
                0.08838834764831849,
            ],
        ),
    ];
    for (n, want) in paper {
        let got = reference::paper_slopes(n);
        assert_eq!(got.len(), n, "H = {n}");
        for (h, (g, w)) in got.iter().zip(want).enumerate() {
            assert_close(*g, *w, 1e-15, &format!("slope {h} of H = {n}"));
        }
    }
}

/// YaRN r = 8, base 10000, s = 4, L = 2048: low = 1, high = 3, inv_freq =
/// [1, 0.1, 0.00625, 0.00025], mscale = 0.1 ln 4 + 1 (a one-off python3
/// transliteration of HF's `_compute_yarn_parameters`); and with L = 16 the
/// correction dims collapse (corr_dim(32) < 0 → low 0; corr_dim(1) =
/// 8 ln(16/2π)/(2 ln 10⁴) = 0.4059 → high 1): ramp [0, 1, 1, 1].
#[test]
fn reference_yarn_inv_freq_is_hfs() {
    let yarn = json!({ "kind": "yarn", "factor": 4, "original_max_positions": 2048 });
    let (inv, div, mscale) = reference::rope_inv_freq(10000.0, 8, Some(&yarn));
    for (i, w) in [1.0, 0.1, 0.00625, 0.00025].iter().enumerate() {
        assert_close(inv[i], *w, 1e-15, &format!("inv_freq {i}"));
    }
    assert_eq!(div, 1.0);
    assert_close(mscale, 1.138629436111989, 1e-15, "mscale");

    let yarn = json!({ "kind": "yarn", "factor": 4, "original_max_positions": 16 });
    let (inv, _, _) = reference::rope_inv_freq(10000.0, 8, Some(&yarn));
    for (i, w) in [1.0, 0.025, 0.0025, 0.00025].iter().enumerate() {
        assert_close(inv[i], *w, 1e-15, &format!("inv_freq {i}, L = 16"));
    }
    // a factor below 1 leaves mscale at 1
    let yarn = json!({ "kind": "yarn", "factor": 0.5, "original_max_positions": 16 });
    assert_eq!(reference::rope_inv_freq(10000.0, 8, Some(&yarn)).2, 1.0);
}

/// Without scaling, RoPE makes `q̃(p)·k̃(p′)` depend on `p − p′` only: moving
/// every position by 3.5 changes no weight.
#[test]
fn reference_rope_depends_on_distance_only() {
    let mut rng = Rng::new(0x5EED_0100);
    for t in 0..20 {
        let (n, m) = (rng.range(1, 5), rng.range(1, 5));
        let d = 2 * rng.range(1, 3);
        let pairs = if t % 2 == 0 { "half" } else { "interleaved" };
        let qp: Vec<f64> = (0..n).map(|_| rng.range(0, 20) as f64).collect();
        let kp: Vec<f64> = (0..m).map(|_| rng.range(0, 20) as f64).collect();
        let case = |shift: f64| {
            json!({ "format": "attnlab-tensors/1",
                "positions": { "kind": "rope", "pairs": pairs, "base": 100,
                    "query_positions": qp.iter().map(|p| p + shift).collect::<Vec<_>>(),
                    "key_positions": kp.iter().map(|p| p + shift).collect::<Vec<_>>() },
                "heads": [{ "q": rng_free(n, d, 1), "k": rng_free(m, d, 2), "v": rng_free(m, 1, 3) }] })
        };
        let (a, b) = (
            reference::compute(&case(0.0)),
            reference::compute(&case(3.5)),
        );
        for i in 0..n {
            for j in 0..m {
                assert_close(
                    a.heads[0].weights[i][j],
                    b.heads[0].weights[i][j],
                    1e-12,
                    &format!("t={t} [{i}][{j}]"),
                );
            }
        }
    }
}

/// A fixed, irregular matrix (no RNG needed inside closures).
fn rng_free(rows: usize, cols: usize, salt: usize) -> Vec<Vec<f64>> {
    (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| (((i * 7 + j * 3 + salt * 5) % 11) as f64 - 5.0) / 3.0)
                .collect()
        })
        .collect()
}

/// decayed_linear's quadratic form (the reference) equals the recurrence
/// `S_t = a_t S_{t−1} + k_t v_tᵀ`, `o_t = S_tᵀ q_t` (spec decision 6), for γ,
/// per-head gates and top-level gates, dot and scaled_dot.
#[test]
#[allow(clippy::needless_range_loop)] // index loops mirror the formulas
fn reference_decayed_quadratic_equals_recurrence() {
    let mut rng = Rng::new(0x5EED_0101);
    for t in 0..30 {
        let n = rng.range(1, 8);
        let (d, dv) = (rng.range(1, 4), rng.range(1, 3));
        let (q, k, v) = (
            rng.matrix(n, d, 1.0),
            rng.matrix(n, d, 1.0),
            rng.matrix(n, dv, 1.0),
        );
        let gates: Vec<f64> = (0..n).map(|_| rng.uniform()).collect();
        let score = if t % 2 == 0 { "dot" } else { "scaled_dot" };
        let mut head = json!({ "q": q, "k": k, "v": v });
        let mut case =
            json!({ "format": "attnlab-tensors/1", "attention": "decayed_linear", "score": score });
        let a = match t % 3 {
            0 => {
                head["decay"] = json!(0.7);
                vec![0.7; n]
            }
            1 => {
                head["gates"] = json!(gates);
                gates.clone()
            }
            _ => {
                case["gates"] = json!(gates);
                gates.clone()
            }
        };
        if t % 4 == 0 {
            case["mask"] = json!({ "causal": true });
        }
        case["heads"] = json!([head]);
        let got = reference::compute(&case);
        let scale = if score == "dot" {
            1.0
        } else {
            1.0 / (d as f64).sqrt()
        };
        let want = reference::kinds_decayed_recurrent(&a, scale, &q, &k, &v);
        for i in 0..n {
            for b in 0..dv {
                assert_close(
                    got.heads[0].output[i][b],
                    want[i][b],
                    1e-12,
                    &format!("t={t} [{i}][{b}]"),
                );
            }
        }
    }
}

/// FAVOR+'s implied weights times V (the reference) equal the linear form
/// `φ(q)ᵀS/(φ(q)ᵀz + ε)` without a mask and its prefix sums with a causal one.
#[test]
#[allow(clippy::needless_range_loop)] // index loops mirror the formulas
fn reference_favor_quadratic_equals_linear_forms() {
    let mut rng = Rng::new(0x5EED_0102);
    for t in 0..30 {
        let n = rng.range(1, 7);
        let m = if t % 2 == 0 { n } else { rng.range(1, 7) };
        let (d, dv, r) = (rng.range(1, 4), rng.range(1, 3), rng.range(1, 5));
        let (q, k, v) = (
            rng.matrix(n, d, 1.0),
            rng.matrix(m, d, 1.0),
            rng.matrix(m, dv, 1.0),
        );
        let w = rng.matrix(r, d, 1.0);
        let causal = t % 2 == 0;
        let mut case = json!({ "format": "attnlab-tensors/1", "attention": "favor",
            "heads": [{ "q": q, "k": k, "v": v, "features": w }] });
        if causal {
            case["mask"] = json!({ "causal": true });
        }
        let got = reference::compute(&case);
        let phi = |x: &Vec<f64>| reference::kinds_favor_phi(&w, x);
        // S = Σ_j φ(k_j) v_jᵀ (r × d_v) and z = Σ_j φ(k_j), over all keys or
        // as prefix sums; o_i = φ(q_i)ᵀ S / (φ(q_i)ᵀ z + ε).
        let mut s = vec![vec![0.0; dv]; r];
        let mut z = vec![0.0; r];
        let mut absorbed = 0;
        for i in 0..n {
            let upto = if causal { (i + 1).min(m) } else { m };
            while absorbed < upto {
                let pk = phi(&k[absorbed]);
                for a in 0..r {
                    z[a] += pk[a];
                    for b in 0..dv {
                        s[a][b] += pk[a] * v[absorbed][b];
                    }
                }
                absorbed += 1;
            }
            let pq = phi(&q[i]);
            let den = (0..r).map(|a| pq[a] * z[a]).sum::<f64>() + reference::EPS;
            let num: Vec<f64> = (0..dv)
                .map(|b| (0..r).map(|a| pq[a] * s[a][b]).sum())
                .collect();
            for b in 0..dv {
                assert_close(
                    got.heads[0].output[i][b],
                    num[b] / den,
                    1e-12,
                    &format!("t={t} [{i}][{b}]"),
                );
            }
        }
    }
}
