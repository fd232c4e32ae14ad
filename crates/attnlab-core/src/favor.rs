//! Performer's FAVOR+ with positive random features (docs/maths.md §7d; Choromanski et
//! al. 2021): `φ(x) = exp(W x′ − ‖x′‖²/2) / √r` with `x′ = x / d_k^{1/4}` and the head's
//! features `W` (`r × d_k`), so that `E[φ(q)·φ(k)] = exp(qᵀk/√d_k)` when the rows of `W`
//! are standard normal. The implied weights `φ(q_i)·φ(k_j) / (Σ_j φ(q_i)·φ(k_j) + 10⁻⁶)`
//! and the outputs are then those of kernel linear attention ([`crate::linear`]) with `φ`
//! as its feature map: global without a mask, prefix sums when causal, the masked
//! quadratic form otherwise.
//!
//! ```
//! use attnlab_core::favor::features;
//! use ndarray::array;
//!
//! // One feature w = 0 and x = 0: φ = exp(0 − 0) / √1 = 1.
//! let phi = features(&array![[0.0f32, 0.0]], &array![[0.0f32, 0.0]]);
//! assert_eq!(phi, array![[1.0]]);
//! ```

use ndarray::Array2;

/// `φ(x_i)` for every row `x_i` of `x` (`n × d_k`), with the features `w` (`r × d_k`):
/// `n × r`, computed in f64 (a value beyond f32 comes out as infinity; the caller checks).
pub fn features(x: &Array2<f32>, w: &Array2<f32>) -> Array2<f32> {
    let (n, d_k) = x.dim();
    let r = w.nrows();
    let shrink = (d_k as f64).powf(-0.25);
    let norm = 1.0 / (r as f64).sqrt();
    let mut out = Array2::zeros((n, r));
    for (xi, mut oi) in x.rows().into_iter().zip(out.rows_mut()) {
        let xp: Vec<f64> = xi.iter().map(|&v| f64::from(v) * shrink).collect();
        let half_sq = xp.iter().map(|v| v * v).sum::<f64>() / 2.0;
        for (o, wr) in oi.iter_mut().zip(w.rows()) {
            let dot: f64 = wr.iter().zip(&xp).map(|(&a, b)| f64::from(a) * b).sum();
            *o = ((dot - half_sq).exp() * norm) as f32;
        }
    }
    out
}

#[cfg(test)]
mod tests;
