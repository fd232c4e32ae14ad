use attnlab_i18n::msg;
use attnlab_pages::scaling::{self, ScalingStudy, SentenceValues};
use leptos::prelude::*;

use crate::canvas::LineChartCanvas;
use crate::i18n::text;
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
                <figcaption>{text(msg::scaling::SCALING_SPREAD_CAPTION)}</figcaption>
                <LineChartCanvas chart=spread testid="scaling-spread-chart" class="line-canvas"/>
            </figure>
            <figure class="explain-figure">
                <figcaption>{text(msg::scaling::SCALING_ENTROPY_CAPTION)}</figcaption>
                <LineChartCanvas chart=entropy testid="scaling-entropy-chart" class="line-canvas"/>
            </figure>
        </div>
    }
}
