//! Deterministic token embeddings (docs/maths.md §1).
//!
//! `e(t) ∈ R^{d_model}` is drawn from N(0, 1/d_model) by a random stream keyed by the
//! global seed and the *normalised* token text (Unicode NFKC, then lower case), so
//! identical tokens get identical vectors, on every platform and in every build.

use ndarray::Array2;
use unicode_normalization::UnicodeNormalization;

use crate::rng;
use crate::tokenize::Token;

/// Whether the word vectors are multiplied by √d_model (the Transformer's embedding
/// scaling; docs/maths.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbeddingScale {
    /// Entries ~ N(0, 1/d_model).
    Unit,
    /// Entries ~ N(0, 1/d_model) × √d_model, i.e. ~ N(0, 1).
    SqrtDModel,
}

/// The normalised form of a token's text that keys its embedding.
pub fn normalise(text: &str) -> String {
    text.nfkc().collect::<String>().to_lowercase()
}

/// The embedding of one token text.
pub fn embed_one(text: &str, d_model: usize, seed: u64, scale: EmbeddingScale) -> Vec<f32> {
    let key = rng::fnv1a(normalise(text).as_bytes());
    let std = 1.0 / (d_model as f32).sqrt();
    let factor = match scale {
        EmbeddingScale::Unit => 1.0,
        EmbeddingScale::SqrtDModel => (d_model as f32).sqrt(),
    };
    rng::normal_vec(
        &mut rng::stream(seed, "embedding", key),
        d_model,
        std * factor,
    )
}

/// The `n × d_model` matrix of word vectors of `tokens`.
pub fn embed(tokens: &[Token], d_model: usize, seed: u64, scale: EmbeddingScale) -> Array2<f32> {
    let mut x = Array2::zeros((tokens.len(), d_model));
    for (mut row, t) in x.rows_mut().into_iter().zip(tokens) {
        row.assign(&ndarray::ArrayView1::from(&embed_one(
            &t.text, d_model, seed, scale,
        )));
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::tokenize;

    #[test]
    fn identical_tokens_identical_vectors() {
        let x = embed(
            &tokenize("the cat saw The cat"),
            16,
            3,
            EmbeddingScale::Unit,
        );
        assert_eq!(x.row(0), x.row(3), "case is normalised");
        assert_eq!(x.row(1), x.row(4));
        assert_ne!(x.row(0), x.row(1));
    }

    #[test]
    fn seed_changes_vectors() {
        assert_ne!(
            embed_one("cat", 8, 1, EmbeddingScale::Unit),
            embed_one("cat", 8, 2, EmbeddingScale::Unit)
        );
    }

    #[test]
    fn nfkc_normalises_compatibility_forms() {
        // Fullwidth Ａ (U+FF21) is NFKC-equal to A.
        assert_eq!(normalise("Ａ"), "a");
        assert_eq!(
            embed_one("Ａ", 8, 1, EmbeddingScale::Unit),
            embed_one("a", 8, 1, EmbeddingScale::Unit)
        );
    }

    #[test]
    fn sqrt_scaling_multiplies_by_sqrt_d() {
        let a = embed_one("x", 64, 5, EmbeddingScale::Unit);
        let b = embed_one("x", 64, 5, EmbeddingScale::SqrtDModel);
        for (u, v) in a.iter().zip(&b) {
            assert!((u * 8.0 - v).abs() < 1e-5);
        }
    }
}
