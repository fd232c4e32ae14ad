use attnlab_i18n::{Tr, msg};
use attnlab_lab::contribution::{Measure, PAPER_NOTE, PAPER_URL};
use leptos::prelude::*;

use crate::i18n::{text, use_lang};

/// The "weight | contribution" switch over a view's heatmaps, and, while contributions
/// are shown, what they are (`note`: where `f(x_j)` comes from) and what the paper found.
#[component]
pub fn MeasureSwitch(
    /// What the heatmaps show.
    measure: RwSignal<Measure>,
    /// What `f(x_j)` is here.
    note: Tr,
) -> impl IntoView {
    let lang = use_lang();
    let buttons = Measure::ALL
        .into_iter()
        .map(|m| {
            view! {
                <button type="button" data-testid=format!("measure-{}", m.name())
                    aria-pressed=move || (measure.get() == m).to_string()
                    class:is-on=move || measure.get() == m
                    on:click=move |_| measure.set(m)>{move || m.label(lang.get())}</button>
            }
        })
        .collect_view();
    view! {
        <div class="measure-switch" data-testid="measure-switch" role="group" aria-label=text(msg::neuron::NEURON_MEASURE_LABEL)>
            <span class="measure-label">{text(msg::neuron::NEURON_MEASURE_SHOW)}</span>
            {buttons}
        </div>
        <Show when=move || measure.get() == Measure::Contribution>
            <p class="measure-note" data-testid="measure-note">
                {move || PAPER_NOTE.get(lang.get())} " " {move || note.get(lang.get())} " "
                <a href=PAPER_URL target="_blank" rel="noopener">{text(msg::neuron::NEURON_PAPER_LINK)}</a>
            </p>
        </Show>
    }
}
