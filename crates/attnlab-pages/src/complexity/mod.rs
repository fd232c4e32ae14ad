//! Complexity, measured: how the time of one attention call grows with the sequence length
//! `n`, for softmax attention (streamed: online softmax over key blocks, O(n·d) memory,
//! O(n²·d) time) and linear attention with `φ = elu + 1` (O(n·d²) time).
//!
//! Everything here is plain Rust, shared by the browser's timing worker and the tests:
//!
//! - the sizes ([`sizes`]: powers of two from [`N_MIN`] to a chosen maximum ≤ [`N_MAX`]),
//! - the workload ([`Workload`]: seeded unit-normal Q, K, V from `attnlab_core::rng`) and
//!   one call of each [`Kind`],
//! - the timing policy ([`time_call`]: repeat a call until a batch lasts at least
//!   [`MIN_BATCH_MS`], take the median of a few batches; a call that alone lasts
//!   [`LONG_CALL_MS`] or more is timed once),
//! - the fit ([`fit_power_law`]: least squares of `log10 t` on `log10 n` over the points
//!   with `n ≥` [`FIT_FROM_N`]) and the crossover of the two curves ([`Crossover`]),
//! - the messages between the page and the worker ([`Request`], [`Report`]),
//! - the chart ([`chart`]) and the table ([`Measurements`]),
//! - "why attention" ([`why`]): Table 1 of "Attention Is All You Need" for chosen n, d, k
//!   and r, and which inputs reach an output after L layers of each kind.
//!
//! The timing itself takes a clock (`performance.now()` in a worker, `Instant` natively),
//! so the policy is tested with a fake one.

mod chart;
mod fit;
mod timing;
pub mod why;

pub use chart::{Measurements, Row, chart, slope_label};
pub use fit::{Crossover, Fit, fit_power_law, fitted_crossover, least_squares, measured_crossover};
pub use timing::{
    D_CHOICES, D_DEFAULT, FIT_FROM_N, Kind, LONG_CALL_MS, MIN_BATCH_MS, Measurement, N_MAX, N_MIN,
    Report, Request, SAMPLES, SEED, Timing, Workload, max_n_choices, run, sizes, time_call,
};
