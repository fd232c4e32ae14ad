use attnlab_pages::complexity::Measurements;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::t;

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
            <caption>{t(
                "Measured milliseconds per call (median of the samples)",
                "每次调用实测的毫秒数（各样本的中位数）",
            )}</caption>
            <thead>
                <tr>
                    <th scope="col">"n"</th>
                    <th scope="col">{t("softmax (streaming) ms", "softmax（流式）毫秒")}</th>
                    <th scope="col">{t("linear elu1 ms", "线性 elu1 毫秒")}</th>
                    <th scope="col">{t("softmax / linear", "softmax / 线性")}</th>
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
