//! Everything the app computes from the state, in one module for the lab and for the
//! real model's page: the lab's pipeline and figures ([`Derived`]: tokens → encoded →
//! projected, each variant's slot with its problem, heads and figures, the comparison)
//! and the model page's figures ([`ModelFigures`]). Views read these memos; they compute
//! no figure of their own.

use attnlab_core::CoreError;
use attnlab_core::model::{Encoded, Projected};
use attnlab_formats::tensors::Brought;
use attnlab_i18n::{Lang, Tr, msg};
use attnlab_lab::compute::{self, VariantComparison, WeightsRef};
use attnlab_lab::figure;
use attnlab_lab::tokens::{self, Tokens};
use attnlab_lab::{CompareWhat, LabState, ModelConfig, View};
use attnlab_plot::Heatmap;
use leptos::prelude::*;
use reactive_stores::Store;
use std::sync::Arc;

use super::store::{LabFields, ViewFields};

mod measured;
mod model;
mod variant;

pub use measured::use_measured;
pub use model::{ModelFigures, example_pair};
pub(in crate::state) use variant::VariantFactory;
pub use variant::{VariantMemos, VariantSlot};

/// The lab's memos: each built once from the ones before it, so a change recomputes only
/// what it touches. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct Derived {
    /// The settings every variant computes with: the lab's model, or, on brought
    /// tensors, the seeded draws that fit their heads ([`Brought::model`]).
    pub used_model: Memo<ModelConfig>,
    /// The query tokens (the sentence, or the target).
    pub tokens: Memo<Tokens>,
    /// The key tokens (the source in cross mode, else the query tokens).
    pub key_tokens: Memo<Tokens>,
    /// The queries' input rows: word vectors, positions and `X` (shared by every variant).
    pub encoded: Memo<Result<Encoded, CoreError>>,
    /// Every head's Q, K, V before a variant touches them (the projections of `X`, or
    /// the brought heads): shared by every variant.
    pub projected: Memo<Result<Projected, CoreError>>,
    /// The sentence above the figures, if any (nothing typed, text cut, settings refused).
    pub notice: Memo<Option<String>>,
    /// The variants' memos, side by side, one slot per variant of the lab.
    pub variants: RwSignal<Vec<VariantSlot>>,
    /// The variant every page shows: the selected one, within the variants there are.
    pub shown_variant: Memo<usize>,
    /// The comparison of the two compared variants.
    pub comparison: Memo<Compared>,
    /// Makes the slots of new variants.
    pub(in crate::state) factory: VariantFactory,
}

