use attnlab_i18n::msg;
use attnlab_lab::Mode;
use attnlab_pages::block;
use leptos::prelude::*;

use super::block_figures::{HeadFigures, MemoryFigure, ResidualFigure, SublayerFigures};
use super::block_knobs::BlockKnobs;
use super::block_permutation::PermutationCheck;
use super::run::{RunMemo, source_memo, with_block_input};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};

/// The Block page: its knobs, the sizes it runs, then the layer shown's sub-layers and
/// heads, the residual stream, and the permutation check.
#[component]
pub fn BlockPage() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let cross = Memo::new(move |_| state.lab.mode().get() == Mode::Cross);
    // The source's X in cross mode (the encoder's input).
    let source = source_memo(state);
    let width = Memo::new(move |_| {
        state.derived.encoded.with(|e| {
            e.as_ref()
                .map_or_else(|_| state.lab.model().with(|m| m.d_model), |e| e.x.ncols())
        })
    });
    let run: RunMemo = Memo::new(move |_| with_block_input(state, source, lang.get(), block::run));
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
