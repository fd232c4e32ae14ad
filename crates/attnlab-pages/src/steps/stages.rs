//! The stage list and what each stage is: its kind, name, axes, colouring, and the
//! sentence that explains it. Nothing here computes a matrix.

use attnlab_core::attention::{AttentionKind, Computation};
use attnlab_core::embed::EmbeddingScale;
use attnlab_core::linear::FeatureMap;
use attnlab_core::mask::Mask;
use attnlab_core::position::{Combine, PositionKind};
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{Heatmap, HeatmapError, ValueRange, number};
use ndarray::Array2;

use attnlab_i18n::msg::steps as text;
use attnlab_i18n::{Lang, plot_words};
use attnlab_lab::state::{Mode, ModelConfig, Variant};

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
    /// RoPE: the queries turned by their positions, `q̃`.
    TurnedQueries,
    /// RoPE: the keys turned by their positions, `k̃`.
    TurnedKeys,
    /// The logits softcapped: `c·tanh(z/c)`.
    Softcap,
    /// The logits with ALiBi's bias `−m_h |i − j|` added.
    Alibi,
    /// The logits with blocked cells at `−∞`.
    Masked,
    /// The softmax weights.
    Softmax,
    /// Softmax + 1's weights, `e^z / (1 + Σ e^z)`.
    PlusOne,
    /// Sigmoid attention's weights, `σ(z + b)`.
    Sigmoid,
    /// Softpick's weights.
    Softpick,
    /// Sink attention's weights, `e^z / (e^{s_h} + Σ e^z)`.
    SinkWeights,
    /// Differential attention's first map, `softmax(z₁)`.
    FirstSoftmax,
    /// Differential attention's second map, `softmax(z₂)`.
    SecondSoftmax,
    /// Differential attention's weights, `softmax(z₁) − λ softmax(z₂)`.
    Differential,
    /// Decayed linear attention's decay matrix `D`.
    Decay,
    /// Decayed linear attention's weights `D ⊙ S`.
    Decayed,
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

/// The keys the scores compare the queries with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// The key tokens themselves (`k_j`).
    Tokens,
    /// Linformer's projected keys (`k′_j = (E K)_j`).
    Projected,
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
    /// The softmax family's other normalisers over the same logits: softmax + 1,
    /// sigmoid, softpick, sink (the kind says which).
    Normalised(AttentionKind),
    /// Differential attention: two softmax maps and their difference.
    Differential,
    /// Decayed linear attention: the scores times the decay, no normaliser.
    Decayed,
    /// FAVOR+: positive random features, then the implied weights.
    Favor,
}

/// The options of a variant that add stages when they are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StageOptions {
    /// RoPE turns q and k.
    pub rope: bool,
    /// The softcap bends the logits.
    pub softcap: bool,
    /// ALiBi's bias is added to the logits.
    pub alibi: bool,
}

impl Family {
    /// The family of an attention kind.
    pub fn of(kind: AttentionKind) -> Family {
        match kind {
            AttentionKind::Softmax => Family::Softmax,
            AttentionKind::SoftmaxPlusOne
            | AttentionKind::Sigmoid
            | AttentionKind::Softpick
            | AttentionKind::Sink => Family::Normalised(kind),
            AttentionKind::Differential => Family::Differential,
            AttentionKind::DecayedLinear => Family::Decayed,
            AttentionKind::Favor => Family::Favor,
            AttentionKind::Linformer => Family::Linformer,
            AttentionKind::Elu1 => Family::Kernel(FeatureMap::Elu1),
            AttentionKind::Relu => Family::Kernel(FeatureMap::Relu),
            AttentionKind::Taylor => Family::Kernel(FeatureMap::Taylor),
            AttentionKind::Efficient => Family::Efficient,
        }
    }

    /// The stages of this family's pipeline with `options` on, in order: RoPE's turned
    /// queries and keys after `V`, the softcap then ALiBi after the scaling, as the core
    /// applies them (`z → z/τ → softcap → + ALiBi → mask → normaliser`).
    pub fn stages_with(self, options: StageOptions) -> Vec<StageKind> {
        let mut out = Vec::new();
        for &k in self.stages() {
            out.push(k);
            if k == StageKind::Values && options.rope {
                out.extend([StageKind::TurnedQueries, StageKind::TurnedKeys]);
            }
            if k == StageKind::Scaled {
                if options.softcap {
                    out.push(StageKind::Softcap);
                }
                if options.alibi {
                    out.push(StageKind::Alibi);
                }
            }
        }
        out
    }

