use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{Lang, t, tr, use_lang};
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
        match lang.get() {
            Lang::En => format!("The lab's variants on layer {layer} · head {head}"),
            Lang::Zh => format!("实验室的变体作用于第 {layer} 层 · 头 {head}"),
        }
    };
    let count = move || state.derived.variants.with(Vec::len);
    view! {
        <section class="panel" aria-label=t("Lab variants on this head", "这个头上的实验室变体") data-testid="variants-on-head">
            <h2 class="section-title">{title}</h2>
            <p class="hint">{t(
                "Each variant takes this head's real queries, keys and values and computes its own attention: \
                 another score function, a temperature, masks, a linear kernel or Linformer. The model's own attention is \
                 the scaled dot product with softmax; below each variant, what it changes. The knobs are the lab's: \
                 a change here changes the lab too.",
                "每个变体取这个头真实的查询、键和值，计算它自己的注意力：\
                 换一个打分函数、温度、掩码、线性核或 Linformer。模型自身的注意力是\
                 带 softmax 的缩放点积；每个变体下方是它带来的变化。这些旋钮就是实验室的旋钮：\
                 在这里改动也会改动实验室。",
            )}</p>
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
            let (max, mean) = (number::decimals(m.max_abs, 3), number::decimals(m.mean_abs, 4));
            let (kl, js) = (number::significant(m.mean_kl, 3), number::significant(m.mean_js, 3));
            let (h0, h1) = (
                number::decimals(c.mean_entropy.0, 2),
                number::decimals(c.mean_entropy.1, 2),
            );
            Some(match lang.get() {
                Lang::En => format!(
                    "Against the model's own attention: max |ΔA| {max}, mean |ΔA| {mean}, mean KL {kl}, mean JS {js}; mean row entropy {h0} vs {h1} nats."
                ),
                Lang::Zh => format!(
                    "与模型自身的注意力相比：最大 |ΔA| {max}，平均 |ΔA| {mean}，平均 KL {kl}，平均 JS {js}；平均行熵 {h0} 对 {h1} 奈特。"
                ),
            })
        })
    };
    let linformer_note = move || {
        result.with(|r| {
            let o = r.as_ref()?.as_ref().ok()?;
            o.difference.is_none().then_some(tr(
                lang.get(),
                "Linformer's weights are over projected keys, not tokens: there is no cell-by-cell difference.",
                "Linformer 的权重作用于投影后的键而不是词元：没有逐个单元格的差异。",
            ))
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
