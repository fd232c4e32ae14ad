//! The complexity page: softmax and linear attention timed against `n` in a Web Worker,
//! plotted on log–log axes with their fitted slopes and crossover. The sizes, the timing
//! policy, the fit and the chart are `attnlab_pages::complexity`'s; the timing runs in
//! `crates/attnlab-timing-worker` (`attnlab_workers::TimingWorker`).

mod complexity_view;
mod timing_table;

pub use complexity_view::ComplexityView;
pub use timing_table::TimingTable;
