use attnlab_i18n::msg;
use attnlab_lab::Tokens;
use attnlab_lab::state::{DEFAULT_LINFORMER_K, LINFORMER_K_RANGE};
use attnlab_pages::linear::{LinformerView, linformer_figures, linformer_view};
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use super::{ProblemMemo, from_problem};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};

/// Linformer on the selected head: the seeded projections `E`, `F` (keys × k) and the
/// `n × k` attention over projected keys, with `k` from the variant or this panel's knob.
#[component]
pub fn LinformerPanel(
    /// The selected variant's problem.
    problem: ProblemMemo,
    /// The head.
    #[prop(into)]
    head: Signal<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let variant_k = Memo::new(move |_| {
        state
            .shown_slot()
            .map_or(DEFAULT_LINFORMER_K, |s| s.variant.with(|v| v.linformer_k))
    });
    let picked = RwSignal::new(None::<usize>);
    let k = Memo::new(move |_| picked.get().unwrap_or_else(|| variant_k.get()));
    let view_memo: Memo<Result<LinformerView, String>> = from_problem(problem, move |p| {
        state
            .lab
            .model()
            .with(|m| linformer_view(m, p, head.get(), k.get()))
    });
    let figures = Memo::new(move |_| {
        view_memo.with(|v| {
            let v = v.as_ref().ok()?;
            let rows = state.derived.tokens.with(Tokens::labels);
            let keys = state.derived.key_tokens.with(Tokens::labels);
            linformer_figures(v, &rows, &keys, lang.get()).ok()
        })
    });
    let fig = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || figures.with(|f| f.as_ref().map(|f| f[i].clone())))
    };
    let error = move || view_memo.with(|v| v.as_ref().err().cloned());
    let (lo, hi) = (*LINFORMER_K_RANGE.start(), *LINFORMER_K_RANGE.end());
    let set_k = move |ev: leptos::ev::Event| {
        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
            picked.set(Some(v.clamp(lo, hi)));
        }
    };
    view! {
        <section class="panel linear-panel" data-testid="linformer-panel" aria-label="Linformer">
            <h3 class="section-title">{text(msg::linear::LINEAR_LINFORMER_TITLE)}</h3>
            <p class="explain-lead">
                {text(msg::linear::LINEAR_LINFORMER_LEAD)}
            </p>
            <label class="linformer-k">{text(msg::linear::LINEAR_LINFORMER_K)}
                <input type="number" data-testid="linformer-k" min=lo.to_string() max=hi.to_string()
                    prop:value=move || k.get().to_string() on:change=set_k/>
            </label>
            {move || error().map(|e| view! { <p class="variant-error" role="status" data-testid="linformer-error">{e}</p> })}
            <div class="linear-triple">
                <div class="linear-cell"><HeatmapCanvas figure=fig(0) testid="linformer-e" kind="matrix" class="matrix-square" pointing=Pointing::Nothing/></div>
                <div class="linear-cell"><HeatmapCanvas figure=fig(1) testid="linformer-f" kind="matrix" class="matrix-square" pointing=Pointing::Nothing/></div>
                <div class="linear-cell"><HeatmapCanvas figure=fig(2) testid="linformer-attention" kind="matrix" class="matrix-square" pointing=Pointing::Nothing/></div>
            </div>
        </section>
    }
}
