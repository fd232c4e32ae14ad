//! WebAssembly SIMD128 kernels (4 × f32 lanes), with scalar tails.

use core::arch::wasm32::{
    f32x4_add, f32x4_extract_lane, f32x4_max, f32x4_mul, f32x4_splat, v128, v128_load, v128_store,
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

/// The largest element, or `-∞` for an empty slice.
pub fn max(x: &[f32]) -> f32 {
    let n = x.len();
    let mut i = 0;
    let mut m = f32::NEG_INFINITY;
    if n >= LANES {
        let mut acc = load(x);
        i = LANES;
        while i + LANES <= n {
            acc = f32x4_max(acc, load(&x[i..]));
            i += LANES;
        }
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
