use attnlab_core::embed::EmbeddingScale;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, Layout, PositionKind};
use attnlab_lab::state::{HEADS_RANGE, MAX_TOKENS};
use attnlab_lab::{ModelConfig, ModelRules};
use leptos::prelude::*;

use crate::state::use_app_state;
use crate::widgets::knob::{Knob, why_id};

/// The model settings shared by every variant. A value the rules forbid is never
/// applied (nor silently changed): the box keeps what was typed and says why.
#[component]
pub fn ModelSettingsPanel() -> impl IntoView {
    let state = use_app_state();
    let model = state.model;
    let m = move || model.get();
    // What was typed into a box and refused, with the reason.
    let d_model_error = RwSignal::new(None::<String>);
    let d_pos_error = RwSignal::new(None::<String>);
    let base_error = RwSignal::new(None::<String>);

    let set = move |f: &dyn Fn(&mut ModelConfig)| {
        let mut next = model.get_untracked();
        f(&mut next);
        if next != model.get_untracked() {
            model.set(next);
        }
    };

    let on_d_model = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        match v.trim().parse::<usize>() {
            Ok(d) => match model.get_untracked().why_not_d_model(d) {
                Some(why) => d_model_error.set(Some(why)),
                None => {
                    d_model_error.set(None);
                    set(&|m| m.d_model = d);
                }
            },
            Err(_) => d_model_error.set(Some("d_model is a whole number between 8 and 512".into())),
        }
    };
    let heads_why = move || {
        let m = m();
        HEADS_RANGE
            .clone()
            .find_map(|h| m.why_not_heads(h))
            .map(|w| format!("greyed-out counts cannot be chosen: e.g. {w}"))
    };
    let position_kind = move || match m().position.kind {
        PositionKind::None => "none",
        PositionKind::Sinusoidal => "sinusoidal",
        PositionKind::Learned => "learned",
    };
    let concat = move || matches!(m().position.combine, Combine::Concat { .. });
    let d_pos = move || match m().position.combine {
        Combine::Concat { d_pos } => d_pos,
        Combine::Add => m().d_model,
    };

    view! {
        <div class="model-settings" data-testid="model-settings">
            <h2 class="field-label">"Model (shared by every variant)"</h2>
            {move || state.brought.with(|b| b.as_ref().map(|b| {
                let (_, _, d_k, _) = b.sizes();
                view! {
                    <p class="hint" data-testid="model-settings-brought">
                        {format!("Your tensors set the heads ({}) and d_k ({d_k}): these settings wait for the sentence. The seed still draws the general and additive scores' and Linformer's parameters.", b.heads())}
                    </p>
                }
            }))}
            <div class="knobs">
                <Knob label="d_model" id="d-model" why=Signal::derive(move || d_model_error.get())>
                    <input type="number" min="8" max="512" step="1" data-testid="d-model"
                        aria-describedby=why_id("d-model")
                        class:is-invalid=move || d_model_error.with(Option::is_some)
                        prop:value=move || m().d_model.to_string()
                        on:change=on_d_model/>
                </Knob>
                <Knob label="heads" id="heads" why=Signal::derive(heads_why)>
                    <select data-testid="heads" aria-describedby=why_id("heads")
                        on:change=move |ev| {
                            if let Ok(h) = event_target_value(&ev).parse::<usize>()
                                && model.get_untracked().why_not_heads(h).is_none()
                            {
                                set(&|m| m.heads = h);
                            }
                        }
                        prop:value=move || m().heads.to_string()>
                        {HEADS_RANGE.map(|h| {
                            let why = move || m().why_not_heads(h);
                            view! {
                                <option value=h.to_string() disabled=move || why().is_some() title=why
                                    selected=move || m().heads == h>{h}</option>
                            }
                        }).collect_view()}
                    </select>
                </Knob>
                <p class="derived">"d_k = " <span data-testid="d-k">{move || m().d_k()}</span></p>
                <Knob label="seed" id="seed" why=Signal::derive(|| None::<String>)>
                    <input type="number" min="0" step="1" data-testid="seed"
                        prop:value=move || m().seed.to_string()
                        on:change=move |ev| {
                            if let Ok(s) = event_target_value(&ev).trim().parse::<u64>() {
                                set(&|m| m.seed = s);
                            }
                        }/>
                </Knob>
                <Knob label="positions" id="position" why=Signal::derive(|| None::<String>)>
                    <select data-testid="position" prop:value=position_kind
                        on:change=move |ev| {
                            let kind = match event_target_value(&ev).as_str() {
                                "none" => PositionKind::None,
                                "learned" => PositionKind::Learned,
                                _ => PositionKind::Sinusoidal,
                            };
                            if model.get_untracked().why_not_position(kind).is_none() {
                                set(&|m| m.position.kind = kind);
                            }
                        }>
                        <option value="none" selected=move || position_kind() == "none">"none"</option>
                        <option value="sinusoidal" selected=move || position_kind() == "sinusoidal"
                            disabled=move || m().why_not_position(PositionKind::Sinusoidal).is_some()
                            title=move || m().why_not_position(PositionKind::Sinusoidal)>"sinusoidal"</option>
                        <option value="learned" selected=move || position_kind() == "learned">"learned"</option>
                    </select>
                </Knob>
                <Knob label="base" id="base"
                    why=Signal::derive(move || base_error.get().or_else(|| m().sinusoid_settings_unused().map(String::from)))>
                    <input type="number" min="2" step="any" data-testid="base"
                        aria-describedby=why_id("base")
                        disabled=move || m().sinusoid_settings_unused().is_some()
                        prop:value=move || m().position.base.to_string()
                        on:change=move |ev| {
                            match event_target_value(&ev).trim().parse::<f64>() {
                                Ok(b) if attnlab_lab::state::BASE_RANGE.contains(&b) => {
                                    base_error.set(None);
                                    set(&|m| m.position.base = b);
                                }
                                _ => base_error.set(Some("the base is a number between 2 and 100000000".into())),
                            }
                        }/>
                </Knob>
                <Knob label="layout" id="layout" why=Signal::derive(move || m().sinusoid_settings_unused().map(String::from))>
                    <select data-testid="layout" aria-describedby=why_id("layout")
                        disabled=move || m().sinusoid_settings_unused().is_some()
                        on:change=move |ev| {
                            let layout = if event_target_value(&ev) == "split" { Layout::Split } else { Layout::Interleaved };
                            set(&|m| m.position.layout = layout);
                        }>
                        <option value="interleaved" selected=move || m().position.layout == Layout::Interleaved>"interleaved"</option>
                        <option value="split" selected=move || m().position.layout == Layout::Split>"split"</option>
                    </select>
                </Knob>
                <Knob label="combine" id="combine" why=Signal::derive(|| None::<String>)>
                    <select data-testid="combine"
                        on:change=move |ev| {
                            let combine = if event_target_value(&ev) == "concat" {
                                Combine::Concat { d_pos: model.get_untracked().d_model.max(2) / 2 * 2 }
                            } else {
                                Combine::Add
                            };
                            set(&|m| m.position.combine = combine);
                        }>
                        <option value="add" selected=move || !concat()>"add"</option>
                        <option value="concat" selected=concat>"concat"</option>
                    </select>
                </Knob>
                <Knob label="d_pos" id="d-pos"
                    why=Signal::derive(move || d_pos_error.get().or_else(|| m().d_pos_unused().map(String::from)))>
                    <input type="number" min="2" max="512" step="2" data-testid="d-pos"
                        aria-describedby=why_id("d-pos")
                        disabled=move || !concat()
                        prop:value=move || d_pos().to_string()
                        on:change=move |ev| {
                            match event_target_value(&ev).trim().parse::<usize>() {
                                Ok(d) => match model.get_untracked().why_not_d_pos(d) {
                                    Some(why) => d_pos_error.set(Some(why)),
                                    None => {
                                        d_pos_error.set(None);
                                        set(&|m| m.position.combine = Combine::Concat { d_pos: d });
                                    }
                                },
                                Err(_) => d_pos_error.set(Some("d_pos is an even whole number".into())),
                            }
                        }/>
                </Knob>
                <Knob label="word vectors ×√d_model" id="embedding-scale" why=Signal::derive(|| None::<String>)>
                    <input type="checkbox" data-testid="embedding-scale"
                        prop:checked=move || m().embedding_scale == EmbeddingScale::SqrtDModel
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            set(&|m| m.embedding_scale = if on { EmbeddingScale::SqrtDModel } else { EmbeddingScale::Unit });
                        }/>
                </Knob>
                <Knob label="projections" id="projection"
                    why=Signal::derive(move || m().why_not_projection(Projection::Identity).map(|w| format!("identity: {w}")))>
                    <select data-testid="projection"
                        aria-describedby=why_id("projection")
                        on:change=move |ev| {
                            let p = if event_target_value(&ev) == "identity" { Projection::Identity } else { Projection::Seeded };
                            if model.get_untracked().why_not_projection(p).is_none() {
                                set(&|m| m.projection = p);
                            }
                        }>
                        <option value="seeded" selected=move || m().projection == Projection::Seeded>"seeded W_Q, W_K, W_V"</option>
                        <option value="identity" selected=move || m().projection == Projection::Identity
                            disabled=move || m().why_not_projection(Projection::Identity).is_some()>"identity (Q = K = V = X)"</option>
                    </select>
                </Knob>
                <Knob label="pad keys to length" id="pad-to" why=Signal::derive(|| None::<String>)>
                    <input type="number" min="0" max=MAX_TOKENS.to_string() step="1" data-testid="pad-to"
                        placeholder="off"
                        prop:value=move || state.pad_to.get().map(|p| p.to_string()).unwrap_or_default()
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let pad = v.trim().parse::<usize>().ok().filter(|&p| p >= 1).map(|p| p.min(MAX_TOKENS));
                            if state.pad_to.get_untracked() != pad {
                                state.pad_to.set(pad);
                            }
                        }/>
                </Knob>
            </div>
        </div>
    }
}
