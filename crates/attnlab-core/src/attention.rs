//! Attention over given Q, K, V (docs/maths.md §4–§7): a validated [`Problem`] of one or more
//! heads, computed into weights, outputs and per-row diagnostics.
//!
//! The inputs can come from anywhere: the app's seeded model ([`crate::model`]), a JSON
//! file exported from PyTorch, or a pretrained model.

use ndarray::{ArcArray2, Array2, Axis, concatenate};

use crate::error::{CoreError, Expected, Invalid, Needs, Result};
pub use crate::kind::AttentionKind;
use crate::linear;
use crate::logits::LogitSteps;
use crate::mask::Mask;
use crate::metrics;
use crate::score::{self, ScoreFunction, ScoreParams};
use crate::softmax;
pub use crate::spec::{AttentionSpec, Computation, DEFAULT_LAMBDA, HeadInput, LinformerParams};

mod checks;
mod modern;
use checks::{
    check_finite, check_shape, finite_or, finite_scaled_or, standard, validate_score_params,
};

/// One head's result.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadResult {
    /// `n × m` weights (`n × k` for Linformer; the implied matrix `Â` for linear kinds).
    pub weights: ArcArray2<f32>,
    /// `n × d_v`; `0 × 0` from [`Problem::compute_head_weights`] for the kinds that form
    /// it from their weights (softmax, Linformer).
    pub output: Array2<f32>,
    /// Raw scores before temperature and normalisation: the score function (softmax),
    /// `qᵀk'/√d_k` (Linformer), `φ(q)ᵀφ(k)` (kernel kinds); `None` for efficient.
    pub scores: Option<ArcArray2<f32>>,
    /// The mask applied (all-true `n × k` for Linformer).
    pub mask: Mask,
    /// `H_i = −Σ_j a_ij ln a_ij` (nats); empty for the kinds whose rows are not
    /// distributions ([`AttentionKind::rows_are_distributions`]).
    pub row_entropy: Vec<f32>,
    /// `H_i / ln(#allowed_i)` (0 where fewer than two keys are allowed); empty as
    /// `row_entropy`.
    pub row_entropy_normalised: Vec<f32>,
    /// Rows with no allowed key: all-zero weights and output.
    pub empty_rows: Vec<usize>,
    /// Which algorithm produced the output.
    pub computation: Computation,
    /// Each row's sum of weights (1 for a distribution; anything for the kinds whose rows
    /// are not, [`AttentionKind::rows_are_distributions`]; 0 for an empty row).
    pub row_sum: Vec<f32>,
}

impl HeadResult {
    /// The un-normalised similarity matrix of a head: `exp(logits − max logit)` on allowed
    /// cells for softmax and Linformer (shifted by the global maximum so it cannot overflow;
    /// this scales every singular value by the same factor), `φ(Q)φ(K)ᵀ` on allowed cells for
    /// kernel variants, and `softmax_row(Q) softmax_col(K)ᵀ` for efficient attention.
    /// The logits here are `raw / τ`: a spec's softcap and ALiBi bias are left out (the
    /// lab, its one reader, sets neither).
    pub fn unnormalised_similarity(&self, spec: &AttentionSpec) -> Array2<f32> {
        match (spec.attention, &self.scores) {
            (AttentionKind::Softmax | AttentionKind::Linformer, Some(raw)) => {
                let logits = raw.mapv(|s| s / spec.temperature);
                let allowed = self.mask.allowed();
                let max = softmax::masked_max(&logits, allowed);
                let mut sim = Array2::zeros(logits.dim());
                for ((s, &l), &a) in sim.iter_mut().zip(&logits).zip(allowed) {
                    if a {
                        *s = (l - max).exp();
                    }
                }
                sim
            }
            (_, Some(sim)) => sim.to_owned(),
            (_, None) => self.weights.to_owned(),
        }
    }
}

/// The result of a whole problem.
#[derive(Debug, Clone, PartialEq)]
pub struct AttentionResult {
    /// Per head.
    pub heads: Vec<HeadResult>,
    /// `Concat(head outputs)`, times `W^O` when given: `n × d_out`.
    pub output: Array2<f32>,
}

