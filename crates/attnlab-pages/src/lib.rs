//! # attnlab-pages
//!
//! The data of the explanatory pages, one module per page, named as the app's
//! `src/pages/` names them. Each computes what its page shows from the lab (`attnlab-lab`:
//! the state, the compute steps) and the core, and shapes it as figures and sentences;
//! none holds maths of its own. [`neuron`] is the view of one score as a neuron, shown
//! by the steps page and the model page.

#![deny(missing_docs)]

pub mod block;
pub mod complexity;
pub mod decoding;
pub mod linear;
pub mod lines;
pub mod neuron;
pub mod positions;
pub mod scaling;
pub mod steps;
