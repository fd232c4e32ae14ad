//! The stage list and what each stage is: its kind, name, axes, colouring, and the
//! sentence that explains it. Nothing here computes a matrix.

use attnlab_core::attention::{AttentionKind, Computation};
use attnlab_core::embed::EmbeddingScale;
use attnlab_core::linear::FeatureMap;
use attnlab_core::position::{Combine, PositionKind};
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{Heatmap, HeatmapError, ValueRange, number};
use ndarray::Array2;

use super::formula::Keys;
use crate::state::{Mode, ModelConfig, Variant};

/// Which step of the pipeline a stage is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// `X`: word vectors and positions.
    Input,
    /// `Q = X W^Q`.
    Queries,
    /// `K = X_kv W^K`.
    Keys,
    /// `V = X_kv W^V`.
    Values,
    /// Linformer's `K' = E K`.
    ProjectedKeys,
    /// Linformer's `V' = F V`.
    ProjectedValues,
    /// The raw scores of the score function.
    Scores,
    /// The logits: scores divided by `√d_k` and `τ` as the variant says.
    Scaled,
    /// The logits with blocked cells at `−∞`.
    Masked,
    /// The softmax weights.
    Softmax,
    /// `φ(Q)` of a linear variant.
    FeatureQueries,
    /// `φ(K)` of a linear variant.
    FeatureKeys,
    /// `M ⊙ φ(Q) φ(K)ᵀ`, un-normalised.
    Similarity,
    /// The implied, normalised matrix `Â` of a linear variant.
    Implied,
    /// The head's output, weights · `V`.
    HeadOutput,
    /// `Concat(heads) W^O`.
    Output,
}

/// The families of attention whose pipelines differ in their stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Softmax attention over every key.
    Softmax,
    /// Softmax over Linformer's projected keys.
    Linformer,
    /// Kernel linear attention with a feature map φ (elu1, relu, taylor).
    Kernel(FeatureMap),
    /// Efficient attention: `softmax_row(Q) · (softmax_col(K)ᵀ V)`.
    Efficient,
}

impl Family {
    /// The family of an attention kind.
    pub fn of(kind: AttentionKind) -> Family {
        match kind {
            AttentionKind::Softmax => Family::Softmax,
            AttentionKind::Linformer => Family::Linformer,
            AttentionKind::Elu1 => Family::Kernel(FeatureMap::Elu1),
            AttentionKind::Relu => Family::Kernel(FeatureMap::Relu),
            AttentionKind::Taylor => Family::Kernel(FeatureMap::Taylor),
            AttentionKind::Efficient => Family::Efficient,
        }
    }

    /// The stages of this family's pipeline, in order.
    pub fn stages(self) -> &'static [StageKind] {
        use StageKind::*;
        match self {
            Family::Softmax => &[
                Input, Queries, Keys, Values, Scores, Scaled, Masked, Softmax, HeadOutput, Output,
            ],
            Family::Linformer => &[
                Input,
                Queries,
                Keys,
                Values,
                ProjectedKeys,
                ProjectedValues,
                Scores,
                Scaled,
                Softmax,
                HeadOutput,
                Output,
            ],
            Family::Kernel(_) => &[
                Input,
                Queries,
                Keys,
                Values,
                FeatureQueries,
                FeatureKeys,
                Similarity,
                Implied,
                HeadOutput,
                Output,
            ],
            Family::Efficient => &[
                Input,
                Queries,
                Keys,
                Values,
                FeatureQueries,
                FeatureKeys,
                Implied,
                HeadOutput,
                Output,
            ],
        }
    }

    /// The keys the scores compare the queries with: Linformer's projected keys, or the
    /// key tokens.
    pub fn keys(self) -> Keys {
        match self {
            Family::Linformer => Keys::Projected,
            _ => Keys::Tokens,
        }
    }
}

/// What a stage's rows or columns are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// One row per query token.
    QueryTokens,
    /// One row (or column) per key token.
    KeyTokens,
    /// One row (or column) per projected key of Linformer.
    ProjectedKeys,
    /// The dimensions of a vector (numbered from 0).
    Dimensions,
    /// The features of a feature map φ (numbered from 0).
    Features,
}

