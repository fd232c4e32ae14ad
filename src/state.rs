//! The one `AppState`: the signals a person changes, and the memos derived from them by
//! the domain functions of `attnlab_lab` (the lab's domain model, shared with the CLI).
//! Provided once by the root component; every component reads it with
//! [`use_app_state`].
//!
//! The memos follow `attnlab_lab::compute`'s steps, so a change recomputes only what it
//! touches:
//!
//! ```text
//! text, mode, pad_to ─▶ queries ─┐            source ─▶ keys ─┐
//! model ─────────────────────────┴▶ encoded ─▶ projected ◀────┘   (shared by all variants)
//! projected + variant i ─▶ problem i ─▶ head (i, h) for each h ─▶ figure (i, h)
//!                                               └──────────────▶ average i, grid i
//! two variants' heads ─▶ comparison
//! ```
//!
//! A temperature drag on variant B reruns B's problem and B's heads, and repaints B's
//! canvases only: A's memos do not read B's signal.

use attnlab_core::CoreError;
use attnlab_core::attention::{HeadResult, Problem};
use attnlab_core::model::{Encoded, Projected};
pub use attnlab_lab::CompareWhat;
use attnlab_lab::compute::{self, HeadAverage, VariantComparison, WeightsRef};
use attnlab_lab::figure;
use attnlab_lab::fragment::{self, Loaded};
use attnlab_lab::state::HEADS_RANGE;
use attnlab_lab::tokens::{self, Tokens};
use attnlab_lab::{LabState, Mode, ModelConfig, Page, Variant, View};
use attnlab_plot::Heatmap;
use leptos::prelude::*;

/// The memos of one variant: its problem, each head, each head's figure, the grid and
/// the head average. Created once per variant, under the variant's own owner, so
/// removing a variant disposes of them.
#[derive(Debug, Clone)]
pub struct VariantMemos {
    /// The variant's problem: its heads' Q, K, V, the mask and the spec.
    pub problem: Memo<Result<Problem, CoreError>>,
    /// Head `h` (`None` past the model's head count), one memo per possible head.
    pub heads: Vec<Memo<Option<Result<HeadResult, CoreError>>>>,
    /// The figure of the selected head.
    pub selected: Memo<Option<Heatmap>>,
    /// The figures of every head, for the grid.
    pub grid: Memo<Vec<Heatmap>>,
    /// The mean of the heads' weights.
    pub average: Memo<Option<HeadAverage>>,
    /// The figure of the head average.
    pub average_figure: Memo<Option<Heatmap>>,
    /// Why this variant cannot be computed, as one sentence.
    pub error: Memo<Option<String>>,
}

/// One variant on screen: a stable id (for keyed lists), its settings and its memos.
#[derive(Debug, Clone)]
pub struct VariantSlot {
    /// Stable across renames and removals of other variants.
    pub id: u64,
    /// The variant's settings.
    pub variant: RwSignal<Variant>,
    /// What is computed from them.
    pub memos: VariantMemos,
    /// Owns the memos: dropped (and with it the memos) when the variant is removed.
    _owner: Owner,
}

/// The comparison of two variants: the difference figure and the metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// `A − B` on a diverging scale.
    pub figure: Heatmap,
    /// max/mean |ΔA|, KL, JS and the mean entropies.
    pub result: VariantComparison,
    /// The names of the two variants.
    pub names: (String, String),
}