/// A validated multi-head attention problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    heads: Vec<HeadInput>,
    spec: AttentionSpec,
    w_o: Option<Array2<f32>>,
    mask: Mask,
    /// ALiBi's slope per head, resolved from [`AttentionSpec::alibi`].
    alibi_slopes: Option<Vec<f32>>,
}

impl Problem {
    /// Validates shapes (all heads share `n` and `m`; `k` has the width of `q`; `v` has
    /// the rows of `k`; parameters fit `d_k` and `m`), finiteness, the temperature and the
    /// mask, once. Kernels then take valid input.
    pub fn new(
        mut heads: Vec<HeadInput>,
        spec: AttentionSpec,
        mut w_o: Option<Array2<f32>>,
    ) -> Result<Problem> {
        if heads.is_empty() {
            return Err(CoreError::NoHeads);
        }
        spec.validate()?;
        modern::validate_spec(&spec)?;
        let (n, m) = (heads[0].q.nrows(), heads[0].k.nrows());
        let mut concat_width = 0;
        for (h, head) in heads.iter_mut().enumerate() {
            let hd = Some(h);
            let d_k = head.q.ncols();
            check_shape(hd, "q", &head.q, Some(n), None, Expected::QueryRows { n })?;
            let keys = Expected::Keys { m, d_k };
            check_shape(hd, "k", &head.k, Some(m), Some(d_k), keys)?;
            check_shape(hd, "v", &head.v, Some(m), None, Expected::ValueRows { m })?;
            check_finite(hd, "q", &head.q)?;
            check_finite(hd, "k", &head.k)?;
            check_finite(hd, "v", &head.v)?;
            concat_width += head.v.ncols();
            if spec.attention.uses_score_function() {
                validate_score_params(h, spec.score, d_k, &mut head.score_params)?;
            }
            if spec.attention == AttentionKind::Linformer {
                let Some(lin) = head.linformer.as_mut() else {
                    return Err(CoreError::MissingParams {
                        head: h,
                        field: "linformer",
                        needs: Needs::Linformer,
                    });
                };
                let kp = lin.e.nrows();
                if kp == 0 {
                    return Err(CoreError::InvalidSetting {
                        field: "linformer.e",
                        reason: Invalid::LinformerKeys,
                    });
                }
                let e = Expected::LinformerE { m };
                check_shape(hd, "linformer.e", &lin.e, None, Some(m), e)?;
                let f = Expected::LinformerF { k: kp, m };
                check_shape(hd, "linformer.f", &lin.f, Some(kp), Some(m), f)?;
                check_finite(hd, "linformer.e", &lin.e)?;
                check_finite(hd, "linformer.f", &lin.f)?;
                standard(&mut lin.e);
                standard(&mut lin.f);
            }
            modern::validate_head(h, &spec, head, n, m)?;
            standard(&mut head.q);
            standard(&mut head.k);
            standard(&mut head.v);
        }
        if let Some(w) = w_o.as_mut() {
            let rows = Expected::OutputRows {
                width: concat_width,
            };
            check_shape(None, "w_o", w, Some(concat_width), None, rows)?;
            check_finite(None, "w_o", w)?;
            standard(w);
        }
        spec.mask.validate(n, m)?;
        if let Some(rope) = &spec.rope {
            crate::logits::turn_heads(rope, &mut heads, n, m)?;
        }
        let alibi_slopes = spec
            .alibi
            .as_ref()
            .map(|a| a.slopes(heads.len()))
            .transpose()?;
        let mask = spec.mask.build(n, m);
        Ok(Problem {
            heads,
            spec,
            w_o,
            mask,
            alibi_slopes,
        })
    }

    /// What turns head `h`'s raw scores into logits: `1/τ`, the softcap and its ALiBi
    /// bias (the positions RoPE's when given, else `0 … n − 1`, `0 … m − 1`); an error,
    /// not a panic, for a head that does not exist.
    pub fn logit_steps(&self, h: usize) -> Result<LogitSteps> {
        self.head(h)?;
        let (n, m) = (self.heads[0].q.nrows(), self.heads[0].k.nrows());
        Ok(crate::logits::steps(
            &self.spec,
            self.alibi_slopes.as_deref(),
            h,
            n,
            m,
        ))
    }

