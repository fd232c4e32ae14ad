use attnlab_pages::scaling::{self, ScalingStudy, SentenceValues};
use leptos::prelude::*;

use crate::canvas::LineChartCanvas;
use crate::i18n::t;
use crate::state::use_app_state;

/// The spread of the logits and the mean row entropy against d_k (log x), without and
/// with scaling, the sentence's values marked.
#[component]
pub fn ScalingCharts(
    /// The experiment.
    study: Memo<ScalingStudy>,
    /// The sentence's values.
    sentence: Memo<Option<SentenceValues>>,
) -> impl IntoView {
    let lang = use_app_state().lang;
    let spread = Signal::derive(move || {
        let lang = lang.get();
        Some(study.with(|s| sentence.with(|v| scaling::spread_chart(s, v.as_ref(), lang))))
    });
    let entropy = Signal::derive(move || {
        let lang = lang.get();
        Some(study.with(|s| sentence.with(|v| scaling::entropy_chart(s, v.as_ref(), lang))))
    });
    view! {
        <div class="scaling-charts" data-testid="scaling-charts">
            <figure class="explain-figure">
                <figcaption>{t(
                    "Without scaling the spread grows as \u{221a}d_k; with it, it stays at 1.",
                    "不缩放时离散程度按 \u{221a}d_k 增长；缩放后保持在 1。",
                )}</figcaption>
                <LineChartCanvas chart=spread testid="scaling-spread-chart" class="line-canvas"/>
            </figure>
            <figure class="explain-figure">
                <figcaption>{t(
                    "Without scaling the softmax collapses onto one key (entropy \u{2192} 0); with it, the rows stay soft.",
                    "不缩放时 softmax 塌缩到一个键上（熵 \u{2192} 0）；缩放后各行保持平缓。",
                )}</figcaption>
                <LineChartCanvas chart=entropy testid="scaling-entropy-chart" class="line-canvas"/>
            </figure>
        </div>
    }
}
