//! Deterministic seeded randomness: every random table (embeddings, projections, score
//! parameters, Linformer maps) is drawn from its own ChaCha8 stream, named by the global
//! seed, a label and an index, so one table never shifts when another changes size.

use ndarray::Array2;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_distr::{Distribution, StandardNormal};

/// FNV-1a, 64 bit: a stable hash of bytes (the same on every platform and build).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// SplitMix64 finaliser: spreads a 64-bit value over all bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random stream for `(seed, label, index)`.
pub fn stream(seed: u64, label: &str, index: u64) -> ChaCha8Rng {
    let key = mix(seed ^ mix(fnv1a(label.as_bytes())) ^ mix(index.wrapping_add(0x9e37_79b9)));
    ChaCha8Rng::seed_from_u64(key)
}

/// A `rows × cols` matrix of independent N(0, std²) samples from `rng`.
pub fn normal_matrix(rng: &mut ChaCha8Rng, rows: usize, cols: usize, std: f32) -> Array2<f32> {
    Array2::from_shape_simple_fn((rows, cols), || {
        let z: f64 = StandardNormal.sample(rng);
        (z as f32) * std
    })
}

/// A vector of `len` independent N(0, std²) samples from `rng`.
pub fn normal_vec(rng: &mut ChaCha8Rng, len: usize, std: f32) -> Vec<f32> {
    (0..len)
        .map(|_| {
            let z: f64 = StandardNormal.sample(rng);
            (z as f32) * std
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_distinct() {
        let a = normal_vec(&mut stream(7, "wq", 0), 8, 1.0);
        let b = normal_vec(&mut stream(7, "wq", 0), 8, 1.0);
        let c = normal_vec(&mut stream(7, "wq", 1), 8, 1.0);
        let d = normal_vec(&mut stream(8, "wq", 0), 8, 1.0);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
    }

    #[test]
    fn fnv1a_known_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn normal_samples_have_the_requested_spread() {
        let v = normal_vec(&mut stream(1, "spread", 0), 20_000, 0.5);
        let mean = v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64;
        let var = v
            .iter()
            .map(|&x| (f64::from(x) - mean).powi(2))
            .sum::<f64>()
            / v.len() as f64;
        assert!(mean.abs() < 0.02, "mean {mean}");
        assert!((var - 0.25).abs() < 0.02, "variance {var}");
    }
}
