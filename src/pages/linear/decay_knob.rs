use attnlab_i18n::msg;
use leptos::prelude::*;

use crate::i18n::text;

/// The decay of the RNN stepper: off (linear attention with φ and z), a constant `γ`
/// (RetNet) or a gate per token (GLA, Mamba-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecayMode {
    /// Today's stepper: `S_t = S_{t−1} + φ(k_t) v_tᵀ`, with `z_t`.
    Off,
    /// `a_t = γ`.
    Constant,
    /// `a_t = σ(w·k_t + 1)`.
    Gates,
}

impl DecayMode {
    /// The name in test ids and `data-decay`.
    pub fn name(self) -> &'static str {
        match self {
            DecayMode::Off => "off",
            DecayMode::Constant => "constant",
            DecayMode::Gates => "gates",
        }
    }
}

/// The stepper's decay knob: three radios, and the `γ` slider (0 … 1 by 0.01) that
/// the constant decay uses.
#[component]
pub fn DecayKnob(mode: RwSignal<DecayMode>, gamma: RwSignal<f32>) -> impl IntoView {
    let radio = move |m: DecayMode| {
        let label = match m {
            DecayMode::Off => msg::linear::LINEAR_DECAY_OFF,
            DecayMode::Constant => msg::linear::LINEAR_DECAY_CONSTANT,
            DecayMode::Gates => msg::linear::LINEAR_DECAY_GATES,
        };
        view! {
            <label>
                <input type="radio" name="rnn-decay" data-testid=format!("decay-{}", m.name())
                    prop:checked=move || mode.get() == m
                    on:change=move |_| mode.set(m)/>
                <span>{text(label)}</span>
            </label>
        }
    };
    let set_gamma = move |ev: leptos::ev::Event| {
        if let Ok(v) = event_target_value(&ev).parse::<f32>()
            && v.is_finite()
        {
            gamma.set(v.clamp(0.0, 1.0));
        }
    };
    view! {
        <fieldset class="mode decay-knob" data-testid="decay-knob">
            <legend class="field-label">{text(msg::linear::LINEAR_DECAY_KNOB)}</legend>
            {radio(DecayMode::Off)}
            {radio(DecayMode::Constant)}
            {radio(DecayMode::Gates)}
            <label class="rnn-slider decay-gamma">
                <span>{text(msg::linear::LINEAR_DECAY_GAMMA)}</span>
                <input type="range" min="0" max="1" step="0.01" data-testid="decay-gamma"
                    disabled=move || mode.get() != DecayMode::Constant
                    prop:value=move || format!("{:.2}", gamma.get())
                    on:input=set_gamma/>
                <output data-testid="decay-gamma-value" translate="no">{move || format!("{:.2}", gamma.get())}</output>
            </label>
        </fieldset>
    }
}