impl Derived {
    /// The memos of the lab's state `lab`, in `lang`, on the tensors `brought` when there
    /// are some; the variants' memos are owned by children of the current owner.
    pub fn new(
        lab: Store<LabState>,
        lang: RwSignal<Lang>,
        brought: RwSignal<Option<Arc<Brought>>>,
    ) -> Derived {
        let owner = Owner::current().unwrap_or_default();
        let (mode, text, source, model, pad_to, view) = (
            lab.mode(),
            lab.text(),
            lab.source(),
            lab.model(),
            lab.pad_to(),
            lab.view(),
        );
        let used_model = Memo::new(move |_| {
            brought.with(|b| match b {
                Some(b) => b.model(model.with(|m| m.seed)),
                None => model.get(),
            })
        });
        // The typed text's tokens, and the tokens every view labels (the brought ones).
        let typed = Memo::new(move |_| {
            let (mode, pad_to) = (mode.get(), pad_to.get());
            text.with(|s| tokens::query_tokens(mode, s, pad_to))
        });
        let typed_keys = Memo::new(move |_| {
            let (mode, pad_to) = (mode.get(), pad_to.get());
            source.with(|s| tokens::key_tokens(mode, s, pad_to))
        });
        let tokens = Memo::new(move |_| {
            brought.with(|b| match b {
                Some(b) => Tokens::pretokenized(&b.queries),
                None => typed.get(),
            })
        });
        let cross_keys = Memo::new(move |_| {
            brought.with(|b| match b {
                Some(b) => Some(Tokens::pretokenized(&b.keys)),
                None => typed_keys.get(),
            })
        });
        let key_tokens = Memo::new(move |_| cross_keys.get().unwrap_or_else(|| tokens.get()));
        // The model and tokens of the last encoding: after an edit, unchanged tokens keep
        // their vectors (`compute::encode_after`).
        let encoded_from = StoredValue::new(None::<(ModelConfig, Tokens)>);
        let encoded: Memo<Result<Encoded, CoreError>> =
            Memo::new(move |last: Option<&Result<Encoded, CoreError>>| {
                typed.with(|t| {
                    model.with(|m| {
                        let from = encoded_from.get_value();
                        let before = from
                            .as_ref()
                            .zip(last.and_then(|e| e.as_ref().ok()))
                            .map(|((m0, t0), e0)| (m0, t0, e0));
                        let e = compute::encode_after(m, t, before);
                        encoded_from.set_value(e.is_ok().then(|| (*m, t.clone())));
                        e
                    })
                })
            });
        let encoded_keys: Memo<Option<Result<Encoded, CoreError>>> = Memo::new(move |_| {
            typed_keys.with(|k| k.as_ref().map(|t| model.with(|m| compute::encode(m, t))))
        });
        // The seeded W^Q, W^K, W^V, W^O: drawn when the model changes, not per keystroke.
        let weights = Memo::new(move |_| model.with(|m| m.projection_weights().ok().flatten()));
        // The model and inputs of the last projection: after an edit, the rows of
        // unchanged tokens keep their projections (`compute::project_after`).
        let projected_from = StoredValue::new(None::<compute::ProjectedFrom>);
        let projected: Memo<Result<Projected, CoreError>> =
            Memo::new(move |last: Option<&Result<Projected, CoreError>>| {
                if let Some(b) = brought.get() {
                    projected_from.set_value(None);
                    return Ok(b.projected.clone());
                }
                let from = projected_from.get_value();
                let before = from.as_ref().zip(last.and_then(|p| p.as_ref().ok()));
                let result = encoded.with(|x| {
                    let x = x.as_ref().map_err(Clone::clone)?;
                    weights.with(|w| {
                        let w = w.as_ref();
                        encoded_keys.with(|k| {
                            let k = match k {
                                None => None,
                                Some(Err(e)) => return Err(e.clone()),
                                Some(Ok(k)) => Some(k),
                            };
                            model.with(|m| {
                                let p = compute::project_after(m, w, x, k, before)?;
                                projected_from
                                    .set_value(Some(compute::ProjectedFrom::new(m, x, k)));
                                Ok(p)
                            })
                        })
                    })
                });
                if result.is_err() {
                    projected_from.set_value(None);
                }
                result
            });
        let notice = Memo::new(move |_| {
            if brought.with(Option::is_some) {
                return None;
            }
            tokens.with(|q| {
                cross_keys.with(|k| {
                    projected.with(|p| tokens::notice(q, k.as_ref(), p.as_ref().err(), lang.get()))
                })
            })
        });

        let variants = RwSignal::new(Vec::new());
        let factory = VariantFactory {
            lab,
            model: used_model,
            projected,
            tokens,
            key_tokens,
            brought,
            lang,
            next_id: StoredValue::new(0),
            owner: StoredValue::new(owner),
        };
        let count = lab.variants().with_untracked(Vec::len);
        variants.set((0..count).map(|i| factory.slot(i)).collect());
        let shown_variant =
            Memo::new(move |_| View::shown_variant(view.variant().get(), variants.with(Vec::len)));
        let comparison = Memo::new(move |last: Option<&Compared>| {
            // While a compared variant's heads are being computed, the last comparison
            // stays: one variant's new heads against the other's old ones would be
            // computed, drawn for a moment and thrown away.
            let (a, b) = view.compare().get();
            let busy = variants.with(|slots| {
                [a, b]
                    .iter()
                    .any(|&i| slots.get(i).is_some_and(|s| s.memos.busy.get()))
            });
            if let (true, Some(last)) = (busy, last) {
                return last.clone();
            }
            let head = match view.compare_what().get() {
                CompareWhat::Head => Some(View::shown_head(
                    view.head().get(),
                    used_model.with(|m| m.heads),
                )),
                CompareWhat::Average => None,
            };
            variants.with(|slots| compare_slots(slots, (a, b), head, lang.get()))
        });
        Derived {
            used_model,
            tokens,
            key_tokens,
            encoded,
            projected,
            notice,
            variants,
            shown_variant,
            comparison,
            factory,
        }
    }
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

/// What the comparison area shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Compared {
    /// Nothing to compare: a variant compared with itself, or a variant that is gone.
    Nothing,
    /// Why the two variants cannot be compared, as one sentence.
    Refused(String),
    /// The difference and its metrics.
    Shown(Box<Comparison>),
}

