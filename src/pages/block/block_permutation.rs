use attnlab_i18n::msg;
use attnlab_pages::{block, positions};
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

use super::run::RunMemo;
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};

/// What the feed-forward does to each token on its own against what attention mixes:
/// the tokens in the order of a shuffle (the sentence backwards, or the seed's next
/// shuffle), the two largest differences, each in `data-value`, and both sides of each
/// comparison as heatmaps side by side.
#[component]
pub fn PermutationCheck(run: RunMemo) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    // `None`: the sentence backwards; `Some(d)`: the seed's d-th shuffle.
    let draw = RwSignal::new(None::<u64>);
    let next_draw = StoredValue::new(0u64);
    let check = Memo::new(move |_| {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            let n = r.used.tokens.0;
            let order: Vec<usize> = match draw.get() {
                None => (0..n).rev().collect(),
                Some(d) => {
                    let seed = state.lab.model().with(|m| m.seed);
                    positions::Permutation::shuffled(n, n, seed, d)
                        .order()
                        .to_vec()
                }
            };
            state
                .derived
                .encoded
                .with(|e| block::permutation_in(r, e.as_ref().ok()?, &order).ok())
        })
    });
    let figures = Memo::new(move |_| {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            check.with(|c| block::permutation_figures(c.as_ref()?, &r.queries, lang.get()).ok())
        })
    });
    let figure = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let order = move || {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            check.with(|c| {
                let c = c.as_ref()?;
                Some(
                    c.order
                        .iter()
                        .map(|&i| r.queries[i].clone())
                        .collect::<Vec<_>>()
                        .join(" · "),
                )
            })
        })
    };
    let can_shuffle = move || run.with(|r| r.as_ref().is_ok_and(|r| r.used.tokens.0 >= 2));
    let shown = |v: f32| {
        if v == 0.0 {
            "0".to_string()
        } else {
            number::significant(v, 3)
        }
    };
    let ffn = move || check.with(|c| c.as_ref().map(|c| c.ffn));
    let attention = move || check.with(|c| c.as_ref().map(|c| c.attention));
    let pair = move |first: usize, testid: &'static str| {
        let one = move |i: usize, side: &'static str| {
            view! {
                <div class="block-figure">
                    <HeatmapCanvas figure=figure(first + i) testid=format!("{testid}-{side}") kind="matrix" class="block-perm-map" pointing=Pointing::Reading/>
                </div>
            }
        };
        view! {
            <div class="block-perm-trio" data-testid=testid>
                {one(0, "shuffled-first")}
                {one(1, "shuffled-after")}
                {one(2, "difference")}
            </div>
        }
    };
    view! {
        <section class="block-section">
        <h3 class="section-title">{text(msg::block::BLOCK_PERMUTATION_HEADING)}</h3>
        <p class="explain-lead">{text(msg::block::BLOCK_PERMUTATION_LEAD)}</p>
        <div class="block-permutation" data-testid="block-permutation">
            <div class="bow-controls">
                <button type="button" data-testid="block-perm-shuffle" disabled=move || !can_shuffle()
                    on:click=move |_| {
                        let d = next_draw.get_value();
                        next_draw.set_value(d + 1);
                        draw.set(Some(d));
                    }>{text(msg::block::BLOCK_PERM_SHUFFLE)}</button>
                <button type="button" data-testid="block-perm-backwards" disabled=move || draw.get().is_none()
                    on:click=move |_| draw.set(None)>{text(msg::block::BLOCK_PERM_BACKWARDS)}</button>
            </div>
            <p>{text(msg::block::BLOCK_PERMUTATION_ORDER)}" "<span class="block-order" translate="no" data-testid="block-order">{order}</span></p>
            <p class="explain-note">{text(msg::block::BLOCK_PERM_PAIRS)}</p>
            <p>{text(msg::block::BLOCK_PERMUTATION_FFN)}" "
                <span class="formula" translate="no">"max |FFN(P·X) − P·FFN(X)| = "</span>
                <output class="block-number" data-testid="block-perm-ffn"
                    data-value=move || ffn().map(|v| v.to_string())>{move || ffn().map(shown)}</output>
            </p>
            {pair(0, "block-perm-ffn-pair")}
            <p>{text(msg::block::BLOCK_PERMUTATION_ATTENTION)}" "
                <span class="formula" translate="no">"max |Attn(X′) − P·Attn(X)| = "</span>
                <output class="block-number" data-testid="block-perm-attention"
                    data-value=move || attention().map(|v| v.to_string())>{move || attention().map(shown)}</output>
            </p>
            {pair(3, "block-perm-attention-pair")}
            {move || check.with(|c| c.as_ref().is_some_and(|c| c.no_positions)).then(|| view! {
                <p class="explain-lead" data-testid="block-no-positions">{text(msg::block::BLOCK_PERMUTATION_NO_POSITIONS)}</p>
            })}
        </div>
        </section>
    }
}
