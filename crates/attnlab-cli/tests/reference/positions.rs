//! Positions in the reference: rotary embeddings (RoPE, with linear, NTK and
//! YaRN scaling) and ALiBi's slopes, from the issue-33 definitions.

use serde_json::Value;

use super::{Mat, num, vector, width};

/// `positions.query_positions` / `key_positions` when given, else
/// `0 … n−1` / `0 … m−1` (used by RoPE and by ALiBi).
pub fn positions(input: &Value, n: usize, m: usize) -> (Vec<f64>, Vec<f64>) {
    let pos = input.get("positions");
    let side = |key: &str, len: usize| -> Vec<f64> {
        match pos.and_then(|p| p.get(key)) {
            Some(v) => {
                let p = vector(v, key);
                assert_eq!(p.len(), len, "reference: {key} length");
                p
            }
            None => (0..len).map(|t| t as f64).collect(),
        }
    };
    (side("query_positions", n), side("key_positions", m))
}

/// RoPE as the spec defines it: `r` dims turn, pairs `half` (i, i + r/2) or
/// `interleaved` (2i, 2i+1), pair i by `p / div · inv_freq_i`, both turned
/// dims multiplied by `mscale` (YaRN; 1 otherwise).
#[derive(Debug, Clone)]
pub struct Rope {
    pub half: bool,
    pub r: usize,
    pub inv_freq: Vec<f64>,
    /// Linear scaling divides positions by `s`.
    pub div: f64,
    pub mscale: f64,
}

impl Rope {
    /// From the `positions` object, for a head of width `d_k`.
    pub fn new(p: &Value, d_k: usize) -> Rope {
        assert_eq!(p["kind"], "rope", "reference: positions.kind");
        let half = match p.get("pairs").and_then(Value::as_str) {
            None | Some("half") => true,
            Some("interleaved") => false,
            Some(other) => panic!("reference: positions.pairs {other}"),
        };
        let r = p
            .get("rotary_dims")
            .map_or(d_k, |r| r.as_u64().expect("rotary_dims") as usize);
        assert!(
            r >= 2 && r.is_multiple_of(2) && r <= d_k,
            "reference: rotary_dims {r} with d_k = {d_k}"
        );
        let base = p.get("base").map_or(10000.0, |b| num(b, "base"));
        let (inv_freq, div, mscale) = rope_inv_freq(base, r, p.get("scaling"));
        Rope {
            half,
            r,
            inv_freq,
            div,
            mscale,
        }
    }

    /// Turn every row `x[t]` by its position `pos[t]`; dims ≥ r untouched.
    pub fn turn(&self, x: &Mat, pos: &[f64]) -> Mat {
        assert_eq!(x.len(), pos.len(), "reference: positions length");
        assert!(width(x) >= self.r || x.is_empty(), "reference: r > d_k");
        let mut out = x.clone();
        for (t, row) in out.iter_mut().enumerate() {
            for i in 0..self.r / 2 {
                let (ia, ib) = if self.half {
                    (i, i + self.r / 2)
                } else {
                    (2 * i, 2 * i + 1)
                };
                let phi = pos[t] / self.div * self.inv_freq[i];
                let (c, s) = (phi.cos() * self.mscale, phi.sin() * self.mscale);
                let (a, b) = (x[t][ia], x[t][ib]);
                row[ia] = a * c - b * s;
                row[ib] = a * s + b * c;
            }
        }
        out
    }
}

/// `(inv_freq_i for i < r/2, position divisor, mscale)` for `base`, `r` and a
/// `scaling` object:
/// - none: `θ_i = base^(−2i/r)`;
/// - linear: positions ÷ s;
/// - ntk: `base · s^(r/(r−2))`;
/// - yarn (HF `_compute_yarn_parameters` with dim = r): the ramp between the
///   correction dims blends `θ_i/s` (interpolation) and `θ_i` (extrapolation);
///   `mscale = 0.1·ln s + 1` (1 when s ≤ 1).
pub fn rope_inv_freq(base: f64, r: usize, scaling: Option<&Value>) -> (Vec<f64>, f64, f64) {
    let half = r / 2;
    let theta = |base: f64| -> Vec<f64> {
        (0..half)
            .map(|i| base.powf(-2.0 * i as f64 / r as f64))
            .collect()
    };
    let Some(sc) = scaling else {
        return (theta(base), 1.0, 1.0);
    };
    let s = num(&sc["factor"], "scaling.factor");
    match sc["kind"].as_str().expect("scaling.kind") {
        "linear" => (theta(base), s, 1.0),
        "ntk" => {
            assert!(r > 2, "reference: ntk needs r > 2");
            let rf = r as f64;
            (theta(base * s.powf(rf / (rf - 2.0))), 1.0, 1.0)
        }
        "yarn" => {
            let l = num(&sc["original_max_positions"], "original_max_positions");
            let beta_fast = sc.get("beta_fast").map_or(32.0, |b| num(b, "beta_fast"));
            let beta_slow = sc.get("beta_slow").map_or(1.0, |b| num(b, "beta_slow"));
            let rf = r as f64;
            let corr_dim =
                |rot: f64| rf * (l / (rot * std::f64::consts::TAU)).ln() / (2.0 * base.ln());
            let low = corr_dim(beta_fast).floor().max(0.0);
            let mut high = corr_dim(beta_slow).ceil().min(rf - 1.0);
            if low == high {
                high += 0.001;
            }
            let th = theta(base);
            let inv_freq = (0..half)
                .map(|i| {
                    let ramp = ((i as f64 - low) / (high - low)).clamp(0.0, 1.0);
                    let e = 1.0 - ramp;
                    th[i] / s * (1.0 - e) + th[i] * e
                })
                .collect();
            let mscale = if s <= 1.0 { 1.0 } else { 0.1 * s.ln() + 1.0 };
            (inv_freq, 1.0, mscale)
        }
        other => panic!("reference: scaling kind {other}"),
    }
}

/// ALiBi's slopes for `heads` heads: `true` → the paper's, `{"slopes": […]}` →
/// those.
pub fn alibi_slopes(alibi: &Value, heads: usize) -> Vec<f64> {
    match alibi {
        Value::Bool(true) => paper_slopes(heads),
        Value::Object(o) => {
            let s = vector(&o["slopes"], "alibi.slopes");
            assert_eq!(s.len(), heads, "reference: alibi.slopes length");
            s
        }
        other => panic!("reference: alibi {other}"),
    }
}

/// The ALiBi paper's `get_slopes(n)` (Press et al. 2022): for a power of two
/// `2^(−8(h+1)/n)`; otherwise, with `c` the largest power of two below `n`,
/// `slopes(c)` followed by every other one of `slopes(2c)`, `n − c` of them.
pub fn paper_slopes(n: usize) -> Vec<f64> {
    if n.is_power_of_two() {
        return (0..n)
            .map(|h| 2f64.powf(-8.0 * (h + 1) as f64 / n as f64))
            .collect();
    }
    let c = 1usize << n.ilog2();
    let mut out = paper_slopes(c);
    out.extend(paper_slopes(2 * c).into_iter().step_by(2).take(n - c));
    out
}
