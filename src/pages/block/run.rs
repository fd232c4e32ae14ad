use attnlab_pages::block::BlockRun;
use leptos::prelude::*;

/// The page's run: the stack on the lab's sentence (or the decoder on the target), or the
/// sentence saying why there is none.
pub type RunMemo = Memo<Result<BlockRun, String>>;
