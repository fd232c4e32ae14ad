//! The Decoding page: what a decoder keeps while it generates one token at a time. At its
//! top the classic decoder (`seq2seq_section.rs`, `seq2seq_step.rs`): a recurrent
//! encoder–decoder with additive attention stepped through the target, its data
//! `attnlab_pages::decoding::seq2seq`'s, its step and switch the link's (`View::seq2seq`);
//! then the KV-cache calculator (`kv_calculator.rs`): its arithmetic, presets and chart are
//! `attnlab_pages::decoding`'s; its settings are the link's (`View::kv_cache`).

mod decoding_page;
mod kv_calculator;
mod seq2seq_section;
mod seq2seq_step;

pub use decoding_page::DecodingPage;
pub use kv_calculator::KvCalculator;
pub use seq2seq_section::Seq2seqSection;
