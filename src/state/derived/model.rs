//! The real model's page's figures: memos of the latest forward pass, the page's part of
//! the lab's state (`PretrainedView`: layer, head, search, relevance, the `[CLS]`/`[SEP]`
//! switch), the language and the page's weight | contribution switch. Built once by the
//! page ([`ModelFigures::new`]); a figure that follows a panel's own controls is built by
//! that panel from here too ([`ModelFigures::alignment`], [`ModelFigures::variant_on_head`]).

use attnlab_lab::Variant;
use attnlab_lab::contribution::{LayerShare, Measure};
use attnlab_lab::state::Relevance;
use attnlab_model_page::alignment::{Crossing, Direction, alignment_lines, rank_crossing};
use attnlab_model_page::{HideSpecial, ModelRun, OnHead, RankedHead};
use attnlab_pages::neuron::Neuron;
use attnlab_plot::{Focus, Heatmap, LineChart, TokenLines};
use leptos::prelude::*;

use crate::model::ModelSession;
use crate::state::{AppState, LabFields};

/// The model page's figures and what they are drawn from. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct ModelFigures {
    state: AppState,
    session: ModelSession,
    /// Whether the `[CLS]`/`[SEP]` switch hides the special tokens.
    pub hide: Memo<HideSpecial>,
    /// The selected `(layer, head)`.
    pub layer_head: Memo<(usize, usize)>,
    /// The run's layers, heads and tokens.
    pub shape: Memo<(usize, usize, usize)>,
    /// Every head of every layer, in the measure shown: the atlas.
    pub tiles: Memo<Vec<Heatmap>>,
    /// The atlas tiles' titles.
    pub titles: Memo<Vec<String>>,
    /// The selected head, large, in the measure shown.
    pub head: Memo<Option<Heatmap>>,
    /// Whether the tokenizer marks the start of a word (the note under the atlas).
    pub word_starts: Memo<bool>,
    /// The typed characters the model read as its unknown piece.
    pub replaced: Memo<Vec<String>>,
    /// The same, as the figures label them.
    pub replaced_shown: Memo<Vec<String>>,
    /// The run's token labels, as the figures show them.
    pub labels: Memo<Vec<String>>,
    /// The head search's pair `(query, key)`: the link's, else "it" → "animal", else the
    /// first token to itself.
    pub search: Memo<(usize, usize)>,
    /// Every head ranked by its weight on the searched pair, or why not.
    pub ranked: Memo<Result<Vec<RankedHead>, String>>,
    /// Rollout or flow.
    pub relevance: Memo<Relevance>,
    /// The selected layer.
    pub layer: Memo<usize>,
    /// The run's token count.
    pub n: Memo<usize>,
    /// The selected layer's mean over its heads, in the measure shown.
    pub layer_average: Memo<Option<Heatmap>>,
    /// Rollout or flow after the selected layer.
    pub relevant: Memo<Option<Heatmap>>,
    /// The neuron view of the picked cell of the selected head.
    pub neuron: Memo<Option<Result<Neuron, String>>>,
    /// The neuron view's query and key labels (every token).
    pub neuron_labels: Memo<(Vec<String>, Vec<String>)>,
    /// The per-layer shares of weight and of contribution on the special tokens, as a
    /// chart.
    pub share_chart: Memo<Option<LineChart>>,
    /// The same shares, as rows.
    pub shares: Memo<Vec<LayerShare>>,
    /// The weight each head of each layer puts on the first token (`[CLS]`).
    pub first_token: Memo<Option<Heatmap>>,
    /// Every head ranked by the share of its weight that crosses between the two
    /// sentences of a pair.
    pub crossing: Memo<Vec<Crossing>>,
}

/// `weight()` or `contribution()`, as `measure` says.
fn measured<T>(
    measure: Measure,
    weight: impl FnOnce() -> T,
    contribution: impl FnOnce() -> T,
) -> T {
    match measure {
        Measure::Weight => weight(),
        Measure::Contribution => contribution(),
    }
}

/// The example the head search opens with: from "it" to "animal", when both are tokens
/// (WordPiece's `it`, or SentencePiece's `▁it` that starts a word).
pub fn example_pair(tokens: &[String]) -> Option<(usize, usize)> {
    let at = |w: &str| {
        tokens
            .iter()
            .position(|t| t.strip_prefix('\u{2581}').unwrap_or(t) == w)
    };
    Some((at("it")?, at("animal")?))
}

