//! A naive, independent `f64` reference for `attnlab compute`.
//!
//! It reads the same `attnlab-tensors/1` JSON the binary reads (as a
//! `serde_json::Value`) and computes what the binary should print, following
//! `docs/maths.md` (§4 scores, §5 masks, §6 softmax, §7 linear attention,
//! §8 row entropy) with plain loops over `Vec<Vec<f64>>`.
//!
//! Deliberately simple: every variant is computed through its explicit `n × m`
//! (or `n × k`) matrix, never through the O(n) factorisations the app uses, so
//! the two computations share nothing but the mathematics. It shares no code
//! with `attnlab-core`.
//!
//! The reference is only ever given valid input; it panics (with a message)
//! on anything malformed, because a malformed *test* is a bug in the test.

#![allow(dead_code)]
// each integration-test binary uses a different subset
// Plain index loops are the point of a naive reference: they read like the formulas.
#![allow(clippy::needless_range_loop)]

use serde_json::Value;

/// The linear-attention normaliser's `ε` (docs/maths.md §7).
pub const EPS: f64 = 1e-6;

pub type Mat = Vec<Vec<f64>>;

/// What the binary should print for one head.
#[derive(Debug, Clone)]
pub struct HeadExpected {
    /// `n × m` attention weights (`n × k` for linformer; the implied `Â` for linear variants).
    pub weights: Mat,
    /// `n × d_v` head output.
    pub output: Mat,
    /// `H_i = −Σ_j a_ij ln a_ij`, natural log, `0·ln 0 = 0`.
    pub row_entropy: Vec<f64>,
    /// Rows whose mask has no allowed entry, ascending.
    pub empty_rows: Vec<usize>,
}

/// What the binary should print.
#[derive(Debug, Clone)]
pub struct Expected {
    pub heads: Vec<HeadExpected>,
    /// Concatenated head outputs (`n × Σ d_v`), times `w_o` if given.
    pub output: Mat,
}

// ---------------------------------------------------------------- parsing --

fn num(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("reference: {what} is not a number: {v}"))
}

pub fn vector(v: &Value, what: &str) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("reference: {what} is not an array"))
        .iter()
        .map(|x| num(x, what))
        .collect()
}

pub fn matrix(v: &Value, what: &str) -> Mat {
    let rows: Mat = v
        .as_array()
        .unwrap_or_else(|| panic!("reference: {what} is not an array"))
        .iter()
        .map(|r| vector(r, what))
        .collect();
    if let Some(first) = rows.first() {
        assert!(
            rows.iter().all(|r| r.len() == first.len()),
            "reference: {what} is ragged"
        );
    }
    rows
}

fn indices(v: &Value, what: &str) -> Vec<usize> {
    v.as_array()
        .unwrap_or_else(|| panic!("reference: {what} is not an array"))
        .iter()
        .map(|x| {
            x.as_u64()
                .unwrap_or_else(|| panic!("reference: {what} has a non-index {x}"))
                as usize
        })
        .collect()
}

fn width(m: &Mat) -> usize {
    m.first().map_or(0, Vec::len)
}

// ------------------------------------------------------------ small maths --

fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "reference: dot of unequal lengths");
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// `A (r × c) · x (c)`.
fn mat_vec(a: &Mat, x: &[f64]) -> Vec<f64> {
    a.iter().map(|row| dot(row, x)).collect()
}

/// `A (r × c) · B (c × w)` with the triple loop.
pub fn mat_mul(a: &Mat, b: &Mat) -> Mat {
    let inner = b.len();
    let w = width(b);
    let mut out = vec![vec![0.0; w]; a.len()];
    for i in 0..a.len() {
        assert_eq!(a[i].len(), inner, "reference: mat_mul inner sizes differ");
        for j in 0..w {
            let mut s = 0.0;
            for t in 0..inner {
                s += a[i][t] * b[t][j];
            }
            out[i][j] = s;
        }
    }
    out
}

/// `H = −Σ a ln a` with `0 · ln 0 = 0` (negative entries cannot occur in a
/// valid result; they would be a bug and give NaN, which comparisons catch).
fn entropy(row: &[f64]) -> f64 {
    let mut h = 0.0;
    for &a in row {
        if a != 0.0 {
            h -= a * a.ln();
        }
    }
    h
}

/// Softmax of `logits` over the entries where `allowed` is true; blocked
/// entries get 0. `None` when nothing is allowed (an empty row).
fn masked_softmax(logits: &[f64], allowed: &[bool]) -> Option<Vec<f64>> {
    let mut max = f64::NEG_INFINITY;
    let mut any = false;
    for j in 0..logits.len() {
        if allowed[j] {
            any = true;
            if logits[j] > max {
                max = logits[j];
            }
        }
    }
    if !any {
        return None;
    }
    let mut e = vec![0.0; logits.len()];
    let mut sum = 0.0;
    for j in 0..logits.len() {
        if allowed[j] {
            e[j] = (logits[j] - max).exp();
            sum += e[j];
        }
    }
    for x in &mut e {
        *x /= sum;
    }
    Some(e)
}

