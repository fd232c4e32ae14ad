//! The Decoding page's data: the KV cache a decoder keeps while it generates one token at
//! a time, and how large it grows.
//!
//! - [`kv_cache`]: the calculator's arithmetic (bytes per token for multi-head,
//!   grouped-query and multi-query attention, `L × 2 × G × d_h × bytes`, and for a latent
//!   cache (MLA), `L × (d_c + d_r) × bytes`; for a context and a batch), the knobs' ranges
//!   and their notes, the formulas written out with the numbers, and the chart of the cache
//!   against the context length;
//! - [`presets`]: shapes of published models, each with its source;
//! - [`seq2seq`]: the classic decoder, a recurrent encoder–decoder with additive
//!   attention, stepped through the target.
//!
//! The settings themselves are the lab's [`KvCache`](attnlab_lab::state::KvCache), so a
//! link carries them.

pub mod kv_cache;
pub mod presets;
pub mod seq2seq;
pub mod stepper;

pub use kv_cache::{
    BITS, CacheKind, Checked, Knob, Sizes, bytes_text, chart, checked, compared, grouped,
    per_token_formula, series_name, sizes, symbolic_formula, total_formula, typed,
};
pub use presets::{PRESETS, Preset, presets_of};
