use attnlab_core::attention::AttentionKind;
use attnlab_lab::linear_lab::KERNEL_KINDS;
use leptos::prelude::*;

use crate::state::use_app_state;

/// The choices of the linear-attention page: the variant (shared with the lab and the
/// link), its head (shared) and the kernel kind compared with softmax (this page's own).
#[component]
pub fn LinearPickers(
    /// The kernel kind compared with softmax.
    #[prop(into)]
    kind: Signal<AttentionKind>,
    /// Called with the kernel kind picked.
    on_kind: Callback<AttentionKind>,
) -> impl IntoView {
    let state = use_app_state();
    let variants = move || {
        state.variants.with(|s| {
            s.iter()
                .enumerate()
                .map(|(i, slot)| {
                    let label = slot.variant.with(|v| {
                        format!("{} \u{b7} {}", v.name, state.model.with(|m| v.describe(m)))
                    });
                    let selected = move || state.selected_variant.get() == i;
                    view! { <option value=i.to_string() selected=selected>{label}</option> }
                })
                .collect_view()
        })
    };
    let heads = move || {
        let count = state.model.with(|m| m.heads);
        (0..count)
            .map(|h| {
                let selected = move || state.shown_head() == h;
                view! { <option value=h.to_string() selected=selected>{format!("head {h}")}</option> }
            })
            .collect_view()
    };
    let kinds = move || {
        KERNEL_KINDS
            .into_iter()
            .map(|k| {
                let selected = move || kind.get() == k;
                view! { <option value=k.name() selected=selected>{format!("{} (φ)", k.name())}</option> }
            })
            .collect_view()
    };
    view! {
        <div class="linear-pickers" data-testid="linear-pickers">
            <label>"Variant "
                <select data-testid="linear-variant" on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        state.selected_variant.set(i);
                    }
                }>{variants}</select>
            </label>
            <label>"Head "
                <select data-testid="linear-head" on:change=move |ev| {
                    if let Ok(h) = event_target_value(&ev).parse::<usize>() {
                        state.head.set(h);
                    }
                }>{heads}</select>
            </label>
            <label>"Linear attention to compare "
                <select data-testid="linear-kind" on:change=move |ev| {
                    if let Some(k) = AttentionKind::parse(&event_target_value(&ev)) {
                        on_kind.run(k);
                    }
                }>{kinds}</select>
            </label>
        </div>
    }
}
