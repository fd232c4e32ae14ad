//! From the state to numbers, in steps as fine as the app's memos: each step depends on
//! only part of the state, so a change recomputes only what it touches.
//!
//! ```text
//! text, pad_to ─▶ Tokens ─┐
//! model settings ─────────┴▶ Encoded (per text) ─▶ Projected (shared by all variants)
//! Projected + one variant ─▶ Problem ─▶ HeadResult (per head) ─▶ HeadAverage
//! two variants' weights ─▶ VariantComparison
//! ```
//!
//! [`Pipeline`] runs the steps in one go, for the CLI and the tests.

use attnlab_core::attention::{AttentionKind, HeadResult, Problem};
use attnlab_core::mask::Mask;
use attnlab_core::metrics::{self, Comparison};
use attnlab_core::model::{Encoded, Projected, ProjectionWeights};
use attnlab_core::{CoreError, Invalid};
use attnlab_i18n::Lang;
use attnlab_i18n::msg::lab;
use attnlab_plot::HeatmapError;
use ndarray::{ArcArray2, Array2, ArrayRef2};

use crate::state::{LabState, ModelConfig, Variant};
use crate::tokens::Tokens;

mod edit;
pub use edit::{ProjectedFrom, encode_after, project_after, rehearse_edit};

/// The labels of a variant's key axis: the key tokens, or `k'0 … k'{k−1}` for
/// Linformer, whose weights are over `k` projected keys.
pub fn key_labels(keys: &Tokens, variant: &Variant) -> Vec<String> {
    if variant.attention == AttentionKind::Linformer {
        (0..variant.linformer_k).map(|j| format!("k'{j}")).collect()
    } else {
        keys.labels()
    }
}

/// Encodes the used tokens as the model input `X` (word vectors plus positions).
pub fn encode(model: &ModelConfig, tokens: &Tokens) -> Result<Encoded, CoreError> {
    model.encode(tokens.used())
}

/// Projects the queries' `X` and the keys' `X_kv` (`None`: self-attention) into
/// heads. Shared by every variant. `weights`: the model's projection weights drawn
/// earlier ([`ModelConfig::projection_weights`]), kept while the text changes; `None`
/// (or another model's) draws them.
pub fn project(
    model: &ModelConfig,
    weights: Option<&ProjectionWeights>,
    queries: &Encoded,
    keys: Option<&Encoded>,
) -> Result<Projected, CoreError> {
    let x_kv = keys.unwrap_or(queries);
    model.project_with(weights, &queries.x, &x_kv.x)
}

/// The validated problem of one variant: the shared heads, the variant's score
/// parameters and masks. `keys` are the key tokens (for the padding mask).
pub fn problem(
    model: &ModelConfig,
    projected: &Projected,
    variant: &Variant,
    keys: &Tokens,
) -> Result<Problem, CoreError> {
    problem_drawing(model, projected, variant, keys, true)
}

/// [`problem`] on heads brought from a file: differential attention's second queries
/// and keys must come with them, none are drawn.
pub fn problem_brought(
    model: &ModelConfig,
    projected: &Projected,
    variant: &Variant,
    keys: &Tokens,
) -> Result<Problem, CoreError> {
    problem_drawing(model, projected, variant, keys, false)
}

/// [`problem`], drawing differential attention's missing second queries and keys or not
/// (`draw_second`).
fn problem_drawing(
    model: &ModelConfig,
    projected: &Projected,
    variant: &Variant,
    keys: &Tokens,
    draw_second: bool,
) -> Result<Problem, CoreError> {
    let (n, m) = projected
        .heads
        .first()
        .map_or((0, 0), |h| (h.q.nrows(), h.k.nrows()));
    let spec = variant.spec(n, m, &keys.padding());
    model.problem_with(projected, spec, &variant.head_params(draw_second))
}

/// One head of a problem; a head that does not exist is an error, not a panic.
pub fn compute_head(problem: &Problem, head: usize) -> Result<HeadResult, CoreError> {
    let heads = problem.heads().len();
    if head >= heads {
        return Err(CoreError::InvalidSetting {
            field: "head",
            reason: Invalid::NoSuchHead { heads, head },
        });
    }
    problem.compute_head(head)
}

