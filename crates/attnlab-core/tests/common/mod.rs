//! Helpers shared by the core's integration tests.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Proptest settings for every platform: no failure files (the wasm runs have no file
/// system) and a fixed seed (wasm ignores `PROPTEST_*` variables), so native, wasm32 and
/// CI runs check the same cases.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x5EED_A77E),
        ..ProptestConfig::default()
    }
}

/// Lengths that straddle the 4-lane SIMD width, and some longer ones.
#[allow(dead_code)] // not every test file uses it
pub fn lane_length() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(0usize),
        Just(1),
        Just(3),
        Just(4),
        Just(5),
        Just(15),
        Just(16),
        Just(17),
        0usize..70
    ]
}

/// Fails with a labelled message unless `|actual − expected| ≤ tol`.
#[allow(dead_code)] // not every test file uses it
pub fn assert_close(actual: f32, expected: f32, tol: f32, label: &str) {
    assert!(
        (actual - expected).abs() <= tol,
        "{label}: expected {expected}, got {actual} (|Δ| = {:e}, tol {tol:e})",
        (actual - expected).abs()
    );
}