impl ModelFigures {
    /// The figures of `session`'s latest run as the page's part of `state` selects them,
    /// in `measure` (weights or contributions), with the neuron view of the cell `picked`.
    pub fn new(
        state: AppState,
        session: ModelSession,
        measure: RwSignal<Measure>,
        picked: RwSignal<Option<(usize, usize)>>,
    ) -> ModelFigures {
        let lang = state.lang;
        let pretrained = state.lab.pretrained();
        // The chosen model's short name, for figure titles.
        let name = move || pretrained.with(|p| p.map_or("", |p| p.checkpoint.short_name()));
        let hide = Memo::new(move |_| {
            HideSpecial::from(pretrained.with(|p| p.is_some_and(|p| p.hide_special)))
        });
        let layer_head =
            Memo::new(move |_| pretrained.with(|p| p.map_or((0, 0), |p| (p.layer, p.head))));
        let shape = Memo::new(move |_| {
            session
                .with_run(|r| (r.layers(), r.heads(), r.n()))
                .unwrap_or_default()
        });
        let tiles = Memo::new(move |_| {
            let (hide, m, lang) = (hide.get(), measure.get(), lang.get());
            session
                .with_run(|r| {
                    let view = r.token_view(hide);
                    measured(
                        m,
                        || attnlab_model_page::atlas_figures(lang, r, &view),
                        || attnlab_model_page::atlas_contribution_figures(lang, r, &view),
                    )
                })
                .unwrap_or_default()
        });
        let titles = Memo::new(move |_| {
            let (l, h, _) = shape.get();
            attnlab_model_page::atlas_titles(l, h)
        });
        let head = Memo::new(move |_| {
            let (l, h) = layer_head.get();
            let (hide, m, lang) = (hide.get(), measure.get(), lang.get());
            session
                .with_run(|r| {
                    let view = r.token_view(hide);
                    measured(
                        m,
                        || attnlab_model_page::head_figure(lang, r, name(), l, h, &view),
                        || {
                            attnlab_model_page::head_contribution_figure(
                                lang,
                                r,
                                name(),
                                l,
                                h,
                                &view,
                            )
                        },
                    )
                })
                .flatten()
        });
        let word_starts = Memo::new(move |_| {
            session
                .with_run(ModelRun::marks_word_starts)
                .unwrap_or(false)
        });
        let replaced = Memo::new(move |_| {
            session
                .with_run(|r| {
                    r.replaced_outside()
                        .into_iter()
                        .map(String::from)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        });
        let replaced_shown = Memo::new(move |_| {
            replaced.with(|typed| {
                typed
                    .iter()
                    .map(|t| attnlab_model_page::shown_token("", Some(t)))
                    .collect::<Vec<_>>()
            })
        });
        let tokens = Memo::new(move |_| {
            session
                .with_run(|r| r.tokens().to_vec())
                .unwrap_or_default()
        });
        let labels = Memo::new(move |_| {
            session
                .with_run(|r| r.labels().to_vec())
                .unwrap_or_default()
        });
        let search = Memo::new(move |_| {
            let n = tokens.with(Vec::len);
            pretrained
                .with(|p| p.and_then(|p| p.search))
                .filter(|&(q, k)| q < n && k < n)
                .or_else(|| tokens.with(|t| example_pair(t)))
                .unwrap_or((n.min(2) / 2, n.min(2) / 2))
        });
        let ranked = Memo::new(move |_| {
            let (q, k) = search.get();
            let (hide, lang) = (hide.get(), lang.get());
            session
                .with_run(|r| {
                    r.rank_heads(q, k, &r.token_view(hide))
                        .map_err(|e| e.text(lang))
                })
                .unwrap_or(Ok(Vec::new()))
        });
        let relevance =
            Memo::new(move |_| pretrained.with(|p| p.map_or(Relevance::Rollout, |p| p.relevance)));
        let layer = Memo::new(move |_| pretrained.with(|p| p.map_or(0, |p| p.layer)));
        let n = Memo::new(move |_| session.with_run(ModelRun::n).unwrap_or(0));
        let layer_average = Memo::new(move |_| {
            let (l, hide, m, lang) = (layer.get(), hide.get(), measure.get(), lang.get());
            session
                .with_run(|r| {
                    let view = r.token_view(hide);
                    measured(
                        m,
                        || attnlab_model_page::layer_average_figure(lang, r, name(), l, &view),
                        || {
                            attnlab_model_page::layer_average_contribution_figure(
                                lang,
                                r,
                                name(),
                                l,
                                &view,
                            )
                        },
                    )
                })
                .flatten()
        });
        let relevant = Memo::new(move |_| {
            let (kind, l, hide, lang) = (relevance.get(), layer.get(), hide.get(), lang.get());
            session
                .with_run(|r| {
                    session.flow.with(|f| {
                        let flow = f
                            .as_ref()
                            .filter(|f| f.id == session.latest() && f.layer == l)
                            .and_then(|f| f.result.as_ref().ok())
                            .map(|m| m.view());
                        attnlab_model_page::relevance_figure(
                            lang,
                            r,
                            kind,
                            l,
                            flow,
                            &r.token_view(hide),
                        )
                    })
                })
                .flatten()
        });
        let neuron = Memo::new(move |_| {
            let (i, j) = picked.get()?;
            let (l, h) = layer_head.get();
            session.with_run(|r| {
                attnlab_model_page::model_neuron(r, l, h, i, j).map_err(|e| e.to_string())
            })
        });
        let neuron_labels = Memo::new(move |_| {
            let tokens = labels.get();
            (tokens.clone(), tokens)
        });
        let share_chart = Memo::new(move |_| {
            session
                .with_run(|r| attnlab_model_page::share_chart(lang.get(), r).ok())
                .flatten()
        });
        let shares = Memo::new(move |_| {
            session
                .with_run(|r| attnlab_model_page::special_shares(r).ok())
                .flatten()
                .unwrap_or_default()
        });
        let first_token = Memo::new(move |_| {
            session
                .with_run(|r| {
                    let token = r.labels().first()?.clone();
                    attnlab_lab::first_token::model_figure(
                        r.layers(),
                        r.heads(),
                        |l, h| r.attention(l, h),
                        &token,
                        lang.get(),
                    )
                    .ok()
                })
                .flatten()
        });
        let crossing = Memo::new(move |_| {
            session
                .with_run(rank_crossing)
                .flatten()
                .unwrap_or_default()
        });
        ModelFigures {
            state,
            session,
            hide,
            layer_head,
            shape,
            tiles,
            titles,
            head,
            word_starts,
            replaced,
            replaced_shown,
            labels,
            search,
            ranked,
            relevance,
            layer,
            n,
            layer_average,
            relevant,
            neuron,
            neuron_labels,
            share_chart,
            shares,
            first_token,
            crossing,
        }
    }

    /// The selected head's weights across the two sentences of a pair, as lines from
    /// `direction`'s side, `focus` highlighted (`None` without a pair).
    pub fn alignment(
        self,
        direction: RwSignal<Direction>,
        focus: RwSignal<Focus>,
    ) -> Signal<Option<TokenLines>> {
        let (state, session, layer_head) = (self.state, self.session, self.layer_head);
        let pretrained = state.lab.pretrained();
        Signal::derive(move || {
            let (layer, head) = layer_head.get();
            let name = pretrained.with(|p| p.map_or("", |p| p.checkpoint.short_name()));
            session
                .with_run(|r| {
                    alignment_lines(state.lang.get(), r, name, layer, head, direction.get())
                })
                .flatten()
                .map(|l| l.with_focus(focus.get()))
        })
    }

    /// Lab variant `variant` computed on the selected real head's `Q`, `K`, `V`, beside
    /// the model's own attention (`None` on the toy model or before a run).
    pub fn variant_on_head(self, variant: Memo<Variant>) -> Memo<Option<Result<OnHead, String>>> {
        let (state, session) = (self.state, self.session);
        Memo::new(move |_| {
            let (layer, head) = state
                .lab
                .pretrained()
                .with(|p| p.map(|p| (p.layer, p.head)))?;
            let seed = state.lab.model().with(|m| m.seed);
            let lang = state.lang.get();
            session.with_run(|r| {
                variant.with(|v| attnlab_model_page::variant_on_head(lang, r, layer, head, v, seed))
            })
        })
    }
}
