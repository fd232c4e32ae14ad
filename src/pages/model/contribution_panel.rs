use attnlab_lab::contribution::PAPER_URL;
use leptos::prelude::*;

use crate::canvas::{ChartLegend, LineChartCanvas};
use crate::i18n::{Lang, t, use_lang};
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
        ..
    } = figures;
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
            place=Signal::derive(move || match lang.get() {
                Lang::En => format!("layer {} \u{b7} ", layer_head.get().0),
                Lang::Zh => format!("第 {} 层 \u{b7} ", layer_head.get().0),
            })/>
        <section class="panel shares" aria-label=t("Weight against contribution on the special tokens", "特殊词元上的权重与贡献") data-testid="shares">
            <h2 class="section-title">{t(
                "Does a large weight matter? Weight against contribution, layer by layer",
                "大权重重要吗？逐层对比权重与贡献",
            )}</h2>
            <p class="hint">
                {t(
                    "For each layer, the share of all attention weight (every head, every query) that lands on the special tokens, \
                     and the share of the summed contributions \u{2016}\u{3b1}_ij f(x_j)\u{2016}. A large share of weight with a small share \
                     of contribution means the heads park their weight where it adds little. ",
                    "对每一层，落在特殊词元上的注意力权重（所有头、所有查询）占全部权重的份额，\
                     以及贡献 \u{2016}\u{3b1}_ij f(x_j)\u{2016} 之和中落在它们上的份额。权重份额大而贡献份额小，\
                     说明这些头把权重停放在了几乎不起作用的地方。",
                )}
                <a href=PAPER_URL target="_blank" rel="noopener">{t("Kobayashi et al. 2020", "Kobayashi 等，2020")}</a>
            </p>
            <LineChartCanvas chart=chart testid="share-chart" legend=ChartLegend::Below class="line-chart-canvas"/>
            <table class="share-table" data-testid="share-table">
                <thead><tr>
                    <th scope="col">{t("layer", "层")}</th>
                    <th scope="col">{t("weight", "权重")}</th>
                    <th scope="col">{t("contribution", "贡献")}</th>
                </tr></thead>
                <tbody>{table}</tbody>
            </table>
        </section>
    }
}
