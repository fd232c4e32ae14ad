//! WebAssembly SIMD128 kernels (4 × f32 lanes), with scalar tails.
//!
//! Lane-wise kernels (`axpy`, `weighted_rows`, `outer_accumulate`, `relu`) add in the
//! oracle's order and are bit-identical to it; reductions (`dot`, `scores`, the softmax
//! sums) sum in four lanes and agree to rounding; `exp` is a polynomial within 2 ulp.

use core::arch::wasm32::{
    f32x4_add, f32x4_convert_i32x4, f32x4_div, f32x4_extract_lane, f32x4_ge, f32x4_gt, f32x4_lt,
    f32x4_mul, f32x4_pmax, f32x4_pmin, f32x4_splat, f32x4_sub, i32x4, i32x4_add, i32x4_shl,
    i32x4_shr, i32x4_shuffle, i32x4_splat, i32x4_sub, v128, v128_and, v128_bitselect, v128_load,
    v128_or, v128_store,
};

const LANES: usize = 4;

#[inline(always)]
fn load(s: &[f32]) -> v128 {
    debug_assert!(s.len() >= LANES);
    // SAFETY: the slice has at least four f32 (16 bytes); v128_load allows unaligned reads.
    unsafe { v128_load(s.as_ptr() as *const v128) }
}

#[inline(always)]
fn store(s: &mut [f32], v: v128) {
    debug_assert!(s.len() >= LANES);
    // SAFETY: the slice has room for four f32; v128_store allows unaligned writes.
    unsafe { v128_store(s.as_mut_ptr() as *mut v128, v) }
}

#[inline(always)]
fn hsum(v: v128) -> f32 {
    (f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<1>(v))
        + (f32x4_extract_lane::<2>(v) + f32x4_extract_lane::<3>(v))
}

/// `Σ a_i b_i`, four lanes at a time with two accumulators, then the tail.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (mut acc0, mut acc1) = (f32x4_splat(0.0), f32x4_splat(0.0));
    let mut i = 0;
    while i + 2 * LANES <= n {
        acc0 = f32x4_add(acc0, f32x4_mul(load(&a[i..]), load(&b[i..])));
        acc1 = f32x4_add(
            acc1,
            f32x4_mul(load(&a[i + LANES..]), load(&b[i + LANES..])),
        );
        i += 2 * LANES;
    }
    if i + LANES <= n {
        acc0 = f32x4_add(acc0, f32x4_mul(load(&a[i..]), load(&b[i..])));
        i += LANES;
    }
    let mut sum = hsum(f32x4_add(acc0, acc1));
    for j in i..n {
        sum += a[j] * b[j];
    }
    sum
}

/// `y_i += alpha · x_i`, four lanes at a time, then the tail.
pub fn axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    let n = x.len().min(y.len());
    let va = f32x4_splat(alpha);
    let mut i = 0;
    while i + LANES <= n {
        let r = f32x4_add(load(&y[i..]), f32x4_mul(va, load(&x[i..])));
        store(&mut y[i..], r);
        i += LANES;
    }
    for j in i..n {
        y[j] += alpha * x[j];
    }
}

/// The largest element, or `-∞` for an empty slice. Uses `pmax` (one instruction; `max`
/// must also order NaN and ±0, which the core's finite inputs never need).
pub fn max(x: &[f32]) -> f32 {
    let n = x.len();
    let mut i = 0;
    let mut m = f32::NEG_INFINITY;
    if n >= LANES {
        // Four chains of maxima, so each waits for its own only (max is exact in any order).
        let first = load(x);
        let mut acc = [first; 4];
        i = LANES;
        while i + 4 * LANES <= n {
            for (k, a) in acc.iter_mut().enumerate() {
                *a = f32x4_pmax(*a, load(&x[i + LANES * k..]));
            }
            i += 4 * LANES;
        }
        while i + LANES <= n {
            acc[0] = f32x4_pmax(acc[0], load(&x[i..]));
            i += LANES;
        }
        let acc = f32x4_pmax(f32x4_pmax(acc[0], acc[1]), f32x4_pmax(acc[2], acc[3]));
        m = f32x4_extract_lane::<0>(acc)
            .max(f32x4_extract_lane::<1>(acc))
            .max(f32x4_extract_lane::<2>(acc))
            .max(f32x4_extract_lane::<3>(acc));
    }
    for &v in &x[i..] {
        m = m.max(v);
    }
    m
}

