//! One variant's memos (its problem, heads, figures, average) and the factory that makes
//! them under the variant's own owner.

use attnlab_core::CoreError;
use attnlab_core::attention::Problem;
use attnlab_core::model::Projected;
use attnlab_i18n::Lang;
use attnlab_lab::compute::{self, HeadAverage};
use attnlab_lab::figure;
use attnlab_lab::tokens::Tokens;
use attnlab_lab::{LabState, Masks, ModelConfig, Variant, View};
use attnlab_plot::{Heatmap, Labels};
use leptos::prelude::*;
use reactive_stores::Store;

use crate::state::heads_job::{Shared, heads_of};
use crate::state::store::{LabFields, ViewFields};

/// The memos of one variant: its problem, each head, each head's figure, the grid and
/// the head average. Created once per variant, under the variant's own owner, so
/// removing a variant disposes of them.
#[derive(Debug, Clone)]
pub struct VariantMemos {
    /// The variant's problem: its heads' Q, K, V, the mask and the spec.
    pub problem: Memo<Result<Problem, CoreError>>,
    /// The variant's last computed heads, with the problem and labels they came from:
    /// every figure of the variant is drawn from it. Its heads are an error when they
    /// cannot be computed (the problem's error, or a head's); [`VariantMemos::error`] says
    /// it as a sentence. A large variant's heads are computed a few per task, and this
    /// keeps the last result until the newest request's lands.
    pub computed: Signal<Shared>,
    /// Whether a newer request's heads are being computed (a few per task) while
    /// [`VariantMemos::computed`] shows the last ones.
    pub busy: Signal<bool>,
    /// The figure of the selected head.
    pub selected: Memo<Option<Heatmap>>,
    /// The figures of every head, for the grid.
    pub grid: Memo<Vec<Heatmap>>,
    /// The mean of the heads' weights.
    pub average: Memo<Option<HeadAverage>>,
    /// The figure of the head average.
    pub average_figure: Memo<Option<Heatmap>>,
    /// Why this variant cannot be computed, as one sentence: the one path of a variant's
    /// errors to its panel (settings every variant shares go to [`super::Derived::notice`]).
    pub error: Memo<Option<String>>,
}

/// One variant on screen: a stable id (for keyed lists), its settings and its memos.
#[derive(Debug, Clone)]
pub struct VariantSlot {
    /// Stable across renames and removals of other variants.
    pub id: u64,
    /// The variant's place among the lab's variants. A removed variant's slot keeps
    /// its last place: nothing that read the slot is woken by its removal, so a view
    /// still on the page for a moment never reads its disposed memos.
    pub index: ReadSignal<usize>,
    /// The variant's settings, as the lab's state holds them: the first memo of the
    /// variant, so a change of another variant stops here.
    pub variant: Memo<Variant>,
    /// What is computed from them.
    pub memos: VariantMemos,
    place: WriteSignal<usize>,
    /// Owns the memos: dropped (and with it the memos) when the variant is removed.
    _owner: Owner,
}

impl VariantSlot {
    /// Moves the slot to place `at` among the variants.
    pub(in crate::state) fn place(&self, at: usize) {
        if self.index.get_untracked() != at {
            self.place.set(at);
        }
    }
}

/// What every variant's memos read (the lab's state, the shared work) and where new
/// variants' memos are owned.
#[derive(Debug, Clone, Copy)]
pub(in crate::state) struct VariantFactory {
    pub(in crate::state) lab: Store<LabState>,
    pub(in crate::state) model: Memo<ModelConfig>,
    pub(in crate::state) projected: Memo<Result<Projected, CoreError>>,
    pub(in crate::state) tokens: Memo<Tokens>,
    pub(in crate::state) key_tokens: Memo<Tokens>,
    pub(in crate::state) brought:
        RwSignal<Option<std::sync::Arc<attnlab_formats::tensors::Brought>>>,
    pub(in crate::state) lang: RwSignal<Lang>,
    pub(in crate::state) next_id: StoredValue<u64>,
    pub(in crate::state) owner: StoredValue<Owner>,
}

