use std::ops::RangeInclusive;

use attnlab_i18n::said::Said;
use attnlab_i18n::{Tr, msg};
use attnlab_pages::complexity::why::{
    D_RANGE, DEFAULT_LAYERS, DEFAULT_OUTPUT, FIGURE_MAX_N, K_CHOICES, LAYERS_RANGE, Layer, N_RANGE,
    R_RANGE, Sizes, reach,
};
use leptos::prelude::*;

use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::{text, use_lang};
use crate::pages::with_symbols;

/// The title of the paper, as its citation shows it.
const PAPER: &str = "“Attention Is All You Need” (Vaswani et al. 2017)";

/// A typed number in `range`: as typed when whole and inside, else clamped and rounded
/// with a note; `None` when it is not a number.
fn clamp_typed(what: Tr, text: &str, range: RangeInclusive<u64>) -> Option<(u64, Option<Said>)> {
    let t = text.trim().to_string();
    let v: f64 = t.parse().ok().filter(|v: &f64| v.is_finite())?;
    let (lo, hi) = (*range.start(), *range.end());
    let now = v.round().clamp(lo as f64, hi as f64) as u64;
    if now as f64 == v {
        return Some((now, None));
    }
    let note = Said::of(move |lang| {
        msg::complexity::ComplexityWhyClamped {
            what: &what.get(lang),
            typed: &t,
            lo: &lo,
            hi: &hi,
            now: &now,
        }
        .say(lang)
    });
    Some((now, Some(note)))
}

