use attnlab_i18n::msg;
use attnlab_pages::neuron::{Neuron, Order, RowEntry, Strip};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::{Lang, text, use_lang};

fn strip_view(lang: Lang, strip: Strip) -> impl IntoView {
    let cells = strip
        .cells
        .into_iter()
        .map(|(d, v, c)| {
            let colour = format!("background: rgb({}, {}, {})", c.0, c.1, c.2);
            let tip = msg::neuron::NeuronCellTip {
                dim: &d,
                value: &number::full(v),
            }
            .say(lang);
            view! { <span class="neuron-cell" style=colour title=tip.clone() aria-label=tip data-value=number::full(v)></span> }
        })
        .collect_view();
    view! {
        <div class="neuron-strip" data-testid=format!("neuron-{}", strip.id)>
            <span class="neuron-strip-name" translate="no">{strip.name}</span>
            <span class="neuron-cells">{cells}</span>
        </div>
    }
}

fn row_view(lang: Lang, entries: Vec<RowEntry>) -> impl IntoView {
    let top = entries.iter().fold(0.0f32, |m, e| m.max(e.weight));
    let rows = entries
        .into_iter()
        .map(|e| {
            let width = if top > 0.0 {
                100.0 * e.weight / top
            } else {
                0.0
            };
            view! {
                <tr class:is-selected=e.selected class:is-blocked=!e.allowed>
                    <th scope="row" translate="no">{e.label}</th>
                    <td class="num">{if e.allowed {
                        number::significant(e.score, 4)
                    } else {
                        format!("\u{2212}\u{221e} {}", msg::neuron::NEURON_MASKED.get(lang))
                    }}</td>
                    <td class="num">{number::significant(e.weight, 4)}</td>
                    <td class="neuron-bar"><span style=format!("width: {width:.1}%")></span></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="neuron-row" data-testid="neuron-row">
            <caption>{msg::neuron::NEURON_ROW_CAPTION.get(lang)}</caption>
            <thead><tr>
                <th scope="col">{msg::neuron::NEURON_KEY.get(lang)}</th>
                <th scope="col">{msg::neuron::NEURON_RAW_SCORE.get(lang)}</th>
                <th scope="col">{msg::neuron::NEURON_WEIGHT.get(lang)}</th>
                <th></th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// The neuron view of the selected cell: `q_i`, `k_j`, the factors of the score
/// function and their product as coloured cells (values on hover), the sum, the steps to
/// the weight, and the row's softmax beside the other keys. `view` is `None` until a cell
/// is clicked.
#[component]
pub fn NeuronPanel(
    /// The view of the selected cell, or why there is none.
    #[prop(into)]
    view: Signal<Option<Result<Neuron, String>>>,
    /// The query and key labels.
    #[prop(into)]
    labels: Signal<(Vec<String>, Vec<String>)>,
    /// Closes the panel.
    on_close: Callback<()>,
    /// Where the head is, put before it in the title (e.g. `"layer 2 · "`).
    #[prop(optional, into)]
    place: Signal<String>,
) -> impl IntoView {
    let order = RwSignal::new(Order::Dimension);
    let lang = use_lang();
    let body = move || {
        let lang = lang.get();
        view.with(|v| match v {
            None => None,
            Some(Err(why)) => Some(view! { <p class="variant-error" role="status">{why.clone()}</p> }.into_any()),
            Some(Ok(n)) => {
                let (queries, keys) = labels.get();
                let q_label = queries.get(n.query).cloned().unwrap_or_default();
                let k_label = keys.get(n.key).cloned().unwrap_or_else(|| format!("k'{}", n.key));
                let strips = n
                    .strips(order.get())
                    .into_iter()
                    .map(|s| strip_view(lang, s))
                    .collect_view();
                let steps = n.steps(lang).into_iter().map(|s| view! { <li>{s}</li> }).collect_view();
                let (head, query, key) = (n.head, n.query, n.key);
                let place = place.get();
                let said = msg::neuron::NeuronTitle {
                    place: &place,
                    head: &head,
                    query_token: &MARK[0],
                    query: &query,
                    key_token: &MARK[1],
                    key: &key,
                }
                .say(lang);
                // The two tokens are kept as they are (not translated).
                let title = with_marked(&said, |i| {
                    let token = if i == 0 { q_label.clone() } else { k_label.clone() };
                    view! { <span translate="no">{token}</span> }.into_any()
                });
                Some(view! {
                    <h3 class="neuron-title" data-testid="neuron-title">{title}</h3>
                    <label class="neuron-sort">
                        <input type="checkbox" data-testid="neuron-sort"
                            prop:checked=move || order.get() == Order::Magnitude
                            on:change=move |ev| order.set(if event_target_checked(&ev) { Order::Magnitude } else { Order::Dimension })/>
                        {msg::neuron::NEURON_SORT.get(lang)}
                    </label>
                    <div class="neuron-strips">{strips}</div>
                    <p class="neuron-sum" data-testid="neuron-sum" data-value=number::full(n.sum)>
                        {format!("\u{3a3} = {}", number::full(n.sum))}
                    </p>
                    <ol class="neuron-steps" data-testid="neuron-steps">{steps}</ol>
                    <p class="neuron-weight" data-testid="neuron-weight" data-value=number::full(n.weight)>
                        {format!("{} \u{3b1} = {}", msg::neuron::NEURON_WEIGHT.get(lang), number::full(n.weight))}
                    </p>
                    {row_view(lang, n.row(&keys))}
                }.into_any())
            }
        })
    };
    view! {
        <Show when=move || view.with(Option::is_some)>
            <section class="neuron-panel" data-testid="neuron-panel" aria-label=text(msg::neuron::NEURON_PANEL_LABEL)>
                <button type="button" class="neuron-close" data-testid="neuron-close"
                    aria-label=text(msg::neuron::NEURON_CLOSE)
                    on:click=move |_| on_close.run(())>"\u{d7}"</button>
                {body}
            </section>
        </Show>
    }
}
