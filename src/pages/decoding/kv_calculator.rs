use attnlab_i18n::msg;
use attnlab_i18n::said::Said;
use attnlab_lab::state::KvCache;
use attnlab_pages::decoding::{
    BITS, CacheKind, Knob, PRESETS, bytes_text, chart, checked, per_token_formula, presets_of,
    sizes, symbolic_formula, total_formula, typed,
};
use leptos::prelude::*;

use crate::canvas::LineChartCanvas;
use crate::i18n::{text, use_lang};
use crate::pages::with_symbols;
use crate::state::{LabFields, ViewFields, use_app_state};

/// A width of a value as the picker names it (the same in every language).
fn bits_name(bits: u64) -> &'static str {
    match bits {
        32 => "fp32 (4 B)",
        16 => "fp16 / bf16 (2 B)",
        8 => "fp8 / int8 (1 B)",
        _ => "int4 (0.5 B)",
    }
}

/// A formula as pieces that do not break inside: the first term, then each `= …`.
fn formula_pieces(formula: String) -> impl IntoView {
    formula
        .split(" = ")
        .enumerate()
        .filter(|(_, piece)| !piece.is_empty())
        .map(|(i, piece)| {
            let text = if i == 0 {
                piece.to_string()
            } else {
                format!(" = {piece}")
            };
            view! { <span class="kv-formula-piece">{text}</span> }
        })
        .collect_view()
}

