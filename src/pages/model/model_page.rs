use attnlab_i18n::msg;
use attnlab_lab::state::DEFAULT_SENTENCE;
use attnlab_lab::state::{PretrainedView, Relevance};
use attnlab_model_page::{
    ATLAS_CAPTION, HideSpecial, MAX_FLOW_TOKENS, SEARCH_CAUTION, SPECIAL_TOKENS_NOTE,
    WORD_START_NOTE,
};
use attnlab_plot::number;
use leptos::prelude::*;

use super::contribution_panel::ContributionPanel;
use super::{AtlasView, ModelStatusPanel, PairPanel, SubstitutionPanel, VariantsOnHead};
use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::{Lang, text, use_lang};
use crate::lab::CellInfo;
use crate::model::use_model_session;
use crate::neuron::MeasureSwitch;
use crate::state::{LabFields, ModelFigures, example_pair, use_app_state};
use attnlab_lab::contribution::{Measure, PROJECTED_NOTE};

/// The real model's page: its status, then (once a text has run) the layer and head
/// controls with the atlas of every head beside the selected head large (the first
/// screen), the sentence pair, the head search, and rollout or flow beside the raw
/// attention.
#[component]
pub fn ModelPage() -> impl IntoView {
    let session = use_model_session();
    let lang = use_lang();
    let has_run = move || session.with_run(|_| ()).is_some();
    let run_error = move || {
        session
            .run
            .with(|r| r.as_ref().and_then(|r| r.as_ref().err().cloned()))
    };
    // The weight | contribution switch over the atlas, the head and the layer mean; the
    // cell the neuron view explains (indices of the whole text).
    let measure = RwSignal::new(Measure::Weight);
    let picked = RwSignal::new(None::<(usize, usize)>);
    let figures = ModelFigures::new(use_app_state(), session, measure, picked);
    view! {
        <div class="model-page" data-testid="model-page">
            <ModelStatusPanel/>
            {move || run_error().map(|e| view! {
                <p class="variant-error" role="alert" data-testid="model-run-error">{e.get(lang.get()).to_string()}</p>
            })}
            <ReplacedNote figures=figures/>
            <Show when=has_run>
                <FirstScreen measure=measure picked=picked figures=figures/>
            </Show>
            <PairPanel figures=figures/>
            <Show when=has_run>
                <ModelViews picked=picked figures=figures/>
            </Show>
        </div>
    }
}

/// “A”, “B” and “C” (“A”、“B”和“C”), in `lang`.
fn quoted_list(lang: Lang, items: &[&str]) -> String {
    let q: Vec<String> = items
        .iter()
        .map(|t| format!("\u{201c}{t}\u{201d}"))
        .collect();
    let (comma, and) = (
        msg::model_page::MODEL_LIST_COMMA.get(lang),
        msg::model_page::MODEL_LIST_AND.get(lang),
    );
    match q.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}{and}{last}", rest.join(comma)),
    }
}

/// Which typed characters the model read as its unknown piece because this build's file
/// holds no piece of them, and why, in one sentence; the replaced tokens' labels (as
/// the figures show them) in `data-replaced`, as a JSON array.
#[component]
fn ReplacedNote(
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let lang = use_lang();
    let (replaced, shown) = (figures.replaced, figures.replaced_shown);
    move || {
        let typed = replaced.get();
        if typed.is_empty() {
            return None;
        }
        let items: Vec<&str> = typed.iter().map(String::as_str).collect();
        let lang = lang.get();
        let list = quoted_list(lang, &items);
        let example = shown.with(|s| s.first().cloned().unwrap_or_default());
        let data = shown.with(serde_json::to_string).unwrap_or_default();
        // The list, the <unk> piece and how it is drawn, each in its own element.
        let said = msg::model_page::ModelReplacedNote {
            list: &MARK[0],
            typed: items.len(),
            unk: &MARK[1],
            example: &MARK[2],
        }
        .say(lang);
        let kept = [list, "<unk>".to_string(), example];
        Some(view! {
            <p class="hint replaced-note" role="status" data-testid="model-replaced" data-replaced=data>
                {with_marked(&said, |i| {
                    let text = kept[i].clone();
                    view! { <span translate="no">{text}</span> }.into_any()
                })}
            </p>
        })
    }
}

/// Edits the model page's part of the state.
fn edit(state: crate::state::AppState, f: impl FnOnce(&mut PretrainedView)) {
    state.edit_model_page(f);
}

