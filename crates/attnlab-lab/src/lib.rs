//! # attnlab-lab
//!
//! The lab's domain model in plain Rust, shared by the web app and the `attnlab` CLI.
//! No web crates: it builds and is tested natively and for `wasm32`.
//!
//! - [`state`]: [`LabState`], the whole configuration — the texts, self- or
//!   cross-attention, the model settings shared by every variant, one to four
//!   [`Variant`]s, the real model's checkpoint and view, and the view a shared link
//!   reopens;
//! - [`rules`]: which combinations of settings are allowed, with a one-line reason for
//!   each disabled control (`why_not_*`), and [`LabState::repair`];
//! - [`tokens`]: a text's tokens (padded, cut at 512), which text gives the queries and
//!   which the keys, and the notice above the figures;
//! - [`compute`]: tokens → `Encoded` → `Projected` → per-variant `Problem` → per-head
//!   `HeadResult` → head average → comparison, in steps as fine as the app's memos;
//! - [`figure`]: results as `attnlab_plot::Heatmap`s, and reading a cell back;
//! - [`contribution`]: what each key contributes to a query's output, `α_ij ‖v_j W^O‖`,
//!   as figures.
//!
//! Around it: `attnlab-link` writes the state into a link and reads it back,
//! `attnlab-pages` shapes the explanatory pages' data from it, `attnlab-formats` reads
//! brought tensors and writes exports, `attnlab-lessons` holds the guided lessons, and
//! `attnlab-model-page` runs the real model's page. The languages are `attnlab-i18n`'s.
//!
//! ```
//! use attnlab_lab::compute::{Pipeline, Which, compare};
//! use attnlab_lab::{LabState, MaskKind};
//! use attnlab_i18n::Lang;
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
pub mod explain;
pub mod figure;
pub mod first_token;
pub mod rules;
pub mod state;
pub mod tokens;

pub use compute::{LabError, Pipeline};
pub use explain::explain;
pub use rules::ModelRules;
pub use state::{
    CompareWhat, DEFAULT_LINES_THRESHOLD, DEFAULT_SENTENCE, DEFAULT_SENTENCE_ZH, DEFAULT_SOURCE,
    DEFAULT_TARGET, LINES_THRESHOLD_RANGE, LabState, MAX_TOKENS, MAX_VARIANTS, MaskKind, Masks,
    Mode, ModelConfig, Page, Variant, View, Zoom,
};
pub use tokens::Tokens;
