use attnlab_i18n::msg::decoding as m;
use attnlab_lab::{Mode, Page};
use attnlab_pages::decoding::stepper::{self, StepAt, Stepper};
use attnlab_plot::Heatmap;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::stepper_panels::{EqualityPanel, StepperMemo, WorkPanel};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::text;
use crate::pages::block::{source_memo, with_block_input};
use crate::state::{LabFields, ViewFields, use_app_state};
use crate::widgets::step_keys::step_for_key;

/// "Decoding step by step": the Block page's stack (causal self-attention in every
/// layer) decoded one position at a time with its KV cache. The step, the layer and the
/// head are the link's (`View::decode_step`); buttons, a slider, the arrow keys and a
/// click on a row move the step. For the step shown: the layer and head's weights filling
/// row by row, its cache (row `t` appended, outlined), the cache's size, the step's work
/// against recomputing, and at the last step the equality with the parallel pass.
#[component]
pub fn DecoderStepper() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let cross = Memo::new(move |_| state.lab.mode().get() == Mode::Cross);
    let source = source_memo(state);
    let run: StepperMemo =
        Memo::new(move |_| with_block_input(state, source, lang.get(), stepper::stepper));
    let chosen = state.lab.view().decode_step();
    let len = Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, Stepper::len)));
    let at = Memo::new(move |_| {
        let c = chosen.get();
        run.with(|r| {
            r.as_ref()
                .ok()
                .map(|s| StepAt::within(s, c.step, c.layer, c.head))
        })
    });
    let t = Memo::new(move |_| at.get().map_or(0, |a| a.t));
    let set = move |f: &dyn Fn(&mut attnlab_lab::state::DecodeStepView)| {
        let mut c = chosen.get_untracked();
        f(&mut c);
        if c != chosen.get_untracked() {
            chosen.set(c);
        }
    };
    let go = move |to: usize| {
        let last = len.get_untracked().saturating_sub(1);
        set(&|c| c.step = to.min(last));
    };
    let on_key = move |ev: KeyboardEvent| {
        // The slider and the selects move themselves, and a figure whose rows pick the
        // step has moved it already.
        if ev.default_prevented() {
            return;
        }
        let on_control = ev.target().is_some_and(|t| {
            t.dyn_ref::<web_sys::HtmlInputElement>().is_some()
                || t.dyn_ref::<web_sys::HtmlSelectElement>().is_some()
        });
        if on_control {
            return;
        }
        let now = t.get_untracked();
        let Some(to) = step_for_key(&ev.key(), now) else {
            return;
        };
        ev.prevent_default();
        go(to);
    };

    let error = move || run.with(|r| r.as_ref().err().cloned());
    let sizes = move || {
        run.with(|r| {
            let u = r.as_ref().ok()?.used();
            Some(
                m::DecodingStepperSettings {
                    layers: &u.layers,
                    d: &u.d,
                    heads: &u.heads,
                    d_k: &(u.d / u.heads.max(1)),
                    f: &u.ffn_width,
                    n: &u.tokens.0,
                }
                .say(lang.get()),
            )
        })
    };
    let limited = move || {
        run.with(|r| {
            let u = r.as_ref().ok()?.used();
            u.limited().then(|| {
                m::DecodingStepperLimited {
                    used: &u.tokens.0,
                    all: &u.tokens.1.max(u.source_tokens.map_or(0, |s| s.1)),
                    layers: &u.layers,
                    d: &u.d,
                }
                .say(lang.get())
            })
        })
    };
    let step_text = move || {
        let a = at.get()?;
        let l = lang.get();
        let token = run.with(|r| {
            let s = r.as_ref().ok()?;
            s.prepared.queries.get(a.t).cloned()
        })?;
        let said = m::DecodingStepperStep {
            t: &a.t,
            last: &len.get().saturating_sub(1),
            token: &MARK[0],
            rows: &(a.t + 1),
        }
        .say(l);
        let token = format!("\u{201c}{token}\u{201d}");
        Some(with_marked(&said, move |_| {
            let token = token.clone();
            view! { <span translate="no" data-testid="decoding-stepper-token">{token}</span> }
                .into_any()
        }))
    };
    // A figure of the step shown, rebuilt when the step, the layer, the head, the run or
    // the language changes.
    let figure = move |f: fn(&Stepper, StepAt, attnlab_i18n::Lang) -> Option<Heatmap>| {
        Signal::derive(move || {
            let a = at.get()?;
            let l = lang.get();
            run.with(|r| f(r.as_ref().ok()?, a, l))
        })
    };
    let cache = Memo::new(move |_| {
        let a = at.get()?;
        let l = lang.get();
        run.with(|r| stepper::cache(r.as_ref().ok()?, a, l).ok())
    });
    let weights = figure(|s, a, l| stepper::weights(s, a, l).ok());
    let cross_weights = figure(|s, a, l| stepper::cross_weights(s, a, l)?.ok());
    let keys = Signal::derive(move || cache.with(|c| c.as_ref().map(|c| c.keys.clone())));
    let values = Signal::derive(move || cache.with(|c| c.as_ref().map(|c| c.values.clone())));
    let memory_keys =
        Signal::derive(move || cache.with(|c| c.as_ref()?.memory.as_ref().map(|m| m.0.clone())));
    let memory_values =
        Signal::derive(move || cache.with(|c| c.as_ref()?.memory.as_ref().map(|m| m.1.clone())));
    let outlined = Signal::derive(move || at.get().map(|a| a.t));
    let pick_row = Callback::new(move |r: usize| go(r));
    let size = move || {
        let a = at.get()?;
        let l = lang.get();
        run.with(|r| {
            let s = r.as_ref().ok()?;
            let c = s.cache_size(a.t);
            let (d, bytes) = (
                s.used().d,
                attnlab_pages::decoding::bytes_text(c.bytes as f64),
            );
            let memory = 2 * s.used().layers * s.memory_rows();
            let said = match memory {
                0 => m::DecodingStepperCacheSize {
                    t: &a.t,
                    entries: &c.entries,
                    d: &d,
                    bytes: &bytes,
                }
                .say(l),
                _ => m::DecodingStepperCacheSizeMemory {
                    t: &a.t,
                    entries: &c.entries,
                    d: &d,
                    memory: &memory,
                    bytes: &bytes,
                }
                .say(l),
            };
            Some((said, c.entries, c.bytes))
        })
    };
    let layers = move || run.with(|r| r.as_ref().map_or(0, |s| s.used().layers));
    let heads = move || run.with(|r| r.as_ref().map_or(0, |s| s.used().heads));
    let parse = |ev: &leptos::ev::Event| event_target_value(ev).parse::<usize>().ok();
    let max = move || len.get().saturating_sub(1).to_string();
    let at_end = move || t.get() + 1 >= len.get();
    let model_note = move || match cross.get() {
        true => m::DECODING_STEPPER_MODEL_CROSS.get(lang.get()),
        false => m::DECODING_STEPPER_MODEL_SELF.get(lang.get()),
    };

    view! {
        <section class="panel decoding-stepper" data-testid="decoding-stepper"
            aria-labelledby="decoding-stepper-title"
            data-mode=move || if cross.get() { "cross" } else { "self" }
            on:keydown=on_key>
            <h3 class="section-title" id="decoding-stepper-title">{text(m::DECODING_STEPPER_TITLE)}</h3>
            <p class="explain-lead" data-testid="decoding-stepper-lead">{text(m::DECODING_STEPPER_LEAD)}</p>
            <p class="explain-lead decay-note" data-testid="decoding-stepper-model">{model_note}</p>
            <p class="stepper-settings" data-testid="decoding-stepper-settings">
                {sizes}" "
                <button type="button" class="link-button" data-testid="decoding-stepper-to-block"
                    on:click=move |_| state.lab.view().page().set(Page::Block)>
                    {text(m::DECODING_STEPPER_TO_BLOCK)}
                </button>
            </p>
            {move || limited().map(|l| view! { <p class="notice block-notice" role="status" data-testid="decoding-stepper-limited">{l}</p> })}
            {move || error().map(|e| view! { <p class="notice block-notice" role="status" data-testid="decoding-stepper-error">{e}</p> })}
            <Show when=move || len.get() != 0>
                <div class="rnn-controls" role="group" aria-label=text(m::DECODING_STEPPER_CONTROLS_LABEL)>
                    <button type="button" data-testid="decoding-stepper-first" on:click=move |_| go(0)>{text(m::DECODING_STEPPER_FIRST)}</button>
                    <button type="button" data-testid="decoding-stepper-prev" disabled=move || t.get() == 0
                        on:click=move |_| go(t.get_untracked().saturating_sub(1))>{text(m::DECODING_STEPPER_PREVIOUS)}</button>
                    <label class="rnn-slider">"t "
                        <input type="range" min="0" max=max data-testid="decoding-stepper-t"
                            prop:value=move || t.get().to_string()
                            on:input=move |ev| if let Some(v) = parse(&ev) { go(v) }/>
                        <output data-testid="decoding-stepper-t-value">{move || t.get()}</output>
                    </label>
                    <button type="button" data-testid="decoding-stepper-next" disabled=at_end
                        on:click=move |_| go(t.get_untracked() + 1)>{text(m::DECODING_STEPPER_NEXT)}</button>
                    <button type="button" data-testid="decoding-stepper-last" on:click=move |_| go(usize::MAX)>{text(m::DECODING_STEPPER_LAST)}</button>
                    <label class="view-picker">
                        <span>{text(m::DECODING_STEPPER_LAYER)}</span>
                        <select data-testid="decoding-stepper-layer"
                            on:change=move |ev| if let Some(v) = parse(&ev) { set(&|c| c.layer = v) }>
                            {move || (0..layers()).map(|l| view! {
                                <option value=l.to_string() selected=move || at.get().is_some_and(|a| a.layer == l)>{l + 1}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="view-picker">
                        <span>{text(m::DECODING_STEPPER_HEAD)}</span>
                        <select data-testid="decoding-stepper-head"
                            on:change=move |ev| if let Some(v) = parse(&ev) { set(&|c| c.head = v) }>
                            {move || (0..heads()).map(|h| view! {
                                <option value=h.to_string() selected=move || at.get().is_some_and(|a| a.head == h)>{h + 1}</option>
                            }).collect_view()}
                        </select>
                    </label>
                </div>
                <p class="rnn-step" data-testid="decoding-stepper-step" tabindex="0" aria-live="polite"
                    data-t=move || t.get().to_string()>{step_text}</p>
                <div class="stepper-figures">
                    <figure class="stepper-figure">
                        <HeatmapCanvas figure=weights testid="decoding-stepper-weights" kind="stepper-weights"
                            class="matrix-square" pointing=Pointing::Rows { row: outlined, on_row: pick_row }/>
                        <figcaption class="stepper-note">{text(m::DECODING_STEPPER_WEIGHTS_NOTE)}</figcaption>
                    </figure>
                    <Show when=move || cross.get()>
                        <figure class="stepper-figure">
                            <HeatmapCanvas figure=cross_weights testid="decoding-stepper-cross" kind="stepper-cross"
                                class="matrix-square" pointing=Pointing::Rows { row: outlined, on_row: pick_row }/>
                        </figure>
                    </Show>
                </div>
                <div class="stepper-cache" data-testid="decoding-stepper-cache"
                    data-rows=move || (t.get() + 1).to_string()
                    data-entries=move || size().map(|s| s.1.to_string())
                    data-bytes=move || size().map(|s| s.2.to_string())>
                    <h4 class="section-title">{text(m::DECODING_STEPPER_CACHE_HEADING)}</h4>
                    <p class="stepper-note">{text(m::DECODING_STEPPER_CACHE_NOTE)}</p>
                    <div class="stepper-kv">
                        <div class="stepper-figure">
                            <HeatmapCanvas figure=keys testid="decoding-stepper-keys" kind="stepper-keys"
                                class="stepper-cache-canvas" pointing=Pointing::Rows { row: outlined, on_row: pick_row }/>
                        </div>
                        <div class="stepper-figure">
                            <HeatmapCanvas figure=values testid="decoding-stepper-values" kind="stepper-values"
                                class="stepper-cache-canvas" pointing=Pointing::Rows { row: outlined, on_row: pick_row }/>
                        </div>
                    </div>
                    <Show when=move || cross.get()>
                        <p class="stepper-note" data-testid="decoding-stepper-memory-note">{text(m::DECODING_STEPPER_MEMORY_NOTE)}</p>
                        <div class="stepper-kv">
                            <div class="stepper-figure">
                                <HeatmapCanvas figure=memory_keys testid="decoding-stepper-memory-keys" kind="matrix"
                                    class="stepper-cache-canvas" pointing=Pointing::Reading/>
                            </div>
                            <div class="stepper-figure">
                                <HeatmapCanvas figure=memory_values testid="decoding-stepper-memory-values" kind="matrix"
                                    class="stepper-cache-canvas" pointing=Pointing::Reading/>
                            </div>
                        </div>
                    </Show>
                    <p class="stepper-size" data-testid="decoding-stepper-cache-size">{move || size().map(|s| s.0)}</p>
                </div>
                <WorkPanel run=run t=t/>
                <EqualityPanel run=run t=t/>
            </Show>
        </section>
    }
}
