use attnlab_i18n::msg;
use attnlab_pages::scaling::{self, D_KS, ScalingStudy};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::text;
use crate::state::use_app_state;

/// One query's softmax over the keys, as two rows of bars: without scaling (nearly
/// one-hot at large d_k) and with `1/√d_k` (spread out).
#[component]
pub fn ExampleRows(
    /// The experiment (its number of keys and seed).
    study: Memo<ScalingStudy>,
) -> impl IntoView {
    let lang = use_app_state().lang;
    let d_k = RwSignal::new(512usize);
    let row = Memo::new(move |_| study.with(|s| scaling::example_row(d_k.get(), s.keys, s.seed)));
    let bars = move |weights: Vec<f32>, testid: &'static str| {
        let values = weights
            .iter()
            .map(|w| number::decimals(*w, 2))
            .collect::<Vec<_>>()
            .join(", ");
        let label = msg::scaling::ScalingWeightsLabel { values: &values }.say(lang.get());
        view! {
            <div class="weight-bars" data-testid=testid role="img" aria-label=label>
                {weights.into_iter().map(|w| view! {
                    <span class="weight-bar" title=number::decimals(w, 3)>
                        <span class="weight-fill" style=format!("height: {:.1}%", (w * 100.0).clamp(0.0, 100.0))></span>
                    </span>
                }).collect_view()}
            </div>
        }
    };
    view! {
        <div class="explain-figure example-rows" data-testid="example-rows">
            <h3 class="figure-title">{text(msg::scaling::SCALING_EXAMPLE_TITLE)}</h3>
            <label class="knob-label">
                <span class="knob-name">"d_k"</span>
                <select data-testid="example-d-k" on:change=move |ev| {
                    if let Ok(d) = event_target_value(&ev).parse::<usize>() { d_k.set(d); }
                }>
                    {D_KS.iter().map(|&d| view! { <option value=d.to_string() selected=move || d_k.get() == d>{d}</option> }).collect_view()}
                </select>
            </label>
            {move || {
                let r = row.get();
                let (mu, ms) = (r.max_unscaled(), r.max_scaled());
                view! {
                    <div class="example-row">
                        <p class="example-caption">{msg::scaling::SCALING_EXAMPLE_UNSCALED.get(lang.get())}
                            <strong data-testid="example-max-unscaled" data-value=mu.to_string()>{number::decimals(mu, 2)}</strong>
                            {if mu > 0.9 { msg::scaling::SCALING_EXAMPLE_ONE_HOT.get(lang.get()) } else { "" }}</p>
                        {bars(r.unscaled.clone(), "example-unscaled")}
                    </div>
                    <div class="example-row">
                        <p class="example-caption">{msg::scaling::SCALING_EXAMPLE_SCALED.get(lang.get())}
                            <strong data-testid="example-max-scaled" data-value=ms.to_string()>{number::decimals(ms, 2)}</strong></p>
                        {bars(r.scaled, "example-scaled")}
                    </div>
                }
            }}
        </div>
    }
}
