//! The position-encodings page: the PE table, chosen dimensions as curves, `PE(a)·PE(b)`
//! (a function of `a − b` only), the residual of `PE(p+k) = R_k·PE(p)`, and the
//! bag-of-words shuffle. The encoding knobs edit the shared model settings, so the lab
//! follows; the maths is in `attnlab_pages::positions`.

mod bag_of_words;
mod pe_curves;
mod position_knobs;
mod rotation_readout;

pub use bag_of_words::BagOfWordsPanel;
pub use pe_curves::PeCurves;
pub use position_knobs::PositionKnobs;
pub use rotation_readout::RotationReadout;

use attnlab_core::position::PositionKind;
use attnlab_lab::state::MAX_TOKENS;
use attnlab_pages::positions;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{Lang, t};
use crate::state::{LabFields, use_app_state};

/// Positions drawn when none are asked for, at the least: enough for the slow
/// dimensions' waves to show (a sentence's dozen positions show barely a turn of them).
pub const POSITIONS_DRAWN_AT_LEAST: usize = 64;

/// The page's local view settings (not part of the model): how many positions to draw,
/// which dimensions as curves, the offset `k` of the rotation check.
#[derive(Debug, Clone, Copy)]
pub struct PositionView {
    /// Positions drawn; `None` = as many as the sentence has tokens, and at least
    /// [`POSITIONS_DRAWN_AT_LEAST`].
    pub count: RwSignal<Option<usize>>,
    /// The dimensions drawn as curves, as typed.
    pub dims: RwSignal<Option<String>>,
    /// The offset `k` of `PE(p+k) = R_k·PE(p)`.
    pub k: RwSignal<usize>,
}

