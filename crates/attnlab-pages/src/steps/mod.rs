//! The "Step by step" page: the pipeline of one variant, stage by stage, for one head and
//! one query token: `X` → `Q`, `K`, `V` → scores → scaled → masked → softmax (or the
//! feature maps φ of a linear variant) → weights · `V` → concat · `W^O`.
//!
//! - the stage list and what each stage is ([`Family::stages`], [`StageKind`]'s name,
//!   [`Axis`] and colouring, [`Stage`]);
//! - the matrices ([`steps`]): every one comes from the core's own functions on the
//!   variant's validated `Problem` (`score::scores`, the built mask,
//!   `softmax::softmax_masked`, the feature maps, `linear::efficient`,
//!   `Problem::combine`), so what a stage shows is what the lab computes: the tests
//!   check the softmax stage against `compute_head` exactly;
//! - the formulas ([`formula`]): each stage's formula for the current variant and query
//!   as MathML markup, which browsers render natively;
//! - the read-out of the query's row ([`Stage::readout`]), its numbers written by
//!   [`attnlab_plot::number`].
//!
//! The query is an input of [`steps`]: the Input stage's formula names its token, the
//! stages whose rows are the queries highlight its row, and every read-out is its row.
//!
//! ```
//! use attnlab_lab::compute::{self, Pipeline};
//! use attnlab_pages::steps::{StageKind, StepsInput, steps};
//! use attnlab_lab::LabState;
//! use attnlab_i18n::Lang;
//!
//! let state = LabState::default();
//! let run = Pipeline::new(&state);
//! let (queries, keys) = (run.queries().labels(), run.key_labels(&state.variants[0]));
//! let encoded = compute::encode(&state.model, run.queries())?;
//! let problem = run.variant(0)?.problem;
//! let input = StepsInput {
//!     model: &state.model,
//!     variant: &state.variants[0],
//!     mode: state.mode,
//!     encoded: Some(&encoded),
//!     problem: &problem,
//!     unturned: None,
//!     queries: &queries,
//!     keys: &keys,
//! };
//! // Head 0, query 7 ("it").
//! let stages = steps(&input, 0, 7, Lang::En)?;
//! assert_eq!(stages[0].kind, StageKind::Input);
//! assert!(stages[0].formula.contains("\u{201c}it\u{201d}"));
//! let softmax = stages.iter().find(|s| s.kind == StageKind::Softmax).unwrap();
//! assert_eq!(softmax.highlight, Some(7));
//! assert!(softmax.readout(3, Lang::En).unwrap().text.starts_with("Row \u{201c}it\u{201d} (7) of Softmax weights: The "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builder;
pub mod formula;
mod matrices;
mod modern;
mod readout;
mod stages;
mod tiles;

pub use builder::StepsInput;
pub use matrices::{steps, unturned};
pub use readout::Readout;
pub use stages::{Axis, Family, Keys, Query, Stage, StageKind, StageOptions, StageValues};
pub use tiles::{TileView, TilesMemory, TilesWalk, tiles_walk};
