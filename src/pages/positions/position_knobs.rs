use attnlab_core::position::{Combine, Layout, PositionKind};
use attnlab_i18n::{Tr, msg};
use attnlab_lab::state::{BASE_RANGE, MAX_TOKENS};
use attnlab_lab::{ModelConfig, ModelRules};
use leptos::prelude::*;

use super::PositionView;
use crate::i18n::Lang;
use crate::state::{LabFields, use_app_state};
use crate::widgets::knob::{Knob, why_id};

/// Why a typed width was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WidthWhy {
    /// Not a whole number.
    NotWhole,
    /// The model's rules (or the sinusoids' pairs) refuse this width.
    Refused(usize),
}

/// Why the model refuses width `d` (the rules, or sinusoids' pairs), in `lang`.
fn width_refusal(model: &ModelConfig, d: usize, lang: Lang) -> Option<String> {
    let why = match model.position.combine {
        Combine::Add => model.why_not_d_model(d, lang),
        Combine::Concat { .. } => model.why_not_d_pos(d, lang),
    };
    let odd = (model.position.kind == PositionKind::Sinusoidal && !d.is_multiple_of(2))
        .then(|| msg::positions::POSITIONS_WIDTH_ODD.get(lang).to_string());
    why.or(odd)
}

/// The encoding knobs of the positions page. Kind, base (with the presets 10000, the
/// Transformer's and models' base, and 1000, a misprint in one of the source articles,
/// for comparison: each says which it is), layout, add or concat and the width edit the shared model
/// settings (the lab and the link follow); the number of positions, the dimensions drawn
/// as curves and the offset `k` are this page's own.
#[component]
pub fn PositionKnobs(
    /// The page's own view settings.
    local: PositionView,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let model = state.lab.model();
    let m = move || model.get();
    // What was typed and refused; the reasons are written in the language of the moment.
    let base_refused = RwSignal::new(false);
    let width_refused = RwSignal::new(None::<WidthWhy>);
    let count_refused = RwSignal::new(false);
    let base_error = move || {
        base_refused.get().then(|| {
            msg::positions::POSITIONS_BASE_RANGE
                .get(lang.get())
                .to_string()
        })
    };
    let width_error = move || match width_refused.get()? {
        WidthWhy::NotWhole => Some(
            msg::positions::POSITIONS_WIDTH_WHOLE
                .get(lang.get())
                .to_string(),
        ),
        WidthWhy::Refused(d) => model.with(|m| width_refusal(m, d, lang.get())),
    };
    let count_error = move || {
        count_refused
            .get()
            .then(|| msg::positions::PositionsCountRange { max: &MAX_TOKENS }.say(lang.get()))
    };
    let set = move |f: &dyn Fn(&mut ModelConfig)| state.edit(|lab| f(&mut lab.model));
    let set_base = move |b: f64| {
        base_refused.set(false);
        set(&|m| m.position.base = b);
    };
    let on_base = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<f64>() {
        Ok(b) if BASE_RANGE.contains(&b) => set_base(b),
        _ => base_refused.set(true),
    };
    let kind = move || match m().position.kind {
        PositionKind::None => "none",
        PositionKind::Sinusoidal => "sinusoidal",
        PositionKind::Learned => "learned",
    };
    let concat = move || matches!(m().position.combine, Combine::Concat { .. });
    let width = move || m().position.width(m().d_model);
    let sinus_why = move || m().sinusoid_settings_unused(lang.get()).map(String::from);
    let on_width = move |ev: leptos::ev::Event| {
        let Ok(d) = event_target_value(&ev).trim().parse::<usize>() else {
            width_refused.set(Some(WidthWhy::NotWhole));
            return;
        };
        let current = model.get_untracked();
        match width_refusal(&current, d, Lang::En) {
            Some(_) => width_refused.set(Some(WidthWhy::Refused(d))),
            None => {
                width_refused.set(None);
                set(&|m| match m.position.combine {
                    Combine::Add => m.d_model = d,
                    Combine::Concat { .. } => m.position.combine = Combine::Concat { d_pos: d },
                });
            }
        }
    };
    let preset = move |b: f64, label: &'static str, testid: &'static str, what: Tr| {
        view! {
            <button type="button" class="preset" data-testid=testid
                title=move || what.get(lang.get())
                aria-pressed=move || (m().position.base == b).to_string()
                disabled=move || sinus_why().is_some()
                on:click=move |_| set_base(b)>{label}</button>
        }
    };

    // The knobs' labels are plain text: they are drawn again when the language changes
    // (every value they show lives in the signals above).
    move || {
        let l = lang.get();
        let say = move |text: Tr| text.get(l);
        view! {
        <div class="knobs positions-knobs" data-testid="positions-knobs">
            <Knob label=say(msg::positions::POSITIONS_KNOB_KIND) id="pos-kind" why=Signal::derive(|| None::<String>)>
                <select data-testid="pos-kind" prop:value=kind
                    on:change=move |ev| {
                        let k = match event_target_value(&ev).as_str() {
                            "none" => PositionKind::None,
                            "learned" => PositionKind::Learned,
                            _ => PositionKind::Sinusoidal,
                        };
                        if model.get_untracked().why_not_position(k, Lang::En).is_none() {
                            set(&|m| m.position.kind = k);
                        }
                    }>
                    <option value="none" selected=move || kind() == "none">{say(msg::positions::POSITIONS_KIND_NONE)}</option>
                    <option value="sinusoidal" selected=move || kind() == "sinusoidal"
                        disabled=move || m().why_not_position(PositionKind::Sinusoidal, lang.get()).is_some()
                        title=move || m().why_not_position(PositionKind::Sinusoidal, lang.get())>{say(msg::positions::POSITIONS_KIND_SINUSOIDAL)}</option>
                    <option value="learned" selected=move || kind() == "learned">{say(msg::positions::POSITIONS_KIND_LEARNED)}</option>
                </select>
            </Knob>
            <Knob label=say(msg::positions::POSITIONS_KNOB_BASE) id="pos-base" why=Signal::derive(move || base_error().or_else(sinus_why))>
                <input type="number" min="2" step="any" data-testid="pos-base"
                    aria-describedby=why_id("pos-base")
                    disabled=move || sinus_why().is_some()
                    prop:value=move || m().position.base.to_string()
                    on:change=on_base/>
                <span class="presets" role="group" aria-label=say(msg::positions::POSITIONS_BASE_PRESETS)>
                    {preset(10_000.0, "10000", "pos-base-10000", msg::positions::POSITIONS_BASE_TRANSFORMER)}
                    {preset(1_000.0, "1000", "pos-base-1000", msg::positions::POSITIONS_BASE_MISPRINT)}
                </span>
            </Knob>
            <Knob label=say(msg::positions::POSITIONS_KNOB_LAYOUT) id="pos-layout" why=Signal::derive(sinus_why)>
                <select data-testid="pos-layout" aria-describedby=why_id("pos-layout")
                    disabled=move || sinus_why().is_some()
                    on:change=move |ev| {
                        let layout = if event_target_value(&ev) == "split" { Layout::Split } else { Layout::Interleaved };
                        set(&|m| m.position.layout = layout);
                    }>
                    <option value="interleaved" selected=move || m().position.layout == Layout::Interleaved>
                        {say(msg::positions::POSITIONS_LAYOUT_INTERLEAVED_OPTION)}</option>
                    <option value="split" selected=move || m().position.layout == Layout::Split>
                        {say(msg::positions::POSITIONS_LAYOUT_SPLIT_OPTION)}</option>
                </select>
            </Knob>
            <Knob label=say(msg::positions::POSITIONS_KNOB_COMBINE) id="pos-combine" why=Signal::derive(|| None::<String>)>
                <select data-testid="pos-combine"
                    on:change=move |ev| {
                        let combine = if event_target_value(&ev) == "concat" {
                            Combine::Concat { d_pos: model.get_untracked().d_model.max(2) / 2 * 2 }
                        } else {
                            Combine::Add
                        };
                        width_refused.set(None);
                        set(&|m| m.position.combine = combine);
                    }>
                    <option value="add" selected=move || !concat()>{say(msg::positions::POSITIONS_COMBINE_ADD_OPTION)}</option>
                    <option value="concat" selected=concat>{say(msg::positions::POSITIONS_COMBINE_CONCAT_OPTION)}</option>
                </select>
            </Knob>
            <Knob label=say(msg::positions::POSITIONS_KNOB_WIDTH) id="pos-width"
                why=Signal::derive(width_error)>
                <input type="number" min="2" max="512" step="2" data-testid="pos-width"
                    aria-describedby=why_id("pos-width")
                    prop:value=move || width().to_string()
                    on:change=on_width/>
                <span class="knob-hint">
                    <span translate="no">{move || if concat() { "d_pos" } else { "= d_model" }}</span>
                    " "
                    {move || if concat() { say(msg::positions::POSITIONS_WIDTH_CONCATENATED) } else { say(msg::positions::POSITIONS_WIDTH_ADDED) }}
                </span>
            </Knob>
            <Knob label=say(msg::positions::POSITIONS_KNOB_COUNT) id="pos-count" why=Signal::derive(count_error)>
                <input type="number" min="1" max=MAX_TOKENS.to_string() step="1" data-testid="pos-count"
                    aria-describedby=why_id("pos-count")
                    placeholder=move || state.derived.tokens.with(|t| t.used().len()).max(super::POSITIONS_DRAWN_AT_LEAST).to_string()
                    prop:value=move || local.count.get().map(|c| c.to_string()).unwrap_or_default()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if v.trim().is_empty() {
                            count_refused.set(false);
                            local.count.set(None);
                            return;
                        }
                        match v.trim().parse::<usize>() {
                            Ok(c) if (1..=MAX_TOKENS).contains(&c) => {
                                count_refused.set(false);
                                local.count.set(Some(c));
                            }
                            _ => count_refused.set(true),
                        }
                    }/>
            </Knob>
        </div>
        }
    }
}
