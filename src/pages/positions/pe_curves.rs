use attnlab_i18n::msg;
use attnlab_pages::positions;
use leptos::prelude::*;

use super::PositionView;
use crate::canvas::LineChartCanvas;

use crate::state::{LabFields, use_app_state};
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
    let lang = state.lang;
    // The dimensions typed and refused; the reason is written in the language of the moment.
    let refused = RwSignal::new(None::<String>);
    let dims_error = move || {
        let width = table.with(|t| t.ncols());
        refused.with(|text| {
            positions::parse_dims(text.as_deref()?, width, MAX_CURVES, lang.get()).err()
        })
    };
    let dims = Memo::new(move |_| {
        let width = table.with(|t| t.ncols());
        let defaults = state.lab.model().with(positions::default_dims);
        match local.dims.get() {
            Some(text) => {
                positions::parse_dims(&text, width, MAX_CURVES, lang.get()).unwrap_or(defaults)
            }
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
        let config = state.lab.model().with(|m| m.position);
        (config.kind != attnlab_core::position::PositionKind::None).then(|| {
            table.with(|t| dims.with(|d| positions::curves_chart(&config, t, d, lang.get())))
        })
    });
    view! {
        <div class="pe-curves">
            <LineChartCanvas chart=chart testid="pe-curves" class="line-canvas"/>
            {move || view! {
            <Knob label=msg::positions::POSITIONS_KNOB_DIMS.get(lang.get()) id="pos-dims" why=Signal::derive(dims_error)>
                <input type="text" data-testid="pos-dims" aria-describedby=why_id("pos-dims")
                    prop:value=dims_text
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        let width = table.with_untracked(|t| t.ncols());
                        match positions::parse_dims(&text, width, MAX_CURVES, lang.get_untracked()) {
                            Ok(_) => {
                                refused.set(None);
                                local.dims.set(Some(text));
                            }
                            Err(_) => refused.set(Some(text)),
                        }
                    }/>
            </Knob>
            }}
        </div>
    }
}
