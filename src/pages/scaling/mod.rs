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

use attnlab_i18n::msg;
use attnlab_pages::scaling::{self, ScalingStudy, SentenceValues};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::text;
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
            aria-label=text(msg::scaling::SCALING_PAGE_LABEL)>
            <h2 class="section-title">{text(msg::scaling::SCALING_PAGE_TITLE)}</h2>
            <p class="explain-lead">
                {text(msg::scaling::SCALING_LEAD)}
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
                    msg::scaling::ScalingSetup {
                        queries: &queries,
                        draws: &draws,
                        n: &n,
                        keys: if cross { "source" } else { "typed" },
                        length: if short { "short" } else { "enough" },
                        seed: &seed,
                        ceiling: &ceiling,
                    }
                    .say(lang.get())
                }}
            </p>
            <ScalingCharts study=study sentence=sentence/>
            <ScalingTable study=study sentence=sentence/>
            <ExampleRows study=study/>
        </section>
    }
}
