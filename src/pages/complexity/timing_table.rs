use attnlab_i18n::msg;
use attnlab_pages::complexity::Measurements;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::text;

/// Milliseconds with 3 significant digits, or `…` before the point is measured.
fn ms(v: Option<f64>) -> String {
    v.map_or("…".into(), |v| number::significant(v, 3))
}

/// The measured points: one row per size with both times and their ratio. Each time
/// cell carries its exact value in `data-ms`.
#[component]
pub fn TimingTable(
    /// The points measured so far.
    #[prop(into)]
    measurements: Signal<Measurements>,
) -> impl IntoView {
    let rows = move || measurements.with(Measurements::rows);
    let raw = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    view! {
        <table class="timing-table" data-testid="complexity-table">
            <caption>{text(msg::complexity::COMPLEXITY_TABLE_CAPTION)}</caption>
            <thead>
                <tr>
                    <th scope="col">"n"</th>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_TABLE_SOFTMAX)}</th>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_TABLE_LINEAR)}</th>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_TABLE_RATIO)}</th>
                </tr>
            </thead>
            <tbody>
                {move || rows().into_iter().map(|row| view! {
                    <tr data-testid="complexity-row" data-n=row.n>
                        <th scope="row">{row.n}</th>
                        <td data-testid="softmax-ms" data-ms=raw(row.softmax_ms)>{ms(row.softmax_ms)}</td>
                        <td data-testid="linear-ms" data-ms=raw(row.linear_ms)>{ms(row.linear_ms)}</td>
                        <td data-testid="ratio">{row.ratio().map_or("…".to_string(), |r| number::decimals(r, 2))}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}
