//! The "why √d_k" page: for random unit-variance q and k, the spread of the logits and
//! the entropy of the softmax against d_k, with and without `1/√d_k`, the sentence's own
//! values beside them, and one row of weights that shows "nearly one-hot". The
//! experiment is `attnlab_lab::pages::scaling`.

mod example_rows;
mod scaling_charts;
mod scaling_table;

pub use example_rows::ExampleRows;
pub use scaling_charts::ScalingCharts;
pub use scaling_table::ScalingTable;

use attnlab_lab::pages::scaling::{self, ScalingStudy, SentenceValues};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::state::use_app_state;
use crate::widgets::view_pickers::{HeadPicker, VariantPicker};

/// The "why √d_k" page.
#[component]
pub fn ScalingPage() -> impl IntoView {
    let state = use_app_state();
    let keys = Memo::new(move |_| state.key_tokens.with(|t| t.used().len()));
    let seed = Memo::new(move |_| state.model.with(|m| m.seed));
    let study: Memo<ScalingStudy> = Memo::new(move |_| scaling::study(keys.get(), seed.get()));
    let sentence: Memo<Option<SentenceValues>> = Memo::new(move |_| {
        let h = state.shown_head();
        state.shown_slot()?.memos.problem.with(|p| {
            let p = p.as_ref().ok()?;
            scaling::sentence_values(p.heads().get(h)?)
        })
    });
    view! {
        <section class="explain scaling" data-testid="scaling-page" aria-label="Why divide by the square root of d_k">
            <h2 class="section-title">"Why divide by \u{221a}d_k?"</h2>
            <p class="explain-lead">
                "If the entries of q and k are independent with mean 0 and variance 1, then q\u{b7}k is a sum of d_k such products, "
                "so its variance is d_k and its spread grows as \u{221a}d_k. Large logits push the softmax into its flat tails: one key takes almost all the weight "
                "and the gradients of the others vanish. Dividing by \u{221a}d_k brings the spread back to 1 at every width."
            </p>
            <div class="view-pickers">
                <VariantPicker id="scaling-variant"/>
                <HeadPicker id="scaling-head"/>
            </div>
            <p class="explain-note" data-testid="scaling-setup">
                {move || {
                    let s = study.get();
                    format!(
                        "Experiment: for each d_k, {} random queries (in {} independent draws of keys) against n = {} random keys (n = your {}sentence's length{}), entries ~ N(0, 1), seed {}. \
                         Entropy is in nats; a uniform row has the maximum ln n = {}.",
                        s.queries,
                        scaling::trials_for(s.keys),
                        s.keys,
                        if state.mode.get() == attnlab_lab::Mode::Cross { "source " } else { "" },
                        if keys.get() < 2 { ", at least 2" } else { "" },
                        s.seed,
                        number::decimals(s.max_entropy(), 2)
                    )
                }}
            </p>
            <ScalingCharts study=study sentence=sentence/>
            <ScalingTable study=study sentence=sentence/>
            <ExampleRows study=study/>
        </section>
    }
}
