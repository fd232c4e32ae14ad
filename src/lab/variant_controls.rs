use attnlab_core::attention::AttentionKind;
use attnlab_core::score::ScoreFunction;
use attnlab_i18n::msg;
use attnlab_lab::rules::why_not_differential_on;
use attnlab_lab::state::{
    LAB_KINDS, LINFORMER_K_RANGE, TEMPERATURE_RANGE, parse_kind, score_label,
};
use attnlab_lab::{LabState, MaskKind, Variant};
use leptos::prelude::*;

use crate::i18n::{Lang, Tr, text, use_lang};
use crate::state::{LabFields, VariantSlot, use_app_state};
use crate::widgets::knob::{Knob, sentence, why_id};

use super::variant_options::VariantOptions;

/// The knobs of one variant: score function, temperature (a log slider and a typed
/// value), attention kind, Linformer's k, and the masks. A control that docs/maths.md forbids
/// for the current combination is disabled with its one-line reason.
#[component]
pub fn VariantControls(
    /// The variant edited.
    variant: VariantSlot,
    /// A prefix for element ids, unique per variant.
    #[prop(into)]
    uid: String,
    /// Whether clicks on the heatmap toggle custom mask cells.
    edit_custom: RwSignal<bool>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let slot = variant.clone();
    let VariantSlot { index, variant, .. } = variant;
    // What every knob but the temperature's reads: the variant without its temperature
    // and name, so dragging τ reruns only the temperature's own bindings.
    let knobs = Memo::new(move |_| {
        variant.with(|v| Variant {
            name: String::new(),
            temperature: 1.0,
            ..v.clone()
        })
    });
    let v = move || knobs.get();
    let temperature = move || variant.with(|v| v.temperature);
    let set = move |f: &dyn Fn(&mut Variant)| state.edit_variant(index.get_untracked(), f);
    let uid = StoredValue::new(uid);
    let id = move |what: &str| format!("{}-{what}", uid.get_value());
    // A typed value refused: the reason, in every language.
    let temperature_error = RwSignal::new(None::<Tr>);
    let k_error = RwSignal::new(None::<Tr>);
    // What the kinds' and masks' rules read of the whole state: the mode, and whether
    // brought tensors carry differential attention's second queries and keys.
    let mode = Memo::new(move |_| state.lab.mode().get());
    let mask_why = move |kind: MaskKind| {
        let v = v();
        (!v.masks.is_on(kind))
            .then(|| v.why_not_mask_in(kind, mode.get(), lang.get()))
            .flatten()
    };
    let brought_second = Memo::new(move |_| {
        state.brought.with(|b| {
            b.as_ref().map(|b| {
                b.projected
                    .heads
                    .iter()
                    .all(|h| h.q2.is_some() && h.k2.is_some())
            })
        })
    });
    let kind_why = move |v: &Variant, k: AttentionKind, lang: Lang| {
        let shared = LabState {
            mode: mode.get(),
            variants: Vec::new(),
            ..LabState::default()
        };
        shared.why_not_kind(v, k, lang).or_else(|| {
            let second = brought_second.get()?;
            (k == AttentionKind::Differential)
                .then(|| why_not_differential_on(second, lang).map(String::from))
                .flatten()
        })
    };
    let attention_why = move || {
        let v = v();
        let reasons: Vec<String> = LAB_KINDS
            .into_iter()
            .filter(|&k| k != v.attention)
            .filter_map(|k| kind_why(&v, k, lang.get()))
            .collect();
        (!reasons.is_empty())
            .then(|| reasons.join(msg::lab::KNOB_REASONS_SEPARATOR.get(lang.get())))
    };
    let padding_why = move || {
        mask_why(MaskKind::Padding).or_else(|| {
            (variant.with(|v| v.masks.padding) && state.lab.pad_to().with(Option::is_none))
                .then(|| msg::lab::KNOB_NO_PAD_TOKENS.get(lang.get()).to_string())
        })
    };

    let checkbox = move |kind: MaskKind, testid: &'static str| {
        let why = Signal::derive(move || mask_why(kind));
        let wid = id(testid);
        view! {
            <Knob label=move || kind.shown(lang.get()) id=wid.clone() why=why>
                <input type="checkbox" data-testid=testid aria-describedby=why_id(&wid)
                    disabled=move || why.get().is_some()
                    prop:checked=move || v().masks.is_on(kind)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        set(&|v| match kind {
                            MaskKind::Causal => v.masks.causal = on,
                            MaskKind::Padding => v.masks.padding = on,
                            MaskKind::Window => v.masks.window = on.then_some(v.masks.window.unwrap_or(2)),
                            MaskKind::Strided => v.masks.strided = on.then_some(v.masks.strided.unwrap_or(3)),
                            _ => {}
                        });
                    }/>
            </Knob>
        }
    };
    let number = move |kind: MaskKind, testid: &'static str, min: usize| {
        view! {
            <input type="number" class="mask-param" min=min.to_string() max="512" step="1" data-testid=testid
                aria-label=move || {
                    let lang = lang.get();
                    msg::lab::KnobMaskParameter { mask: &kind.shown(lang) }.say(lang)
                }
                disabled=move || !v().masks.is_on(kind)
                prop:value=move || {
                    let m = v().masks;
                    match kind { MaskKind::Window => m.window, _ => m.strided }.map(|x| x.to_string()).unwrap_or_default()
                }
                on:change=move |ev| {
                    if let Ok(x) = event_target_value(&ev).trim().parse::<usize>() {
                        let x = x.clamp(min, 512);
                        set(&|v| match kind {
                            MaskKind::Window => v.masks.window = Some(x),
                            _ => v.masks.strided = Some(x),
                        });
                    }
                }/>
        }
    };

    view! {
        <div class="knobs variant-knobs">
            <Knob label=text(msg::lab::KNOB_SCORE) id=id("score")
                why=Signal::derive(move || v().score_unused(lang.get()).map(String::from))>
                <select data-testid="score" aria-describedby=why_id(&id("score"))
                    disabled=move || v().score_unused(lang.get()).is_some()
                    on:change=move |ev| {
                        if let Some(s) = ScoreFunction::parse(&event_target_value(&ev))
                            && variant.get_untracked().why_not_score(s, Lang::En).is_none()
                        {
                            set(&|v| v.score = s);
                        }
                    }>
                    {ScoreFunction::ALL.map(|s| {
                        let why = move || v().why_not_score(s, lang.get());
                        view! {
                            <option value=s.name() selected=move || v().score == s
                                disabled=move || why().is_some() title=why>{move || score_label(s, lang.get())}</option>
                        }
                    }).collect_view()}
                </select>
            </Knob>
            <Knob label=text(msg::lab::KNOB_TEMPERATURE) id=id("temperature")
                why=Signal::derive(move || {
                    let lang = lang.get();
                    temperature_error.get().map(|e| e.get(lang).to_string())
                        .or_else(|| v().temperature_unused(lang))
                })>
                <span class="temperature">
                    <input type="range" min="-2" max="2" step="0.01" data-testid="temperature"
                        aria-label=text(msg::lab::KNOB_TEMPERATURE_LOG_SCALE)
                        aria-describedby=why_id(&id("temperature"))
                        disabled=move || v().temperature_unused(Lang::En).is_some()
                        prop:value=move || format!("{:.2}", temperature().log10())
                        on:input=move |ev| {
                            if let Ok(x) = event_target_value(&ev).parse::<f32>() {
                                let t = round_sig(10f32.powf(x)).clamp(*TEMPERATURE_RANGE.start(), *TEMPERATURE_RANGE.end());
                                temperature_error.set(None);
                                set(&|v| v.temperature = t);
                            }
                        }/>
                    <input type="number" min="0.01" max="100" step="any" class="temperature-value"
                        data-testid="temperature-value" aria-label=text(msg::lab::KNOB_TEMPERATURE_VALUE)
                        disabled=move || v().temperature_unused(Lang::En).is_some()
                        prop:value=move || temperature().to_string()
                        on:change=move |ev| {
                            match event_target_value(&ev).trim().parse::<f32>() {
                                Ok(t) if TEMPERATURE_RANGE.contains(&t) => {
                                    temperature_error.set(None);
                                    set(&|v| v.temperature = t);
                                }
                                _ => temperature_error.set(Some(msg::lab::KNOB_TEMPERATURE_RANGE)),
                            }
                        }/>
                </span>
            </Knob>
            <Knob label=text(msg::lab::KNOB_ATTENTION) id=id("attention") why=Signal::derive(attention_why)>
                <select data-testid="attention" aria-describedby=why_id(&id("attention"))
                    on:change=move |ev| {
                        if let Some(k) = parse_kind(&event_target_value(&ev))
                            && untrack(|| kind_why(&variant.get(), k, Lang::En)).is_none()
                        {
                            set(&|v| v.attention = k);
                        }
                    }>
                    {LAB_KINDS.map(|k| {
                        let why = move || kind_why(&v(), k, lang.get());
                        view! {
                            <option value=k.name() selected=move || v().attention == k
                                disabled=move || why().is_some() title=why>{move || kind_label(k, lang.get())}</option>
                        }
                    }).collect_view()}
                </select>
            </Knob>
            <Knob label="Linformer k" id=id("linformer-k")
                why=Signal::derive(move || {
                    let lang = lang.get();
                    k_error.get().map(|e| e.get(lang).to_string())
                        .or_else(|| v().linformer_k_unused(lang).map(String::from))
                })>
                <input type="number" min="1" max="512" step="1" data-testid="linformer-k"
                    aria-describedby=why_id(&id("linformer-k"))
                    disabled=move || v().linformer_k_unused(Lang::En).is_some()
                    prop:value=move || v().linformer_k.to_string()
                    on:change=move |ev| {
                        match event_target_value(&ev).trim().parse::<usize>() {
                            Ok(k) if LINFORMER_K_RANGE.contains(&k) => {
                                k_error.set(None);
                                set(&|v| v.linformer_k = k);
                            }
                            _ => k_error.set(Some(msg::lab::KNOB_LINFORMER_K_RANGE)),
                        }
                    }/>
            </Knob>
        </div>
        <VariantOptions variant=slot uid=uid.get_value()/>
        <fieldset class="masks">
            <legend class="field-label">{text(msg::lab::KNOB_MASKS)}</legend>
            <div class="knobs">
                {checkbox(MaskKind::Causal, "mask-causal")}
                <Knob label=text(msg::lab::MASK_PADDING) id=id("mask-padding") why=Signal::derive(padding_why)>
                    <input type="checkbox" data-testid="mask-padding" aria-describedby=why_id(&id("mask-padding"))
                        disabled=move || mask_why(MaskKind::Padding).is_some()
                        prop:checked=move || v().masks.padding
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            set(&|v| v.masks.padding = on);
                        }/>
                </Knob>
                <span class="mask-with-param">{checkbox(MaskKind::Window, "mask-window")} " r " {number(MaskKind::Window, "window-r", 0)}</span>
                <span class="mask-with-param">{checkbox(MaskKind::Strided, "mask-strided")} " s " {number(MaskKind::Strided, "strided-s", 1)}</span>
            </div>
            <GlobalTokens variant=variant on_toggle=Callback::new(move |i: usize| set(&|v| v.masks.toggle_global(i))) why=Signal::derive(move || mask_why(MaskKind::Global)) uid=id("global")/>
            <Knob label=text(msg::lab::KNOB_CUSTOM_CELLS) id=id("custom") why=Signal::derive(move || mask_why(MaskKind::Custom))>
                <input type="checkbox" data-testid="edit-custom" aria-describedby=why_id(&id("custom"))
                    disabled=move || mask_why(MaskKind::Custom).is_some()
                    prop:checked=move || edit_custom.get()
                    on:change=move |ev| edit_custom.set(event_target_checked(&ev))/>
                <span class="hint">" " {text(msg::lab::KNOB_CLICK_HEATMAP_CELLS)} " "</span>
                <span class="count" data-testid="custom-count">{move || v().masks.custom.len()}</span>
                " "
                <button type="button" class="small" data-testid="clear-custom"
                    disabled=move || v().masks.custom.is_empty()
                    on:click=move |_| set(&|v| v.masks.custom.clear())>{text(msg::lab::KNOB_CLEAR)}</button>
            </Knob>
        </fieldset>
    }
}