/// The layer and head controls, then every head of every layer beside the selected head
/// large: what the page shows first.
#[component]
fn FirstScreen(
    /// Weights or contributions.
    measure: RwSignal<Measure>,
    /// The cell the neuron view explains.
    picked: RwSignal<Option<(usize, usize)>>,
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let ModelFigures {
        hide,
        layer_head,
        shape,
        tiles,
        titles,
        head: head_figure,
        word_starts,
        ..
    } = figures;
    let pick = Callback::new(move |(l, h): (usize, usize)| {
        edit(state, |p| {
            p.layer = l;
            p.head = h;
        })
    });
    let hover = RwSignal::new(None::<(usize, usize)>);
    let on_cell = Callback::new(move |(i, j): (usize, usize)| {
        // A cell of the large head searches from its query to its key.
        let kept =
            session.with_run_untracked(|r| r.token_view(hide.get_untracked()).kept().to_vec());
        if let Some(kept) = kept
            && let (Some(&q), Some(&k)) = (kept.get(i), kept.get(j))
        {
            edit(state, |p| p.search = Some((q, k)));
            picked.set(Some((q, k)));
        }
    });
    // A cell of an atlas tile (the tile's head is picked first) opens its neuron view.
    let on_atlas_cell = Callback::new(move |(i, j): (usize, usize)| {
        let kept =
            session.with_run_untracked(|r| r.token_view(hide.get_untracked()).kept().to_vec());
        if let Some(kept) = kept
            && let (Some(&q), Some(&k)) = (kept.get(i), kept.get(j))
        {
            picked.set(Some((q, k)));
        }
    });
    let options = move |count: usize| {
        (0..count)
            .map(|i| view! { <option value=i.to_string()>{i.to_string()}</option> })
            .collect_view()
    };
    let millis = move || {
        let lang = lang.get();
        session
            .with_run(|r| {
                let h = r.header();
                let (n, layers, ms) = (r.n(), r.layers(), number::rounded(h.millis, 3));
                let cut = h
                    .truncated_from
                    .map(|was| msg::model_page::ModelRunCut { was: &was, n: &n }.say(lang))
                    .unwrap_or_default();
                msg::model_page::ModelRunInfo {
                    n: &n,
                    layers: &layers,
                    ms: &ms,
                    cut: &cut,
                }
                .say(lang)
            })
            .unwrap_or_default()
    };
    let hide_label = move || {
        let (a, b) = state
            .lab
            .pretrained()
            .with(|p| p.map_or(("[CLS]", "[SEP]"), |p| p.checkpoint.special_tokens()));
        let said = msg::model_page::ModelHideSpecial {
            first: &MARK[0],
            second: &MARK[1],
        }
        .say(lang.get());
        with_marked(&said, |i| {
            let token = [a, b][i];
            view! { <span translate="no">{token}</span> }.into_any()
        })
    };
    view! {
        <section class="panel model-controls" aria-label=text(msg::model_page::MODEL_CONTROLS_LABEL)>
            <div class="knobs">
                <label class="knob">{text(msg::model_page::MODEL_LAYER_LABEL)}
                    <select data-testid="model-layer"
                        prop:value=move || layer_head.get().0.to_string()
                        on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { edit(state, |p| p.layer = l) }>
                        {move || options(shape.get().0)}
                    </select>
                </label>
                <label class="knob">{text(msg::model_page::MODEL_HEAD_LABEL)}
                    <select data-testid="model-head"
                        prop:value=move || layer_head.get().1.to_string()
                        on:change=move |ev| if let Ok(h) = event_target_value(&ev).parse() { edit(state, |p| p.head = h) }>
                        {move || options(shape.get().1)}
                    </select>
                </label>
                <label class="knob check">
                    <input type="checkbox" data-testid="hide-special"
                        prop:checked=move || hide.get() == HideSpecial::Yes
                        on:change=move |ev| { let on = event_target_checked(&ev); edit(state, |p| p.hide_special = on) }/>
                    {hide_label}
                </label>
                <MeasureSwitch measure=measure note=PROJECTED_NOTE/>
                <span class="hint" data-testid="model-run-info">{millis}</span>
            </div>
        </section>
        <div class="model-first">
            <section class="panel model-atlas" aria-label=text(msg::model_page::MODEL_ATLAS_LABEL)>
                <AtlasView tiles=tiles titles=titles heads=Signal::derive(move || shape.get().1)
                    selected=layer_head on_pick=pick on_cell=on_atlas_cell/>
                <p class="hint">{move || ATLAS_CAPTION.get(lang.get())}</p>
                <p class="hint">{move || SPECIAL_TOKENS_NOTE.get(lang.get())}</p>
                <Show when=move || word_starts.get()>
                    <p class="hint" data-testid="word-start-note">{move || WORD_START_NOTE.get(lang.get())}</p>
                </Show>
            </section>
            <section class="panel model-head" aria-label=text(msg::model_page::MODEL_HEAD_PANEL_LABEL) data-testid="model-head-panel">
                <HeatmapCanvas figure=head_figure pointing=Pointing::Cells { hover, on_cell: Some(on_cell) }
                    testid="model-heatmap" kind="model-head"/>
                <CellInfo figure=head_figure cell=hover/>
            </section>
        </div>
    }
}

