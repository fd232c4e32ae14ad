//! `attnlab compute` checked through its public JSON interface against an
//! independent, naive `f64` reference (`reference/mod.rs`), the way an outside
//! reviewer checks it:
//!
//! - randomised cases (seeded splitmix64 + Box–Muller) over every allowed
//!   score × attention × mask combination, square and rectangular, several
//!   heads, `w_o`, `d_v ≠ d_k`, plus edge families: all-masked rows, huge
//!   logits, zero vectors, `n = 1` / `m = 1`; every output field must agree to
//!   `1e-4` absolute;
//! - bad input: exit status 2, exactly one line on stderr naming the field,
//!   never a panic;
//! - hand-checkable cases in `testdata/*.json` (arithmetic in each "note"),
//!   compared to `1e-6`.
//!
//! Inputs are rounded to `f32` before they are written, so the binary (f32)
//! and the reference (f64) see exactly the same numbers and any difference is
//! the binary's arithmetic.

mod common;
mod reference;

/// The hand-checked cases of `testdata/modern/`.
#[path = "against_reference/hand.rs"]
mod hand;
/// The modern variants of issue 33 (RoPE, ALiBi, kv_heads, sinks, softcap,
/// tiles and the new kinds): their generator, their hand-checked cases and
/// their bad inputs.
#[path = "against_reference/modern.rs"]
mod modern;
/// Bad input for the modern variants.
#[path = "against_reference/modern_errors.rs"]
mod modern_errors;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use common::compare::{Tol, assert_close, compare, compare_tol};
use common::rng::{Rng, r32};

/// The agreed tolerance against the f64 reference.
const TOL: f64 = 1e-4;
/// Hand-checked `testdata/` cases.
const TOL_TESTDATA: f64 = 1e-6;

const ATTENTIONS: [&str; 6] = [
    "softmax",
    "elu1",
    "relu",
    "taylor",
    "efficient",
    "linformer",
];
/// `None` = field omitted (defaults to `scaled_dot`).
const SCORES: [Option<&str>; 6] = [
    None,
    Some("dot"),
    Some("scaled_dot"),
    Some("general"),
    Some("additive"),
    Some("cosine"),
];

// --------------------------------------------------------------- masks ----

#[derive(Clone, Copy, Debug)]
enum MaskKind {
    None,
    Causal,
    Window,
    Strided,
    Global,
    Padding,
    Custom,
    /// A random combination of at least two of the above.
    Combo,
}

const ALL_MASKS: [MaskKind; 8] = [
    MaskKind::None,
    MaskKind::Causal,
    MaskKind::Window,
    MaskKind::Strided,
    MaskKind::Global,
    MaskKind::Padding,
    MaskKind::Custom,
    MaskKind::Combo,
];

/// The masks docs/maths.md §7 allows for each attention variant.
fn allowed_masks(attention: &str) -> &'static [MaskKind] {
    match attention {
        "efficient" => &[MaskKind::None, MaskKind::Padding],
        "linformer" => &[MaskKind::None],
        _ => &ALL_MASKS,
    }
}

fn random_mask(rng: &mut Rng, kind: MaskKind, n: usize, m: usize) -> Option<Value> {
    let mut mask = serde_json::Map::new();
    let mut parts = match kind {
        MaskKind::None => return None,
        MaskKind::Combo => {
            let mut p = Vec::new();
            while p.len() < 2 {
                p = ALL_MASKS[1..7]
                    .iter()
                    .copied()
                    .filter(|_| rng.chance(0.5))
                    .collect();
            }
            p
        }
        k => vec![k],
    };
    parts.sort_by_key(|k| *k as u8);
    for part in parts {
        match part {
            MaskKind::Causal => {
                mask.insert("causal".into(), json!(true));
            }
            MaskKind::Window => {
                mask.insert("window".into(), json!(rng.range(0, 3)));
            }
            MaskKind::Strided => {
                mask.insert("strided".into(), json!(rng.range(1, 4)));
            }
            MaskKind::Global => {
                // Indices valid for at least one side (only one when n ≠ m).
                let big = n.max(m);
                let count = rng.range(1, 2.min(big));
                mask.insert("global".into(), json!(rng.distinct(count, big)));
            }
            MaskKind::Padding => {
                let count = rng.range(1, 2.min(m));
                mask.insert("padding_keys".into(), json!(rng.distinct(count, m)));
            }
            MaskKind::Custom => {
                let cells: Vec<Vec<bool>> = (0..n)
                    .map(|_| (0..m).map(|_| rng.chance(0.75)).collect())
                    .collect();
                mask.insert("custom".into(), json!(cells));
            }
            MaskKind::None | MaskKind::Combo => unreachable!(),
        }
    }
    Some(Value::Object(mask))
}

// --------------------------------------------------------------- cases ----

/// One random, valid input (head widths `d_k`, `d_v` in 1..=5).
fn random_case(
    rng: &mut Rng,
    attention: &str,
    score: Option<&str>,
    mask: MaskKind,
    n: usize,
    m: usize,
) -> Value {
    random_case_up_to(rng, attention, score, mask, n, m, 5)
}

