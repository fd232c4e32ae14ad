use attnlab_core::attention::AttentionKind;
use attnlab_i18n::msg;
use attnlab_lab::Tokens;
use attnlab_pages::linear::{
    KernelComparison, comparison_figures, kernel_comparison, spectrum_chart,
};
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

use super::{ProblemMemo, from_problem};
use crate::canvas::{ChartLegend, HeatmapCanvas, LineChartCanvas, Pointing};
use crate::i18n::text;
use crate::state::use_app_state;

/// Softmax against the chosen kernel variant on the selected head: both matrices, their
/// difference with max/mean |Δ|, and the singular values and ranks of both
/// un-normalised similarity matrices.
#[component]
pub fn KernelPanel(
    /// The selected variant's problem.
    problem: ProblemMemo,
    /// The head.
    #[prop(into)]
    head: Signal<usize>,
    /// The kernel kind compared with softmax.
    #[prop(into)]
    kind: Signal<AttentionKind>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let cmp: Memo<Result<KernelComparison, String>> = from_problem(problem, move |p| {
        kernel_comparison(p, head.get(), kind.get())
    });
    let figures = Memo::new(move |_| {
        cmp.with(|c| {
            let c = c.as_ref().ok()?;
            let rows = state.derived.tokens.with(Tokens::labels);
            let cols = state.derived.key_tokens.with(Tokens::labels);
            comparison_figures(c, &rows, &cols, lang.get()).ok()
        })
    });
    let fig = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let chart = Signal::derive(move || {
        let lang = lang.get();
        cmp.with(|c| c.as_ref().ok().and_then(|c| spectrum_chart(c, lang)))
    });
    let error = move || cmp.with(|c| c.as_ref().err().cloned());
    let numbers = move || {
        cmp.with(|c| {
            let c = c.as_ref().ok()?;
            let l = lang.get();
            let m = c.metrics;
            let kind = c.kind.name();
            let (n, cols) = c.linear.weights.dim();
            let spectra = c.spectra.as_ref().map(|s| {
                view! {
                    <tr><th scope="row">{msg::linear::LinearRankLinearRow { kind: &kind }.say(l)}</th>
                        <td data-testid="rank-linear" data-value=s.linear_rank.to_string()>{s.linear_rank}</td></tr>
                    <tr><th scope="row">{msg::linear::LINEAR_PHI_WIDTH_ROW.get(l)}</th>
                        <td data-testid="phi-width" data-value=c.phi_width.to_string()>{c.phi_width}</td></tr>
                    <tr><th scope="row">{msg::linear::LINEAR_RANK_SOFTMAX_ROW.get(l)}</th>
                        <td data-testid="rank-softmax" data-value=s.softmax_rank.to_string()>{s.softmax_rank}</td></tr>
                    <tr><th scope="row">{msg::linear::LINEAR_RANK_FULL_ROW.get(l)}</th>
                        <td data-testid="rank-full" data-value=s.softmax.len().to_string()>{s.softmax.len()}</td></tr>
                }
            });
            let one_key = (cols == 1).then(|| view! {
                <p class="why is-shown" data-testid="one-token-note">
                    {msg::linear::LINEAR_ONE_KEY_NOTE.get(l)}
                </p>
            });
            Some(view! {
                <table class="metrics" data-testid="linear-metrics">
                    <tbody>
                        <tr><th scope="row">{msg::linear::LinearMaxAbsRow { kind: &kind }.say(l)}</th>
                            <td data-testid="lin-max-abs" data-value=m.max_abs.to_string()>{number::readable(m.max_abs)}</td></tr>
                        <tr><th scope="row">{msg::linear::LinearMeanAbsRow { kind: &kind, n: &n, cols: &cols }.say(l)}</th>
                            <td data-testid="lin-mean-abs" data-value=m.mean_abs.to_string()>{number::readable(m.mean_abs)}</td></tr>
                        <tr><th scope="row">"d_k"</th><td data-testid="d-k">{c.d_k}</td></tr>
                        {spectra}
                    </tbody>
                </table>
                {one_key}
                <p class="rank-statement" data-testid="rank-statement">{c.rank_statement(l)}</p>
            })
        })
    };
    view! {
        <section class="panel linear-panel" data-testid="kernel-panel"
            aria-label=text(msg::linear::LINEAR_KERNEL_LABEL)>
            <h3 class="section-title">{move || msg::linear::LinearKernelTitle { kind: &kind.get().name() }.say(lang.get())}</h3>
            {move || error().map(|e| view! { <p class="variant-error" role="status" data-testid="linear-error">{e}</p> })}
            <div class="linear-quad">
                <div class="linear-cell"><HeatmapCanvas figure=fig(0) testid="lin-softmax" kind="matrix" class="matrix-square" pointing=Pointing::Nothing/></div>
                <div class="linear-cell"><HeatmapCanvas figure=fig(1) testid="lin-implied" kind="matrix" class="matrix-square" pointing=Pointing::Nothing/></div>
                <div class="linear-cell"><HeatmapCanvas figure=fig(2) testid="lin-difference" kind="matrix" class="matrix-square" pointing=Pointing::Nothing/></div>
                <div class="linear-numbers">{numbers}</div>
            </div>
            <LineChartCanvas chart=chart testid="spectrum-chart" legend=ChartLegend::Below class="line-chart-canvas"/>
        </section>
    }
}