/// Everything the lab's components share. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct AppState {
    /// The page on screen: the lab or one of the explanatory views.
    pub page: RwSignal<Page>,
    /// Self-attention or cross-attention.
    pub mode: RwSignal<Mode>,
    /// The sentence (self) or target (cross), exactly as typed.
    pub sentence: RwSignal<String>,
    /// The source sentence of cross-attention.
    pub source: RwSignal<String>,
    /// The model settings (shared by every variant).
    pub model: RwSignal<ModelConfig>,
    /// "Pad keys to length L", if set.
    pub pad_to: RwSignal<Option<usize>>,
    /// The variants, side by side.
    pub variants: RwSignal<Vec<VariantSlot>>,
    /// The variant last added or worked on (restored from links); pages read
    /// [`AppState::shown_variant`], which always names an existing variant.
    pub selected_variant: RwSignal<usize>,
    /// The variant every page shows: the selected one, within the variants there are.
    pub shown_variant: Memo<usize>,
    /// Which head the large heatmaps show.
    pub head: RwSignal<usize>,
    /// The two variants compared (indices).
    pub compare: RwSignal<(usize, usize)>,
    /// Head or average in the comparison.
    pub compare_what: RwSignal<CompareWhat>,
    /// The heatmap cell (row, column) under the pointer, in any variant (token strip).
    pub hover: RwSignal<Option<(usize, usize)>>,
    /// A notice about the link the page was opened with, if any.
    pub link_notice: RwSignal<Option<String>>,
    /// The query tokens (the sentence, or the target).
    pub tokens: Memo<Tokens>,
    /// The key tokens (the source in cross mode, else the query tokens).
    pub key_tokens: Memo<Tokens>,
    /// The queries' input rows: word vectors, positions and `X` (shared by every variant).
    pub encoded: Memo<Result<Encoded, CoreError>>,
    /// The projected heads shared by every variant.
    pub projected: Memo<Result<Projected, CoreError>>,
    /// The sentence above the figures, if any (nothing typed, text cut, settings refused).
    pub notice: Memo<Option<String>>,
    /// The comparison of the two compared variants.
    pub comparison: Memo<Option<Result<Comparison, String>>>,
    /// The whole state, as a link carries it.
    pub lab: Memo<LabState>,
    next_id: StoredValue<u64>,
    owner: StoredValue<Owner>,
}

impl AppState {
    /// The state of the lab opened with `lab`.
    pub fn from_lab(lab: LabState) -> AppState {
        let owner = Owner::current().unwrap_or_default();
        let mode = RwSignal::new(lab.mode);
        let sentence = RwSignal::new(lab.text.clone());
        let source = RwSignal::new(lab.source.clone());
        let model = RwSignal::new(lab.model);
        let head = RwSignal::new(lab.view.head);
        let hover = RwSignal::new(None);
        let pad_to = RwSignal::new(lab.pad_to);
        let tokens = Memo::new(move |_| {
            sentence.with(|s| tokens::query_tokens(mode.get(), s, pad_to.get()))
        });
        let cross_keys =
            Memo::new(move |_| source.with(|s| tokens::key_tokens(mode.get(), s, pad_to.get())));
        let key_tokens = Memo::new(move |_| cross_keys.get().unwrap_or_else(|| tokens.get()));
        let encoded: Memo<Result<Encoded, CoreError>> =
            Memo::new(move |_| tokens.with(|t| model.with(|m| compute::encode(m, t))));
        let encoded_keys: Memo<Option<Result<Encoded, CoreError>>> = Memo::new(move |_| {
            cross_keys.with(|k| k.as_ref().map(|t| model.with(|m| compute::encode(m, t))))
        });
        let projected: Memo<Result<Projected, CoreError>> = Memo::new(move |_| {
            encoded.with(|x| {
                let x = x.as_ref().map_err(Clone::clone)?;
                encoded_keys.with(|k| match k {
                    None => model.with(|m| compute::project(m, x, None)),
                    Some(Err(e)) => Err(e.clone()),
                    Some(Ok(k)) => model.with(|m| compute::project(m, x, Some(k))),
                })
            })
        });
        let notice = Memo::new(move |_| {
            tokens.with(|q| {
                cross_keys
                    .with(|k| projected.with(|p| tokens::notice(q, k.as_ref(), p.as_ref().err())))
            })
        });

        let variants = RwSignal::new(Vec::<VariantSlot>::new());
        let selected_variant = RwSignal::new(lab.view.variant);
        let state = AppState {
            page: RwSignal::new(lab.view.page),
            mode,
            sentence,
            source,
            model,
            pad_to,
            variants,
            selected_variant,
            shown_variant: Memo::new(move |_| {
                View::shown_variant(selected_variant.get(), variants.with(Vec::len))
            }),
            head,
            compare: RwSignal::new(lab.view.compare),
            compare_what: RwSignal::new(lab.view.compare_what),
            hover,
            link_notice: RwSignal::new(None),
            tokens,
            key_tokens,
            encoded,
            projected,
            notice,
            comparison: Memo::new(|_| None),
            lab: Memo::new(|_| LabState::default()),
            next_id: StoredValue::new(0),
            owner: StoredValue::new(owner),
        };
        let slots: Vec<VariantSlot> = lab.variants.into_iter().map(|v| state.slot(v)).collect();
        variants.set(slots);
        let comparison = Memo::new(move |_| state.compute_comparison());
        let lab = Memo::new(move |_| state.snapshot());
        AppState {
            comparison,
            lab,
            ..state
        }
    }