/// The KV-cache calculator: a preset or the numbers of a model's shape, the width of a
/// value, the context and the batch (all in the link); bytes per token and in all, each
/// with its formula written out; the sources of the preset; the cache against the context
/// for this setting and the same shape's MHA, GQA and MQA.
#[component]
pub fn KvCalculator() -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let raw = state.lab.view().kv_cache();
    let checked = Memo::new(move |_| checked(&raw.get()));
    let cache = Memo::new(move |_| checked.with(|c| c.cache));
    // The note on the last typed value (cleared by the next value taken as typed).
    let typed_note = RwSignal::new(None::<Said>);
    // The preset picked last: Llama 3 8B and Mistral 7B share a shape.
    let picked = RwSignal::new(None::<&'static str>);

    let set = move |f: &dyn Fn(&mut KvCache)| {
        let mut c = cache.get_untracked();
        f(&mut c);
        if raw.get_untracked() != c {
            raw.set(c);
        }
    };
    let shown_preset = move || {
        let matching = presets_of(&cache.get());
        match picked.get() {
            Some(id) if matching.iter().any(|p| p.id == id) => id,
            _ => matching.first().map_or("custom", |p| p.id),
        }
    };
    let pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(p) = PRESETS.iter().find(|p| p.id == id) {
            picked.set(Some(p.id));
            typed_note.set(None);
            set(&|c| *c = p.cache);
        }
    };

    let knob = move |k: Knob| {
        let id = format!("kv-{}", k.name());
        let on_change = move |ev: leptos::ev::Event| {
            let was = k.get(&cache.get_untracked());
            let (v, note) = typed(k, &event_target_value(&ev), was);
            typed_note.set(note);
            set(&|c| k.set(c, v));
            // The box shows the value taken, also when it is the one it had.
            if let Some(input) = ev
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            {
                input.set_value(&k.get(&cache.get_untracked()).to_string());
            }
        };
        let range = k.range();
        view! {
            <label class="kv-knob">
                <span class="kv-knob-name">{move || with_symbols(k.label().get(lang.get()))}</span>
                <input type="number" id=id.clone() data-testid=id step="1"
                    min=range.start().to_string() max=range.end().to_string()
                    prop:value=move || k.get(&cache.get()).to_string() on:change=on_change/>
            </label>
        }
    };
    let latent_on = move || cache.with(|c| c.latent.is_some());
    let kind = move || CacheKind::of(&cache.get());
    let s = move || sizes(&cache.get());

    let notes = move || {
        let l = lang.get();
        let mut all: Vec<String> =
            checked.with(|c| c.notes.iter().map(|n| n.get(l).to_string()).collect());
        if let Some(n) = typed_note.get() {
            all.push(n.get(l).to_string());
        }
        all
    };
    let sources = move || {
        presets_of(&cache.get())
            .into_iter()
            .map(|p| {
                view! {
                    <li data-testid=format!("kv-source-{}", p.id)>
                        <strong translate="no">{p.name}</strong>": "
                        <cite translate="no" lang="en">{p.source}</cite>
                        <span class="kv-fields" translate="no">{p.fields}</span>
                        {p.remark.map(|r| view! { <span class="kv-remark">{text(r)}</span> })}
                    </li>
                }
            })
            .collect_view()
    };
    let chart = Signal::derive(move || Some(chart(&cache.get(), lang.get())));

    view! {
        <div class="kv-calculator" data-testid="kv-calculator">
            <div class="kv-inputs" role="group" aria-label=text(msg::decoding::DECODING_KNOBS_LABEL)>
                <label class="kv-knob kv-preset">
                    <span class="kv-knob-name">{text(msg::decoding::DECODING_PRESET_LABEL)}</span>
                    <select data-testid="kv-preset" on:change=pick>
                        <option value="custom" selected=move || shown_preset() == "custom">
                            {text(msg::decoding::DECODING_PRESET_CUSTOM)}
                        </option>
                        {PRESETS.iter().map(|p| view! {
                            <option value=p.id translate="no" selected=move || shown_preset() == p.id>{p.name}</option>
                        }).collect_view()}
                    </select>
                </label>
                {knob(Knob::Layers)}
                {knob(Knob::QueryHeads)}
                {knob(Knob::KvHeads)}
                {knob(Knob::HeadDim)}
                <label class="kv-knob">
                    <span class="kv-knob-name">{text(msg::decoding::DECODING_KNOB_BITS)}</span>
                    <select data-testid="kv-bits" on:change=move |ev| {
                        if let Ok(b) = event_target_value(&ev).parse::<u64>() {
                            set(&|c| c.bits = b);
                        }
                    }>
                        {BITS.into_iter().map(|b| view! {
                            <option value=b translate="no" selected=move || cache.with(|c| c.bits == b)>{bits_name(b)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="kv-knob kv-latent">
                    <input type="checkbox" data-testid="kv-latent" prop:checked=latent_on
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            set(&|c| c.latent = on.then_some(c.latent.unwrap_or((512, 64))));
                        }/>
                    <span class="kv-knob-name">{text(msg::decoding::DECODING_KNOB_LATENT)}</span>
                </label>
                <Show when=latent_on>
                    {knob(Knob::LatentWidth)}
                    {knob(Knob::RopeWidth)}
                </Show>
                {knob(Knob::Context)}
                {knob(Knob::Batch)}
            </div>
            <p class="kv-kind" data-testid="kv-kind" data-kind=move || kind().short()>
                <strong translate="no">{move || kind().short()}</strong>" "
                {move || with_symbols(kind().explained().get(lang.get()))}
            </p>
            <p class="kv-note" data-testid="kv-note" role="status" aria-live="polite"
                data-count=move || notes().len()>
                {move || notes().join(" ")}
            </p>
            <div class="kv-results">
                <div class="kv-result" data-testid="kv-per-token"
                    data-bytes=move || (s().bits_per_token / 8).to_string()>
                    <span class="kv-result-name">{text(msg::decoding::DECODING_PER_TOKEN)}</span>
                    <span class="kv-result-value" translate="no">{move || bytes_text(s().bytes_per_token())}</span>
                    <span class="kv-formula" translate="no" data-testid="kv-per-token-formula">
                        <span class="kv-formula-symbols">{move || symbolic_formula(&cache.get())}</span>
                        {move || formula_pieces(format!(" = {}", per_token_formula(&cache.get())))}
                    </span>
                </div>
                <div class="kv-result" data-testid="kv-totals"
                    data-bytes=move || (s().bits_total / 8).to_string()>
                    <span class="kv-result-name">{text(msg::decoding::DECODING_TOTAL)}</span>
                    <span class="kv-result-value" translate="no" data-testid="kv-total">{move || bytes_text(s().bytes_total())}</span>
                    <span class="kv-result-detail">{move || {
                        let c = cache.get();
                        msg::decoding::DecodingTotalDetail {
                            tokens: &attnlab_pages::decoding::grouped(c.context),
                            batch: &attnlab_pages::decoding::grouped(c.batch),
                        }
                        .say(lang.get())
                    }}</span>
                    <span class="kv-formula" translate="no" data-testid="kv-total-formula">
                        {move || formula_pieces(total_formula(&cache.get()))}
                    </span>
                </div>
            </div>
            <LineChartCanvas chart=chart testid="kv-chart" class="kv-chart"/>
            <Show when=move || !presets_of(&cache.get()).is_empty()>
                <div class="kv-sources">
                    <p class="kv-sources-title">{text(msg::decoding::DECODING_SOURCE_SAME_SHAPE)}</p>
                    <ul data-testid="kv-sources">{sources}</ul>
                </div>
            </Show>
        </div>
    }
}
