//! A naive, independent `f64` reference for `attnlab compute`.
//!
//! It reads the same `attnlab-tensors/1` JSON the binary reads (as a
//! `serde_json::Value`) and computes what the binary should print, following
//! `docs/maths.md` (§4 scores, §5 masks, §6 softmax, §7 linear attention,
//! §8 row entropy, §12 norms) and, for the modern variants (positions, ALiBi,
//! kv_heads, sinks, softcap and the kinds softmax_plus_one … favor), the
//! definitions of issue 33 as written in its spec — never the core's code —
//! with plain loops over `Vec<Vec<f64>>`. `positions.rs` holds RoPE and
//! ALiBi, `kinds.rs` the normalisers and the decayed and FAVOR+ kinds.
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

mod kinds;
mod positions;

pub use kinds::{decayed_recurrent as kinds_decayed_recurrent, favor_phi as kinds_favor_phi};
pub use positions::{alibi_slopes, paper_slopes, rope_inv_freq};

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
    /// `N_ij = |w_ij| · ‖v_j‖` (Linformer: the rows of `F V`).
    pub norms: Mat,
    /// Each row's sum of weights.
    pub row_sum: Vec<f64>,
    /// `H_i = −Σ_j a_ij ln a_ij`, natural log, `0·ln 0 = 0`; `None` (JSON `null`)
    /// for the kinds whose rows are not distributions.
    pub row_entropy: Option<Vec<f64>>,
    /// `H_i / ln(#allowed_i)`, 0 below two allowed keys; `None` with `row_entropy`.
    pub row_entropy_normalised: Option<Vec<f64>>,
    /// Rows whose mask has no allowed entry, ascending.
    pub empty_rows: Vec<usize>,
    /// The `computation` label, where the definitions fix it (`None`: not checked).
    pub computation: Option<&'static str>,
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
/// causal / window / strided; global opens its rows and columns; `sinks`
/// opens key columns `0 … s−1`; then AND padding and custom.
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
    if let Some(s) = mask.get("sinks") {
        // StreamingLLM's sink keys: open for every query, after causal /
        // window / strided and global, before padding and custom.
        let s = s.as_u64().expect("mask.sinks") as usize;
        assert!(s <= m, "reference: mask.sinks {s} > m = {m}");
        for row in mk.iter_mut() {
            for cell in row.iter_mut().take(s) {
                *cell = true;
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

/// The kinds that normalise one row of logits per query (spec decision 3).
pub const SOFTMAX_FAMILY: [&str; 6] = [
    "softmax",
    "softmax_plus_one",
    "sigmoid",
    "softpick",
    "sink",
    "differential",
];

/// The kinds whose rows are distributions: their entropies are numbers; the
/// others print `null` (spec decision 8).
fn rows_are_distributions(kind: &str) -> bool {
    matches!(
        kind,
        "softmax" | "elu1" | "relu" | "taylor" | "efficient" | "linformer" | "favor"
    )
}

/// What every kind of one head reads besides its own tensors.
struct Ctx<'a> {
    input: &'a Value,
    kind: &'a str,
    score: &'a str,
    tau: f64,
    /// This head's index and the number of heads (ALiBi's slopes).
    h: usize,
    heads: usize,
    /// Query and key positions (RoPE and ALiBi).
    qpos: Vec<f64>,
    kpos: Vec<f64>,
}

impl Ctx<'_> {
    /// `z = score(q̃, k̃) → z / τ → softcap → + ALiBi bias` (masking is the
    /// normaliser's job).
    fn logits(&self, head: &Value, q: &Mat, k: &Mat) -> Mat {
        let mut z = scores(self.score, head, q, k);
        let softcap = self.input.get("softcap").map(|c| num(c, "softcap"));
        let slope = self
            .input
            .get("alibi")
            .map(|a| alibi_slopes(a, self.heads)[self.h]);
        for i in 0..z.len() {
            for j in 0..z[i].len() {
                let mut x = z[i][j] / self.tau;
                if let Some(c) = softcap {
                    x = c * (x / c).tanh();
                }
                if let Some(s) = slope {
                    x -= s * (self.qpos[i] - self.kpos[j]).abs();
                }
                z[i][j] = x;
            }
        }
        z
    }
}

/// Assemble a head's result from its weights and the vectors they mix.
fn head_result(
    cx: &Ctx,
    weights: Mat,
    values: &Mat,
    allowed: &[usize],
    empty_rows: Vec<usize>,
    computation: Option<&'static str>,
) -> HeadExpected {
    let output = mat_mul(&weights, values);
    let value_norms: Vec<f64> = values.iter().map(|v| norm(v)).collect();
    let norms = weights
        .iter()
        .map(|row| {
            row.iter()
                .zip(&value_norms)
                .map(|(w, nv)| w.abs() * nv)
                .collect()
        })
        .collect();
    let row_sum = weights.iter().map(|r| r.iter().sum()).collect();
    let (row_entropy, row_entropy_normalised) = if rows_are_distributions(cx.kind) {
        let h: Vec<f64> = weights.iter().map(|r| entropy(r)).collect();
        let hn = h
            .iter()
            .zip(allowed)
            .map(|(&h, &a)| if a < 2 { 0.0 } else { h / (a as f64).ln() })
            .collect();
        (Some(h), Some(hn))
    } else {
        (None, None)
    };
    HeadExpected {
        weights,
        output,
        norms,
        row_sum,
        row_entropy,
        row_entropy_normalised,
        empty_rows,
        computation,
    }
}

/// The `computation` label where the definitions fix it, else `None`.
fn computation(input: &Value, kind: &str) -> Option<&'static str> {
    let mask = input.get("mask").and_then(Value::as_object);
    let has = |k: &str| mask.is_some_and(|m| m.contains_key(k));
    let only_causal = mask.is_none_or(|m| {
        m.iter()
            .all(|(k, v)| k == "causal" && v.as_bool() == Some(true))
    });
    let quadratic_only = ["window", "strided", "global", "custom"]
        .iter()
        .any(|k| has(k));
    match kind {
        "softmax" if input.get("tiles").is_some() => Some("tiled"),
        k if SOFTMAX_FAMILY.contains(&k) => Some("quadratic"),
        "efficient" => Some("efficient"),
        "linformer" => Some("linformer"),
        "favor" if mask.is_none() => Some("favor_linear"),
        "favor" if only_causal => Some("favor_recurrent"),
        "favor" if quadratic_only => Some("favor_masked_quadratic"),
        "decayed_linear" if only_causal => Some("decayed_recurrent"),
        "decayed_linear" if quadratic_only => Some("decayed_masked_quadratic"),
        _ => None,
    }
}

