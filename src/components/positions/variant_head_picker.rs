use leptos::prelude::*;

use crate::state::use_app_state;

/// Pickers for the variant and the head an explanatory view shows, bound to the lab's
/// own selection (`selected_variant`, `head`), so the choice is shared with the lab and
/// the link. The head is clamped to the model's head count.
#[component]
pub fn VariantHeadPicker() -> impl IntoView {
    let state = use_app_state();
    let names = move || {
        state.variants.with(|vs| {
            vs.iter()
                .map(|s| s.variant.with(|v| v.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let selected = move || {
        let last = state.variants.with(Vec::len).saturating_sub(1);
        state.selected_variant.get().min(last)
    };
    let heads = move || state.model.with(|m| m.heads);
    view! {
        <div class="explain-picker" data-testid="explain-picker">
            <label class="knob-label">
                <span class="knob-name">"variant"</span>
                <select data-testid="explain-variant"
                    prop:value=move || selected().to_string()
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            state.selected_variant.set(i);
                        }
                    }>
                    {move || names().into_iter().enumerate().map(|(i, name)| view! {
                        <option value=i.to_string() selected=move || selected() == i>{name}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="knob-label">
                <span class="knob-name">"head"</span>
                <select data-testid="explain-head"
                    prop:value=move || state.shown_head().to_string()
                    on:change=move |ev| {
                        if let Ok(h) = event_target_value(&ev).parse::<usize>() {
                            state.head.set(h);
                        }
                    }>
                    {move || (0..heads()).map(|h| view! {
                        <option value=h.to_string() selected=move || state.shown_head() == h>{h}</option>
                    }).collect_view()}
                </select>
            </label>
        </div>
    }
}