impl Axis {
    /// The axis title, e.g. `"query tokens"`.
    pub fn title(self) -> &'static str {
        match self {
            Axis::QueryTokens => "query tokens",
            Axis::KeyTokens => "key tokens",
            Axis::ProjectedKeys => "projected keys",
            Axis::Dimensions => "dimensions",
            Axis::Features => "features",
        }
    }

    /// Whether the labels along this axis name tokens (or projected keys) rather than
    /// number dimensions.
    pub fn names_tokens(self) -> bool {
        matches!(
            self,
            Axis::QueryTokens | Axis::KeyTokens | Axis::ProjectedKeys
        )
    }
}

impl From<Keys> for Axis {
    fn from(keys: Keys) -> Axis {
        match keys {
            Keys::Tokens => Axis::KeyTokens,
            Keys::Projected => Axis::ProjectedKeys,
        }
    }
}

/// How a stage's values are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageValues {
    /// Weights in `0..=1` (sequential colours).
    Weights,
    /// Signed numbers (diverging colours around 0).
    Signed,
    /// Non-negative numbers of any size (sequential colours over `0..=max`).
    NonNegative,
}

impl StageKind {
    /// The stage's short name in `family`'s pipeline, e.g. `"Raw scores"`.
    pub fn name(self, family: Family) -> &'static str {
        let linear = matches!(family, Family::Kernel(_) | Family::Efficient);
        match self {
            StageKind::Input => "Input X",
            StageKind::Queries => "Queries Q",
            StageKind::Keys => "Keys K",
            StageKind::Values => "Values V",
            StageKind::ProjectedKeys => "Projected keys K\u{2032} = E K",
            StageKind::ProjectedValues => "Projected values V\u{2032} = F V",
            StageKind::Scores => "Raw scores",
            StageKind::Scaled => "Scaled",
            StageKind::Masked => "Masked",
            StageKind::Softmax => "Softmax weights",
            StageKind::FeatureQueries if family == Family::Efficient => {
                "\u{3c6}(Q) = softmax over features"
            }
            StageKind::FeatureQueries => "Feature map \u{3c6}(Q)",
            StageKind::FeatureKeys if family == Family::Efficient => {
                "\u{3c6}(K) = softmax over positions"
            }
            StageKind::FeatureKeys => "Feature map \u{3c6}(K)",
            StageKind::Similarity => "Similarities",
            StageKind::Implied => "Implied weights \u{c2}",
            StageKind::HeadOutput if linear => "Output (linear form)",
            StageKind::HeadOutput => "Weights \u{b7} V",
            StageKind::Output => "Concat \u{b7} W^O",
        }
    }

    /// The stage's rows and columns in `family`'s pipeline.
    pub fn axes(self, family: Family) -> (Axis, Axis) {
        match self {
            StageKind::Input | StageKind::Queries | StageKind::HeadOutput | StageKind::Output => {
                (Axis::QueryTokens, Axis::Dimensions)
            }
            StageKind::Keys | StageKind::Values => (Axis::KeyTokens, Axis::Dimensions),
            StageKind::ProjectedKeys | StageKind::ProjectedValues => {
                (Axis::ProjectedKeys, Axis::Dimensions)
            }
            StageKind::Scores | StageKind::Scaled | StageKind::Masked | StageKind::Softmax => {
                (Axis::QueryTokens, family.keys().into())
            }
            StageKind::FeatureQueries => (Axis::QueryTokens, Axis::Features),
            StageKind::FeatureKeys => (Axis::KeyTokens, Axis::Features),
            StageKind::Similarity | StageKind::Implied => (Axis::QueryTokens, Axis::KeyTokens),
        }
    }

    /// How the stage's values are coloured in `family`'s pipeline.
    pub fn coloured(self, family: Family) -> StageValues {
        match self {
            StageKind::Softmax | StageKind::Implied => StageValues::Weights,
            StageKind::FeatureQueries | StageKind::FeatureKeys if family == Family::Efficient => {
                StageValues::Weights
            }
            StageKind::Similarity => StageValues::NonNegative,
            _ => StageValues::Signed,
        }
    }
}

/// The query a stage was computed for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Its index among the query tokens.
    pub index: usize,
    /// Its token.
    pub token: String,
}

