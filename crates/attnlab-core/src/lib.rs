//! # attnlab-core
//!
//! The mathematics of attnlab, exactly as `docs/maths.md` defines it: a tokenizer on Unicode
//! word boundaries, seeded embeddings and position encodings, projections into heads,
//! score functions, masks, stable softmax attention, linear attention in O(n), and the
//! metrics the app shows. Pure Rust on `ndarray`: no browser, no I/O. It builds and is
//! tested natively and for `wasm32` (with and without SIMD128).
//!
//! Q, K and V can come from anywhere: the seeded [`model`] below, a JSON file exported from
//! PyTorch (see the `attnlab` CLI), or a pretrained model.
//!
//! ```
//! use attnlab_core::attention::{AttentionKind, AttentionSpec};
//! use attnlab_core::mask::MaskSpec;
//! use attnlab_core::model::ModelConfig;
//! use attnlab_core::tokenize::tokenize;
//!
//! let tokens = tokenize("The animal didn't cross the street");
//! let model = ModelConfig { d_model: 32, heads: 4, ..ModelConfig::default() };
//! let x = model.encode(&tokens)?.x;
//! let heads = model.project(&x, &x)?;
//! let spec = AttentionSpec {
//!     attention: AttentionKind::Softmax,
//!     mask: MaskSpec { causal: true, ..MaskSpec::default() },
//!     ..AttentionSpec::default()
//! };
//! let result = model.problem(&heads, spec, 4)?.compute()?;
//! let a = &result.heads[0].weights; // 6 × 6, lower triangular, rows sum to 1
//! assert_eq!(a.dim(), (6, 6));
//! assert_eq!(a[[0, 1]], 0.0);
//! assert!((a.row(3).sum() - 1.0).abs() < 1e-6);
//! # Ok::<(), attnlab_core::CoreError>(())
//! ```

#![deny(missing_docs)]

pub mod alibi;
pub mod attention;
pub mod block;
pub mod contribution;
pub mod decayed;
pub mod embed;
pub mod error;
pub mod favor;
pub mod groups;
pub mod kernels;
pub mod kind;
pub mod linear;
pub mod logits;
pub mod mask;
pub mod metrics;
pub mod model;
pub mod normalise;
pub mod position;
pub mod rng;
pub mod rope;
pub mod score;
pub mod seq2seq;
pub mod softmax;
pub mod spec;
pub mod streaming;
pub mod tiled;
pub mod tokenize;

pub use error::{CoreError, Expected, Invalid, Needs, Result};