/// `e^x` in four lanes: `x = n ln 2 + r` with `n = round(x / ln 2)` and `|r| ≤ ln 2 / 2`
/// (Cody–Waite, `ln 2` in two parts so `n · ln2_hi` is exact), `e^r` by Cephes' degree-7
/// polynomial, and `2^n` applied as two normal powers of two so that results down to the
/// subnormals are rounded once. Within 2 ulp of the true value over `[-88, 88]` (a test
/// checks it against f64); `-∞` and anything below −104 give exactly 0, `0` gives
/// exactly 1, above ~88.72 gives `+∞`. Not for NaN (the core never feeds it one).
#[inline(always)]
pub(crate) fn exp4(x: v128) -> v128 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4; // 355/512: 9 significant bits
    const LN2_LO: f32 = -2.121_944_4e-4;
    // 1.5·2²³: adding it rounds to an integer (to nearest, ties to even) held in the low
    // mantissa bits, so n comes without a float→int conversion.
    const ROUND: f32 = 12_582_912.0;
    // pmin/pmax are one instruction each (min/max must also order NaN and ±0).
    let x = f32x4_pmin(f32x4_pmax(x, f32x4_splat(-104.0)), f32x4_splat(88.8));
    let t = f32x4_add(f32x4_mul(x, f32x4_splat(LOG2E)), f32x4_splat(ROUND));
    let n = f32x4_sub(t, f32x4_splat(ROUND));
    let r = f32x4_sub(
        f32x4_sub(x, f32x4_mul(n, f32x4_splat(LN2_HI))),
        f32x4_mul(n, f32x4_splat(LN2_LO)),
    );
    let mut p = f32x4_splat(1.987_569_1e-4);
    for c in [
        1.398_2e-3,
        8.333_452e-3,
        4.166_579_6e-2,
        1.666_666_5e-1,
        0.5, // Cephes: 5.0000001201e-1, which is 0.5 in f32
    ] {
        p = f32x4_add(f32x4_mul(p, r), f32x4_splat(c));
    }
    let r2 = f32x4_mul(r, r);
    let e_r = f32x4_add(f32x4_add(f32x4_mul(p, r2), r), f32x4_splat(1.0));
    // n ∈ [−150, 128]: split it as n1 + n2 with both halves in [−75, 64].
    let ni = i32x4_sub(t, i32x4_splat(ROUND.to_bits() as i32));
    let n1 = i32x4_shr(ni, 1);
    let n2 = i32x4_sub(ni, n1);
    let bias = i32x4_splat(127);
    let pow1 = i32x4_shl(i32x4_add(n1, bias), 23);
    let pow2 = i32x4_shl(i32x4_add(n2, bias), 23);
    f32x4_mul(f32x4_mul(e_r, pow1), pow2)
}

/// `ln x` in four lanes for positive normal `x`: `x = m · 2^e` with `m` in
/// `[√½, √2)` (read from the bits), `ln(1 + f)` for `f = m − 1` by Cephes' `logf`
/// polynomial, plus `e ln 2` (in two parts). Within a few ulp of the true value (a test
/// checks it against f64 under SIMD128). Not for 0, subnormals, ∞ or NaN: callers clamp.
#[inline(always)]
pub(crate) fn ln4(x: v128) -> v128 {
    const SQRT_HALF: f32 = std::f32::consts::FRAC_1_SQRT_2;
    // The exponent (for a mantissa in [½, 1)) and the mantissa itself.
    let bits = x;
    let e = i32x4_sub(i32x4_shr(bits, 23), i32x4_splat(126));
    let m = v128_or(
        v128_and(bits, i32x4_splat(0x007f_ffff)),
        i32x4_splat(0x3f00_0000),
    );
    // m < √½: use 2m (in [√½, 1)) and e − 1.
    let small = f32x4_lt(m, f32x4_splat(SQRT_HALF));
    let e = i32x4_add(e, small); // a true lane is −1
    let f = f32x4_sub(f32x4_add(m, v128_and(m, small)), f32x4_splat(1.0));
    let e = f32x4_convert_i32x4(e);
    let mut p = f32x4_splat(7.037_683_6e-2);
    for c in [
        -1.151_461e-1,
        1.167_699_9e-1,
        -1.242_014_1e-1,
        1.424_932_3e-1,
        -1.666_805_8e-1,
        2.000_071_4e-1,
        -2.499_999_4e-1,
        3.333_333e-1,
    ] {
        p = f32x4_add(f32x4_mul(p, f), f32x4_splat(c));
    }
    let z = f32x4_mul(f, f);
    let mut y = f32x4_mul(f32x4_mul(p, f), z);
    y = f32x4_add(y, f32x4_mul(e, f32x4_splat(-2.121_944_4e-4)));
    y = f32x4_sub(y, f32x4_mul(z, f32x4_splat(0.5)));
    f32x4_add(f32x4_add(f, y), f32x4_mul(e, f32x4_splat(0.693_359_4)))
}

/// `−Σ a_i ln a_i` over the positive entries, four lanes at a time with [`ln4`], the tail
/// through it too; never below 0. Subnormal entries (an average of tiny weights can
/// make them) count as 0 — their terms are below 1e-36 — and are zeroed before any
/// arithmetic touches them, which on x86 would take a slow microcode path.
pub fn entropy(a: &[f32]) -> f32 {
    let zero = f32x4_splat(0.0);
    let tiny = f32x4_splat(f32::MIN_POSITIVE);
    let term = |x: v128| {
        let x = v128_and(x, f32x4_ge(x, tiny));
        f32x4_mul(x, ln4(f32x4_pmax(x, tiny)))
    };
    let mut acc = zero;
    let mut i = 0;
    while i + LANES <= a.len() {
        acc = f32x4_add(acc, term(load(&a[i..])));
        i += LANES;
    }
    let mut sum = hsum(acc);
    for &v in &a[i..] {
        sum += f32x4_extract_lane::<0>(term(f32x4_splat(v)));
    }
    let h = -sum;
    if h > 0.0 { h } else { 0.0 }
}

