use attnlab_i18n::msg;
use attnlab_lab::compute;
use attnlab_lab::tokens::Tokens;
use attnlab_pages::neuron;
use leptos::prelude::*;

use crate::i18n::text;
use crate::neuron::NeuronPanel;
use crate::state::use_app_state;

/// The neuron view of the walked-through query and a key picked here: the score of that
/// one cell term by term, beside the stages.
#[component]
pub fn StepsNeuron(
    /// The query token shown by the stages.
    #[prop(into)]
    query: Signal<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let key = RwSignal::new(None::<usize>);
    let labels = Memo::new(move |_| {
        let queries = state.derived.tokens.with(Tokens::labels);
        let keys = state
            .shown_slot()
            .map(|s| {
                s.variant
                    .with(|v| state.derived.key_tokens.with(|t| compute::key_labels(t, v)))
            })
            .unwrap_or_default();
        (queries, keys)
    });
    let view = Memo::new(move |_| {
        let j = key.get()?;
        let (i, head) = (query.get(), state.shown_head());
        let slot = state.shown_slot()?;
        Some(slot.memos.problem.with(|p| {
            let p = p.as_ref().map_err(attnlab_lab::explain::explain)?;
            neuron::neuron(p, head, i, j).map_err(|e| e.to_string())
        }))
    });
    let options = move || {
        labels.with(|(_, keys)| {
            keys.iter()
                .enumerate()
                .map(|(j, k)| view! { <option value=j.to_string() translate="no">{format!("{j} \u{b7} {k}")}</option> })
                .collect_view()
        })
    };
    view! {
        <div class="knobs steps-neuron">
            <label class="knob">{text(msg::steps::STEPS_NEURON_KEY)}
                <select data-testid="steps-neuron-key"
                    prop:value=move || key.get().map_or(String::new(), |j| j.to_string())
                    on:change=move |ev| key.set(event_target_value(&ev).parse().ok())>
                    <option value="">{text(msg::steps::STEPS_NEURON_PICK_KEY)}</option>
                    {options}
                </select>
            </label>
            <span class="hint">{text(msg::steps::STEPS_NEURON_HINT)}</span>
        </div>
        <NeuronPanel view=view labels=labels on_close=Callback::new(move |()| key.set(None))/>
    }
}
