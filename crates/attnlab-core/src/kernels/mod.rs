//! Inner loops, each with a scalar oracle that is always compiled and a WebAssembly SIMD128
//! version beside it, chosen at compile time (wasm has no run-time feature detection).
//!
//! Both paths have the same safe signatures; the SIMD path handles tails with a scalar
//! leftovers loop. Property tests (`tests/kernels.rs`) check that they agree on lengths
//! that straddle the 4-lane width, under wasm32 with and without SIMD128.
//!
//! The kernels: [`dot`], [`axpy`], [`max`]; [`scores`] (blocked `Q Kᵀ`); the fused
//! scale + mask + stable softmax row pass ([`softmax_row`], [`softmax_row_masked`]) with
//! a vectorised [`exp`]; [`exp_shifted_sum`] (the online softmax's block); `A V`
//! ([`weighted_rows`], [`weights_times_values`], skipping zero weights); the feature maps
//! [`elu1`], [`relu`]; a row's [`entropy`] (vectorised `ln`); the linear-attention state
//! update [`outer_accumulate`]
//! (`S += φ(k) vᵀ`, four keys per pass) and read ([`weighted_rows`]).
//!
//! Where ndarray's matrix product (matrixmultiply: AVX/FMA natively, a simd128 kernel in
//! wasm) is as fast or faster, it is used instead: `φ(K)ᵀ V` and `φ(Q) S` everywhere,
//! dense `A V` and `Q Kᵀ` outside SIMD128 builds. `benches/timing.rs` measures both.

pub mod scalar;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128 as active;

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
use scalar as active;

/// Softmax terms `e^(l − max)` with `l − max` below this are exactly 0 (on both paths).
/// `e^−80` ≈ 1.8·10⁻³⁵ relative to the row's largest term: no figure or sum can show it,
/// and the terms below it would be subnormal numbers (below 1.2·10⁻³⁸) on the way to 0,
/// which x86 processors compute through a microcode assist a hundred times slower — a
/// sharp softmax (small τ) at 512 tokens made `A V` twelve times slower with them.
pub const SOFTMAX_FLOOR: f32 = -80.0;

/// The name of the kernel path this build uses: `"simd128"` or `"scalar"`.
pub const ACTIVE: &str = if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
    "simd128"
} else {
    "scalar"
};

/// `Σ a_i b_i` over the common length. Panics in debug builds if the lengths differ.
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    debug_assert_eq!(a.len(), b.len());
    active::dot(a, b)
}

/// `y_i += alpha · x_i`. Panics in debug builds if the lengths differ.
#[inline]
pub fn axpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    debug_assert_eq!(x.len(), y.len());
    active::axpy(alpha, x, y)
}

/// The largest element, or `-∞` for an empty slice.
#[inline]
pub fn max(x: &[f32]) -> f32 {
    active::max(x)
}

/// `out_i = e^{x_i}`. The SIMD path uses a polynomial with range reduction, within 2 ulp
/// of the true value over `[-88, 88]`, exactly 0 for `-∞` and 1 for 0.
#[inline]
pub fn exp(x: &[f32], out: &mut [f32]) {
    debug_assert_eq!(x.len(), out.len());
    active::exp(x, out)
}

/// The raw scores `out[i·m + j] = scale · (q_i · k_j)` of the rows of `q` (`n × d`) against
/// the rows of `k` (`m × d`), both row-major; `out` is `n × m` row-major.
///
/// With SIMD128 this is the packed kernel (the keys packed eight at a time into `d × 8`
/// panels, 64 KB of them at a time, which every query passes over while they are in
/// cache; four queries × eight keys as outer products, their sums in registers, the scale
/// fused), or for fewer than 64 queries the dot-product kernel (two queries × four
/// keys, nothing packed); both are faster than ndarray's `dot` (matrixmultiply's simd128
/// kernel) and skip a pass. Elsewhere ndarray's `dot` is much faster than the scalar oracle
/// (matrixmultiply's AVX/FMA kernels natively, its blocked fallback in a wasm build
/// without SIMD128), so it is used; [`scalar::scores`] stays the oracle the tests use.
#[inline]
pub fn scores(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    debug_assert!(d == 0 || (q.len().is_multiple_of(d) && k.len().is_multiple_of(d)));
    debug_assert!(d == 0 || out.len() == (q.len() / d) * (k.len() / d));
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    simd128::scores(q, k, d, scale, out);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    product::scores(q, k, d, scale, out);
}

