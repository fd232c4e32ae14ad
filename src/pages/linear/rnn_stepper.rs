use attnlab_core::attention::AttentionKind;
use attnlab_i18n::msg;
use attnlab_lab::Tokens;
use attnlab_pages::linear::{RnnTrace, rnn_trace, step_figures};
use attnlab_plot::{Heatmap, number};
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{ProblemMemo, from_problem};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::text;
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
    let step_text =
        move || {
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
            let said = if s.absorbed {
                msg::linear::LinearRnnAbsorb {
                    t: &t,
                    n: &n,
                    token: &MARK[0],
                    update: &MARK[1],
                    read: &MARK[2],
                }
                .say(l)
            } else {
                msg::linear::LinearRnnPadding {
                    t: &t,
                    n: &n,
                    token: &MARK[0],
                    read: &MARK[2],
                }
                .say(l)
            };
            // The token and the formulas are kept as they are.
            let kept = [token, update, read];
            Some(with_marked(&said, |i| {
                let text = kept[i].clone();
                view! { <span translate="no">{text}</span> }.into_any()
            }))
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
                        <tr><th scope="row">{text(msg::linear::LINEAR_RNN_LARGEST)}</th>
                            <td data-testid="rnn-diff-all" data-value=all.to_string()>{number::readable(all)}</td></tr>
                        <tr><th scope="row">{text(msg::linear::LINEAR_RNN_STATE_SIZE)}</th>
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
            aria-label=text(msg::linear::LINEAR_RNN_LABEL)
            on:keydown=on_key>
            <h3 class="section-title">{move || msg::linear::LinearRnnTitle { kind: &kind.get().name() }.say(lang.get())}</h3>
            <p class="explain-lead">
                {text(msg::linear::LINEAR_RNN_LEAD)}
            </p>
            {move || error().map(|e| view! { <p class="variant-error" role="status" data-testid="rnn-error">{e}</p> })}
            <Show when=move || len.get() != 0>
                <div class="rnn-controls" role="group" aria-label=text(msg::linear::LINEAR_RNN_STEP_LABEL)>
                    <button type="button" data-testid="rnn-first" on:click=move |_| go(0)>{text(msg::linear::LINEAR_RNN_FIRST)}</button>
                    <button type="button" data-testid="rnn-prev" disabled=move || at.get() == 0
                        on:click=move |_| go(at.get_untracked().saturating_sub(1))>{text(msg::linear::LINEAR_RNN_PREVIOUS)}</button>
                    <label class="rnn-slider">"t "
                        <input type="range" min="0" max=max data-testid="rnn-t"
                            prop:value=move || at.get().to_string()
                            on:input=move |ev| {
                                if let Ok(v) = event_target_value(&ev).parse::<usize>() { go(v) }
                            }/>
                        <output data-testid="rnn-t-value">{move || at.get()}</output>
                    </label>
                    <button type="button" data-testid="rnn-next" disabled=at_end
                        on:click=move |_| go(at.get_untracked() + 1)>{text(msg::linear::LINEAR_RNN_NEXT)}</button>
                    <button type="button" data-testid="rnn-last" on:click=move |_| go(usize::MAX)>{text(msg::linear::LINEAR_RNN_LAST)}</button>
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
