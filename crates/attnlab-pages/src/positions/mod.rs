//! Position encodings as the lab shows them (docs/maths.md §2): the PE table, the `PE(a)·PE(b)`
//! matrix and how far it is from depending only on `a − b`, the residual of
//! `PE(p+k) = R_k·PE(p)`, and the bag-of-words check: shuffle the tokens, run the
//! variant again, un-permute, and compare.
//!
//! Without positions, attention is permutation-equivariant: permuting the tokens
//! permutes the rows and columns of every head's weights and changes nothing else. With
//! positions the same word at another place gets another vector, so the weights change.
//!
//! ```
//! use attnlab_pages::positions::{Permutation, bag_of_words};
//! use attnlab_lab::{LabState, Tokens};
//!
//! let state = LabState::default();
//! let tokens = Tokens::new(&state.text, None);
//! let shuffle = Permutation::shuffled(tokens.used().len(), tokens.typed(), 7, 0);
//! let check = bag_of_words(&state.model, &state.variants[0], &tokens, 0, &shuffle)?;
//! assert!(check.without_positions.max_difference < 1e-6);
//! assert!(check.with_positions.max_difference > 1e-3);
//! # Ok::<(), attnlab_lab::LabError>(())
//! ```

mod alibi;
mod bag_of_words;
mod long_context;
mod pe;
mod rope;

pub use alibi::{alibi_bias, alibi_heatmap};
pub use bag_of_words::{BagOfWords, Permutation, ShuffleRun, bag_of_words, position_dependence};
pub use long_context::{long_decay_chart, scaling_colour, wavelength_chart, wavelengths};
pub use pe::{
    CURVE_COLOURS, LEARNED_HAS_NO_ROTATION, NONE_HAS_NO_ROTATION, PeTable, RotationCheck, curves,
    curves_chart, default_dims, describe, diagonal_spread, dimension_label, dot_heatmap,
    dot_matrix, parse_dims, rotation_check, table, table_heatmap, width,
};
pub use rope::{
    PAPER_DIMS, PAPER_DISTANCE, PairTurn, RepeatedWord, RopeSettings, ScalingKind, decay_chart,
    pair_turn, repeated_word, rotary_width,
};
