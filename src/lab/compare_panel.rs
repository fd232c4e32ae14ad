use attnlab_i18n::msg;
use attnlab_lab::View;
use attnlab_plot::number;
use leptos::prelude::*;

use super::{CellInfo, ZoomNote, zoom_to, zoomed};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{text, use_lang};
use crate::state::{CompareWhat, Compared, LabFields, ViewFields, use_app_state};

/// Two variants compared: a diverging heatmap of `A − B` and a table of max/mean |ΔA|,
/// mean row KL and JS divergence, and each one's mean row entropy.
#[component]
pub fn ComparePanel() -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let hover = RwSignal::new(None);
    // One copy of the figure per comparison (a derived signal would copy it on every
    // read).
    let figure: Signal<Option<attnlab_plot::Heatmap>> = Signal::from(Memo::new(move |_| {
        state.derived.comparison.with(|c| match c {
            Compared::Shown(c) => Some(c.figure.clone()),
            Compared::Nothing | Compared::Refused(_) => None,
        })
    }));
    // Zoomed to the lab's range of queries and keys, as the variants' heatmaps are.
    let zoomed_figure = zoomed(figure);
    let label_step = RwSignal::new(1usize);
    let error = move || {
        state.derived.comparison.with(|c| match c {
            Compared::Refused(why) => Some(why.clone()),
            Compared::Nothing | Compared::Shown(_) => None,
        })
    };
    let fmt = |x: f32| number::decimals(x, 4);
    let table = move || {
        state.derived.comparison.with(|c| {
            let Compared::Shown(c) = c else {
                return None;
            };
            let m = &c.result.metrics;
            let (ea, eb) = c.result.mean_entropy;
            // KL, JS and entropy compare distributions: a kind whose rows need not sum
            // to 1 (or go negative) has none, and says so instead of a number.
            let undefined = msg::lab::COMPARE_NOT_DISTRIBUTIONS.get(lang.get());
            let or_dash = move |x: Option<f32>| x.map_or_else(|| "—".to_string(), fmt);
            let divergence = move |x: f32| or_dash(c.result.divergences.then_some(x));
            let (a, b) = c.names.clone();
            let lang = lang.get();
            let kl = msg::lab::CompareMeanKl { a: &a, b: &b }.say(lang);
            let entropy = |name: &str| msg::lab::CompareMeanEntropy { name: &name }.say(lang);
            let (entropy_a, entropy_b) = (entropy(&a), entropy(&b));
            Some(view! {
                <table class="metrics" data-testid="compare-table">
                    <tbody>
                        <tr><th scope="row">{msg::lab::COMPARE_MAX_ABS.get(lang)}</th><td data-testid="max-abs">{fmt(m.max_abs)}</td></tr>
                        <tr><th scope="row">{msg::lab::COMPARE_MEAN_ABS.get(lang)}</th><td data-testid="mean-abs">{fmt(m.mean_abs)}</td></tr>
                        <tr><th scope="row">{kl}</th><td data-testid="mean-kl" title=(!c.result.divergences).then_some(undefined)>{divergence(m.mean_kl)}</td></tr>
                        <tr><th scope="row">{msg::lab::COMPARE_MEAN_JS.get(lang)}</th><td data-testid="mean-js" title=(!c.result.divergences).then_some(undefined)>{divergence(m.mean_js)}</td></tr>
                        <tr><th scope="row">{entropy_a}</th><td data-testid="entropy-a" title=ea.is_none().then_some(undefined)>{or_dash(ea)}</td></tr>
                        <tr><th scope="row">{entropy_b}</th><td data-testid="entropy-b" title=eb.is_none().then_some(undefined)>{or_dash(eb)}</td></tr>
                    </tbody>
                </table>
            })
        })
    };
    view! {
        <section class="panel compare" data-testid="compare" aria-label=text(msg::lab::COMPARE_PANEL_LABEL)>
            <h2 class="section-title">{text(msg::lab::COMPARE_PANEL_TITLE)}</h2>
            <div class="compare-pickers">
                <label>{text(msg::lab::COMPARE_FIRST)} <ComparedPick second=false testid="compare-a"/></label>
                <span>" − "</span>
                <label>{text(msg::lab::COMPARE_SECOND)} <ComparedPick second=true testid="compare-b"/></label>
                <label>{text(msg::lab::COMPARE_WHAT)}
                    <select data-testid="compare-what" on:change=move |ev| {
                        state.lab.view().compare_what().set(if event_target_value(&ev) == "average" { CompareWhat::Average } else { CompareWhat::Head });
                    }>
                        <option value="head" selected=move || state.lab.view().compare_what().get() == CompareWhat::Head>{text(msg::lab::COMPARE_SELECTED_HEAD)}</option>
                        <option value="average" selected=move || state.lab.view().compare_what().get() == CompareWhat::Average>{text(msg::lab::COMPARE_HEAD_AVERAGE)}</option>
                    </select>
                </label>
            </div>
            {move || {
                let (a, b) = state.lab.view().compare().get();
                (a == b).then(|| view! { <p class="why is-shown">{text(msg::lab::COMPARE_PICK_TWO_DIFFERENT)}</p> })
            }}
            {move || error().map(|e| view! { <p class="variant-error" role="status">{e}</p> })}
            <div class="compare-body">
                <div class="compare-figure">
                    <HeatmapCanvas figure=zoomed_figure pointing=Pointing::Cells { hover, on_cell: None } testid="difference-heatmap" kind="difference"
                        on_zoom=Callback::new(zoom_to) label_step=label_step/>
                    <ZoomNote figure=zoomed_figure label_step=label_step/>
                    <CellInfo figure=figure cell=hover/>
                </div>
                {table}
            </div>
        </section>
    }
}

/// A menu of the variants for one side of the compared pair (the first, or the `second`):
/// picking the variant the other side shows swaps the two ([`View::compare_picked`]).
/// The comparison and the lab's side-by-side row both pick with it.
#[component]
pub fn ComparedPick(
    /// The second side (else the first).
    second: bool,
    /// `data-testid` of the menu.
    testid: &'static str,
    /// Its accessible name, when no `<label>` around it gives one.
    #[prop(optional, into)]
    label: Option<leptos::text_prop::TextProp>,
) -> impl IntoView {
    let state = use_app_state();
    let names = move || {
        state.derived.variants.with(|s| {
            s.iter()
                .map(|s| s.variant.with(|v| v.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let side = move |c: (usize, usize)| if second { c.1 } else { c.0 };
    view! {
        <select data-testid=testid aria-label=move || label.as_ref().map(|l| l.get())
            on:change=move |ev| {
                if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                    state.lab.view().compare().update(|c| *c = View::compare_picked(*c, second, i));
                }
            }>
            {move || names().into_iter().enumerate().map(|(i, n)| {
                let sel = move || side(state.lab.view().compare().get()) == i;
                view! { <option value=i.to_string() selected=sel translate="no">{n}</option> }
            }).collect_view()}
        </select>
    }
}
