use attnlab_i18n::msg;
use leptos::prelude::*;

use crate::i18n::text;
use crate::state::{LabFields, ViewFields, use_app_state};

/// A select of the variants by name, bound to the shared `selected_variant` (so the
/// choice is the lab's and the link's).
#[component]
pub fn VariantPicker(
    /// The element id (the label points at it).
    #[prop(into)]
    id: String,
) -> impl IntoView {
    let state = use_app_state();
    let names = move || {
        state.derived.variants.with(|vs| {
            vs.iter()
                .map(|s| s.variant.with(|v| v.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let shown = move || state.derived.shown_variant.get();
    view! {
        <label class="view-picker">
            <span>{text(msg::shell::PICKER_VARIANT)}</span>
            <select id=id data-testid="pick-variant"
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        state.lab.view().variant().set(i);
                    }
                }>
                {move || names().into_iter().enumerate().map(|(i, name)| view! {
                    <option value=i.to_string() selected=move || shown() == i translate="no">{name}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
