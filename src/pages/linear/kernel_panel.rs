use attnlab_core::attention::AttentionKind;
use attnlab_lab::Tokens;
use attnlab_pages::linear::{
    KernelComparison, comparison_figures, kernel_comparison, spectrum_chart,
};
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

use super::{ProblemMemo, from_problem};
use crate::canvas::{ChartLegend, HeatmapCanvas, LineChartCanvas, Pointing};
use crate::i18n::{Lang, t};
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
                    <tr><th scope="row">{match l {
                            Lang::En => format!("rank of φ(Q)φ(K)ᵀ ({kind})"),
                            Lang::Zh => format!("φ(Q)φ(K)ᵀ 的秩（{kind}）"),
                        }}</th>
                        <td data-testid="rank-linear" data-value=s.linear_rank.to_string()>{s.linear_rank}</td></tr>
                    <tr><th scope="row">{l.pick("φ width (the bound)", "φ 的宽度（上界）")}</th>
                        <td data-testid="phi-width" data-value=c.phi_width.to_string()>{c.phi_width}</td></tr>
                    <tr><th scope="row">{l.pick("rank of exp(QKᵀ/√d_k) (softmax)", "exp(QKᵀ/√d_k) 的秩（softmax）")}</th>
                        <td data-testid="rank-softmax" data-value=s.softmax_rank.to_string()>{s.softmax_rank}</td></tr>
                    <tr><th scope="row">{l.pick("largest possible rank, min(n, m)", "可能的最大秩 min(n, m)")}</th>
                        <td data-testid="rank-full" data-value=s.softmax.len().to_string()>{s.softmax.len()}</td></tr>
                }
            });
            let one_key = (cols == 1).then(|| view! {
                <p class="why is-shown" data-testid="one-token-note">
                    {l.pick(
                        "With one key every row gives it weight 1, in softmax and in linear attention alike, \
                         and there is one singular value: type a longer sentence to see them differ.",
                        "只有一个键时，无论 softmax 还是线性注意力，每一行都给它权重 1，\
                         并且只有一个奇异值：输入更长的句子才能看到二者的不同。",
                    )}
                </p>
            });
            Some(view! {
                <table class="metrics" data-testid="linear-metrics">
                    <tbody>
                        <tr><th scope="row">{match l {
                            Lang::En => format!("max |{kind} − softmax|"),
                            Lang::Zh => format!("|{kind} − softmax| 的最大值"),
                        }}</th>
                            <td data-testid="lin-max-abs" data-value=m.max_abs.to_string()>{number::readable(m.max_abs)}</td></tr>
                        <tr><th scope="row">{match l {
                            Lang::En => format!("mean |{kind} − softmax| ({n}×{cols} cells)"),
                            Lang::Zh => format!("|{kind} − softmax| 的平均值（{n}×{cols} 个单元格）"),
                        }}</th>
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
            aria-label=t("Softmax against linear attention", "softmax 与线性注意力对比")>
            <h3 class="section-title">{move || match lang.get() {
                Lang::En => format!("Softmax against {} on the same Q, K", kind.get().name()),
                Lang::Zh => format!("同样的 Q、K 上 softmax 与 {} 的对比", kind.get().name()),
            }}</h3>
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
