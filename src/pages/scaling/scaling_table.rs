use attnlab_i18n::msg;
use attnlab_pages::scaling::{ScalingStudy, SentenceValues};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::text;
use crate::state::use_app_state;

/// The experiment's numbers, one row per d_k, and the sentence's own row.
#[component]
pub fn ScalingTable(
    /// The experiment.
    study: Memo<ScalingStudy>,
    /// The selected head's values on the sentence, if it could be computed.
    sentence: Memo<Option<SentenceValues>>,
) -> impl IntoView {
    let state = use_app_state();
    let cell = |testid: String, v: f32, digits: usize| {
        view! { <td data-testid=testid data-value=v.to_string()>{number::decimals(v, digits)}</td> }
    };
    view! {
        <table class="scaling-table" tabindex="0" data-testid="scaling-table">
            <caption>{text(msg::scaling::SCALING_TABLE_CAPTION)}</caption>
            <thead>
                <tr>
                    <th scope="col">"d_k"</th>
                    <th scope="col">"\u{221a}d_k"</th>
                    <th scope="col">{text(msg::scaling::SCALING_STD_UNSCALED)}</th>
                    <th scope="col">{text(msg::scaling::SCALING_STD_SCALED)}</th>
                    <th scope="col">{text(msg::scaling::SCALING_ENTROPY_UNSCALED)}</th>
                    <th scope="col">{text(msg::scaling::SCALING_ENTROPY_SCALED)}</th>
                    <th scope="col">{text(msg::scaling::SCALING_MAX_WEIGHT_UNSCALED)}</th>
                    <th scope="col">{text(msg::scaling::SCALING_MAX_WEIGHT_SCALED)}</th>
                </tr>
            </thead>
            <tbody>
                {move || study.get().points.into_iter().map(|p| {
                    let d = p.d_k;
                    view! {
                        <tr data-testid=format!("scaling-row-{d}")>
                            <th scope="row">{d}</th>
                            <td>{number::decimals((d as f32).sqrt(), 2)}</td>
                            {cell(format!("std-unscaled-{d}"), p.logit_std_unscaled, 2)}
                            {cell(format!("std-scaled-{d}"), p.logit_std_scaled, 3)}
                            {cell(format!("entropy-unscaled-{d}"), p.entropy_unscaled, 3)}
                            {cell(format!("entropy-scaled-{d}"), p.entropy_scaled, 3)}
                            {cell(format!("maxw-unscaled-{d}"), p.max_weight_unscaled, 3)}
                            {cell(format!("maxw-scaled-{d}"), p.max_weight_scaled, 3)}
                        </tr>
                    }
                }).collect_view()}
                {move || match sentence.get() {
                    Some(s) => view! {
                        <tr class="sentence-row" data-testid="sentence-row">
                            <th scope="row" data-testid="sentence-d-k" data-value=s.d_k.to_string()>
                                {msg::scaling::ScalingSentenceRow { d_k: &s.d_k, head: &state.shown_head() }.say(state.lang.get())}
                            </th>
                            <td>{number::decimals((s.d_k as f32).sqrt(), 2)}</td>
                            {cell("sentence-std-unscaled".into(), s.std_unscaled, 2)}
                            {cell("sentence-std-scaled".into(), s.std_scaled, 3)}
                            {cell("sentence-entropy-unscaled".into(), s.entropy_unscaled, 3)}
                            {cell("sentence-entropy-scaled".into(), s.entropy_scaled, 3)}
                            {cell("sentence-maxw-unscaled".into(), s.max_weight_unscaled, 3)}
                            {cell("sentence-maxw-scaled".into(), s.max_weight_scaled, 3)}
                        </tr>
                    }.into_any(),
                    None => view! {
                        <tr class="sentence-row" data-testid="sentence-row">
                            <td colspan="8">{text(msg::scaling::SCALING_SENTENCE_PENDING)}</td>
                        </tr>
                    }.into_any(),
                }}
            </tbody>
        </table>
    }
}