/// `out += A · V` for `A` (`n × m`) and `V` (`m × d_v`), row-major; `out` is `n × d_v`.
///
/// The SIMD128 path takes four rows at a time, four rows × eight columns of sums in
/// registers, so that every load of `V` serves four rows, over the keys from the first
/// weight any of the four rows gives to the last (the zeros of a causal mask's far corner
/// are skipped; those inside the span add `±0`, so each element is bit-identical to one
/// [`weighted_rows`] per row); leftover rows go through [`weighted_rows`]. The scalar path sends dense weights through
/// ndarray's `dot` (matrixmultiply: packed and cache-blocked, faster than one `axpy` per
/// weight once most are non-zero) and weights with many exact zeros through
/// [`weighted_rows`].
pub fn weights_times_values(a: &[f32], v: &[f32], d_v: usize, out: &mut [f32]) {
    // No queries (or no value columns): nothing to write, and `m` cannot be read off `a`.
    if out.is_empty() {
        return;
    }
    let m = a.len() / (out.len() / d_v);
    weights_times_values_cols(a, m, 0..m, v, d_v, out);
}

/// [`weights_times_values`] of columns `cols` of `A` (`n × stride`, row-major) against
/// `V` (`cols.len() × d_v`): `out += A[:, cols] · V`, without copying the columns out (a
/// tile of keys of the online softmax).
pub fn weights_times_values_cols(
    a: &[f32],
    stride: usize,
    cols: std::ops::Range<usize>,
    v: &[f32],
    d_v: usize,
    out: &mut [f32],
) {
    if out.is_empty() {
        return;
    }
    let n = out.len() / d_v;
    let width = cols.len();
    debug_assert!(cols.end <= stride && n * stride <= a.len() && width * d_v == v.len());
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    simd128::weights_times_values(a, stride, cols, v, d_v, out);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let rows = || (0..n).map(|i| &a[i * stride + cols.start..i * stride + cols.end]);
        let zeros: usize = rows()
            .map(|r| r.iter().filter(|w| **w == 0.0).count())
            .sum();
        if zeros * 4 <= n * width {
            product::matmul_acc(&a[cols.start..], stride, (n, width, d_v), v, out);
        } else {
            for (a_i, o) in rows().zip(out.chunks_exact_mut(d_v.max(1))) {
                weighted_rows(a_i, v, o);
            }
        }
    }
}

/// Whether every `scale · x_i` is finite (scale 1: every `x_i`), without forming the
/// products: the validity check of a score or logit matrix.
#[inline]
pub fn all_finite_scaled(x: &[f32], scale: f32) -> bool {
    active::all_finite_scaled(x, scale)
}

/// `out += xᵀ v` for `x` (`n × p`) and `v` (`n × q`), row-major; `out` is `p × q`
/// row-major (linear attention's state `S = φ(K)ᵀ V`).
///
/// With SIMD128 the rows go in chunks that stay in cache, four rows × eight columns of
/// `out` in registers per pass over a chunk; elsewhere through ndarray's `dot`.
pub fn transposed_product(x: &[f32], v: &[f32], p: usize, q: usize, out: &mut [f32]) {
    debug_assert_eq!(out.len(), p * q);
    if p == 0 || q == 0 {
        return;
    }
    debug_assert_eq!(x.len() / p, v.len() / q);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    simd128::transposed_product(x, v, p, q, out);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    product::transposed_product(x, v, p, q, out);
}

/// Some of [`scores`]' entries for `n` queries and `m` keys, computed apart from the
/// rest and bit for bit as [`scores`] computes them there: `q` holds some of the `n`
/// queries; `k` holds all `m` keys (`columns` is `None`), or the keys numbered `columns`.
/// `out` is `q`'s rows × `k`'s rows. The SIMD128 kernels add a score's products in an
/// order that depends on the matrix's shape and the key's place in it (packed panels,
/// blocks, tails), which is why the place is given; matrixmultiply's order does not.
pub fn scores_part(
    q: &[f32],
    k: &[f32],
    d: usize,
    scale: f32,
    out: &mut [f32],
    (n, m): (usize, usize),
    columns: Option<&[usize]>,
) {
    debug_assert!(d == 0 || (q.len().is_multiple_of(d) && k.len().is_multiple_of(d)));
    debug_assert!(d == 0 || out.len() == (q.len() / d) * (k.len() / d));
    debug_assert!(columns.is_none_or(|c| d == 0 || c.len() == k.len() / d));
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    simd128::scores_part(q, k, d, scale, out, (n, m), columns);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let _ = (n, m, columns);
        product::scores(q, k, d, scale, out);
    }
}

