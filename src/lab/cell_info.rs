use attnlab_lab::figure;
use attnlab_plot::{Heatmap, number};
use leptos::prelude::*;

const IDLE: &str =
    "Point at a cell (or focus the heatmap and use the arrow keys) to read its exact weight.";

/// The cell under the pointer (or the keyboard focus) of `figure`, read out: query
/// token, key token, the exact weight, and the raw score before softmax when there is one.
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
    /// Shown while no cell is read.
    #[prop(default = IDLE)]
    idle: &'static str,
) -> impl IntoView {
    let reading = move || {
        let cell = cell.get()?;
        figure.with(|h| {
            let h = h.as_ref()?;
            let r = figure::read_cell(h, cell)?;
            let text = match h.raw_score(cell.0, cell.1) {
                Some(raw) => format!(
                    "{}; raw score before softmax {}",
                    r.sentence(),
                    number::full(raw)
                ),
                None => r.sentence(),
            };
            Some(prefix.with(|p| format!("{p}{text}")))
        })
    };
    view! {
        <p class="cell-info" data-testid="cell-info" class:is-idle=move || reading().is_none() aria-live="polite">
            {move || reading().unwrap_or_else(|| idle.to_string())}
        </p>
    }
}