/// `Σ_j p_j (m − x_j)`, four lanes at a time.
pub fn weighted_gap(p: &[f32], x: &[f32], m: f32) -> f32 {
    let n = p.len().min(x.len());
    let vm = f32x4_splat(m);
    let mut acc = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        acc = f32x4_add(acc, f32x4_mul(load(&p[i..]), f32x4_sub(vm, load(&x[i..]))));
        i += LANES;
    }
    let mut sum = hsum(acc);
    for j in i..n {
        sum += p[j] * (m - x[j]);
    }
    sum
}

/// `(KL(p ‖ q), JS(p, q))` as [`super::scalar::divergences`], four lanes at a time with
/// [`ln4`] of the ratios (accurate near 1, where similar rows put them), summed in f32
/// lanes per row. Subnormal weights count as 0, as in [`entropy`].
pub fn divergences(p: &[f32], q: &[f32], floor: f32) -> (f64, f64) {
    let n = p.len().min(q.len());
    let tiny = f32x4_splat(f32::MIN_POSITIVE);
    let half = f32x4_splat(0.5);
    let floor = f32x4_splat(floor);
    // Lanes at or above the smallest normal number, else 0; and a safe divisor there.
    let kept = |x: v128| v128_and(x, f32x4_ge(x, tiny));
    let terms = |a: v128, b: v128| {
        let (a, b) = (kept(a), kept(b));
        let m = f32x4_mul(half, f32x4_add(a, b));
        let m_safe = f32x4_pmax(m, tiny);
        let a_safe = f32x4_pmax(a, tiny);
        let b_safe = f32x4_pmax(b, tiny);
        let kl = f32x4_mul(a, ln4(f32x4_div(a_safe, f32x4_pmax(b, floor))));
        let js_a = f32x4_mul(a, ln4(f32x4_div(a_safe, m_safe)));
        let js_b = f32x4_mul(b, ln4(f32x4_div(b_safe, m_safe)));
        (kl, f32x4_mul(half, f32x4_add(js_a, js_b)))
    };
    let (mut kl, mut js) = (f32x4_splat(0.0), f32x4_splat(0.0));
    let mut i = 0;
    while i + LANES <= n {
        let (k, j) = terms(load(&p[i..]), load(&q[i..]));
        kl = f32x4_add(kl, k);
        js = f32x4_add(js, j);
        i += LANES;
    }
    let (mut kl_sum, mut js_sum) = (f64::from(hsum(kl)), f64::from(hsum(js)));
    for j in i..n {
        let (k, s) = terms(f32x4_splat(p[j]), f32x4_splat(q[j]));
        kl_sum += f64::from(f32x4_extract_lane::<0>(k));
        js_sum += f64::from(f32x4_extract_lane::<0>(s));
    }
    (kl_sum.max(0.0), js_sum.max(0.0))
}