/// Every head of a problem.
pub fn compute_heads(problem: &Problem) -> Result<Vec<HeadResult>, CoreError> {
    compute_heads_scored(problem, &[])
}

/// Every head of a problem, from raw scores already computed (`raw[h]`, the
/// [`HeadResult::scores`] of an earlier result of a problem that differed from this one
/// only in temperature or masks; see [`Problem::compute_head_scored`]). Missing ones are
/// computed.
pub fn compute_heads_scored(
    problem: &Problem,
    raw: &[Option<&ArcArray2<f32>>],
) -> Result<Vec<HeadResult>, CoreError> {
    (0..problem.heads().len())
        .map(|h| problem.compute_head_scored(h, raw.get(h).copied().flatten()))
        .collect()
}

/// The mean of the heads' weights, with the mask they share.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadAverage {
    /// `(1/h) Σ_i A_i`.
    pub weights: Array2<f32>,
    /// The mask (the same for every head of a variant).
    pub mask: Mask,
    /// Row entropy of the averaged weights (nats); empty when the heads' rows are not
    /// distributions (`AttentionKind::rows_are_distributions`).
    pub row_entropy: Vec<f32>,
    /// Row entropy ÷ ln(allowed keys of the row), `0..=1` (as the core reports per head).
    pub row_entropy_normalised: Vec<f32>,
    /// Rows with no allowed key.
    pub empty_rows: Vec<usize>,
}

/// The head average; `None` when there are no heads.
pub fn head_average(heads: &[HeadResult]) -> Option<HeadAverage> {
    let first = heads.first()?;
    let mut weights = first.weights.to_owned();
    for h in &heads[1..] {
        weights += &h.weights;
    }
    // The mean, in place. A mean of weights the softmax kept (each at least the smallest
    // normal number) can still be subnormal: those are 0, as in every head (see
    // `kernels::SOFTMAX_FLOOR`).
    let k = heads.len() as f32;
    weights.mapv_inplace(|w| {
        let mean = w / k;
        if mean.abs() < f32::MIN_POSITIVE {
            0.0
        } else {
            mean
        }
    });
    // Rows of the kinds whose rows are not distributions (the core leaves their entropy
    // out) have no entropy either when averaged.
    let distributions = heads
        .iter()
        .all(|h| h.row_entropy.len() == h.weights.nrows());
    let row_entropy = match distributions {
        true => metrics::row_entropy(&weights),
        false => Vec::new(),
    };
    Some(HeadAverage {
        row_entropy_normalised: metrics::normalised_entropy(&row_entropy, &first.mask),
        row_entropy,
        weights,
        mask: first.mask.clone(),
        empty_rows: first.empty_rows.clone(),
    })
}

/// A matrix of weights with its row entropies, as compared: one head or an average.
#[derive(Debug, Clone, Copy)]
pub struct WeightsRef<'a> {
    /// The weights.
    pub weights: &'a ArrayRef2<f32>,
    /// Row entropy of each row.
    pub row_entropy: &'a [f32],
    /// Rows with no allowed key (left out of the mean entropy).
    pub empty_rows: &'a [usize],
}

impl<'a> From<&'a HeadResult> for WeightsRef<'a> {
    fn from(r: &'a HeadResult) -> Self {
        WeightsRef {
            weights: &r.weights,
            row_entropy: &r.row_entropy,
            empty_rows: &r.empty_rows,
        }
    }
}

impl<'a> From<&'a HeadAverage> for WeightsRef<'a> {
    fn from(a: &'a HeadAverage) -> Self {
        WeightsRef {
            weights: &a.weights,
            row_entropy: &a.row_entropy,
            empty_rows: &a.empty_rows,
        }
    }
}