/// Token chips that make a token global (it attends to, and is attended by, every
/// token) when clicked.
#[component]
fn GlobalTokens(
    variant: Memo<Variant>,
    /// Makes token `i` global, or not.
    on_toggle: Callback<usize>,
    #[prop(into)] why: Signal<Option<String>>,
    #[prop(into)] uid: String,
) -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let why_el = why_id(&uid);
    // One memo between the chips and the variant: a change elsewhere in the variant (its
    // temperature, say) reruns it, not every chip's bindings.
    let global = Memo::new(move |_| variant.with(|v| v.masks.global.clone()));
    view! {
        <div class="knob global-tokens" class:is-disabled=move || why.with(Option::is_some)
            tabindex=move || why.with(Option::is_some).then_some("0") title=move || why.get()>
            <span class="knob-name">{text(msg::lab::KNOB_GLOBAL_TOKENS_CLICK)}</span>
            <span class="chips" role="group" aria-label=text(msg::lab::KNOB_GLOBAL_TOKENS) aria-describedby=why_el.clone()
                translate="no">
                <For
                    each=move || state.derived.tokens.with(|t| t.labels()).into_iter().enumerate()
                    key=|(i, t)| (*i, t.clone())
                    children=move |(i, t)| {
                        let on = move || global.with(|g| g.contains(&i));
                        view! {
                            <button type="button" class="chip" data-testid="global-token"
                                aria-pressed=move || on().to_string()
                                disabled=move || why.with(Option::is_some) && !on()
                                on:click=move |_| on_toggle.run(i)>
                                {t}<sub>{i}</sub>
                            </button>
                        }
                    }
                />
            </span>
            <span class="why" id=why_el role="note">{move || why.get().map(|w| sentence(&w, lang.get()))}</span>
        </div>
    }
}

