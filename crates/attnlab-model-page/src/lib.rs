//! # attnlab-model-page
//!
//! The real-model page's domain: the messages between the page and the model worker, a
//! forward pass as the page holds it, substituting a lab variant into one head, and the
//! page's figures and head search. Which checkpoint and what the page selects are the
//! lab's state ([`attnlab_lab::state::PretrainedView`]).
//!
//! The forward pass itself runs in a Web Worker (`crates/attnlab-model-worker`, with
//! `attnlab-model`); this crate is what the page and the worker agree on, in plain
//! Rust, so it is tested natively. It is the only crate of the page that depends on
//! `attnlab-model`.

#![deny(missing_docs)]

pub mod alignment;
mod contribution;
mod figures;
pub mod protocol;
mod run;
mod said;
pub mod substitution;
mod variants;

pub use attnlab_model::relevance::MAX_FLOW_TOKENS;
pub use contribution::{
    atlas_contribution_figures, head_contribution_figure, layer_average_contribution_figure,
    model_neuron, share_chart, special_shares,
};
pub use figures::{
    ATLAS_CAPTION, SEARCH_CAUTION, SPECIAL_TOKENS_NOTE, WORD_START_NOTE, atlas_figures,
    atlas_titles, head_figure, layer_average_figure, relevance_figure,
};
pub use run::{HideSpecial, ModelRun, RankedHead, RunError, TokenView, WORD_START, shown_token};
pub use variants::{OnHead, model_variant, variant_on_head};
