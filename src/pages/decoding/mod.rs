//! The Decoding page: what a decoder keeps while it generates one token at a time. The
//! decoder stepper (`stepper.rs`, `stepper_panels.rs`: the Block page's stack decoded
//! with its KV cache, step by step; `View::decode_step`) and the KV-cache calculator
//! (`kv_calculator.rs`): their data is `attnlab_pages::decoding`'s; their settings are
//! the link's (`View::kv_cache`).

mod decoding_page;
mod kv_calculator;
mod stepper;
mod stepper_panels;

pub use decoding_page::DecodingPage;
pub use kv_calculator::KvCalculator;
pub use stepper::DecoderStepper;
