//! # attnlab-lab
//!
//! The lab's domain model in plain Rust, shared by the web app and the `attnlab` CLI.
//! No web crates: it builds and is tested natively and for `wasm32`.
//!
//! - [`state`]: [`LabState`], the whole configuration — the texts, self- or
//!   cross-attention, the model settings shared by every variant, one to four
//!   [`Variant`]s, and the view a shared link reopens;
//! - [`i18n`]: the languages (English, 中文); every sentence a person reads is asked for
//!   in one of them, and [`said`] keeps one computed once in both;
//! - [`rules`]: which combinations of settings are allowed, with a one-line reason for
//!   each disabled control (`why_not_*`), and [`LabState::repair`];
//! - [`fragment`]: the state in a compact, versioned URL fragment (`#v1.…`) and back,
//!   with typed errors that keep the text of a damaged link;
//! - [`lessons`]: the guided lessons (embedded from `lessons/`), their checks, the
//!   answers of their "predict, then reveal" steps, their links and the learner's
//!   progress;
//! - [`tokens`]: a text's tokens (padded, cut at 512), which text gives the queries and
//!   which the keys, and the notice above the figures;
//! - [`compute`]: tokens → `Encoded` → `Projected` → per-variant `Problem` → per-head
//!   `HeadResult` → head average → comparison, in steps as fine as the app's memos;
//! - [`figure`]: results as `attnlab_plot::Heatmap`s, and reading a cell back;
//! - [`pages`]: the data of the explanatory pages, one module per page:
//!   - [`pages::steps`]: one variant's pipeline stage by stage for one head and one
//!     query, with each stage's formula as MathML and the query's row read out;
//!   - [`pages::positions`]: the position-encoding page — the PE table, `PE(a)·PE(b)`
//!     and its spread along diagonals, the `R_k` residual, and the bag-of-words
//!     shuffle check;
//!   - [`pages::scaling`]: the `1/√d_k` page — logit spread and softmax entropy against
//!     `d_k`, and the sentence's own values;
//!   - [`pages::linear_lab`]: softmax against linear attention on one head (implied
//!     matrices, singular values and ranks), causal linear attention as an RNN,
//!     Linformer's maps;
//!   - [`pages::lines`]: the selected heads as token-to-token lines, and a token's
//!     strongest links;
//!   - [`pages::complexity`]: the sizes, timing policy, power-law fit and crossover of
//!     the complexity page (the timing itself runs in a Web Worker).
//!
//! ```
//! use attnlab_lab::compute::{Pipeline, Which, compare};
//! use attnlab_lab::{LabState, MaskKind, fragment};
//! use attnlab_lab::i18n::Lang;
//! use attnlab_core::attention::AttentionKind;
//!
//! // The defaults: the classic sentence, variants A (scaled dot) and B (plain dot).
//! let mut state = LabState::default();
//! state.variants[1].masks.causal = true;
//!
//! // Rules: Linformer cannot be causal, and the control says why.
//! let why = state.variants[1].why_not_attention(AttentionKind::Linformer, Lang::En).unwrap();
//! assert!(why.starts_with("Linformer cannot apply the causal mask that is on"));
//! assert!(state.variants[0].why_not_mask(MaskKind::Causal, Lang::En).is_none());
//!
//! // A link restores the state exactly.
//! let link = format!("https://example.org/attnlab/#{}", fragment::encode(&state));
//! assert_eq!(fragment::decode(&link)?.state, state);
//!
//! // Compute and compare: B (causal, unscaled) against A.
//! let run = Pipeline::new(&state);
//! let (a, b) = (run.variant(0)?, run.variant_named("B")?);
//! assert_eq!(a.heads[0].weights.dim(), (11, 11));
//! assert_eq!(b.heads[0].weights[[0, 1]], 0.0); // causal: "The" cannot see "animal"
//! let diff = compare(a.weights(Which::Average)?, b.weights(Which::Average)?)?;
//! assert!(diff.metrics.max_abs > 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod compute;
pub mod contribution;
pub mod export;
pub mod figure;
pub mod fragment;
pub mod i18n;
pub mod lessons;
pub mod neuron;
pub mod pages;
pub mod pretrained;
pub mod qr;
pub mod rules;
pub mod said;
pub mod state;
pub mod tensors;
pub mod tokens;

pub use compute::{LabError, Pipeline, explain};
pub use fragment::{Decoded, FragmentError, FragmentErrorKind, Loaded};
pub use rules::ModelRules;
pub use said::Said;
pub use state::{
    CompareWhat, DEFAULT_LINES_THRESHOLD, DEFAULT_SENTENCE, DEFAULT_SENTENCE_ZH, DEFAULT_SOURCE,
    DEFAULT_TARGET, LINES_THRESHOLD_RANGE, LabState, MAX_TOKENS, MAX_VARIANTS, MaskKind, Masks,
    Mode, ModelConfig, Page, Variant, View, Zoom,
};
pub use tokens::Tokens;
