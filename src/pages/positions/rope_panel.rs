use attnlab_core::rope::RopePairs;
use attnlab_i18n::msg;
use attnlab_pages::positions::{self, RopeSettings, ScalingKind};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, LineChartCanvas, Pointing};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};
use crate::widgets::knob::{Knob, why_id};

/// The repeated word fills at least this many positions (a sentence of a few words shows
/// too few diagonals), and at most this many.
const PROOF_POSITIONS: (usize, usize) = (12, 64);

/// RoPE, long context and ALiBi (issue 33): a pair of a query turning with the
/// position, the proof that RoPE's scores depend on `i − j` only after `W_Q`, `W_K` (the
/// added sinusoid's do not), RoFormer's long-term decay, the bound and the wavelengths
/// under linear, NTK and YaRN scaling, and ALiBi's bias per head. The settings are this
/// page's own, set from the shown variant's RoPE when it has one; every number comes
/// from `attnlab_pages::positions` (the core's `rope` and `alibi`).
#[component]
pub fn RopePanel(
    /// The positions the page draws (the pair's curve spans them).
    positions: Memo<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let settings = RwSignal::new(RopeSettings::default());
    let pair = RwSignal::new(0usize);
    let word = RwSignal::new(0usize);
    let base_refused = RwSignal::new(false);
    let factor_refused = RwSignal::new(false);
    let trained_refused = RwSignal::new(false);

    // The shown variant's RoPE, when it has one, sets the page's (a link or a lesson step
    // opens the page on it); the page's knobs change only the page's.
    let variant_rope = Memo::new(move |_| {
        state
            .shown_slot()
            .and_then(|s| s.variant.with(|v| v.rope.clone()))
    });
    Effect::new(move |_| {
        if let Some(rope) = variant_rope.get() {
            settings.update(|s| *s = s.following(&rope));
        }
    });

    let tokens = Memo::new(move |_| state.derived.tokens.with(|t| t.used().to_vec()));
    let token = Memo::new(move |_| {
        tokens.with(|t| {
            let i = word.get().min(t.len().saturating_sub(1));
            t.get(i).cloned()
        })
    });
    let model = move || state.lab.model().get();
    let pairs_count = move || {
        let d_k = model().d_k();
        positions::rotary_width(d_k).map_or(1, |r| r / 2)
    };
    let explain = move |e: attnlab_core::CoreError| {
        let why = attnlab_lab::explain::explain_in(&e, lang.get());
        msg::positions::RopeError { why: &why }.say(lang.get())
    };

    let turn = Memo::new(move |_| {
        let t = token.get()?;
        let head = state.shown_head();
        let s = settings.get();
        Some(
            positions::pair_turn(&model(), &s, &t, head, pair.get(), positions.get())
                .map(|p| (t.text, p)),
        )
    });
    let pair_chart = Signal::derive(move || {
        turn.with(|t| match t {
            Some(Ok((_, p))) => Some(p.chart(lang.get())),
            _ => None,
        })
    });
    let proof = Memo::new(move |_| {
        let t = token.get()?;
        let n = tokens
            .with(Vec::len)
            .clamp(PROOF_POSITIONS.0, PROOF_POSITIONS.1);
        let head = state.shown_head();
        let s = settings.get();
        Some(positions::repeated_word(&model(), &s, &t, head, n).map(|r| (t.text, r)))
    });
    let proof_figures = Memo::new(move |_| {
        proof.with(|p| match p {
            Some(Ok((_, r))) => r.figures(lang.get()).ok(),
            _ => None,
        })
    });
    let sinusoid_figure =
        Signal::derive(move || proof_figures.with(|f| f.as_ref().map(|f| f.0.clone())));
    let rope_figure =
        Signal::derive(move || proof_figures.with(|f| f.as_ref().map(|f| f.1.clone())));
    let spreads = move || {
        proof.with(|p| match p {
            Some(Ok((_, r))) => Some((r.sinusoid_spread, r.rope_spread)),
            _ => None,
        })
    };
    let error = move || {
        let e = turn.with(|t| match t {
            Some(Err(e)) => Some(e.clone()),
            _ => None,
        });
        let e = e.or_else(|| {
            proof.with(|p| match p {
                Some(Err(e)) => Some(e.clone()),
                _ => None,
            })
        });
        e.map(explain)
    };
    let decay = Signal::derive(move || Some(positions::decay_chart(&settings.get(), lang.get())));
    let long_decay =
        Signal::derive(move || Some(positions::long_decay_chart(&settings.get(), lang.get())));
    let wavelength_chart =
        Signal::derive(move || Some(positions::wavelength_chart(&settings.get(), lang.get())));
    let heads = move || model().heads;
    let alibi_n = move || tokens.with(Vec::len).clamp(PROOF_POSITIONS.0, 24);
    let slopes = move || {
        attnlab_core::alibi::paper_slopes(heads())
            .iter()
            .map(|m| number::significant(*m, 3))
            .collect::<Vec<_>>()
            .join(", ")
    };

    let scaling_unused = move || {
        (settings.with(|s| s.scaling) == ScalingKind::None).then(|| {
            msg::positions::ROPE_FACTOR_UNUSED
                .get(lang.get())
                .to_string()
        })
    };
    let factor_why = move || {
        factor_refused
            .get()
            .then(|| {
                msg::positions::ROPE_FACTOR_RANGE
                    .get(lang.get())
                    .to_string()
            })
            .or_else(scaling_unused)
    };
    let base_why = move || {
        base_refused
            .get()
            .then(|| msg::positions::ROPE_BASE_RANGE.get(lang.get()).to_string())
    };
    let trained_why = move || {
        trained_refused.get().then(|| {
            msg::positions::ROPE_TRAINED_RANGE
                .get(lang.get())
                .to_string()
        })
    };
    let number_of = |ev: &leptos::ev::Event| event_target_value(ev).trim().parse::<f64>().ok();
    let on_base = move |ev: leptos::ev::Event| match number_of(&ev) {
        Some(b) if (2.0..=1e8).contains(&b) => {
            base_refused.set(false);
            settings.update(|s| s.base = b as f32);
        }
        _ => base_refused.set(true),
    };
    let on_factor = move |ev: leptos::ev::Event| match number_of(&ev) {
        Some(f) if (1.0..=64.0).contains(&f) => {
            factor_refused.set(false);
            settings.update(|s| s.factor = f as f32);
        }
        _ => factor_refused.set(true),
    };
    let on_trained = move |ev: leptos::ev::Event| match number_of(&ev) {
        Some(l) if l.fract() == 0.0 && (16.0..=1e6).contains(&l) => {
            trained_refused.set(false);
            settings.update(|s| s.trained = l as usize);
        }
        _ => trained_refused.set(true),
    };

    let knobs = move || {
        let l = lang.get();
        view! {
        <div class="knobs rope-knobs" data-testid="rope-knobs">
            <Knob label=msg::positions::ROPE_KNOB_BASE.get(l) id="rope-base" why=Signal::derive(base_why)>
                <input type="number" min="2" step="any" data-testid="rope-base"
                    aria-describedby=why_id("rope-base")
                    prop:value=move || settings.with(|s| s.base.to_string())
                    on:change=on_base/>
            </Knob>
            <Knob label=msg::positions::ROPE_KNOB_PAIRS.get(l) id="rope-pairs" why=Signal::derive(|| None::<String>)>
                <select data-testid="rope-pairs"
                    on:change=move |ev| {
                        let p = RopePairs::parse(&event_target_value(&ev)).unwrap_or_default();
                        settings.update(|s| s.pairs = p);
                    }>
                    <option value="half" selected=move || settings.with(|s| s.pairs == RopePairs::Half)>
                        {msg::positions::ROPE_PAIRS_HALF.get(l)}</option>
                    <option value="interleaved" selected=move || settings.with(|s| s.pairs == RopePairs::Interleaved)>
                        {msg::positions::ROPE_PAIRS_INTERLEAVED.get(l)}</option>
                </select>
            </Knob>
            <Knob label=msg::positions::ROPE_KNOB_SCALING.get(l) id="rope-scaling" why=Signal::derive(|| None::<String>)>
                <select data-testid="rope-scaling"
                    on:change=move |ev| {
                        let k = ScalingKind::parse(&event_target_value(&ev)).unwrap_or_default();
                        settings.update(|s| s.scaling = k);
                    }>
                    {ScalingKind::ALL.into_iter().map(|k| view! {
                        <option value=k.name() selected=move || settings.with(|s| s.scaling == k)>{k.label(l)}</option>
                    }).collect_view()}
                </select>
            </Knob>
            <Knob label=msg::positions::ROPE_KNOB_FACTOR.get(l) id="rope-factor" why=Signal::derive(factor_why)>
                <input type="number" min="1" max="64" step="any" data-testid="rope-factor"
                    aria-describedby=why_id("rope-factor")
                    disabled=move || scaling_unused().is_some()
                    title=scaling_unused
                    prop:value=move || settings.with(|s| s.factor.to_string())
                    on:change=on_factor/>
            </Knob>
            <Knob label=msg::positions::ROPE_KNOB_TRAINED.get(l) id="rope-trained" why=Signal::derive(trained_why)>
                <input type="number" min="16" max="1000000" step="1" data-testid="rope-trained"
                    aria-describedby=why_id("rope-trained")
                    prop:value=move || settings.with(|s| s.trained.to_string())
                    on:change=on_trained/>
            </Knob>
        </div>
        }
    };

    let pair_knobs = move || {
        let l = lang.get();
        view! {
        <div class="knobs rope-pair-knobs">
            <Knob label=msg::positions::ROPE_KNOB_WORD.get(l) id="rope-word" why=Signal::derive(|| None::<String>)>
                <select data-testid="rope-word"
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            word.set(i);
                        }
                    }>
                    {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                        <option value=i.to_string() selected=move || word.get() == i translate="no">{t.text}</option>
                    }).collect_view()}
                </select>
            </Knob>
            <Knob label=msg::positions::ROPE_KNOB_PAIR.get(l) id="rope-pair" why=Signal::derive(|| None::<String>)>
                <input type="range" min="0" max=move || (pairs_count() - 1).to_string() step="1" data-testid="rope-pair"
                    prop:value=move || pair.get().min(pairs_count() - 1).to_string()
                    on:input=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            pair.set(i);
                        }
                    }/>
                <output class="knob-hint" data-testid="rope-pair-value">{move || pair.get().min(pairs_count() - 1)}</output>
            </Knob>
        </div>
        }
    };

    view! {
        <section class="explain-figure rope-section" data-testid="rope-section" aria-label=text(msg::positions::ROPE_SECTION_LABEL)>
            <h3 class="figure-title">{text(msg::positions::ROPE_SECTION_TITLE)}</h3>
            <p class="explain-note">{text(msg::positions::ROPE_SECTION_EXPLAIN)}</p>
            {knobs}
            {move || error().map(|e| view! { <p class="explain-message" data-testid="rope-error">{e}</p> })}
            <div class="positions-figures">
                <figure class="explain-figure wide" data-testid="rope-pair-figure">
                    <figcaption>{text(msg::positions::ROPE_PAIR_CAPTION)}</figcaption>
                    {pair_knobs}
                    <p class="readout" data-testid="rope-pair-readout">{move || turn.with(|t| match t {
                        Some(Ok((_, p))) => {
                            let theta = number::significant(p.theta, 3);
                            let wavelength = number::significant(p.wavelength(), 3);
                            Some(msg::positions::RopePairReadout { theta: &theta, wavelength: &wavelength }.say(lang.get()))
                        }
                        _ => None,
                    })}</p>
                    <LineChartCanvas chart=pair_chart testid="rope-pair-chart" class="line-canvas rope-wide-chart"/>
                </figure>
                <figure class="explain-figure wide" data-testid="rope-proof-figure">
                    <figcaption>{text(msg::positions::ROPE_PROOF_CAPTION)}</figcaption>
                    <p class="readout">
                        {text(msg::positions::ROPE_SPREAD_LABEL)}" "
                        {text(msg::positions::ROPE_SPREAD_SINUSOID)}" "
                        <strong data-testid="rope-spread-sinusoid" data-value=move || spreads().map(|s| s.0.to_string())>
                            {move || spreads().map(|s| number::readable(s.0))}
                        </strong>
                        ", "{text(msg::positions::ROPE_SPREAD_ROPE)}" "
                        <strong data-testid="rope-spread-rope" data-value=move || spreads().map(|s| s.1.to_string())>
                            {move || spreads().map(|s| number::readable(s.1))}
                        </strong>
                    </p>
                    <div class="bow-figures">
                        <div class="rope-cell">
                            <HeatmapCanvas figure=sinusoid_figure testid="rope-proof-sinusoid" kind="matrix" pointing=Pointing::Reading/>
                        </div>
                        <div class="rope-cell">
                            <HeatmapCanvas figure=rope_figure testid="rope-proof-rope" kind="matrix" pointing=Pointing::Reading/>
                        </div>
                    </div>
                </figure>
                <figure class="explain-figure wide" data-testid="rope-decay-figure">
                    <figcaption>{text(msg::positions::ROPE_DECAY_CAPTION)}</figcaption>
                    <LineChartCanvas chart=decay testid="rope-decay" class="line-canvas rope-wide-chart"/>
                </figure>
                <figure class="explain-figure wide" data-testid="rope-long-figure">
                    <figcaption>{text(msg::positions::ROPE_LONG_CAPTION)}</figcaption>
                    <div class="bow-figures">
                        <div class="rope-cell">
                            <LineChartCanvas chart=wavelength_chart testid="rope-wavelengths" class="line-canvas"/>
                        </div>
                        <div class="rope-cell">
                            <LineChartCanvas chart=long_decay testid="rope-long-decay" class="line-canvas"/>
                        </div>
                    </div>
                </figure>
                <figure class="explain-figure wide" data-testid="rope-alibi-figure">
                    <figcaption>
                        {text(msg::positions::ROPE_ALIBI_CAPTION)}
                        <span translate="no" data-testid="rope-alibi-slopes">{slopes}</span>
                    </figcaption>
                    <div class="rope-alibi-grid">
                        {move || (0..heads()).map(|h| {
                            let figure = Signal::derive(move || positions::alibi_heatmap(heads(), h, alibi_n(), lang.get()).ok());
                            view! {
                                <div class="rope-cell">
                                    <HeatmapCanvas figure=figure testid=format!("rope-alibi-{h}") kind="matrix" pointing=Pointing::Reading/>
                                </div>
                            }
                        }).collect_view()}
                    </div>
                </figure>
            </div>
        </section>
    }
}