/// The position-encodings page.
#[component]
pub fn PositionsPage() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let local = PositionView {
        count: RwSignal::new(None),
        dims: RwSignal::new(None),
        k: RwSignal::new(1),
    };
    let n = Memo::new(move |_| {
        let tokens = state.derived.tokens.with(|t| t.used().len());
        local
            .count
            .get()
            .unwrap_or(tokens.max(POSITIONS_DRAWN_AT_LEAST))
            .clamp(1, MAX_TOKENS)
    });
    let invalid = Memo::new(move |_| {
        state.lab.model().with(|m| {
            m.position
                .validate(m.d_model)
                .err()
                .map(|e| attnlab_lab::explain(&e))
        })
    });
    let table = Memo::new(move |_| state.lab.model().with(|m| positions::table(m, n.get())));
    let kind = move || state.lab.model().with(|m| m.position.kind);
    let pe_figure = Signal::derive(move || {
        if invalid.with(Option::is_some) || kind() == PositionKind::None {
            return None;
        }
        table.with(|t| positions::table_heatmap(t, lang.get()).ok())
    });
    let dot = Memo::new(move |_| table.with(positions::dot_matrix));
    let dot_figure = Signal::derive(move || {
        if invalid.with(Option::is_some) || kind() == PositionKind::None {
            return None;
        }
        dot.with(|g| positions::dot_heatmap(g, lang.get()).ok())
    });
    let spread = Memo::new(move |_| dot.with(positions::diagonal_spread));
    let input_shape = move || {
        state.derived.encoded.with(|x| {
            x.as_ref().ok().map(|x| {
                let how = match state.lab.model().with(|m| m.position.combine) {
                    attnlab_core::position::Combine::Add => "x = e + PE",
                    attnlab_core::position::Combine::Concat { .. } => "x = [e, PE]",
                };
                let (n, d, p) = (x.x.nrows(), x.x.ncols(), x.positions.ncols());
                match lang.get() {
                    Lang::En => format!(
                        "The lab's input: {how}, so X is {n} tokens \u{d7} {d} (positions {p} wide)."
                    ),
                    Lang::Zh => format!(
                        "实验室的输入：{how}，所以 X 是 {n} 个词元 \u{d7} {d}（位置向量宽 {p}）。"
                    ),
                }
            })
        })
    };

    view! {
        <section class="explain positions" data-testid="positions-page" aria-label=t("Position encodings", "位置编码")>
            <h2 class="section-title">{t("Position encodings", "位置编码")}</h2>
            <p class="explain-lead">
                {t(
                    "Attention compares every token with every other one, and nothing in that comparison says where a token stands: \
                     without positions, shuffling the words shuffles the attention matrix and changes nothing else. \
                     A position encoding adds to each token a vector PE(p) for its place p. The sinusoids use a frequency per pair of dimensions, ",
                    "注意力把每个词元与其他每个词元相比较，而这种比较本身并不说明词元处在哪里：\
                     没有位置编码时，打乱词序只会打乱注意力矩阵，别的什么都不变。\
                     位置编码给每个词元加上一个表示其位置 p 的向量 PE(p)。正弦编码为每一对维度使用一个频率 ",
                )}
                <span translate="no">"\u{3c9}_i = base^(\u{2212}2i/d)"</span>
                {t(
                    ", so that moving by k positions is the same rotation R_k at every place, \
                     and PE(a)\u{b7}PE(b) depends only on the distance a \u{2212} b.",
                    "，使得在任何位置上移动 k 个位置都是同一个旋转 R_k，\
                     并且 PE(a)\u{b7}PE(b) 只取决于距离 a \u{2212} b。",
                )}
            </p>
            <PositionKnobs local=local/>
            <p class="explain-note" data-testid="pe-input-shape">{input_shape}</p>
            {move || state.brought.with(Option::is_some).then(|| view! {
                <p class="hint" data-testid="positions-brought">
                    {t(
                        "This page shows the seeded model's position encodings for the sentence in the box. \
                         Brought tensors already carry whatever positions their own model added.",
                        "本页显示的是按种子生成的模型为输入框中的句子计算的位置编码。\
                         导入的张量已经带有它们自己的模型所加的位置信息。",
                    )}
                </p>
            })}
            {move || invalid.get().map(|msg| view! { <p class="explain-message" data-testid="positions-invalid">{msg}</p> })}
            {move || (kind() == PositionKind::None).then(|| view! {
                <p class="explain-message" data-testid="pe-none-message">
                    {t(
                        "Positions are off: every PE(p) is the zero vector, so the model sees the sentence as a bag of words. \
                         Choose sinusoidal or learned positions to draw them — and see the shuffle check below.",
                        "位置编码已关闭：每个 PE(p) 都是零向量，模型把句子看作一个词袋。\
                         选择正弦或可学习的位置编码即可画出它们——并看看下面的打乱检验。",
                    )}
                </p>
            })}
            <div class="positions-figures">
                <figure class="explain-figure wide" data-testid="pe-table-figure">
                    <figcaption>
                        {t(
                            "The position vectors: one row per position, one column per dimension (red +, blue \u{2212}) \u{b7} ",
                            "位置向量：每个位置一行，每个维度一列（红色为 +，蓝色为 \u{2212}）\u{b7} ",
                        )}
                        {move || state.lab.model().with(|m| super::with_symbols(&positions::describe(&m.position, lang.get())))}
                    </figcaption>
                    <HeatmapCanvas figure=pe_figure testid="pe-heatmap" kind="matrix" pointing=Pointing::Reading/>
                </figure>
                <figure class="explain-figure wide" data-testid="pe-curves-figure">
                    <figcaption>{t(
                        "The chosen dimensions as curves over position: low dimensions turn fast, high ones slowly.",
                        "所选维度随位置变化的曲线：低维转得快，高维转得慢。",
                    )}</figcaption>
                    <PeCurves table=table local=local/>
                </figure>
                <figure class="explain-figure" data-testid="pe-dot-figure">
                    <figcaption>
                        {t(
                            "PE(a)\u{b7}PE(b): constant along each diagonal when it depends only on a \u{2212} b. Largest spread along a diagonal: ",
                            "PE(a)\u{b7}PE(b)：若只取决于 a \u{2212} b，则沿每条对角线不变。沿对角线的最大波动：",
                        )}
                        <strong data-testid="pe-diagonal-spread" data-value=move || spread.get().to_string()>
                            {move || number::readable(spread.get())}
                        </strong>
                        {move || match kind() {
                            PositionKind::Sinusoidal => lang.get().pick(
                                " (\u{2248} 0: only the distance matters).",
                                "（\u{2248} 0：只有距离起作用）。",
                            ),
                            PositionKind::Learned => lang.get().pick(
                                " (learned vectors know nothing of distance).",
                                "（可学习的向量对距离一无所知）。",
                            ),
                            PositionKind::None => lang.get().pick(" (all zeros).", "（全为 0）。"),
                        }}
                    </figcaption>
                    <HeatmapCanvas figure=dot_figure testid="pe-dot-heatmap" kind="matrix" pointing=Pointing::Reading/>
                </figure>
                <RotationReadout table=table local=local/>
            </div>
            <BagOfWordsPanel/>
        </section>
    }
}