    /// The state of the lab opened with the link fragment `fragment` (`""`: defaults),
    /// with a notice when the link was repaired or unreadable.
    pub fn from_fragment(fragment: &str) -> AppState {
        let Loaded { state, notice } = fragment::load(fragment);
        let app = AppState::from_lab(state);
        app.link_notice.set(notice);
        app
    }

    /// A new variant slot with its memos, owned by a child of the app's owner.
    fn slot(&self, variant: Variant) -> VariantSlot {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let owner = self.owner.with_value(Owner::child);
        let variant = owner.with(|| RwSignal::new(variant));
        let memos = owner.with(|| self.variant_memos(variant));
        VariantSlot {
            id,
            variant,
            memos,
            _owner: owner,
        }
    }

    fn variant_memos(&self, variant: RwSignal<Variant>) -> VariantMemos {
        let AppState {
            model,
            projected,
            tokens,
            key_tokens,
            head,
            ..
        } = *self;
        // Only what the problem depends on: renaming a variant does not recompute it.
        let spec = Memo::new(move |_| {
            variant.with(|v| {
                let mut v = v.clone();
                v.name.clear();
                v
            })
        });
        let problem: Memo<Result<Problem, CoreError>> = Memo::new(move |_| {
            projected.with(|p| {
                let p = p.as_ref().map_err(Clone::clone)?;
                model.with(|m| spec.with(|v| key_tokens.with(|t| compute::problem(m, p, v, t))))
            })
        });
        let heads: Vec<Memo<Option<Result<HeadResult, CoreError>>>> = (0..*HEADS_RANGE.end())
            .map(|h| {
                Memo::new(move |_| {
                    problem.with(|p| match p {
                        Err(e) => (h == 0).then(|| Err(e.clone())),
                        Ok(p) => (h < p.heads().len()).then(|| compute::compute_head(p, h)),
                    })
                })
            })
            .collect();
        let labels = Memo::new(move |_| {
            let rows = tokens.with(Tokens::labels);
            let cols = key_tokens.with(|t| spec.with(|v| compute::key_labels(t, v)));
            (rows, cols)
        });
        let figures: Vec<Memo<Option<Heatmap>>> = heads
            .iter()
            .enumerate()
            .map(|(h, &result)| {
                Memo::new(move |_| {
                    if labels.with(|(rows, cols)| rows.is_empty() || cols.is_empty()) {
                        return None;
                    }
                    result.with(|r| {
                        let r = r.as_ref()?.as_ref().ok()?;
                        model.with(|m| {
                            variant.with(|v| {
                                labels.with(|(rows, cols)| {
                                    figure::head_figure(m, v, h, rows, cols, r).ok()
                                })
                            })
                        })
                    })
                })
            })
            .collect();
        let figs = figures.clone();
        let selected = Memo::new(move |_| {
            let h = View::shown_head(head.get(), model.with(|m| m.heads));
            figs.get(h).and_then(|f| f.get())
        });
        let figs = figures.clone();
        let grid = Memo::new(move |_| figs.iter().map_while(|f| f.get()).collect::<Vec<_>>());
        let results = heads.clone();
        let average = Memo::new(move |_| {
            let all: Vec<HeadResult> = results
                .iter()
                .map_while(|r| r.with(|r| r.as_ref().and_then(|r| r.as_ref().ok().cloned())))
                .collect();
            compute::head_average(&all)
        });
        let average_figure = Memo::new(move |_| {
            if labels.with(|(rows, cols)| rows.is_empty() || cols.is_empty()) {
                return None;
            }
            average.with(|a| {
                let a = a.as_ref()?;
                model.with(|m| {
                    variant.with(|v| {
                        labels.with(|(rows, cols)| figure::average_figure(m, v, rows, cols, a).ok())
                    })
                })
            })
        });
        let error = Memo::new(move |_| {
            if tokens.with(Tokens::is_empty) || key_tokens.with(Tokens::is_empty) {
                return None;
            }
            problem.with(|p| p.as_ref().err().map(compute::explain))
        });
        VariantMemos {
            problem,
            heads,
            selected,
            grid,
            average,
            average_figure,
            error,
        }
    }