impl WeightsRef<'_> {
    /// Whether every row is a distribution (the kind's rows sum to 1 and are not
    /// negative): the rows have an entropy.
    pub fn is_distribution(&self) -> bool {
        self.row_entropy.len() == self.weights.nrows()
    }

    /// The mean row entropy over the rows that have an allowed key; `None` when the
    /// rows are not distributions.
    pub fn mean_entropy(&self) -> Option<f32> {
        if !self.is_distribution() {
            return None;
        }
        let rows: Vec<f32> = self
            .row_entropy
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.empty_rows.contains(i))
            .map(|(_, &h)| h)
            .collect();
        Some(metrics::mean(&rows))
    }
}

/// How two variants differ on the same input.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantComparison {
    /// max and mean |ΔA|, mean row KL and JS divergence.
    pub metrics: Comparison,
    /// Mean row entropy of the first and the second variant (nats); `None` for one whose
    /// rows are not distributions.
    pub mean_entropy: (Option<f32>, Option<f32>),
    /// Whether both are distributions row by row, so that the rows' KL and JS
    /// divergences in [`VariantComparison::metrics`] mean something.
    pub divergences: bool,
    /// `A − B`, for the diverging difference heatmap.
    pub difference: Array2<f32>,
}

/// Compares two variants' weights (the same head of each, or their averages).
pub fn compare(a: WeightsRef<'_>, b: WeightsRef<'_>) -> Result<VariantComparison, LabError> {
    if a.weights.dim() != b.weights.dim() {
        return Err(LabError::Incomparable {
            a: a.weights.dim(),
            b: b.weights.dim(),
        });
    }
    let metrics = metrics::compare(a.weights, b.weights).map_err(LabError::Core)?;
    Ok(VariantComparison {
        metrics,
        mean_entropy: (a.mean_entropy(), b.mean_entropy()),
        divergences: a.is_distribution() && b.is_distribution(),
        difference: a.weights - b.weights,
    })
}

/// Everything that can stop the lab from showing a figure.
#[derive(Debug, Clone, PartialEq)]
pub enum LabError {
    /// The core refused the settings or the input.
    Core(CoreError),
    /// Two variants' weights have different shapes (Linformer's are over `k`
    /// projected keys), so they cannot be compared cell by cell.
    Incomparable {
        /// The first variant's weights, `n × m`.
        a: (usize, usize),
        /// The second's.
        b: (usize, usize),
    },
    /// There is no variant of that name.
    NoVariant(String),
    /// A variant has no head of that number.
    NoHead {
        /// The head asked for.
        head: usize,
        /// How many heads there are.
        heads: usize,
    },
    /// The figure could not be built from the numbers.
    Figure(HeatmapError),
}

impl From<CoreError> for LabError {
    fn from(e: CoreError) -> Self {
        LabError::Core(e)
    }
}

impl LabError {
    /// One sentence for a student, in English (the command line's language).
    pub fn sentence(&self) -> String {
        self.text(Lang::En)
    }

    /// One sentence for a student, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            LabError::Core(e) => crate::explain::explain_in(e, lang),
            LabError::Incomparable { a, b } => lab::Incomparable {
                a_rows: &a.0,
                a_cols: &a.1,
                b_rows: &b.0,
                b_cols: &b.1,
            }
            .say(lang),
            LabError::NoVariant(name) => lab::NoVariant { name }.say(lang),
            LabError::NoHead { head, heads } => lab::NoHead { head, heads }.say(lang),
            LabError::Figure(e) => lab::FigureFailed {
                why: &crate::explain::heatmap_error_in(e, lang),
            }
            .say(lang),
        }
    }
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sentence())
    }
}

impl std::error::Error for LabError {}

/// One variant computed: its problem, every head and their average.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantResult {
    /// The validated problem.
    pub problem: Problem,
    /// Every head.
    pub heads: Vec<HeadResult>,
    /// The head average (`None` only without heads).
    pub average: Option<HeadAverage>,
}

/// Which weights of a variant: one head, or the head average.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// Head `h`.
    Head(usize),
    /// The mean of all heads.
    Average,
}

impl VariantResult {
    /// The weights of one head or of the average.
    pub fn weights(&self, which: Which) -> Result<WeightsRef<'_>, LabError> {
        match which {
            Which::Head(h) => self
                .heads
                .get(h)
                .map(WeightsRef::from)
                .ok_or(LabError::Core(CoreError::InvalidSetting {
                    field: "head",
                    reason: Invalid::NoSuchHead {
                        heads: self.heads.len(),
                        head: h,
                    },
                })),
            Which::Average => self
                .average
                .as_ref()
                .map(WeightsRef::from)
                .ok_or(LabError::Core(CoreError::NoHeads)),
        }
    }
}

