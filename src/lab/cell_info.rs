use attnlab_i18n::msg;
use attnlab_lab::figure;
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;
use leptos::text_prop::TextProp;

use crate::i18n::{Tr, use_lang};

const IDLE: Tr = msg::lab::CELL_INFO_IDLE;

/// The cell under the pointer (or the keyboard focus) of `figure`, read out: query
/// token, key token, the exact weight, the raw score before softmax when there is one,
/// and the row's entropy when the figure carries it.
#[component]
pub fn CellInfo(
    /// The figure read.
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// The cell to read.
    #[prop(into)]
    cell: Signal<Option<(usize, usize)>>,
    /// Put before the reading (e.g. which head of a grid).
    #[prop(optional, into)]
    prefix: Signal<String>,
    /// Shown while no cell is read (a text, or a closure that follows the language).
    #[prop(optional, into)]
    idle: Option<TextProp>,
    /// Whether a row without an entropy reads its sum of weights (a variant's weights;
    /// not a difference or a relevance map).
    #[prop(optional)]
    row_sums: bool,
) -> impl IntoView {
    let lang = use_lang();
    let reading = move || {
        let lang = lang.get();
        let cell = cell.get()?;
        figure.with(|h| {
            let h = h.as_ref()?;
            let r = figure::read_cell(h, cell)?;
            let sentence = r.sentence(lang);
            let text = match h.raw_score(cell.0, cell.1) {
                Some(raw) => msg::lab::CellInfoRawScore {
                    sentence: &sentence,
                    raw: &number::full(raw),
                }
                .say(lang),
                None => sentence,
            };
            // The row's entropy, which a phone's figure leaves out of its canvas.
            let text = match h.row_entropy(cell.0) {
                Some((nats, share)) => msg::lab::CellInfoRowEntropy {
                    text: &text,
                    nats: &number::decimals(nats, 2),
                    share: &(share * 100.0).round(),
                }
                .say(lang),
                // Rows that are not distributions (softmax + 1, sigmoid and softpick may
                // attend to nothing; differential and decayed rows go negative): each
                // row's sum of weights instead.
                None if row_sums => {
                    let m = h.n_cols();
                    let row = h.values().get(cell.0 * m..(cell.0 + 1) * m);
                    let sum: f32 = row.map_or(0.0, |r| r.iter().sum());
                    msg::lab::CellInfoRowSum {
                        text: &text,
                        sum: &number::decimals(sum, 3),
                    }
                    .say(lang)
                }
                None => text,
            };
            Some(prefix.with(|p| format!("{p}{text}")))
        })
    };
    view! {
        <p class="cell-info" data-testid="cell-info" class:is-idle=move || reading().is_none() aria-live="polite">
            {move || reading().unwrap_or_else(|| match &idle {
                Some(idle) => idle.get().to_string(),
                None => IDLE.get(lang.get()).to_string(),
            })}
        </p>
    }
}
