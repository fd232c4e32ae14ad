//! What a heatmap says without its picture: the table of its values (a disclosure
//! under the figure, built only while open, at most [`TABLE_LIMIT`] rows and columns),
//! and the sentence a screen reader hears when the keyboard moves between cells.

use attnlab_i18n::msg;
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

use crate::i18n::{Lang, text, use_lang};

/// The most rows and columns the table shows (the CSV export has every value).
pub const TABLE_LIMIT: usize = 64;

/// A cell as a sentence: "row the (3), column cat (1): 0.123", or that it is masked.
pub fn cell_sentence(h: &Heatmap, row: usize, col: usize, lang: Lang) -> Option<String> {
    let (r, c) = (h.row_labels().get(row)?, h.col_labels().get(col)?);
    // Named by their index in the whole matrix (a zoomed figure is a part of it).
    let (at_row, at_col) = (h.origin().0 + row, h.origin().1 + col);
    let value = if h.is_blocked(row, col) {
        msg::figure::TABLE_MASKED_CELL.get(lang).to_string()
    } else {
        number::significant(h.value(row, col)?, 3)
    };
    Some(
        msg::figure::TableCellSentence {
            row_axis: &h.row_axis(),
            row: r,
            at_row: &at_row,
            col_axis: &h.col_axis(),
            col: c,
            at_col: &at_col,
            value: &value,
        }
        .say(lang),
    )
}

/// The table of `figure`'s values, under a "Table" disclosure.
#[component]
pub fn FigureTable(
    /// The figure.
    #[prop(into)]
    figure: Signal<Option<Heatmap>>,
    /// The `data-testid` of the disclosure (its table is `{testid}-table`).
    #[prop(into)]
    testid: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    let open = RwSignal::new(false);
    let table = move || {
        if !open.get() {
            return None;
        }
        let l = lang.get();
        figure.with(|h| {
            let h = h.as_ref()?;
            let (n, m) = (h.n_rows(), h.n_cols());
            let (rows, cols) = (n.min(TABLE_LIMIT), m.min(TABLE_LIMIT));
            let cut = (n > rows || m > cols).then(|| {
                msg::figure::TableCut {
                    rows: &rows,
                    cols: &cols,
                    n: &n,
                    m: &m,
                }
                .say(l)
            });
            let head = h.col_labels()[..cols]
                .iter()
                .map(|c| view! { <th scope="col" translate="no">{c.clone()}</th> })
                .collect_view();
            let body = (0..rows)
                .map(|i| {
                    let cells = (0..cols)
                        .map(|j| {
                            let text = if h.is_blocked(i, j) {
                                "\u{2014}".to_string()
                            } else {
                                h.value(i, j).map(|v| number::significant(v, 3)).unwrap_or_default()
                            };
                            view! { <td>{text}</td> }
                        })
                        .collect_view();
                    view! { <tr><th scope="row" translate="no">{h.row_labels()[i].clone()}</th>{cells}</tr> }
                })
                .collect_view();
            let caption = format!(
                "{} ({} \u{2193}, {} \u{2192}; \u{2014} = {})",
                h.title(),
                h.row_axis(),
                h.col_axis(),
                msg::figure::TABLE_MASKED_CELL.get(l)
            );
            let label = caption.clone();
            Some(view! {
                <div class="figure-table-scroll" tabindex="0" role="region" aria-label=label>
                    <table data-testid=move || format!("{}-table", testid.get())>
                        <caption>{caption}</caption>
                        <thead><tr><td></td>{head}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {cut.map(|c| view! { <p class="hint">{c}</p> })}
            })
        })
    };
    view! {
        <details class="figure-table" data-testid=testid
            on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let el = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
                open.set(el.is_some_and(|d| d.open()));
            }>
            <summary>{text(msg::figure::TABLE_SUMMARY)}</summary>
            {table}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_reads_as_its_row_column_and_value() {
        let h = Heatmap::weights(
            "A",
            vec!["the".into(), "cat".into()],
            vec!["the".into(), "cat".into()],
            vec![0.25, 0.75, 1.0, 0.0],
        )
        .unwrap()
        .with_blocked(vec![false, false, false, true])
        .unwrap();
        assert_eq!(
            cell_sentence(&h, 0, 1, Lang::En).unwrap(),
            "queries the (0), keys cat (1): 0.75"
        );
        assert!(
            cell_sentence(&h, 1, 1, Lang::En)
                .unwrap()
                .ends_with("masked")
        );
        let h = h.with_words(attnlab_i18n::plot_words(Lang::Zh));
        assert_eq!(
            cell_sentence(&h, 0, 1, Lang::Zh).unwrap(),
            "查询 the（0），键 cat（1）：0.75"
        );
        assert_eq!(cell_sentence(&h, 2, 0, Lang::En), None);
    }
}
