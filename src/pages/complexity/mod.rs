//! The complexity page: softmax and linear attention timed against `n` in a Web Worker,
//! plotted on log–log axes with their fitted slopes and crossover. The sizes, the timing
//! policy, the fit and the chart are `attnlab_pages::complexity`'s; the timing runs in
//! `crates/attnlab-timing-worker` (`attnlab_workers::TimingWorker`). Below, "why attention"
//! (`why_attention.rs`): Table 1 of "Attention Is All You Need" for chosen numbers and the
//! figure of which inputs reach an output after L layers (`attnlab_pages::complexity::why`).

mod complexity_view;
mod timing_table;
mod why_attention;

pub use complexity_view::ComplexityView;
pub use timing_table::TimingTable;
pub use why_attention::WhyAttention;