    /// The whole state as a link carries it.
    pub fn snapshot(&self) -> LabState {
        LabState {
            mode: self.mode.get(),
            text: self.sentence.get(),
            source: self.source.get(),
            model: self.model.get(),
            pad_to: self.pad_to.get(),
            variants: self
                .variants
                .with(|vs| vs.iter().map(|s| s.variant.get()).collect()),
            view: View {
                page: self.page.get(),
                variant: self.shown_variant.get(),
                // The head shown (a head past the count is never written to a link).
                head: self.shown_head(),
                compare: self.compare.get(),
                compare_what: self.compare_what.get(),
            },
        }
    }

    /// Applies an edit of the variant list made on a [`LabState`] (add, duplicate,
    /// remove): the slots follow, the others keep their memos. Returns the edit's error.
    pub fn edit_variants(
        &self,
        edit: impl FnOnce(&mut LabState) -> Result<Option<usize>, String>,
    ) -> Result<(), String> {
        let mut lab = self.lab.get_untracked();
        let removed = edit(&mut lab)?;
        self.variants.update(|slots| {
            if let Some(i) = removed
                && i < slots.len()
            {
                slots.remove(i);
            }
            slots.truncate(lab.variants.len());
            for (slot, v) in slots.iter().zip(&lab.variants) {
                if slot.variant.with_untracked(|s| s != v) {
                    slot.variant.set(v.clone());
                }
            }
            let have = slots.len();
            for v in &lab.variants[have..] {
                slots.push(self.slot(v.clone()));
            }
        });
        self.selected_variant.set(lab.view.variant);
        self.compare.set(lab.view.compare);
        Ok(())
    }

    fn compute_comparison(&self) -> Option<Result<Comparison, String>> {
        let (a, b) = self.compare.get();
        let what = self.compare_what.get();
        self.variants.with(|slots| {
            let (sa, sb) = (slots.get(a)?, slots.get(b)?);
            if a == b {
                return None;
            }
            let head = (what == CompareWhat::Head).then(|| self.shown_head());
            let (fa, fb) = match what {
                CompareWhat::Head => (sa.memos.selected, sb.memos.selected),
                CompareWhat::Average => (sa.memos.average_figure, sb.memos.average_figure),
            };
            if fa.with(Option::is_none) || fb.with(Option::is_none) {
                return Some(Err(
                    "One of the two variants has no figure to compare (see its panel).".into(),
                ));
            }
            let result = match head {
                Some(h) => {
                    let (ra, rb) = (sa.memos.heads.get(h)?, sb.memos.heads.get(h)?);
                    ra.with(|ra| {
                        rb.with(|rb| match (ra, rb) {
                            (Some(Ok(ra)), Some(Ok(rb))) => Some(
                                compute::compare(WeightsRef::from(ra), WeightsRef::from(rb))
                                    .map_err(|e| e.sentence()),
                            ),
                            _ => None,
                        })
                    })
                    .ok_or("The selected head could not be computed.")
                }
                None => sa
                    .memos
                    .average
                    .with(|ra| {
                        sb.memos.average.with(|rb| match (ra, rb) {
                            (Some(ra), Some(rb)) => Some(
                                compute::compare(WeightsRef::from(ra), WeightsRef::from(rb))
                                    .map_err(|e| e.sentence()),
                            ),
                            _ => None,
                        })
                    })
                    .ok_or("The head averages could not be computed."),
            };
            let result = match result {
                Ok(Ok(r)) => r,
                Ok(Err(e)) => return Some(Err(e)),
                Err(e) => return Some(Err(e.to_string())),
            };
            let names = (
                sa.variant.with(|v| v.name.clone()),
                sb.variant.with(|v| v.name.clone()),
            );
            let figure = fa.with(|fa| {
                fb.with(|fb| {
                    let (fa, fb) = (fa.as_ref()?, fb.as_ref()?);
                    sa.variant.with(|va| {
                        sb.variant
                            .with(|vb| Some(figure::difference_figure(va, vb, head, fa, fb)))
                    })
                })
            });
            Some(match figure? {
                Ok(figure) => Ok(Comparison {
                    figure,
                    result,
                    names,
                }),
                Err(e) => Err(e.to_string()),
            })
        })
    }

