use attnlab_core::attention::AttentionKind;
use attnlab_i18n::msg;
use attnlab_lab::Tokens;
use attnlab_pages::linear::{
    DEFAULT_GAMMA, Decay, DecayedTrace, RnnTrace, decayed_figures, decayed_step_figures,
    decayed_trace, previous, rnn_trace, step_figures,
};
use attnlab_plot::{Heatmap, number};
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{DecayKnob, DecayMode, ProblemMemo, from_problem};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::text;
use crate::state::use_app_state;
use crate::widgets::step_keys::step_for_key;

/// Causal linear attention as an RNN, one token at a time: the state `S_t`, `z_t`, the
/// output `o_t` read from it, and row `t` of the masked parallel form beside it with
/// their largest difference. Buttons, a slider and the arrow keys move `t`.
///
/// With the decay on (a constant `γ` or a gate per token) it steps decayed linear
/// attention instead, `S_t = a_t S_{t−1} + k_t v_tᵀ` with no `φ` and no `z_t`, and shows
/// the masked parallel form beside it: `D`, the weights `D ⊙ QKᵀ/√d_k` (row `t`
/// outlined; a click on a row steps there) and the largest difference.
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
    // The stepper opens on the shown variant's own decay: a `decayed_linear` variant (a
    // link's or a lesson step's) turns it on at the variant's `γ`, any other kind leaves
    // it off. The knob changes it until the variant does.
    let variant_decay = Memo::new(move |_| {
        state.shown_slot().and_then(|s| {
            s.variant
                .with(|v| (v.attention == AttentionKind::DecayedLinear).then_some(v.decay))
        })
    });
    let opening = |decay: Option<f32>| match decay {
        Some(g) => (DecayMode::Constant, g),
        None => (DecayMode::Off, DEFAULT_GAMMA),
    };
    let (mode0, gamma0) = opening(variant_decay.get_untracked());
    let mode = RwSignal::new(mode0);
    let gamma = RwSignal::new(gamma0);
    Effect::new(move |was: Option<Option<f32>>| {
        let decay = variant_decay.get();
        if was.is_some_and(|was| was != decay) {
            let (m, g) = opening(decay);
            gamma.set(g);
            mode.set(m);
        }
        decay
    });
    let decay_on = Memo::new(move |_| mode.get() != DecayMode::Off);
    let seed = Memo::new(move |_| state.derived.used_model.with(|m| m.seed));
    // The kernel stepper while the decay is off, the decayed one while it is on.
    let trace: Memo<Result<Option<RnnTrace>, String>> =
        from_problem(problem, move |p| match decay_on.get() {
            true => Ok(None),
            false => rnn_trace(p, head.get(), kind.get()).map(Some),
        });
    let decayed: Memo<Result<Option<DecayedTrace>, String>> = from_problem(problem, move |p| {
        let decay = match mode.get() {
            DecayMode::Off => return Ok(None),
            DecayMode::Constant => Decay::Constant(gamma.get()),
            DecayMode::Gates => Decay::Gates,
        };
        decayed_trace(p, head.get(), decay, seed.get()).map(Some)
    });
    let len = Memo::new(move |_| {
        let kernel = trace.with(|t| t.as_ref().ok().flatten().map(RnnTrace::len));
        let decay = decayed.with(|t| t.as_ref().ok().flatten().map(DecayedTrace::len));
        kernel.or(decay).unwrap_or(0)
    });
    let t_raw = RwSignal::new(0usize);
    let at = Memo::new(move |_| t_raw.get().min(len.get().saturating_sub(1)));
    let go = move |to: usize| {
        let last = len.get_untracked().saturating_sub(1);
        t_raw.set(to.min(last));
    };
    let step = Memo::new(move |_| trace.with(|tr| tr.as_ref().ok()?.as_ref()?.step(at.get())));
    let figures = Memo::new(move |_| step.with(|s| step_figures(s.as_ref()?, lang.get()).ok()));
    let fig = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let d_step = Memo::new(move |_| decayed.with(|tr| tr.as_ref().ok()?.as_ref()?.step(at.get())));
    let d_figures = Memo::new(move |_| {
        let labels = state.derived.tokens.with(Tokens::labels);
        let l = lang.get();
        decayed.with(|tr| {
            let tr = tr.as_ref().ok()?.as_ref()?;
            d_step.with(|s| decayed_step_figures(tr, s.as_ref()?, &labels, l).ok())
        })
    });
    let d_fig = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || d_figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let parallel_figures = Memo::new(move |_| {
        let labels = state.derived.tokens.with(Tokens::labels);
        let l = lang.get();
        decayed.with(|tr| decayed_figures(tr.as_ref().ok()?.as_ref()?, &labels, l).ok())
    });
    let p_fig = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || parallel_figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let outlined = Signal::derive(move || (len.get() != 0).then(|| at.get()));
    let pick_row = Callback::new(move |t: usize| go(t));
    let error = move || {
        trace
            .with(|t| t.as_ref().err().cloned())
            .or_else(|| decayed.with(|t| t.as_ref().err().cloned()))
    };
    let on_key = move |ev: KeyboardEvent| {
        // The sliders and radios move themselves with the arrow keys, and a figure whose
        // rows pick the step has moved it already.
        if ev.default_prevented() {
            return;
        }
        let on_input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some();
        if on_input {
            return;
        }
        let now = at.get_untracked();
        let Some(to) = step_for_key(&ev.key(), now) else {
            return;
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
        let all = trace.with(|tr| Some(tr.as_ref().ok()?.as_ref()?.max_abs_diff()))?;
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
    // The decayed step: its sentence with the update and the read kept as they are.
    let d_step_text = move || {
        let n = len.get();
        let l = lang.get();
        d_step.with(|s| {
            let s = s.as_ref()?;
            let labels = state.derived.tokens.with(Tokens::labels);
            let token = format!(
                "\u{201c}{}\u{201d}",
                labels.get(s.t).cloned().unwrap_or_default()
            );
            let t = s.t;
            let gate = format!("{:.2}", s.gate);
            let p = previous(t);
            let start = if t == 0 { ", S_\u{2212}1 = 0" } else { "" };
            let update = match s.absorbed {
                true => format!("S_{t} = {gate}\u{b7}S_{p} + k_{t} v_{t}\u{1d40}{start}"),
                false => format!("S_{t} = {gate}\u{b7}S_{p}{start}"),
            };
            let read = format!("o_{t} = S_{t}\u{1d40} q_{t} / \u{221a}d_k");
            let said = match s.absorbed {
                true => msg::linear::LinearDecayStep {
                    t: &t,
                    n: &n,
                    token: &MARK[0],
                    gate: &gate,
                    update: &MARK[1],
                    read: &MARK[2],
                }
                .say(l),
                false => msg::linear::LinearDecayStepPadding {
                    t: &t,
                    n: &n,
                    token: &MARK[0],
                    update: &MARK[1],
                    read: &MARK[2],
                }
                .say(l),
            };
            let kept = [token, update, read];
            Some(with_marked(&said, |i| {
                let text = kept[i].clone();
                let id = ["rnn-token", "rnn-update", "rnn-read"][i];
                view! { <span translate="no" data-testid=id>{text}</span> }.into_any()
            }))
        })
    };
    let d_diff = move || {
        let all = decayed.with(|tr| Some(tr.as_ref().ok()?.as_ref()?.max_abs_diff()))?;
        d_step.with(|s| {
            let s = s.as_ref()?;
            Some(view! {
                <table class="metrics" data-testid="rnn-metrics">
                    <tbody>
                        <tr><th scope="row">{format!("max |o_{} − (WV)_{}|", s.t, s.t)}</th>
                            <td data-testid="rnn-diff" data-t=s.t.to_string() data-value=s.max_abs_diff.to_string()>{number::readable(s.max_abs_diff)}</td></tr>
                        <tr><th scope="row">{text(msg::linear::LINEAR_DECAY_LARGEST)}</th>
                            <td data-testid="rnn-diff-all" data-value=all.to_string()>{number::readable(all)}</td></tr>
                        <tr><th scope="row">{text(msg::linear::LINEAR_DECAY_GATE_ROW)}</th>
                            <td data-testid="rnn-gate" data-value=s.gate.to_string()>{format!("{:.4}", s.gate)}</td></tr>
                        <tr><th scope="row">{text(msg::linear::LINEAR_RNN_STATE_SIZE)}</th>
                            <td data-testid="rnn-state-size">{format!("{}×{}", s.s.nrows(), s.s.ncols())}</td></tr>
                    </tbody>
                </table>
            })
        })
    };
    let largest = move || {
        let all = decayed.with(|tr| Some(tr.as_ref().ok()?.as_ref()?.max_abs_diff()))?;
        Some(view! {
            <p class="rank-statement" data-testid="decay-diff-all" data-value=all.to_string()>
                {text(msg::linear::LINEAR_DECAY_LARGEST)}{": "}<strong>{number::readable(all)}</strong>
            </p>
        })
    };
    let lead = move || {
        let l = lang.get();
        match mode.get() {
            DecayMode::Off => msg::linear::LINEAR_RNN_LEAD.get(l),
            DecayMode::Constant => msg::linear::LINEAR_DECAY_LEAD_CONSTANT.get(l),
            DecayMode::Gates => msg::linear::LINEAR_DECAY_LEAD_GATES.get(l),
        }
    };
    let title = move || {
        let l = lang.get();
        match decay_on.get() {
            true => msg::linear::LINEAR_DECAY_RNN_TITLE.get(l).to_string(),
            false => msg::linear::LinearRnnTitle {
                kind: &kind.get().name(),
            }
            .say(l),
        }
    };
    let max = move || len.get().saturating_sub(1).to_string();
    let at_end = move || at.get() + 1 >= len.get();
    view! {
        <section class="panel linear-panel" data-testid="rnn-stepper"
            aria-label=text(msg::linear::LINEAR_RNN_LABEL)
            data-decay=move || mode.get().name()
            on:keydown=on_key>
            <h3 class="section-title">{title}</h3>
            <DecayKnob mode=mode gamma=gamma/>
            <p class="explain-lead" data-testid="rnn-lead">{lead}</p>
            <Show when=move || decay_on.get()>
                <p class="explain-lead decay-note" data-testid="rnn-no-normaliser">{text(msg::linear::LINEAR_DECAY_NO_NORMALISER)}</p>
            </Show>
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
                <Show when=move || !decay_on.get() fallback=move || view! {
                    <p class="rnn-step" data-testid="rnn-step" tabindex="0" aria-live="polite">{d_step_text}</p>
                    <div class="rnn-body">
                        <HeatmapCanvas figure=d_fig(0) testid="rnn-s" kind="matrix" class="matrix-state" pointing=Pointing::Nothing/>
                        {d_diff}
                    </div>
                    <div class="rnn-strips">
                        <HeatmapCanvas figure=d_fig(1) testid="rnn-gates" kind="matrix" class="matrix-strip" pointing=Pointing::Nothing/>
                        <HeatmapCanvas figure=d_fig(2) testid="rnn-o" kind="matrix" class="matrix-strip" pointing=Pointing::Nothing/>
                        <HeatmapCanvas figure=d_fig(3) testid="rnn-parallel" kind="matrix" class="matrix-strip" pointing=Pointing::Nothing/>
                    </div>
                    <div class="decay-parallel" data-testid="decay-parallel" role="group"
                        aria-label=text(msg::linear::LINEAR_DECAY_PARALLEL_LABEL)>
                        <h4 class="section-title">{text(msg::linear::LINEAR_DECAY_PARALLEL_TITLE)}</h4>
                        <p class="explain-lead">{text(msg::linear::LINEAR_DECAY_PARALLEL_LEAD)}</p>
                        <div class="linear-quad">
                            <div class="linear-cell"><HeatmapCanvas figure=p_fig(0) testid="decay-d" kind="decay-d" class="matrix-square"
                                pointing=Pointing::Rows { row: outlined, on_row: pick_row }/></div>
                            <div class="linear-cell"><HeatmapCanvas figure=p_fig(1) testid="decay-w" kind="decay-w" class="matrix-square"
                                pointing=Pointing::Rows { row: outlined, on_row: pick_row }/></div>
                        </div>
                        {largest}
                    </div>
                }>
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
            </Show>
        </section>
    }
}
