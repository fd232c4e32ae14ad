use attnlab_core::CoreError;
use attnlab_core::model::Encoded;
use attnlab_i18n::{Lang, msg};
use attnlab_lab::Mode;
use attnlab_lab::compute;
use attnlab_lab::explain::explain_in;
use attnlab_lab::tokens::{self, Tokens};
use attnlab_pages::block::{BlockInput, BlockRun};
use leptos::prelude::*;

use crate::state::{AppState, LabFields, ViewFields};

/// The page's run: the stack on the lab's sentence (or the decoder on the target), or the
/// sentence saying why there is none.
pub type RunMemo = Memo<Result<BlockRun, String>>;

/// The source's `X` in cross mode (the encoder's input), `None` in self mode.
pub type SourceMemo = Memo<Option<Result<Encoded, CoreError>>>;

/// The source's `X` while the lab is in cross mode.
pub fn source_memo(state: AppState) -> SourceMemo {
    Memo::new(move |_| {
        if state.lab.mode().get() != Mode::Cross {
            return None;
        }
        state.derived.key_tokens.with(|k| {
            state
                .derived
                .used_model
                .with(|m| Some(compute::encode(m, k)))
        })
    })
}

/// `f` on the Block page's input from the app's state (the sentence's or target's `X`,
/// the source's in cross mode, the seed, the page's settings), or the sentence saying why
/// there is none: brought tensors, no tokens, or what the core refused. Tracks what it
/// reads. The Block page and the Decoding page's stepper run the same stack through it.
pub fn with_block_input<R>(
    state: AppState,
    source: SourceMemo,
    lang: Lang,
    f: impl FnOnce(&BlockInput<'_>) -> Result<R, CoreError>,
) -> Result<R, String> {
    if state.brought.with(Option::is_some) {
        return Err(msg::block::BLOCK_NO_X.get(lang).to_string());
    }
    if state.derived.tokens.with(Tokens::is_empty)
        || state.derived.key_tokens.with(Tokens::is_empty)
    {
        return Err(tokens::NOTHING_TO_ATTEND.get(lang).to_string());
    }
    let settings = state.lab.view().block().get();
    let seed = state.lab.model().with(|m| m.seed);
    let queries = state.derived.tokens.with(Tokens::labels);
    let keys = state.derived.key_tokens.with(Tokens::labels);
    state.derived.encoded.with(|e| {
        let e = e.as_ref().map_err(|e| explain_in(e, lang))?;
        source.with(|s| {
            let s = match s {
                Some(Err(err)) => return Err(explain_in(err, lang)),
                Some(Ok(s)) => Some((s, keys.as_slice())),
                None => None,
            };
            let input = BlockInput {
                queries: (e, &queries),
                source: s,
                seed,
                settings: &settings,
            };
            f(&input).map_err(|err| explain_in(&err, lang))
        })
    })
}
