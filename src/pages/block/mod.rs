//! The "Block" page: the Transformer layer around attention (residual connections,
//! LayerNorm, the feed-forward network, stacked layers; in cross mode the decoder with
//! its two attentions), run on the lab's sentence. The data is `attnlab_pages::block`'s.

mod block_figures;
mod block_knobs;
mod block_page;
mod block_permutation;
mod run;

pub use block_page::BlockPage;
pub use run::{source_memo, with_block_input};
