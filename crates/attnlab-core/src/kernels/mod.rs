//! Inner loops, each with a scalar oracle that is always compiled and a WebAssembly SIMD128
//! version beside it, chosen at compile time (wasm has no run-time feature detection).
//!
//! Both paths have the same safe signatures; the SIMD path handles tails with a scalar
//! leftovers loop. Property tests check that they agree on lengths that straddle the
//! 4-lane width.

pub mod scalar;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128 as active;

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
use scalar as active;

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
