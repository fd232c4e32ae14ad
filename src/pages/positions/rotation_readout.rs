use attnlab_lab::pages::positions::{self, RotationCheck};
use attnlab_plot::number;
use leptos::prelude::*;

use super::PositionView;
use crate::state::use_app_state;
use crate::widgets::knob::{Knob, why_id};

/// The measured residual of `PE(p+k) = R_k·PE(p)` for the chosen offset `k`, or why
/// there is no `R_k` (learned positions, or none).
#[component]
pub fn RotationReadout(
    /// The PE table drawn on the page.
    table: Memo<positions::PeTable>,
    /// The page's own view settings (the offset `k`).
    local: PositionView,
) -> impl IntoView {
    let state = use_app_state();
    let k_error = RwSignal::new(None::<String>);
    let check = Memo::new(move |_| {
        let k = local.k.get();
        state
            .model
            .with(|m| table.with(|t| positions::rotation_check(&m.position, t, k)))
    });
    let on_k = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<usize>() {
        Ok(k) if k < 512 => {
            k_error.set(None);
            local.k.set(k);
        }
        _ => k_error.set(Some("k is a whole number from 0 to 511".into())),
    };
    view! {
        <div class="explain-figure rotation" data-testid="pe-rotation-panel">
            <h3 class="figure-title">"Moving by k positions is one rotation"</h3>
            <p class="explain-note">
                "For every offset k there is a block-diagonal rotation R_k, the same for every position p, with PE(p+k) = R_k\u{b7}PE(p): "
                "each (sin, cos) pair turns by the angle \u{3c9}_i\u{b7}k. That is why attention can read relative positions."
            </p>
            <Knob label="offset k" id="pos-k" why=Signal::derive(move || k_error.get())>
                <input type="number" min="0" max="511" step="1" data-testid="pos-k"
                    aria-describedby=why_id("pos-k")
                    prop:value=move || local.k.get().to_string()
                    on:change=on_k/>
            </Knob>
            {move || match check.get() {
                RotationCheck::Residual { k, residual, checked } => view! {
                    <p class="readout">
                        "max over p of |PE(p+" {k} ") \u{2212} R_" {k} "\u{b7}PE(p)| = "
                        <strong data-testid="pe-rotation" data-value=residual.to_string()>{number::readable(residual)}</strong>
                        {format!(" over {checked} positions p (f32 rounding: the identity holds exactly).")}
                    </p>
                }.into_any(),
                RotationCheck::TooFewPositions { k, n } => view! {
                    <p class="explain-message" data-testid="pe-rotation-message">
                        {format!("With {n} positions there is no pair p, p + {k}: choose a smaller k or draw more positions.")}
                    </p>
                }.into_any(),
                RotationCheck::NoRotation(why) => view! {
                    <p class="explain-message" data-testid="pe-rotation-message">{why}</p>
                }.into_any(),
            }}
        </div>
    }
}