// ------------------------------------------------------------------ masks --

/// The combined mask of docs/maths.md §5, in its order: start all true; AND
/// causal / window / strided; global opens its rows and columns; then AND
/// padding and custom.
pub fn build_mask(mask: Option<&Value>, n: usize, m: usize) -> Vec<Vec<bool>> {
    let mut mk = vec![vec![true; m]; n];
    let Some(mask) = mask else { return mk };
    let causal = mask.get("causal").and_then(Value::as_bool).unwrap_or(false);
    let window = mask
        .get("window")
        .map(|w| w.as_u64().expect("window") as usize);
    let strided = mask
        .get("strided")
        .map(|s| s.as_u64().expect("strided") as usize);
    for i in 0..n {
        for j in 0..m {
            let mut ok = true;
            if causal {
                ok &= j <= i;
            }
            if let Some(r) = window {
                ok &= i.abs_diff(j) <= r;
            }
            if let Some(s) = strided {
                ok &= j <= i && ((i - j) < s || (i - j) % s == 0);
            }
            mk[i][j] = ok;
        }
    }
    if let Some(g) = mask.get("global") {
        for gi in indices(g, "mask.global") {
            assert!(
                gi < n || gi < m,
                "reference: global index {gi} out of range"
            );
            if gi < n {
                for j in 0..m {
                    mk[gi][j] = true;
                }
            }
            if gi < m {
                for row in mk.iter_mut() {
                    row[gi] = true;
                }
            }
        }
    }
    if let Some(p) = mask.get("padding_keys") {
        for pj in indices(p, "mask.padding_keys") {
            assert!(pj < m, "reference: padding index {pj} out of range");
            for row in mk.iter_mut() {
                row[pj] = false;
            }
        }
    }
    if let Some(c) = mask.get("custom") {
        let rows = c.as_array().expect("mask.custom");
        assert_eq!(rows.len(), n, "reference: custom mask rows");
        for i in 0..n {
            let cells = rows[i].as_array().expect("mask.custom row");
            assert_eq!(cells.len(), m, "reference: custom mask width");
            for j in 0..m {
                mk[i][j] &= cells[j].as_bool().expect("mask.custom cell");
            }
        }
    }
    mk
}

// ----------------------------------------------------------------- scores --

/// `n × m` raw scores (before temperature) for the softmax path (docs/maths.md §4).
fn scores(score: &str, head: &Value, q: &Mat, k: &Mat) -> Mat {
    let d_k = width(q) as f64;
    let params = head.get("score_params");
    let mut s = vec![vec![0.0; k.len()]; q.len()];
    match score {
        "dot" | "scaled_dot" => {
            for i in 0..q.len() {
                for j in 0..k.len() {
                    s[i][j] = dot(&q[i], &k[j]);
                    if score == "scaled_dot" {
                        s[i][j] /= d_k.sqrt();
                    }
                }
            }
        }
        "general" => {
            let w = matrix(&params.expect("score_params")["w"], "score_params.w");
            for i in 0..q.len() {
                for j in 0..k.len() {
                    // qᵀ W k
                    s[i][j] = dot(&q[i], &mat_vec(&w, &k[j]));
                }
            }
        }
        "additive" => {
            let p = params.expect("score_params");
            let w_a = matrix(&p["w_a"], "score_params.w_a");
            let u_a = matrix(&p["u_a"], "score_params.u_a");
            let v_a = vector(&p["v_a"], "score_params.v_a");
            for i in 0..q.len() {
                let wq = mat_vec(&w_a, &q[i]);
                for j in 0..k.len() {
                    let uk = mat_vec(&u_a, &k[j]);
                    let mut t = 0.0;
                    for a in 0..v_a.len() {
                        t += v_a[a] * (wq[a] + uk[a]).tanh();
                    }
                    s[i][j] = t;
                }
            }
        }
        "cosine" => {
            for i in 0..q.len() {
                for j in 0..k.len() {
                    let (nq, nk) = (norm(&q[i]), norm(&k[j]));
                    s[i][j] = if nq == 0.0 || nk == 0.0 {
                        0.0
                    } else {
                        dot(&q[i], &k[j]) / (nq * nk)
                    };
                }
            }
        }
        other => panic!("reference: unknown score {other}"),
    }
    s
}

// ------------------------------------------------------------ feature maps --

fn phi(kind: &str, x: &[f64]) -> Vec<f64> {
    match kind {
        "elu1" => x
            .iter()
            .map(|&t| if t > 0.0 { t + 1.0 } else { t.exp() })
            .collect(),
        "relu" => x.iter().map(|&t| t.max(0.0)).collect(),
        "taylor" => {
            // [1, x̂] so that φ(q)·φ(k) = 1 + q̂ᵀk̂; x̂ = 0 for a zero vector.
            let nx = norm(x);
            let mut out = vec![1.0];
            out.extend(x.iter().map(|&t| if nx == 0.0 { 0.0 } else { t / nx }));
            out
        }
        other => panic!("reference: not a kernel variant: {other}"),
    }
}