fn compute_head(
    input: &Value,
    h: usize,
    heads: usize,
    head: &Value,
    group: Option<&Value>,
) -> HeadExpected {
    let q = matrix(&head["q"], "q");
    let kv = group.unwrap_or(head);
    let k = matrix(&kv["k"], "k");
    let v = matrix(&kv["v"], "v");
    let (n, m) = (q.len(), k.len());
    assert_eq!(v.len(), m, "reference: v rows");
    let kind = input
        .get("attention")
        .and_then(Value::as_str)
        .unwrap_or("softmax");
    let (qpos, kpos) = positions::positions(input, n, m);
    let cx = Ctx {
        input,
        kind,
        score: input
            .get("score")
            .and_then(Value::as_str)
            .unwrap_or("scaled_dot"),
        tau: input
            .get("temperature")
            .map_or(1.0, |t| num(t, "temperature")),
        h,
        heads,
        qpos,
        kpos,
    };
    // RoPE turns q and k (and q2, k2) before anything reads them.
    let rope = input
        .get("positions")
        .map(|p| positions::Rope::new(p, width(&q)));
    let turn = |x: &Mat, pos: &[f64]| match &rope {
        Some(r) => r.turn(x, pos),
        None => x.clone(),
    };
    let q = turn(&q, &cx.qpos);
    let k = turn(&k, &cx.kpos);

    let mut mask = build_mask(input.get("mask"), n, m);
    if kind == "decayed_linear" {
        // j ≤ i ANDed with the mask: global does not open the future.
        for (i, row) in mask.iter_mut().enumerate() {
            for cell in row.iter_mut().skip(i + 1) {
                *cell = false;
            }
        }
    }
    let empty: Vec<usize> = (0..n).filter(|&i| !mask[i].iter().any(|&b| b)).collect();
    let allowed: Vec<usize> = mask
        .iter()
        .map(|r| r.iter().filter(|&&b| b).count())
        .collect();
    let label = computation(input, kind);

    match kind {
        "softmax" | "softmax_plus_one" | "sigmoid" | "softpick" | "sink" => {
            let z = cx.logits(head, &q, &k);
            let w = (0..n)
                .map(|i| {
                    kinds::normalise(kind, &z[i], &mask[i], head, input, m)
                        .unwrap_or_else(|| vec![0.0; m])
                })
                .collect();
            head_result(&cx, w, &v, &allowed, empty, label)
        }
        "differential" => {
            let q2 = turn(&matrix(&head["q2"], "q2"), &cx.qpos);
            let k2 = turn(&matrix(&head["k2"], "k2"), &cx.kpos);
            let lambda = input.get("lambda").map_or(0.8, |l| num(l, "lambda"));
            let z1 = cx.logits(head, &q, &k);
            let z2 = cx.logits(head, &q2, &k2);
            let mut w = vec![vec![0.0; m]; n];
            for i in 0..n {
                if let (Some(a), Some(b)) = (
                    masked_softmax(&z1[i], &mask[i]),
                    masked_softmax(&z2[i], &mask[i]),
                ) {
                    for j in 0..m {
                        w[i][j] = a[j] - lambda * b[j];
                    }
                }
            }
            head_result(&cx, w, &v, &allowed, empty, label)
        }
        "elu1" | "relu" | "taylor" => {
            // Â_ij = M_ij sim_ij / (Σ_j' M_ij' sim_ij' + ε), sim = φ(q)·φ(k).
            let pq: Mat = q.iter().map(|x| phi(kind, x)).collect();
            let pk: Mat = k.iter().map(|x| phi(kind, x)).collect();
            let w = kinds::kernel_rows(&pq, &pk, &mask);
            head_result(&cx, w, &v, &allowed, empty, label)
        }
        "favor" => {
            let feats = kinds::features(head);
            let pq: Mat = q.iter().map(|x| kinds::favor_phi(&feats, x)).collect();
            let pk: Mat = k.iter().map(|x| kinds::favor_phi(&feats, x)).collect();
            let w = kinds::kernel_rows(&pq, &pk, &mask);
            head_result(&cx, w, &v, &allowed, empty, label)
        }
        "decayed_linear" => {
            let w = kinds::decayed(input, head, cx.score, &q, &k, &mask);
            head_result(&cx, w, &v, &allowed, empty, label)
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
                let keep: Vec<bool> = padded.iter().map(|p| !p).collect();
                if let Some(sm) = masked_softmax(&col, &keep) {
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
            head_result(&cx, w, &v, &allowed, empty, label)
        }
        "linformer" => {
            let lin = head.get("linformer").expect("reference: linformer params");
            let e = matrix(&lin["e"], "linformer.e");
            let f = matrix(&lin["f"], "linformer.f");
            let kp = mat_mul(&e, &k); // kp × d_k, from the turned keys
            let vp = mat_mul(&f, &v); // kp × d_v
            let d_k = width(&q) as f64;
            let w: Mat = (0..n)
                .map(|i| {
                    let logits: Vec<f64> = kp
                        .iter()
                        .map(|kr| dot(&q[i], kr) / d_k.sqrt() / cx.tau)
                        .collect();
                    softmax_plain(&logits)
                })
                .collect();
            head_result(&cx, w, &vp, &vec![kp.len(); n], Vec::new(), label)
        }
        other => panic!("reference: unknown attention {other}"),
    }
}

/// The full expected output of `attnlab compute` for a valid `input`.
pub fn compute(input: &Value) -> Expected {
    let list = input["heads"].as_array().expect("reference: heads");
    let groups = input
        .get("kv_heads")
        .map(|g| g.as_array().expect("kv_heads"));
    let count = list.len();
    let heads: Vec<HeadExpected> = list
        .iter()
        .enumerate()
        .map(|(h, head)| {
            // head h reads group ⌊h·G/H⌋
            let group = groups.map(|g| &g[h * g.len() / count]);
            compute_head(input, h, count, head, group)
        })
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
