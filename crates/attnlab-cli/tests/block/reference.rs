//! A naive, independent `f64` reference for `attnlab block`, written from the
//! definitions (docs/maths.md §14), not from the core: plain loops over `Vec<Vec<f64>>`,
//! every attention through its explicit `n × m` matrix, GELU with an erf of its own
//! (Taylor series below 3, the continued fraction of erfc above). It reads the same
//! `attnlab-block/1` document the binary reads and is only ever given valid ones.

// Plain index loops are the point of a naive reference: they read like the formulas.
#![allow(clippy::needless_range_loop)]

use serde_json::Value;

pub type Mat = Vec<Vec<f64>>;

/// One layer's expected result.
pub struct LayerExpected {
    /// heads × n × n.
    pub self_attention: Vec<Mat>,
    /// heads × n × m, with a memory.
    pub cross_attention: Option<Vec<Mat>>,
    /// n × d.
    pub output: Mat,
}

/// The whole expected result.
pub struct Expected {
    pub layers: Vec<LayerExpected>,
    pub output: Mat,
}

pub fn matrix(v: &Value) -> Mat {
    v.as_array().expect("a matrix").iter().map(vector).collect()
}

pub fn vector(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("a vector")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn mat_mul(a: &Mat, b: &Mat) -> Mat {
    let (n, k, m) = (a.len(), b.len(), b[0].len());
    let mut out = vec![vec![0.0; m]; n];
    for i in 0..n {
        for j in 0..m {
            for t in 0..k {
                out[i][j] += a[i][t] * b[t][j];
            }
        }
    }
    out
}

/// `x W + b` (`b` absent: 0).
fn affine(x: &Mat, w: &Value, b: Option<&Value>) -> Mat {
    let mut y = mat_mul(x, &matrix(w));
    if let Some(b) = b {
        let b = vector(b);
        for row in &mut y {
            for (v, bj) in row.iter_mut().zip(&b) {
                *v += bj;
            }
        }
    }
    y
}

fn add(a: &Mat, b: &Mat) -> Mat {
    a.iter()
        .zip(b)
        .map(|(r, s)| r.iter().zip(s).map(|(x, y)| x + y).collect())
        .collect()
}

/// LayerNorm: `γ (x − μ)/√(σ² + ε) + β` per row, `σ²` divided by `d`.
pub fn layer_norm(x: &Mat, ln: &Value, eps: f64) -> Mat {
    let gain = vector(&ln["gain"]);
    let bias = vector(&ln["bias"]);
    x.iter()
        .map(|row| {
            let d = row.len() as f64;
            let mean = row.iter().sum::<f64>() / d;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d;
            row.iter()
                .enumerate()
                .map(|(j, v)| gain[j] * (v - mean) / (var + eps).sqrt() + bias[j])
                .collect()
        })
        .collect()
}

/// erf in f64: its Taylor series for |x| < 3, `1 − erfc(x)` by erfc's continued fraction
/// beyond (both accurate to about 1e-13 there).
pub fn erf(x: f64) -> f64 {
    let a = x.abs();
    let value = if a < 3.0 {
        let mut term = a;
        let mut sum = a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -a * a / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc(a) = e^{−a²}/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …)))).
        let mut fraction = a;
        for k in (1..80).rev() {
            fraction = a + (k as f64 / 2.0) / fraction;
        }
        1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / fraction
    };
    value.copysign(x)
}

