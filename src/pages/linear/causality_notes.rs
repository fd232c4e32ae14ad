use attnlab_core::attention::AttentionKind;
use attnlab_i18n::msg;
use attnlab_pages::linear::{can_be_causal, causality};
use leptos::prelude::*;

use crate::i18n::{text, use_lang};

/// For every attention kind, whether it can be made causal and why (not); the
/// selected variant's kind is marked.
#[component]
pub fn CausalityNotes(
    /// The selected variant's kind.
    #[prop(into)]
    selected: Signal<AttentionKind>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <section class="panel linear-panel" data-testid="causality"
            aria-label=text(msg::linear::LINEAR_CAUSALITY_LABEL)>
            <h3 class="section-title">{text(msg::linear::LINEAR_CAUSALITY_TITLE)}</h3>
            <ul class="causality-list">
                {AttentionKind::ALL
                    .into_iter()
                    .map(|k| {
                        let can = can_be_causal(k);
                        view! {
                            <li data-testid=format!("causality-{}", k.name())
                                class:cannot=!can
                                class:is-selected=move || selected.get() == k
                                data-causal=can.to_string()>
                                {move || causality(k, lang.get())}
                                {move || (selected.get() == k).then(|| msg::linear::LINEAR_SELECTED_VARIANT.get(lang.get()))}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
