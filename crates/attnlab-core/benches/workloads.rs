//! The workloads the core's benchmarks time (shared by `attention.rs`, criterion, and
//! `timing.rs`, a dependency-free harness that also runs under wasm32).
//!
//! Softmax attention is timed as the app and the CLI compute it (scores, logits, masked
//! softmax, weights·V) and as the streaming kernel; linear elu1 attention as its O(n)
//! paths only (features, then the global or recurrent state), since `compute_head` also
//! builds the n×m implied matrix for drawing.

#![allow(dead_code)]

use attnlab_core::linear::{self, FeatureMap};
use attnlab_core::mask::Mask;
use attnlab_core::rng;
use attnlab_core::score::{self, ScoreFunction, ScoreParams};
use attnlab_core::softmax;
use attnlab_core::streaming::{self, Causality};
use ndarray::Array2;

/// Query, key and value matrices of one head, `n × d` each, from a fixed seed.
pub struct Head {
    pub q: Array2<f32>,
    pub k: Array2<f32>,
    pub v: Array2<f32>,
}

pub fn head(n: usize, d: usize) -> Head {
    let mut r = rng::stream(7, "bench", n as u64);
    Head {
        q: rng::normal_matrix(&mut r, n, d, 1.0),
        k: rng::normal_matrix(&mut r, n, d, 1.0),
        v: rng::normal_matrix(&mut r, n, d, 1.0),
    }
}

/// `softmax(QKᵀ/√d) V` the way `compute_head` does it (scores, logits, softmax, A·V).
pub fn softmax_quadratic(h: &Head, mask: &Mask) -> Array2<f32> {
    let raw = score::scores(ScoreFunction::ScaledDot, &h.q, &h.k, &ScoreParams::None);
    let logits = raw.mapv(|s| s / 1.0);
    let a = softmax::softmax_masked(&logits, mask);
    linear::weights_times_values(&a, &h.v)
}

/// The same through the streaming (online softmax) kernel.
pub fn softmax_streaming(h: &Head) -> Array2<f32> {
    let scale = 1.0 / (h.q.ncols() as f32).sqrt();
    streaming::softmax_attention(&h.q, &h.k, &h.v, scale, Causality::Full)
}

/// Non-causal elu1 linear attention in O(n): φ(Q), φ(K), one global state.
pub fn linear_elu1_global(h: &Head, keep: &[bool]) -> Array2<f32> {
    let phi_q = FeatureMap::Elu1.features(&h.q);
    let phi_k = FeatureMap::Elu1.features(&h.k);
    linear::kernel_global(&phi_q, &phi_k, &h.v, keep)
}

/// Causal elu1 linear attention as an RNN.
pub fn linear_elu1_recurrent(h: &Head, keep: &[bool]) -> Array2<f32> {
    let phi_q = FeatureMap::Elu1.features(&h.q);
    let phi_k = FeatureMap::Elu1.features(&h.k);
    linear::kernel_recurrent(&phi_q, &phi_k, &h.v, keep)
}

/// `Q Kᵀ` by ndarray's matrix product (matrixmultiply), for comparison with the scores
/// kernel.
pub fn qk_ndarray(h: &Head) -> Array2<f32> {
    h.q.dot(&h.k.t())
}

/// `Q Kᵀ` by the score function (the kernels).
pub fn qk_kernels(h: &Head) -> Array2<f32> {
    score::scores(ScoreFunction::Dot, &h.q, &h.k, &ScoreParams::None)
}

/// `A V` by ndarray's matrix product, for comparison with `weights_times_values`.
pub fn av_ndarray(a: &Array2<f32>, v: &Array2<f32>) -> Array2<f32> {
    a.dot(v)
}

/// `φ(K)ᵀ V` by ndarray's matrix product, for comparison with the state update.
pub fn state_ndarray(phi_k: &Array2<f32>, v: &Array2<f32>) -> Array2<f32> {
    phi_k.t().dot(v)
}