/// `out_i = exp(x_i)`, four lanes at a time with [`exp4`], then the tail through it too.
pub fn exp(x: &[f32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    let mut i = 0;
    while i + LANES <= n {
        store(&mut out[i..], exp4(load(&x[i..])));
        i += LANES;
    }
    for j in i..n {
        out[j] = exp1(x[j]);
    }
}

/// One `e^x` through the four-lane routine, so tails round like the body.
#[inline(always)]
fn exp1(x: f32) -> f32 {
    f32x4_extract_lane::<0>(exp4(f32x4_splat(x)))
}

/// The four sums of `a0..a3` as one vector `[Σa0, Σa1, Σa2, Σa3]`.
#[inline(always)]
fn hsum4(a0: v128, a1: v128, a2: v128, a3: v128) -> v128 {
    let t0 = f32x4_add(
        i32x4_shuffle::<0, 4, 1, 5>(a0, a1),
        i32x4_shuffle::<2, 6, 3, 7>(a0, a1),
    );
    let t1 = f32x4_add(
        i32x4_shuffle::<0, 4, 1, 5>(a2, a3),
        i32x4_shuffle::<2, 6, 3, 7>(a2, a3),
    );
    f32x4_add(
        i32x4_shuffle::<0, 1, 4, 5>(t0, t1),
        i32x4_shuffle::<2, 3, 6, 7>(t0, t1),
    )
}

/// `[q_r · k_0, …, q_r · k_3]` for `R` query rows against four key rows (register
/// blocking: each key load is reused by `R` queries, each query load by four keys).
#[inline(always)]
fn block<const R: usize>(q: [&[f32]; R], k: [&[f32]; 4], d: usize) -> [v128; R] {
    let mut acc = [[f32x4_splat(0.0); 4]; R];
    let mut c = 0;
    while c + LANES <= d {
        let kv = [
            load(&k[0][c..]),
            load(&k[1][c..]),
            load(&k[2][c..]),
            load(&k[3][c..]),
        ];
        for r in 0..R {
            let qv = load(&q[r][c..]);
            for j in 0..4 {
                acc[r][j] = f32x4_add(acc[r][j], f32x4_mul(qv, kv[j]));
            }
        }
        c += LANES;
    }
    let mut out = [f32x4_splat(0.0); R];
    for r in 0..R {
        let mut v = hsum4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
        if c < d {
            let mut tail = [0.0f32; 4];
            for (j, t) in tail.iter_mut().enumerate() {
                for cc in c..d {
                    *t += q[r][cc] * k[j][cc];
                }
            }
            v = f32x4_add(v, load(&tail));
        }
        out[r] = v;
    }
    out
}

/// Floats of `k` that [`scores`] keeps in cache while every query passes over them: 16 K
/// floats, 64 KB (a third of a 384-wide weight matrix, two 64-wide heads of 256 keys).
const KEY_BLOCK_FLOATS: usize = 16 * 1024;

/// `out[i·m + j] = scale · (q_i · k_j)`, blocked two queries × four keys; leftover keys
/// through [`dot`], a leftover query one row × four keys.
///
/// The keys go in column blocks of [`KEY_BLOCK_FLOATS`] (a multiple of four keys), every
/// query against one block before the next: a block is read from memory once and reused
/// from cache by all `n` queries, instead of all of `k` streaming past each pair of them
/// (a 1536 × 384 weight is 2.4 MB). Every output is computed as without the blocks, so the
/// results are the same bit for bit.
fn scores_dot(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    let m = k.len() / d;
    let keys = (KEY_BLOCK_FLOATS / d / LANES).max(1) * LANES;
    let mut start = 0;
    while start < m {
        let end = (start + keys).min(m);
        scores_columns(q, k, d, scale, out, start..end);
        start = end;
    }
}

/// [`scores`] for the keys `columns` (`columns.start` a multiple of four).
#[inline(always)]
fn scores_columns(
    q: &[f32],
    k: &[f32],
    d: usize,
    scale: f32,
    out: &mut [f32],
    columns: std::ops::Range<usize>,
) {
    let (n, m) = (q.len() / d, k.len() / d);
    let vs = f32x4_splat(scale);
    let qrow = |i: usize| &q[i * d..(i + 1) * d];
    let krow = |j: usize| &k[j * d..(j + 1) * d];
    let mut i = 0;
    while i + 2 <= n {
        let mut j = columns.start;
        while j + 4 <= columns.end {
            let [r0, r1] = block(
                [qrow(i), qrow(i + 1)],
                [krow(j), krow(j + 1), krow(j + 2), krow(j + 3)],
                d,
            );
            store(&mut out[i * m + j..], f32x4_mul(r0, vs));
            store(&mut out[(i + 1) * m + j..], f32x4_mul(r1, vs));
            j += 4;
        }
        for jj in j..columns.end {
            out[i * m + jj] = dot(qrow(i), krow(jj)) * scale;
            out[(i + 1) * m + jj] = dot(qrow(i + 1), krow(jj)) * scale;
        }
        i += 2;
    }
    if i < n {
        let mut j = columns.start;
        while j + 4 <= columns.end {
            let [r0] = block(
                [qrow(i)],
                [krow(j), krow(j + 1), krow(j + 2), krow(j + 3)],
                d,
            );
            store(&mut out[i * m + j..], f32x4_mul(r0, vs));
            j += 4;
        }
        for jj in j..columns.end {
            out[i * m + jj] = dot(qrow(i), krow(jj)) * scale;
        }
    }
}

/// `out[i·m + j] = scale · (q_i · k_j)`: from [`PACK_FROM`] queries on by
/// [`scores_packed`] (the keys packed once, then outer products), for fewer by
/// [`scores_dot`] (dot products, nothing packed: a model's weight matrix against a short
/// sentence costs less than packing it).
pub fn scores(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    if d == 0 {
        out.fill(0.0);
    } else if q.len() / d >= PACK_FROM {
        scores_packed(q, k, d, scale, out);
    } else {
        scores_dot(q, k, d, scale, out);
    }
}

/// [`super::scores_part`]: the queries of `q` through the kernel [`scores`] picks for `n`
/// queries (each output of either kernel depends on its query and key alone, not on the
/// queries beside it); the keys numbered `columns`, each score on its own in the order
/// its place in an `n × m` matrix gets.
pub fn scores_part(
    q: &[f32],
    k: &[f32],
    d: usize,
    scale: f32,
    out: &mut [f32],
    (n, m): (usize, usize),
    columns: Option<&[usize]>,
) {
    if d == 0 {
        out.fill(0.0);
        return;
    }
    let Some(columns) = columns else {
        if n >= PACK_FROM {
            scores_packed(q, k, d, scale, out);
        } else {
            scores_dot(q, k, d, scale, out);
        }
        return;
    };
    let width = columns.len();
    for (qi, row) in q.chunks_exact(d).zip(out.chunks_exact_mut(width.max(1))) {
        for ((o, kj), &j) in row.iter_mut().zip(k.chunks_exact(d)).zip(columns) {
            *o = score_at(qi, kj, d, scale, (n, m), j);
        }
    }
}

/// The orders [`scores`] adds a score's products in (see [`super::score_order`]).
const IN_PANEL: u8 = 0;
const PANEL_TAIL: u8 = 1;
const IN_BLOCK: u8 = 2;
const BLOCK_TAIL: u8 = 3;

/// [`super::score_order`]: a key of a full panel of [`scores_packed`] adds its products in
/// the order of the width; a key of a group of four in [`scores_dot`] goes through
/// [`block`]; a leftover key of either through [`dot`].
pub fn score_order(d: usize, (n, m): (usize, usize), j: usize) -> u8 {
    if d == 0 {
        return IN_PANEL;
    }
    if n >= PACK_FROM {
        return if j < (m / PANEL) * PANEL {
            IN_PANEL
        } else {
            PANEL_TAIL
        };
    }
    let keys = (KEY_BLOCK_FLOATS / d / LANES).max(1) * LANES;
    let start = j / keys * keys;
    let end = (start + keys).min(m);
    if j < start + (end - start) / 4 * 4 {
        IN_BLOCK
    } else {
        BLOCK_TAIL
    }
}

/// The score `scale · (q_i · k_j)` exactly as [`scores`] computes it for key `j` of an
/// `n × m` matrix ([`score_order`]); in a block, each lane is one key's sum, so four
/// copies of the key give it.
fn score_at(qi: &[f32], kj: &[f32], d: usize, scale: f32, (n, m): (usize, usize), j: usize) -> f32 {
    match score_order(d, (n, m), j) {
        IN_PANEL => {
            let mut acc = 0.0f32;
            for (x, y) in qi.iter().zip(kj) {
                acc += x * y;
            }
            acc * scale
        }
        IN_BLOCK => {
            let [r] = block([qi], [kj, kj, kj, kj], d);
            f32x4_extract_lane::<0>(f32x4_mul(r, f32x4_splat(scale)))
        }
        _ => dot(qi, kj) * scale,
    }
}

/// The fewest queries [`scores`] packs the keys for: packing reads and writes `m · d`
/// floats once, the product does `2 · n · m · d` flops. MiniLM's products (`d` = 384) run
/// at 92% of the roof by dot products at 16 tokens and 64% packed; at 128 tokens packing
/// is 5% faster, and attention's `Q Kᵀ` (`d` = 64) gains 25% from n = 128 on.
const PACK_FROM: usize = 64;

/// Whether every `scale · x_i` is finite: `0 · (scale · x_i)` is 0 for a finite product and
/// NaN for an infinite or NaN one, so the sum of those terms over a block of 256 is 0
/// exactly when the block is finite (a sum of zeros never overflows). One multiply and one
/// add per lane, no branch inside a block; the first block that is not finite ends it.
pub fn all_finite_scaled(x: &[f32], scale: f32) -> bool {
    let (vs, zero) = (f32x4_splat(scale), f32x4_splat(0.0));
    let mut blocks = x.chunks_exact(256);
    for block in &mut blocks {
        let mut acc = [zero; 4];
        for c in block.chunks_exact(16) {
            for (k, a) in acc.iter_mut().enumerate() {
                let v = load(&c[LANES * k..]);
                *a = f32x4_add(*a, f32x4_mul(zero, f32x4_mul(v, vs)));
            }
        }
        let t = f32x4_add(f32x4_add(acc[0], acc[1]), f32x4_add(acc[2], acc[3]));
        if hsum(t) != 0.0 {
            return false;
        }
    }
    blocks.remainder().iter().all(|v| (v * scale).is_finite())
}

/// Keys per panel of [`scores_packed`]: two vectors of four lanes.
const PANEL: usize = 8;

/// `Q Kᵀ` as outer products: the keys are packed eight at a time into panels of `d × 8`
/// floats (`panel[c·8 + t] = k_{j+t}[c]`), and each block of `R` queries × eight keys
/// keeps its `2R` sums in registers while `c` runs over the width: per `c`, two loads of
/// the panel, `R` splats of a query element, `2R` multiplies and adds, and no horizontal
/// sums. Each output adds its products in the order of `c`, as the scalar oracle does.
fn scores_packed(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    if d == 0 {
        out.fill(0.0);
        return;
    }
    let (n, m) = (q.len() / d, k.len() / d);
    let panels = m / PANEL;
    // Panels in blocks of about KEY_BLOCK_FLOATS, packed into one buffer, every query
    // against one block before the next (the block stays in cache).
    let per_block = (KEY_BLOCK_FLOATS / (PANEL * d)).max(1);
    let mut packed = vec![0.0f32; per_block.min(panels) * PANEL * d];
    let vs = f32x4_splat(scale);
    let mut first = 0;
    while first < panels {
        let last = (first + per_block).min(panels);
        for (p, dst) in (first..last).zip(packed.chunks_exact_mut(PANEL * d)) {
            for t in 0..PANEL {
                let row = &k[(p * PANEL + t) * d..(p * PANEL + t + 1) * d];
                for (c, &x) in row.iter().enumerate() {
                    dst[c * PANEL + t] = x;
                }
            }
        }
        let block = &packed[..(last - first) * PANEL * d];
        let mut i = 0;
        while i + 4 <= n {
            for (p, panel) in (first..last).zip(block.chunks_exact(PANEL * d)) {
                panel_block::<4>(q, i, d, panel, vs, out, m, p * PANEL);
            }
            i += 4;
        }
        while i < n {
            for (p, panel) in (first..last).zip(block.chunks_exact(PANEL * d)) {
                panel_block::<1>(q, i, d, panel, vs, out, m, p * PANEL);
            }
            i += 1;
        }
        first = last;
    }
    for i in 0..n {
        let qi = &q[i * d..(i + 1) * d];
        for j in panels * PANEL..m {
            out[i * m + j] = dot(qi, &k[j * d..(j + 1) * d]) * scale;
        }
    }
}

/// Queries `i .. i + R` against the eight keys of `panel` (`d × 8`), written scaled to
/// columns `j .. j + 8` of `out` (`m` wide).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn panel_block<const R: usize>(
    q: &[f32],
    i: usize,
    d: usize,
    panel: &[f32],
    vs: v128,
    out: &mut [f32],
    m: usize,
    j: usize,
) {
    let panel = &panel[..PANEL * d];
    let rows: [&[f32]; R] = core::array::from_fn(|r| &q[(i + r) * d..(i + r + 1) * d]);
    let mut acc = [[f32x4_splat(0.0); 2]; R];
    for (c, kc) in panel.chunks_exact(PANEL).enumerate() {
        let k0 = load(&kc[..4]);
        let k1 = load(&kc[4..]);
        for r in 0..R {
            let x = f32x4_splat(rows[r][c]);
            acc[r][0] = f32x4_add(acc[r][0], f32x4_mul(x, k0));
            acc[r][1] = f32x4_add(acc[r][1], f32x4_mul(x, k1));
        }
    }
    for r in 0..R {
        let o = &mut out[(i + r) * m + j..(i + r) * m + j + PANEL];
        store(&mut o[..4], f32x4_mul(acc[r][0], vs));
        store(&mut o[4..], f32x4_mul(acc[r][1], vs));
    }
}

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