    /// The heads.
    pub fn heads(&self) -> &[HeadInput] {
        &self.heads
    }

    /// The spec.
    pub fn spec(&self) -> &AttentionSpec {
        &self.spec
    }

    /// `W^O`, when the heads' outputs are projected back.
    pub fn w_o(&self) -> Option<&Array2<f32>> {
        self.w_o.as_ref()
    }

    /// The built `n × m` mask.
    pub fn mask(&self) -> &Mask {
        &self.mask
    }

    /// Head `h` (an error, not a panic, for a head that does not exist).
    fn head(&self, h: usize) -> Result<&HeadInput> {
        self.heads.get(h).ok_or(CoreError::IndexOutOfRange {
            field: "head",
            index: h,
            len: self.heads.len(),
        })
    }

    /// Computes one head (an error, not a panic, for a head that does not exist).
    pub fn compute_head(&self, h: usize) -> Result<HeadResult> {
        self.compute_head_scored(h, None)
    }

    /// Head `h`'s raw scores, before temperature and mask: `score(q_i, k_j)` for softmax
    /// attention, the scaled dot products with Linformer's projected keys for Linformer;
    /// `None` for the kinds without scores. They depend only on the heads, the score
    /// function and the kind, so a change of temperature or mask can keep them (see
    /// [`Problem::compute_head_scored`]).
    pub fn raw_scores(&self, h: usize) -> Result<Option<ArcArray2<f32>>> {
        Ok(raw_scores(self.head(h)?, &self.spec).map(Array2::into_shared))
    }

    /// [`Problem::raw_scores`] of head `h`, given `raw`, head `h`'s raw scores of `before`
    /// (an earlier problem, e.g. before the sentence was edited): when both are softmax
    /// attention with the same score function and the head has the same score parameters,
    /// every score whose query and key rows are unchanged is taken from `raw`
    /// ([`score::scores_reusing`]); otherwise they are computed afresh. Either way the
    /// same numbers as [`Problem::raw_scores`], bit for bit.
    pub fn raw_scores_after(
        &self,
        h: usize,
        before: &Problem,
        raw: &ArcArray2<f32>,
    ) -> Result<Option<ArcArray2<f32>>> {
        let head = self.head(h)?;
        let softmax = |p: &Problem| p.spec.attention == AttentionKind::Softmax;
        let reusable = softmax(self) && softmax(before) && self.spec.score == before.spec.score;
        match before.heads.get(h) {
            Some(old) if reusable && old.score_params == head.score_params => Ok(Some(
                score::scores_reusing(
                    self.spec.score,
                    &head.q,
                    &head.k,
                    &head.score_params,
                    (&old.q, &old.k, raw),
                )
                .into_shared(),
            )),
            _ => self.raw_scores(h),
        }
    }

    /// [`Problem::compute_head`] with head `h`'s raw scores already computed: `raw` must be
    /// [`Problem::raw_scores`] of a problem with the same heads, score function and kind
    /// (a problem that differs from this one only in temperature or masks). The result is
    /// the same as [`Problem::compute_head`]'s, without computing the scores again.
    pub fn compute_head_scored(
        &self,
        h: usize,
        raw: Option<&ArcArray2<f32>>,
    ) -> Result<HeadResult> {
        self.compute_numbered(h, raw, Output::Formed)
    }

    /// [`Problem::compute_head_scored`] for a reader of the weights alone (the lab's
    /// figures, its comparison and average): the softmax kinds skip the product `A V`,
    /// their `output` is `0 × 0` and is not checked for overflow; the kernel kinds form
    /// their output anyway, since their weights are implied by it (the same numbers as
    /// [`Problem::compute_head_scored`]). Everything else is identical.
    pub fn compute_head_weights(
        &self,
        h: usize,
        raw: Option<&ArcArray2<f32>>,
    ) -> Result<HeadResult> {
        self.compute_numbered(h, raw, Output::Skipped)
    }

    /// Head `h` computed, an overflow's error naming the head.
    fn compute_numbered(
        &self,
        h: usize,
        raw: Option<&ArcArray2<f32>>,
        output: Output,
    ) -> Result<HeadResult> {
        let head = self.head(h)?;
        let steps = self.logit_steps(h)?;
        compute_head(head, &self.spec, &self.mask, raw, output, &steps).map_err(|e| match e {
            CoreError::Overflow { what, .. } => CoreError::Overflow { head: h, what },
            other => other,
        })
    }