/// One random, valid input with head widths up to `max_d`.
fn random_case_up_to(
    rng: &mut Rng,
    attention: &str,
    score: Option<&str>,
    mask: MaskKind,
    n: usize,
    m: usize,
    max_d: usize,
) -> Value {
    let n_heads = rng.range(1, 3);
    let mut heads = Vec::new();
    let mut total_dv = 0;
    for _ in 0..n_heads {
        let d_k = rng.range(1, max_d);
        let d_v = rng.range(1, max_d);
        total_dv += d_v;
        let mut head = json!({
            "q": rng.matrix(n, d_k, 1.0),
            "k": rng.matrix(m, d_k, 1.0),
            "v": rng.matrix(m, d_v, 1.0),
        });
        // Score parameters whenever the score needs them (kernel variants
        // ignore the score, but the input stays valid either way).
        match score {
            Some("general") => {
                head["score_params"] =
                    json!({ "w": rng.matrix(d_k, d_k, 1.0 / (d_k as f64).sqrt()) });
            }
            Some("additive") => {
                let d_a = if rng.chance(0.5) {
                    d_k
                } else {
                    rng.range(1, 4)
                };
                head["score_params"] = json!({
                    "w_a": rng.matrix(d_a, d_k, 1.0),
                    "u_a": rng.matrix(d_a, d_k, 1.0),
                    "v_a": rng.matrix(1, d_a, 1.0)[0],
                });
            }
            _ => {}
        }
        if attention == "linformer" {
            let kp = rng.range(1, 4);
            let sd = 1.0 / (kp as f64).sqrt();
            head["linformer"] = json!({ "e": rng.matrix(kp, m, sd), "f": rng.matrix(kp, m, sd) });
        }
        heads.push(head);
    }
    let mut case = json!({ "format": "attnlab-tensors/1", "heads": heads });
    // `attention` omitted half the time for softmax (the default).
    if attention != "softmax" || rng.chance(0.5) {
        case["attention"] = json!(attention);
    }
    if let Some(s) = score {
        case["score"] = json!(s);
    }
    if rng.chance(0.5) {
        case["temperature"] = json!(rng.pick(&[0.25, 0.5, 1.0, 1.75, 3.0]));
    }
    if let Some(mk) = random_mask(rng, mask, n, m) {
        case["mask"] = mk;
    }
    if rng.chance(0.4) {
        let d_out = rng.range(1, 5);
        case["w_o"] = json!(rng.matrix(total_dv, d_out, 1.0 / (total_dv as f64).sqrt()));
    }
    if rng.chance(0.3) {
        let words = ["the", "cat", "我", "爱", "机", "器", "学", "习", "🙂", ","];
        let tok = |rng: &mut Rng, len: usize| -> Vec<&str> {
            (0..len).map(|_| rng.pick(&words)).collect()
        };
        case["query_tokens"] = json!(tok(rng, n));
        case["key_tokens"] = json!(tok(rng, m));
    }
    case
}

/// Apply `f` to every head's matrix `field` (e.g. "q").
fn map_field(case: &mut Value, field: &str, mut f: impl FnMut(usize, &mut Vec<Value>)) {
    for head in case["heads"].as_array_mut().unwrap() {
        for (i, row) in head[field].as_array_mut().unwrap().iter_mut().enumerate() {
            f(i, row.as_array_mut().unwrap());
        }
    }
}

fn scale_field(case: &mut Value, field: &str, by: f64) {
    map_field(case, field, |_, row| {
        for x in row.iter_mut() {
            *x = json!(r32(x.as_f64().unwrap() * by));
        }
    });
}

fn zero_rows(case: &mut Value, field: &str, rows: &[usize]) {
    map_field(case, field, |i, row| {
        if rows.contains(&i) {
            for x in row.iter_mut() {
                *x = json!(0.0);
            }
        }
    });
}

fn describe(case: &Value) -> String {
    let heads = case["heads"].as_array().unwrap();
    let n = heads[0]["q"].as_array().unwrap().len();
    // with kv_heads the keys live in the groups
    let keys = case.get("kv_heads").map_or(&heads[0], |g| &g[0]);
    let m = keys["k"].as_array().unwrap().len();
    format!(
        "{}/{}/mask={} n={n} m={m} h={}{}",
        case.get("attention")
            .and_then(Value::as_str)
            .unwrap_or("(softmax)"),
        case.get("score")
            .and_then(Value::as_str)
            .unwrap_or("(scaled_dot)"),
        case.get("mask").map_or("none".into(), |m| m.to_string()),
        heads.len(),
        if case.get("w_o").is_some() {
            " w_o"
        } else {
            ""
        },
    )
}

// -------------------------------------------------------------- running ---