    /// The stages of this family's pipeline, in order, with no option on.
    pub fn stages(self) -> &'static [StageKind] {
        use StageKind::*;
        match self {
            Family::Softmax => &[
                Input, Queries, Keys, Values, Scores, Scaled, Masked, Softmax, HeadOutput, Output,
            ],
            Family::Normalised(AttentionKind::SoftmaxPlusOne) => &[
                Input, Queries, Keys, Values, Scores, Scaled, Masked, PlusOne, HeadOutput, Output,
            ],
            Family::Normalised(AttentionKind::Sigmoid) => &[
                Input, Queries, Keys, Values, Scores, Scaled, Masked, Sigmoid, HeadOutput, Output,
            ],
            Family::Normalised(AttentionKind::Softpick) => &[
                Input, Queries, Keys, Values, Scores, Scaled, Masked, Softpick, HeadOutput, Output,
            ],
            Family::Normalised(_) => &[
                Input,
                Queries,
                Keys,
                Values,
                Scores,
                Scaled,
                Masked,
                SinkWeights,
                HeadOutput,
                Output,
            ],
            Family::Differential => &[
                Input,
                Queries,
                Keys,
                Values,
                Scores,
                Scaled,
                Masked,
                FirstSoftmax,
                SecondSoftmax,
                Differential,
                HeadOutput,
                Output,
            ],
            Family::Decayed => &[
                Input, Queries, Keys, Values, Scores, Decay, Decayed, HeadOutput, Output,
            ],
            Family::Favor => &[
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
    /// The axis title in `lang`, e.g. `"query tokens"`.
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Axis::QueryTokens => text::STEPS_AXIS_QUERY_TOKENS,
            Axis::KeyTokens => text::STEPS_AXIS_KEY_TOKENS,
            Axis::ProjectedKeys => text::STEPS_AXIS_PROJECTED_KEYS,
            Axis::Dimensions => text::STEPS_AXIS_DIMENSIONS,
            Axis::Features => text::STEPS_AXIS_FEATURES,
        }
        .get(lang)
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
    /// The stage's short name in `family`'s pipeline, in `lang`, e.g. `"Raw scores"`.
    pub fn name(self, family: Family, lang: Lang) -> &'static str {
        let linear = matches!(
            family,
            Family::Kernel(_) | Family::Efficient | Family::Favor
        );
        match self {
            StageKind::Input => text::STEPS_STAGE_INPUT,
            StageKind::Queries => text::STEPS_STAGE_QUERIES,
            StageKind::Keys => text::STEPS_STAGE_KEYS,
            StageKind::Values => text::STEPS_STAGE_VALUES,
            StageKind::ProjectedKeys => text::STEPS_STAGE_PROJECTED_KEYS,
            StageKind::ProjectedValues => text::STEPS_STAGE_PROJECTED_VALUES,
            StageKind::Scaled => text::STEPS_STAGE_SCALED,
            StageKind::TurnedQueries => text::STEPS_STAGE_TURNED_QUERIES,
            StageKind::TurnedKeys => text::STEPS_STAGE_TURNED_KEYS,
            StageKind::Softcap => text::STEPS_STAGE_SOFTCAP,
            StageKind::Alibi => text::STEPS_STAGE_ALIBI,
            StageKind::Masked => text::STEPS_STAGE_MASKED,
            StageKind::Softmax => text::STEPS_STAGE_SOFTMAX,
            StageKind::PlusOne => text::STEPS_STAGE_PLUS_ONE,
            StageKind::Sigmoid => text::STEPS_STAGE_SIGMOID,
            StageKind::Softpick => text::STEPS_STAGE_SOFTPICK,
            StageKind::SinkWeights => text::STEPS_STAGE_SINK,
            StageKind::FirstSoftmax => text::STEPS_STAGE_FIRST_SOFTMAX,
            StageKind::SecondSoftmax => text::STEPS_STAGE_SECOND_SOFTMAX,
            StageKind::Differential => text::STEPS_STAGE_DIFFERENTIAL,
            StageKind::Decay => text::STEPS_STAGE_DECAY,
            StageKind::Decayed => text::STEPS_STAGE_DECAYED,
            StageKind::Scores if family == Family::Decayed => text::STEPS_STAGE_DECAYED_SCORES,
            StageKind::Scores => text::STEPS_STAGE_SCORES,
            StageKind::FeatureQueries if family == Family::Favor => text::STEPS_STAGE_FAVOR_QUERIES,
            StageKind::FeatureKeys if family == Family::Favor => text::STEPS_STAGE_FAVOR_KEYS,
            StageKind::FeatureQueries if family == Family::Efficient => {
                text::STEPS_STAGE_EFFICIENT_QUERIES
            }
            StageKind::FeatureQueries => text::STEPS_STAGE_FEATURE_QUERIES,
            StageKind::FeatureKeys if family == Family::Efficient => {
                text::STEPS_STAGE_EFFICIENT_KEYS
            }
            StageKind::FeatureKeys => text::STEPS_STAGE_FEATURE_KEYS,
            StageKind::Similarity => text::STEPS_STAGE_SIMILARITY,
            StageKind::Implied => text::STEPS_STAGE_IMPLIED,
            StageKind::HeadOutput if linear => text::STEPS_STAGE_LINEAR_OUTPUT,
            StageKind::HeadOutput => text::STEPS_STAGE_HEAD_OUTPUT,
            StageKind::Output => text::STEPS_STAGE_OUTPUT,
        }
        .get(lang)
    }