/// One stage: a labelled matrix, the query it was computed for (and its row, if the rows
/// are queries), and the formula of the current variant for that query.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    /// Which step this is.
    pub kind: StageKind,
    /// A short name, e.g. `"Raw scores"`.
    pub name: &'static str,
    /// What the rows are.
    pub row_axis: Axis,
    /// What the columns are.
    pub col_axis: Axis,
    /// Row labels.
    pub rows: Vec<String>,
    /// Column labels.
    pub cols: Vec<String>,
    /// The matrix (finite; blocked cells hold their logit, see [`Stage::blocked`]).
    pub values: Array2<f32>,
    /// Cells the mask blocks (`−∞` logits, zero weights), if the stage shows the mask.
    pub blocked: Option<Array2<bool>>,
    /// How the values are coloured.
    pub coloured: StageValues,
    /// The query the stage was computed for (`None` for a query past the last token).
    pub query: Option<Query>,
    /// The highlighted row: the query's when the rows are the queries.
    pub highlight: Option<usize>,
    /// The formula of this stage for the current variant and query: one `<math>` element.
    pub formula: String,
    /// One sentence on what happens here.
    pub note: String,
}

impl Stage {
    /// Whether cell `(i, j)` is blocked.
    pub fn is_blocked(&self, i: usize, j: usize) -> bool {
        self.blocked
            .as_ref()
            .and_then(|b| b.get((i, j)).copied())
            .unwrap_or(false)
    }

    /// The stage as a heatmap figure titled `title`: weights on the `0..=1` scale,
    /// signed matrices on a diverging one, blocked cells hatched.
    pub fn heatmap(&self, title: impl Into<String>) -> Result<Heatmap, HeatmapError> {
        let values: Vec<f32> = self.values.iter().copied().collect();
        let (rows, cols) = (self.rows.clone(), self.cols.clone());
        let fig = match self.coloured {
            StageValues::Weights => Heatmap::weights(title, rows, cols, values)?,
            StageValues::Signed => {
                Heatmap::difference(title, rows, cols, values)?.with_value_label("value")
            }
            StageValues::NonNegative => {
                let max = values.iter().fold(0f32, |a, &b| a.max(b));
                let range = ValueRange::new(0.0, max).unwrap_or(ValueRange::UNIT);
                Heatmap::weights(title, rows, cols, values)?
                    .with_range(range)
                    .with_value_label("value")
            }
        };
        let fig = fig.with_axis_titles(self.row_axis.title(), self.col_axis.title());
        match &self.blocked {
            Some(b) => fig.with_blocked(b.iter().copied().collect()),
            None => Ok(fig),
        }
    }
}

/// What `X` is made of, and where the keys' `X` comes from.
pub(super) fn input_note(model: &ModelConfig, mode: Mode) -> String {
    let words = match model.embedding_scale {
        EmbeddingScale::Unit => "word vectors",
        EmbeddingScale::SqrtDModel => "word vectors ×√d_model",
    };
    let pos = match (model.position.kind, model.position.combine) {
        (PositionKind::None, _) => {
            "no positions: X is the word vectors alone, so word order is invisible (a bag of words)"
                .to_string()
        }
        (kind, Combine::Add) => format!(
            "{words} plus {} position vectors, added (width d_model = {})",
            position_name(kind),
            model.d_model
        ),
        (kind, Combine::Concat { d_pos }) => format!(
            "{words} and {} position vectors, concatenated (width {} + {d_pos})",
            position_name(kind),
            model.d_model
        ),
    };
    let src = match mode {
        Mode::Cross => " The keys and values come from the source sentence's own X.",
        Mode::SelfAttention => "",
    };
    format!("X: {pos}.{src}")
}

fn position_name(kind: PositionKind) -> &'static str {
    match kind {
        PositionKind::None => "no",
        PositionKind::Sinusoidal => "sinusoidal",
        PositionKind::Learned => "learned (seeded)",
    }
}

/// One sentence on the score function (or Linformer's scores against projected keys).
pub(super) fn score_note(f: ScoreFunction, keys: Keys) -> String {
    if keys == Keys::Projected {
        return "Each query against each projected key: qᵀk′.".to_string();
    }
    match f {
        ScoreFunction::Dot => "The dot product of every query with every key.",
        ScoreFunction::ScaledDot => {
            "The plain dot product qᵀk of every query with every key (the scaling comes next)."
        }
        ScoreFunction::General => "Bilinear (Luong): qᵀWk with a seeded d_k×d_k matrix W.",
        ScoreFunction::Additive => {
            "Additive (Bahdanau): a small tanh network of the query and the key."
        }
        ScoreFunction::Cosine => "Cosine: the dot product of unit vectors, between −1 and 1.",
    }
    .to_string()
}