/// A short name of an attention kind for a menu, in `lang`.
fn kind_label(kind: AttentionKind, lang: Lang) -> &'static str {
    match kind {
        AttentionKind::Softmax => return "softmax",
        AttentionKind::Linformer => return "Linformer",
        AttentionKind::SoftmaxPlusOne => msg::lab::KNOB_KIND_SOFTMAX_PLUS_ONE,
        AttentionKind::Sigmoid => msg::lab::KNOB_KIND_SIGMOID,
        AttentionKind::Softpick => msg::lab::KNOB_KIND_SOFTPICK,
        AttentionKind::Sink => msg::lab::KNOB_KIND_SINK,
        AttentionKind::Differential => msg::lab::KNOB_KIND_DIFFERENTIAL,
        AttentionKind::DecayedLinear => msg::lab::KNOB_KIND_DECAYED_LINEAR,
        AttentionKind::Favor => msg::lab::KNOB_KIND_FAVOR,
        AttentionKind::Elu1 => msg::lab::KNOB_LINEAR_ELU_1,
        AttentionKind::Relu => msg::lab::KNOB_LINEAR_RELU,
        AttentionKind::Taylor => msg::lab::KNOB_LINEAR_TAYLOR,
        AttentionKind::Efficient => msg::lab::KNOB_EFFICIENT,
    }
    .get(lang)
}

/// `x` to three significant digits (the slider's values read as 0.0316, 1.26, 31.6).
fn round_sig(x: f32) -> f32 {
    if x <= 0.0 || !x.is_finite() {
        return x;
    }
    let mag = 10f32.powi(x.log10().floor() as i32 - 2);
    let r = (x / mag).round() * mag;
    // Print-and-parse gives the f32 nearest the short decimal.
    format!("{r:.4}").parse().unwrap_or(r)
}
