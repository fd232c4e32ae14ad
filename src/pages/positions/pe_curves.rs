use attnlab_lab::pages::positions;
use leptos::prelude::*;

use super::PositionView;
use crate::canvas::LineChartCanvas;
use crate::state::use_app_state;
use crate::widgets::knob::{Knob, why_id};

/// At most this many dimensions are drawn as curves.
pub const MAX_CURVES: usize = 4;

/// The chosen dimensions of the PE table as curves over position.
#[component]
pub fn PeCurves(
    /// The PE table drawn on the page.
    table: Memo<positions::PeTable>,
    /// The page's own view settings (the dimensions).
    local: PositionView,
) -> impl IntoView {
    let state = use_app_state();
    let dims_error = RwSignal::new(None::<String>);
    let dims = Memo::new(move |_| {
        let width = table.with(|t| t.ncols());
        let defaults = state.model.with(positions::default_dims);
        match local.dims.get() {
            Some(text) => positions::parse_dims(&text, width, MAX_CURVES).unwrap_or(defaults),
            None => defaults,
        }
    });
    let dims_text = move || {
        dims.get()
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let chart = Signal::derive(move || {
        let config = state.model.with(|m| m.position);
        (config.kind != attnlab_core::position::PositionKind::None)
            .then(|| table.with(|t| dims.with(|d| positions::curves_chart(&config, t, d))))
    });
    view! {
        <div class="pe-curves">
            <LineChartCanvas chart=chart testid="pe-curves" class="line-canvas"/>
            <Knob label="dimensions" id="pos-dims" why=Signal::derive(move || dims_error.get())>
                <input type="text" data-testid="pos-dims" aria-describedby=why_id("pos-dims")
                    prop:value=dims_text
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        let width = table.with_untracked(|t| t.ncols());
                        match positions::parse_dims(&text, width, MAX_CURVES) {
                            Ok(_) => {
                                dims_error.set(None);
                                local.dims.set(Some(text));
                            }
                            Err(e) => dims_error.set(Some(e)),
                        }
                    }/>
            </Knob>
        </div>
    }
}