    /// Computes every head and the combined output.
    pub fn compute(&self) -> Result<AttentionResult> {
        let heads = (0..self.heads.len())
            .map(|h| self.compute_head(h))
            .collect::<Result<Vec<_>>>()?;
        let output = self.combine(&heads)?;
        Ok(AttentionResult { heads, output })
    }

    /// `Concat(head outputs) W^O` (or just the concatenation without `W^O`).
    pub fn combine(&self, heads: &[HeadResult]) -> Result<Array2<f32>> {
        let views: Vec<_> = heads.iter().map(|r| r.output.view()).collect();
        let concat = concatenate(Axis(1), &views).expect("heads share n");
        let out = match &self.w_o {
            Some(w) => concat.dot(w),
            None => concat,
        };
        if out.iter().any(|v| !v.is_finite()) {
            return Err(CoreError::Overflow {
                head: 0,
                what: "the combined output (concat · W^O)",
            });
        }
        Ok(out)
    }
}

/// The raw scores of one head of a validated problem (see [`Problem::raw_scores`]).
fn raw_scores(head: &HeadInput, spec: &AttentionSpec) -> Option<Array2<f32>> {
    match spec.attention {
        kind if kind.uses_score_function() => Some(score::scores(
            spec.score,
            &head.q,
            &head.k,
            &head.score_params,
        )),
        AttentionKind::Linformer => {
            let lin = head.linformer.as_ref().expect("validated");
            let k_proj = lin.e.dot(&head.k); // k × d_k
            Some(score::scores(
                ScoreFunction::ScaledDot,
                &head.q,
                &k_proj.as_standard_layout().into_owned(),
                &ScoreParams::None,
            ))
        }
        _ => None,
    }
}

/// Whether [`compute_head`] forms a softmax kind's output `A V`.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    Formed,
    Skipped,
}

