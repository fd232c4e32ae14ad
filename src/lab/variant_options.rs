//! A variant's options beyond its score, τ, kind and masks, in three groups a projector
//! keeps readable: Positions (RoPE and its scalings, ALiBi), Logits (softcap, sinks,
//! tiles, key/value groups) and the kind's own parameters, shown with their kind. Each
//! option the kind does not take is disabled with the rules' reason
//! (`attnlab_lab::rules`).

use attnlab_core::attention::AttentionKind;
use attnlab_core::rope::{RopePairs, RopeScaling};
use attnlab_i18n::msg;
use attnlab_lab::rules::KindOption;
use attnlab_lab::state::{
    DECAY_RANGE, DEFAULT_SOFTCAP, DEFAULT_TILES, FEATURES_RANGE, LAMBDA_RANGE, ROPE_BASE_RANGE,
    ROPE_FACTOR_RANGE, ROPE_ORIGINAL_RANGE, SCALING_NAMES, SIGMOID_BIAS_RANGE, SINK_LOGIT_RANGE,
    SINKS_RANGE, SOFTCAP_RANGE, TILES_RANGE, default_rope, group_choices, scaling_factor,
    scaling_name, scaling_named, with_factor,
};
use attnlab_lab::{LabState, MaskKind, Variant};
use leptos::prelude::*;

use crate::i18n::{Tr, text, use_lang};
use crate::state::{LabFields, VariantSlot, use_app_state};
use crate::widgets::knob::{Knob, why_id};

use super::groups_figure::GroupsFigure;

type ValueOf = fn(&Variant, usize) -> f32;
/// Sets a value (`d_k` is the third argument, for RoPE's rotary dims).
type SetValue = fn(&mut Variant, f32, usize);
type IsOn = fn(&Variant) -> bool;
type Turn = fn(&mut Variant, bool);

