use attnlab_i18n::msg;
use attnlab_lab::contribution::PAPER_URL;
use leptos::prelude::*;

use crate::canvas::{ChartLegend, HeatmapCanvas, LineChartCanvas, Pointing};
use crate::i18n::{text, use_lang};
use crate::neuron::NeuronPanel;
use crate::state::ModelFigures;

/// The neuron view of the picked cell of the selected head, and the per-layer shares of
/// weight and of contribution on the special tokens for the text.
#[component]
pub fn ContributionPanel(
    /// The cell the neuron view explains (indices of the whole text).
    picked: RwSignal<Option<(usize, usize)>>,
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let lang = use_lang();
    let ModelFigures {
        neuron,
        neuron_labels: labels,
        share_chart: chart,
        shares,
        layer_head,
        first_token,
        ..
    } = figures;
    let first_token: Signal<Option<attnlab_plot::Heatmap>> = first_token.into();
    let table = move || {
        shares
            .get()
            .into_iter()
            .map(|s| {
                view! {
                    <tr data-testid="share-row" data-weight=s.weight.to_string() data-contribution=s.contribution.to_string()>
                        <th scope="row">{s.layer}</th>
                        <td class="num">{format!("{:.1} %", 100.0 * s.weight)}</td>
                        <td class="num">{format!("{:.1} %", 100.0 * s.contribution)}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <NeuronPanel view=neuron labels=labels on_close=Callback::new(move |()| picked.set(None))
            place=Signal::derive(move || msg::model_page::ModelNeuronPlace { layer: &layer_head.get().0 }.say(lang.get()))/>
        <section class="panel shares" aria-label=text(msg::model_page::MODEL_SHARES_LABEL) data-testid="shares">
            <h2 class="section-title">{text(msg::model_page::MODEL_SHARES_TITLE)}</h2>
            <p class="hint">
                {text(msg::model_page::MODEL_SHARES_NOTE)}
                <a href=PAPER_URL target="_blank" rel="noopener">{move || msg::model_page::ModelSharesPaper { authors: &"Kobayashi" }.say(lang.get())}</a>
            </p>
            <LineChartCanvas chart=chart testid="share-chart" legend=ChartLegend::Below class="line-chart-canvas"/>
            <table class="share-table" data-testid="share-table">
                <thead><tr>
                    <th scope="col">{text(msg::model_page::MODEL_TABLE_LAYER)}</th>
                    <th scope="col">{text(msg::model_page::MODEL_SHARES_WEIGHT)}</th>
                    <th scope="col">{text(msg::model_page::MODEL_SHARES_CONTRIBUTION)}</th>
                </tr></thead>
                <tbody>{table}</tbody>
            </table>
        </section>
        <section class="panel first-token" aria-label=text(msg::model_page::MODEL_FIRST_TOKEN_LABEL) data-testid="model-first-token">
            <h2 class="section-title">{text(msg::model_page::MODEL_FIRST_TOKEN_TITLE)}</h2>
            <p class="hint">{text(msg::model_page::MODEL_FIRST_TOKEN_HINT)}</p>
            <HeatmapCanvas figure=first_token pointing=Pointing::Reading
                testid="model-first-token-heatmap" kind="first-token"/>
        </section>
    }
}
