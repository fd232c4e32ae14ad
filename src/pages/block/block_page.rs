use attnlab_core::CoreError;
use attnlab_core::model::Encoded;
use attnlab_i18n::msg;
use attnlab_lab::Mode;
use attnlab_lab::compute;
use attnlab_lab::explain::explain_in;
use attnlab_lab::tokens::{self, Tokens};
use attnlab_pages::block::{self, BlockInput};
use leptos::prelude::*;

use super::block_figures::{HeadFigures, MemoryFigure, ResidualFigure, SublayerFigures};
use super::block_knobs::BlockKnobs;
use super::block_permutation::PermutationCheck;
use super::run::RunMemo;
use crate::i18n::text;
use crate::state::{LabFields, ViewFields, use_app_state};

/// The Block page: its knobs, the sizes it runs, then the layer shown's sub-layers and
/// heads, the residual stream, and the permutation check.
#[component]
pub fn BlockPage() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let cross = Memo::new(move |_| state.lab.mode().get() == Mode::Cross);
    // The source's X in cross mode (the encoder's input).
    let source: Memo<Option<Result<Encoded, CoreError>>> = Memo::new(move |_| {
        if !cross.get() {
            return None;
        }
        state.derived.key_tokens.with(|k| {
            state
                .derived
                .used_model
                .with(|m| Some(compute::encode(m, k)))
        })
    });
    let width = Memo::new(move |_| {
        state.derived.encoded.with(|e| {
            e.as_ref()
                .map_or_else(|_| state.lab.model().with(|m| m.d_model), |e| e.x.ncols())
        })
    });
    let run: RunMemo = Memo::new(move |_| {
        let lang = lang.get();
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
                block::run(&input).map_err(|err| explain_in(&err, lang))
            })
        })
    });
    let error = move || run.with(|r| r.as_ref().err().cloned());
    let sizes = move || {
        run.with(|r| {
            let u = r.as_ref().ok()?.used;
            Some(
                msg::block::BlockSizes {
                    layers: &u.layers,
                    d: &u.d,
                    heads: &u.heads,
                    d_k: &(u.d / u.heads.max(1)),
                    f: &u.ffn_width,
                    n: &u.tokens.0,
                }
                .say(lang.get()),
            )
        })
    };
    let limited = move || {
        run.with(|r| {
            let u = r.as_ref().ok()?.used;
            u.limited().then(|| {
                msg::block::BlockLimited {
                    used: &u.tokens.0,
                    all: &u.tokens.1.max(u.source_tokens.map_or(0, |s| s.1)),
                    layers: &u.layers,
                    d: &u.d,
                }
                .say(lang.get())
            })
        })
    };

    view! {
        <section class="explain block-page" data-testid="block-view"
            aria-label=text(msg::block::BLOCK_PAGE_LABEL)
            data-mode=move || if cross.get() { "decoder" } else { "encoder" }>
            <h2 class="section-title">{text(msg::block::BLOCK_PAGE_TITLE)}</h2>
            <p class="explain-lead">{text(msg::block::BLOCK_LEAD)}</p>
            <Show when=move || cross.get()>
                <p class="explain-lead" data-testid="block-decoder-lead">{text(msg::block::BLOCK_DECODER_LEAD)}</p>
            </Show>
            <BlockKnobs width=width/>
            <p class="block-sizes" data-testid="block-sizes">{sizes}</p>
            {move || limited().map(|l| view! { <p class="notice block-notice" role="status" data-testid="block-limited">{l}</p> })}
            {move || error().map(|e| view! { <p class="notice block-notice" role="status" data-testid="block-error">{e}</p> })}
            <Show when=move || run.with(Result::is_ok)>
                <MemoryFigure run=run/>
                <SublayerFigures run=run/>
                <HeadFigures run=run/>
                <ResidualFigure run=run/>
                <PermutationCheck run=run/>
            </Show>
        </section>
    }
}
