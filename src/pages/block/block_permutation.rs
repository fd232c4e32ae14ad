use attnlab_i18n::msg;
use attnlab_pages::block;
use attnlab_plot::number;
use leptos::prelude::*;

use super::run::RunMemo;
use crate::i18n::text;
use crate::state::use_app_state;

/// What the feed-forward does to each token on its own against what attention mixes:
/// the tokens in the order of a fixed shuffle (the sentence backwards) and the two
/// largest differences, each in `data-value`.
#[component]
pub fn PermutationCheck(run: RunMemo) -> impl IntoView {
    let state = use_app_state();
    let check = Memo::new(move |_| {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            state
                .derived
                .encoded
                .with(|e| block::permutation(r, e.as_ref().ok()?).ok())
        })
    });
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
    let shown = |v: f32| {
        if v == 0.0 {
            "0".to_string()
        } else {
            number::significant(v, 3)
        }
    };
    let ffn = move || check.with(|c| c.as_ref().map(|c| c.ffn));
    let attention = move || check.with(|c| c.as_ref().map(|c| c.attention));
    view! {
        <section class="block-section">
        <h3 class="section-title">{text(msg::block::BLOCK_PERMUTATION_HEADING)}</h3>
        <p class="explain-lead">{text(msg::block::BLOCK_PERMUTATION_LEAD)}</p>
        <div class="block-permutation" data-testid="block-permutation">
            <p>{text(msg::block::BLOCK_PERMUTATION_ORDER)}" "<span class="block-order" translate="no" data-testid="block-order">{order}</span></p>
            <p>{text(msg::block::BLOCK_PERMUTATION_FFN)}" "
                <span class="formula" translate="no">"max |FFN(P·X) − P·FFN(X)| = "</span>
                <output class="block-number" data-testid="block-perm-ffn"
                    data-value=move || ffn().map(|v| v.to_string())>{move || ffn().map(shown)}</output>
            </p>
            <p>{text(msg::block::BLOCK_PERMUTATION_ATTENTION)}" "
                <span class="formula" translate="no">"max |Attn(X′) − P·Attn(X)| = "</span>
                <output class="block-number" data-testid="block-perm-attention"
                    data-value=move || attention().map(|v| v.to_string())>{move || attention().map(shown)}</output>
            </p>
            {move || check.with(|c| c.as_ref().is_some_and(|c| c.no_positions)).then(|| view! {
                <p class="explain-lead" data-testid="block-no-positions">{text(msg::block::BLOCK_PERMUTATION_NO_POSITIONS)}</p>
            })}
        </div>
        </section>
    }
}
