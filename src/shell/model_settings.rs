use attnlab_core::embed::EmbeddingScale;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, Layout, PositionKind};
use attnlab_i18n::msg;
use attnlab_lab::state::{HEADS_RANGE, MAX_TOKENS};
use attnlab_lab::{LabState, ModelConfig, ModelRules};
use leptos::prelude::*;

use crate::i18n::{Lang, Tr, text, use_lang};
use crate::state::{LabFields, use_app_state};
use crate::widgets::knob::{Knob, why_id};

/// A typed value refused: the rules' reason (in the language it was typed in, kept for
/// the box) or a fixed sentence in every language.
#[derive(Debug, Clone, PartialEq)]
enum Refused {
    /// The rules' reason, in both languages.
    Rule(attnlab_i18n::Said),
    /// Not a number of the right kind.
    Fixed(Tr),
}

impl Refused {
    fn text(&self, lang: Lang) -> String {
        match self {
            Refused::Rule(s) => s.get(lang).to_string(),
            Refused::Fixed(t) => t.get(lang).to_string(),
        }
    }
}

/// Both languages' reason of a rule, when it refuses.
fn refused(why: impl Fn(Lang) -> Option<String>) -> Option<Refused> {
    let en = why(Lang::En)?;
    let zh = why(Lang::Zh).unwrap_or_else(|| en.clone());
    Some(Refused::Rule(attnlab_i18n::Said::new(en, zh)))
}