/// Computes one head of a validated problem (see [`Problem::new`]); `mask` is its
/// `n × m` mask; `given`: its raw scores, already computed.
fn compute_head(
    head: &HeadInput,
    spec: &AttentionSpec,
    mask: &Mask,
    given: Option<&ArcArray2<f32>>,
    output: Output,
    steps: &LogitSteps,
) -> Result<HeadResult> {
    let times_values = |a: &Array2<f32>, v: &Array2<f32>| match output {
        Output::Formed => linear::weights_times_values(a, v),
        Output::Skipped => Array2::zeros((0, 0)),
    };
    let (n, m) = (head.q.nrows(), head.k.nrows());
    let key_allowed = spec.mask.key_allowed(m);
    // Scores given in another shape are not this problem's: computed afresh.
    let columns = match (&head.linformer, spec.attention) {
        (Some(lin), AttentionKind::Linformer) => lin.e.nrows(),
        _ => m,
    };
    // The raw scores, checked with their logits `scale · raw`: given ones are shared, not
    // copied, and only the logits are checked; fresh ones in the same single pass, since
    // finite logits (scale finite and positive) mean finite scores; only when the logits
    // are not are the fresh scores looked at, to name what overflowed.
    let raw = |scale: f32| -> Result<ArcArray2<f32>> {
        const LOGITS: &str = "logits (score / temperature)";
        match given {
            Some(raw) if raw.dim() == (n, columns) => {
                finite_scaled_or(raw, scale, LOGITS)?;
                Ok(raw.clone())
            }
            _ => {
                let raw = raw_scores(head, spec)
                    .expect("a kind with scores")
                    .into_shared();
                finite_scaled_or(&raw, scale, LOGITS)
                    .or_else(|e| finite_or(&raw, "scores").and(Err(e)))?;
                Ok(raw)
            }
        }
    };
    // The softmax kinds bring their rows' entropy from the softmax's own sums; the
    // others' is taken from their weights below.
    let (weights, output, scores, mask, computation, entropy) = match spec.attention {
        AttentionKind::Softmax if spec.tiles.is_some() || !steps.scale_only() => {
            let raw = raw(steps.scale)?;
            let (a, o, how, h) = crate::logits::softmax_formed(&raw, steps, spec, mask, &head.v)?;
            let o = match how {
                Computation::Tiled => o,
                _ => times_values(&a, &head.v),
            };
            (a, o, Some(raw), mask.clone(), how, h)
        }
        AttentionKind::Softmax => {
            // The logits `raw / τ` are formed inside the softmax (times 1/τ), not stored.
            let scale = 1.0 / spec.temperature;
            let raw = raw(scale)?;
            let (a, h) = softmax::softmax_masked_entropy_scaled(&raw, scale, mask);
            let o = times_values(&a, &head.v);
            (
                a,
                o,
                Some(raw),
                mask.clone(),
                Computation::Quadratic,
                Some(h),
            )
        }
        kind @ (AttentionKind::Elu1 | AttentionKind::Relu | AttentionKind::Taylor) => {
            let map = kind.feature_map().expect("kernel kind");
            let phi_q = map.features(&head.q);
            let phi_k = map.features(&head.k);
            finite_or(&phi_q, "feature maps φ(q)")?;
            finite_or(&phi_k, "feature maps φ(k)")?;
            let sim = linear::kernel_similarity(&phi_q, &phi_k, mask);
            finite_or(&sim, "similarities φ(q)ᵀφ(k)")?;
            let implied = linear::implied_from_similarity(&sim);
            let structural = !spec.mask.structural_kinds().is_empty();
            let (o, how) = if structural {
                (
                    linear::weights_times_values(&implied, &head.v),
                    Computation::LinearMaskedQuadratic,
                )
            } else if spec.mask.causal {
                (
                    linear::kernel_recurrent(&phi_q, &phi_k, &head.v, &key_allowed),
                    Computation::LinearRecurrent,
                )
            } else {
                (
                    linear::kernel_global(&phi_q, &phi_k, &head.v, &key_allowed),
                    Computation::LinearGlobal,
                )
            };
            (implied, o, Some(sim.into_shared()), mask.clone(), how, None)
        }
        AttentionKind::Efficient => {
            let (implied, o) = linear::efficient(&head.q, &head.k, &head.v, &key_allowed);
            (implied, o, None, mask.clone(), Computation::Efficient, None)
        }
        AttentionKind::Linformer => {
            let lin = head.linformer.as_ref().expect("validated");
            let scale = 1.0 / spec.temperature;
            let raw = raw(scale)?;
            let full = Mask::full(n, lin.e.nrows());
            let (a, h) = softmax::softmax_masked_entropy_scaled(&raw, scale, &full);
            let o = match output {
                Output::Formed => {
                    let v_proj = lin.f.dot(&head.v); // k × d_v
                    times_values(&a, &v_proj.as_standard_layout().into_owned())
                }
                Output::Skipped => Array2::zeros((0, 0)),
            };
            (a, o, Some(raw), full, Computation::Linformer, Some(h))
        }
        kind => {
            let scale = match kind.uses_temperature() {
                true => 1.0 / spec.temperature,
                false => 1.0,
            };
            let raw = match kind.uses_score_function() {
                true => Some(raw(scale)?),
                false => None,
            };
            let done = modern::compute(kind, head, spec, mask, raw.as_ref(), steps, &key_allowed)?;
            let a = done.weights;
            let o = match done.output {
                Some(o) => o,
                None => times_values(&a, &head.v),
            };
            (a, o, done.scores, done.mask, done.computation, None)
        }
    };
    finite_or(&output, "outputs")?;
    let empty_rows = mask.empty_rows();
    let (row_entropy, row_entropy_normalised) = if spec.attention.rows_are_distributions() {
        let h = entropy.unwrap_or_else(|| metrics::row_entropy(&weights));
        let normalised = metrics::normalised_entropy(&h, &mask);
        (h, normalised)
    } else {
        (Vec::new(), Vec::new())
    };
    let row_sum = metrics::row_sums(&weights);
    debug_assert_eq!(weights.nrows(), n);
    Ok(HeadResult {
        weights: weights.into_shared(),
        output,
        scores,
        mask,
        row_entropy,
        row_entropy_normalised,
        empty_rows,
        computation,
        row_sum,
    })
}
