use ndarray::array;

use super::*;

#[test]
fn features_by_hand() {
    // d_k = 4, so x′ = x / √2; x = (√2, 0, 0, 0) gives x′ = (1, 0, 0, 0), ‖x′‖²/2 = 1/2.
    // W = [(1, 0, 0, 0), (0, 0, 0, 0)], r = 2: φ = (e^{1 − 1/2}, e^{−1/2}) / √2.
    let s = 2f32.sqrt();
    let phi = features(
        &array![[s, 0.0, 0.0, 0.0]],
        &array![[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    );
    let e = 0.5f64.exp() / 2f64.sqrt();
    let f = (-0.5f64).exp() / 2f64.sqrt();
    assert!((f64::from(phi[[0, 0]]) - e).abs() < 1e-6);
    assert!((f64::from(phi[[0, 1]]) - f).abs() < 1e-6);
}

#[test]
fn features_are_positive() {
    let x = array![[3.0f32, -2.0], [0.0, 0.0], [-5.0, 1.0]];
    let w = array![[1.0f32, 1.0], [-1.0, 2.0], [0.5, -0.5]];
    assert!(features(&x, &w).iter().all(|&p| p > 0.0));
}
