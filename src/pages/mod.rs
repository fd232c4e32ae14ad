//! The explanatory pages, one folder each. Each reads the shared sentence, model and
//! variants from the [`AppState`](crate::state::AppState) and the data of its page from
//! `attnlab_lab::pages`; none holds maths of its own.

pub mod complexity;
pub mod linear;
pub mod lines;
pub mod model;
pub mod positions;
pub mod scaling;
pub mod steps;
