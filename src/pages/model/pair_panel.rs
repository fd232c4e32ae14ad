use attnlab_i18n::msg;
use attnlab_lab::state::{Checkpoint, PretrainedView};
use attnlab_model_page::alignment::{ALIGNMENT_NOTE, Direction};
use attnlab_plot::{Focus, number};
use leptos::prelude::*;

use crate::i18n::{text, use_lang};
use crate::model::use_model_session;
use crate::pages::lines::TokenLinesCanvas;
use crate::shell::TextBox;
use crate::state::{LabFields, ModelFigures, use_app_state};

/// The built-in pair: a Chinese sentence and its English translation.
const EXAMPLE: (&str, &str) = ("我的猫喜欢吃鱼", "My cat likes eating fish.");

/// How many heads the crossing ranking lists.
const RANKED: usize = 12;

/// A second sentence read with the first as one text (`<s> A </s></s> B </s>`): the
/// selected head's weights across the two as lines, and every head ranked by the share
/// of its weight that crosses between them.
#[component]
pub fn PairPanel(
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let direction = RwSignal::new(Direction::FirstToSecond);
    let focus = RwSignal::new(Focus::None);
    let view_of = move || state.lab.pretrained().get();
    let select = move |layer: usize, head: usize| {
        state.edit_model_page(|p| {
            p.layer = layer;
            p.head = head;
        })
    };
    let example = move |_| {
        state.lab.text().set(EXAMPLE.0.to_string());
        state.lab.pair().set(EXAMPLE.1.to_string());
        // multilingual-E5-small's layer 5, head 5 aligns this pair (the README measures it).
        if view_of()
            .is_some_and(|p: PretrainedView| p.checkpoint == Checkpoint::MultilingualE5Small)
        {
            select(5, 5);
        }
    };
    let is_pair = move || session.with_run(|r| r.second().is_some()).unwrap_or(false);
    let lines = figures.alignment(direction, focus);
    let ranking = figures.crossing;
    let selected = move || view_of().map_or((0, 0), |p| (p.layer, p.head));
    view! {
        <section class="panel pair-panel" aria-label=text(msg::model_page::MODEL_PAIR_TITLE) data-testid="pair-panel">
            <h2 class="section-title">{text(msg::model_page::MODEL_PAIR_TITLE)}</h2>
            <label class="field-label" for="pair-input">{text(msg::model_page::MODEL_PAIR_FIELD)}</label>
            {move || {
                let placeholder = msg::model_page::MODEL_PAIR_PLACEHOLDER.get(lang.get());
                view! {
                    <TextBox text=state.lab.pair() id="pair-input" rows=2 cut_testid="pair-cut"
                        placeholder=placeholder/>
                }
            }}
            <p>
                <button type="button" data-testid="pair-example" on:click=example>
                    {text(msg::model_page::MODEL_EXAMPLE)}
                    <span translate="no">{format!("{} / {}", EXAMPLE.0, EXAMPLE.1)}</span>
                </button>
            </p>
            <Show when=is_pair>
                <div class="knobs" role="radiogroup" aria-label=text(msg::model_page::MODEL_PAIR_DIRECTION)>
                    <label class="knob check">
                        <input type="radio" name="pair-direction" data-testid="pair-forward"
                            prop:checked=move || direction.get() == Direction::FirstToSecond
                            on:change=move |_| direction.set(Direction::FirstToSecond)/>
                        {text(msg::model_page::MODEL_PAIR_FORWARD)}
                    </label>
                    <label class="knob check">
                        <input type="radio" name="pair-direction" data-testid="pair-backward"
                            prop:checked=move || direction.get() == Direction::SecondToFirst
                            on:change=move |_| direction.set(Direction::SecondToFirst)/>
                        {text(msg::model_page::MODEL_PAIR_BACKWARD)}
                    </label>
                </div>
                <TokenLinesCanvas figure=lines focus=focus name="alignment"/>
                <p class="hint" data-testid="alignment-note">{move || ALIGNMENT_NOTE.get(lang.get())}</p>
                <h3 class="field-label">{move || msg::model_page::ModelCrossingTitle { count: &ranking.with(Vec::len) }.say(lang.get())}</h3>
                <ol class="crossing-ranking" data-testid="crossing-ranking" data-heads=move || ranking.with(Vec::len).to_string()>
                    {move || ranking.with(|r| r.iter().take(RANKED).copied().collect::<Vec<_>>()).into_iter().map(|c| view! {
                        <li data-testid="crossing-row">
                            <button type="button" class="chip"
                                aria-pressed=move || (selected() == (c.layer, c.head)).to_string()
                                on:click=move |_| select(c.layer, c.head)>
                                {move || msg::model_page::ModelCrossingHead { layer: &c.layer, head: &c.head }.say(lang.get())}
                            </button>
                            {move || {
                                let (share, f, b) = (
                                    number::decimals(c.share, 3),
                                    number::decimals(c.forward, 3),
                                    number::decimals(c.backward, 3),
                                );
                                msg::model_page::ModelCrossingShare { share: &share, forward: &f, backward: &b }.say(lang.get())
                            }}
                        </li>
                    }).collect_view()}
                </ol>
            </Show>
        </section>
    }
}
