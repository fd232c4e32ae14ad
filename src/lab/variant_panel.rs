use attnlab_formats::export;
use attnlab_i18n::msg;
use attnlab_lab::contribution::{Measure, VALUE_NOTE};
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use super::{CellInfo, HeadGridView, VariantControls, ZoomNote, zoom_to, zoomed};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{Lang, text, use_lang};
use crate::neuron::{MeasureSwitch, NeuronPanel};
use crate::state::{LabFields, VariantEdit, VariantSlot, ViewFields, use_app_state, use_measured};
use attnlab_i18n::Said;

/// One variant: its name and buttons, the selected head large (with row entropy and
/// legend), its knobs, every head as small multiples (click one to select it), and the
/// head average.
#[component]
pub fn VariantPanel(
    /// The variant shown.
    entry: VariantSlot,
) -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let (id, variant) = (entry.id, entry.variant);
    let memos = entry.memos.clone();
    // The panel's own place, from the list of slots: a removed variant's panel, on the
    // page for a moment, reads nothing of its dropped slot when the others move.
    let index = Memo::new(move |_| {
        state
            .derived
            .variants
            .with(|s| s.iter().position(|s| s.id == id).unwrap_or(0))
    });
    let uid = format!("v{id}");
    let name = move || variant.with(|v| v.name.clone());
    let rename_error = RwSignal::new(None::<Said>);
    let action_error = RwSignal::new(None::<Said>);
    let hover = RwSignal::new(None);
    let hover_average = RwSignal::new(None);
    let edit_custom = RwSignal::new(false);

    // The weight | contribution switch, and the cell the neuron view explains.
    let measure = RwSignal::new(Measure::Weight);
    let picked = RwSignal::new(None::<(usize, usize)>);
    let measured = use_measured(memos.clone(), measure, picked);
    let on_cell = Callback::new(move |cell: (usize, usize)| {
        if edit_custom.get_untracked() {
            state.edit_variant(index.get_untracked(), |v| v.masks.toggle_custom(cell));
        } else {
            picked.set(Some(cell));
        }
    });
    let duplicate = move |_: leptos::ev::MouseEvent| {
        let i = index.get_untracked();
        let r = state.edit_variants(VariantEdit::Duplicate(i));
        action_error.set(r.err());
    };
    let remove = move |_: leptos::ev::MouseEvent| {
        let i = index.get_untracked();
        let r = state.edit_variants(VariantEdit::Remove(i));
        action_error.set(r.err());
    };
    let rename = move |ev: leptos::ev::Event| {
        let new = event_target_value(&ev);
        let i = index.get_untracked();
        let renamed = state.edit(|lab| lab.rename_variant(i, &new));
        rename_error.set(renamed.err());
    };
    let remove_why = move || state.lab.with(|l| l.why_not_remove_variant());
    let add_why = move || state.lab.with(|l| l.why_not_add_variant());
    // The memos themselves, read by reference: a derived signal would clone a figure
    // (two n × n matrices) on every read.
    let selected: Signal<Option<Heatmap>> = measured.selected.into();
    let average: Signal<Option<Heatmap>> = measured.average.into();
    let grid: Signal<Vec<Heatmap>> = measured.grid.into();
    // The selected head large, zoomed to the lab's range of queries and keys.
    let zoomed_selected = zoomed(selected);
    let label_step = RwSignal::new(1usize);
    // The variant's input (every head's Q, K, V and the settings) for `attnlab compute`.
    let tensors = Callback::new(move |lang: Lang| {
        memos.problem.with_untracked(|p| {
            let p = p
                .as_ref()
                .map_err(|e| attnlab_lab::explain::explain_in(e, lang))?;
            let queries = state.derived.tokens.with_untracked(|t| t.labels());
            let keys = state.derived.key_tokens.with_untracked(|t| t.labels());
            let name = export::file_name(&format!("{} tensors", name()), "json");
            export::tensors(p, &queries, &keys).map(|doc| (name, doc))
        })
    });
    // The command that draws the selected head's figure from this page's link.
    let command = Signal::derive(move || {
        // The file is named in English, whatever the page's language.
        let head = state.shown_head();
        let title = state.derived.used_model.with(|m| {
            variant.with(|v| {
                let head_title = attnlab_lab::figure::head_title(m, v, head, Lang::En);
                format!("{} \u{b7} {head_title}", v.name)
            })
        });
        let file = export::file_name(&title, "svg");
        format!(
            "attnlab render --state '{}' --figure heatmap --variant '{}' --head {} -o {file}",
            attnlab_link::encode(&state.link_state()),
            name().replace('\'', ""),
            state.shown_head()
        )
    });

    view! {
        <section class="panel variant" data-testid="variant" data-variant=name
            // With three or four variants the compared pair comes first, side by side.
            style:order=move || {
                let (i, (a, b)) = (index.get(), state.lab.view().compare().get());
                let many = state.derived.variants.with(Vec::len) > 2;
                match () {
                    () if !many => "0",
                    () if i == a => "0",
                    () if i == b => "1",
                    () => "2",
                }
            }
            aria-busy=move || memos.busy.get().to_string()
            aria-label=move || msg::lab::VariantPanelLabel { name: &name() }.say(lang.get())
            on:focusin=move |_| {
                let i = index.get_untracked();
                state.edit(|lab| lab.view.variant = i);
            }>
            <header class="variant-header">
                <input class="variant-name" data-testid="variant-name" aria-label=text(msg::lab::VARIANT_NAME_LABEL)
                    maxlength="24" prop:value=name on:change=rename
                    class:is-invalid=move || rename_error.with(Option::is_some)/>
                <button type="button" data-testid="duplicate-variant" disabled=move || add_why().is_some()
                    title=move || add_why().unwrap_or(msg::lab::VARIANT_ADD_COPY_VARIANT).get(lang.get())
                    on:click=duplicate>{text(msg::lab::VARIANT_DUPLICATE)}</button>
                <button type="button" data-testid="remove-variant" disabled=move || remove_why().is_some()
                    title=move || remove_why().unwrap_or(msg::lab::VARIANT_REMOVE_VARIANT).get(lang.get())
                    on:click=remove>{text(msg::lab::VARIANT_REMOVE)}</button>
            </header>
            {move || rename_error.get().or(action_error.get()).map(|e| {
                let e = e.get(lang.get()).to_string();
                view! { <p class="why is-shown" role="alert">{e}</p> }
            })}
            {move || memos.error.get().map(|e| view! { <p class="variant-error" data-testid="variant-error" role="status">{e}</p> })}
            <MeasureSwitch measure=measure note=VALUE_NOTE/>
            <HeatmapCanvas
                figure=zoomed_selected
                pointing=Pointing::Cells { hover, on_cell: Some(on_cell) }
                testid=Signal::derive(move || if index.get() == 0 { "heatmap".to_string() } else { "variant-heatmap".to_string() })
                kind="head"
                tensors=tensors
                command=command
                on_zoom=Callback::new(zoom_to)
                label_step=label_step
            />
            <ZoomNote figure=zoomed_selected label_step=label_step/>
            // The whole figure: a zoomed canvas names its cells by their indices in it.
            <CellInfo figure=selected cell=hover row_sums=true/>
            <NeuronPanel view=measured.neuron labels=measured.labels on_close=Callback::new(move |()| picked.set(None))/>
            // The knobs below the figure, so the heatmap is on the first screen.
            <VariantControls variant=entry.clone() uid=uid.clone() edit_custom=edit_custom/>
            <HeadGridView heads=grid
                export_testid=Signal::derive(move || if index.get() == 0 { "head-grid".to_string() } else { "variant-head-grid".to_string() })
                title=Signal::derive(move || msg::lab::VariantGridTitle { name: &name() }.say(lang.get()))/>
            <details class="average" open=true>
                <summary>{text(msg::lab::VARIANT_AVERAGE_HEADS)}</summary>
                <HeatmapCanvas figure=average pointing=Pointing::Cells { hover: hover_average, on_cell: None } testid="average-heatmap" kind="average"/>
                <CellInfo figure=average cell=hover_average row_sums=true/>
            </details>
        </section>
    }
}
