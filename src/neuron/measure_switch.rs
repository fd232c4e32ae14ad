use attnlab_lab::contribution::{Measure, PAPER_NOTE, PAPER_URL};
use leptos::prelude::*;

/// The "weight | contribution" switch over a view's heatmaps, and, while contributions
/// are shown, what they are (`note`: where `f(x_j)` comes from) and what the paper found.
#[component]
pub fn MeasureSwitch(
    /// What the heatmaps show.
    measure: RwSignal<Measure>,
    /// What `f(x_j)` is here.
    note: &'static str,
) -> impl IntoView {
    let buttons = Measure::ALL
        .into_iter()
        .map(|m| {
            view! {
                <button type="button" data-testid=format!("measure-{}", m.name())
                    aria-pressed=move || (measure.get() == m).to_string()
                    class:is-on=move || measure.get() == m
                    on:click=move |_| measure.set(m)>{m.label()}</button>
            }
        })
        .collect_view();
    view! {
        <div class="measure-switch" data-testid="measure-switch" role="group" aria-label="What the heatmaps show">
            <span class="measure-label">"Show"</span>
            {buttons}
        </div>
        <Show when=move || measure.get() == Measure::Contribution>
            <p class="measure-note" data-testid="measure-note">
                {PAPER_NOTE} " " {note} " "
                <a href=PAPER_URL target="_blank" rel="noopener">"The paper (ACL Anthology)"</a>
            </p>
        </Show>
    }
}
