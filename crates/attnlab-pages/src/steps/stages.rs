//! The stage list and what each stage is: its kind, name, axes, colouring, and the
//! sentence that explains it. Nothing here computes a matrix.

use attnlab_core::attention::{AttentionKind, Computation};
use attnlab_core::embed::EmbeddingScale;
use attnlab_core::linear::FeatureMap;
use attnlab_core::position::{Combine, PositionKind};
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{Heatmap, HeatmapError, ValueRange, number};
use ndarray::Array2;

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
    /// The axis title in `lang`, e.g. `"query tokens"`.
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Axis::QueryTokens => lang.pick("query tokens", "查询词元"),
            Axis::KeyTokens => lang.pick("key tokens", "键词元"),
            Axis::ProjectedKeys => lang.pick("projected keys", "投影后的键"),
            Axis::Dimensions => lang.pick("dimensions", "维度"),
            Axis::Features => lang.pick("features", "特征"),
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
    /// The stage's short name in `family`'s pipeline, in `lang`, e.g. `"Raw scores"`.
    pub fn name(self, family: Family, lang: Lang) -> &'static str {
        let linear = matches!(family, Family::Kernel(_) | Family::Efficient);
        let l = lang;
        match self {
            StageKind::Input => l.pick("Input X", "输入 X"),
            StageKind::Queries => l.pick("Queries Q", "查询 Q"),
            StageKind::Keys => l.pick("Keys K", "键 K"),
            StageKind::Values => l.pick("Values V", "值 V"),
            StageKind::ProjectedKeys => l.pick(
                "Projected keys K\u{2032} = E K",
                "投影后的键 K\u{2032} = E K",
            ),
            StageKind::ProjectedValues => l.pick(
                "Projected values V\u{2032} = F V",
                "投影后的值 V\u{2032} = F V",
            ),
            StageKind::Scores => l.pick("Raw scores", "原始分数"),
            StageKind::Scaled => l.pick("Scaled", "缩放"),
            StageKind::Masked => l.pick("Masked", "掩码"),
            StageKind::Softmax => l.pick("Softmax weights", "softmax 权重"),
            StageKind::FeatureQueries if family == Family::Efficient => l.pick(
                "\u{3c6}(Q) = softmax over features",
                "\u{3c6}(Q) = 对特征做 softmax",
            ),
            StageKind::FeatureQueries => l.pick("Feature map \u{3c6}(Q)", "特征映射 \u{3c6}(Q)"),
            StageKind::FeatureKeys if family == Family::Efficient => l.pick(
                "\u{3c6}(K) = softmax over positions",
                "\u{3c6}(K) = 对位置做 softmax",
            ),
            StageKind::FeatureKeys => l.pick("Feature map \u{3c6}(K)", "特征映射 \u{3c6}(K)"),
            StageKind::Similarity => l.pick("Similarities", "相似度"),
            StageKind::Implied => l.pick("Implied weights \u{c2}", "隐含权重 \u{c2}"),
            StageKind::HeadOutput if linear => l.pick("Output (linear form)", "输出（线性形式）"),
            StageKind::HeadOutput => l.pick("Weights \u{b7} V", "权重 \u{b7} V"),
            StageKind::Output => l.pick("Concat \u{b7} W^O", "拼接 \u{b7} W^O"),
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

    /// The stage as a heatmap figure titled `title`, its words in `lang`: weights on the
    /// `0..=1` scale, signed matrices on a diverging one, blocked cells hatched.
    pub fn heatmap(&self, title: impl Into<String>, lang: Lang) -> Result<Heatmap, HeatmapError> {
        let values: Vec<f32> = self.values.iter().copied().collect();
        let (rows, cols) = (self.rows.clone(), self.cols.clone());
        let value = lang.pick("value", "值");
        let fig = match self.coloured {
            StageValues::Weights => Heatmap::weights(title, rows, cols, values)?,
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
    let words = match (model.embedding_scale, lang) {
        (EmbeddingScale::Unit, Lang::En) => "word vectors",
        (EmbeddingScale::Unit, Lang::Zh) => "词向量",
        (EmbeddingScale::SqrtDModel, Lang::En) => "word vectors ×√d_model",
        (EmbeddingScale::SqrtDModel, Lang::Zh) => "词向量 ×√d_model ",
    };
    let d = model.d_model;
    let pos = match (model.position.kind, model.position.combine, lang) {
        (PositionKind::None, _, Lang::En) => {
            "no positions: X is the word vectors alone, so word order is invisible (a bag of words)"
                .to_string()
        }
        (PositionKind::None, _, Lang::Zh) => {
            "没有位置编码：X 只是词向量，词序不可见（词袋）".to_string()
        }
        (kind, Combine::Add, Lang::En) => format!(
            "{words} plus {} position vectors, added (width d_model = {d})",
            position_name(kind, lang),
        ),
        (kind, Combine::Add, Lang::Zh) => format!(
            "{words}加上{}位置向量，逐项相加（宽度 d_model = {d}）",
            position_name(kind, lang),
        ),
        (kind, Combine::Concat { d_pos }, Lang::En) => format!(
            "{words} and {} position vectors, concatenated (width {d} + {d_pos})",
            position_name(kind, lang),
        ),
        (kind, Combine::Concat { d_pos }, Lang::Zh) => format!(
            "{words}与{}位置向量拼接（宽度 {d} + {d_pos}）",
            position_name(kind, lang),
        ),
    };
    match (mode, lang) {
        (Mode::Cross, Lang::En) => {
            format!("X: {pos}. The keys and values come from the source sentence's own X.")
        }
        (Mode::Cross, Lang::Zh) => format!("X：{pos}。键和值来自源句自己的 X。"),
        (Mode::SelfAttention, Lang::En) => format!("X: {pos}."),
        (Mode::SelfAttention, Lang::Zh) => format!("X：{pos}。"),
    }
}

fn position_name(kind: PositionKind, lang: Lang) -> &'static str {
    match kind {
        PositionKind::None => lang.pick("no", "无"),
        PositionKind::Sinusoidal => lang.pick("sinusoidal", "正弦"),
        PositionKind::Learned => lang.pick("learned (seeded)", "可学习（按种子生成）的"),
    }
}

/// One sentence on the score function (or Linformer's scores against projected keys).
pub(super) fn score_note(f: ScoreFunction, keys: Keys, lang: Lang) -> String {
    if keys == Keys::Projected {
        return lang
            .pick(
                "Each query against each projected key: qᵀk′.",
                "每个查询与每个投影后的键相比：qᵀk′。",
            )
            .to_string();
    }
    match f {
        ScoreFunction::Dot => lang.pick(
            "The dot product of every query with every key.",
            "每个查询与每个键的点积。",
        ),
        ScoreFunction::ScaledDot => lang.pick(
            "The plain dot product qᵀk of every query with every key (the scaling comes next).",
            "每个查询与每个键的普通点积 qᵀk（缩放在下一步）。",
        ),
        ScoreFunction::General => lang.pick(
            "Bilinear (Luong): qᵀWk with a seeded d_k×d_k matrix W.",
            "双线性（Luong）：qᵀWk，W 是按种子生成的 d_k×d_k 矩阵。",
        ),
        ScoreFunction::Additive => lang.pick(
            "Additive (Bahdanau): a small tanh network of the query and the key.",
            "加性（Bahdanau）：以查询和键为输入的小型 tanh 网络。",
        ),
        ScoreFunction::Cosine => lang.pick(
            "Cosine: the dot product of unit vectors, between −1 and 1.",
            "余弦：单位向量的点积，介于 −1 与 1 之间。",
        ),
    }
    .to_string()
}

/// What the scaling divides by.
pub(super) fn scaled_note(score: ScoreFunction, d_k: usize, tau: f32, lang: Lang) -> String {
    let t = number::decimals(tau, 2);
    let root = number::decimals((d_k as f32).sqrt(), 3);
    match (score, lang) {
        (ScoreFunction::ScaledDot, Lang::En) => format!(
            "Divided by √d_k = √{d_k} = {root} and by τ = {t}: this keeps the softmax from \
             becoming nearly one-hot as d_k grows."
        ),
        (ScoreFunction::ScaledDot, Lang::Zh) => format!(
            "除以 √d_k = √{d_k} = {root}，再除以 τ = {t}：这样 d_k 增大时 softmax 不会变得近乎独热。"
        ),
        (_, Lang::En) => format!(
            "Divided by τ = {t} only: this score function is not scaled by √d_k \
             (choose scaled dot to see that)."
        ),
        (_, Lang::Zh) => {
            format!("只除以 τ = {t}：这个打分函数不按 √d_k 缩放（选择缩放点积可以看到缩放）。")
        }
    }
}

/// Which masks block cells, and how many rows are left empty.
pub(super) fn masked_note(variant: &Variant, empty_rows: usize, lang: Lang) -> String {
    let on = variant.masks.on();
    if on.is_empty() {
        return lang
            .pick(
                "No mask is on: every key is allowed, the logits pass unchanged.",
                "没有开启掩码：每个键都被允许，分数原样通过。",
            )
            .to_string();
    }
    let names: Vec<&str> = on.iter().map(|&k| crate::mask_name(k, lang)).collect();
    match lang {
        Lang::En => {
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
        Lang::Zh => {
            let mut s = format!(
                "被屏蔽的单元格（{}）变为 −∞，softmax 给它们的权重恰好为 0。",
                names.join("、")
            );
            if empty_rows > 0 {
                s.push_str(&format!(
                    "有 {empty_rows} 行没有允许的键：它们的权重全为 0。"
                ));
            }
            s
        }
    }
}

/// What the feature map does to an entry.
pub(super) fn feature_note(map: FeatureMap, lang: Lang) -> String {
    match map {
        FeatureMap::Elu1 => lang.pick(
            "φ(x) = elu(x) + 1 on every entry: positive, smooth.",
            "对每个元素取 φ(x) = elu(x) + 1：为正且平滑。",
        ),
        FeatureMap::Relu => lang.pick(
            "φ(x) = max(x, 0) on every entry: negative entries vanish.",
            "对每个元素取 φ(x) = max(x, 0)：负的元素变为 0。",
        ),
        FeatureMap::Taylor => lang.pick(
            "φ(x) = [1, x/‖x‖]: so φ(q)ᵀφ(k) = 1 + q̂ᵀk̂, the first-order Taylor term of exp.",
            "φ(x) = [1, x/‖x‖]：于是 φ(q)ᵀφ(k) = 1 + q̂ᵀk̂，即 exp 的一阶泰勒展开。",
        ),
    }
    .to_string()
}

/// How a linear variant's output was computed.
pub(super) fn linear_output_note(c: Computation, lang: Lang) -> String {
    match c {
        Computation::LinearRecurrent => lang.pick(
            "Computed as an RNN: running sums S_i, z_i over j ≤ i, never the n×n matrix.",
            "按 RNN 计算：对 j ≤ i 累加 S_i、z_i，从不构造 n×n 矩阵。",
        ),
        Computation::LinearMaskedQuadratic => lang.pick(
            "This mask breaks the factorisation: the output is Â V, \
             quadratic — the variant is no longer linear.",
            "这个掩码破坏了分解：输出是 Â V，复杂度为二次——这个变体不再是线性的。",
        ),
        _ => lang.pick(
            "Computed in O(n): one global d×d_v state, never the n×n matrix.",
            "以 O(n) 计算：一个全局的 d×d_v 状态，从不构造 n×n 矩阵。",
        ),
    }
    .to_string()
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