/// The options of one variant (see the module's comment).
#[component]
pub fn VariantOptions(
    /// The variant edited.
    variant: VariantSlot,
    /// A prefix for element ids, unique per variant.
    #[prop(into)]
    uid: String,
) -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let VariantSlot { index, variant, .. } = variant;
    let v = move || variant.get();
    let set = move |f: &dyn Fn(&mut Variant)| state.edit_variant(index.get_untracked(), f);
    let uid = StoredValue::new(uid);
    let id = move |what: &str| format!("{}-{what}", uid.get_value());
    // What the rules of the whole state read: the model the variants compute with (on
    // brought tensors, their heads and d_k) and the mode.
    let shared = Memo::new(move |_| LabState {
        model: state.derived.used_model.get(),
        mode: state.lab.mode().get(),
        variants: Vec::new(),
        ..LabState::default()
    });

    let d_k = move || shared.with(|s| s.model.d_k());
    // A number typed in a box: refused (with the range, in every language) outside
    // `lo..=hi`, or not whole when `whole`.
    let number = move |testid: &'static str,
                       label: Tr,
                       get: ValueOf,
                       put: SetValue,
                       (lo, hi, whole): (f32, f32, bool),
                       why: Signal<Option<String>>| {
        let wid = id(testid);
        let error = RwSignal::new(None::<String>);
        let shown = Signal::derive(move || error.get().or_else(|| why.get()));
        view! {
            <Knob label=text(label) id=wid.clone() why=shown>
                <input type="number" class="option-value" data-testid=testid
                    aria-describedby=why_id(&wid)
                    min=lo.to_string() max=hi.to_string() step=if whole { "1" } else { "any" }
                    disabled=move || why.with(Option::is_some)
                    prop:value=move || {
                        let x = get(&v(), d_k());
                        if x.is_finite() { x.to_string() } else { String::new() }
                    }
                    on:change=move |ev| {
                        match event_target_value(&ev).trim().parse::<f32>() {
                            Ok(x) if (lo..=hi).contains(&x) && (!whole || x.fract() == 0.0) => {
                                error.set(None);
                                let d = d_k();
                                set(&|v| put(v, x, d));
                            }
                            _ => {
                                let lang = lang.get();
                                let said = msg::lab::KnobNumberRange {
                                    what: &label.get(lang),
                                    lo: &lo,
                                    hi: &hi,
                                }
                                .say(lang);
                                error.set(Some(said));
                            }
                        }
                    }/>
            </Knob>
        }
    };
    // An option turned on or off.
    let toggle = move |testid: &'static str,
                       label: Tr,
                       is_on: IsOn,
                       turn: Turn,
                       why: Signal<Option<String>>| {
        let wid = id(testid);
        view! {
            <Knob label=text(label) id=wid.clone() why=why>
                <input type="checkbox" data-testid=testid aria-describedby=why_id(&wid)
                    disabled=move || why.with(Option::is_some) && !is_on(&v())
                    prop:checked=move || is_on(&v())
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        set(&|v| turn(v, on));
                    }/>
            </Knob>
        }
    };
    let none = Signal::derive(|| None::<String>);
    let option_why = move |o: KindOption| Signal::derive(move || v().option_unused(o, lang.get()));
    let rope_on = move || v().rope.is_some();
    let scaling = move || v().rope.map_or(RopeScaling::None, |r| r.scaling);

    let rope_why = Signal::derive(move || shared.with(|s| s.why_not_rope(lang.get())));
    let rope_toggle = {
        let wid = id("rope");
        view! {
            <Knob label=text(msg::lab::KNOB_ROPE) id=wid.clone() why=rope_why>
                <input type="checkbox" data-testid="rope" aria-describedby=why_id(&wid)
                    disabled=move || rope_why.with(Option::is_some) && !rope_on()
                    prop:checked=rope_on
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        let dims = shared.with_untracked(|s| s.rope_dims_for());
                        set(&|v| {
                            v.rope = on.then(|| attnlab_core::rope::Rope {
                                rotary_dims: dims,
                                ..default_rope()
                            });
                        });
                    }/>
            </Knob>
        }
    };
    let pairs = move || {
        let wid = id("rope-pairs");
        view! {
            <Knob label=text(msg::lab::KNOB_ROPE_PAIRS) id=wid.clone() why=none>
                <select data-testid="rope-pairs" aria-describedby=why_id(&wid)
                    on:change=move |ev| {
                        if let Some(p) = RopePairs::parse(&event_target_value(&ev)) {
                            set(&|v| if let Some(r) = &mut v.rope { r.pairs = p });
                        }
                    }>
                    {RopePairs::ALL.map(|p| {
                        let label = match p {
                            RopePairs::Half => msg::lab::KNOB_ROPE_PAIRS_HALF,
                            RopePairs::Interleaved => msg::lab::KNOB_ROPE_PAIRS_INTERLEAVED,
                        };
                        view! {
                            <option value=p.name() selected=move || v().rope.is_some_and(|r| r.pairs == p)>
                                {text(label)}
                            </option>
                        }
                    }).collect_view()}
                </select>
            </Knob>
        }
    };
    let scaling_select = move || {
        let wid = id("rope-scaling");
        view! {
            <Knob label=text(msg::lab::KNOB_ROPE_SCALING) id=wid.clone() why=none>
                <select data-testid="rope-scaling" aria-describedby=why_id(&wid)
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        if let Some(s) = scaling_named(&name, scaling())
                            && shared.with_untracked(|st| st.why_not_scaling(&variant.get_untracked(), s, attnlab_i18n::Lang::En)).is_none()
                        {
                            set(&|v| if let Some(r) = &mut v.rope { r.scaling = s });
                        }
                    }>
                    {SCALING_NAMES.map(|name| {
                        let label = match name {
                            "none" => msg::lab::KNOB_ROPE_SCALING_NONE,
                            "linear" => msg::lab::KNOB_ROPE_SCALING_LINEAR,
                            "ntk" => msg::lab::KNOB_ROPE_SCALING_NTK,
                            _ => msg::lab::KNOB_ROPE_SCALING_YARN,
                        };
                        let why = move || {
                            let s = scaling_named(name, RopeScaling::None)?;
                            shared.with(|st| st.why_not_scaling(&v(), s, lang.get()))
                        };
                        view! {
                            <option value=name selected=move || scaling_name(scaling()) == name
                                disabled=move || why().is_some() title=why>{text(label)}</option>
                        }
                    }).collect_view()}
                </select>
            </Knob>
        }
    };
    let groups = {
        let wid = id("kv-groups");
        view! {
            <Knob label=text(msg::lab::KNOB_KV_GROUPS) id=wid.clone() why=none>
                <select data-testid="kv-groups" aria-describedby=why_id(&wid)
                    on:change=move |ev| {
                        if let Ok(g) = event_target_value(&ev).parse::<usize>() {
                            let heads = shared.with_untracked(|s| s.model.heads);
                            if shared.with_untracked(|s| s.why_not_kv_groups(g, attnlab_i18n::Lang::En)).is_none() {
                                set(&|v| v.kv_groups = (g != heads).then_some(g));
                            }
                        }
                    }>
                    {move || {
                        let heads = shared.with(|s| s.model.heads);
                        group_choices(heads).into_iter().map(|g| {
                            let label = move || {
                                let lang = lang.get();
                                if g == heads {
                                    msg::lab::KnobKvGroupsMha { groups: &g }.say(lang)
                                } else if g == 1 {
                                    msg::lab::KNOB_KV_GROUPS_MQA.get(lang).to_string()
                                } else {
                                    msg::lab::KnobKvGroupsGqa { groups: &g }.say(lang)
                                }
                            };
                            view! {
                                <option value=g.to_string()
                                    selected=move || v().kv_groups.unwrap_or(heads) == g>{label}</option>
                            }
                        }).collect_view()
                    }}
                </select>
            </Knob>
        }
    };
    let own = move || v().attention;

    view! {
        <fieldset class="options" data-testid="options-positions">
            <legend class="field-label">{text(msg::lab::KNOB_GROUP_POSITIONS)}</legend>
            <div class="knobs">
                {rope_toggle}
                <Show when=rope_on>
                    {number("rope-base", msg::lab::KNOB_ROPE_BASE,
                        |v, _| v.rope.as_ref().map_or(10000.0, |r| r.base),
                        |v, x, _| if let Some(r) = &mut v.rope { r.base = x },
                        (*ROPE_BASE_RANGE.start(), *ROPE_BASE_RANGE.end(), false), none)}
                    {pairs()}
                    {number("rope-dims", msg::lab::KNOB_ROPE_DIMS,
                        |v, d_k| v.rope.as_ref().and_then(|r| r.rotary_dims).unwrap_or(d_k) as f32,
                        // Even, from 2 to d_k (every dimension is written as none).
                        |v, x, d_k| if let Some(r) = &mut v.rope {
                            let dims = ((x as usize).min(d_k) & !1).max(2);
                            r.rotary_dims = (dims != d_k).then_some(dims);
                        },
                        (2.0, 512.0, true), Signal::derive(move || None::<String>))}
                    {scaling_select()}
                </Show>
                <Show when=move || rope_on() && scaling() != RopeScaling::None>
                    {number("rope-factor", msg::lab::KNOB_ROPE_FACTOR,
                        |v, _| v.rope.as_ref().and_then(|r| scaling_factor(r.scaling)).unwrap_or(1.0),
                        |v, x, _| if let Some(r) = &mut v.rope { r.scaling = with_factor(r.scaling, x) },
                        (*ROPE_FACTOR_RANGE.start(), *ROPE_FACTOR_RANGE.end(), false), none)}
                </Show>
                <Show when=move || matches!(scaling(), RopeScaling::Yarn { .. })>
                    {number("rope-original", msg::lab::KNOB_ROPE_ORIGINAL,
                        |v, _| match v.rope.as_ref().map(|r| r.scaling) {
                            Some(RopeScaling::Yarn { original_max_positions, .. }) => original_max_positions,
                            _ => 0.0,
                        },
                        |v, x, _| if let Some(r) = &mut v.rope
                            && let RopeScaling::Yarn { original_max_positions, .. } = &mut r.scaling {
                            *original_max_positions = x;
                        },
                        (*ROPE_ORIGINAL_RANGE.start(), *ROPE_ORIGINAL_RANGE.end(), true), none)}
                </Show>
                {toggle("alibi", msg::lab::KNOB_ALIBI, |v| v.alibi, |v, on| v.alibi = on, option_why(KindOption::Alibi))}
            </div>
        </fieldset>
        <fieldset class="options" data-testid="options-logits">
            <legend class="field-label">{text(msg::lab::KNOB_GROUP_LOGITS)}</legend>
            <div class="knobs">
                <span class="option-with-value">
                    {toggle("softcap", msg::lab::KNOB_SOFTCAP, |v| v.softcap.is_some(),
                        |v, on| v.softcap = on.then_some(v.softcap.unwrap_or(DEFAULT_SOFTCAP)), option_why(KindOption::Softcap))}
                    <Show when=move || v().softcap.is_some()>
                        {number("softcap-c", msg::lab::KNOB_SOFTCAP,
                            |v, _| v.softcap.unwrap_or(DEFAULT_SOFTCAP),
                            |v, x, _| v.softcap = Some(x),
                            (*SOFTCAP_RANGE.start(), *SOFTCAP_RANGE.end(), false), none)}
                    </Show>
                </span>
                <span class="option-with-value">
                    {toggle("sinks", msg::lab::KNOB_SINKS, |v| v.masks.sinks.is_some(),
                        |v, on| v.masks.sinks = on.then_some(v.masks.sinks.unwrap_or(1)),
                        Signal::derive(move || v().why_not_mask(MaskKind::Sinks, lang.get())))}
                    <Show when=move || v().masks.sinks.is_some()>
                        {number("sinks-s", msg::lab::KNOB_SINKS,
                            |v, _| v.masks.sinks.unwrap_or(1) as f32,
                            |v, x, _| v.masks.sinks = Some(x as usize),
                            (*SINKS_RANGE.start() as f32, *SINKS_RANGE.end() as f32, true), none)}
                    </Show>
                </span>
                <span class="option-with-value">
                    {toggle("tiles", msg::lab::KNOB_TILES, |v| v.tiles.is_some(),
                        |v, on| v.tiles = on.then_some(v.tiles.unwrap_or(DEFAULT_TILES)), option_why(KindOption::Tiles))}
                    <Show when=move || v().tiles.is_some()>
                        {number("tiles-b", msg::lab::KNOB_TILES,
                            |v, _| v.tiles.unwrap_or(DEFAULT_TILES) as f32,
                            |v, x, _| v.tiles = Some(x as usize),
                            (*TILES_RANGE.start() as f32, *TILES_RANGE.end() as f32, true), none)}
                    </Show>
                </span>
                {groups}
            </div>
            <Show when=move || v().kv_groups.is_some()>
                <GroupsFigure heads=Signal::derive(move || shared.with(|s| s.model.heads))
                    d_k=Signal::derive(d_k)
                    groups=Signal::derive(move || v().kv_groups.unwrap_or(1))/>
            </Show>
        </fieldset>
        <Show when=move || matches!(own(), AttentionKind::Sigmoid | AttentionKind::Differential
            | AttentionKind::DecayedLinear | AttentionKind::Sink | AttentionKind::Favor)>
            <fieldset class="options" data-testid="options-kind">
                <legend class="field-label">{text(msg::lab::KNOB_GROUP_KIND)}</legend>
                <div class="knobs">
                    <Show when=move || own() == AttentionKind::Sigmoid>
                        <span class="option-with-value">
                            {toggle("sigmoid-bias-default", msg::lab::KNOB_SIGMOID_BIAS_DEFAULT,
                                |v| v.sigmoid_bias.is_none(),
                                |v, on| v.sigmoid_bias = (!on).then_some(v.sigmoid_bias.unwrap_or(0.0)), none)}
                            {number("sigmoid-bias", msg::lab::KNOB_SIGMOID_BIAS,
                                |v, _| v.sigmoid_bias.unwrap_or(f32::NAN),
                                |v, x, _| v.sigmoid_bias = Some(x),
                                (*SIGMOID_BIAS_RANGE.start(), *SIGMOID_BIAS_RANGE.end(), false),
                                Signal::derive(move || v().sigmoid_bias.is_none().then(|| {
                                    msg::lab::KNOB_SIGMOID_BIAS_DEFAULT.get(lang.get()).to_string()
                                })))}
                        </span>
                    </Show>
                    <Show when=move || own() == AttentionKind::Differential>
                        {number("lambda", msg::lab::KNOB_LAMBDA, |v, _| v.lambda, |v, x, _| v.lambda = x,
                            (*LAMBDA_RANGE.start(), *LAMBDA_RANGE.end(), false), none)}
                    </Show>
                    <Show when=move || own() == AttentionKind::DecayedLinear>
                        {number("decay", msg::lab::KNOB_DECAY, |v, _| v.decay, |v, x, _| v.decay = x,
                            (*DECAY_RANGE.start(), *DECAY_RANGE.end(), false), none)}
                    </Show>
                    <Show when=move || own() == AttentionKind::Sink>
                        {number("sink-logit", msg::lab::KNOB_SINK_LOGIT, |v, _| v.sink_logit, |v, x, _| v.sink_logit = x,
                            (*SINK_LOGIT_RANGE.start(), *SINK_LOGIT_RANGE.end(), false), none)}
                    </Show>
                    <Show when=move || own() == AttentionKind::Favor>
                        {number("features", msg::lab::KNOB_FEATURES, |v, _| v.features as f32, |v, x, _| v.features = x as usize,
                            (*FEATURES_RANGE.start() as f32, *FEATURES_RANGE.end() as f32, true), none)}
                    </Show>
                </div>
            </fieldset>
        </Show>
    }
}
