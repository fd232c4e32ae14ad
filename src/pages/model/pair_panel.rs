use attnlab_lab::state::{Checkpoint, PretrainedView};
use attnlab_model_page::alignment::{ALIGNMENT_NOTE, Direction};
use attnlab_plot::{Focus, number};
use leptos::prelude::*;

use crate::i18n::{Lang, t, tr, use_lang};
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
        <section class="panel pair-panel" aria-label=t("A sentence and its translation", "一个句子及其译文") data-testid="pair-panel">
            <h2 class="section-title">{t("A sentence and its translation", "一个句子及其译文")}</h2>
            <label class="field-label" for="pair-input">{t(
                "Second sentence (optional): the model reads both as one text",
                "第二个句子（可选）：模型把两句当作一段文本读入",
            )}</label>
            {move || {
                let placeholder = tr(lang.get(), "e.g. a translation of the sentence", "例如该句子的译文");
                view! {
                    <TextBox text=state.lab.pair() id="pair-input" rows=2 cut_testid="pair-cut"
                        placeholder=placeholder/>
                }
            }}
            <p>
                <button type="button" data-testid="pair-example" on:click=example>
                    {t("Example: ", "示例：")}
                    <span translate="no">{format!("{} / {}", EXAMPLE.0, EXAMPLE.1)}</span>
                </button>
            </p>
            <Show when=is_pair>
                <div class="knobs" role="radiogroup" aria-label=t("Direction", "方向")>
                    <label class="knob check">
                        <input type="radio" name="pair-direction" data-testid="pair-forward"
                            prop:checked=move || direction.get() == Direction::FirstToSecond
                            on:change=move |_| direction.set(Direction::FirstToSecond)/>
                        {t(" first \u{2192} second", " 第一句 \u{2192} 第二句")}
                    </label>
                    <label class="knob check">
                        <input type="radio" name="pair-direction" data-testid="pair-backward"
                            prop:checked=move || direction.get() == Direction::SecondToFirst
                            on:change=move |_| direction.set(Direction::SecondToFirst)/>
                        {t(" second \u{2192} first", " 第二句 \u{2192} 第一句")}
                    </label>
                </div>
                <TokenLinesCanvas figure=lines focus=focus name="alignment"/>
                <p class="hint" data-testid="alignment-note">{move || ALIGNMENT_NOTE.get(lang.get())}</p>
                <h3 class="field-label">{move || match lang.get() {
                    Lang::En => format!("The heads whose weight crosses most (of {})", ranking.with(Vec::len)),
                    Lang::Zh => format!("权重跨句最多的头（共 {} 个）", ranking.with(Vec::len)),
                }}</h3>
                <ol class="crossing-ranking" data-testid="crossing-ranking" data-heads=move || ranking.with(Vec::len).to_string()>
                    {move || ranking.with(|r| r.iter().take(RANKED).copied().collect::<Vec<_>>()).into_iter().map(|c| view! {
                        <li data-testid="crossing-row">
                            <button type="button" class="chip"
                                aria-pressed=move || (selected() == (c.layer, c.head)).to_string()
                                on:click=move |_| select(c.layer, c.head)>
                                {move || match lang.get() {
                                    Lang::En => format!("layer {} head {}", c.layer, c.head),
                                    Lang::Zh => format!("第 {} 层 头 {}", c.layer, c.head),
                                }}
                            </button>
                            {move || {
                                let (share, f, b) = (
                                    number::decimals(c.share, 3),
                                    number::decimals(c.forward, 3),
                                    number::decimals(c.backward, 3),
                                );
                                match lang.get() {
                                    Lang::En => format!(" {share} crosses (first \u{2192} second {f}, second \u{2192} first {b})"),
                                    Lang::Zh => format!(" {share} 跨句（第一句 \u{2192} 第二句 {f}，第二句 \u{2192} 第一句 {b}）"),
                                }
                            }}
                        </li>
                    }).collect_view()}
                </ol>
            </Show>
        </section>
    }
}
