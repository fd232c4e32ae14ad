use attnlab_i18n::msg;
use attnlab_lab::state::{group_members, kv_cache_bytes};
use leptos::prelude::*;

use crate::i18n::{text, use_lang};

/// Which query heads share each key/value head of a variant with `groups` groups, as
/// chips coloured by group, and the keys and values a decoder caches per token for
/// multi-head, this variant and multi-query attention.
#[component]
pub fn GroupsFigure(
    /// The model's heads.
    #[prop(into)]
    heads: Signal<usize>,
    /// The head width `d_k`.
    #[prop(into)]
    d_k: Signal<usize>,
    /// The variant's key/value groups.
    #[prop(into)]
    groups: Signal<usize>,
) -> impl IntoView {
    let lang = use_lang();
    let rows = move || {
        let lang = lang.get();
        group_members(heads.get(), groups.get())
            .into_iter()
            .enumerate()
            .map(|(g, members)| {
                let chips = members
                    .iter()
                    .map(|h| {
                        let label = msg::lab::KvShareHead { head: h }.say(lang);
                        view! { <span class="kv-chip" data-group=(g % 8).to_string() translate="no">{label}</span> }
                    })
                    .collect_view();
                let group = msg::lab::KvShareGroup { group: &g }.say(lang);
                view! {
                    <li data-testid="kv-group" data-heads=members.len().to_string()>
                        {chips}<span class="kv-arrow" aria-hidden="true">" → "</span>
                        <span class="kv-chip kv-shared" data-group=(g % 8).to_string()>{group}</span>
                    </li>
                }
            })
            .collect_view()
    };
    let cache = move || {
        let (h, g, d) = (heads.get(), groups.get(), d_k.get());
        msg::lab::KvCachePerToken {
            mha: &kv_cache_bytes(h, d),
            own: &kv_cache_bytes(g, d),
            mqa: &kv_cache_bytes(1, d),
            saving: &(h / g.max(1)),
        }
        .say(lang.get())
    };
    view! {
        <figure class="kv-groups" data-testid="kv-groups-figure">
            <figcaption class="field-label">{text(msg::lab::KV_SHARE_TITLE)}</figcaption>
            <ul class="kv-list">{rows}</ul>
            <p class="hint" data-testid="kv-cache">{cache}</p>
        </figure>
    }
}
