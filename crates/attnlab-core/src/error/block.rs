//! Why a Transformer block or its input is refused ([`super::Invalid::Block`]): values,
//! not text; the edges say them from the catalogue's `core.ftl`; the `Display` here is
//! its English.

use std::fmt;

/// Why a block ([`crate::block::Block`]) or its input is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockInvalid {
    /// A stack of no layers.
    NoLayers,
    /// An input (`x` or the memory) of no token.
    NoTokens,
    /// Layers with cross-attention and no memory to attend to.
    CrossWithoutMemory,
    /// A memory given to layers without cross-attention, or some layers with
    /// cross-attention and some without.
    MemoryWithoutCross,
    /// Cross-attention asked to be causal.
    CrossCausal,
    /// Decoding position by position with self-attention that is not causal.
    DecodeNeedsCausal,
}

impl fmt::Display for BlockInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BlockInvalid::NoLayers => "is empty, expected at least one layer",
            BlockInvalid::NoTokens => "has no rows, expected at least one token",
            BlockInvalid::CrossWithoutMemory => {
                "cross-attention needs a memory (m × d) to attend to"
            }
            BlockInvalid::MemoryWithoutCross => {
                "with a memory, every layer has cross-attention; without one, none has"
            }
            BlockInvalid::CrossCausal => {
                "cross-attention cannot be causal: its keys are the memory's positions, not the queries'"
            }
            BlockInvalid::DecodeNeedsCausal => {
                "decoding one position at a time needs causal self-attention in every layer"
            }
        })
    }
}