    /// The stage's rows and columns in `family`'s pipeline.
    pub fn axes(self, family: Family) -> (Axis, Axis) {
        match self {
            StageKind::Input | StageKind::Queries | StageKind::HeadOutput | StageKind::Output => {
                (Axis::QueryTokens, Axis::Dimensions)
            }
            StageKind::TurnedQueries => (Axis::QueryTokens, Axis::Dimensions),
            StageKind::Keys | StageKind::Values | StageKind::TurnedKeys => {
                (Axis::KeyTokens, Axis::Dimensions)
            }
            StageKind::ProjectedKeys | StageKind::ProjectedValues => {
                (Axis::ProjectedKeys, Axis::Dimensions)
            }
            StageKind::Scores | StageKind::Scaled | StageKind::Masked | StageKind::Softmax => {
                (Axis::QueryTokens, family.keys().into())
            }
            StageKind::Softcap
            | StageKind::Alibi
            | StageKind::PlusOne
            | StageKind::Sigmoid
            | StageKind::Softpick
            | StageKind::SinkWeights
            | StageKind::FirstSoftmax
            | StageKind::SecondSoftmax
            | StageKind::Differential
            | StageKind::Decay
            | StageKind::Decayed => (Axis::QueryTokens, Axis::KeyTokens),
            StageKind::FeatureQueries => (Axis::QueryTokens, Axis::Features),
            StageKind::FeatureKeys => (Axis::KeyTokens, Axis::Features),
            StageKind::Similarity | StageKind::Implied => (Axis::QueryTokens, Axis::KeyTokens),
        }
    }

