use attnlab_core::position::PositionKind;
use attnlab_lab::Mode;
use attnlab_lab::compute;
use attnlab_lab::tokens::Tokens;
use attnlab_pages::positions::{self, BagOfWords, Permutation};
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{Lang, t};
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
        <section class="explain-figure bag-of-words" data-testid="bag-of-words" aria-label=t("Bag of words", "词袋")>
            <h3 class="figure-title">{t("Bag of words: shuffle the sentence", "词袋：打乱句子")}</h3>
            <p class="explain-note">
                {t(
                    "Shuffle the tokens, run the same variant and head on the shuffled sentence, then put each row and column back where its token came from. \
                     Without positions the two matrices are the same: attention only sees which words are there, not their order. With positions they differ.",
                    "打乱词元，在打乱后的句子上运行同一个变体和同一个头，再把每一行、每一列放回其词元原来的位置。\
                     没有位置编码时两个矩阵相同：注意力只看到有哪些词，看不到它们的顺序。有位置编码时两者不同。",
                )}
            </p>
            <div class="bow-controls">
                <VariantPicker id="bag-variant"/>
                <HeadPicker id="bag-head"/>
                <button type="button" data-testid="bow-shuffle" disabled=move || !can_shuffle()
                    title=move || match (cross(), lang.get()) {
                        (true, l) => l.pick(
                            "the shuffle check runs on one sentence in self-attention mode",
                            "打乱检验在自注意力模式下对一个句子进行",
                        ),
                        (false, l) => l.pick(
                            "shuffle the tokens (seeded: the same order every time for this seed)",
                            "打乱词元（按种子：同一个种子每次得到相同的顺序）",
                        ),
                    }
                    on:click=move |_| {
                        let d = next_draw.get_value();
                        next_draw.set_value(d + 1);
                        draw.set(Some(d));
                    }>{t("shuffle tokens", "打乱词元")}</button>
                <button type="button" data-testid="bow-restore" disabled=move || draw.get().is_none()
                    on:click=move |_| draw.set(None)>{t("restore", "还原")}</button>
            </div>
            <p class="bow-order" data-testid="bow-order">
                {t("order: ", "顺序：")}
                {move || match permutation.get() {
                    Some(p) => p.describe(),
                    None => lang.get().pick("as typed", "按输入顺序").to_string(),
                }}
            </p>
            {move || shuffled_words().map(|w| view! {
                <p class="bow-words" data-testid="bow-words">{t("shuffled: ", "打乱后：")}<span translate="no">{w}</span></p>
            })}
            {move || cross().then(|| view! {
                <p class="explain-message" data-testid="bow-cross">{t(
                    "The shuffle check runs on one sentence: switch the mode to self-attention to use it.",
                    "打乱检验针对一个句子：请把模式切换为自注意力后使用。",
                )}</p>
            })}
            {move || (!cross() && !can_shuffle()).then(|| view! {
                <p class="explain-message" data-testid="bow-short">{t(
                    "Type at least two words to shuffle them.",
                    "请至少输入两个词才能打乱。",
                )}</p>
            })}
            {move || (draw.get().is_none() && can_shuffle()).then(|| view! {
                <p class="explain-note" data-testid="bow-prompt">{t(
                    "Press \u{201c}shuffle tokens\u{201d} to run the check.",
                    "按\u{201c}打乱词元\u{201d}运行检验。",
                )}</p>
            })}
            {move || check.get().map(|c| match c {
                Err(msg) => view! { <p class="explain-message" data-testid="bow-error">{msg}</p> }.into_any(),
                Ok(b) => view! {
                    <div class="bow-results">
                        <div class="bow-result" data-testid="bow-off">
                            <span class="bow-label">{t(
                                "positions off: max |difference| after un-permuting = ",
                                "关闭位置编码：放回原位后的最大 |差异| = ",
                            )}</span>
                            {match caveat.get() {
                                Some(why) => view! {
                                    <span class="explain-message" data-testid="bow-caveat">
                                        {match lang.get() {
                                            Lang::En => format!("not a bag of words here: {why}. Turn such masks off to see the check read \u{2248} 0."),
                                            Lang::Zh => format!("这里不是词袋：{why}。关闭这类掩码，检验结果就会 \u{2248} 0。"),
                                        }}
                                    </span>
                                }.into_any(),
                                None => view! {
                                    <strong data-testid="bow-diff-off" data-value=b.without_positions.max_difference.to_string()>
                                        {number::readable(b.without_positions.max_difference)}
                                    </strong>
                                    <span>{t(" (\u{2248} 0: the same matrix, permuted)", "（\u{2248} 0：同一个矩阵，只是换了顺序）")}</span>
                                }.into_any(),
                            }}
                        </div>
                        <div class="bow-result" data-testid="bow-on">
                            <span class="bow-label">{move || {
                                let how = positions::describe(&b.with_positions.position, lang.get());
                                super::super::with_symbols(&match lang.get() {
                                    Lang::En => format!("positions on ({how}): max |difference| = "),
                                    Lang::Zh => format!("开启位置编码（{how}）：最大 |差异| = "),
                                })
                            }}</span>
                            <strong data-testid="bow-diff-on" data-value=b.with_positions.max_difference.to_string()>
                                {number::readable(b.with_positions.max_difference)}
                            </strong>
                            <span>{t(" (the weights change when the words move)", "（词移动时权重随之改变）")}</span>
                            {b.positions_substituted.then(|| view! {
                                <span class="explain-note">{t(
                                    " \u{2014} the model has positions off, so this side uses sinusoids.",
                                    " \u{2014} 模型关闭了位置编码，所以这一侧使用正弦编码。",
                                )}</span>
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
