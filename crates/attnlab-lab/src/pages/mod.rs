//! The data of the explanatory pages, one module per page. Each computes what its page
//! shows from the domain at the crate root (the state, the compute steps) and the core,
//! and shapes it as figures and sentences; none holds maths of its own.

pub mod complexity;
pub mod linear_lab;
pub mod lines;
pub mod positions;
pub mod scaling;
pub mod steps;
