use attnlab_core::CoreError;
use attnlab_core::embed::embed_one;
use attnlab_core::model::Encoded;
use attnlab_i18n::msg;
use attnlab_lab::Mode;
use attnlab_lab::compute;
use attnlab_lab::explain::explain_in;
use attnlab_lab::state::Seq2seqView;
use attnlab_lab::tokens::Tokens;
use attnlab_pages::decoding::seq2seq::{self, START, Seq2seqError, Seq2seqInput, Seq2seqRun};
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use super::seq2seq_step::{Seq2seqMemo, Seq2seqStepPanel};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::text;
use crate::state::{LabFields, ViewFields, use_app_state};

/// The classic decoder at the top of the Decoding page: the lab's two sentences through
/// the seeded recurrent encoder–decoder with additive attention
/// (`attnlab_pages::decoding::seq2seq`), a stepper over the target (the step and the
/// context's feed are the link's, `View::seq2seq`), the alignment so far with the
/// current row outlined, and the step's query, scores, weights and context. In self
/// mode it says it needs two sentences, with a button that switches the lab to them.
#[component]
pub fn Seq2seqSection() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let cross = Memo::new(move |_| state.lab.mode().get() == Mode::Cross);
    let settings = state.lab.view().seq2seq();
    let source: Memo<Option<Result<Encoded, CoreError>>> = Memo::new(move |_| {
        if !cross.get() {
            return None;
        }
        state.derived.key_tokens.with(|k| {
            state
                .derived
                .used_model
                .with(|m| Some(compute::encode(m, k)))
        })
    });
    let run: Seq2seqMemo = Memo::new(move |_| {
        let lang = lang.get();
        if !cross.get() {
            return Err(msg::seq2seq::SEQ2SEQ_NEEDS_CROSS.get(lang).to_string());
        }
        if state.brought.with(Option::is_some) {
            return Err(msg::seq2seq::SEQ2SEQ_BROUGHT.get(lang).to_string());
        }
        if state.derived.key_tokens.with(Tokens::is_empty) {
            return Err(Seq2seqError::NoSource.say(lang));
        }
        if state.derived.tokens.with(Tokens::is_empty) {
            return Err(Seq2seqError::NoTarget.say(lang));
        }
        let targets = state.derived.tokens.with(Tokens::labels);
        let sources = state.derived.key_tokens.with(Tokens::labels);
        let model = state.derived.used_model.get();
        let start = embed_one(START, model.d_model, model.seed, model.embedding_scale);
        state.derived.encoded.with(|e| {
            let e = e.as_ref().map_err(|e| explain_in(e, lang))?;
            source.with(|s| {
                let s = match s {
                    Some(Ok(s)) => s,
                    Some(Err(err)) => return Err(explain_in(err, lang)),
                    None => return Err(msg::seq2seq::SEQ2SEQ_NEEDS_CROSS.get(lang).to_string()),
                };
                seq2seq::run(&Seq2seqInput {
                    source: (&s.words, &sources),
                    target: (&e.words, &targets),
                    start: &start,
                    seed: model.seed,
                })
                .map_err(|err| err.say(lang))
            })
        })
    });
    let steps = Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, Seq2seqRun::steps)));
    let step = Memo::new(move |_| settings.with(|v| seq2seq::step_shown(v, steps.get())));
    let feed = Memo::new(move |_| settings.with(|v| v.feed));
    let set = move |f: &dyn Fn(&mut Seq2seqView)| {
        let mut v = settings.get_untracked();
        f(&mut v);
        if v != settings.get_untracked() {
            settings.set(v);
        }
    };
    let go = move |to: usize| {
        let to = to.clamp(1, steps.get_untracked().max(1));
        set(&|v| v.step = to);
    };
    let switch_to_cross = move |_| {
        let notice = state.edit(|lab| lab.switch_mode(Mode::Cross));
        state.repair_notice.set(notice);
    };

    let alignment: Memo<Option<Heatmap>> = Memo::new(move |_| {
        run.with(|r| seq2seq::alignment(r.as_ref().ok()?, feed.get(), step.get(), lang.get()).ok())
    });
    // Each row's sum and the largest change the feed makes, for reading (and tests).
    let row_sums = move || {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            Some(
                (1..=step.get())
                    .map(|t| format!("{:.6}", r.row_sum(feed.get(), t)))
                    .collect::<Vec<_>>()
                    .join(","),
            )
        })
    };
    let delta = move || run.with(|r| r.as_ref().ok().map(|r| r.max_delta(step.get())));
    let first = move || run.with(|r| r.as_ref().ok().map(|r| r.max_delta(1)));
    let number = |v: f32| attnlab_plot::number::decimals(v, 4);
    let limited = move || {
        run.with(|r| {
            r.as_ref()
                .ok()
                .and_then(|r| r.used.limited_text(lang.get()))
        })
    };
    let sizes = move || run.with(|r| r.as_ref().ok().map(|r| r.used.sizes_text(lang.get())));
    let word = move || {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            r.target.get(step.get().saturating_sub(1)).cloned()
        })
    };
    // The word in an element of its own: it reads the same in every language.
    let step_of = move || {
        word().map(|w| {
            let said = msg::seq2seq::Seq2seqStepOf {
                t: &step.get(),
                all: &steps.get(),
                word: &MARK[0],
            }
            .say(lang.get());
            with_marked(&said, |_| {
                let w = w.clone();
                view! { <span translate="no">{w}</span> }.into_any()
            })
        })
    };
    let on_row = Callback::new(move |r: usize| go(r + 1));
    let at_start = move || step.get() <= 1;
    let at_end = move || step.get() >= steps.get();

    view! {
        <section class="explain-part seq2seq" data-testid="seq2seq"
            aria-labelledby="seq2seq-title"
            data-step=move || step.get().to_string()
            data-steps=move || steps.get().to_string()
            data-feed=move || if feed.get() { "on" } else { "off" }>
            <h3 class="section-title" id="seq2seq-title">{text(msg::seq2seq::SEQ2SEQ_TITLE)}</h3>
            // In self mode only the way to two sentences: the calculator below stays on
            // the first screen.
            <Show when=move || cross.get()>
                <p class="explain-lead" data-testid="seq2seq-lead">{text(msg::seq2seq::SEQ2SEQ_LEAD)}</p>
                <p class="explain-lead seq2seq-caveat" data-testid="seq2seq-seeded">{text(msg::seq2seq::SEQ2SEQ_SEEDED)}</p>
            </Show>
            <Show when=move || !cross.get()>
                <p class="notice" role="status" data-testid="seq2seq-needs-cross">
                    {text(msg::seq2seq::SEQ2SEQ_NEEDS_CROSS)}" "
                    <button type="button" data-testid="seq2seq-switch-cross"
                        on:click=switch_to_cross>{text(msg::seq2seq::SEQ2SEQ_SWITCH_CROSS)}</button>
                </p>
            </Show>
            <Show when=move || cross.get() && run.with(Result::is_err)>
                <p class="notice" role="status" data-testid="seq2seq-error">
                    {move || run.with(|r| r.as_ref().err().cloned())}
                </p>
            </Show>
            <Show when=move || run.with(Result::is_ok)>
                <p class="block-sizes" data-testid="seq2seq-sizes">{sizes}</p>
                {move || limited().map(|l| view! {
                    <p class="notice" role="status" data-testid="seq2seq-limited">{l}</p>
                })}
                <div class="seq2seq-controls" role="group"
                    aria-label=text(msg::seq2seq::SEQ2SEQ_STEPPER_LABEL)>
                    <button type="button" data-testid="seq2seq-prev"
                        disabled=at_start
                        on:click=move |_| go(step.get_untracked().saturating_sub(1))>
                        "◀ "{text(msg::seq2seq::SEQ2SEQ_PREVIOUS)}
                    </button>
                    <label class="view-picker seq2seq-slider">
                        <span>{text(msg::seq2seq::SEQ2SEQ_STEP)}</span>
                        <input type="range" min="1" data-testid="seq2seq-step-input"
                            max=move || steps.get().max(1).to_string()
                            prop:value=move || step.get().to_string()
                            on:input=move |ev| {
                                if let Ok(t) = event_target_value(&ev).parse::<usize>() {
                                    go(t)
                                }
                            }/>
                    </label>
                    <button type="button" data-testid="seq2seq-next"
                        disabled=at_end
                        on:click=move |_| go(step.get_untracked() + 1)>
                        {text(msg::seq2seq::SEQ2SEQ_NEXT)}" ▶"
                    </button>
                    <label class="seq2seq-feed">
                        <input type="checkbox" data-testid="seq2seq-feed"
                            prop:checked=move || feed.get()
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                set(&|v| v.feed = on)
                            }/>
                        <span>{text(msg::seq2seq::SEQ2SEQ_FEED)}</span>
                    </label>
                </div>
                <p class="seq2seq-step-of" data-testid="seq2seq-step-of" aria-live="polite">{step_of}</p>
                <div class="seq2seq-alignment" data-testid="seq2seq-alignment-figure"
                    data-row-sums=row_sums>
                    <HeatmapCanvas figure=alignment testid="seq2seq-alignment" kind="seq2seq"
                        pointing=Pointing::Rows {
                            row: Signal::derive(move || Some(step.get() - 1)),
                            on_row,
                        }/>
                </div>
                <p class="seq2seq-delta" data-testid="seq2seq-delta"
                    data-delta=move || delta().map(|d| d.to_string())
                    data-first=move || first().map(|d| d.to_string())>
                    {move || delta().map(|d| msg::seq2seq::Seq2seqDelta {
                        t: &step.get(),
                        delta: &number(d),
                    }.say(lang.get()))}" "
                    {move || first().map(|d| msg::seq2seq::Seq2seqDeltaFirst {
                        first: &number(d),
                    }.say(lang.get()))}
                </p>
                <Seq2seqStepPanel run=run step=step feed=feed/>
            </Show>
        </section>
    }
}
