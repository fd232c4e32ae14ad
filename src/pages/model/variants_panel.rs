use attnlab_i18n::msg;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{text, use_lang};
use crate::lab::{CellInfo, VariantControls};
use crate::state::{LabFields, ModelFigures, VariantSlot, use_app_state};

/// The lab's variants computed on the selected real head's `Q`, `K`, `V`, each beside
/// its difference from the model's own attention, with the comparison's numbers. The
/// knobs are the lab's own: a change here is a change in the lab.
#[component]
pub fn VariantsOnHead(
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let title = move || {
        let (layer, head) = state
            .lab
            .pretrained()
            .with(|p| p.map_or((0, 0), |p| (p.layer, p.head)));
        msg::model_page::ModelVariantsTitle {
            layer: &layer,
            head: &head,
        }
        .say(lang.get())
    };
    let count = move || state.derived.variants.with(Vec::len);
    view! {
        <section class="panel" aria-label=text(msg::model_page::MODEL_VARIANTS_LABEL) data-testid="variants-on-head">
            <h2 class="section-title">{title}</h2>
            <p class="hint">{text(msg::model_page::MODEL_VARIANTS_HINT)}</p>
            <div class="variants" style=move || format!("--variant-count: {}", count())>
                <For each=move || state.derived.variants.get() key=|slot| slot.id
                    children=move |slot| view! { <VariantOnHeadCard entry=slot figures=figures/> }/>
            </div>
        </section>
    }
}

#[component]
fn VariantOnHeadCard(entry: VariantSlot, figures: ModelFigures) -> impl IntoView {
    let lang = use_lang();
    let variant = entry.variant;
    let result = figures.variant_on_head(variant);
    let figure = Signal::derive(move || {
        result.with(|r| r.as_ref()?.as_ref().ok().map(|o| o.figure.clone()))
    });
    let difference =
        Signal::derive(move || result.with(|r| r.as_ref()?.as_ref().ok()?.difference.clone()));
    let error = move || result.with(|r| r.as_ref()?.as_ref().err().cloned());
    let metrics = move || {
        result.with(|r| {
            let c = r.as_ref()?.as_ref().ok()?.comparison.as_ref()?;
            let m = &c.metrics;
            let (max, mean) = (
                number::decimals(m.max_abs, 3),
                number::decimals(m.mean_abs, 4),
            );
            // Not defined for rows that are not distributions: a dash.
            let dash = |x: Option<String>| x.unwrap_or_else(|| "—".to_string());
            let divergence = |x: f32| dash(c.divergences.then(|| number::significant(x, 3)));
            let (kl, js) = (divergence(m.mean_kl), divergence(m.mean_js));
            let entropy = |h: Option<f32>| dash(h.map(|h| number::decimals(h, 2)));
            let (h0, h1) = (entropy(c.mean_entropy.0), entropy(c.mean_entropy.1));
            Some(
                msg::model_page::ModelVariantMetrics {
                    max: &max,
                    mean: &mean,
                    kl: &kl,
                    js: &js,
                    h0: &h0,
                    h1: &h1,
                }
                .say(lang.get()),
            )
        })
    };
    let linformer_note = move || {
        result.with(|r| {
            let o = r.as_ref()?.as_ref().ok()?;
            o.difference
                .is_none()
                .then_some(msg::model_page::MODEL_LINFORMER_NOTE.get(lang.get()))
        })
    };
    let hover = RwSignal::new(None::<(usize, usize)>);
    let hover_difference = RwSignal::new(None::<(usize, usize)>);
    view! {
        <article class="variant" data-testid="variant-on-head">
            <h3 class="section-title" translate="no">{move || variant.with(|v| v.name.clone())}</h3>
            <VariantControls variant=entry.clone() uid=format!("m{}", entry.id) edit_custom=RwSignal::new(false)/>
            {move || error().map(|e| view! { <p class="variant-error" role="status" data-testid="variant-on-head-error">{e}</p> })}
            <HeatmapCanvas figure=figure pointing=Pointing::Cells { hover, on_cell: None }
                testid="variant-on-head-heatmap" kind="variant-on-head"/>
            <CellInfo figure=figure cell=hover/>
            <p class="hint" data-testid="variant-on-head-metrics">{metrics}{linformer_note}</p>
            <HeatmapCanvas figure=difference pointing=Pointing::Cells { hover: hover_difference, on_cell: None }
                testid="variant-on-head-difference" kind="difference"/>
        </article>
    }
}
