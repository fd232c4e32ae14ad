use attnlab_core::position::PositionKind;
use attnlab_i18n::msg;
use attnlab_lab::Mode;
use attnlab_lab::compute;
use attnlab_lab::tokens::Tokens;
use attnlab_pages::positions::{self, BagOfWords, Permutation};
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};
use crate::widgets::view_pickers::{HeadPicker, VariantPicker};

/// The central argument for position encodings (docs/maths.md §2): shuffle the tokens, run the
/// selected variant and head again, put the rows and columns back, and compare. Without
/// positions nothing changes (a bag of words); with positions the weights do. Both are
/// computed side by side whatever the model's setting, so the contrast is always there.
#[component]
pub fn BagOfWordsPanel() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    // `None`: the sentence as typed; `Some(d)`: the d-th shuffle.
    let draw = RwSignal::new(None::<u64>);
    let next_draw = StoredValue::new(0u64);
    let variant = Memo::new(move |_| state.shown_slot().map(|s| s.variant.get()));
    let permutation = Memo::new(move |_| {
        let d = draw.get()?;
        let (n, typed) = state.derived.tokens.with(|t| (t.used().len(), t.typed()));
        let seed = state.lab.model().with(|m| m.seed);
        Some(Permutation::shuffled(n, typed, seed, d))
    });
    let cross = move || state.lab.mode().get() == Mode::Cross;
    let check: Memo<Option<Result<BagOfWords, String>>> = Memo::new(move |_| {
        if cross() {
            return None;
        }
        let p = permutation.get()?;
        let v = variant.get()?;
        let head = state.shown_head();
        Some(state.lab.model().with(|m| {
            state
                .derived
                .tokens
                .with(|t| positions::bag_of_words(m, &v, t, head, &p).map_err(|e| e.sentence()))
        }))
    });
    let caveat = Memo::new(move |_| {
        variant.with(|v| {
            v.as_ref()
                .and_then(|v| positions::position_dependence(v, lang.get()))
        })
    });
    let labels = Memo::new(move |_| state.derived.tokens.with(Tokens::labels));
    let figures: Memo<Option<(Heatmap, Heatmap)>> = Memo::new(move |_| {
        check.with(|c| {
            let b = c.as_ref()?.as_ref().ok()?;
            let current = if state
                .lab
                .model()
                .with(|m| m.position.kind == PositionKind::None)
            {
                &b.without_positions
            } else {
                &b.with_positions
            };
            let v = variant.get()?;
            let rows = labels.get();
            let cols = state.derived.tokens.with(|t| compute::key_labels(t, &v));
            current.figures(&rows, &cols, lang.get()).ok()
        })
    });
    let original = Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f.0.clone())));
    let restored = Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f.1.clone())));
    let shuffled_words = move || {
        let p = permutation.get()?;
        let words = labels.get();
        Some(
            p.order()
                .iter()
                .filter_map(|&i| words.get(i).cloned())
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
    let can_shuffle = move || {
        state
            .derived
            .tokens
            .with(|t| t.typed().min(t.used().len()) >= 2)
            && !cross()
    };
    let hover_a = RwSignal::new(None);
    let hover_b = RwSignal::new(None);

    view! {
        <section class="explain-figure bag-of-words" data-testid="bag-of-words" aria-label=text(msg::positions::POSITIONS_BOW_LABEL)>
            <h3 class="figure-title">{text(msg::positions::POSITIONS_BOW_TITLE)}</h3>
            <p class="explain-note">
                {text(msg::positions::POSITIONS_BOW_EXPLAIN)}
            </p>
            <div class="bow-controls">
                <VariantPicker id="bag-variant"/>
                <HeadPicker id="bag-head"/>
                <button type="button" data-testid="bow-shuffle" disabled=move || !can_shuffle()
                    title=move || match cross() {
                        true => msg::positions::POSITIONS_BOW_CROSS_TIP,
                        false => msg::positions::POSITIONS_BOW_SHUFFLE_TIP,
                    }
                    .get(lang.get())
                    on:click=move |_| {
                        let d = next_draw.get_value();
                        next_draw.set_value(d + 1);
                        draw.set(Some(d));
                    }>{text(msg::positions::POSITIONS_BOW_SHUFFLE)}</button>
                <button type="button" data-testid="bow-restore" disabled=move || draw.get().is_none()
                    on:click=move |_| draw.set(None)>{text(msg::positions::POSITIONS_BOW_RESTORE)}</button>
            </div>
            <p class="bow-order" data-testid="bow-order">
                {text(msg::positions::POSITIONS_BOW_ORDER)}
                {move || match permutation.get() {
                    Some(p) => p.describe(),
                    None => msg::positions::POSITIONS_BOW_ORDER_AS_TYPED.get(lang.get()).to_string(),
                }}
            </p>
            {move || shuffled_words().map(|w| view! {
                <p class="bow-words" data-testid="bow-words">{text(msg::positions::POSITIONS_BOW_SHUFFLED)}<span translate="no">{w}</span></p>
            })}
            {move || cross().then(|| view! {
                <p class="explain-message" data-testid="bow-cross">{text(msg::positions::POSITIONS_BOW_CROSS)}</p>
            })}
            {move || (!cross() && !can_shuffle()).then(|| view! {
                <p class="explain-message" data-testid="bow-short">{text(msg::positions::POSITIONS_BOW_SHORT)}</p>
            })}
            {move || (draw.get().is_none() && can_shuffle()).then(|| view! {
                <p class="explain-note" data-testid="bow-prompt">{text(msg::positions::POSITIONS_BOW_PROMPT)}</p>
            })}
            {move || check.get().map(|c| match c {
                Err(msg) => view! { <p class="explain-message" data-testid="bow-error">{msg}</p> }.into_any(),
                Ok(b) => view! {
                    <div class="bow-results">
                        <div class="bow-result" data-testid="bow-off">
                            <span class="bow-label">{text(msg::positions::POSITIONS_BOW_OFF)}</span>
                            {match caveat.get() {
                                Some(why) => view! {
                                    <span class="explain-message" data-testid="bow-caveat">
                                        {msg::positions::PositionsBowCaveat { why: &why }.say(lang.get())}
                                    </span>
                                }.into_any(),
                                None => view! {
                                    <strong data-testid="bow-diff-off" data-value=b.without_positions.max_difference.to_string()>
                                        {number::readable(b.without_positions.max_difference)}
                                    </strong>
                                    <span>{text(msg::positions::POSITIONS_BOW_OFF_SAME)}</span>
                                }.into_any(),
                            }}
                        </div>
                        <div class="bow-result" data-testid="bow-on">
                            <span class="bow-label">{move || {
                                let how = positions::describe(&b.with_positions.position, lang.get());
                                super::super::with_symbols(&msg::positions::PositionsBowOn { how: &how }.say(lang.get()))
                            }}</span>
                            <strong data-testid="bow-diff-on" data-value=b.with_positions.max_difference.to_string()>
                                {number::readable(b.with_positions.max_difference)}
                            </strong>
                            <span>{text(msg::positions::POSITIONS_BOW_ON_CHANGE)}</span>
                            {b.positions_substituted.then(|| view! {
                                <span class="explain-note">{text(msg::positions::POSITIONS_BOW_SUBSTITUTED)}</span>
                            })}
                        </div>
                    </div>
                }.into_any(),
            })}
            {move || figures.with(Option::is_some).then(|| view! {
                <div class="bow-figures">
                    <HeatmapCanvas figure=original pointing=Pointing::Cells { hover: hover_a, on_cell: None } testid="bow-original" kind="bow-original"/>
                    <HeatmapCanvas figure=restored pointing=Pointing::Cells { hover: hover_b, on_cell: None } testid="bow-restored" kind="bow-restored"/>
                </div>
            })}
        </section>
    }
}
