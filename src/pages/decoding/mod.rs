//! The Decoding page: what a decoder keeps while it generates one token at a time. At its
//! top the classic decoder (`seq2seq_section.rs`, `seq2seq_step.rs`): a recurrent
//! encoder–decoder with additive attention stepped through the target, its data
//! `attnlab_pages::decoding::seq2seq`'s, its step and switch the link's (`View::seq2seq`).
//! Then the decoder stepper (`stepper.rs`, `stepper_panels.rs`: the Block page's stack
//! decoded with its KV cache, step by step; `View::decode_step`) and the KV-cache
//! calculator (`kv_calculator.rs`): their data is `attnlab_pages::decoding`'s; their
//! settings are the link's (`View::kv_cache`).

mod decoding_page;
mod kv_calculator;
mod seq2seq_section;
mod seq2seq_step;
mod stepper;
mod stepper_panels;

pub use decoding_page::DecodingPage;
pub use kv_calculator::KvCalculator;
pub use seq2seq_section::Seq2seqSection;
pub use stepper::DecoderStepper;
