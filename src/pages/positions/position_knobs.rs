use attnlab_core::position::{Combine, Layout, PositionKind};
use attnlab_lab::state::{BASE_RANGE, MAX_TOKENS};
use attnlab_lab::{ModelConfig, ModelRules};
use leptos::prelude::*;

use super::PositionView;
use crate::state::use_app_state;
use crate::widgets::knob::{Knob, why_id};

/// The encoding knobs of the positions page. Kind, base (with the presets 10000 and the
/// 1000 printed in one seed), layout, add or concat and the width edit the shared model
/// settings (the lab and the link follow); the number of positions, the dimensions drawn
/// as curves and the offset `k` are this page's own.
#[component]
pub fn PositionKnobs(
    /// The page's own view settings.
    local: PositionView,
) -> impl IntoView {
    let state = use_app_state();
    let model = state.model;
    let m = move || model.get();
    let base_error = RwSignal::new(None::<String>);
    let width_error = RwSignal::new(None::<String>);
    let count_error = RwSignal::new(None::<String>);
    let set = move |f: &dyn Fn(&mut ModelConfig)| {
        let mut next = model.get_untracked();
        f(&mut next);
        if next != model.get_untracked() {
            model.set(next);
        }
    };
    let set_base = move |b: f64| {
        base_error.set(None);
        set(&|m| m.position.base = b);
    };
    let on_base = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<f64>() {
        Ok(b) if BASE_RANGE.contains(&b) => set_base(b),
        _ => base_error.set(Some("the base is a number between 2 and 100000000".into())),
    };
    let kind = move || match m().position.kind {
        PositionKind::None => "none",
        PositionKind::Sinusoidal => "sinusoidal",
        PositionKind::Learned => "learned",
    };
    let concat = move || matches!(m().position.combine, Combine::Concat { .. });
    let width = move || m().position.width(m().d_model);
    let sinus_why = move || {
        m().sinusoid_settings_unused(state.lang.get())
            .map(String::from)
    };
    let on_width = move |ev: leptos::ev::Event| {
        let Ok(d) = event_target_value(&ev).trim().parse::<usize>() else {
            width_error.set(Some("the width is a whole number".into()));
            return;
        };
        let current = model.get_untracked();
        let why = match current.position.combine {
            Combine::Add => current.why_not_d_model(d, state.lang.get_untracked()),
            Combine::Concat { .. } => current.why_not_d_pos(d, state.lang.get_untracked()),
        };
        let odd = (current.position.kind == PositionKind::Sinusoidal && !d.is_multiple_of(2))
            .then(|| "sinusoids need an even width: sines and cosines come in pairs".to_string());
        match why.or(odd) {
            Some(w) => width_error.set(Some(w)),
            None => {
                width_error.set(None);
                set(&|m| match m.position.combine {
                    Combine::Add => m.d_model = d,
                    Combine::Concat { .. } => m.position.combine = Combine::Concat { d_pos: d },
                });
            }
        }
    };
    let preset = move |b: f64, label: &'static str, testid: &'static str| {
        view! {
            <button type="button" class="preset" data-testid=testid
                aria-pressed=move || (m().position.base == b).to_string()
                disabled=move || sinus_why().is_some()
                on:click=move |_| set_base(b)>{label}</button>
        }
    };

    view! {
        <div class="knobs positions-knobs" data-testid="positions-knobs">
            <Knob label="positions" id="pos-kind" why=Signal::derive(|| None::<String>)>
                <select data-testid="pos-kind" prop:value=kind
                    on:change=move |ev| {
                        let k = match event_target_value(&ev).as_str() {
                            "none" => PositionKind::None,
                            "learned" => PositionKind::Learned,
                            _ => PositionKind::Sinusoidal,
                        };
                        if model.get_untracked().why_not_position(k, state.lang.get_untracked()).is_none() {
                            set(&|m| m.position.kind = k);
                        }
                    }>
                    <option value="none" selected=move || kind() == "none">"none"</option>
                    <option value="sinusoidal" selected=move || kind() == "sinusoidal"
                        disabled=move || m().why_not_position(PositionKind::Sinusoidal, state.lang.get()).is_some()
                        title=move || m().why_not_position(PositionKind::Sinusoidal, state.lang.get())>"sinusoidal"</option>
                    <option value="learned" selected=move || kind() == "learned">"learned"</option>
                </select>
            </Knob>
            <Knob label="base" id="pos-base" why=Signal::derive(move || base_error.get().or_else(sinus_why))>
                <input type="number" min="2" step="any" data-testid="pos-base"
                    aria-describedby=why_id("pos-base")
                    disabled=move || sinus_why().is_some()
                    prop:value=move || m().position.base.to_string()
                    on:change=on_base/>
                <span class="presets" role="group" aria-label="base presets">
                    {preset(10_000.0, "10000", "pos-base-10000")}
                    {preset(1_000.0, "1000", "pos-base-1000")}
                </span>
            </Knob>
            <Knob label="layout" id="pos-layout" why=Signal::derive(sinus_why)>
                <select data-testid="pos-layout" aria-describedby=why_id("pos-layout")
                    disabled=move || sinus_why().is_some()
                    on:change=move |ev| {
                        let layout = if event_target_value(&ev) == "split" { Layout::Split } else { Layout::Interleaved };
                        set(&|m| m.position.layout = layout);
                    }>
                    <option value="interleaved" selected=move || m().position.layout == Layout::Interleaved>"interleaved (sin, cos, sin, cos …)"</option>
                    <option value="split" selected=move || m().position.layout == Layout::Split>"split (all sin, then all cos)"</option>
                </select>
            </Knob>
            <Knob label="combine" id="pos-combine" why=Signal::derive(|| None::<String>)>
                <select data-testid="pos-combine"
                    on:change=move |ev| {
                        let combine = if event_target_value(&ev) == "concat" {
                            Combine::Concat { d_pos: model.get_untracked().d_model.max(2) / 2 * 2 }
                        } else {
                            Combine::Add
                        };
                        width_error.set(None);
                        set(&|m| m.position.combine = combine);
                    }>
                    <option value="add" selected=move || !concat()>"add (x = e + PE)"</option>
                    <option value="concat" selected=concat>"concat (x = [e, PE])"</option>
                </select>
            </Knob>
            <Knob label="width d" id="pos-width"
                why=Signal::derive(move || width_error.get())>
                <input type="number" min="2" max="512" step="2" data-testid="pos-width"
                    aria-describedby=why_id("pos-width")
                    prop:value=move || width().to_string()
                    on:change=on_width/>
                <span class="knob-hint">{move || if concat() { "d_pos (concatenated)" } else { "= d_model (added)" }}</span>
            </Knob>
            <Knob label="positions drawn" id="pos-count" why=Signal::derive(move || count_error.get())>
                <input type="number" min="1" max=MAX_TOKENS.to_string() step="1" data-testid="pos-count"
                    aria-describedby=why_id("pos-count")
                    placeholder=move || state.tokens.with(|t| t.used().len()).max(1).to_string()
                    prop:value=move || local.count.get().map(|c| c.to_string()).unwrap_or_default()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if v.trim().is_empty() {
                            count_error.set(None);
                            local.count.set(None);
                            return;
                        }
                        match v.trim().parse::<usize>() {
                            Ok(c) if (1..=MAX_TOKENS).contains(&c) => {
                                count_error.set(None);
                                local.count.set(Some(c));
                            }
                            _ => count_error.set(Some(format!("between 1 and {MAX_TOKENS} positions; empty = the sentence's length"))),
                        }
                    }/>
            </Knob>
        </div>
    }
}