/// `e^t` in four lanes, 0 below [`super::SOFTMAX_FLOOR`]: those lanes go through [`exp4`]
/// as `e^0` and are masked afterwards, so no subnormal number is ever computed.
#[inline(always)]
fn softmax_term4(t: v128) -> v128 {
    let keep = f32x4_ge(t, f32x4_splat(super::SOFTMAX_FLOOR));
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

/// `out_j = e^(scale·x_j − m)` (0 below [`super::SOFTMAX_FLOOR`]) and their sum: four
/// lanes at a time, the lanes' sums added last, then the tail.
#[inline(always)]
fn softmax_terms(x: &[f32], scale: f32, m: f32, out: &mut [f32]) -> f32 {
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
/// largest `x`; see [`super::softmax_row_entropy`]) in three passes instead of six: the
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

/// `y += w0·x0 + w1·x1 + w2·x2 + w3·x3`, added in that order lane by lane, so the result
/// is bit-identical to four [`axpy`] calls, with one load and store of `y` instead of four.
#[inline(always)]
fn axpy4(w: [f32; 4], x: [&[f32]; 4], y: &mut [f32]) {
    let n = y.len();
    let vw = [
        f32x4_splat(w[0]),
        f32x4_splat(w[1]),
        f32x4_splat(w[2]),
        f32x4_splat(w[3]),
    ];
    let mut i = 0;
    while i + LANES <= n {
        let mut acc = load(&y[i..]);
        for r in 0..4 {
            acc = f32x4_add(acc, f32x4_mul(vw[r], load(&x[r][i..])));
        }
        store(&mut y[i..], acc);
        i += LANES;
    }
    for j in i..n {
        let mut acc = y[j];
        for r in 0..4 {
            acc += w[r] * x[r][j];
        }
        y[j] = acc;
    }
}

/// `out += Σ_j w_j · rows_j` over the non-zero weights in order of `j`. `out` is taken
/// in blocks of 32, 16 and 4 columns whose sums stay in registers while every row is
/// added (one pass over the weights per block, `out` read and written once), then the
/// last columns one at a time; every element adds its terms in the oracle's order, so
/// the result is bit-identical to one [`axpy`] per row.
pub fn weighted_rows(w: &[f32], rows: &[f32], out: &mut [f32]) {
    let d = out.len();
    if d == 0 {
        return;
    }
    let w = &w[..w.len().min(rows.len() / d)];
    let mut start = 0;
    while start + 32 <= d {
        weighted_block::<8>(w, rows, start, out);
        start += 32;
    }
    while start + 16 <= d {
        weighted_block::<4>(w, rows, start, out);
        start += 16;
    }
    while start + LANES <= d {
        weighted_block::<1>(w, rows, start, out);
        start += LANES;
    }
    for c in start..d {
        for (j, &wj) in w.iter().enumerate() {
            if wj != 0.0 {
                out[c] += wj * rows[j * d + c];
            }
        }
    }
}

/// `out += A V` (`A`: `n × m`, `V`: `m × d`, row-major) four rows of `out` at a time:
/// each block of four rows × eight columns keeps its eight sums in registers while `j`
/// runs over the keys that any of the four rows weighs (from the first non-zero weight to
/// the last), so every load of `V` serves four rows. A zero weight inside that span adds
/// `0 · v = ±0`, which leaves every sum unchanged: each element is bit-identical to one
/// [`weighted_rows`] per row. Leftover rows go through [`weighted_rows`], leftover
/// columns (`d` not a multiple of 8) four or one at a time.
pub fn weights_times_values(a: &[f32], v: &[f32], d: usize, out: &mut [f32]) {
    let n = out.len() / d;
    let m = a.len() / n;
    let mut i = 0;
    while i + 4 <= n {
        let rows: [&[f32]; 4] = core::array::from_fn(|r| &a[(i + r) * m..(i + r + 1) * m]);
        let first = rows
            .iter()
            .filter_map(|w| w.iter().position(|&x| x != 0.0))
            .min();
        let Some(first) = first else {
            i += 4;
            continue;
        };
        let last = rows
            .iter()
            .filter_map(|w| w.iter().rposition(|&x| x != 0.0))
            .max()
            .unwrap_or(first)
            + 1;
        let span: [&[f32]; 4] = core::array::from_fn(|r| &rows[r][first..last]);
        let o = &mut out[i * d..(i + 4) * d];
        let mut c = 0;
        while c + 8 <= d {
            four_rows_block::<2>(span, &v[first * d..last * d], d, c, o);
            c += 8;
        }
        while c + LANES <= d {
            four_rows_block::<1>(span, &v[first * d..last * d], d, c, o);
            c += LANES;
        }
        for cc in c..d {
            for (r, w) in span.iter().enumerate() {
                let mut acc = o[r * d + cc];
                for (j, &wj) in w.iter().enumerate() {
                    if wj != 0.0 {
                        acc += wj * v[(first + j) * d + cc];
                    }
                }
                o[r * d + cc] = acc;
            }
        }
        i += 4;
    }
    for (a_i, o) in a[i * m..]
        .chunks_exact(m.max(1))
        .zip(out[i * d..].chunks_exact_mut(d))
    {
        weighted_rows(a_i, v, o);
    }
}

/// Columns `c .. c + 4V` of four rows of `out` (`4 × d`) in `4V` registers, adding
/// `w[r][j] · rows_j` over `j` (`rows`: `w[r].len() × d`).
#[inline(always)]
fn four_rows_block<const V: usize>(
    w: [&[f32]; 4],
    rows: &[f32],
    d: usize,
    c: usize,
    out: &mut [f32],
) {
    let len = w[0].len();
    let mut acc = [[f32x4_splat(0.0); V]; 4];
    for (r, a) in acc.iter_mut().enumerate() {
        for (k, x) in a.iter_mut().enumerate() {
            *x = load(&out[r * d + c + LANES * k..]);
        }
    }
    for (j, row) in rows.chunks_exact(d).take(len).enumerate() {
        let x: [v128; V] = core::array::from_fn(|k| load(&row[c + LANES * k..]));
        for r in 0..4 {
            let s = f32x4_splat(w[r][j]);
            for k in 0..V {
                acc[r][k] = f32x4_add(acc[r][k], f32x4_mul(s, x[k]));
            }
        }
    }
    for (r, a) in acc.iter().enumerate() {
        for (k, x) in a.iter().enumerate() {
            store(&mut out[r * d + c + LANES * k..], *x);
        }
    }
}

/// Rows of `x` and `v` that [`transposed_product`] takes at a time: 2 × 64 rows of 64
/// floats are 32 KB, in the first-level cache while every block of the product passes
/// over them (10% faster than 512 rows at n = 65,536, d = 64).
const ROW_CHUNK: usize = 64;

/// `out += xᵀ v` for `x` (`n × p`) and `v` (`n × q`), row-major; `out` is `p × q`. The
/// rows come in chunks of [`ROW_CHUNK`]; within a chunk each block of four rows × eight
/// columns of `out` keeps its sums in registers while `j` runs over the chunk (two loads
/// of `v_j`, four splats of `x_j`), as [`weights_times_values`] does with `xᵀ` for the
/// weights. Leftover rows and columns of `out` one at a time.
pub fn transposed_product(x: &[f32], v: &[f32], p: usize, q: usize, out: &mut [f32]) {
    if p == 0 || q == 0 {
        return;
    }
    let n = (x.len() / p).min(v.len() / q);
    let mut start = 0;
    while start < n {
        let end = (start + ROW_CHUNK).min(n);
        let (xc, vc) = (&x[start * p..end * p], &v[start * q..end * q]);
        let mut a = 0;
        while a + 4 <= p {
            let mut b = 0;
            while b + 8 <= q {
                transposed_block(xc, vc, p, q, a, b, out);
                b += 8;
            }
            for bb in b..q {
                for r in a..a + 4 {
                    let mut acc = out[r * q + bb];
                    for j in 0..end - start {
                        acc += xc[j * p + r] * vc[j * q + bb];
                    }
                    out[r * q + bb] = acc;
                }
            }
            a += 4;
        }
        for r in a..p {
            for bb in 0..q {
                let mut acc = out[r * q + bb];
                for j in 0..end - start {
                    acc += xc[j * p + r] * vc[j * q + bb];
                }
                out[r * q + bb] = acc;
            }
        }
        start = end;
    }
}

/// Rows `a .. a + 4`, columns `b .. b + 8` of [`transposed_product`] over one chunk.
#[inline(always)]
fn transposed_block(x: &[f32], v: &[f32], p: usize, q: usize, a: usize, b: usize, out: &mut [f32]) {
    let mut acc = [[f32x4_splat(0.0); 2]; 4];
    for (r, row) in acc.iter_mut().enumerate() {
        row[0] = load(&out[(a + r) * q + b..]);
        row[1] = load(&out[(a + r) * q + b + 4..]);
    }
    for (xj, vj) in x.chunks_exact(p).zip(v.chunks_exact(q)) {
        let (v0, v1) = (load(&vj[b..b + 4]), load(&vj[b + 4..b + 8]));
        let xs = &xj[a..a + 4];
        for r in 0..4 {
            let s = f32x4_splat(xs[r]);
            acc[r][0] = f32x4_add(acc[r][0], f32x4_mul(s, v0));
            acc[r][1] = f32x4_add(acc[r][1], f32x4_mul(s, v1));
        }
    }
    for (r, row) in acc.iter().enumerate() {
        store(&mut out[(a + r) * q + b..], row[0]);
        store(&mut out[(a + r) * q + b + 4..], row[1]);
    }
}

/// Columns `start .. start + 4V` of [`weighted_rows`], in `V` registers.
#[inline(always)]
fn weighted_block<const V: usize>(w: &[f32], rows: &[f32], start: usize, out: &mut [f32]) {
    let d = out.len();
    let mut acc = [f32x4_splat(0.0); V];
    for (k, a) in acc.iter_mut().enumerate() {
        *a = load(&out[start + LANES * k..]);
    }
    for (j, &wj) in w.iter().enumerate() {
        if wj != 0.0 {
            let va = f32x4_splat(wj);
            let r = &rows[j * d + start..j * d + start + LANES * V];
            for (k, a) in acc.iter_mut().enumerate() {
                *a = f32x4_add(*a, f32x4_mul(va, load(&r[LANES * k..])));
            }
        }
    }
    for (k, a) in acc.iter().enumerate() {
        store(&mut out[start + LANES * k..], *a);
    }
}

/// `S += Σ_p φ_p v_pᵀ` over the pairs in order, four pairs per pass over `S`
/// (bit-identical to one rank-1 update per pair).
pub fn outer_accumulate(pairs: &[(&[f32], &[f32])], s: &mut [f32]) {
    let mut chunks = pairs.chunks_exact(4);
    for c in &mut chunks {
        let d_v = c[0].1.len();
        if d_v == 0 {
            return;
        }
        for (a, s_row) in s.chunks_exact_mut(d_v).enumerate() {
            axpy4(
                [c[0].0[a], c[1].0[a], c[2].0[a], c[3].0[a]],
                [c[0].1, c[1].1, c[2].1, c[3].1],
                s_row,
            );
        }
    }
    scalar_outer(chunks.remainder(), s);
}

fn scalar_outer(pairs: &[(&[f32], &[f32])], s: &mut [f32]) {
    for &(phi, v) in pairs {
        if v.is_empty() {
            return;
        }
        for (&f, s_row) in phi.iter().zip(s.chunks_exact_mut(v.len())) {
            axpy(f, v, s_row);
        }
    }
}

/// `out_i = elu(x_i) + 1`: `x + 1` where `x > 0`, else [`exp4`].
pub fn elu1(x: &[f32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    let one = f32x4_splat(1.0);
    let zero = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        let v = load(&x[i..]);
        // exp of the clamped value, so positive lanes never overflow before the select.
        let e = exp4(f32x4_pmin(v, zero));
        store(
            &mut out[i..],
            v128_bitselect(f32x4_add(v, one), e, f32x4_gt(v, zero)),
        );
        i += LANES;
    }
    for j in i..n {
        let v = x[j];
        out[j] = if v > 0.0 { v + 1.0 } else { exp1(v) };
    }
}

/// `out_i = max(x_i, 0)`.
pub fn relu(x: &[f32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    let zero = f32x4_splat(0.0);
    let mut i = 0;
    while i + LANES <= n {
        store(&mut out[i..], f32x4_pmax(zero, load(&x[i..])));
        i += LANES;
    }
    for j in i..n {
        out[j] = x[j].max(0.0);
    }
}