fn softmax_plain(x: &[f64]) -> Vec<f64> {
    masked_softmax(x, &vec![true; x.len()]).expect("non-empty")
}

// ------------------------------------------------------------------ heads --

fn head_result(weights: Mat, v: &Mat, empty_rows: Vec<usize>) -> HeadExpected {
    let output = mat_mul(&weights, v);
    let row_entropy = weights.iter().map(|r| entropy(r)).collect();
    HeadExpected {
        weights,
        output,
        row_entropy,
        empty_rows,
    }
}

fn compute_head(input: &Value, head: &Value) -> HeadExpected {
    let q = matrix(&head["q"], "q");
    let k = matrix(&head["k"], "k");
    let v = matrix(&head["v"], "v");
    let (n, m) = (q.len(), k.len());
    assert_eq!(v.len(), m, "reference: v rows");
    let score = input
        .get("score")
        .and_then(Value::as_str)
        .unwrap_or("scaled_dot");
    let attention = input
        .get("attention")
        .and_then(Value::as_str)
        .unwrap_or("softmax");
    let tau = input
        .get("temperature")
        .map_or(1.0, |t| num(t, "temperature"));
    let mask = build_mask(input.get("mask"), n, m);
    let empty: Vec<usize> = (0..n).filter(|&i| !mask[i].iter().any(|&b| b)).collect();

    match attention {
        "softmax" => {
            let s = scores(score, head, &q, &k);
            let mut w = vec![vec![0.0; m]; n];
            for i in 0..n {
                let logits: Vec<f64> = s[i].iter().map(|x| x / tau).collect();
                if let Some(row) = masked_softmax(&logits, &mask[i]) {
                    w[i] = row;
                }
            }
            head_result(w, &v, empty)
        }
        "elu1" | "relu" | "taylor" => {
            // Â_ij = M_ij sim_ij / (Σ_j' M_ij' sim_ij' + ε), sim = φ(q)·φ(k).
            let pq: Mat = q.iter().map(|x| phi(attention, x)).collect();
            let pk: Mat = k.iter().map(|x| phi(attention, x)).collect();
            let mut w = vec![vec![0.0; m]; n];
            for i in 0..n {
                let mut denom = EPS;
                for j in 0..m {
                    if mask[i][j] {
                        w[i][j] = dot(&pq[i], &pk[j]);
                        denom += w[i][j];
                    }
                }
                for j in 0..m {
                    w[i][j] /= denom;
                }
            }
            head_result(w, &v, empty)
        }
        "efficient" => {
            // Â = softmax_row(Q) · softmax_col(K)ᵀ, padded keys leave the column softmax.
            let mut padded = vec![false; m];
            if let Some(p) = input.get("mask").and_then(|mk| mk.get("padding_keys")) {
                for j in indices(p, "mask.padding_keys") {
                    padded[j] = true;
                }
            }
            let d_k = width(&q);
            let mut ck = vec![vec![0.0; d_k]; m];
            for f in 0..d_k {
                let col: Vec<f64> = (0..m).map(|j| k[j][f]).collect();
                let allowed: Vec<bool> = padded.iter().map(|p| !p).collect();
                if let Some(sm) = masked_softmax(&col, &allowed) {
                    for j in 0..m {
                        ck[j][f] = sm[j];
                    }
                }
            }
            let mut w = vec![vec![0.0; m]; n];
            for i in 0..n {
                let pq = softmax_plain(&q[i]);
                for j in 0..m {
                    w[i][j] = dot(&pq, &ck[j]);
                }
            }
            head_result(w, &v, empty)
        }
        "linformer" => {
            let lin = head.get("linformer").expect("reference: linformer params");
            let e = matrix(&lin["e"], "linformer.e");
            let f = matrix(&lin["f"], "linformer.f");
            let k2 = mat_mul(&e, &k); // kp × d_k
            let v2 = mat_mul(&f, &v); // kp × d_v
            let d_k = width(&q) as f64;
            let mut w = Vec::with_capacity(n);
            for i in 0..n {
                let logits: Vec<f64> = k2
                    .iter()
                    .map(|kr| dot(&q[i], kr) / d_k.sqrt() / tau)
                    .collect();
                w.push(softmax_plain(&logits));
            }
            head_result(w, &v2, Vec::new())
        }
        other => panic!("reference: unknown attention {other}"),
    }
}

/// The full expected output of `attnlab compute` for a valid `input`.
pub fn compute(input: &Value) -> Expected {
    let heads: Vec<HeadExpected> = input["heads"]
        .as_array()
        .expect("reference: heads")
        .iter()
        .map(|h| compute_head(input, h))
        .collect();
    let n = heads.first().map_or(0, |h| h.output.len());
    let mut concat = vec![Vec::new(); n];
    for h in &heads {
        assert_eq!(h.output.len(), n, "reference: heads disagree on n");
        for i in 0..n {
            concat[i].extend_from_slice(&h.output[i]);
        }
    }
    let output = match input.get("w_o") {
        Some(w_o) => mat_mul(&concat, &matrix(w_o, "w_o")),
        None => concat,
    };
    Expected { heads, output }
}