/// How [`scores`] adds up the score of key `j` in an `n × m` matrix of width `d`: the
/// score of one query and key is the same, bit for bit, in two matrices where this is the
/// same (with SIMD128 it depends on the kernel and the key's place among packed panels,
/// blocks and tails; matrixmultiply's order depends on neither).
pub fn score_order(d: usize, (n, m): (usize, usize), j: usize) -> u8 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return simd128::score_order(d, (n, m), j);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let _ = (d, n, m, j);
        0
    }
}

/// Matrix products through ndarray's `dot` (matrixmultiply).
mod product {
    use ndarray::linalg::general_mat_mul;
    use ndarray::{ArrayView2, ArrayViewMut2};

    /// `out = scale · Q Kᵀ`.
    #[allow(dead_code)] // The SIMD128 build uses its own blocked kernel.
    pub fn scores(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
        if d == 0 {
            out.fill(0.0);
            return;
        }
        let (n, m) = (q.len() / d, k.len() / d);
        let q = ArrayView2::from_shape((n, d), q).expect("n × d");
        let k = ArrayView2::from_shape((m, d), k).expect("m × d");
        let mut c = ArrayViewMut2::from_shape((n, m), out).expect("n × m");
        general_mat_mul(scale, &q, &k.t(), 0.0, &mut c);
    }

    /// `out += xᵀ v` for `x` (`n × p`), `v` (`n × q`).
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    pub fn transposed_product(x: &[f32], v: &[f32], p: usize, q: usize, out: &mut [f32]) {
        let n = x.len() / p;
        let x = ArrayView2::from_shape((n, p), x).expect("n × p");
        let v = ArrayView2::from_shape((n, q), v).expect("n × q");
        let mut c = ArrayViewMut2::from_shape((p, q), out).expect("p × q");
        general_mat_mul(1.0, &x.t(), &v, 1.0, &mut c);
    }

    /// `out += A B` for `A` (`n × m`, rows `stride` apart), `B` (`m × p`).
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    pub fn matmul_acc(
        a: &[f32],
        stride: usize,
        (n, m, p): (usize, usize, usize),
        b: &[f32],
        out: &mut [f32],
    ) {
        use ndarray::ShapeBuilder;
        let a = ArrayView2::from_shape((n, m).strides((stride, 1)), a).expect("n × m");
        let b = ArrayView2::from_shape((m, p), b).expect("m × p");
        let mut c = ArrayViewMut2::from_shape((n, p), out).expect("n × p");
        general_mat_mul(1.0, &a, &b, 1.0, &mut c);
    }
}

/// The softmax of `scale · x` over a non-empty row with every entry allowed, written to
/// `out` (same length): `exp(scale·x_j − max) / Σ`. `scale` must be positive and finite,
/// `x` finite.
#[inline]
pub fn softmax_row(x: &[f32], scale: f32, out: &mut [f32]) {
    debug_assert!(!x.is_empty() && x.len() == out.len());
    active::softmax_row(x, scale, out)
}

/// [`softmax_row`] of a row with every entry allowed, returning the row's entropy
/// `H = −Σ_j a_j ln a_j` (nats) from the softmax's own sums: `ln Z + scale · Σ_j a_j (M −
/// x_j)` for the largest `x`, `M` (see [`crate::softmax::softmax_masked_entropy`]); at
/// least 0. `x` finite and not empty, `scale` positive and finite.
#[inline]
pub fn softmax_row_entropy(x: &[f32], scale: f32, out: &mut [f32]) -> f32 {
    debug_assert!(!x.is_empty() && x.len() == out.len());
    active::softmax_row_entropy(x, scale, out)
}

/// The softmax of `scale · x` over the entries where `allowed` is true; blocked entries
/// are exactly 0. Returns false, with `out` all zeros, when no entry is allowed.
#[inline]
pub fn softmax_row_masked(x: &[f32], scale: f32, allowed: &[bool], out: &mut [f32]) -> bool {
    debug_assert!(x.len() == out.len() && x.len() == allowed.len());
    active::softmax_row_masked(x, scale, allowed, out)
}

