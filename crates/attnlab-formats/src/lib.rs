//! # attnlab-formats
//!
//! The files attnlab reads and writes besides its links: [`tensors`], the `Q`, `K`, `V`
//! a person brings (the `attnlab-tensors/1` JSON document, `.npy` files and `.npz`
//! archives), and [`export`], a figure's matrix as CSV or JSON and the exported
//! tensors document; [`block`], the `attnlab-block/1` document of a stack of Transformer
//! layers and its input. Plain Rust: the app's file worker, the CLI and the tests read
//! through the same code.

#![deny(missing_docs)]

pub mod block;
pub mod export;
pub mod tensors;