/// What the scaling divides by.
pub(super) fn scaled_note(score: ScoreFunction, d_k: usize, tau: f32) -> String {
    let t = number::decimals(tau, 2);
    match score {
        ScoreFunction::ScaledDot => format!(
            "Divided by √d_k = √{d_k} = {} and by τ = {t}: this keeps the softmax from \
             becoming nearly one-hot as d_k grows.",
            number::decimals((d_k as f32).sqrt(), 3)
        ),
        _ => format!(
            "Divided by τ = {t} only: this score function is not scaled by √d_k \
             (choose scaled dot to see that)."
        ),
    }
}

/// Which masks block cells, and how many rows are left empty.
pub(super) fn masked_note(variant: &Variant, empty_rows: usize) -> String {
    let on = variant.masks.on();
    if on.is_empty() {
        return "No mask is on: every key is allowed, the logits pass unchanged.".to_string();
    }
    let names: Vec<&str> = on.iter().map(|k| k.label()).collect();
    let mut s = format!(
        "Blocked cells ({}) become −∞, so the softmax gives them exactly 0.",
        names.join(" and ")
    );
    if empty_rows > 0 {
        s.push_str(&format!(
            " {empty_rows} row(s) have no allowed key: their weights are all 0."
        ));
    }
    s
}

/// What the feature map does to an entry.
pub(super) fn feature_note(map: FeatureMap) -> String {
    match map {
        FeatureMap::Elu1 => "φ(x) = elu(x) + 1 on every entry: positive, smooth.".to_string(),
        FeatureMap::Relu => "φ(x) = max(x, 0) on every entry: negative entries vanish.".to_string(),
        FeatureMap::Taylor => {
            "φ(x) = [1, x/‖x‖]: so φ(q)ᵀφ(k) = 1 + q̂ᵀk̂, the first-order Taylor term of exp."
                .to_string()
        }
    }
}

/// How a linear variant's output was computed.
pub(super) fn linear_output_note(c: Computation) -> String {
    match c {
        Computation::LinearRecurrent => {
            "Computed as an RNN: running sums S_i, z_i over j ≤ i, never the n×n matrix.".into()
        }
        Computation::LinearMaskedQuadratic => {
            "This mask breaks the factorisation: the output is Â V, \
             quadratic — the variant is no longer linear."
                .into()
        }
        _ => "Computed in O(n): one global d×d_v state, never the n×n matrix.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_family_and_every_family_starts_and_ends_alike() {
        for kind in AttentionKind::ALL {
            let list = Family::of(kind).stages();
            assert_eq!(list.first(), Some(&StageKind::Input));
            assert_eq!(list.last(), Some(&StageKind::Output));
            assert_eq!(
                &list[1..4],
                [StageKind::Queries, StageKind::Keys, StageKind::Values]
            );
        }
        assert_eq!(Family::of(AttentionKind::Linformer).stages().len(), 11);
        assert!(!Family::Linformer.stages().contains(&StageKind::Masked));
    }

    #[test]
    fn names_axes_and_colours_follow_the_family() {
        let kernel = Family::Kernel(FeatureMap::Relu);
        assert_eq!(StageKind::HeadOutput.name(Family::Softmax), "Weights · V");
        assert_eq!(StageKind::HeadOutput.name(kernel), "Output (linear form)");
        assert_eq!(
            StageKind::FeatureQueries.name(Family::Efficient),
            "φ(Q) = softmax over features"
        );
        assert_eq!(
            StageKind::Softmax.axes(Family::Linformer),
            (Axis::QueryTokens, Axis::ProjectedKeys)
        );
        assert_eq!(
            StageKind::Softmax.axes(Family::Softmax),
            (Axis::QueryTokens, Axis::KeyTokens)
        );
        assert_eq!(
            StageKind::FeatureKeys.coloured(Family::Efficient),
            StageValues::Weights
        );
        assert_eq!(StageKind::FeatureKeys.coloured(kernel), StageValues::Signed);
        assert!(Axis::ProjectedKeys.names_tokens() && !Axis::Features.names_tokens());
    }
}
