use attnlab_i18n::msg;
use attnlab_pages::positions::{self, RotationCheck};
use attnlab_plot::number;
use leptos::prelude::*;

use super::PositionView;
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};
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
    let lang = state.lang;
    let k_refused = RwSignal::new(false);
    let k_error = move || {
        k_refused.get().then(|| {
            msg::positions::POSITIONS_K_RANGE
                .get(lang.get())
                .to_string()
        })
    };
    let check = Memo::new(move |_| {
        let k = local.k.get();
        state
            .lab
            .model()
            .with(|m| table.with(|t| positions::rotation_check(&m.position, t, k)))
    });
    let on_k = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<usize>() {
        Ok(k) if k < 512 => {
            k_refused.set(false);
            local.k.set(k);
        }
        _ => k_refused.set(true),
    };
    view! {
        <div class="explain-figure rotation" data-testid="pe-rotation-panel">
            <h3 class="figure-title">{text(msg::positions::POSITIONS_ROTATION_TITLE)}</h3>
            <p class="explain-note">
                {text(msg::positions::POSITIONS_ROTATION_EXPLAIN)}
            </p>
            {move || view! {
            <Knob label=msg::positions::POSITIONS_KNOB_OFFSET.get(lang.get()) id="pos-k" why=Signal::derive(k_error)>
                <input type="number" min="0" max="511" step="1" data-testid="pos-k"
                    aria-describedby=why_id("pos-k")
                    prop:value=move || local.k.get().to_string()
                    on:change=on_k/>
            </Knob>
            }}
            {move || match (check.get(), lang.get()) {
                (RotationCheck::Residual { k, residual, checked }, l) => view! {
                    <p class="readout">
                        {msg::positions::POSITIONS_ROTATION_MAX_OVER.get(l)}
                        <span translate="no">"|PE(p+" {k} ") \u{2212} R_" {k} "\u{b7}PE(p)| = "</span>
                        <strong data-testid="pe-rotation" data-value=residual.to_string()>{number::readable(residual)}</strong>
                        {msg::positions::PositionsRotationOver { checked: &checked }.say(l)}
                    </p>
                }.into_any(),
                (RotationCheck::TooFewPositions { k, n }, l) => view! {
                    <p class="explain-message" data-testid="pe-rotation-message">
                        {msg::positions::PositionsRotationTooFew { n: &n, k: &k }.say(l)}
                    </p>
                }.into_any(),
                (RotationCheck::NoRotation(why), l) => view! {
                    <p class="explain-message" data-testid="pe-rotation-message">{why.get(l)}</p>
                }.into_any(),
            }}
        </div>
    }
}