/// The whole computation of a state in one go (the CLI and the tests; the app runs the
/// same steps as separate memos).
#[derive(Debug, Clone)]
pub struct Pipeline<'a> {
    state: &'a LabState,
    queries: Tokens,
    keys: Option<Tokens>,
    projected: Result<Projected, CoreError>,
}

impl<'a> Pipeline<'a> {
    /// Tokenizes, encodes and projects (the part shared by every variant).
    pub fn new(state: &'a LabState) -> Pipeline<'a> {
        let queries = state.query_tokens();
        let keys = state.key_tokens();
        let projected = encode(&state.model, &queries).and_then(|q| match &keys {
            Some(k) => project(&state.model, None, &q, Some(&encode(&state.model, k)?)),
            None => project(&state.model, None, &q, None),
        });
        Pipeline {
            state,
            queries,
            keys,
            projected,
        }
    }

    /// The state being computed.
    pub fn state(&self) -> &LabState {
        self.state
    }

    /// The query tokens.
    pub fn queries(&self) -> &Tokens {
        &self.queries
    }

    /// The key tokens (the queries in self-attention).
    pub fn keys(&self) -> &Tokens {
        self.keys.as_ref().unwrap_or(&self.queries)
    }

    /// The projected heads shared by every variant.
    pub fn projected(&self) -> Result<&Projected, LabError> {
        self.projected
            .as_ref()
            .map_err(|e| LabError::Core(e.clone()))
    }

    /// Computes variant `index`.
    pub fn variant(&self, index: usize) -> Result<VariantResult, LabError> {
        let variant = self
            .state
            .variants
            .get(index)
            .ok_or_else(|| LabError::NoVariant(index.to_string()))?;
        let problem = problem(&self.state.model, self.projected()?, variant, self.keys())?;
        let heads = compute_heads(&problem)?;
        Ok(VariantResult {
            average: head_average(&heads),
            problem,
            heads,
        })
    }

    /// Computes the variant called `name`.
    pub fn variant_named(&self, name: &str) -> Result<VariantResult, LabError> {
        let index = self
            .state
            .variant_index(name)
            .ok_or_else(|| LabError::NoVariant(name.to_string()))?;
        self.variant(index)
    }

    /// The labels of a variant's key axis (see [`key_labels`]).
    pub fn key_labels(&self, variant: &Variant) -> Vec<String> {
        key_labels(self.keys(), variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_average_carries_normalised_row_entropy() {
        let mut state = LabState::default();
        state.variants[0].masks.causal = true;
        let a = Pipeline::new(&state).variant(0).unwrap();
        let avg = a.average.unwrap();
        assert_eq!(avg.row_entropy_normalised.len(), 11);
        // Row 0 sees one key: no entropy to speak of.
        assert_eq!(avg.row_entropy_normalised[0], 0.0);
        assert!(
            avg.row_entropy_normalised
                .iter()
                .all(|&h| (0.0..=1.0 + 1e-6).contains(&h))
        );
        // Row 10 sees 11 keys: H / ln 11.
        let expected = avg.row_entropy[10] / 11f32.ln();
        assert!((avg.row_entropy_normalised[10] - expected).abs() < 1e-6);
    }
    use crate::state::{MaskKind, Mode};

    #[test]
    fn the_default_state_computes_two_variants_that_differ_by_the_scaling() {
        let state = LabState::default();
        let p = Pipeline::new(&state);
        assert_eq!(p.queries().labels().len(), 11);
        let a = p.variant(0).unwrap();
        let b = p.variant_named("b").unwrap();
        assert_eq!(a.heads.len(), 4);
        let avg = a.average.as_ref().unwrap();
        for i in 0..11 {
            assert!((avg.weights.row(i).sum() - 1.0).abs() < 1e-5);
        }
        for which in [Which::Head(0), Which::Average] {
            let c = compare(a.weights(which).unwrap(), b.weights(which).unwrap()).unwrap();
            assert!(c.metrics.max_abs > 0.0);
            // Without 1/√d_k the logits are 4× larger: B is sharper than A.
            assert!(
                c.mean_entropy.1 < c.mean_entropy.0,
                "{which:?}: {:?}",
                c.mean_entropy
            );
            assert_eq!(c.difference.dim(), (11, 11));
        }
        assert!(a.weights(Which::Head(4)).is_err());
        assert_eq!(p.variant(7).unwrap_err(), LabError::NoVariant("7".into()));
    }

    #[test]
    fn steps_match_the_pipeline() {
        let state = LabState::default();
        let tokens = state.query_tokens();
        let x = encode(&state.model, &tokens).unwrap();
        let projected = project(&state.model, None, &x, None).unwrap();
        let problem = problem(&state.model, &projected, &state.variants[1], &tokens).unwrap();
        let head = compute_head(&problem, 2).unwrap();
        assert_eq!(head, Pipeline::new(&state).variant(1).unwrap().heads[2]);
        assert!(
            compute_head(&problem, 4)
                .unwrap_err()
                .reason()
                .contains("no head 4")
        );
    }

    #[test]
    fn cross_attention_with_padding_blocks_the_pads() {
        let mut state = LabState::default();
        state.set_mode(Mode::Cross);
        state.pad_to = Some(8);
        state.variants[0].masks.padding = true;
        let p = Pipeline::new(&state);
        assert_eq!(p.queries().labels(), ["I", "love", "machine", "learning"]);
        assert_eq!(p.keys().labels().len(), 8);
        let a = p.variant(0).unwrap();
        let w = &a.heads[0].weights;
        assert_eq!(w.dim(), (4, 8));
        assert!(
            w.column(6)
                .iter()
                .chain(w.column(7).iter())
                .all(|&v| v == 0.0)
        );
        // Variant B has no padding mask: the pads get weight.
        let b = p.variant(1).unwrap();
        assert!(b.heads[0].weights.column(7).iter().all(|&v| v > 0.0));
        assert_eq!(state.query_tokens().total(), 4, "the target is not padded");
    }

    #[test]
    fn linformer_cannot_be_compared_cell_by_cell() {
        let mut state = LabState::default();
        state.variants[1].attention = AttentionKind::Linformer;
        let p = Pipeline::new(&state);
        assert_eq!(
            p.key_labels(&state.variants[1]),
            ["k'0", "k'1", "k'2", "k'3"]
        );
        let (a, b) = (p.variant(0).unwrap(), p.variant(1).unwrap());
        let err = compare(
            a.weights(Which::Head(0)).unwrap(),
            b.weights(Which::Head(0)).unwrap(),
        )
        .unwrap_err();
        assert!(
            err.sentence().contains("11×11 and 11×4"),
            "{}",
            err.sentence()
        );
    }

    #[test]
    fn errors_become_sentences() {
        let mut state = LabState::default();
        state.model.heads = 5;
        let err = Pipeline::new(&state).variant(0).unwrap_err();
        let msg = err.sentence();
        assert!(msg.starts_with("These settings cannot be used:"), "{msg}");
        assert!(msg.contains("heads") && msg.ends_with('.'), "{msg}");

        let mut state = LabState::default();
        state.variants[0].attention = AttentionKind::Efficient;
        state.variants[0].masks.causal = true;
        assert!(
            state.variants[0]
                .why_not_mask(MaskKind::Causal, Lang::En)
                .is_some()
        );
        let msg = Pipeline::new(&state).variant(0).unwrap_err().sentence();
        assert!(msg.contains("cannot apply a causal mask"), "{msg}");
    }

    #[test]
    fn empty_text_computes_nothing_without_failing() {
        let state = LabState {
            text: " ".into(),
            ..LabState::default()
        };
        let r = Pipeline::new(&state).variant(0).unwrap();
        assert_eq!(r.heads[0].weights.dim(), (0, 0));
        assert_eq!(r.average.unwrap().weights.dim(), (0, 0));
    }
}
