use attnlab_core::attention::AttentionKind;
use attnlab_i18n::msg;
use attnlab_pages::linear::KERNEL_KINDS;
use leptos::prelude::*;

use crate::i18n::text;
use crate::widgets::view_pickers::{HeadPicker, VariantPicker};

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
    let kinds = move || {
        KERNEL_KINDS
            .into_iter()
            .map(|k| {
                let selected = move || kind.get() == k;
                view! { <option value=k.name() selected=selected translate="no">{format!("{} (φ)", k.name())}</option> }
            })
            .collect_view()
    };
    view! {
        <div class="linear-pickers" data-testid="linear-pickers">
            <VariantPicker id="linear-variant"/>
            <HeadPicker id="linear-head"/>
            <label class="view-picker"><span>{text(msg::linear::LINEAR_KIND_PICKER)}</span>
                <select data-testid="linear-kind" on:change=move |ev| {
                    if let Some(k) = AttentionKind::parse(&event_target_value(&ev)) {
                        on_kind.run(k);
                    }
                }>{kinds}</select>
            </label>
        </div>
    }
}