fn scratch_dir(sub: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("attnlab-against-reference")
        .join(sub);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[derive(Clone, Copy)]
enum Via {
    File,
    Stdin,
}

/// Run `attnlab compute` on `text`, from a file or from stdin (`-`).
fn run_compute(text: &str, via: Via, name: &str) -> Output {
    let bin = env!("CARGO_BIN_EXE_attnlab");
    match via {
        Via::File => {
            let path = scratch_dir("cases").join(format!("{name}.json"));
            std::fs::write(&path, text).unwrap();
            Command::new(bin)
                .arg("compute")
                .arg(&path)
                .output()
                .unwrap()
        }
        Via::Stdin => {
            let mut child = Command::new(bin)
                .args(["compute", "-"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // The binary may exit early on bad input; a broken pipe is fine.
            let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
            child.wait_with_output().unwrap()
        }
    }
}

// ----------------------------------------------------------- comparing ----

/// Which result fields a comparison expects.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fields {
    /// The fields today's binary prints: weights, norms, output, entropies,
    /// empty rows.
    Today,
    /// Also `row_sum`, `null` entropies for the kinds whose rows are not
    /// distributions, and `computation` where the definitions fix it
    /// (issue 33, spec decision 8).
    Modern,
}

fn expected_json(e: &reference::Expected, fields: Fields) -> Value {
    let heads = e
        .heads
        .iter()
        .map(|h| {
            let mut head = json!({
                "weights": h.weights,
                "norms": h.norms,
                "output": h.output,
                "row_entropy": h.row_entropy,
                "row_entropy_normalised": h.row_entropy_normalised,
                "empty_rows": h.empty_rows,
            });
            if fields == Fields::Modern {
                head["row_sum"] = json!(h.row_sum);
                if let Some(c) = h.computation {
                    head["computation"] = json!(c);
                }
            }
            head
        })
        .collect::<Vec<_>>();
    json!({ "heads": heads, "output": e.output })
}

/// A non-finite number from the reference is a bug in the test (JSON would
/// turn it into `null` and blame the binary), so it stops the test here.
fn assert_reference_finite(e: &reference::Expected, name: &str) {
    let mut all = e.output.iter().flatten().copied().collect::<Vec<f64>>();
    for h in &e.heads {
        all.extend(h.weights.iter().flatten());
        all.extend(h.output.iter().flatten());
        all.extend(h.norms.iter().flatten());
        all.extend(&h.row_sum);
        all.extend(h.row_entropy.iter().flatten());
        all.extend(h.row_entropy_normalised.iter().flatten());
    }
    assert!(
        all.iter().all(|x| x.is_finite()),
        "case {name}: the reference computed a non-finite number"
    );
}

/// Collects failures over many cases and reports them together at the end.
struct Report {
    cases: usize,
    failed: Vec<String>,
    fields: Fields,
    tol: Tol,
}

impl Default for Report {
    fn default() -> Self {
        Report {
            cases: 0,
            failed: Vec::new(),
            fields: Fields::Today,
            tol: Tol::abs(TOL),
        }
    }
}

impl Report {
    /// A report on the modern result fields.
    fn modern() -> Self {
        Report {
            fields: Fields::Modern,
            ..Report::default()
        }
    }

    /// Run one valid case through the binary and the reference, with the
    /// tolerance `tol` for this case.
    fn check_tol(&mut self, name: &str, case: &Value, tol: Tol) {
        let saved = std::mem::replace(&mut self.tol, tol);
        self.check(name, case);
        self.tol = saved;
    }

    /// Run one valid case through the binary and the reference.
    fn check(&mut self, name: &str, case: &Value) {
        let via = if self.cases % 3 == 2 {
            Via::Stdin
        } else {
            Via::File
        };
        self.cases += 1;
        let text = serde_json::to_string(case).unwrap();
        let expected = reference::compute(case);
        assert_reference_finite(&expected, name);
        let want = expected_json(&expected, self.fields);
        let out = run_compute(&text, via, name);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut errs = Vec::new();
        if !out.status.success() {
            let shown: String = stderr.trim().chars().take(400).collect();
            errs.push(format!(
                "exit status {:?}, stderr: {shown}",
                out.status.code()
            ));
        } else {
            match serde_json::from_slice::<Value>(&out.stdout) {
                Ok(got) => compare_tol(&got, &want, self.tol, "", &mut errs),
                Err(e) => errs.push(format!("stdout is not JSON ({e})")),
            }
        }
        if stderr.contains("panicked") {
            errs.push(format!("panicked: {}", stderr.trim()));
        }
        if !errs.is_empty() {
            let kept = scratch_dir("failures").join(format!("{name}.json"));
            std::fs::write(&kept, &text).unwrap();
            let shown = if text.len() <= 1500 {
                text.clone()
            } else {
                format!("(see file, {} bytes)", text.len())
            };
            let n_errs = errs.len();
            errs.truncate(6);
            self.failed.push(format!(
                "case {name} [{}] ({} via {}):\n  input: {shown}\n  {}{}",
                describe(case),
                kept.display(),
                if matches!(via, Via::Stdin) {
                    "stdin"
                } else {
                    "file"
                },
                errs.join("\n  "),
                if n_errs > 6 {
                    format!("\n  … and {} more fields", n_errs - 6)
                } else {
                    String::new()
                },
            ));
        }
    }

    fn finish(self, what: &str) {
        eprintln!("{what}: {} cases, {} failed", self.cases, self.failed.len());
        if !self.failed.is_empty() {
            let shown: Vec<&String> = self.failed.iter().take(12).collect();
            panic!(
                "{what}: {} of {} cases disagree with the f64 reference:\n{}",
                self.failed.len(),
                self.cases,
                shown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
}

fn score_name(score: Option<&str>) -> &str {
    score.unwrap_or("default")
}

// ======================================================= (a) randomised ===

/// Every allowed score × attention × mask combination, once square
/// (self-attention, `n = m`) and once rectangular (cross-attention, `n ≠ m`).
fn random_grid(attentions: &[&str], seed: u64, what: &str) {
    let mut rng = Rng::new(seed);
    let mut report = Report::default();
    for &attention in attentions {
        for score in SCORES {
            for &mask in allowed_masks(attention) {
                for shape in ["square", "rect"] {
                    let n = rng.range(1, 9);
                    let m = if shape == "square" {
                        n
                    } else {
                        let mut m = rng.range(1, 9);
                        while m == n {
                            m = rng.range(1, 9);
                        }
                        m
                    };
                    let case = random_case(&mut rng, attention, score, mask, n, m);
                    let name = format!("{attention}-{}-{mask:?}-{shape}", score_name(score));
                    report.check(&name, &case);
                }
            }
        }
    }
    report.finish(what);
}

#[test]
fn random_softmax_every_score_and_mask() {
    random_grid(&["softmax"], 0x5EED_0001, "softmax grid");
}

#[test]
fn random_kernel_variants_every_score_and_mask() {
    random_grid(
        &["elu1", "relu", "taylor"],
        0x5EED_0002,
        "elu1/relu/taylor grid",
    );
}

#[test]
fn random_efficient_and_linformer() {
    random_grid(
        &["efficient", "linformer"],
        0x5EED_0003,
        "efficient/linformer grid",
    );
}

/// Rows with no allowed key: zero weights, zero output, listed in
/// `empty_rows`, entropy 0 — through custom rows, all keys padded, causal +
/// padding of key 0, and a zero window with more queries than keys.
#[test]
fn edge_all_masked_rows() {
    let mut rng = Rng::new(0x5EED_0004);
    let mut report = Report::default();
    for attention in ["softmax", "elu1", "relu", "taylor"] {
        for score in SCORES {
            let n = rng.range(2, 8);
            let m = rng.range(1, 8);

            // custom mask with some rows entirely false
            let mut case = random_case(&mut rng, attention, score, MaskKind::None, n, m);
            let n_dead = rng.range(1, n);
            let dead = rng.distinct(n_dead, n);
            let cells: Vec<Vec<bool>> = (0..n)
                .map(|i| {
                    (0..m)
                        .map(|_| !dead.contains(&i) && rng.chance(0.8))
                        .collect()
                })
                .collect();
            case["mask"] = json!({ "custom": cells });
            report.check(
                &format!("allmasked-custom-{attention}-{}", score_name(score)),
                &case,
            );

            // every key padded: every row empty
            let mut case = random_case(&mut rng, attention, score, MaskKind::None, n, m);
            case["mask"] = json!({ "padding_keys": (0..m).collect::<Vec<_>>() });
            report.check(
                &format!("allmasked-padall-{attention}-{}", score_name(score)),
                &case,
            );

            // causal + padding key 0: row 0 empty
            let mut case = random_case(&mut rng, attention, score, MaskKind::None, n, m);
            case["mask"] = json!({ "causal": true, "padding_keys": [0] });
            report.check(
                &format!("allmasked-causalpad0-{attention}-{}", score_name(score)),
                &case,
            );

            // window 0, n > m: rows i ≥ m have no key with |i − j| ≤ 0
            let (nn, mm) = (rng.range(3, 9), rng.range(1, 2));
            let mut case = random_case(&mut rng, attention, score, MaskKind::None, nn, mm);
            case["mask"] = json!({ "window": 0 });
            report.check(
                &format!("allmasked-window0-{attention}-{}", score_name(score)),
                &case,
            );

            // strided + global on one side only + padding that empties some rows
            let mut case = random_case(&mut rng, attention, score, MaskKind::None, 6, 4);
            case["mask"] = json!({ "strided": 2, "global": [5], "padding_keys": [0, 2] });
            report.check(
                &format!("allmasked-strided-{attention}-{}", score_name(score)),
                &case,
            );
        }
    }
    for score in SCORES {
        let (n, m) = (rng.range(1, 6), rng.range(1, 6));
        let mut case = random_case(&mut rng, "efficient", score, MaskKind::None, n, m);
        case["mask"] = json!({ "padding_keys": (0..m).collect::<Vec<_>>() });
        report.check(
            &format!("allmasked-padall-efficient-{}", score_name(score)),
            &case,
        );
    }
    report.finish("all-masked rows");
}

/// q × 1e3 (and, for softmax, temperature 1e-3 or v_a × 1e3 for additive):
/// logits in the thousands must still give finite, exact-to-1e-4 weights.
#[test]
fn edge_huge_logits() {
    let mut rng = Rng::new(0x5EED_0005);
    let mut report = Report::default();
    for attention in ATTENTIONS {
        for score in SCORES {
            for rep in 0..2 {
                let n = rng.range(1, 7);
                let m = if rep == 0 { n } else { rng.range(1, 7) };
                let mask = rng.pick(allowed_masks(attention));
                let mut case = random_case(&mut rng, attention, score, mask, n, m);
                scale_field(&mut case, "q", 1e3);
                if score == Some("additive") {
                    for head in case["heads"].as_array_mut().unwrap() {
                        let v_a = &mut head["score_params"]["v_a"];
                        for x in v_a.as_array_mut().unwrap() {
                            *x = json!(r32(x.as_f64().unwrap() * 1e3));
                        }
                    }
                }
                report.check(
                    &format!("huge-q-{attention}-{}-{rep}", score_name(score)),
                    &case,
                );
            }
        }
    }
    for score in SCORES {
        let (n, m) = (rng.range(1, 7), rng.range(1, 7));
        let mask = rng.pick(&ALL_MASKS);
        let mut case = random_case(&mut rng, "softmax", score, mask, n, m);
        case["temperature"] = json!(r32(1e-3));
        report.check(&format!("huge-tau-softmax-{}", score_name(score)), &case);
    }
    report.finish("huge logits");
}

/// Zero query and key rows: cosine scores 0, taylor's q̂ = 0 (sim = 1),
/// relu's all-zero similarity rows (Â row 0 but not "empty"), efficient's
/// uniform softmax_row.
#[test]
fn edge_zero_vectors() {
    let mut rng = Rng::new(0x5EED_0006);
    let mut report = Report::default();
    for attention in ATTENTIONS {
        for score in SCORES {
            for rep in 0..2 {
                let n = rng.range(1, 7);
                let m = rng.range(1, 7);
                let mask = rng.pick(allowed_masks(attention));
                let mut case = random_case(&mut rng, attention, score, mask, n, m);
                let n_zq = rng.range(1, n);
                let zq = rng.distinct(n_zq, n);
                // rep 1 zeroes every key, rep 0 some of them
                let n_zk = if rep == 1 { m } else { rng.range(1, m) };
                let zk = rng.distinct(n_zk, m);
                zero_rows(&mut case, "q", &zq);
                zero_rows(&mut case, "k", &zk);
                report.check(
                    &format!("zero-{attention}-{}-{rep}", score_name(score)),
                    &case,
                );
            }
        }
    }
    report.finish("zero vectors");
}

/// One query, one key, or both.
#[test]
fn edge_single_query_or_key() {
    let mut rng = Rng::new(0x5EED_0007);
    let mut report = Report::default();
    for attention in ATTENTIONS {
        for score in SCORES {
            for (n, m) in [(1, 1), (1, 5), (6, 1)] {
                let mask = rng.pick(allowed_masks(attention));
                let case = random_case(&mut rng, attention, score, mask, n, m);
                report.check(
                    &format!("single-{attention}-{}-{n}x{m}", score_name(score)),
                    &case,
                );
            }
        }
    }
    report.finish("n = 1 / m = 1");
}

/// A few larger inputs (n, m up to 48, widths up to 16), where f32
/// accumulation and the O(n) linear forms have the most room to drift.
#[test]
fn larger_inputs() {
    let mut rng = Rng::new(0x5EED_0009);
    let mut report = Report::default();
    for attention in ATTENTIONS {
        for rep in 0..2 {
            let n = rng.range(20, 48);
            let m = if rep == 0 { n } else { rng.range(20, 48) };
            let score = rng.pick(&SCORES);
            let mask = rng.pick(allowed_masks(attention));
            let case = random_case_up_to(&mut rng, attention, score, mask, n, m, 16);
            report.check(
                &format!("large-{attention}-{}-{rep}", score_name(score)),
                &case,
            );
        }
    }
    report.finish("larger inputs");
}

/// The reference itself against docs/maths.md §7's O(n) formulas (no binary): the
/// masked quadratic form `Â V` must equal the linear forms, for causal
/// recurrent elu1 and for taylor's `(Σ v + q̂ᵀ Σ k̂ vᵀ) / (m + q̂ᵀ Σ k̂)`.
#[test]
#[allow(clippy::needless_range_loop)] // index loops mirror the formulas
fn reference_agrees_with_spec_linear_forms() {
    let mut rng = Rng::new(0x5EED_0008);
    for t in 0..20 {
        let n = rng.range(1, 8);
        let d = rng.range(1, 5);
        let dv = rng.range(1, 4);
        let q = rng.matrix(n, d, 1.0);
        let k = rng.matrix(n, d, 1.0);
        let v = rng.matrix(n, dv, 1.0);
        let head = json!({ "q": q, "k": k, "v": v });

        // causal elu1, recurrent: S_i = S_{i-1} + φ(k_i) v_iᵀ, z_i = z_{i-1} + φ(k_i)
        let case = json!({ "format": "attnlab-tensors/1", "heads": [head.clone()],
                           "attention": "elu1", "mask": { "causal": true } });
        let got = reference::compute(&case);
        let phi = |x: &Vec<f64>| -> Vec<f64> {
            x.iter()
                .map(|&t| if t > 0.0 { t + 1.0 } else { t.exp() })
                .collect()
        };
        let mut s = vec![vec![0.0; dv]; d];
        let mut z = vec![0.0; d];
        for i in 0..n {
            let pk = phi(&k[i]);
            for a in 0..d {
                z[a] += pk[a];
                for b in 0..dv {
                    s[a][b] += pk[a] * v[i][b];
                }
            }
            let pq = phi(&q[i]);
            let den: f64 = (0..d).map(|a| pq[a] * z[a]).sum::<f64>() + reference::EPS;
            for b in 0..dv {
                let num: f64 = (0..d).map(|a| pq[a] * s[a][b]).sum();
                assert_close(
                    got.heads[0].output[i][b],
                    num / den,
                    1e-12,
                    &format!("elu1 recurrent t={t} [{i}][{b}]"),
                );
            }
        }

        // taylor, O(n) form
        let case = json!({ "format": "attnlab-tensors/1", "heads": [head], "attention": "taylor" });
        let got = reference::compute(&case);
        let unit = |x: &Vec<f64>| -> Vec<f64> {
            let nx = x.iter().map(|t| t * t).sum::<f64>().sqrt();
            x.iter()
                .map(|t| if nx == 0.0 { 0.0 } else { t / nx })
                .collect()
        };
        let mut sum_v = vec![0.0; dv];
        let mut sum_k = vec![0.0; d];
        let mut sum_kv = vec![vec![0.0; dv]; d];
        for j in 0..n {
            let kh = unit(&k[j]);
            for a in 0..d {
                sum_k[a] += kh[a];
                for b in 0..dv {
                    sum_kv[a][b] += kh[a] * v[j][b];
                }
            }
            for b in 0..dv {
                sum_v[b] += v[j][b];
            }
        }
        for i in 0..n {
            let qh = unit(&q[i]);
            let den = n as f64 + (0..d).map(|a| qh[a] * sum_k[a]).sum::<f64>() + reference::EPS;
            for b in 0..dv {
                let num = sum_v[b] + (0..d).map(|a| qh[a] * sum_kv[a][b]).sum::<f64>();
                assert_close(
                    got.heads[0].output[i][b],
                    num / den,
                    1e-12,
                    &format!("taylor O(n) t={t} [{i}][{b}]"),
                );
            }
        }
    }
}

// ======================================================= (b) bad input ===

/// n = m = 3, d_k = 2, d_v = 1; every error case below breaks one thing.
fn valid_base() -> Value {
    json!({
        "format": "attnlab-tensors/1",
        "heads": [{
            "q": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
            "k": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
            "v": [[1.0], [2.0], [3.0]]
        }]
    })
}

fn with(f: impl FnOnce(&mut Value)) -> String {
    let mut v = valid_base();
    f(&mut v);
    serde_json::to_string(&v).unwrap()
}

fn linformer_params() -> Value {
    json!({ "e": [[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]], "f": [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]] })
}

/// (name, input text, text the one stderr line must contain)
fn error_cases() -> Vec<(&'static str, String, &'static str)> {
    let raw_q = |lit: &str| {
        format!(
            r#"{{"format":"attnlab-tensors/1","heads":[{{"q":[[1.0,0.0],[{lit},1.0],[1.0,1.0]],"k":[[1.0,0.0],[0.0,1.0],[1.0,1.0]],"v":[[1.0],[2.0],[3.0]]}}]}}"#
        )
    };
    let raw_v = |lit: &str| {
        format!(
            r#"{{"format":"attnlab-tensors/1","heads":[{{"q":[[1.0,0.0],[0.0,1.0],[1.0,1.0]],"k":[[1.0,0.0],[0.0,1.0],[1.0,1.0]],"v":[[1.0],[{lit}],[3.0]]}}]}}"#
        )
    };
    vec![
        // shapes
        (
            "ragged-q",
            with(|c| c["heads"][0]["q"][1] = json!([0.0, 1.0, 2.0])),
            "heads[0].q",
        ),
        (
            "ragged-k",
            with(|c| c["heads"][0]["k"][2] = json!([1.0])),
            "heads[0].k",
        ),
        (
            "ragged-v",
            with(|c| c["heads"][0]["v"][0] = json!([1.0, 2.0])),
            "heads[0].v",
        ),
        (
            "k-width-ne-q-width",
            with(|c| c["heads"][0]["k"] = json!([[1, 0, 0], [0, 1, 0], [1, 1, 0]])),
            "heads[0].k",
        ),
        (
            "v-rows-ne-k-rows",
            with(|c| c["heads"][0]["v"] = json!([[1.0], [2.0]])),
            "heads[0].v",
        ),
        (
            "head1-other-n",
            with(|c| {
                let h1 =
                    json!({ "q": [[1.0]], "k": [[1.0], [2.0], [3.0]], "v": [[1.0], [2.0], [3.0]] });
                c["heads"].as_array_mut().unwrap().push(h1);
            }),
            "heads[1]",
        ),
        (
            "head1-other-m",
            with(|c| {
                let h1 =
                    json!({ "q": [[1.0], [1.0], [1.0]], "k": [[1.0], [2.0]], "v": [[1.0], [2.0]] });
                c["heads"].as_array_mut().unwrap().push(h1);
            }),
            "heads[1]",
        ),
        // non-finite numbers (JSON has no NaN literal)
        ("nan-string", raw_q(r#""NaN""#), "heads[0].q"),
        ("infinity-string", raw_q(r#""Infinity""#), "heads[0].q"),
        ("null-value", raw_q("null"), "heads[0].q"),
        ("literal-1e999", raw_q("1e999"), "heads[0].q"),
        ("literal-1e39-overflows-f32", raw_q("1e39"), "heads[0].q"),
        ("v-literal-1e999", raw_v("-1e999"), "heads[0].v"),
        ("v-null", raw_v("null"), "heads[0].v"),
        // temperature
        (
            "temperature-zero",
            with(|c| c["temperature"] = json!(0.0)),
            "temperature",
        ),
        (
            "temperature-negative",
            with(|c| c["temperature"] = json!(-1.5)),
            "temperature",
        ),
        // names
        (
            "unknown-score",
            with(|c| c["score"] = json!("bilinear")),
            "score",
        ),
        (
            "unknown-attention",
            with(|c| c["attention"] = json!("softermax")),
            "attention",
        ),
        (
            "wrong-format",
            with(|c| c["format"] = json!("attnlab-tensors/2")),
            "format",
        ),
        // masks that a variant refuses
        (
            "linformer-causal",
            with(|c| {
                c["attention"] = json!("linformer");
                c["heads"][0]["linformer"] = linformer_params();
                c["mask"] = json!({ "causal": true });
            }),
            "mask",
        ),
        (
            "linformer-padding",
            with(|c| {
                c["attention"] = json!("linformer");
                c["heads"][0]["linformer"] = linformer_params();
                c["mask"] = json!({ "padding_keys": [1] });
            }),
            "mask",
        ),
        (
            "efficient-window",
            with(|c| {
                c["attention"] = json!("efficient");
                c["mask"] = json!({ "window": 1 });
            }),
            "mask",
        ),
        (
            "efficient-causal",
            with(|c| {
                c["attention"] = json!("efficient");
                c["mask"] = json!({ "causal": true, "padding_keys": [0] });
            }),
            "mask",
        ),
        (
            "efficient-custom",
            with(|c| {
                c["attention"] = json!("efficient");
                c["mask"] = json!({ "custom": [[true, true, true], [true, true, true], [true, true, false]] });
            }),
            "mask",
        ),
        (
            "efficient-global",
            with(|c| {
                c["attention"] = json!("efficient");
                c["mask"] = json!({ "global": [0] });
            }),
            "mask",
        ),
        (
            "efficient-strided",
            with(|c| {
                c["attention"] = json!("efficient");
                c["mask"] = json!({ "strided": 2 });
            }),
            "mask",
        ),
        // score parameters
        (
            "general-missing-params",
            with(|c| c["score"] = json!("general")),
            "score_params",
        ),
        (
            "additive-missing-params",
            with(|c| c["score"] = json!("additive")),
            "score_params",
        ),
        (
            "general-w-wrong-shape",
            with(|c| {
                c["score"] = json!("general");
                c["heads"][0]["score_params"] = json!({ "w": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] });
            }),
            "heads[0].score_params.w",
        ),
        (
            "additive-w_a-wrong-width",
            with(|c| {
                c["score"] = json!("additive");
                c["heads"][0]["score_params"] =
                    json!({ "w_a": [[1.0, 0.0, 1.0]], "u_a": [[1.0, 0.0]], "v_a": [1.0] });
            }),
            "heads[0].score_params.w_a",
        ),
        (
            "additive-u_a-wrong-rows",
            with(|c| {
                c["score"] = json!("additive");
                c["heads"][0]["score_params"] =
                    json!({ "w_a": [[1.0, 0.0]], "u_a": [[1.0, 0.0], [0.0, 1.0]], "v_a": [1.0] });
            }),
            "heads[0].score_params.u_a",
        ),
        (
            "additive-v_a-wrong-length",
            with(|c| {
                c["score"] = json!("additive");
                c["heads"][0]["score_params"] =
                    json!({ "w_a": [[1.0, 0.0]], "u_a": [[1.0, 0.0]], "v_a": [1.0, 2.0] });
            }),
            "heads[0].score_params.v_a",
        ),
        // linformer parameters
        (
            "linformer-missing-params",
            with(|c| c["attention"] = json!("linformer")),
            "heads[0].linformer",
        ),
        (
            "linformer-e-wrong-width",
            with(|c| {
                c["attention"] = json!("linformer");
                c["heads"][0]["linformer"] = json!({ "e": [[0.5, 0.5], [0.0, 0.5]], "f": [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]] });
            }),
            "heads[0].linformer.e",
        ),
        (
            "linformer-f-other-k",
            with(|c| {
                c["attention"] = json!("linformer");
                c["heads"][0]["linformer"] =
                    json!({ "e": [[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]], "f": [[1.0, 0.0, 0.0]] });
            }),
            "heads[0].linformer.f",
        ),
        // mask contents
        (
            "custom-too-few-rows",
            with(|c| c["mask"] = json!({ "custom": [[true, true, true], [true, true, true]] })),
            "mask.custom",
        ),
        (
            "custom-wrong-width",
            with(|c| c["mask"] = json!({ "custom": [[true, true], [true, true], [true, true]] })),
            "mask.custom",
        ),
        (
            "custom-not-bool",
            with(|c| {
                c["mask"] =
                    json!({ "custom": [[true, true, true], [true, 1, true], [true, true, true]] })
            }),
            "mask.custom",
        ),
        (
            "global-out-of-range",
            with(|c| c["mask"] = json!({ "global": [0, 3] })),
            "mask.global",
        ),
        (
            "padding-out-of-range",
            with(|c| c["mask"] = json!({ "padding_keys": [3] })),
            "mask.padding_keys",
        ),
        (
            // n = 4 > m = 2: padding index 2 is a query index but not a key index
            "padding-beyond-m-rect",
            with(|c| {
                c["heads"][0]["q"] = json!([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]]);
                c["heads"][0]["k"] = json!([[1.0, 0.0], [0.0, 1.0]]);
                c["heads"][0]["v"] = json!([[1.0], [2.0]]);
                c["mask"] = json!({ "padding_keys": [2] });
            }),
            "mask.padding_keys",
        ),
        (
            // n = 2, m = 4: global 4 is valid for neither side (3 would be)
            "global-beyond-both-rect",
            with(|c| {
                c["heads"][0]["q"] = json!([[1.0, 0.0], [0.0, 1.0]]);
                c["heads"][0]["k"] = json!([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]]);
                c["heads"][0]["v"] = json!([[1.0], [2.0], [3.0], [4.0]]);
                c["mask"] = json!({ "global": [3, 4] });
            }),
            "mask.global",
        ),
        (
            "window-negative",
            with(|c| c["mask"] = json!({ "window": -1 })),
            "mask.window",
        ),
        (
            "strided-zero",
            with(|c| c["mask"] = json!({ "strided": 0 })),
            "mask.strided",
        ),
        // w_o and labels
        (
            "w_o-wrong-rows",
            with(|c| c["w_o"] = json!([[1.0, 0.0], [0.0, 1.0]])),
            "w_o",
        ),
        (
            "w_o-ragged",
            with(|c| c["w_o"] = json!([[1.0, 0.0], [1.0]])),
            "w_o",
        ),
        (
            "query_tokens-wrong-length",
            with(|c| c["query_tokens"] = json!(["a", "b"])),
            "query_tokens",
        ),
        (
            "key_tokens-wrong-length",
            with(|c| c["key_tokens"] = json!(["a", "b", "c", "d"])),
            "key_tokens",
        ),
    ]
}

/// Exit status 2, exactly one non-empty line on stderr, no panic.
fn check_error_output(out: &Output, needle: Option<&str>) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if out.status.code() != Some(2) {
        problems.push(format!("exit status {:?}, expected 2", out.status.code()));
    }
    if stderr.contains("panicked") {
        problems.push("stderr says \"panicked\"".to_string());
    }
    let lines: Vec<&str> = stderr.trim_end().lines().collect();
    if lines.len() != 1 || lines[0].trim().is_empty() {
        problems.push(format!(
            "expected exactly one line on stderr, got {}",
            lines.len()
        ));
    }
    if let Some(needle) = needle
        && !stderr.contains(needle)
    {
        problems.push(format!("stderr does not name `{needle}`"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let shown: String = stderr.chars().take(400).collect();
        Err(format!("{}; stderr was: {shown:?}", problems.join("; ")))
    }
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_field() {
    // The base itself must be accepted, or every case below proves nothing.
    let base = serde_json::to_string(&valid_base()).unwrap();
    let out = run_compute(&base, Via::File, "error-base");
    assert!(
        out.status.success(),
        "the valid base input was rejected: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut failed = Vec::new();
    let cases = error_cases();
    for (i, (name, text, needle)) in cases.iter().enumerate() {
        let via = if i % 2 == 0 { Via::File } else { Via::Stdin };
        let out = run_compute(text, via, &format!("error-{name}"));
        if let Err(e) = check_error_output(&out, Some(needle)) {
            failed.push(format!("{name}: {e}\n  input: {text}"));
        }
    }

    // Malformed JSON (file and stdin), empty stdin, and a missing file.
    let malformed = r#"{"format": "attnlab-tensors/1", "heads": [{"q": [[1.0, 0.0]"#;
    for (name, via) in [
        ("malformed-file", Via::File),
        ("malformed-stdin", Via::Stdin),
    ] {
        if let Err(e) = check_error_output(&run_compute(malformed, via, name), None) {
            failed.push(format!("{name}: {e}"));
        }
    }
    if let Err(e) = check_error_output(&run_compute("", Via::Stdin, "empty-stdin"), None) {
        failed.push(format!("empty-stdin: {e}"));
    }
    let missing = scratch_dir("cases").join("there-is-no-such-file.json");
    let out = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .arg("compute")
        .arg(&missing)
        .output()
        .unwrap();
    if let Err(e) = check_error_output(&out, Some("there-is-no-such-file.json")) {
        failed.push(format!("missing-file: {e}"));
    }

    let total = cases.len() + 4;
    eprintln!("bad input: {total} cases, {} failed", failed.len());
    assert!(
        failed.is_empty(),
        "{} of {total} bad inputs mishandled:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Degenerate inputs whose treatment is not fixed (error or empty result)
/// must still never panic, and an error must still be one line with status 2.
#[test]
fn degenerate_inputs_never_panic() {
    let cases = [
        (
            "no-heads",
            json!({ "format": "attnlab-tensors/1", "heads": [] }),
        ),
        (
            "zero-queries",
            json!({ "format": "attnlab-tensors/1", "heads": [{ "q": [], "k": [[1.0]], "v": [[1.0]] }] }),
        ),
        (
            "zero-keys",
            json!({ "format": "attnlab-tensors/1", "heads": [{ "q": [[1.0]], "k": [], "v": [] }] }),
        ),
        (
            "zero-width",
            json!({ "format": "attnlab-tensors/1", "heads": [{ "q": [[]], "k": [[]], "v": [[1.0]] }] }),
        ),
        (
            "zero-width-cosine-taylor",
            json!({ "format": "attnlab-tensors/1", "score": "cosine", "attention": "taylor",
            "heads": [{ "q": [[]], "k": [[]], "v": [[1.0]] }] }),
        ),
        ("not-an-object", json!([1, 2, 3])),
        (
            "heads-not-array",
            json!({ "format": "attnlab-tensors/1", "heads": { "q": [[1.0]] } }),
        ),
    ];
    let mut failed = Vec::new();
    for (name, case) in cases {
        let text = case.to_string();
        let out = run_compute(&text, Via::File, &format!("degenerate-{name}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let verdict = match out.status.code() {
            Some(0) if !stderr.contains("panicked") => {
                match serde_json::from_slice::<Value>(&out.stdout) {
                    Ok(_) => Ok(()),
                    Err(e) => Err(format!("exit 0 but stdout is not JSON ({e})")),
                }
            }
            _ => check_error_output(&out, None),
        };
        if let Err(e) = verdict {
            failed.push(format!("{name}: {e}\n  input: {text}"));
        }
    }
    assert!(
        failed.is_empty(),
        "degenerate inputs mishandled:\n{}",
        failed.join("\n")
    );
}

// ======================================================== (c) testdata ===

/// Every `testdata/*.json` (`note`, `input`, `expected`): the binary must
/// match `expected` to 1e-6 in every field given there, and so must the
/// reference (which keeps the reference honest against hand arithmetic).
#[test]
fn testdata_cases_match_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 6,
        "expected at least 6 testdata cases, found {}",
        files.len()
    );

    let mut failed = Vec::new();
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            file["note"].as_str().is_some_and(|s| !s.is_empty()),
            "{name}: a testdata case explains its arithmetic in \"note\""
        );
        let input = &file["input"];
        let expected = &file["expected"];
        assert!(expected.is_object(), "{name}: missing \"expected\"");

        let mut errs = Vec::new();
        compare(
            &expected_json(&reference::compute(input), Fields::Modern),
            expected,
            1e-9,
            "reference",
            &mut errs,
        );

        let out = run_compute(&input.to_string(), Via::File, &format!("testdata-{name}"));
        if !out.status.success() {
            errs.push(format!(
                "binary: exit status {:?}, stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        } else {
            match serde_json::from_slice::<Value>(&out.stdout) {
                Ok(got) => compare(&got, expected, TOL_TESTDATA, "binary", &mut errs),
                Err(e) => errs.push(format!("binary: stdout is not JSON ({e})")),
            }
        }
        if !errs.is_empty() {
            failed.push(format!("{name}:\n  {}", errs.join("\n  ")));
        }
    }
    eprintln!("testdata: {} cases, {} failed", files.len(), failed.len());
    assert!(
        failed.is_empty(),
        "testdata cases failed:\n{}",
        failed.join("\n")
    );
}