/// `out_i = e^{x_i − shift}`; returns `Σ out_i`.
#[inline]
pub fn exp_shifted_sum(x: &[f32], shift: f32, out: &mut [f32]) -> f32 {
    debug_assert_eq!(x.len(), out.len());
    active::exp_shifted_sum(x, shift, out)
}

/// `out_j = e^(scale·x_j − shift)`, exactly 0 below [`SOFTMAX_FLOOR`], and their sum: the
/// terms of a softmax row against the maximum `shift` (the online softmax's tiles).
#[inline]
pub fn softmax_terms(x: &[f32], scale: f32, shift: f32, out: &mut [f32]) -> f32 {
    debug_assert_eq!(x.len(), out.len());
    active::softmax_terms(x, scale, shift, out)
}

/// The last pass of the online softmax over one tile of a row: each term `w_j` (formed
/// against an earlier maximum) times `factor`, kept where `scale·x_j − top ≥`
/// [`SOFTMAX_FLOOR`] and the product is normal, else exactly 0; returns
/// `Σ_j w_j · scale·x_j` of the kept weights (the entropy's weighted logits).
#[inline]
pub fn rescale_terms(w: &mut [f32], x: &[f32], scale: f32, factor: f32, top: f32) -> f32 {
    debug_assert_eq!(x.len(), w.len());
    active::rescale_terms(w, x, scale, factor, top)
}

/// `out += Σ_j w_j · rows_j` over the rows of `rows` (each `out.len()` wide, row-major)
/// whose weight is not zero, in order of `j` (a row of `A V`, or `φ(q)ᵀ S`).
#[inline]
pub fn weighted_rows(w: &[f32], rows: &[f32], out: &mut [f32]) {
    debug_assert_eq!(w.len() * out.len(), rows.len());
    active::weighted_rows(w, rows, out)
}

/// `S += Σ_p φ_p v_pᵀ` over the pairs `(φ_p, v_p)` in order (`S` is `d_φ × d_v`
/// row-major): the linear-attention state update, four keys per pass on the SIMD path.
#[inline]
pub fn outer_accumulate(pairs: &[(&[f32], &[f32])], s: &mut [f32]) {
    debug_assert!(pairs.iter().all(|(phi, v)| phi.len() * v.len() == s.len()));
    active::outer_accumulate(pairs, s)
}

/// The entropy `−Σ a_i ln a_i` (nats) of a row of weights, over its positive entries
/// (zeros are blocked keys or underflowed weights and contribute nothing); never below 0.
/// The SIMD path takes the logarithm by a polynomial within a few ulp (Cephes' `logf`).
#[inline]
pub fn entropy(a: &[f32]) -> f32 {
    active::entropy(a)
}

/// `Σ_j p_j (m − x_j)`: with `p` a softmax row of the logits `x` and `m` their largest
/// allowed value, the part of the row's entropy that needs no logarithm (see
/// [`crate::softmax::softmax_masked_entropy`]).
#[inline]
pub fn weighted_gap(p: &[f32], x: &[f32], m: f32) -> f32 {
    debug_assert_eq!(p.len(), x.len());
    active::weighted_gap(p, x, m)
}

/// The Kullback–Leibler divergence `KL(p ‖ q)` (with `q` floored at `floor`) and the
/// Jensen–Shannon divergence of two rows of weights, in nats, over their positive
/// entries; neither below 0. The SIMD path takes the logarithms of the ratios by the
/// polynomial of [`entropy`].
#[inline]
pub fn divergences(p: &[f32], q: &[f32], floor: f32) -> (f64, f64) {
    debug_assert_eq!(p.len(), q.len());
    active::divergences(p, q, floor)
}

/// The feature map `elu(x) + 1` elementwise (`x + 1` for `x > 0`, else `e^x`).
#[inline]
pub fn elu1(x: &[f32], out: &mut [f32]) {
    debug_assert_eq!(x.len(), out.len());
    active::elu1(x, out)
}

/// The feature map `max(x, 0)` elementwise.
#[inline]
pub fn relu(x: &[f32], out: &mut [f32]) {
    debug_assert_eq!(x.len(), out.len());
    active::relu(x, out)
}
