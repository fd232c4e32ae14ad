use attnlab_lab::pretrained::{self, OnHead};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::lab::{CellInfo, VariantControls};
use crate::model::use_model_session;
use crate::state::{VariantSlot, use_app_state};

/// The lab's variants computed on the selected real head's `Q`, `K`, `V`, each beside
/// its difference from the model's own attention, with the comparison's numbers. The
/// knobs are the lab's own: a change here is a change in the lab.
#[component]
pub fn VariantsOnHead() -> impl IntoView {
    let state = use_app_state();
    let place = move || {
        state.pretrained.with(|p| {
            p.map_or(String::new(), |p| {
                format!("layer {} · head {}", p.layer, p.head)
            })
        })
    };
    let count = move || state.variants.with(Vec::len);
    view! {
        <section class="panel" aria-label="Lab variants on this head" data-testid="variants-on-head">
            <h2 class="section-title">{move || format!("The lab's variants on {}", place())}</h2>
            <p class="hint">"Each variant takes this head's real queries, keys and values and computes its own attention: \
                another score function, a temperature, masks, a linear kernel or Linformer. The model's own attention is \
                the scaled dot product with softmax; below each variant, what it changes. The knobs are the lab's: \
                a change here changes the lab too."</p>
            <div class="variants" style=move || format!("--variant-count: {}", count())>
                <For each=move || state.variants.get() key=|slot| slot.id
                    children=move |slot| view! { <VariantOnHeadCard entry=slot/> }/>
            </div>
        </section>
    }
}

#[component]
fn VariantOnHeadCard(entry: VariantSlot) -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let variant = entry.variant;
    let result = Memo::new(move |_| -> Option<Result<OnHead, String>> {
        let (layer, head) = state.pretrained.with(|p| p.map(|p| (p.layer, p.head)))?;
        let seed = state.model.with(|m| m.seed);
        session.with_run(|r| variant.with(|v| pretrained::variant_on_head(r, layer, head, v, seed)))
    });
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
            Some(format!(
                "Against the model's own attention: max |ΔA| {}, mean |ΔA| {}, mean KL {}, mean JS {}; mean row entropy {} vs {} nats.",
                number::decimals(m.max_abs, 3),
                number::decimals(m.mean_abs, 4),
                number::significant(m.mean_kl, 3),
                number::significant(m.mean_js, 3),
                number::decimals(c.mean_entropy.0, 2),
                number::decimals(c.mean_entropy.1, 2),
            ))
        })
    };
    let linformer_note = move || {
        result.with(|r| {
            let o = r.as_ref()?.as_ref().ok()?;
            o.difference.is_none().then_some(
                "Linformer's weights are over projected keys, not tokens: there is no cell-by-cell difference.",
            )
        })
    };
    let hover = RwSignal::new(None::<(usize, usize)>);
    let hover_difference = RwSignal::new(None::<(usize, usize)>);
    view! {
        <article class="variant" data-testid="variant-on-head">
            <h3 class="section-title">{move || variant.with(|v| v.name.clone())}</h3>
            <VariantControls variant=variant uid=format!("m{}", entry.id) edit_custom=RwSignal::new(false)/>
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
