//! Scalar kernels: the oracle every other path is tested against. Each is the plainest
//! loop that states the definition; the SIMD128 versions must agree with these (exactly
//! for the lane-wise kernels, to a few ulp for the reductions and `exp`).

/// `Σ a_i b_i`, summed left to right.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `y_i += alpha · x_i`.
pub fn axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// The largest element, or `-∞` for an empty slice.
pub fn max(x: &[f32]) -> f32 {
    x.iter().copied().fold(f32::NEG_INFINITY, f32::max)
}

/// `out_i = exp(x_i)`.
pub fn exp(x: &[f32], out: &mut [f32]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = v.exp();
    }
}

/// `out[i·m + j] = scale · (q_i · k_j)` for the rows of `q` (`n × d`) and `k` (`m × d`).
pub fn scores(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    if d == 0 {
        out.fill(0.0);
        return;
    }
    let m = k.len() / d;
    for (qi, oi) in q.chunks_exact(d).zip(out.chunks_exact_mut(m.max(1))) {
        for (o, kj) in oi.iter_mut().zip(k.chunks_exact(d)) {
            *o = dot(qi, kj) * scale;
        }
    }
}

/// `e^t`, or 0 below [`super::SOFTMAX_FLOOR`].
fn softmax_term(t: f32) -> f32 {
    if t >= super::SOFTMAX_FLOOR {
        t.exp()
    } else {
        0.0
    }
}

/// `out_i *= inv`, results below the smallest normal number flushed to 0 (see
/// [`super::SOFTMAX_FLOOR`]).
fn normalise(out: &mut [f32], inv: f32) {
    for o in out {
        let w = *o * inv;
        *o = if w >= f32::MIN_POSITIVE { w } else { 0.0 };
    }
}

/// The softmax of `scale · x` (every entry allowed, `x` not empty) written to `out`.
pub fn softmax_row(x: &[f32], scale: f32, out: &mut [f32]) {
    let max = max(x) * scale;
    let mut sum = 0.0f32;
    for (o, &v) in out.iter_mut().zip(x) {
        *o = softmax_term(v * scale - max);
        sum += *o;
    }
    // sum ≥ 1 (the maximum contributes exp(0) = 1), so the division is safe.
    normalise(out, 1.0 / sum);
}

/// The softmax of `scale · x` over the entries where `allowed` is true (others exactly
/// 0), written to `out`. Returns false, with `out` all zeros, when nothing is allowed.
pub fn softmax_row_masked(x: &[f32], scale: f32, allowed: &[bool], out: &mut [f32]) -> bool {
    let max = x
        .iter()
        .zip(allowed)
        .filter(|(_, a)| **a)
        .fold(f32::NEG_INFINITY, |m, (&v, _)| m.max(v));
    if max == f32::NEG_INFINITY {
        out.fill(0.0);
        return false;
    }
    let max = max * scale;
    let mut sum = 0.0f32;
    for ((o, &v), &a) in out.iter_mut().zip(x).zip(allowed) {
        *o = if a {
            softmax_term(v * scale - max)
        } else {
            0.0
        };
        sum += *o;
    }
    normalise(out, 1.0 / sum);
    true
}

/// `out_i = exp(x_i − shift)`; returns `Σ out_i` (summed left to right).
pub fn exp_shifted_sum(x: &[f32], shift: f32, out: &mut [f32]) -> f32 {
    let mut sum = 0.0f32;
    for (o, &v) in out.iter_mut().zip(x) {
        *o = (v - shift).exp();
        sum += *o;
    }
    sum
}

/// `out_j = e^(scale·x_j − shift)` (0 below the floor) and their sum, in order.
pub fn softmax_terms(x: &[f32], scale: f32, shift: f32, out: &mut [f32]) -> f32 {
    let mut sum = 0.0f32;
    for (o, &v) in out.iter_mut().zip(x) {
        *o = softmax_term(v * scale - shift);
        sum += *o;
    }
    sum
}

/// `w_j ← w_j · factor` where `scale·x_j − top` reaches the floor and the product is
/// normal, else 0; the sum of `w_j · scale·x_j`, in order.
pub fn rescale_terms(w: &mut [f32], x: &[f32], scale: f32, factor: f32, top: f32) -> f32 {
    let mut weighted = 0.0f32;
    for (w, &z) in w.iter_mut().zip(x) {
        let l = scale * z;
        let a = *w * factor;
        let keep = l - top >= super::SOFTMAX_FLOOR && a >= f32::MIN_POSITIVE;
        *w = if keep { a } else { 0.0 };
        weighted += *w * l;
    }
    weighted
}

