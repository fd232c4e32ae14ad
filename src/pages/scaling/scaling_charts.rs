use attnlab_lab::pages::scaling::{self, ScalingStudy, SentenceValues};
use leptos::prelude::*;

use crate::canvas::LineChartCanvas;

/// The spread of the logits and the mean row entropy against d_k (log x), without and
/// with scaling, the sentence's values marked.
#[component]
pub fn ScalingCharts(
    /// The experiment.
    study: Memo<ScalingStudy>,
    /// The sentence's values.
    sentence: Memo<Option<SentenceValues>>,
) -> impl IntoView {
    let spread = Signal::derive(move || {
        Some(study.with(|s| sentence.with(|v| scaling::spread_chart(s, v.as_ref()))))
    });
    let entropy = Signal::derive(move || {
        Some(study.with(|s| sentence.with(|v| scaling::entropy_chart(s, v.as_ref()))))
    });
    view! {
        <div class="scaling-charts" data-testid="scaling-charts">
            <figure class="explain-figure">
                <figcaption>"Without scaling the spread grows as \u{221a}d_k; with it, it stays at 1."</figcaption>
                <LineChartCanvas chart=spread testid="scaling-spread-chart" class="line-canvas"/>
            </figure>
            <figure class="explain-figure">
                <figcaption>"Without scaling the softmax collapses onto one key (entropy \u{2192} 0); with it, the rows stay soft."</figcaption>
                <LineChartCanvas chart=entropy testid="scaling-entropy-chart" class="line-canvas"/>
            </figure>
        </div>
    }
}
