//! The softmax of a row in SIMD128: its terms `e^{x − max}` (with [`exp4`]), their sum,
//! the normalisation, the row's entropy from its sums, a masked row, and a shifted `e^x`
//! with its sum.

use super::*;

/// Multiplies every element by `s`.
#[inline(always)]
fn normalise(out: &mut [f32], s: f32) {
    let vs = f32x4_splat(s);
    let tiny = f32x4_splat(f32::MIN_POSITIVE);
    let n = out.len();
    let mut i = 0;
    while i + LANES <= n {
        let v = f32x4_mul(load(&out[i..]), vs);
        store(&mut out[i..], v128_and(v, f32x4_ge(v, tiny)));
        i += LANES;
    }
    for o in &mut out[i..] {
        let w = *o * s;
        *o = if w >= f32::MIN_POSITIVE { w } else { 0.0 };
    }
}

/// `e^t` in four lanes, 0 below [`super::super::SOFTMAX_FLOOR`]: those lanes go through [`exp4`]
/// as `e^0` and are masked afterwards, so no subnormal number is ever computed.
#[inline(always)]
fn softmax_term4(t: v128) -> v128 {
    let keep = f32x4_ge(t, f32x4_splat(super::super::SOFTMAX_FLOOR));
    v128_and(exp4(v128_and(t, keep)), keep)
}

/// One [`softmax_term4`] lane, for tails.
#[inline(always)]
fn softmax_term1(t: f32) -> f32 {
    f32x4_extract_lane::<0>(softmax_term4(f32x4_splat(t)))
}

/// The softmax of `scale · x` (`x` not empty): one pass for the maximum, one fused pass
/// `exp(scale·x − max)` with the sum, one to normalise.
pub fn softmax_row(x: &[f32], scale: f32, out: &mut [f32]) {
    let n = x.len().min(out.len());
    let sum = softmax_terms(x, scale, max(x) * scale, out);
    normalise(&mut out[..n], 1.0 / sum);
}

/// `out_j = e^(scale·x_j − m)` (0 below [`super::super::SOFTMAX_FLOOR`]) and their sum: four
/// lanes at a time, the lanes' sums added last, then the tail.
#[inline(always)]
pub fn softmax_terms(x: &[f32], scale: f32, m: f32, out: &mut [f32]) -> f32 {
    let (vm, vs) = (f32x4_splat(m), f32x4_splat(scale));
    let n = x.len().min(out.len());
    let mut acc = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        let e = softmax_term4(f32x4_sub(f32x4_mul(load(&x[i..]), vs), vm));
        store(&mut out[i..], e);
        acc = f32x4_add(acc, e);
        i += LANES;
    }
    let mut sum = hsum(acc);
    for j in i..n {
        out[j] = softmax_term1(x[j] * scale - m);
        sum += out[j];
    }
    sum
}

/// [`softmax_row`] and the row's entropy `ln Z + scale · Σ_j a_j (M − x_j)` (`M` the
/// largest `x`; see [`super::super::softmax_row_entropy`]) in three passes instead of six: the
/// maximum, the terms with their sum, then the normalisation with the weighted gap summed
/// as it goes. The weight of the largest entry is `1/Z` exactly (its term is `e^0 = 1`),
/// so no pass looks for it. Every weight, and the gap's lanes and order, are those of
/// [`softmax_row`] then [`weighted_gap`], bit for bit.
pub fn softmax_row_entropy(x: &[f32], scale: f32, out: &mut [f32]) -> f32 {
    let top = max(x);
    let n = x.len().min(out.len());
    let inv = 1.0 / softmax_terms(x, scale, top * scale, out);
    let (vi, vt, tiny) = (
        f32x4_splat(inv),
        f32x4_splat(top),
        f32x4_splat(f32::MIN_POSITIVE),
    );
    let mut gap = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        let w = f32x4_mul(load(&out[i..]), vi);
        let w = v128_and(w, f32x4_ge(w, tiny));
        store(&mut out[i..], w);
        gap = f32x4_add(gap, f32x4_mul(w, f32x4_sub(vt, load(&x[i..]))));
        i += LANES;
    }
    let mut g = hsum(gap);
    for j in i..n {
        let w = out[j] * inv;
        out[j] = if w >= f32::MIN_POSITIVE { w } else { 0.0 };
        g += out[j] * (top - x[j]);
    }
    let h = -inv.ln() + scale * g;
    h.max(0.0)
}