/// The model settings shared by every variant. A value the rules forbid is never
/// applied (nor silently changed): the box keeps what was typed and says why.
#[component]
pub fn ModelSettingsPanel() -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let model = state.lab.model();
    let m = move || model.get();
    // What was typed into a box and refused, with the reason.
    let d_model_error = RwSignal::new(None::<Refused>);
    let d_pos_error = RwSignal::new(None::<Refused>);
    let base_error = RwSignal::new(None::<Refused>);
    let shown =
        move |e: RwSignal<Option<Refused>>| e.with(|e| e.as_ref().map(|e| e.text(lang.get())));

    let set = move |f: &dyn Fn(&mut ModelConfig)| state.edit(|lab| f(&mut lab.model));

    // A variant's key/value groups and RoPE must fit the heads and d_k chosen.
    let for_variants = move |next: &ModelConfig, lang: Lang| {
        state.lab.variants().with_untracked(|vs| {
            let shared = LabState {
                variants: vs.clone(),
                ..LabState::default()
            };
            shared.why_not_model_for_variants(next, lang)
        })
    };
    let on_d_model = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        match v.trim().parse::<usize>() {
            Ok(d) => match refused(|l| {
                let m = model.get_untracked();
                m.why_not_d_model(d, l)
                    .or_else(|| for_variants(&ModelConfig { d_model: d, ..m }, l))
            }) {
                Some(why) => d_model_error.set(Some(why)),
                None => {
                    d_model_error.set(None);
                    set(&|m| m.d_model = d);
                }
            },
            Err(_) => d_model_error.set(Some(Refused::Fixed(
                msg::shell::MODEL_SETTINGS_D_MODEL_WHOLE,
            ))),
        }
    };
    let why_not_heads = move |m: &ModelConfig, h: usize, lang: Lang| {
        m.why_not_heads(h, lang).or_else(|| {
            state.lab.variants().track();
            for_variants(&ModelConfig { heads: h, ..*m }, lang)
        })
    };
    let heads_why = move || {
        let (m, lang) = (m(), lang.get());
        let w = HEADS_RANGE
            .clone()
            .find_map(|h| why_not_heads(&m, h, lang))?;
        Some(msg::shell::ModelSettingsHeadsGreyed { why: &w }.say(lang))
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
            <h2 class="field-label">{text(msg::shell::MODEL_SETTINGS_MODEL_SHARED_BY)}</h2>
            {move || state.brought.with(|b| b.as_ref().map(|b| {
                let (_, _, d_k, _) = b.sizes();
                view! {
                    <p class="hint" data-testid="model-settings-brought">
                        {let heads = b.heads();
                        move || msg::shell::ModelSettingsBroughtTensors { heads: &heads, d_k: &d_k }.say(lang.get())}
                    </p>
                }
            }))}
            <div class="knobs">
                <Knob label="d_model" id="d-model" why=Signal::derive(move || shown(d_model_error))>
                    <input type="number" min="8" max="512" step="1" data-testid="d-model"
                        aria-describedby=why_id("d-model")
                        class:is-invalid=move || d_model_error.with(Option::is_some)
                        prop:value=move || m().d_model.to_string()
                        on:change=on_d_model/>
                </Knob>
                <Knob label=text(msg::rules::FIELD_HEADS) id="heads" why=Signal::derive(heads_why)>
                    <select data-testid="heads" aria-describedby=why_id("heads")
                        on:change=move |ev| {
                            if let Ok(h) = event_target_value(&ev).parse::<usize>()
                                && why_not_heads(&model.get_untracked(), h, Lang::En).is_none()
                            {
                                set(&|m| m.heads = h);
                            }
                        }
                        prop:value=move || m().heads.to_string()>
                        {HEADS_RANGE.map(|h| {
                            let why = move || why_not_heads(&m(), h, lang.get());
                            view! {
                                <option value=h.to_string() disabled=move || why().is_some() title=why
                                    selected=move || m().heads == h>{h}</option>
                            }
                        }).collect_view()}
                    </select>
                </Knob>
                <p class="derived">"d_k = " <span data-testid="d-k">{move || m().d_k()}</span></p>
                <Knob label=text(msg::shell::MODEL_SETTINGS_SEED) id="seed" why=Signal::derive(|| None::<String>)>
                    <input type="number" min="0" step="1" data-testid="seed"
                        prop:value=move || m().seed.to_string()
                        on:change=move |ev| {
                            if let Ok(s) = event_target_value(&ev).trim().parse::<u64>() {
                                set(&|m| m.seed = s);
                            }
                        }/>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_POSITIONS) id="position" why=Signal::derive(|| None::<String>)>
                    <select data-testid="position" prop:value=position_kind
                        on:change=move |ev| {
                            let kind = match event_target_value(&ev).as_str() {
                                "none" => PositionKind::None,
                                "learned" => PositionKind::Learned,
                                _ => PositionKind::Sinusoidal,
                            };
                            if model.get_untracked().why_not_position(kind, Lang::En).is_none() {
                                set(&|m| m.position.kind = kind);
                            }
                        }>
                        <option value="none" selected=move || position_kind() == "none">{text(msg::shell::MODEL_SETTINGS_NONE)}</option>
                        <option value="sinusoidal" selected=move || position_kind() == "sinusoidal"
                            disabled=move || m().why_not_position(PositionKind::Sinusoidal, Lang::En).is_some()
                            title=move || m().why_not_position(PositionKind::Sinusoidal, lang.get())>{text(msg::shell::MODEL_SETTINGS_SINUSOIDAL)}</option>
                        <option value="learned" selected=move || position_kind() == "learned">{text(msg::shell::MODEL_SETTINGS_LEARNED)}</option>
                    </select>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_BASE) id="base"
                    why=Signal::derive(move || shown(base_error).or_else(|| m().sinusoid_settings_unused(lang.get()).map(String::from)))>
                    <input type="number" min="2" step="any" data-testid="base"
                        aria-describedby=why_id("base")
                        disabled=move || m().sinusoid_settings_unused(Lang::En).is_some()
                        prop:value=move || m().position.base.to_string()
                        on:change=move |ev| {
                            match event_target_value(&ev).trim().parse::<f64>() {
                                Ok(b) if attnlab_lab::state::BASE_RANGE.contains(&b) => {
                                    base_error.set(None);
                                    set(&|m| m.position.base = b);
                                }
                                _ => base_error.set(Some(Refused::Fixed(msg::shell::MODEL_SETTINGS_BASE_NUMBER_BETWEEN))),
                            }
                        }/>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_LAYOUT) id="layout" why=Signal::derive(move || m().sinusoid_settings_unused(lang.get()).map(String::from))>
                    <select data-testid="layout" aria-describedby=why_id("layout")
                        disabled=move || m().sinusoid_settings_unused(Lang::En).is_some()
                        on:change=move |ev| {
                            let layout = if event_target_value(&ev) == "split" { Layout::Split } else { Layout::Interleaved };
                            set(&|m| m.position.layout = layout);
                        }>
                        <option value="interleaved" selected=move || m().position.layout == Layout::Interleaved>{text(msg::shell::MODEL_SETTINGS_INTERLEAVED)}</option>
                        <option value="split" selected=move || m().position.layout == Layout::Split>{text(msg::shell::MODEL_SETTINGS_SPLIT)}</option>
                    </select>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_COMBINE) id="combine" why=Signal::derive(|| None::<String>)>
                    <select data-testid="combine"
                        on:change=move |ev| {
                            let combine = if event_target_value(&ev) == "concat" {
                                Combine::Concat { d_pos: model.get_untracked().d_model.max(2) / 2 * 2 }
                            } else {
                                Combine::Add
                            };
                            set(&|m| m.position.combine = combine);
                        }>
                        <option value="add" selected=move || !concat()>{text(msg::shell::MODEL_SETTINGS_ADD)}</option>
                        <option value="concat" selected=concat>{text(msg::shell::MODEL_SETTINGS_CONCAT)}</option>
                    </select>
                </Knob>
                <Knob label="d_pos" id="d-pos"
                    why=Signal::derive(move || shown(d_pos_error).or_else(|| m().d_pos_unused(lang.get()).map(String::from)))>
                    <input type="number" min="2" max="512" step="2" data-testid="d-pos"
                        aria-describedby=why_id("d-pos")
                        disabled=move || !concat()
                        prop:value=move || d_pos().to_string()
                        on:change=move |ev| {
                            match event_target_value(&ev).trim().parse::<usize>() {
                                Ok(d) => match refused(|l| model.get_untracked().why_not_d_pos(d, l)) {
                                    Some(why) => d_pos_error.set(Some(why)),
                                    None => {
                                        d_pos_error.set(None);
                                        set(&|m| m.position.combine = Combine::Concat { d_pos: d });
                                    }
                                },
                                Err(_) => d_pos_error.set(Some(Refused::Fixed(msg::shell::MODEL_SETTINGS_D_POS_EVEN))),
                            }
                        }/>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_WORD_VECTORS_D) id="embedding-scale" why=Signal::derive(|| None::<String>)>
                    <input type="checkbox" data-testid="embedding-scale"
                        prop:checked=move || m().embedding_scale == EmbeddingScale::SqrtDModel
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            set(&|m| m.embedding_scale = if on { EmbeddingScale::SqrtDModel } else { EmbeddingScale::Unit });
                        }/>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_PROJECTIONS) id="projection"
                    why=Signal::derive(move || {
                        let lang = lang.get();
                        let w = m().why_not_projection(Projection::Identity, lang)?;
                        Some(msg::shell::ModelSettingsIdentityWhy { why: &w }.say(lang))
                    })>
                    <select data-testid="projection"
                        aria-describedby=why_id("projection")
                        on:change=move |ev| {
                            let p = if event_target_value(&ev) == "identity" { Projection::Identity } else { Projection::Seeded };
                            if model.get_untracked().why_not_projection(p, Lang::En).is_none() {
                                set(&|m| m.projection = p);
                            }
                        }>
                        <option value="seeded" selected=move || m().projection == Projection::Seeded>{text(msg::shell::MODEL_SETTINGS_SEEDED_W_Q)}</option>
                        <option value="identity" selected=move || m().projection == Projection::Identity
                            disabled=move || m().why_not_projection(Projection::Identity, Lang::En).is_some()>{text(msg::shell::MODEL_SETTINGS_IDENTITY_Q_K)}</option>
                    </select>
                </Knob>
                <Knob label=text(msg::shell::MODEL_SETTINGS_PAD_KEYS_LENGTH) id="pad-to" why=Signal::derive(|| None::<String>)>
                    <input type="number" min="0" max=MAX_TOKENS.to_string() step="1" data-testid="pad-to"
                        placeholder=text(msg::shell::MODEL_SETTINGS_OFF)
                        prop:value=move || state.lab.pad_to().get().map(|p| p.to_string()).unwrap_or_default()
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let pad = v.trim().parse::<usize>().ok().filter(|&p| p >= 1).map(|p| p.min(MAX_TOKENS));
                            state.edit(|lab| lab.pad_to = pad);
                        }/>
                </Knob>
            </div>
        </div>
    }
}
