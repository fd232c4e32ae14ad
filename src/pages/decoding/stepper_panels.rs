use attnlab_i18n::msg::decoding as m;
use attnlab_pages::decoding::grouped;
use attnlab_pages::decoding::stepper::{self, EQUAL_WITHIN, Stepper};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::LineChartCanvas;
use crate::i18n::text;

/// The stepper's run: the stack decoded with its cache and the parallel pass, or the
/// sentence saying why there is none.
pub type StepperMemo = Memo<Result<Stepper, String>>;

/// The work of step `t` with the cache against recomputing the prefix: the query–key
/// cells and the multiply–adds, each with its formula and numbers, what is counted, the
/// sums over steps `0 … t`, and the chart of both sums against the step.
#[component]
pub fn WorkPanel(
    /// The stepper's run.
    run: StepperMemo,
    /// The step shown.
    #[prop(into)]
    t: Signal<usize>,
) -> impl IntoView {
    let lang = crate::state::use_app_state().lang;
    let work = Memo::new(move |_| {
        let t = t.get();
        run.with(|r| {
            let s = r.as_ref().ok()?;
            Some((
                stepper::work(s, t),
                stepper::work_formulas(s, t),
                stepper::cumulative(s, t),
            ))
        })
    });
    let row = move |what: &'static str| {
        move || {
            work.with(|w| {
                let (w, f, _) = w.as_ref()?;
                let (name, cached, recomputed, fc, fr) = match what {
                    "cells" => (
                        m::DECODING_STEPPER_WORK_CELLS,
                        w.cells_cached,
                        w.cells_recomputed,
                        f[0].clone(),
                        f[1].clone(),
                    ),
                    _ => (
                        m::DECODING_STEPPER_WORK_MACS,
                        w.macs_cached,
                        w.macs_recomputed,
                        f[2].clone(),
                        f[3].clone(),
                    ),
                };
                Some(view! {
                    <tr data-testid=format!("decoding-stepper-work-{what}")
                        data-cached=cached.to_string() data-recomputed=recomputed.to_string()>
                        <th scope="row">{text(name)}</th>
                        <td><strong class="block-number">{grouped(cached)}</strong>
                            <span class="kv-formula" translate="no">{fc}</span></td>
                        <td><strong class="block-number">{grouped(recomputed)}</strong>
                            <span class="kv-formula" translate="no">{fr}</span></td>
                    </tr>
                })
            })
        }
    };
    let total = move || {
        let l = lang.get();
        work.with(|w| {
            let (_, _, (cached, recomputed)) = w.as_ref()?;
            let ratio = number::significant(*recomputed as f64 / (*cached).max(1) as f64, 3);
            Some(
                m::DecodingStepperWorkTotal {
                    t: &t.get(),
                    cached: &grouped(*cached),
                    recomputed: &grouped(*recomputed),
                    ratio: &ratio,
                }
                .say(l),
            )
        })
    };
    let chart = Signal::derive(move || {
        let (t, l) = (t.get(), lang.get());
        run.with(|r| Some(stepper::work_chart(r.as_ref().ok()?, t, l)))
    });
    view! {
        <div class="stepper-work" data-testid="decoding-stepper-work">
            <h4 class="section-title">{text(m::DECODING_STEPPER_WORK_HEADING)}</h4>
            <table class="metrics stepper-work-table">
                <thead>
                    <tr>
                        <th scope="col">{text(m::DECODING_STEPPER_WORK_WHAT)}</th>
                        <th scope="col">{text(m::DECODING_STEPPER_WORK_CACHED)}</th>
                        <th scope="col">{text(m::DECODING_STEPPER_WORK_RECOMPUTED)}</th>
                    </tr>
                </thead>
                <tbody>
                    {row("cells")}
                    {row("macs")}
                </tbody>
            </table>
            <p class="stepper-note" data-testid="decoding-stepper-work-counted">{text(m::DECODING_STEPPER_WORK_COUNTED)}</p>
            <p class="stepper-size" data-testid="decoding-stepper-work-total">{total}</p>
            <LineChartCanvas chart=chart testid="decoding-stepper-work-chart" class="kv-chart"/>
        </div>
    }
}

/// At the last step, the largest difference between the decoded and the parallel masked
/// pass over the final output and over every weight, with the verdict; before, a line
/// saying it comes at the last step.
#[component]
pub fn EqualityPanel(
    /// The stepper's run.
    run: StepperMemo,
    /// The step shown.
    #[prop(into)]
    t: Signal<usize>,
) -> impl IntoView {
    let lang = crate::state::use_app_state().lang;
    let len = move || run.with(|r| r.as_ref().map_or(0, |s| s.len()));
    let last = move || len().saturating_sub(1);
    let equality = Memo::new(move |_| run.with(|r| r.as_ref().ok().map(|s| s.equality())));
    let at_last = move || len() != 0 && t.get() == last();
    let later = move || m::DecodingStepperEqualityLater { last: &last() }.say(lang.get());
    view! {
        <div class="stepper-equality" data-testid="decoding-stepper-equality"
            data-shown=move || at_last().to_string()>
            <h4 class="section-title">{text(m::DECODING_STEPPER_EQUALITY_HEADING)}</h4>
            <Show when=at_last fallback=move || view! {
                <p class="stepper-note" data-testid="decoding-stepper-equality-later">{later}</p>
            }>
                {move || equality.get().map(|e| {
                    let bound = number::readable(e.bound);
                    view! {
                        <table class="metrics">
                            <tbody>
                                <tr><th scope="row"><span translate="no">"max |Δ|"</span>" "{text(m::DECODING_STEPPER_EQUALITY_OUTPUT)}</th>
                                    <td data-testid="decoding-stepper-diff-output" data-value=e.output.to_string()>{number::readable(e.output)}</td></tr>
                                <tr><th scope="row"><span translate="no">"max |Δ|"</span>" "{text(m::DECODING_STEPPER_EQUALITY_WEIGHTS)}</th>
                                    <td data-testid="decoding-stepper-diff-weights" data-value=e.weights.to_string()>{number::readable(e.weights)}</td></tr>
                            </tbody>
                        </table>
                        <p class="stepper-verdict" data-testid="decoding-stepper-verdict" data-equal=e.equal().to_string()
                            data-within=EQUAL_WITHIN.to_string()>
                            <strong>{move || match e.equal() {
                                true => m::DECODING_STEPPER_EQUAL.get(lang.get()),
                                false => m::DECODING_STEPPER_NOT_EQUAL.get(lang.get()),
                            }}</strong>
                        </p>
                        <p class="stepper-note" data-testid="decoding-stepper-bound">
                            {move || m::DecodingStepperEqualityBound { bound: &bound }.say(lang.get())}
                        </p>
                    }
                })}
            </Show>
        </div>
    }
}
