use attnlab_i18n::msg;
use attnlab_pages::linear::{FAVOR_DRAWS, FavorError, favor_chart, favor_error};
use attnlab_plot::number;
use leptos::prelude::*;

use super::{ProblemMemo, from_problem};
use crate::canvas::{ChartLegend, LineChartCanvas};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};

/// FAVOR+ against softmax on the selected head: the error of the implied matrix against
/// the number of random features, averaged over draws, with the `1/√r` rate, and the
/// numbers as a table.
#[component]
pub fn FavorPanel(
    /// The selected variant's problem.
    problem: ProblemMemo,
    /// The head.
    #[prop(into)]
    head: Signal<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let errors: Memo<Result<Vec<FavorError>, String>> = from_problem(problem, move |p| {
        let seed = state.lab.model().with(|m| m.seed);
        favor_error(p, head.get(), seed)
    });
    let chart = Signal::derive(move || {
        errors.with(|e| e.as_ref().ok().and_then(|e| favor_chart(e, lang.get())))
    });
    let error = move || errors.with(|e| e.as_ref().err().cloned());
    let rows = move || {
        errors.with(|e| {
            e.as_ref()
                .map(|e| {
                    e.iter()
                        .map(|e| {
                            view! {
                                <tr data-testid="favor-row" data-features=e.features.to_string()
                                    data-mean=e.mean_abs.to_string()>
                                    <th scope="row">{e.features}</th>
                                    <td class="num">{number::significant(e.mean_abs, 3)}</td>
                                    <td class="num">{number::significant(e.max_abs, 3)}</td>
                                </tr>
                            }
                        })
                        .collect_view()
                })
                .ok()
        })
    };
    view! {
        <section class="panel linear-panel" data-testid="favor-panel" aria-label=text(msg::linear::FAVOR_PANEL_LABEL)>
            <h3 class="section-title">{text(msg::linear::FAVOR_PANEL_TITLE)}</h3>
            <p class="explain-lead">
                {move || msg::linear::FavorPanelHint { draws: &FAVOR_DRAWS }.say(lang.get())}
            </p>
            {move || error().map(|e| view! { <p class="variant-error" role="status">{e}</p> })}
            <LineChartCanvas chart=chart testid="favor-chart" legend=ChartLegend::Below class="line-chart-canvas"/>
            <table class="share-table" data-testid="favor-table">
                <thead><tr>
                    <th scope="col">{text(msg::linear::FAVOR_ERROR_FEATURES)}</th>
                    <th scope="col">{text(msg::linear::FAVOR_ERROR_MEAN)}</th>
                    <th scope="col">{text(msg::linear::FAVOR_ERROR_MAX)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}