/// Why a comparison is refused when either variant has no figure.
const NO_FIGURE: Tr = msg::lab::COMPARE_REFUSED_NO_FIGURE;

/// Variants `a` and `b` of `slots` compared on head `head`, or on their head averages
/// (`None`), in `lang`.
fn compare_slots(
    slots: &[VariantSlot],
    (a, b): (usize, usize),
    head: Option<usize>,
    lang: Lang,
) -> Compared {
    let (Some(sa), Some(sb)) = (slots.get(a), slots.get(b)) else {
        return Compared::Nothing;
    };
    if a == b {
        return Compared::Nothing;
    }
    let (fa, fb) = match head {
        Some(_) => (sa.memos.selected, sb.memos.selected),
        None => (sa.memos.average_figure, sb.memos.average_figure),
    };
    if fa.with(Option::is_none) || fb.with(Option::is_none) {
        return Compared::Refused(NO_FIGURE.get(lang).into());
    }
    let result = match head {
        Some(h) => sa
            .memos
            .computed
            .with(|ca| {
                sb.memos.computed.with(|cb| {
                    let (ra, rb) = (
                        ca.heads.as_ref().ok()?.get(h)?,
                        cb.heads.as_ref().ok()?.get(h)?,
                    );
                    Some(compute::compare(WeightsRef::from(ra), WeightsRef::from(rb)))
                })
            })
            .ok_or(msg::lab::COMPARE_REFUSED_HEAD),
        None => sa
            .memos
            .average
            .with(|ra| {
                sb.memos.average.with(|rb| {
                    let (ra, rb) = (ra.as_ref()?, rb.as_ref()?);
                    Some(compute::compare(WeightsRef::from(ra), WeightsRef::from(rb)))
                })
            })
            .ok_or(msg::lab::COMPARE_REFUSED_AVERAGE),
    };
    let result = match result {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Compared::Refused(e.text(lang)),
        Err(e) => return Compared::Refused(e.get(lang).into()),
    };
    let figure = fa.with(|fa| {
        fb.with(|fb| {
            let (fa, fb) = (fa.as_ref()?, fb.as_ref()?);
            sa.variant.with(|va| {
                sb.variant
                    .with(|vb| Some(figure::difference_figure(va, vb, head, fa, fb, lang)))
            })
        })
    });
    match figure {
        Some(Ok(figure)) => Compared::Shown(Box::new(Comparison {
            figure,
            result,
            names: (
                sa.variant.with(|v| v.name.clone()),
                sb.variant.with(|v| v.name.clone()),
            ),
        })),
        Some(Err(e)) => Compared::Refused(e.to_string()),
        None => Compared::Refused(NO_FIGURE.get(lang).into()),
    }
}
