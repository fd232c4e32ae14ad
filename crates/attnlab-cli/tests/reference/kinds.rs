//! The normalisers of the softmax family, and the decayed and FAVOR+ kinds,
//! from the issue-33 definitions. Each is the plain formula, shifted by the
//! row's maximum only where `e^z` could overflow f64 (the shift cancels).

use serde_json::Value;

use super::{EPS, Mat, dot, masked_softmax, matrix, norm, num, scores, vector, width};

/// One row's weights for a softmax-family kind (not differential), `None`
/// when no key is allowed. Blocked keys get 0 and never count.
pub fn normalise(
    kind: &str,
    z: &[f64],
    allowed: &[bool],
    head: &Value,
    input: &Value,
    m: usize,
) -> Option<Vec<f64>> {
    if !allowed.iter().any(|&a| a) {
        return None;
    }
    let max_z = z
        .iter()
        .zip(allowed)
        .filter(|(_, a)| **a)
        .map(|(x, _)| *x)
        .fold(f64::NEG_INFINITY, f64::max);
    let each = |f: &dyn Fn(f64) -> f64| -> Vec<f64> {
        z.iter()
            .zip(allowed)
            .map(|(&x, &a)| if a { f(x) } else { 0.0 })
            .collect()
    };
    let row = match kind {
        "softmax" => masked_softmax(z, allowed)?,
        "softmax_plus_one" => {
            // e^z / (1 + Σ e^z), with M = max(max z, 0)
            let mm = max_z.max(0.0);
            let e = each(&|x| (x - mm).exp());
            let den = (-mm).exp() + e.iter().sum::<f64>();
            e.iter().map(|x| x / den).collect()
        }
        "sigmoid" => {
            // σ(z + b), b = −ln m unless given
            let b = input
                .get("sigmoid_bias")
                .map_or(-(m as f64).ln(), |b| num(b, "sigmoid_bias"));
            each(&|x| sigmoid(x + b))
        }
        "softpick" => {
            // max(e^z − 1, 0) / (Σ|e^z − 1| + 10⁻⁶), times e^−M over and under
            // with M = max(max z, 0) so that neither e^z nor e^−M overflows.
            let mm = max_z.max(0.0);
            let shift = (-mm).exp();
            let d = each(&|x| (x - mm).exp() - shift);
            let den = d.iter().map(|x| x.abs()).sum::<f64>() + EPS * shift;
            d.iter().map(|x| x.max(0.0) / den).collect()
        }
        "sink" => {
            // e^z / (e^{s_h} + Σ e^z), with M = max(max z, s_h)
            let s = num(&head["sink"], "sink");
            let mm = max_z.max(s);
            let e = each(&|x| (x - mm).exp());
            let den = (s - mm).exp() + e.iter().sum::<f64>();
            e.iter().map(|x| x / den).collect()
        }
        other => panic!("reference: {other} is not a row normaliser"),
    };
    Some(row)
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `Â_ij = M_ij sim_ij / (Σ_j' M_ij' sim_ij' + ε)` with `sim = φ(q)·φ(k)`.
pub fn kernel_rows(pq: &Mat, pk: &Mat, mask: &[Vec<bool>]) -> Mat {
    let m = pk.len();
    let mut w = vec![vec![0.0; m]; pq.len()];
    for i in 0..pq.len() {
        let mut denom = EPS;
        for j in 0..m {
            if mask[i][j] {
                w[i][j] = dot(&pq[i], &pk[j]);
                denom += w[i][j];
            }
        }
        for x in &mut w[i] {
            *x /= denom;
        }
    }
    w
}

/// FAVOR+ positive features: `φ(x) = exp(W x′ − ‖x′‖²/2) / √r`,
/// `x′ = x / d_k^{1/4}`, `W` r × d_k.
pub fn favor_phi(w: &Mat, x: &[f64]) -> Vec<f64> {
    let d_k = x.len() as f64;
    let xp: Vec<f64> = x.iter().map(|t| t / d_k.powf(0.25)).collect();
    let half_sq = norm(&xp).powi(2) / 2.0;
    let r = w.len() as f64;
    w.iter()
        .map(|row| (dot(row, &xp) - half_sq).exp() / r.sqrt())
        .collect()
}

/// The decay factors `a_t` of one head: `heads[h].decay` γ (every `a_t = γ`),
/// else `heads[h].gates`, else the top-level `gates`.
pub fn gates_of(input: &Value, head: &Value, n: usize) -> Vec<f64> {
    if let Some(g) = head.get("decay") {
        return vec![num(g, "decay"); n];
    }
    let gates = head
        .get("gates")
        .or_else(|| input.get("gates"))
        .expect("reference: decayed_linear needs decay or gates");
    let a = vector(gates, "gates");
    assert_eq!(a.len(), n, "reference: gates length");
    a
}

/// `w_ij = D_ij · score(q_i, k_j)` on the allowed cells (`mask` already has
/// j ≤ i), `D_ij = Π_{t=j+1..i} a_t`, no normaliser.
pub fn decayed(
    input: &Value,
    head: &Value,
    score: &str,
    q: &Mat,
    k: &Mat,
    mask: &[Vec<bool>],
) -> Mat {
    assert!(
        score == "dot" || score == "scaled_dot",
        "reference: decayed_linear score {score}"
    );
    let n = q.len();
    assert_eq!(n, k.len(), "reference: decayed_linear needs n = m");
    let a = gates_of(input, head, n);
    let s = scores(score, head, q, k);
    let mut w = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            if mask[i][j] {
                let d: f64 = (j + 1..=i).map(|t| a[t]).product();
                w[i][j] = d * s[i][j];
            }
        }
    }
    w
}

/// The recurrent form of the decayed kind with only the causal mask:
/// `S_t = a_t S_{t−1} + k_t v_tᵀ`, `o_t = S_tᵀ q_t` (× 1/√d_k for
/// `scaled_dot`). For the reference's own test against [`decayed`].
pub fn decayed_recurrent(a: &[f64], scale: f64, q: &Mat, k: &Mat, v: &Mat) -> Mat {
    let (d_k, d_v) = (width(q), width(v));
    let mut state = vec![vec![0.0; d_v]; d_k];
    let mut out = Vec::with_capacity(q.len());
    for t in 0..q.len() {
        for x in 0..d_k {
            for y in 0..d_v {
                state[x][y] = a[t] * state[x][y] + k[t][x] * v[t][y];
            }
        }
        out.push(
            (0..d_v)
                .map(|y| (0..d_k).map(|x| state[x][y] * q[t][x]).sum::<f64>() * scale)
                .collect(),
        );
    }
    out
}

/// `heads[h].features` of a favor head.
pub fn features(head: &Value) -> Mat {
    matrix(&head["features"], "features")
}