/// Everything below the first screen and the pair: what each key contributes, lab
/// variants on the selected head and inside the model, the head search, rollout and flow.
#[component]
fn ModelViews(
    /// The cell the neuron view explains.
    picked: RwSignal<Option<(usize, usize)>>,
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    view! {
        <ContributionPanel picked=picked figures=figures/>
        <VariantsOnHead figures=figures/>
        <SubstitutionPanel/>
        <HeadSearch figures=figures/>
        <RelevancePanel figures=figures/>
    }
}

/// Brings the selected head's large heatmap into the window (as little scrolling as
/// it takes).
fn show_large_head() {
    let el = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector("[data-testid=model-head-panel]")
            .ok()
            .flatten()
    });
    if let Some(el) = el {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        options.set_behavior(web_sys::ScrollBehavior::Instant);
        el.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

#[component]
fn HeadSearch(
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let ModelFigures {
        hide,
        labels,
        search: pair,
        ranked,
        ..
    } = figures;
    let set_pair = move |q: Option<usize>, k: Option<usize>| {
        let (pq, pk) = pair.get_untracked();
        edit(state, |p| {
            p.search = Some((q.unwrap_or(pq), k.unwrap_or(pk)))
        });
    };
    let token_options = move || {
        labels.with(|t| {
            t.iter()
                .enumerate()
                .map(|(i, w)| view! { <option value=i.to_string() translate="no">{format!("{i} · {w}")}</option> })
                .collect_view()
        })
    };
    // The example selects the head the search ranks first for its pair and shows it
    // large, once the run of its sentence is there: `jump` holds the id of the last run
    // before it (a later one is the example's; 0 when its sentence was there already).
    let jump = RwSignal::new(None::<u64>);
    let example = move |_| {
        let after = if state.lab.text().with_untracked(|s| s != DEFAULT_SENTENCE) {
            let after = session.latest();
            state.lab.text().set(DEFAULT_SENTENCE.to_string());
            after
        } else {
            0
        };
        edit(state, |p| p.search = None);
        jump.set(Some(after));
    };
    Effect::new(move |_| {
        let Some(after) = jump.get() else {
            return;
        };
        let hide = hide.get();
        // None: not the example's run yet; Some(top): its run, and the head ranked first.
        let done = session
            .with_run(|r| {
                let id = r.header().id;
                (id > after && id == session.latest()).then(|| {
                    let (q, k) = example_pair(r.tokens())?;
                    let ranked = r.rank_heads(q, k, &r.token_view(hide)).ok()?;
                    ranked.first().copied()
                })
            })
            .flatten();
        if let Some(top) = done {
            jump.set(None);
            if let Some(top) = top {
                edit(state, |p| {
                    p.layer = top.layer;
                    p.head = top.head;
                });
                show_large_head();
            }
        }
    });
    let rows = move || match ranked.get() {
        Err(e) => {
            view! { <p class="why is-shown" role="status" data-testid="search-error">{e}</p> }
                .into_any()
        }
        Ok(list) => {
            let top = list
                .first()
                .map_or(0.0, |r| r.weight)
                .max(f32::MIN_POSITIVE);
            view! {
                <ol class="head-ranking" data-testid="head-ranking">
                    {list.into_iter().map(|r| {
                        let shown = move || state.lab.pretrained().with(|p| p.is_some_and(|p| (p.layer, p.head) == (r.layer, r.head)));
                        let width = format!("width: {}%", number::decimals(100.0 * r.weight / top, 1));
                        view! {
                            <li>
                                <button type="button" class="rank-row" data-testid="rank-row"
                                    class:is-selected=shown aria-current=move || shown().then_some("true")
                                    on:click=move |_| edit(state, |p| { p.layer = r.layer; p.head = r.head; })>
                                    <span class="rank-head">{move || msg::model_page::ModelRankHead { layer: &r.layer, head: &r.head }.say(lang.get())}</span>
                                    <span class="rank-bar"><span style=width></span></span>
                                    <span class="rank-weight">{number::decimals(r.weight, 3)}</span>
                                </button>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            }.into_any()
        }
    };
    view! {
        <section class="panel head-search" aria-label=text(msg::model_page::MODEL_SEARCH_LABEL) data-testid="head-search">
            <h2 class="section-title">{text(msg::model_page::MODEL_SEARCH_TITLE)}</h2>
            <div class="knobs">
                <label class="knob">{text(msg::model_page::MODEL_SEARCH_FROM)}
                    <select data-testid="search-query" prop:value=move || pair.get().0.to_string()
                        on:change=move |ev| set_pair(event_target_value(&ev).parse().ok(), None)>
                        {token_options}
                    </select>
                </label>
                <label class="knob">{text(msg::model_page::MODEL_SEARCH_TO)}
                    <select data-testid="search-key" prop:value=move || pair.get().1.to_string()
                        on:change=move |ev| set_pair(None, event_target_value(&ev).parse().ok())>
                        {token_options}
                    </select>
                </label>
                <button type="button" data-testid="search-example" on:click=example>
                    {text(msg::model_page::MODEL_EXAMPLE)} <span translate="no">"“it” → “animal”"</span>
                </button>
            </div>
            <p class="hint">{text(msg::model_page::MODEL_SEARCH_HINT)}</p>
            {rows}
            <p class="caution" data-testid="search-caution">{move || SEARCH_CAUTION.get(lang.get())}</p>
        </section>
    }
}

#[component]
fn RelevancePanel(
    /// The page's figures.
    figures: ModelFigures,
) -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let ModelFigures {
        relevance,
        layer,
        n,
        layer_average: raw,
        relevant,
        ..
    } = figures;
    // Flow is computed in the worker, on demand, up to MAX_FLOW_TOKENS tokens.
    Effect::new(move |_| {
        if relevance.get() == Relevance::Flow && n.get() > 0 && n.get() <= MAX_FLOW_TOKENS {
            // Track the run, so a new text asks again.
            session.run.track();
            session.request_flow(layer.get());
        }
    });
    let note = move || {
        let lang = lang.get();
        match relevance.get() {
            Relevance::Rollout => msg::model_page::MODEL_ROLLOUT_NOTE.get(lang).to_string(),
            Relevance::Flow if n.get() > MAX_FLOW_TOKENS => msg::model_page::ModelFlowTooLong {
                max: &MAX_FLOW_TOKENS,
                n: &n.get(),
            }
            .say(lang),
            Relevance::Flow => session.flow.with(|f| match f {
                Some(f) if f.id == session.latest() && f.layer == layer.get() => match &f.result {
                    Ok(_) => msg::model_page::ModelFlowNote {
                        ms: &number::rounded(f.millis, 3),
                    }
                    .say(lang),
                    Err(e) => msg::model_page::ModelFlowFailed { why: &e.get(lang) }.say(lang),
                },
                _ => msg::model_page::MODEL_FLOW_COMPUTING.get(lang).to_string(),
            }),
        }
    };
    let pick = move |r: Relevance| edit(state, |p| p.relevance = r);
    let hover_raw = RwSignal::new(None::<(usize, usize)>);
    let hover_rel = RwSignal::new(None::<(usize, usize)>);
    view! {
        <section class="panel relevance" aria-label=text(msg::model_page::MODEL_RELEVANCE_LABEL) data-testid="relevance">
            <h2 class="section-title">{text(msg::model_page::MODEL_RELEVANCE_TITLE)}</h2>
            <div class="knobs" role="radiogroup" aria-label=text(msg::model_page::MODEL_RELEVANCE_RADIO_LABEL)>
                {[Relevance::Rollout, Relevance::Flow].into_iter().map(|r| view! {
                    <label class="knob check">
                        <input type="radio" name="relevance" data-testid=format!("relevance-{}", r.name())
                            prop:checked=move || relevance.get() == r on:change=move |_| pick(r)/>
                        {move || format!(" {}", r.label(lang.get()))}
                    </label>
                }).collect_view()}
                <span class="hint">{move || msg::model_page::ModelRelevanceAfter { layer: &layer.get() }.say(lang.get())}</span>
            </div>
            <p class="hint" data-testid="relevance-note">{note}</p>
            <div class="side-by-side">
                <div>
                    <HeatmapCanvas figure=raw pointing=Pointing::Cells { hover: hover_raw, on_cell: None }
                        testid="layer-average" kind="layer-average"/>
                    <CellInfo figure=raw cell=hover_raw/>
                </div>
                <div>
                    <HeatmapCanvas figure=relevant pointing=Pointing::Cells { hover: hover_rel, on_cell: None }
                        testid="relevance-heatmap" kind="relevance"/>
                    <CellInfo figure=relevant cell=hover_rel/>
                </div>
            </div>
        </section>
    }
}