    /// The head every page shows (the selected one, within the head count).
    pub fn shown_head(&self) -> usize {
        View::shown_head(self.head.get(), self.model.with(|m| m.heads))
    }

    /// The slot of the variant every page shows ([`AppState::shown_variant`]); `None`
    /// only while there is no variant.
    pub fn shown_slot(&self) -> Option<VariantSlot> {
        let i = self.shown_variant.get();
        self.variants.with(|slots| slots.get(i).cloned())
    }
}

/// Creates the app state from the page's URL fragment and provides it to every
/// component below the caller.
pub fn provide_app_state() -> AppState {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let state = AppState::from_fragment(hash.trim_start_matches('#'));
    provide_context(state);
    state
}

/// The app state provided by [`provide_app_state`].
pub fn use_app_state() -> AppState {
    expect_context::<AppState>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_core::attention::AttentionKind;

    fn with_state(f: impl FnOnce(AppState)) {
        let owner = Owner::new();
        owner.with(|| f(AppState::from_lab(LabState::default())));
    }

    #[test]
    fn memos_follow_the_sentence_and_the_head() {
        with_state(|state| {
            assert_eq!(state.tokens.with(Tokens::total), 11);
            assert_eq!(state.notice.get(), None);
            let slots = state.variants.get_untracked();
            assert_eq!(slots.len(), 2);
            let a = slots[0].memos.selected;
            assert_eq!(a.with(|h| h.as_ref().map(Heatmap::n_rows)), Some(11));
            assert!(a.get().unwrap().title().starts_with("A \u{b7} Head 0"));
            assert_eq!(slots[0].memos.grid.with(Vec::len), 4);

            state.sentence.set("   ".into());
            assert!(state.notice.get().unwrap().contains("type a sentence"));
            assert_eq!(a.get(), None);

            state.sentence.set("我爱机器学习".into());
            state.head.set(3);
            assert!(a.get().unwrap().title().starts_with("A \u{b7} Head 3"));
            state.head.set(99);
            assert!(a.get().unwrap().title().starts_with("A \u{b7} Head 3"));
        });
    }

    #[test]
    fn a_knob_changes_its_variant_only() {
        with_state(|state| {
            let slots = state.variants.get_untracked();
            let (a, b) = (slots[0].memos.selected, slots[1].memos.selected);
            let (a0, b0) = (a.get().unwrap(), b.get().unwrap());
            slots[1].variant.update(|v| v.temperature = 0.5);
            assert_eq!(a.get().unwrap(), a0);
            assert_ne!(b.get().unwrap().values(), b0.values());
            let cmp = state.comparison.get().unwrap().unwrap();
            assert!(cmp.result.metrics.max_abs > 0.0);
            assert_eq!(cmp.names, ("A".to_string(), "B".to_string()));
        });
    }

    #[test]
    fn settings_errors_are_sentences_and_kinds_reach_the_problem() {
        with_state(|state| {
            let slots = state.variants.get_untracked();
            slots[0].variant.update(|v| {
                v.attention = AttentionKind::Linformer;
                v.linformer_k = 3;
            });
            assert_eq!(
                slots[0]
                    .memos
                    .selected
                    .with(|h| h.as_ref().map(Heatmap::n_cols)),
                Some(3)
            );
            state.model.update(|m| m.heads = 5);
            let msg = state.notice.get().expect("a notice");
            assert!(msg.starts_with("These settings cannot be used:"), "{msg}");
        });
    }

    #[test]
    fn variants_are_added_and_removed_and_the_link_follows() {
        with_state(|state| {
            state
                .edit_variants(|l| l.add_variant().map(|_| None))
                .unwrap();
            assert_eq!(state.variants.with_untracked(Vec::len), 3);
            assert_eq!(state.lab.get().variants[2].name, "C");
            let b_id = state.variants.with_untracked(|s| s[1].id);
            state
                .edit_variants(|l| l.remove_variant(0).map(|_| Some(0)))
                .unwrap();
            assert_eq!(state.variants.with_untracked(|s| s[0].id), b_id);
            state.head.set(9);
            assert_eq!(
                state.lab.get().view.head,
                3,
                "the head shown, not past the count"
            );
            state.compare_what.set(CompareWhat::Average);
            let link = fragment::encode(&state.lab.get());
            let back = AppState::from_fragment(&link);
            assert_eq!(back.lab.get(), state.lab.get());
            assert_eq!(back.compare_what.get_untracked(), CompareWhat::Average);
        });
    }

    #[test]
    fn long_text_is_cut_at_512_tokens_and_says_so() {
        with_state(|state| {
            state.sentence.set("word ".repeat(600));
            let msg = state.notice.get().expect("a notice");
            assert!(
                msg.contains("600 tokens") && msg.contains("first 512"),
                "{msg}"
            );
        });
    }

    /// Links that exercise every part of a figure: masks and empty rows, padding,
    /// cross-attention, Linformer's projected keys, each score and kind.
    fn links() -> Vec<String> {
        use attnlab_core::score::ScoreFunction;
        let mut links = vec![fragment::encode(&LabState::default())];
        let mut cross = LabState::default();
        cross.set_mode(Mode::Cross);
        cross.model.heads = 2;
        cross.variants[1].masks.causal = true;
        cross.view.head = 1;
        cross.view.compare_what = CompareWhat::Average;
        links.push(fragment::encode(&cross));
        let mut masked = LabState {
            text: "我爱机器学习 and 🙂 too".into(),
            ..LabState::default()
        };
        masked.pad_to = Some(12);
        masked.variants[0].masks.padding = true;
        masked.variants[0].masks.window = Some(1);
        masked.variants[0].temperature = 0.3;
        masked.variants[1].score = ScoreFunction::Cosine;
        masked.variants[1].masks.strided = Some(2);
        masked.view.variant = 1;
        masked.view.head = 2;
        links.push(fragment::encode(&masked));
        let mut kinds = LabState::default();
        kinds.add_variant().unwrap();
        kinds.variants[0].attention = AttentionKind::Elu1;
        kinds.variants[1].attention = AttentionKind::Linformer;
        kinds.variants[2].score = ScoreFunction::Additive;
        kinds.view.compare = (0, 2);
        links.push(fragment::encode(&kinds));
        links
    }

    #[test]
    fn the_app_draws_the_figures_the_lab_builds_for_a_link() {
        use attnlab_lab::compute::{Pipeline, Which};
        use attnlab_lab::figure::FigureRequest;
        for link in links() {
            let owner = Owner::new();
            owner.with(|| {
                let app = AppState::from_fragment(&link);
                let lab = app.lab.get();
                let run = Pipeline::new(&lab);
                let head = app.shown_head();
                let slots = app.variants.get_untracked();
                for (i, slot) in slots.iter().enumerate() {
                    let want = run.figure(FigureRequest::Head { variant: i, head }).ok();
                    assert_eq!(slot.memos.selected.get(), want, "{link}: variant {i}");
                    let want = run.figure(FigureRequest::Average { variant: i }).ok();
                    assert_eq!(slot.memos.average_figure.get(), want, "{link}: average {i}");
                    for (h, fig) in slot.memos.grid.get().into_iter().enumerate() {
                        let want = run.figure(FigureRequest::Head {
                            variant: i,
                            head: h,
                        });
                        assert_eq!(Ok(fig), want, "{link}: variant {i}, head {h}");
                    }
                }
                let (a, b) = lab.view.compare;
                let which = match lab.view.compare_what {
                    CompareWhat::Head => Which::Head(head),
                    CompareWhat::Average => Which::Average,
                };
                let want = run.figure(FigureRequest::Difference { a, b, which });
                match (app.comparison.get(), want) {
                    (Some(Ok(got)), Ok(want)) => assert_eq!(got.figure, want, "{link}"),
                    (Some(Err(got)), Err(want)) => assert_eq!(got, want.sentence(), "{link}"),
                    (got, want) => panic!("{link}: the app has {got:?}, the lab {want:?}"),
                }
            });
        }
    }

    #[test]
    fn a_tampered_link_keeps_the_text_and_says_so() {
        let owner = Owner::new();
        owner.with(|| {
            let state = AppState::from_fragment("v1.!!!");
            assert!(state.link_notice.get().is_some());
            assert_eq!(state.variants.with_untracked(Vec::len), 2);
        });
    }
}
