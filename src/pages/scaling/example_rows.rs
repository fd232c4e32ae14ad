use attnlab_pages::scaling::{self, D_KS, ScalingStudy};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::{Lang, t, tr};
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
        let label = match lang.get() {
            Lang::En => format!("weights {values}"),
            Lang::Zh => format!("权重 {values}"),
        };
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
            <h3 class="figure-title">{t(
                "One row of weights: the same random logits, without and with scaling",
                "一行权重：同样的随机分数，不缩放与缩放",
            )}</h3>
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
                        <p class="example-caption">{tr(lang.get(), "softmax(q\u{b7}k): largest weight ", "softmax(q\u{b7}k)：最大权重 ")}
                            <strong data-testid="example-max-unscaled" data-value=mu.to_string()>{number::decimals(mu, 2)}</strong>
                            {if mu > 0.9 { tr(lang.get(), " \u{2014} nearly one-hot", " \u{2014} 近乎独热") } else { "" }}</p>
                        {bars(r.unscaled.clone(), "example-unscaled")}
                    </div>
                    <div class="example-row">
                        <p class="example-caption">{tr(lang.get(), "softmax(q\u{b7}k/\u{221a}d_k): largest weight ", "softmax(q\u{b7}k/\u{221a}d_k)：最大权重 ")}
                            <strong data-testid="example-max-scaled" data-value=ms.to_string()>{number::decimals(ms, 2)}</strong></p>
                        {bars(r.scaled, "example-scaled")}
                    </div>
                }
            }}
        </div>
    }
}
