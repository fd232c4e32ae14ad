use attnlab_i18n::msg;
use attnlab_pages::block::{self, SublayerKind};
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use super::run::RunMemo;
use crate::canvas::{HeatmapCanvas, LineChartCanvas, Pointing};
use crate::i18n::text;
use crate::state::use_app_state;

/// The layer shown's sub-layers: each one's stream entering and leaving (`n × d`) and
/// each token's norm before and after. The section carries each sub-layer's mean norm
/// leaving (`data-mean-norm`).
#[component]
pub fn SublayerFigures(run: RunMemo) -> impl IntoView {
    let lang = use_app_state().lang;
    let figures = Memo::new(move |_| {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            block::sublayers(r, r.used.shown, lang.get()).ok()
        })
    });
    let count = Memo::new(move |_| figures.with(|f| f.as_ref().map_or(0, Vec::len)));
    let kind = move |i: usize| figures.with(|f| f.as_ref().and_then(|f| f.get(i)).map(|s| s.kind));
    let heatmap = move |i: usize, output: bool| -> Signal<Option<Heatmap>> {
        Signal::derive(move || {
            figures.with(|f| {
                let s = f.as_ref()?.get(i)?;
                Some(if output {
                    s.output.clone()
                } else {
                    s.input.clone()
                })
            })
        })
    };
    let chart = move |i: usize| {
        Signal::derive(move || figures.with(|f| f.as_ref()?.get(i).map(|s| s.norms.clone())))
    };
    view! {
        <section class="block-section">
        <h3 class="section-title">{text(msg::block::BLOCK_SUBLAYERS_HEADING)}</h3>
        <p class="explain-lead">{text(msg::block::BLOCK_SUBLAYERS_NOTE)}</p>
        <div class="block-sublayers" data-testid="block-sublayers">
            {move || (0..count.get()).map(|i| {
                let id = kind(i).map_or("", SublayerKind::id);
                view! {
                    <div class="block-sublayer" data-testid=format!("block-sublayer-{id}")
                        data-mean-norm=move || figures.with(|f| f.as_ref().and_then(|f| f.get(i)).map(|s| s.mean_output_norm.to_string()))>
                        <h4 class="block-sublayer-name">{move || kind(i).map(|k| k.name(lang.get()))}</h4>
                        <div class="block-pair">
                            <div class="block-figure">
                                <HeatmapCanvas figure=heatmap(i, false) testid=format!("block-{id}-input") kind="matrix" class="block-activations" pointing=Pointing::Reading/>
                            </div>
                            <div class="block-figure">
                                <HeatmapCanvas figure=heatmap(i, true) testid=format!("block-{id}-output") kind="matrix" class="block-activations" pointing=Pointing::Reading/>
                            </div>
                        </div>
                        <LineChartCanvas chart=chart(i) testid=format!("block-{id}-norms") class="line-chart-canvas block-norms"/>
                    </div>
                }
            }).collect_view()}
        </div>
        </section>
    }
}

/// Every head of the layer shown: self-attention's (causal in the decoder, its blocked
/// cells hatched), then cross-attention's. Each carries its number of blocked cells
/// (`data-blocked`) and whether every weight above the diagonal is 0 (`data-upper-zero`).
#[component]
pub fn HeadFigures(run: RunMemo) -> impl IntoView {
    let lang = use_app_state().lang;
    let figures = Memo::new(move |_| {
        run.with(|r| {
            let r = r.as_ref().ok()?;
            block::heads(r, r.used.shown, lang.get()).ok()
        })
    });
    let count = Memo::new(move |_| figures.with(|f| f.as_ref().map_or(0, Vec::len)));
    let testid = move |i: usize| {
        figures.with(|f| {
            let f = f.as_ref()?;
            let (kind, _) = f.get(i)?;
            let h = f[..i].iter().filter(|(k, _)| k == kind).count();
            Some(format!("block-head-{}-{h}", kind.id()))
        })
    };
    let figure = move |i: usize| -> Signal<Option<Heatmap>> {
        Signal::derive(move || figures.with(|f| f.as_ref()?.get(i).map(|(_, h)| h.clone())))
    };
    let blocked = move |i: usize| {
        figures.with(|f| {
            let (_, h) = f.as_ref()?.get(i)?;
            let cells = (0..h.n_rows())
                .flat_map(|r| (0..h.n_cols()).map(move |c| (r, c)))
                .filter(|&(r, c)| h.is_blocked(r, c))
                .count();
            Some(cells.to_string())
        })
    };
    let upper_zero = move |i: usize| {
        figures.with(|f| {
            let (_, h) = f.as_ref()?.get(i)?;
            let zero =
                (0..h.n_rows()).all(|r| (r + 1..h.n_cols()).all(|c| h.value(r, c) == Some(0.0)));
            Some(zero.to_string())
        })
    };
    view! {
        <section class="block-section">
        <h3 class="section-title">{text(msg::block::BLOCK_HEADS_HEADING)}</h3>
        <div class="block-heads" data-testid="block-head-figures">
            {move || (0..count.get()).map(|i| {
                let id = testid(i).unwrap_or_default();
                view! {
                    <div class="block-head" data-testid=id.clone()
                        data-blocked=move || blocked(i) data-upper-zero=move || upper_zero(i)>
                        <HeatmapCanvas figure=figure(i) testid=format!("{id}-canvas") kind="matrix" class="matrix-square" pointing=Pointing::Nothing/>
                    </div>
                }
            }).collect_view()}
        </div>
        </section>
    }
}

/// Cross mode: the encoder's output on the source, the memory of cross-attention.
#[component]
pub fn MemoryFigure(run: RunMemo) -> impl IntoView {
    let lang = use_app_state().lang;
    let figure: Memo<Option<Heatmap>> =
        Memo::new(move |_| run.with(|r| block::memory(r.as_ref().ok()?, lang.get())?.ok()));
    view! {
        <Show when=move || figure.with(Option::is_some)>
            <section class="block-section">
                <h3 class="section-title">{text(msg::block::BLOCK_ENCODER_HEADING)}</h3>
                <div class="block-figure">
                    <HeatmapCanvas figure=figure testid="block-memory" kind="matrix" class="block-activations" pointing=Pointing::Reading/>
                </div>
            </section>
        </Show>
    }
}

/// The residual stream: each token's norm entering layer 1 and leaving each layer. The
/// figure carries the mean norm leaving the last layer (`data-last-norm`).
#[component]
pub fn ResidualFigure(run: RunMemo) -> impl IntoView {
    let lang = use_app_state().lang;
    let figure: Memo<Option<Heatmap>> =
        Memo::new(move |_| run.with(|r| block::residual(r.as_ref().ok()?, lang.get()).ok()));
    let last = move || {
        run.with(|r| {
            let norms = block::residual_norms(r.as_ref().ok()?);
            let row = norms.row(norms.nrows() - 1);
            Some((row.sum() / row.len().max(1) as f32).to_string())
        })
    };
    view! {
        <section class="block-section">
        <h3 class="section-title">{text(msg::block::BLOCK_RESIDUAL_HEADING)}</h3>
        <p class="explain-lead">{text(msg::block::BLOCK_RESIDUAL_NOTE)}</p>
        <div class="block-residual" data-testid="block-residual" data-last-norm=last>
            <HeatmapCanvas figure=figure testid="block-residual-canvas" kind="matrix" class="block-residual-canvas" pointing=Pointing::Reading/>
        </div>
        </section>
    }
}
