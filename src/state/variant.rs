//! One variant's memos (its problem, heads, figures, average) and the factory that makes
//! them under the variant's own owner.

use attnlab_core::CoreError;
use attnlab_core::attention::{HeadResult, Problem};
use attnlab_core::model::Projected;
use attnlab_lab::compute::{self, HeadAverage};
use attnlab_lab::figure;
use attnlab_lab::i18n::Lang;
use attnlab_lab::tokens::Tokens;
use attnlab_lab::{Masks, ModelConfig, Variant, View};
use attnlab_plot::{Heatmap, Labels};
use leptos::prelude::*;

/// The memos of one variant: its problem, each head, each head's figure, the grid and
/// the head average. Created once per variant, under the variant's own owner, so
/// removing a variant disposes of them.
#[derive(Debug, Clone)]
pub struct VariantMemos {
    /// The variant's problem: its heads' Q, K, V, the mask and the spec.
    pub problem: Memo<Result<Problem, CoreError>>,
    /// Every head of the variant, or why they cannot be computed (the problem's error,
    /// or a head's). [`VariantMemos::error`] says it as a sentence.
    pub heads: Memo<Result<Vec<HeadResult>, CoreError>>,
    /// The figure of the selected head.
    pub selected: Memo<Option<Heatmap>>,
    /// The figures of every head, for the grid.
    pub grid: Memo<Vec<Heatmap>>,
    /// The mean of the heads' weights.
    pub average: Memo<Option<HeadAverage>>,
    /// The figure of the head average.
    pub average_figure: Memo<Option<Heatmap>>,
    /// Why this variant cannot be computed, as one sentence: the one path of a variant's
    /// errors to its panel (settings every variant shares go to [`super::AppState::notice`]).
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

/// What every variant's memos read (the shared work, the selected head) and where new
/// variants' memos are owned.
#[derive(Debug, Clone, Copy)]
pub(super) struct VariantFactory {
    pub(super) model: Memo<ModelConfig>,
    pub(super) projected: Memo<Result<Projected, CoreError>>,
    pub(super) tokens: Memo<Tokens>,
    pub(super) key_tokens: Memo<Tokens>,
    pub(super) head: RwSignal<usize>,
    pub(super) lang: RwSignal<Lang>,
    pub(super) next_id: StoredValue<u64>,
    pub(super) owner: StoredValue<Owner>,
}

impl VariantFactory {
    /// A new variant slot with its memos, owned by a child of the app's owner.
    pub(super) fn slot(self, variant: Variant) -> VariantSlot {
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

    fn variant_memos(self, variant: RwSignal<Variant>) -> VariantMemos {
        let VariantFactory {
            model,
            projected,
            tokens,
            key_tokens,
            head,
            lang,
            ..
        } = self;
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
        // What the raw scores depend on (the heads' Q and K, the score function, the kind,
        // Linformer's k): a new number each time one of them changes. A change of τ or of
        // the masks keeps it, and the heads are computed from the last result's raw
        // scores instead of computing Q·Kᵀ again.
        let scoring = Memo::new(move |_| {
            variant.with(|v| Variant {
                name: String::new(),
                temperature: 1.0,
                masks: Masks::default(),
                ..v.clone()
            })
        });
        let generation = StoredValue::new(0u64);
        let score_inputs = Memo::new(move |_| {
            projected.track();
            key_tokens.track();
            model.track();
            scoring.track();
            generation.update_value(|g| *g += 1);
            generation.get_value()
        });
        let scored_with = StoredValue::new(None::<u64>);
        let heads = Memo::new(
            move |previous: Option<&Result<Vec<HeadResult>, CoreError>>| {
                let inputs = score_inputs.get();
                let kept = previous
                    .and_then(|r| r.as_ref().ok())
                    .filter(|_| scored_with.get_value() == Some(inputs));
                let result = problem.with(|p| {
                    let p = p.as_ref().map_err(Clone::clone)?;
                    match kept {
                        Some(heads) => {
                            let raw: Vec<_> = heads.iter().map(|h| h.scores.as_ref()).collect();
                            compute::compute_heads_scored(p, &raw)
                        }
                        None => compute::compute_heads(p),
                    }
                });
                scored_with.set_value(result.is_ok().then_some(inputs));
                result
            },
        );
        // Shared by every head's figure (a reference count each, not n + m strings).
        let labels = Memo::new(move |_| {
            let rows = Labels::from(tokens.with(Tokens::labels));
            let cols = Labels::from(key_tokens.with(|t| spec.with(|v| compute::key_labels(t, v))));
            (rows, cols)
        });
        // Every head's figure (the grid); none while there is nothing to label.
        let grid = Memo::new(move |_| {
            labels.with(|(rows, cols)| {
                if rows.is_empty() || cols.is_empty() {
                    return Vec::new();
                }
                let lang = lang.get();
                heads.with(|r| {
                    let Ok(results) = r else { return Vec::new() };
                    model.with(|m| {
                        variant.with(|v| {
                            results
                                .iter()
                                .enumerate()
                                .map_while(|(h, r)| {
                                    figure::head_figure(m, v, h, rows, cols, r, lang).ok()
                                })
                                .collect()
                        })
                    })
                })
            })
        });
        let selected = Memo::new(move |_| {
            let h = View::shown_head(head.get(), model.with(|m| m.heads));
            grid.with(|g| g.get(h).cloned())
        });
        let average = Memo::new(move |_| {
            heads.with(|r| r.as_ref().ok().and_then(|all| compute::head_average(all)))
        });
        let average_figure = Memo::new(move |_| {
            if labels.with(|(rows, cols)| rows.is_empty() || cols.is_empty()) {
                return None;
            }
            let lang = lang.get();
            average.with(|a| {
                let a = a.as_ref()?;
                model.with(|m| {
                    variant.with(|v| {
                        labels.with(|(rows, cols)| {
                            figure::average_figure(m, v, rows, cols, a, lang).ok()
                        })
                    })
                })
            })
        });
        let error = Memo::new(move |_| {
            if tokens.with(Tokens::is_empty) || key_tokens.with(Tokens::is_empty) {
                return None;
            }
            let lang = lang.get();
            heads.with(|r| r.as_ref().err().map(|e| compute::explain_in(e, lang)))
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
}
