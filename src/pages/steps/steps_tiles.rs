use attnlab_i18n::msg::steps as m;
use attnlab_lab::tokens::Tokens;
use attnlab_pages::steps::{TilesWalk, tiles_walk};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::text;
use crate::state::use_app_state;

fn list(values: &[f32]) -> String {
    values
        .iter()
        .map(|v| number::decimals(*v, 3))
        .collect::<Vec<_>>()
        .join(", ")
}

fn exact(values: &[f32]) -> String {
    values
        .iter()
        .map(f32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Softmax with tiles on, under its weights stage: the selected query's online softmax
/// tile by tile (a slider and Prev/Next step the tiles 1 … T), each tile's logits, the
/// running max `m_t`, running sum `l_t` and rescaled accumulator `o_t`; after the last,
/// the full softmax's weights and output with the largest difference measured, and the
/// memory each way holds.
#[component]
pub fn StepsTiles(
    /// The query token shown by the stages.
    #[prop(into)]
    query: Signal<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let at = RwSignal::new(0usize);
    let walk: Memo<Option<TilesWalk>> = Memo::new(move |_| {
        let (i, head) = (query.get(), state.shown_head());
        let slot = state.shown_slot()?;
        slot.memos
            .problem
            .with(|p| tiles_walk(p.as_ref().ok()?, head, i).ok().flatten())
    });
    let count = move || walk.with(|w| w.as_ref().map_or(0, |w| w.steps.len()));
    let current = move || at.get().min(count().saturating_sub(1));
    let step = move |by: isize| {
        let len = count() as isize;
        if len > 0 {
            at.set((current() as isize + by).clamp(0, len - 1) as usize);
        }
    };
    let keys = move || state.derived.key_tokens.with(Tokens::labels);
    let shown = move || {
        let (t, lang) = (current(), lang.get());
        walk.with(|w| {
            let w = w.as_ref()?;
            let s = w.steps.get(t)?;
            let labels = keys();
            let logits = s
                .keys
                .clone()
                .zip(&s.logits)
                .map(|(j, z)| {
                    let z = z.map_or("\u{2212}\u{221e}".to_string(), |z| number::decimals(z, 3));
                    format!("{} {z}", labels.get(j).cloned().unwrap_or_default())
                })
                .collect::<Vec<_>>()
                .join(", ");
            let rescale = number::significant(s.rescale, 4);
            let max_line = match (s.max, s.tile_max) {
                (Some(max), tile_max) => m::StepsTilesMax {
                    tile_max: &tile_max.map_or("\u{2212}\u{221e}".into(), |x| number::decimals(x, 4)),
                    max: &number::decimals(max, 4),
                }
                .say(lang),
                (None, _) => m::STEPS_TILES_MAX_NONE.get(lang).to_string(),
            };
            let last = t + 1 == w.steps.len();
            let done = last.then(|| {
                let said = m::StepsTilesDone {
                    weights: &number::significant(w.weights_gap, 2),
                    output: &number::significant(w.output_gap, 2),
                }
                .say(lang);
                view! {
                    <p class="steps-tiles-done" data-testid="tiles-done"
                        data-weights=exact(&w.weights) data-full-weights=exact(&w.full_weights)
                        data-output=exact(&w.output) data-full-output=exact(&w.full_output)
                        data-weights-gap=w.weights_gap.to_string() data-output-gap=w.output_gap.to_string()>
                        {said}
                    </p>
                    <p class="steps-tiles-line">
                        {m::STEPS_TILES_WEIGHTS.get(lang)}" "
                        <span translate="no" data-testid="tiles-weights">{list(&w.weights)}</span>
                    </p>
                }
            });
            Some(view! {
                <p class="steps-tiles-at" data-testid="tiles-at">
                    {m::StepsTilesAt {
                        t: &(t + 1),
                        count: &w.steps.len(),
                        from: &s.keys.start,
                        to: &(s.keys.end - 1),
                    }.say(lang)}
                </p>
                <p class="steps-tiles-line">
                    {m::STEPS_TILES_LOGITS.get(lang)}" "
                    <span translate="no" data-testid="tiles-logits">{logits}</span>
                </p>
                <p class="steps-tiles-line" data-testid="tiles-max"
                    data-value=s.max.map(|x| x.to_string())>{max_line}</p>
                <p class="steps-tiles-line" data-testid="tiles-sum" data-value=s.sum.to_string()>
                    {m::StepsTilesSum { rescale: &rescale, sum: &number::decimals(s.sum, 4) }.say(lang)}
                </p>
                <p class="steps-tiles-line">
                    {m::StepsTilesAcc { rescale: &rescale, d_v: &s.acc.len() }.say(lang)}" "
                    <span translate="no" data-testid="tiles-acc" data-values=exact(&s.acc)>{list(&s.acc)}</span>
                </p>
                {done}
                <p class="steps-tiles-memory" data-testid="tiles-memory">
                    {m::StepsTilesMemory {
                        tiled: &w.memory.per_query,
                        tile: &w.tile,
                        d_v: &s.acc.len(),
                        full: &w.memory.per_query_full,
                        head: &w.memory.head,
                        head_full: &w.memory.head_full,
                    }.say(lang)}
                </p>
            })
        })
    };
    let valuetext = move || {
        walk.with(|w| {
            let w = w.as_ref()?;
            let s = w.steps.get(current())?;
            Some(
                m::StepsTilesAt {
                    t: &(current() + 1),
                    count: &w.steps.len(),
                    from: &s.keys.start,
                    to: &(s.keys.end - 1),
                }
                .say(lang.get()),
            )
        })
    };
    view! {
        <Show when=move || walk.with(Option::is_some)>
            <section class="steps-tiles" data-testid="steps-tiles">
                <h3 class="steps-tiles-title">
                    {move || walk.with(|w| w.as_ref().map(|w| m::StepsTilesTitle { tile: &w.tile }.say(lang.get())))}
                </h3>
                <div class="steps-tiles-nav">
                    <button type="button" data-testid="tiles-prev" on:click=move |_| step(-1)
                        disabled=move || current() == 0>{text(m::STEPS_TILES_PREV)}</button>
                    <input type="range" data-testid="tiles-pick" min="1"
                        max=move || count().to_string()
                        prop:value=move || (current() + 1).to_string()
                        aria-label=text(m::STEPS_TILES_PICK)
                        aria-valuetext=valuetext
                        on:input=move |ev| {
                            if let Ok(t) = event_target_value(&ev).parse::<usize>() {
                                at.set(t.saturating_sub(1));
                            }
                        }/>
                    <span class="steps-indicator" data-testid="tiles-indicator" aria-live="polite">
                        {move || format!("{} / {}", current() + 1, count())}
                    </span>
                    <button type="button" data-testid="tiles-next" on:click=move |_| step(1)
                        disabled=move || { current() + 1 >= count() }>{text(m::STEPS_TILES_NEXT)}</button>
                </div>
                {shown}
            </section>
        </Show>
    }
}