/// Four `bool`s as a lane mask (all ones where true).
#[inline(always)]
fn mask4(a: &[bool]) -> v128 {
    i32x4(
        -i32::from(a[0]),
        -i32::from(a[1]),
        -i32::from(a[2]),
        -i32::from(a[3]),
    )
}

/// The masked softmax of `scale · x` (blocked entries exactly 0); false and all zeros
/// when nothing is allowed.
pub fn softmax_row_masked(x: &[f32], scale: f32, allowed: &[bool], out: &mut [f32]) -> bool {
    let n = x.len().min(out.len()).min(allowed.len());
    let ninf = f32x4_splat(f32::NEG_INFINITY);
    let mut vmax = ninf;
    let mut i = 0;
    while i + LANES <= n {
        let v = v128_bitselect(load(&x[i..]), ninf, mask4(&allowed[i..]));
        vmax = f32x4_pmax(vmax, v);
        i += LANES;
    }
    let mut m = f32x4_extract_lane::<0>(vmax)
        .max(f32x4_extract_lane::<1>(vmax))
        .max(f32x4_extract_lane::<2>(vmax))
        .max(f32x4_extract_lane::<3>(vmax));
    for j in i..n {
        if allowed[j] {
            m = m.max(x[j]);
        }
    }
    if m == f32::NEG_INFINITY {
        out.fill(0.0);
        return false;
    }
    let m = m * scale;
    let (vm, vs) = (f32x4_splat(m), f32x4_splat(scale));
    let mut acc = f32x4_splat(0.0);
    i = 0;
    while i + LANES <= n {
        let e = softmax_term4(f32x4_sub(f32x4_mul(load(&x[i..]), vs), vm));
        let e = v128_and(e, mask4(&allowed[i..]));
        store(&mut out[i..], e);
        acc = f32x4_add(acc, e);
        i += LANES;
    }
    let mut sum = hsum(acc);
    for j in i..n {
        out[j] = if allowed[j] {
            softmax_term1(x[j] * scale - m)
        } else {
            0.0
        };
        sum += out[j];
    }
    normalise(&mut out[..n], 1.0 / sum);
    true
}

/// `out_i = exp(x_i − shift)`; returns `Σ out_i`.
pub fn exp_shifted_sum(x: &[f32], shift: f32, out: &mut [f32]) -> f32 {
    let n = x.len().min(out.len());
    let vsh = f32x4_splat(shift);
    let mut acc = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        let e = exp4(f32x4_sub(load(&x[i..]), vsh));
        store(&mut out[i..], e);
        acc = f32x4_add(acc, e);
        i += LANES;
    }
    let mut sum = hsum(acc);
    for j in i..n {
        out[j] = exp1(x[j] - shift);
        sum += out[j];
    }
    sum
}

/// [`super::super::rescale_terms`]: four lanes at a time, the comparisons as lane masks.
pub fn rescale_terms(w: &mut [f32], x: &[f32], scale: f32, factor: f32, top: f32) -> f32 {
    let n = x.len().min(w.len());
    let (vs, vf, vt) = (f32x4_splat(scale), f32x4_splat(factor), f32x4_splat(top));
    let (floor, tiny) = (
        f32x4_splat(super::super::SOFTMAX_FLOOR),
        f32x4_splat(f32::MIN_POSITIVE),
    );
    let mut acc = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        let l = f32x4_mul(load(&x[i..]), vs);
        let a = f32x4_mul(load(&w[i..]), vf);
        let keep = v128_and(f32x4_ge(f32x4_sub(l, vt), floor), f32x4_ge(a, tiny));
        let a = v128_and(a, keep);
        store(&mut w[i..], a);
        acc = f32x4_add(acc, f32x4_mul(a, l));
        i += LANES;
    }
    let mut weighted = hsum(acc);
    for j in i..n {
        let l = scale * x[j];
        let a = w[j] * factor;
        let keep = l - top >= super::super::SOFTMAX_FLOOR && a >= f32::MIN_POSITIVE;
        w[j] = if keep { a } else { 0.0 };
        weighted += w[j] * l;
    }
    weighted
}
