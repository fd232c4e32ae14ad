//! The "why √d_k" page: for random unit-variance q and k, the spread of the logits and
//! the entropy of the softmax against d_k, with and without `1/√d_k`, the sentence's own
//! values beside them, and one row of weights that shows "nearly one-hot". The
//! experiment is `attnlab_pages::scaling`.

mod example_rows;
mod scaling_charts;
mod scaling_table;

pub use example_rows::ExampleRows;
pub use scaling_charts::ScalingCharts;
pub use scaling_table::ScalingTable;

use attnlab_pages::scaling::{self, ScalingStudy, SentenceValues};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::{Lang, t};
use crate::state::{LabFields, use_app_state};
use crate::widgets::view_pickers::{HeadPicker, VariantPicker};

/// The "why √d_k" page.
#[component]
pub fn ScalingPage() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let keys = Memo::new(move |_| state.derived.key_tokens.with(|t| t.used().len()));
    let seed = Memo::new(move |_| state.lab.model().with(|m| m.seed));
    let study: Memo<ScalingStudy> = Memo::new(move |_| scaling::study(keys.get(), seed.get()));
    let sentence: Memo<Option<SentenceValues>> = Memo::new(move |_| {
        let h = state.shown_head();
        state.shown_slot()?.memos.problem.with(|p| {
            let p = p.as_ref().ok()?;
            scaling::sentence_values(p.heads().get(h)?)
        })
    });
    view! {
        <section class="explain scaling" data-testid="scaling-page"
            aria-label=t("Why divide by the square root of d_k", "为什么要除以 d_k 的平方根")>
            <h2 class="section-title">{t("Why divide by \u{221a}d_k?", "为什么要除以 \u{221a}d_k？")}</h2>
            <p class="explain-lead">
                {t(
                    "If the entries of q and k are independent with mean 0 and variance 1, then q\u{b7}k is a sum of d_k such products, \
                     so its variance is d_k and its spread grows as \u{221a}d_k. Large logits push the softmax into its flat tails: one key takes almost all the weight \
                     and the gradients of the others vanish. Dividing by \u{221a}d_k brings the spread back to 1 at every width.",
                    "如果 q 和 k 的各个分量相互独立、均值为 0、方差为 1，那么 q\u{b7}k 是 d_k 个这样的乘积之和，\
                     其方差为 d_k，离散程度按 \u{221a}d_k 增长。过大的分数把 softmax 推入平坦的尾部：一个键几乎拿走全部权重，\
                     其余键的梯度消失。除以 \u{221a}d_k 之后，在任何宽度下离散程度都回到 1。",
                )}
            </p>
            <div class="view-pickers">
                <VariantPicker id="scaling-variant"/>
                <HeadPicker id="scaling-head"/>
            </div>
            <p class="explain-note" data-testid="scaling-setup">
                {move || {
                    let s = study.get();
                    let (queries, draws, n, seed) =
                        (s.queries, scaling::trials_for(s.keys), s.keys, s.seed);
                    let ceiling = number::decimals(s.max_entropy(), 2);
                    let cross = state.lab.mode().get() == attnlab_lab::Mode::Cross;
                    let short = keys.get() < 2;
                    match lang.get() {
                        Lang::En => format!(
                            "Experiment: for each d_k, {queries} random queries (in {draws} independent draws of keys) against n = {n} random keys (n = your {}sentence's length{}), entries ~ N(0, 1), seed {seed}. \
                             Entropy is in nats; a uniform row has the maximum ln n = {ceiling}.",
                            if cross { "source " } else { "" },
                            if short { ", at least 2" } else { "" },
                        ),
                        Lang::Zh => format!(
                            "实验：对每个 d_k，用 {queries} 个随机查询（分 {draws} 次独立抽取键）对 n = {n} 个随机键（n = 你的{}长度{}），各分量 ~ N(0, 1)，种子 {seed}。\
                             熵以奈特为单位；均匀的一行取得最大值 ln n = {ceiling}。",
                            if cross { "源句" } else { "句子" },
                            if short { "，至少为 2" } else { "" },
                        ),
                    }
                }}
            </p>
            <ScalingCharts study=study sentence=sentence/>
            <ScalingTable study=study sentence=sentence/>
            <ExampleRows study=study/>
        </section>
    }
}
