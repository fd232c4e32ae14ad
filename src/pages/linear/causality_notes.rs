use attnlab_core::attention::AttentionKind;
use attnlab_lab::pages::linear_lab::causality;
use leptos::prelude::*;

/// For every attention kind, whether it can be made causal and why (not); the
/// selected variant's kind is marked.
#[component]
pub fn CausalityNotes(
    /// The selected variant's kind.
    #[prop(into)]
    selected: Signal<AttentionKind>,
) -> impl IntoView {
    view! {
        <section class="panel linear-panel" data-testid="causality" aria-label="Which variants can be causal">
            <h3 class="section-title">"Which variants can be made causal"</h3>
            <ul class="causality-list">
                {AttentionKind::ALL
                    .into_iter()
                    .map(|k| {
                        let text = causality(k);
                        let can = !text.contains("cannot");
                        view! {
                            <li data-testid=format!("causality-{}", k.name())
                                class:cannot=!can
                                class:is-selected=move || selected.get() == k
                                data-causal=can.to_string()>
                                {text}
                                {move || (selected.get() == k).then_some(" \u{2190} the selected variant")}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