/// `−Σ a_i ln a_i` over the positive entries, summed in f64; never below 0 (a one-hot
/// row is exactly 0, not −0 or a rounding residue).
pub fn entropy(a: &[f32]) -> f32 {
    let h = -a
        .iter()
        .filter(|&&v| v > 0.0)
        .map(|&v| f64::from(v) * f64::from(v).ln())
        .sum::<f64>();
    if h > 0.0 { h as f32 } else { 0.0 }
}

/// `Σ_j p_j (m − x_j)`, summed in f64.
pub fn weighted_gap(p: &[f32], x: &[f32], m: f32) -> f32 {
    p.iter()
        .zip(x)
        .map(|(&p, &x)| f64::from(p) * (f64::from(m) - f64::from(x)))
        .sum::<f64>() as f32
}

/// `(KL(p ‖ q), JS(p, q))` of two rows of weights, in f64: `Σ p ln(p / max(q, floor))`
/// over `p > 0`, and `½ Σ p ln(p/m) + ½ Σ q ln(q/m)` with `m = (p + q)/2`; neither below 0.
pub fn divergences(p: &[f32], q: &[f32], floor: f32) -> (f64, f64) {
    let (mut kl, mut js) = (0.0f64, 0.0f64);
    for (&a, &b) in p.iter().zip(q) {
        let (a, b) = (f64::from(a), f64::from(b));
        let m = 0.5 * (a + b);
        if a > 0.0 {
            kl += a * (a / b.max(f64::from(floor))).ln();
            js += 0.5 * a * (a / m).ln();
        }
        if b > 0.0 {
            js += 0.5 * b * (b / m).ln();
        }
    }
    (kl.max(0.0), js.max(0.0))
}

/// `out += Σ_j w_j · rows_j` over the rows (`out.len()` wide) whose weight is not zero,
/// in order of `j`: one [`axpy`] per non-zero weight.
pub fn weighted_rows(w: &[f32], rows: &[f32], out: &mut [f32]) {
    let d = out.len();
    if d == 0 {
        return;
    }
    for (&wj, row) in w.iter().zip(rows.chunks_exact(d)) {
        if wj != 0.0 {
            axpy(wj, row, out);
        }
    }
}

/// `S += Σ_p φ_p v_pᵀ` over the pairs `(φ_p, v_p)` in order, for `S` of `φ.len() × v.len()`
/// (row-major): one rank-1 update per pair.
pub fn outer_accumulate(pairs: &[(&[f32], &[f32])], s: &mut [f32]) {
    for &(phi, v) in pairs {
        let d_v = v.len();
        for (&f, s_row) in phi.iter().zip(s.chunks_exact_mut(d_v.max(1))) {
            axpy(f, v, s_row);
        }
    }
}

/// `out_i = elu(x_i) + 1` (`x + 1` for `x > 0`, else `exp(x)`).
pub fn elu1(x: &[f32], out: &mut [f32]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = if v > 0.0 { v + 1.0 } else { v.exp() };
    }
}

/// `out_i = max(x_i, 0)`.
pub fn relu(x: &[f32], out: &mut [f32]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = v.max(0.0);
    }
}

/// `out += xᵀ v` for `x` (`n × p`) and `v` (`n × q`): `out[a·q + b] += Σ_j x_ja v_jb`,
/// summed over `j` in order.
pub fn transposed_product(x: &[f32], v: &[f32], p: usize, q: usize, out: &mut [f32]) {
    if p == 0 || q == 0 {
        return;
    }
    for (xj, vj) in x.chunks_exact(p).zip(v.chunks_exact(q)) {
        for (a, &xa) in xj.iter().enumerate() {
            for (o, &vb) in out[a * q..(a + 1) * q].iter_mut().zip(vj) {
                *o += xa * vb;
            }
        }
    }
}

/// Whether every `scale · x_i` is finite.
pub fn all_finite_scaled(x: &[f32], scale: f32) -> bool {
    x.iter().all(|v| (v * scale).is_finite())
}

/// [`softmax_row`] and the row's entropy `−ln a* + scale · Σ_j a_j (M − x_j)` (`a*` the
/// largest weight, `M` the largest `x`), at least 0: the oracle, from the kernels it
/// composes.
pub fn softmax_row_entropy(x: &[f32], scale: f32, out: &mut [f32]) -> f32 {
    softmax_row(x, scale, out);
    let h = -max(out).ln() + scale * weighted_gap(out, x, max(x));
    h.max(0.0)
}
