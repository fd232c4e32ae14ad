use attnlab_lab::neuron::{Neuron, Order, RowEntry, Strip};
use attnlab_plot::number;
use leptos::prelude::*;

fn strip_view(strip: Strip) -> impl IntoView {
    let cells = strip
        .cells
        .into_iter()
        .map(|(d, v, c)| {
            let colour = format!("background: rgb({}, {}, {})", c.0, c.1, c.2);
            let tip = format!("dimension {d}: {}", number::full(v));
            view! { <span class="neuron-cell" style=colour title=tip.clone() aria-label=tip data-value=number::full(v)></span> }
        })
        .collect_view();
    view! {
        <div class="neuron-strip" data-testid=format!("neuron-{}", strip.id)>
            <span class="neuron-strip-name">{strip.name}</span>
            <span class="neuron-cells">{cells}</span>
        </div>
    }
}

fn row_view(entries: Vec<RowEntry>) -> impl IntoView {
    let top = entries.iter().fold(0.0f32, |m, e| m.max(e.weight));
    let rows = entries
        .into_iter()
        .map(|e| {
            let width = if top > 0.0 { 100.0 * e.weight / top } else { 0.0 };
            view! {
                <tr class:is-selected=e.selected class:is-blocked=!e.allowed>
                    <th scope="row">{e.label}</th>
                    <td class="num">{if e.allowed { number::significant(e.score, 4) } else { "\u{2212}\u{221e} (masked)".to_string() }}</td>
                    <td class="num">{number::significant(e.weight, 4)}</td>
                    <td class="neuron-bar"><span style=format!("width: {width:.1}%")></span></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="neuron-row" data-testid="neuron-row">
            <caption>"The whole row: every key's raw score and weight"</caption>
            <thead><tr><th scope="col">"key"</th><th scope="col">"raw score"</th><th scope="col">"weight"</th><th></th></tr></thead>
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
    let body = move || {
        view.with(|v| match v {
            None => None,
            Some(Err(why)) => Some(view! { <p class="variant-error" role="status">{why.clone()}</p> }.into_any()),
            Some(Ok(n)) => {
                let (queries, keys) = labels.get();
                let q_label = queries.get(n.query).cloned().unwrap_or_default();
                let k_label = keys.get(n.key).cloned().unwrap_or_else(|| format!("k'{}", n.key));
                let strips = n.strips(order.get()).into_iter().map(strip_view).collect_view();
                let steps = n.steps().into_iter().map(|s| view! { <li>{s}</li> }).collect_view();
                Some(view! {
                    <h3 class="neuron-title" data-testid="neuron-title">
                        {format!("Neuron view \u{b7} {}head {} \u{b7} query \u{201c}{q_label}\u{201d} ({}) \u{2192} key \u{201c}{k_label}\u{201d} ({})", place.get(), n.head, n.query, n.key)}
                    </h3>
                    <label class="neuron-sort">
                        <input type="checkbox" data-testid="neuron-sort"
                            prop:checked=move || order.get() == Order::Magnitude
                            on:change=move |ev| order.set(if event_target_checked(&ev) { Order::Magnitude } else { Order::Dimension })/>
                        " sort dimensions by |product|, largest first"
                    </label>
                    <div class="neuron-strips">{strips}</div>
                    <p class="neuron-sum" data-testid="neuron-sum" data-value=number::full(n.sum)>
                        {format!("\u{3a3} = {}", number::full(n.sum))}
                    </p>
                    <ol class="neuron-steps" data-testid="neuron-steps">{steps}</ol>
                    <p class="neuron-weight" data-testid="neuron-weight" data-value=number::full(n.weight)>
                        {format!("weight \u{3b1} = {}", number::full(n.weight))}
                    </p>
                    {row_view(n.row(&keys))}
                }.into_any())
            }
        })
    };
    view! {
        <Show when=move || view.with(Option::is_some)>
            <section class="neuron-panel" data-testid="neuron-panel" aria-label="Neuron view">
                <button type="button" class="neuron-close" data-testid="neuron-close" aria-label="close the neuron view"
                    on:click=move |_| on_close.run(())>"\u{d7}"</button>
                {body}
            </section>
        </Show>
    }
}
