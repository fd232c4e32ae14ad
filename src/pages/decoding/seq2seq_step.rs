use attnlab_i18n::msg;
use attnlab_pages::decoding::seq2seq::{self, Seq2seqRun};
use attnlab_plot::Heatmap;
use attnlab_plot::number::decimals;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::use_app_state;

/// The run the section shows, or the sentence saying why there is none.
pub type Seq2seqMemo = Memo<Result<Seq2seqRun, String>>;

/// One step of the classic decoder: the query `s_{t−1}` as a strip, the scores `e_t` and
/// weights `α_t` of every source word (a table, their sum under it), the context `c_t`
/// as a strip, and the next state's formula, which reads `c_t` or zeros in its place.
#[component]
pub fn Seq2seqStepPanel(run: Seq2seqMemo, step: Memo<usize>, feed: Memo<bool>) -> impl IntoView {
    let lang = use_app_state().lang;
    let query: Memo<Option<Heatmap>> = Memo::new(move |_| {
        run.with(|r| {
            seq2seq::query_strip(r.as_ref().ok()?, feed.get(), step.get(), lang.get()).ok()
        })
    });
    let context: Memo<Option<Heatmap>> = Memo::new(move |_| {
        run.with(|r| {
            seq2seq::context_strip(r.as_ref().ok()?, feed.get(), step.get(), lang.get()).ok()
        })
    });
    let rows = move || {
        run.with(|r| {
            r.as_ref()
                .map(|r| seq2seq::weights_rows(r, feed.get(), step.get()))
                .unwrap_or_default()
        })
    };
    let sum = move || run.with(|r| r.as_ref().ok().map(|r| r.row_sum(feed.get(), step.get())));
    let previous = move || {
        run.with(|r| {
            r.as_ref()
                .ok()
                .map(|r| seq2seq::previous_word(r, step.get()).to_string())
        })
    };
    view! {
        <div class="seq2seq-step" data-testid="seq2seq-step">
            <HeatmapCanvas figure=query testid="seq2seq-query" kind="seq2seq-query"
                pointing=Pointing::Reading/>
            <table class="why-table seq2seq-weights" data-testid="seq2seq-weights">
                <caption>{move || msg::seq2seq::Seq2seqWeightsCaption { t: &step.get() }.say(lang.get())}</caption>
                <thead>
                    <tr>
                        <th scope="col">{text(msg::seq2seq::SEQ2SEQ_COL_WORD)}</th>
                        <th scope="col">{text(msg::seq2seq::SEQ2SEQ_COL_SCORE)}</th>
                        <th scope="col">{text(msg::seq2seq::SEQ2SEQ_COL_WEIGHT)}</th>
                    </tr>
                </thead>
                <tbody>
                    {move || rows().into_iter().map(|w| {
                        let share = format!("width: {:.1}%", 100.0 * w.weight.clamp(0.0, 1.0));
                        view! {
                            <tr data-testid="seq2seq-weight-row" data-weight=w.weight.to_string()>
                                <th scope="row" translate="no">{w.word}</th>
                                <td class="seq2seq-number">{decimals(w.score, 3)}</td>
                                <td class="seq2seq-number">
                                    <span class="seq2seq-bar" aria-hidden="true"><span style=share></span></span>
                                    {decimals(w.weight, 3)}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <p class="seq2seq-row-sum" data-testid="seq2seq-row-sum"
                data-sum=move || sum().map(|s| s.to_string())>
                {move || sum().map(|s| msg::seq2seq::Seq2seqRowSum { sum: &decimals(s, 4) }.say(lang.get()))}
            </p>
            <HeatmapCanvas figure=context testid="seq2seq-context" kind="seq2seq-context"
                pointing=Pointing::Reading/>
            <p class="seq2seq-formula" data-testid="seq2seq-formula" data-feed=move || if feed.get() { "on" } else { "off" }>
                {move || if feed.get() {
                    text(msg::seq2seq::SEQ2SEQ_ENTERS)()
                } else {
                    text(msg::seq2seq::SEQ2SEQ_NOT_ENTERING)()
                }}" "
                <code translate="no">{move || seq2seq::state_formula(feed.get(), step.get())}</code>
                <span translate="no">{move || previous().map(|w| format!(", y_{} = “{w}”", step.get() - 1))}</span>
            </p>
            <p class="explain-lead" data-testid="seq2seq-feed-note">
                {move || if feed.get() {
                    text(msg::seq2seq::SEQ2SEQ_FEED_ON)()
                } else {
                    text(msg::seq2seq::SEQ2SEQ_FEED_OFF)()
                }}
            </p>
        </div>
    }
}