    /// How the stage's values are coloured in `family`'s pipeline.
    pub fn coloured(self, family: Family) -> StageValues {
        match self {
            StageKind::Softmax
            | StageKind::Implied
            | StageKind::PlusOne
            | StageKind::Sigmoid
            | StageKind::Softpick
            | StageKind::SinkWeights
            | StageKind::FirstSoftmax
            | StageKind::SecondSoftmax
            | StageKind::Differential
            | StageKind::Decay
            | StageKind::Decayed => StageValues::Weights,
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

    /// The stage as a heatmap figure titled `title`, its words in `lang`: weights on the
    /// `0..=1` scale, signed matrices on a diverging one, blocked cells hatched.
    pub fn heatmap(&self, title: impl Into<String>, lang: Lang) -> Result<Heatmap, HeatmapError> {
        let values: Vec<f32> = self.values.iter().copied().collect();
        let (rows, cols) = (self.rows.clone(), self.cols.clone());
        let value = text::STEPS_VALUE_LABEL.get(lang);
        let fig = match self.coloured {
            // The lab's own weights figure: weights that go negative (differential,
            // decayed) on its diverging palette, above 1 on a wider sequential scale.
            StageValues::Weights => {
                let allowed = match &self.blocked {
                    Some(b) => Mask::from_array(b.mapv(|x| !x)),
                    None => Mask::full(self.values.nrows(), self.values.ncols()),
                };
                let fig = attnlab_lab::figure::weights_heatmap(
                    title,
                    rows,
                    cols,
                    values.into(),
                    &allowed,
                    &[],
                )?
                .with_words(plot_words(lang))
                .with_axis_titles(self.row_axis.title(lang), self.col_axis.title(lang));
                return Ok(fig);
            }
            StageValues::Signed => {
                Heatmap::difference(title, rows, cols, values)?.with_value_label(value)
            }
            StageValues::NonNegative => {
                let max = values.iter().fold(0f32, |a, &b| a.max(b));
                let range = ValueRange::new(0.0, max).unwrap_or(ValueRange::UNIT);
                Heatmap::weights(title, rows, cols, values)?
                    .with_range(range)
                    .with_value_label(value)
            }
        };
        let fig = fig
            .with_words(plot_words(lang))
            .with_axis_titles(self.row_axis.title(lang), self.col_axis.title(lang));
        match &self.blocked {
            Some(b) => fig.with_blocked(b.iter().copied().collect()),
            None => Ok(fig),
        }
    }
}

/// What `X` is made of, and where the keys' `X` comes from.
pub(super) fn input_note(model: &ModelConfig, mode: Mode, lang: Lang) -> String {
    let words = match model.embedding_scale {
        EmbeddingScale::Unit => text::STEPS_INPUT_WORDS_UNIT,
        EmbeddingScale::SqrtDModel => text::STEPS_INPUT_WORDS_SCALED,
    }
    .get(lang);
    let d = model.d_model;
    let pos = match (model.position.kind, model.position.combine) {
        (PositionKind::None, _) => text::STEPS_INPUT_NO_POSITIONS.get(lang).to_string(),
        (kind, Combine::Add) => text::StepsInputAdded {
            words: &words,
            kind: &position_name(kind, lang),
            width: &d,
        }
        .say(lang),
        (kind, Combine::Concat { d_pos }) => text::StepsInputConcatenated {
            words: &words,
            kind: &position_name(kind, lang),
            width: &d,
            d_pos: &d_pos,
        }
        .say(lang),
    };
    match mode {
        Mode::Cross => text::StepsInputCross { positions: &pos }.say(lang),
        Mode::SelfAttention => text::StepsInputSelf { positions: &pos }.say(lang),
    }
}

fn position_name(kind: PositionKind, lang: Lang) -> &'static str {
    match kind {
        PositionKind::None => text::STEPS_POSITION_NONE,
        PositionKind::Sinusoidal => text::STEPS_POSITION_SINUSOIDAL,
        PositionKind::Learned => text::STEPS_POSITION_LEARNED,
    }
    .get(lang)
}

/// One sentence on the score function (or Linformer's scores against projected keys).
pub(super) fn score_note(f: ScoreFunction, keys: Keys, lang: Lang) -> String {
    if keys == Keys::Projected {
        return text::STEPS_SCORE_PROJECTED.get(lang).to_string();
    }
    match f {
        ScoreFunction::Dot => text::STEPS_SCORE_DOT,
        ScoreFunction::ScaledDot => text::STEPS_SCORE_SCALED_DOT,
        ScoreFunction::General => text::STEPS_SCORE_GENERAL,
        ScoreFunction::Additive => text::STEPS_SCORE_ADDITIVE,
        ScoreFunction::Cosine => text::STEPS_SCORE_COSINE,
    }
    .get(lang)
    .to_string()
}

/// What the scaling divides by.
pub(super) fn scaled_note(score: ScoreFunction, d_k: usize, tau: f32, lang: Lang) -> String {
    let t = number::decimals(tau, 2);
    let root = number::decimals((d_k as f32).sqrt(), 3);
    match score {
        ScoreFunction::ScaledDot => text::StepsScaledRoot {
            d_k: &d_k,
            root: &root,
            tau: &t,
        }
        .say(lang),
        _ => text::StepsScaledTauOnly { tau: &t }.say(lang),
    }
}

/// Which masks block cells, and how many rows are left empty.
pub(super) fn masked_note(variant: &Variant, empty_rows: usize, lang: Lang) -> String {
    let on = variant.masks.on();
    if on.is_empty() {
        return text::STEPS_MASKED_NONE.get(lang).to_string();
    }
    let names: Vec<&str> = on.iter().map(|&k| k.shown(lang)).collect();
    let masks = names.join(text::STEPS_MASK_JOINER.get(lang));
    let mut s = text::StepsMaskedBlocked { masks: &masks }.say(lang);
    if let Some(sinks) = variant.masks.sinks {
        s.push_str(&text::StepsSinksNote { s: &sinks }.say(lang));
    }
    if empty_rows > 0 {
        s.push_str(&text::StepsMaskedEmptyRows { rows: &empty_rows }.say(lang));
    }
    s
}

/// What the feature map does to an entry.
pub(super) fn feature_note(map: FeatureMap, lang: Lang) -> String {
    match map {
        FeatureMap::Elu1 => text::STEPS_FEATURE_ELU1,
        FeatureMap::Relu => text::STEPS_FEATURE_RELU,
        FeatureMap::Taylor => text::STEPS_FEATURE_TAYLOR,
    }
    .get(lang)
    .to_string()
}

/// How a linear variant's output was computed.
pub(super) fn linear_output_note(c: Computation, lang: Lang) -> String {
    match c {
        Computation::LinearRecurrent => text::STEPS_LINEAR_RECURRENT,
        Computation::LinearMaskedQuadratic => text::STEPS_LINEAR_MASKED_QUADRATIC,
        _ => text::STEPS_LINEAR_GLOBAL,
    }
    .get(lang)
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_family_and_every_family_starts_and_ends_alike() {
        for kind in AttentionKind::EVERY {
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
        let en = Lang::En;
        assert_eq!(
            StageKind::HeadOutput.name(Family::Softmax, en),
            "Weights · V"
        );
        assert_eq!(
            StageKind::HeadOutput.name(kernel, en),
            "Output (linear form)"
        );
        assert_eq!(
            StageKind::FeatureQueries.name(Family::Efficient, en),
            "φ(Q) = softmax over features"
        );
        assert_eq!(
            StageKind::HeadOutput.name(kernel, Lang::Zh),
            "输出（线性形式）"
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
