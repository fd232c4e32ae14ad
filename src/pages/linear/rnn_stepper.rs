use attnlab_core::attention::AttentionKind;
use attnlab_lab::Tokens;
use attnlab_pages::linear::{RnnTrace, rnn_trace, step_figures};
use attnlab_plot::{Heatmap, number};
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{ProblemMemo, from_problem};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{Lang, t};
use crate::state::use_app_state;

/// Causal linear attention as an RNN, one token at a time: the state `S_t`, `z_t`, the
/// output `o_t` read from it, and row `t` of the masked parallel form beside it with
/// their largest difference. Buttons, a slider and the arrow keys move `t`.
#[component]
pub fn RnnStepper(
    /// The selected variant's problem.
    problem: ProblemMemo,
    /// The head.
    #[prop(into)]
    head: Signal<usize>,
    /// The kernel kind.
    #[prop(into)]
    kind: Signal<AttentionKind>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let trace: Memo<Result<RnnTrace, String>> =
        from_problem(problem, move |p| rnn_trace(p, head.get(), kind.get()));
    let len = Memo::new(move |_| trace.with(|t| t.as_ref().map_or(0, RnnTrace::len)));
    let t_raw = RwSignal::new(0usize);
    let at = Memo::new(move |_| t_raw.get().min(len.get().saturating_sub(1)));
    let go = move |to: usize| {
        let last = len.get_untracked().saturating_sub(1);
        t_raw.set(to.min(last));
    };
    let step = Memo::new(move |_| trace.with(|tr| tr.as_ref().ok()?.step(at.get())));
    let figures = Memo::new(move |_| step.with(|s| step_figures(s.as_ref()?, lang.get()).ok()));
    let fig = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let error = move || trace.with(|t| t.as_ref().err().cloned());
    let on_key = move |ev: KeyboardEvent| {
        // The slider moves itself with the arrow keys.
        let on_input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some();
        if on_input {
            return;
        }
        let now = at.get_untracked();
        let to = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => now + 1,
            "ArrowLeft" | "ArrowUp" => now.saturating_sub(1),
            "Home" => 0,
            "End" => usize::MAX,
            _ => return,
        };
        ev.prevent_default();
        go(to);
    };
    // Words of the language, and the token and formulas as they are.
    let step_text = move || {
        let n = len.get();
        let l = lang.get();
        step.with(|s| {
            let s = s.as_ref()?;
            let labels = state.derived.tokens.with(Tokens::labels);
            let token = format!("\u{201c}{}\u{201d}", labels.get(s.t).cloned().unwrap_or_default());
            let t = s.t;
            let p = if t == 0 { "\u{2212}1 (= 0)".to_string() } else { (t - 1).to_string() };
            let update = format!(
                "S_{t} = S_{p} + \u{3c6}(k_{t}) v_{t}\u{1d40}, z_{t} = z_{p} + \u{3c6}(k_{t})"
            );
            let read = format!(
                "o_{t} = \u{3c6}(q_{t})\u{1d40} S_{t} / (\u{3c6}(q_{t})\u{1d40} z_{t} + \u{3b5})"
            );
            let kept = |text: String| view! { <span translate="no">{text}</span> };
            Some(match (s.absorbed, l) {
                (true, Lang::En) => view! {
                    {format!("t = {t} of {n}: absorb ")} {kept(token)} ": " {kept(update)}
                    "; then read " {kept(read)} "."
                }.into_any(),
                (false, Lang::En) => view! {
                    {format!("t = {t} of {n}: ")} {kept(token)}
                    " is padding: it is not absorbed, S and z stay as they were; then read " {kept(read)} "."
                }.into_any(),
                (true, Lang::Zh) => view! {
                    {format!("t = {t}（共 {n}）：吸收 ")} {kept(token)} "：" {kept(update)}
                    "；然后读出 " {kept(read)} "。"
                }.into_any(),
                (false, Lang::Zh) => view! {
                    {format!("t = {t}（共 {n}）：")} {kept(token)}
                    " 是填充：它不被吸收，S 和 z 保持不变；然后读出 " {kept(read)} "。"
                }.into_any(),
            })
        })
    };
    let diff = move || {
        let all = trace.with(|tr| tr.as_ref().ok().map(RnnTrace::max_abs_diff))?;
        step.with(|s| {
            let s = s.as_ref()?;
            Some(view! {
                <table class="metrics" data-testid="rnn-metrics">
                    <tbody>
                        <tr><th scope="row">{format!("max |o_{} − (ÂV)_{}|", s.t, s.t)}</th>
                            <td data-testid="rnn-diff" data-t=s.t.to_string() data-value=s.max_abs_diff.to_string()>{number::readable(s.max_abs_diff)}</td></tr>
                        <tr><th scope="row">{t("largest over every t", "所有 t 中的最大值")}</th>
                            <td data-testid="rnn-diff-all" data-value=all.to_string()>{number::readable(all)}</td></tr>
                        <tr><th scope="row">{t("state size (does not grow with t)", "状态大小（不随 t 增长）")}</th>
                            <td data-testid="rnn-state-size">{format!("{}×{} + {}", s.s.nrows(), s.s.ncols(), s.z.len())}</td></tr>
                    </tbody>
                </table>
            })
        })
    };
    let max = move || len.get().saturating_sub(1).to_string();
    let at_end = move || at.get() + 1 >= len.get();
    view! {
        <section class="panel linear-panel" data-testid="rnn-stepper"
            aria-label=t("Causal linear attention as an RNN", "作为 RNN 的因果线性注意力")
            on:keydown=on_key>
            <h3 class="section-title">{move || match lang.get() {
                Lang::En => format!("Causal {} attention as an RNN", kind.get().name()),
                Lang::Zh => format!("作为 RNN 的因果 {} 注意力", kind.get().name()),
            }}</h3>
            <p class="explain-lead">
                {t(
                    "With the causal mask, query t may only see keys 0…t. Linear attention then needs no matrix at all: \
                     keep two running sums, absorb one key and value per step, and read the output with φ(q_t). \
                     The output must equal row t of the masked parallel form ÂV. \
                     (The stepper uses the causal mask and padding; other masks are not part of the recurrence.)",
                    "有因果掩码时，查询 t 只能看到键 0…t。这时线性注意力完全不需要矩阵：\
                     保持两个累加和，每一步吸收一个键和一个值，再用 φ(q_t) 读出输出。\
                     输出必须等于带掩码的并行形式 ÂV 的第 t 行。\
                     （逐步演示使用因果掩码和填充掩码；其他掩码不属于这个递推。）",
                )}
            </p>
            {move || error().map(|e| view! { <p class="variant-error" role="status" data-testid="rnn-error">{e}</p> })}
            <Show when=move || len.get() != 0>
                <div class="rnn-controls" role="group" aria-label=t("Step", "步")>
                    <button type="button" data-testid="rnn-first" on:click=move |_| go(0)>{t("\u{ab} first", "\u{ab} 第一步")}</button>
                    <button type="button" data-testid="rnn-prev" disabled=move || at.get() == 0
                        on:click=move |_| go(at.get_untracked().saturating_sub(1))>{t("\u{25c0} previous", "\u{25c0} 上一步")}</button>
                    <label class="rnn-slider">"t "
                        <input type="range" min="0" max=max data-testid="rnn-t"
                            prop:value=move || at.get().to_string()
                            on:input=move |ev| {
                                if let Ok(v) = event_target_value(&ev).parse::<usize>() { go(v) }
                            }/>
                        <output data-testid="rnn-t-value">{move || at.get()}</output>
                    </label>
                    <button type="button" data-testid="rnn-next" disabled=at_end
                        on:click=move |_| go(at.get_untracked() + 1)>{t("next \u{25b6}", "下一步 \u{25b6}")}</button>
                    <button type="button" data-testid="rnn-last" on:click=move |_| go(usize::MAX)>{t("last \u{bb}", "最后一步 \u{bb}")}</button>
                </div>
                <p class="rnn-step" data-testid="rnn-step" tabindex="0" aria-live="polite">{step_text}</p>
                <div class="rnn-body">
                    <HeatmapCanvas figure=fig(0) testid="rnn-s" kind="matrix" class="matrix-state" pointing=Pointing::Nothing/>
                    {diff}
                </div>
                <div class="rnn-strips">
                    <HeatmapCanvas figure=fig(1) testid="rnn-z" kind="matrix" class="matrix-strip" pointing=Pointing::Nothing/>
                    <HeatmapCanvas figure=fig(2) testid="rnn-o" kind="matrix" class="matrix-strip" pointing=Pointing::Nothing/>
                    <HeatmapCanvas figure=fig(3) testid="rnn-parallel" kind="matrix" class="matrix-strip" pointing=Pointing::Nothing/>
                </div>
            </Show>
        </section>
    }
}