impl VariantFactory {
    /// A new slot for the lab's variant `i`, with its memos, owned by a child of the
    /// app's owner.
    pub(in crate::state) fn slot(self, i: usize) -> VariantSlot {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let owner = self.owner.with_value(Owner::child);
        let lab = self.lab;
        let first = lab.variants().with_untracked(|vs| vs[i].clone());
        let (index, place) = owner.with(|| signal(i));
        let variant = owner.with(|| {
            Memo::new(move |last: Option<&Variant>| {
                // Past the end, the variant was dropped with a link's fewer variants: the
                // slot keeps its settings until it goes.
                let i = index.get();
                lab.variants()
                    .with(|vs| vs.get(i).cloned())
                    .or_else(|| last.cloned())
                    .unwrap_or_else(|| first.clone())
            })
        });
        let memos = owner.with(|| self.variant_memos(variant));
        VariantSlot {
            id,
            index,
            variant,
            memos,
            place,
            _owner: owner,
        }
    }

    fn variant_memos(self, variant: Memo<Variant>) -> VariantMemos {
        let VariantFactory {
            lab,
            model,
            projected,
            tokens,
            key_tokens,
            brought,
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
                // Brought heads bring differential attention's second queries and keys
                // or have none; the toy model's are drawn.
                let problem = match brought.with(Option::is_some) {
                    true => compute::problem_brought,
                    false => compute::problem,
                };
                model.with(|m| spec.with(|v| key_tokens.with(|t| problem(m, p, v, t))))
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
            // Read, not only tracked: a memo tracked before its first computation would
            // count that computation as a change, and number the same inputs twice.
            projected.with(|_| ());
            key_tokens.with(|_| ());
            model.with(|_| ());
            scoring.with(|_| ());
            generation.update_value(|g| *g += 1);
            generation.get_value()
        });
        // Shared by every head's figure (a reference count each, not n + m strings).
        let labels = Memo::new(move |_| {
            let rows = Labels::from(tokens.with(Tokens::labels));
            let cols = Labels::from(key_tokens.with(|t| spec.with(|v| compute::key_labels(t, v))));
            (rows, cols)
        });
        let (computed, busy) = heads_of(problem, labels, score_inputs);
        // Every head's figure (the grid); none while there is nothing to label. The
        // titles follow the variant's live settings (a rename shows at once).
        let grid = Memo::new(move |_| {
            let lang = lang.get();
            computed.with(|c| {
                let (rows, cols) = &c.labels;
                if rows.is_empty() || cols.is_empty() {
                    return Vec::new();
                }
                let Ok(results) = &c.heads else {
                    return Vec::new();
                };
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
        });
        let selected = Memo::new(move |_| {
            let h = View::shown_head(lab.view().head().get(), model.with(|m| m.heads));
            grid.with(|g| g.get(h).cloned())
        });
        let average = Memo::new(move |_| {
            computed.with(|c| {
                c.heads
                    .as_ref()
                    .ok()
                    .and_then(|all| compute::head_average(all))
            })
        });
        let average_figure = Memo::new(move |_| {
            let lang = lang.get();
            average.with(|a| {
                let a = a.as_ref()?;
                computed.with(|c| {
                    let (rows, cols) = &c.labels;
                    if rows.is_empty() || cols.is_empty() {
                        return None;
                    }
                    model.with(|m| {
                        variant.with(|v| figure::average_figure(m, v, rows, cols, a, lang).ok())
                    })
                })
            })
        });
        let error = Memo::new(move |_| {
            if tokens.with(Tokens::is_empty) || key_tokens.with(Tokens::is_empty) {
                return None;
            }
            let lang = lang.get();
            computed.with(|c| {
                c.heads
                    .as_ref()
                    .err()
                    .map(|e| attnlab_lab::explain::explain_in(e, lang))
            })
        });
        VariantMemos {
            problem,
            computed,
            busy,
            selected,
            grid,
            average,
            average_figure,
            error,
        }
    }
}
