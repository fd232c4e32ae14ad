use attnlab_i18n::msg;
use leptos::prelude::*;

use crate::i18n::{text, use_lang};
use crate::state::{LabFields, ViewFields, use_app_state};

/// A select of the heads, bound to the shared `head` (clamped to the head count).
#[component]
pub fn HeadPicker(
    /// The element id (the label points at it).
    #[prop(into)]
    id: String,
) -> impl IntoView {
    let state = use_app_state();
    let count = move || state.derived.used_model.with(|m| m.heads);
    let lang = use_lang();
    view! {
        <label class="view-picker">
            <span>{text(msg::shell::PICKER_HEAD)}</span>
            <select id=id data-testid="pick-head"
                on:change=move |ev| {
                    if let Ok(h) = event_target_value(&ev).parse::<usize>() {
                        state.lab.view().head().set(h);
                    }
                }>
                {move || (0..count()).map(|h| view! {
                    <option value=h.to_string() selected=move || state.shown_head() == h>{move || msg::shell::PickerHeadOption { head: &h }.say(lang.get())}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