pub fn gelu(x: f64) -> f64 {
    0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Multi-head attention of `x` over `source`: each head's weights, and the output.
fn attention(att: &Value, x: &Mat, source: &Mat, causal: bool) -> (Vec<Mat>, Mat) {
    let q = affine(x, &att["w_q"], att.get("b_q"));
    let k = affine(source, &att["w_k"], att.get("b_k"));
    let v = affine(source, &att["w_v"], att.get("b_v"));
    let heads = att["heads"].as_u64().unwrap() as usize;
    let d = q[0].len();
    let d_k = d / heads;
    let (n, m) = (q.len(), k.len());
    let mut concat = vec![vec![0.0; d]; n];
    let mut all = Vec::new();
    for h in 0..heads {
        let cols = h * d_k..(h + 1) * d_k;
        let mut a = vec![vec![0.0; m]; n];
        for i in 0..n {
            let allowed: Vec<usize> = (0..m).filter(|&j| !causal || j <= i).collect();
            let logits: Vec<f64> = allowed
                .iter()
                .map(|&j| {
                    cols.clone().map(|c| q[i][c] * k[j][c]).sum::<f64>() / (d_k as f64).sqrt()
                })
                .collect();
            let max = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let total: f64 = logits.iter().map(|l| (l - max).exp()).sum();
            for (&j, l) in allowed.iter().zip(&logits) {
                a[i][j] = (l - max).exp() / total;
            }
            for c in cols.clone() {
                concat[i][c] = (0..m).map(|j| a[i][j] * v[j][c]).sum();
            }
        }
        all.push(a);
    }
    (all, affine(&concat, &att["w_o"], att.get("b_o")))
}

fn feed_forward(ffn: &Value, x: &Mat) -> Mat {
    let mut hidden = affine(x, &ffn["w_1"], ffn.get("b_1"));
    let act = ffn
        .get("activation")
        .and_then(Value::as_str)
        .unwrap_or("relu");
    for row in &mut hidden {
        for v in row.iter_mut() {
            *v = match act {
                "relu" => v.max(0.0),
                "gelu" => gelu(*v),
                other => panic!("activation {other}"),
            };
        }
    }
    affine(&hidden, &ffn["w_2"], ffn.get("b_2"))
}

/// `LN(x + f(x))` (post) or `x + f(LN(x))` (pre).
fn residual(pre: bool, ln: &Value, eps: f64, x: &Mat, f: impl FnOnce(&Mat) -> Mat) -> Mat {
    if pre {
        add(x, &f(&layer_norm(x, ln, eps)))
    } else {
        layer_norm(&add(x, &f(x)), ln, eps)
    }
}

/// What `attnlab block` should print for `doc`.
pub fn run(doc: &Value) -> Expected {
    let mut x = matrix(&doc["x"]);
    let memory = doc.get("memory").map(matrix);
    let pre = doc.get("norm").and_then(Value::as_str) == Some("pre");
    let eps = doc
        .get("layer_norm_eps")
        .and_then(Value::as_f64)
        .unwrap_or(1e-5);
    let mut layers = Vec::new();
    for layer in doc["layers"].as_array().unwrap() {
        let sa = &layer["self"];
        let causal = sa.get("causal").and_then(Value::as_bool).unwrap_or(false);
        let mut self_attention = Vec::new();
        x = residual(pre, &layer["ln_self"], eps, &x, |h| {
            let (w, o) = attention(sa, h, h, causal);
            self_attention = w;
            o
        });
        let mut cross_attention = None;
        if let Some(mem) = &memory {
            x = residual(pre, &layer["ln_cross"], eps, &x, |h| {
                let (w, o) = attention(&layer["cross"], h, mem, false);
                cross_attention = Some(w);
                o
            });
        }
        x = residual(pre, &layer["ln_ffn"], eps, &x, |h| {
            feed_forward(&layer["ffn"], h)
        });
        layers.push(LayerExpected {
            self_attention,
            cross_attention,
            output: x.clone(),
        });
    }
    if let Some(ln) = doc.get("final_norm") {
        x = layer_norm(&x, ln, eps);
    }
    Expected { layers, output: x }
}

#[test]
fn erf_at_published_values() {
    // Abramowitz & Stegun, Table 7.1.
    for (x, want) in [
        (0.0, 0.0),
        (0.5, 0.520_499_877_8),
        (1.0, 0.842_700_792_9),
        (2.0, 0.995_322_265_0),
        (3.0, 0.999_977_909_5),
        (3.5, 0.999_999_256_9),
    ] {
        assert!((erf(x) - want).abs() < 1e-10, "erf({x}) = {}", erf(x));
        assert!((erf(-x) + want).abs() < 1e-10);
    }
}