/// "Why attention": Table 1 of "Attention Is All You Need" for a chosen n, d, k and r
/// (work per layer, sequential operations, maximum path length, each with its formula),
/// and the figure of which inputs reach output i after L layers of each kind, with each
/// input's path length. The numbers are `attnlab_pages::complexity::why`'s.
#[component]
pub fn WhyAttention() -> impl IntoView {
    let lang = use_lang();
    let sizes = RwSignal::new(Sizes::default());
    let layers = RwSignal::new(DEFAULT_LAYERS);
    let output = RwSignal::new(DEFAULT_OUTPUT);
    let note = RwSignal::new(None::<Said>);
    let shown = move || sizes.with(|s| s.n.min(FIGURE_MAX_N));
    let i = move || output.get().min(shown() - 1);

    let number = move |what: Tr,
                       testid: &'static str,
                       range: RangeInclusive<u64>,
                       get: fn(&Sizes, u64, u64) -> u64,
                       put: fn(&mut Sizes, &mut u64, &mut u64, u64)| {
        let value = move || get(&sizes.get(), layers.get(), output.get()).to_string();
        let range2 = range.clone();
        let on_change = move |ev: leptos::ev::Event| {
            if let Some((v, said)) = clamp_typed(what, &event_target_value(&ev), range2.clone()) {
                note.set(said);
                let (mut s, mut l, mut o) = (
                    sizes.get_untracked(),
                    layers.get_untracked(),
                    output.get_untracked(),
                );
                put(&mut s, &mut l, &mut o, v);
                sizes.set(s);
                layers.set(l);
                output.set(o);
            }
            if let Some(input) = ev
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            {
                input.set_value(
                    &get(
                        &sizes.get_untracked(),
                        layers.get_untracked(),
                        output.get_untracked(),
                    )
                    .to_string(),
                );
            }
        };
        view! {
            <label class="why-knob">
                <span>{move || with_symbols(what.get(lang.get()))}</span>
                <input type="number" data-testid=testid step="1" min=range.start().to_string()
                    max=range.end().to_string() prop:value=value on:change=on_change/>
            </label>
        }
    };

    let rows = move || reach(&sizes.get(), i(), layers.get());
    let lead = move || {
        let said = msg::complexity::ComplexityWhyLead { paper: &MARK[0] }.say(lang.get());
        with_marked(&said, |_| {
            view! { <cite translate="no" lang="en">{PAPER}</cite> }.into_any()
        })
    };

    view! {
        <section class="why-attention" data-testid="why-attention" aria-labelledby="why-title">
            <h3 class="section-title" id="why-title">{text(msg::complexity::COMPLEXITY_WHY_TITLE)}</h3>
            <p class="explain-lead">{lead}</p>
            <div class="why-knobs" role="group" aria-label=text(msg::complexity::COMPLEXITY_WHY_KNOBS_LABEL)>
                {number(msg::complexity::COMPLEXITY_WHY_N, "why-n", N_RANGE, |s, _, _| s.n, |s, _, _, v| s.n = v)}
                {number(msg::complexity::COMPLEXITY_WHY_D, "why-d", D_RANGE, |s, _, _| s.d, |s, _, _, v| s.d = v)}
                <label class="why-knob">
                    <span>{move || with_symbols(msg::complexity::COMPLEXITY_WHY_K.get(lang.get()))}</span>
                    <select data-testid="why-k" on:change=move |ev| {
                        if let Ok(k) = event_target_value(&ev).parse::<u64>() {
                            sizes.update(|s| s.k = k);
                        }
                    }>
                        {K_CHOICES.into_iter().map(|k| view! {
                            <option value=k selected=move || sizes.with(|s| s.k == k)>{k}</option>
                        }).collect_view()}
                    </select>
                </label>
                {number(msg::complexity::COMPLEXITY_WHY_R, "why-r", R_RANGE, |s, _, _| s.r, |s, _, _, v| s.r = v)}
                {number(msg::complexity::COMPLEXITY_WHY_LAYERS, "why-layers", LAYERS_RANGE, |_, l, _| l, |_, l, _, v| *l = v)}
                {number(msg::complexity::COMPLEXITY_WHY_OUTPUT, "why-output", 0..=FIGURE_MAX_N - 1,
                    |s, _, o| o.min(s.n.min(FIGURE_MAX_N) - 1), |_, _, o, v| *o = v)}
            </div>
            <p class="why-note" data-testid="why-note" role="status" aria-live="polite">
                {move || note.get().map(|n| n.get(lang.get()).to_string())}
            </p>
            <table class="why-table" tabindex="0" data-testid="why-table">
                <thead><tr>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_WHY_COL_LAYER)}</th>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_WHY_COL_WORK)}</th>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_WHY_COL_SEQUENTIAL)}</th>
                    <th scope="col">{text(msg::complexity::COMPLEXITY_WHY_COL_PATH)}</th>
                </tr></thead>
                <tbody>
                    {Layer::ALL.into_iter().map(|layer| view! {
                        <tr data-testid=format!("why-table-{}", layer.name())
                            data-path=move || sizes.with(|s| s.max_path(layer)).to_string()>
                            <th scope="row">{text(layer.label())}</th>
                            <td translate="no">{move || sizes.with(|s| s.work_text(layer))}</td>
                            <td translate="no">{move || sizes.with(|s| s.sequential(layer)).to_string()}</td>
                            <td translate="no">{move || sizes.with(|s| s.path_text(layer))}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p class="why-remark" data-testid="why-dilated">{move || {
                let layers = sizes.with(|s| s.dilated_path());
                with_symbols(&msg::complexity::ComplexityWhyDilated { layers: &layers }.say(lang.get()))
            }}</p>
            <p class="why-remark">{move || with_symbols(msg::complexity::COMPLEXITY_WHY_PATH_DEFINITION.get(lang.get()))}</p>
            <figure class="why-reach" data-testid="why-reach" data-layers=move || layers.get() data-output=i>
                <figcaption class="why-reach-title">
                    {move || msg::complexity::ComplexityWhyFigureTitle { i: &i(), layers: layers.get() as usize }.say(lang.get())}
                </figcaption>
                <p class="why-remark">{text(msg::complexity::COMPLEXITY_WHY_FIGURE_LEGEND)}</p>
                <Show when=move || sizes.with(|s| s.n > FIGURE_MAX_N)>
                    <p class="why-remark" data-testid="why-shown-note">{move || {
                        let n = sizes.with(|s| s.n);
                        msg::complexity::ComplexityWhyShownNote { shown: &shown(), n: &n }.say(lang.get())
                    }}</p>
                </Show>
                {move || rows().into_iter().map(|row| {
                    let l = lang.get();
                    let out = i() as usize;
                    let label = msg::complexity::ComplexityWhyRowLabel { layer: &row.layer.label().get(l), i: &out }.say(l);
                    let shown = row.cells.len();
                    let reading = match row.layer {
                        Layer::Recurrent => msg::complexity::ComplexityWhyRowRecurrent {
                            reached: &row.reached,
                            shown: &shown,
                            steps: &(out + 1),
                        }
                        .say(l),
                        _ => msg::complexity::ComplexityWhyRowLayered {
                            reached: &row.reached,
                            shown: &shown,
                            after: &row.all_after.unwrap_or(0),
                        }
                        .say(l),
                    };
                    let style = format!("grid-template-columns: repeat({shown}, minmax(0, 1fr));");
                    view! {
                        <div class="why-row" data-testid=format!("why-row-{}", row.layer.name())
                            data-reached=row.reached
                            data-after=row.all_after.map(|a| a.to_string()).unwrap_or_default()>
                            <span class="why-row-name">{row.layer.label().get(l)}</span>
                            <div class="why-cells" style=style role="img" aria-label=label>
                                {row.cells.iter().enumerate().map(|(j, c)| {
                                    let class = match (j == out, c.is_some()) {
                                        (true, _) => "why-cell reached output",
                                        (false, true) => "why-cell reached",
                                        (false, false) => "why-cell",
                                    };
                                    view! {
                                        <span class=class aria-hidden="true" data-path=c.map(|p| p.to_string()).unwrap_or_default()>
                                            {c.map(|p| p.to_string())}
                                        </span>
                                    }
                                }).collect_view()}
                            </div>
                            <span class="why-row-reading">{reading}</span>
                        </div>
                    }
                }).collect_view()}
            </figure>
        </section>
    }
}
