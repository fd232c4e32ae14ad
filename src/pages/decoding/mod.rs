//! The Decoding page: what a decoder keeps while it generates one token at a time. For
//! now the KV-cache calculator (`kv_calculator.rs`): its arithmetic, presets and chart are
//! `attnlab_pages::decoding`'s; its settings are the link's (`View::kv_cache`).

mod decoding_page;
mod kv_calculator;

pub use decoding_page::DecodingPage;
pub use kv_calculator::KvCalculator;
