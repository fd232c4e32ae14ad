use attnlab_pages::lines::head_colour;
use leptos::prelude::*;

use attnlab_i18n::msg;

use crate::i18n::text;
use crate::state::use_app_state;

/// One checkbox per head, each with its line colour: which heads draw their lines.
#[component]
pub fn HeadToggles(
    /// The heads ticked, ascending.
    shown: RwSignal<Vec<usize>>,
) -> impl IntoView {
    let state = use_app_state();
    let count = move || state.derived.used_model.with(|m| m.heads);
    view! {
        <fieldset class="head-toggles" data-testid="head-toggles">
            <legend>{text(msg::lines::LINES_HEADS_LEGEND)}</legend>
            {move || (0..count()).map(|h| {
                let (r, g, b) = head_colour(h);
                let swatch = format!("background: rgb({r}, {g}, {b});");
                view! {
                    <label class="head-toggle">
                        <input type="checkbox" data-testid="head-toggle" data-head=h.to_string()
                            prop:checked=move || shown.with(|s| s.contains(&h))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                shown.update(|s| {
                                    s.retain(|&x| x != h);
                                    if on {
                                        s.push(h);
                                        s.sort_unstable();
                                    }
                                });
                            }/>
                        <span class="head-swatch" style=swatch aria-hidden="true"></span>
                        {move || msg::lines::LinesHead { head: &h }.say(state.lang.get())}
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
}
