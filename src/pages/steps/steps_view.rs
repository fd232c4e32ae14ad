use attnlab_i18n::msg;
use attnlab_lab::tokens::{self, Tokens};
use attnlab_pages::steps::{self, Readout, Stage, StepsInput};
use attnlab_plot::Heatmap;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::steps_neuron::StepsNeuron;
use super::steps_tiles::StepsTiles;
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};
use crate::widgets::view_pickers::{HeadPicker, VariantPicker};

/// The pipeline of the selected variant for one head and one query token: each stage as
/// a heatmap of the real matrix with the query's row outlined and read out, and the
/// formula of the current variant in MathML. Prev/Next, or ArrowLeft/ArrowRight while
/// the view has focus, step through the stages.
#[component]
pub fn StepsView() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let at = RwSignal::new(0usize);
    let query = RwSignal::new(0usize);
    let n_queries = move || state.derived.tokens.with(|t| t.used().len());
    let shown_query = move || query.get().min(n_queries().saturating_sub(1));

    // With RoPE on, the same variant with RoPE off: its Q and K before they turn.
    let unturned = Memo::new(move |_| {
        let variant = state.shown_slot()?.variant;
        let brought = state.brought.with(Option::is_some);
        variant.with(|v| {
            v.rope.as_ref()?;
            state.derived.projected.with(|p| {
                let p = p.as_ref().ok()?;
                state.derived.used_model.with(|m| {
                    state
                        .derived
                        .key_tokens
                        .with(|k| steps::unturned(m, p, v, k, brought)?.ok())
                })
            })
        })
    });
    let stages: Memo<Result<Vec<Stage>, String>> = Memo::new(move |_| {
        if state.derived.tokens.with(Tokens::is_empty)
            || state.derived.key_tokens.with(Tokens::is_empty)
        {
            return Err(tokens::NOTHING_TO_ATTEND.get(state.lang.get()).to_string());
        }
        let (variant, problem) = state
            .shown_slot()
            .map(|s| (s.variant, s.memos.problem))
            .ok_or_else(|| msg::steps::STEPS_NO_VARIANT.get(lang.get()).to_string())?;
        let head = state.shown_head();
        let query = shown_query();
        let mode = state.lab.mode().get();
        problem.with(|p| {
            let p = p.as_ref().map_err(attnlab_lab::explain::explain)?;
            let brought = state.brought.with(Option::is_some);
            state.derived.encoded.with(|e| {
                // Brought tensors have no X: their stages start at Q, K, V.
                let e = match brought {
                    true => None,
                    false => Some(e.as_ref().map_err(attnlab_lab::explain::explain)?),
                };
                variant.with(|v| {
                    state.derived.used_model.with(|m| {
                        let queries = state.derived.tokens.with(Tokens::labels);
                        let keys = state.derived.key_tokens.with(Tokens::labels);
                        unturned.with(|u| {
                            let input = StepsInput {
                                model: m,
                                variant: v,
                                mode,
                                encoded: e,
                                problem: p,
                                unturned: u.as_ref(),
                                queries: &queries,
                                keys: &keys,
                            };
                            steps::steps(&input, head, query, lang.get()).map_err(|e| e.sentence())
                        })
                    })
                })
            })
        })
    });
    let count = move || stages.with(|s| s.as_ref().map_or(0, Vec::len));
    let current = move || at.get().min(count().saturating_sub(1));
    // A lesson step selects its query and shows the stage it points at.
    if let Some(focus) = use_context::<crate::lessons::LessonFocus>() {
        let kinds = Memo::new(move |_| {
            stages.with(|s| {
                s.as_ref()
                    .map(|s| s.iter().map(|st| st.kind).collect::<Vec<_>>())
                    .unwrap_or_default()
            })
        });
        Effect::new(move |_| {
            if let Some(q) = focus.query.get() {
                query.set(q);
            }
        });
        Effect::new(move |_| {
            let kind = focus.stage.get();
            if let Some(k) = kinds.with(|ks| ks.iter().position(|&k| Some(k) == kind)) {
                at.set(k);
            }
        });
    }
    let stage = Memo::new(move |_| {
        let k = current();
        stages.with(|s| s.as_ref().ok().and_then(|s| s.get(k).cloned()))
    });
    let row = Signal::derive(move || stage.with(|s| s.as_ref().and_then(|s| s.highlight)));
    let figure: Memo<Option<Heatmap>> = Memo::new(move |_| {
        let (k, len, head, lang) = (current(), count(), state.shown_head(), lang.get());
        stage.with(|s| {
            let s = s.as_ref()?;
            let title = msg::steps::StepsFigureTitle {
                at: &(k + 1),
                len: &len,
                stage: &s.name,
                head: &head,
            }
            .say(lang);
            s.heatmap(title, lang).ok()
        })
    });
    let step = move |by: isize| {
        let len = count() as isize;
        if len == 0 {
            return;
        }
        let next = (current() as isize + by).clamp(0, len - 1) as usize;
        at.set(next);
    };
    let on_key = move |ev: KeyboardEvent| {
        let in_control = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "SELECT" | "INPUT" | "TEXTAREA"));
        if in_control {
            return;
        }
        match ev.key().as_str() {
            "ArrowRight" => step(1),
            "ArrowLeft" => step(-1),
            _ => return,
        }
        ev.prevent_default();
    };
    let readout: Memo<Option<Readout>> =
        Memo::new(move |_| stage.with(|s| s.as_ref().and_then(|s| s.readout(3, lang.get()))));
    // Tokens and values are quoted as they are.
    let readout_text = move || {
        readout.with(|r| {
            r.as_ref().map(|r| {
                r.parts
                    .iter()
                    .map(|(text, kept)| match kept {
                        true => view! { <span translate="no">{text.clone()}</span> }.into_any(),
                        false => text.clone().into_any(),
                    })
                    .collect_view()
            })
        })
    };
    let values_attr = move || {
        readout.with(|r| {
            let values = r.as_ref()?.values.as_ref()?;
            Some(
                values
                    .iter()
                    .map(|v| v.map_or("blocked".to_string(), |v| v.to_string()))
                    .collect::<Vec<_>>()
                    .join(","),
            )
        })
    };
    let sum_attr = move || readout.with(|r| r.as_ref()?.sum().map(|s| s.to_string()));
    let error = move || stages.with(|s| s.as_ref().err().cloned());

    view! {
        <section class="explain steps" data-testid="steps-view" tabindex="0"
            aria-label=text(msg::steps::STEPS_VIEW_LABEL)
            on:keydown=on_key>
            <p class="explain-lead">
                {text(msg::steps::STEPS_LEAD)}
            </p>
            <div class="steps-controls">
                <VariantPicker id="steps-variant"/>
                <HeadPicker id="steps-head"/>
                <label class="view-picker">
                    <span>{text(msg::steps::STEPS_QUERY_TOKEN)}</span>
                    <select data-testid="pick-query"
                        on:change=move |ev| {
                            if let Ok(q) = event_target_value(&ev).parse::<usize>() {
                                query.set(q);
                            }
                        }>
                        {move || state.derived.tokens.with(Tokens::labels).into_iter().enumerate().map(|(i, t)| view! {
                            <option value=i.to_string() translate="no" selected=move || shown_query() == i>{format!("{i}: {t}")}</option>
                        }).collect_view()}
                    </select>
                </label>
                <div class="steps-nav">
                    <button type="button" data-testid="steps-prev" on:click=move |_| step(-1)
                        disabled=move || current() == 0>{text(msg::steps::STEPS_PREV)}</button>
                    <span class="steps-indicator" data-testid="steps-indicator" aria-live="polite">
                        {move || format!("{} / {}", if count() == 0 { 0 } else { current() + 1 }, count())}
                    </span>
                    <button type="button" data-testid="steps-next" on:click=move |_| step(1)
                        disabled=move || { current() + 1 >= count() }>{text(msg::steps::STEPS_NEXT)}</button>
                </div>
            </div>
            {move || error().map(|e| view! { <p class="notice" role="status" data-testid="steps-error">{e}</p> })}
            <ol class="steps-list" aria-label=text(msg::steps::STEPS_STAGES_LABEL)>
                {move || stages.with(|s| s.as_ref().map(|s| s.iter().map(|st| st.name).collect::<Vec<_>>()).unwrap_or_default())
                    .into_iter()
                    .enumerate()
                    .map(|(k, name)| view! {
                        <li>
                            <button type="button" class="steps-chip" data-testid="steps-chip"
                                aria-current=move || (current() == k).then_some("step")
                                on:click=move |_| at.set(k)>
                                {format!("{} {name}", k + 1)}
                            </button>
                        </li>
                    })
                    .collect_view()}
            </ol>
            <Show when=move || stage.with(Option::is_some)>
                <div class="steps-stage" data-testid="steps-stage"
                    data-stage=move || stage.with(|s| s.as_ref().map(|s| format!("{:?}", s.kind)).unwrap_or_default())>
                    <div class="steps-body">
                        <HeatmapCanvas figure=figure testid="steps-canvas" kind="steps" class="steps-canvas"
                            pointing=Pointing::Rows { row, on_row: Callback::new(move |r| query.set(r)) }/>
                        <div class="steps-text">
                            <h3 class="steps-title" data-testid="steps-title">
                                {move || stage.with(|s| s.as_ref().map(|s| s.name).unwrap_or_default())}
                            </h3>
                            <div class="steps-formula" data-testid="steps-formula"
                                inner_html=move || stage.with(|s| s.as_ref().map(|s| s.formula.clone()).unwrap_or_default())></div>
                            <p class="steps-note" data-testid="steps-note">
                                {move || stage.with(|s| s.as_ref().map(|s| super::super::with_symbols(&s.note)))}
                            </p>
                            <p class="steps-readout" data-testid="steps-row" aria-live="polite"
                                data-values=values_attr data-row-sum=sum_attr>
                                {readout_text}
                            </p>
                        </div>
                    </div>
                    <Show when=move || stage.with(|s| s.as_ref().is_some_and(|s| s.kind == steps::StageKind::Softmax))>
                        <StepsTiles query=Signal::derive(shown_query)/>
                    </Show>
                </div>
            </Show>
            <StepsNeuron query=Signal::derive(shown_query)/>
        </section>
    }
}
