//! The pipeline of one variant, stage by stage, for one head and one query token (the
//! "Step by step" view): `X` → `Q`, `K`, `V` → scores → scaled → masked → softmax (or
//! the feature maps φ of a linear variant) → weights · `V` → concat · `W^O`.
//!
//! Every matrix comes from the core's own functions on the variant's validated
//! [`Problem`] (`score::scores`, the built mask, `softmax::softmax_masked`, the feature
//! maps, `linear::efficient`, `Problem::combine`), so what a stage shows is what the lab
//! computes: the tests check the softmax stage against `compute_head` exactly. Each
//! stage carries its formula for the current variant as MathML markup, which browsers
//! render natively.

use attnlab_core::attention::{AttentionKind, HeadResult, Problem};
use attnlab_core::linear::{self, FeatureMap};
use attnlab_core::model::{Encoded, Projection};
use attnlab_core::position::{Combine, PositionKind};
use attnlab_core::score::{self, ScoreFunction, ScoreParams};
use attnlab_core::softmax;
use attnlab_core::{CoreError, embed::EmbeddingScale};
use attnlab_plot::{Heatmap, HeatmapError, ValueRange};
use ndarray::Array2;

use crate::compute::{self, LabError};
use crate::state::{Mode, ModelSettings, Variant};

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

/// One stage: a labelled matrix, the row of the selected query (if the rows are
/// queries), and the formula of the current variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    /// Which step this is.
    pub kind: StageKind,
    /// A short name, e.g. `"Raw scores"`.
    pub name: String,
    /// What the rows are, e.g. `"query tokens"`.
    pub row_axis: String,
    /// What the columns are, e.g. `"key tokens"` or `"dimensions"`.
    pub col_axis: String,
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
    /// The highlighted row: the selected query when the rows are the queries.
    pub highlight: Option<usize>,
    /// The formula of this stage for the current variant: one `<math>` element.
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

    /// Row `i` as shown: `None` for a blocked cell (`−∞` logits, or a masked weight).
    pub fn row_values(&self, i: usize) -> Option<Vec<Option<f32>>> {
        if i >= self.values.nrows() {
            return None;
        }
        Some(
            self.values
                .row(i)
                .iter()
                .enumerate()
                .map(|(j, &v)| (!self.is_blocked(i, j)).then_some(v))
                .collect(),
        )
    }

    /// The value a blocked cell reads as: `−∞` for logits, `0` for weights.
    pub fn blocked_text(&self) -> &'static str {
        match self.kind {
            StageKind::Masked => "\u{2212}\u{221e}",
            _ => "0",
        }
    }

    /// Row `i` as text, each value rounded to `digits` decimals (`−∞` for a blocked
    /// logit), e.g. `"0.125, −∞, 0.875"`; when the columns are tokens, each value follows
    /// its token, e.g. `"The 0.125, animal −∞, it 0.875"`.
    pub fn row_text(&self, i: usize, digits: usize) -> Option<String> {
        let row = self.row_values(i)?;
        let tokens = self.col_axis.ends_with("keys") || self.col_axis.ends_with("tokens");
        Some(
            row.iter()
                .enumerate()
                .map(|(j, v)| {
                    let value = match v {
                        Some(v) => format_number(*v, digits),
                        None => self.blocked_text().to_string(),
                    };
                    match self.cols.get(j) {
                        Some(label) if tokens => format!("{label} {value}"),
                        _ => value,
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
        )
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
        let fig = fig.with_axis_titles(self.row_axis.clone(), self.col_axis.clone());
        match &self.blocked {
            Some(b) => fig.with_blocked(b.iter().copied().collect()),
            None => Ok(fig),
        }
    }
}

/// Rounds `v` to `digits` decimals, with a true minus sign (`−0.125`) and no `−0`.
pub fn format_number(v: f32, digits: usize) -> String {
    let s = format!("{v:.digits$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().any(|c| c.is_ascii_digit() && c != '0') => {
            format!("\u{2212}{rest}")
        }
        Some(rest) => rest.to_string(),
        None => s,
    }
}

/// What the stages are computed from: the state's model and variant, the queries'
/// encoded input, the variant's problem, and the token labels.
#[derive(Debug, Clone, Copy)]
pub struct StepsInput<'a> {
    /// The model settings (positions, projections, `d_k`).
    pub model: &'a ModelSettings,
    /// The variant walked through.
    pub variant: &'a Variant,
    /// Self-attention or cross-attention (keys from the source).
    pub mode: Mode,
    /// The queries' word vectors, positions and `X`.
    pub encoded: &'a Encoded,
    /// The variant's validated problem.
    pub problem: &'a Problem,
    /// The query token labels.
    pub queries: &'a [String],
    /// The key token labels (the tokens themselves, also for Linformer: the stages
    /// label its projected keys).
    pub keys: &'a [String],
}

fn dims(n: usize) -> Vec<String> {
    (0..n).map(|i| i.to_string()).collect()
}

fn finite(a: &Array2<f32>, what: &'static str) -> Result<(), LabError> {
    if a.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(LabError::Core(CoreError::Overflow { head: 0, what }))
    }
}

/// A stage under construction.
struct Builder<'a> {
    input: &'a StepsInput<'a>,
    query: Option<usize>,
    head: usize,
    stages: Vec<Stage>,
}

impl Builder<'_> {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: StageKind,
        name: &str,
        rows: (&str, Vec<String>),
        cols: (&str, Vec<String>),
        values: Array2<f32>,
        coloured: StageValues,
        formula: String,
        note: String,
    ) {
        let query_rows = rows.0 == QUERY_ROWS;
        self.stages.push(Stage {
            kind,
            name: name.to_string(),
            row_axis: rows.0.to_string(),
            col_axis: cols.0.to_string(),
            rows: rows.1,
            cols: cols.1,
            values,
            blocked: None,
            coloured,
            highlight: if query_rows { self.query } else { None },
            formula,
            note,
        });
    }

    fn block(&mut self, blocked: Array2<bool>) {
        if let Some(last) = self.stages.last_mut() {
            last.blocked = Some(blocked);
        }
    }

    fn queries(&self) -> (&'static str, Vec<String>) {
        (QUERY_ROWS, self.input.queries.to_vec())
    }

    fn keys(&self) -> (&'static str, Vec<String>) {
        ("key tokens", self.input.keys.to_vec())
    }

    fn h(&self) -> String {
        self.head.to_string()
    }
}

const QUERY_ROWS: &str = "query tokens";

/// The stages of head `head` of the input's variant, with row `query` highlighted where
/// the rows are the queries (a query past the last is not highlighted).
///
/// Softmax: X, Q, K, V, raw scores, scaled, masked, softmax, weights · V, concat · W^O.
/// Linformer: X, Q, K, V, K' = E K, V' = F V, raw scores, scaled, softmax, weights · V',
/// concat · W^O. Kernel variants (elu1, relu, taylor): X, Q, K, V, φ(Q), φ(K),
/// similarities, implied Â, output, concat · W^O. Efficient: X, Q, K, V,
/// softmax_row(Q), softmax_col(K), implied Â, output, concat · W^O.
pub fn steps(input: &StepsInput<'_>, head: usize, query: usize) -> Result<Vec<Stage>, LabError> {
    let problem = input.problem;
    let heads = compute::compute_heads(problem)?;
    let result: &HeadResult = heads.get(head).ok_or_else(|| {
        LabError::Core(CoreError::InvalidSetting {
            field: "head",
            reason: format!(
                "there are {} heads, numbered from 0, so there is no head {head}",
                heads.len()
            ),
        })
    })?;
    let hin = &problem.heads()[head];
    let spec = problem.spec();
    let n = hin.q.nrows();
    let m = hin.k.nrows();
    let d_k = hin.q.ncols();
    let mut b = Builder {
        input,
        query: (query < n).then_some(query),
        head,
        stages: Vec::new(),
    };
    let h = b.h();
    let cross = input.mode == Mode::Cross;
    let identity = input.model.projection == Projection::Identity;

    // X.
    let x = &input.encoded.x;
    b.push(
        StageKind::Input,
        "Input X",
        b.queries(),
        ("dimensions", dims(x.ncols())),
        x.clone(),
        StageValues::Signed,
        math::input(input.model, b.query.and_then(|i| input.queries.get(i))),
        input_note(input.model, cross),
    );

    // Q, K, V.
    let (xq, xkv) = if cross { ("X", "X_src") } else { ("X", "X") };
    b.push(
        StageKind::Queries,
        "Queries Q",
        b.queries(),
        ("dimensions", dims(d_k)),
        hin.q.clone(),
        StageValues::Signed,
        math::projection("Q", xq, "W", "Q", &h, identity),
        format!(
            "Each query token's row of X times head {head}'s W^Q: {n} queries of width d_k = {d_k}."
        ),
    );
    b.push(
        StageKind::Keys,
        "Keys K",
        b.keys(),
        ("dimensions", dims(d_k)),
        hin.k.clone(),
        StageValues::Signed,
        math::projection("K", xkv, "W", "K", &h, identity),
        if cross {
            format!("Keys come from the source sentence: {m} keys of width {d_k}.")
        } else {
            format!("The same tokens, projected with W^K: {m} keys of width {d_k}.")
        },
    );
    b.push(
        StageKind::Values,
        "Values V",
        b.keys(),
        ("dimensions", dims(hin.v.ncols())),
        hin.v.clone(),
        StageValues::Signed,
        math::projection("V", xkv, "W", "V", &h, identity),
        "The values are what the weights will mix, one row per key.".to_string(),
    );

    let mask = problem.mask();
    let blocked_of = |allowed: &Array2<bool>| allowed.mapv(|a| !a);
    match spec.attention {
        AttentionKind::Softmax | AttentionKind::Linformer => {
            let linformer = spec.attention == AttentionKind::Linformer;
            let (keys, values, key_axis) = if linformer {
                let lin = hin.linformer.as_ref().expect("a validated Linformer head");
                let kp = lin.e.dot(&hin.k).as_standard_layout().into_owned();
                let vp = lin.f.dot(&hin.v).as_standard_layout().into_owned();
                let labels: Vec<String> = (0..lin.e.nrows()).map(|j| format!("k'{j}")).collect();
                let k = lin.e.nrows();
                b.push(
                    StageKind::ProjectedKeys,
                    "Projected keys K′ = E K",
                    ("projected keys", labels.clone()),
                    ("dimensions", dims(d_k)),
                    kp.clone(),
                    StageValues::Signed,
                    math::linformer_projection("K", "E", k, m),
                    format!(
                        "Linformer mixes the {m} keys into k = {k} projected keys with a seeded E (k×m)."
                    ),
                );
                b.push(
                    StageKind::ProjectedValues,
                    "Projected values V′ = F V",
                    ("projected keys", labels.clone()),
                    ("dimensions", dims(vp.ncols())),
                    vp.clone(),
                    StageValues::Signed,
                    math::linformer_projection("V", "F", k, m),
                    format!("The values are mixed the same way with F (k×m): {k} rows."),
                );
                (kp, vp, ("projected keys", labels))
            } else {
                (hin.k.clone(), hin.v.clone(), b.keys())
            };
            // Raw scores: the score function before any scaling. For the scaled
            // dot product that is the plain dot product; the scaling is the next stage.
            let (raw_fn, params) = match (spec.score, linformer) {
                (_, true) | (ScoreFunction::ScaledDot, false) => {
                    (ScoreFunction::Dot, &ScoreParams::None)
                }
                (f, false) => (f, &hin.score_params),
            };
            let raw = score::scores(raw_fn, &hin.q, &keys, params);
            finite(&raw, "scores")?;
            let score_fn = if linformer {
                ScoreFunction::ScaledDot
            } else {
                spec.score
            };
            b.push(
                StageKind::Scores,
                "Raw scores",
                b.queries(),
                key_axis.clone(),
                raw,
                StageValues::Signed,
                math::scores(score_fn, linformer),
                math::score_note(score_fn, linformer),
            );
            // Logits exactly as the core forms them: the score function, then ÷ τ.
            let scored = if linformer {
                score::scores(ScoreFunction::ScaledDot, &hin.q, &keys, &ScoreParams::None)
            } else {
                score::scores(spec.score, &hin.q, &hin.k, &hin.score_params)
            };
            let logits = scored.mapv(|s| s / spec.temperature);
            finite(&logits, "logits (score / temperature)")?;
            b.push(
                StageKind::Scaled,
                "Scaled",
                b.queries(),
                key_axis.clone(),
                logits.clone(),
                StageValues::Signed,
                math::scaled(score_fn, d_k, spec.temperature),
                scaled_note(score_fn, d_k, spec.temperature),
            );
            let weights = if linformer {
                let full = attnlab_core::mask::Mask::full(n, keys.nrows());
                softmax::softmax_masked(&logits, &full)
            } else {
                b.push(
                    StageKind::Masked,
                    "Masked",
                    b.queries(),
                    key_axis.clone(),
                    logits.clone(),
                    StageValues::Signed,
                    math::masked(input.variant),
                    masked_note(input.variant, mask.empty_rows().len()),
                );
                b.block(blocked_of(mask.allowed()));
                softmax::softmax_masked(&logits, mask)
            };
            b.push(
                StageKind::Softmax,
                "Softmax weights",
                b.queries(),
                key_axis,
                weights.clone(),
                StageValues::Weights,
                math::softmax(),
                "Each row becomes a probability distribution over the keys: it sums to 1 \
                 (a row with no allowed key is all zeros)."
                    .to_string(),
            );
            if !linformer {
                b.block(blocked_of(mask.allowed()));
            }
            let out = linear::weights_times_values(&weights, &values);
            b.push(
                StageKind::HeadOutput,
                "Weights · V",
                b.queries(),
                ("dimensions", dims(out.ncols())),
                out,
                StageValues::Signed,
                math::head_output(&h, linformer),
                "Each query's output is the weighted mean of the value rows.".to_string(),
            );
        }
        kind @ (AttentionKind::Elu1 | AttentionKind::Relu | AttentionKind::Taylor) => {
            let map = kind.feature_map().expect("a kernel kind");
            let phi_q = map.features(&hin.q);
            let phi_k = map.features(&hin.k);
            finite(&phi_q, "feature maps φ(q)")?;
            finite(&phi_k, "feature maps φ(k)")?;
            let width = phi_q.ncols();
            b.push(
                StageKind::FeatureQueries,
                "Feature map φ(Q)",
                b.queries(),
                ("features", dims(width)),
                phi_q.clone(),
                StageValues::Signed,
                math::feature_map(map, "Q"),
                feature_note(map),
            );
            b.push(
                StageKind::FeatureKeys,
                "Feature map φ(K)",
                b.keys(),
                ("features", dims(width)),
                phi_k.clone(),
                StageValues::Signed,
                math::feature_map(map, "K"),
                "The same map on every key: all entries are ≥ 0, so every similarity is ≥ 0."
                    .to_string(),
            );
            let sim = linear::kernel_similarity(&phi_q, &phi_k, mask);
            finite(&sim, "similarities φ(q)ᵀφ(k)")?;
            b.push(
                StageKind::Similarity,
                "Similarities",
                b.queries(),
                b.keys(),
                sim.clone(),
                StageValues::NonNegative,
                math::similarity(input.variant),
                "Shown for teaching only: linear attention never builds this n×m matrix \
                 to compute its output."
                    .to_string(),
            );
            b.block(blocked_of(mask.allowed()));
            let implied = linear::implied_from_similarity(&sim);
            b.push(
                StageKind::Implied,
                "Implied weights Â",
                b.queries(),
                b.keys(),
                implied,
                StageValues::Weights,
                math::implied(),
                "Each row of similarities divided by its sum (+ ε = 10⁻⁶): the weights the \
                 O(n) computation applies without forming them."
                    .to_string(),
            );
            b.block(blocked_of(mask.allowed()));
            b.push(
                StageKind::HeadOutput,
                "Output (linear form)",
                b.queries(),
                ("dimensions", dims(result.output.ncols())),
                result.output.clone(),
                StageValues::Signed,
                math::linear_output(&h, input.variant.masks.causal),
                linear_output_note(result.computation),
            );
        }
        AttentionKind::Efficient => {
            let qs = linear::softmax_rows(&hin.q);
            let keep = spec.mask.key_allowed(m);
            let ks = linear::softmax_columns(&hin.k, &keep);
            b.push(
                StageKind::FeatureQueries,
                "φ(Q) = softmax over features",
                b.queries(),
                ("features", dims(d_k)),
                qs.clone(),
                StageValues::Weights,
                math::efficient_map("Q"),
                "Each query row is normalised over its d_k features (rows sum to 1).".to_string(),
            );
            b.push(
                StageKind::FeatureKeys,
                "φ(K) = softmax over positions",
                b.keys(),
                ("features", dims(d_k)),
                ks.clone(),
                StageValues::Weights,
                math::efficient_map("K"),
                "Each key feature column is normalised over the positions (columns sum to 1; \
                 padding keys get 0)."
                    .to_string(),
            );
            b.push(
                StageKind::Implied,
                "Implied weights Â",
                b.queries(),
                b.keys(),
                result.weights.clone(),
                StageValues::Weights,
                math::efficient_implied(),
                "Shown for teaching only: the output is computed as φ(Q)(φ(K)ᵀV) in O(n)."
                    .to_string(),
            );
            b.block(blocked_of(result.mask.allowed()));
            b.push(
                StageKind::HeadOutput,
                "Output (linear form)",
                b.queries(),
                ("dimensions", dims(result.output.ncols())),
                result.output.clone(),
                StageValues::Signed,
                math::efficient_output(&h),
                "Efficient attention: d_k×d_v context first, then each query reads it.".to_string(),
            );
        }
    }

    // Concat · W^O: the core's own combination of every head.
    let output = problem.combine(&heads)?;
    let with_wo = !identity;
    b.push(
        StageKind::Output,
        "Concat · W^O",
        b.queries(),
        ("dimensions", dims(output.ncols())),
        output,
        StageValues::Signed,
        math::output(heads.len(), with_wo),
        format!(
            "The {} heads' outputs side by side{}: the layer's output, one row per query.",
            heads.len(),
            if with_wo { ", times W^O" } else { "" }
        ),
    );
    Ok(b.stages)
}

fn input_note(model: &ModelSettings, cross: bool) -> String {
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
    let src = if cross {
        " The keys and values come from the source sentence's own X."
    } else {
        ""
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

fn scaled_note(score: ScoreFunction, d_k: usize, tau: f32) -> String {
    let t = format_number(tau, 2);
    match score {
        ScoreFunction::ScaledDot => format!(
            "Divided by √d_k = √{d_k} = {} and by τ = {t}: this keeps the softmax from \
             becoming nearly one-hot as d_k grows.",
            format_number((d_k as f32).sqrt(), 3)
        ),
        _ => format!(
            "Divided by τ = {t} only: this score function is not scaled by √d_k \
             (choose scaled dot to see that)."
        ),
    }
}

fn masked_note(variant: &Variant, empty_rows: usize) -> String {
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

fn feature_note(map: FeatureMap) -> String {
    match map {
        FeatureMap::Elu1 => "φ(x) = elu(x) + 1 on every entry: positive, smooth.".to_string(),
        FeatureMap::Relu => "φ(x) = max(x, 0) on every entry: negative entries vanish.".to_string(),
        FeatureMap::Taylor => {
            "φ(x) = [1, x/‖x‖]: so φ(q)ᵀφ(k) = 1 + q̂ᵀk̂, the first-order Taylor term of exp."
                .to_string()
        }
    }
}

fn linear_output_note(c: attnlab_core::attention::Computation) -> String {
    use attnlab_core::attention::Computation as C;
    match c {
        C::LinearRecurrent => {
            "Computed as an RNN: running sums S_i, z_i over j ≤ i, never the n×n matrix.".into()
        }
        C::LinearMaskedQuadratic => "This mask breaks the factorisation: the output is Â V, \
             quadratic — the variant is no longer linear."
            .into(),
        _ => "Computed in O(n): one global d×d_v state, never the n×n matrix.".into(),
    }
}

/// MathML markup for the formulas, built from strings (token text is escaped).
pub mod math {
    use super::*;

    /// Escapes `&`, `<`, `>` and `"` for text inside MathML.
    pub fn escape(text: &str) -> String {
        let mut s = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '&' => s.push_str("&amp;"),
                '<' => s.push_str("&lt;"),
                '>' => s.push_str("&gt;"),
                '"' => s.push_str("&quot;"),
                c => s.push(c),
            }
        }
        s
    }

    fn wrap(inner: &str) -> String {
        format!(
            "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\">{inner}</math>"
        )
    }
    fn mi(x: &str) -> String {
        format!("<mi>{}</mi>", escape(x))
    }
    fn mo(x: &str) -> String {
        format!("<mo>{}</mo>", escape(x))
    }
    fn mn(x: &str) -> String {
        format!("<mn>{}</mn>", escape(x))
    }
    fn mtext(x: &str) -> String {
        format!("<mtext>{}</mtext>", escape(x))
    }
    fn row(parts: &[String]) -> String {
        format!("<mrow>{}</mrow>", parts.concat())
    }
    fn sub(base: String, s: String) -> String {
        format!("<msub>{base}{s}</msub>")
    }
    fn sup(base: String, s: String) -> String {
        format!("<msup>{base}{s}</msup>")
    }
    fn subsup(base: String, s: String, p: String) -> String {
        format!("<msubsup>{base}{s}{p}</msubsup>")
    }
    fn frac(a: String, b: String) -> String {
        format!("<mfrac>{a}{b}</mfrac>")
    }
    fn sqrt(a: String) -> String {
        format!("<msqrt>{a}</msqrt>")
    }
    fn t(x: String) -> String {
        sup(x, mi("\u{22a4}"))
    }
    fn paren(x: String) -> String {
        row(&[mo("("), x, mo(")")])
    }

    /// `X = E + PE` (or the concatenation, or `E` alone), and the selected row.
    pub fn input(model: &ModelSettings, token: Option<&String>) -> String {
        let e = match model.embedding_scale {
            EmbeddingScale::Unit => mi("E"),
            EmbeddingScale::SqrtDModel => {
                row(&[sqrt(sub(mi("d"), mi("model"))), mo("\u{2062}"), mi("E")])
            }
        };
        let pe = match model.position.kind {
            PositionKind::Learned => mi("P"),
            _ => mi("PE"),
        };
        let rhs = match (model.position.kind, model.position.combine) {
            (PositionKind::None, _) => e.clone(),
            (_, Combine::Add) => row(&[e.clone(), mo("+"), pe.clone()]),
            (_, Combine::Concat { .. }) => row(&[mo("["), e.clone(), mo("|"), pe.clone(), mo("]")]),
        };
        let mut parts = vec![mi("X"), mo("="), rhs];
        if let Some(tok) = token {
            let word = row(&[
                mi("e"),
                paren(row(&[mtext(&format!("\u{201c}{tok}\u{201d}"))])),
            ]);
            let line = match (model.position.kind, model.position.combine) {
                (PositionKind::None, _) => word,
                (_, Combine::Add) => row(&[word, mo("+"), pe.clone(), paren(mi("i"))]),
                (_, Combine::Concat { .. }) => {
                    row(&[mo("["), word, mo("|"), pe.clone(), paren(mi("i")), mo("]")])
                }
            };
            parts.extend([mo(";"), mspace(), sub(mi("x"), mi("i")), mo("="), line]);
        }
        wrap(&row(&parts))
    }

    fn mspace() -> String {
        "<mspace width=\"1em\"></mspace>".to_string()
    }

    /// `Q = X W^Q_h` (or `Q = X` for identity projections).
    pub fn projection(
        lhs: &str,
        x: &str,
        w: &str,
        which: &str,
        head: &str,
        identity: bool,
    ) -> String {
        let x = match x.split_once('_') {
            Some((b, s)) => sub(mi(b), mi(s)),
            None => mi(x),
        };
        if identity {
            return wrap(&row(&[mi(lhs), mo("="), x]));
        }
        wrap(&row(&[
            sub(mi(lhs), mn(head)),
            mo("="),
            x,
            mo("\u{2062}"),
            subsup(mi(w), mn(head), mi(which)),
        ]))
    }

    /// Linformer's `K' = E K` (`k × m` times `m × d_k`).
    pub fn linformer_projection(which: &str, by: &str, k: usize, m: usize) -> String {
        wrap(&row(&[
            sup(mi(which), mo("\u{2032}")),
            mo("="),
            mi(by),
            mo("\u{2062}"),
            mi(which),
            mo(","),
            mspace(),
            mi(by),
            mo("\u{2208}"),
            sup(
                mi("\u{211d}"),
                row(&[mn(&k.to_string()), mo("\u{d7}"), mn(&m.to_string())]),
            ),
        ]))
    }

    fn qk() -> String {
        row(&[
            t(sub(mi("q"), mi("i"))),
            mo("\u{2062}"),
            sub(mi("k"), mi("j")),
        ])
    }

    /// The raw score `s_ij` of the score function.
    pub fn scores(f: ScoreFunction, linformer: bool) -> String {
        let s = sub(mi("s"), mi("ij"));
        let body = if linformer {
            row(&[
                t(sub(mi("q"), mi("i"))),
                mo("\u{2062}"),
                subsup(mi("k"), mi("j"), mo("\u{2032}")),
            ])
        } else {
            match f {
                ScoreFunction::Dot | ScoreFunction::ScaledDot => qk(),
                ScoreFunction::General => row(&[
                    t(sub(mi("q"), mi("i"))),
                    mo("\u{2062}"),
                    mi("W"),
                    mo("\u{2062}"),
                    sub(mi("k"), mi("j")),
                ]),
                ScoreFunction::Additive => row(&[
                    t(mi("v")),
                    mo("\u{2062}"),
                    mi("tanh"),
                    paren(row(&[
                        sub(mi("W"), mi("a")),
                        sub(mi("q"), mi("i")),
                        mo("+"),
                        sub(mi("U"), mi("a")),
                        sub(mi("k"), mi("j")),
                    ])),
                ]),
                ScoreFunction::Cosine => frac(
                    qk(),
                    row(&[
                        mo("\u{2016}"),
                        sub(mi("q"), mi("i")),
                        mo("\u{2016}"),
                        mo("\u{2016}"),
                        sub(mi("k"), mi("j")),
                        mo("\u{2016}"),
                    ]),
                ),
            }
        };
        wrap(&row(&[s, mo("="), body]))
    }

    /// The logits `l_ij = s_ij / (√d_k τ)` or `s_ij / τ`.
    pub fn scaled(f: ScoreFunction, d_k: usize, tau: f32) -> String {
        let l = sub(mi("l"), mi("ij"));
        let s = sub(mi("s"), mi("ij"));
        let tau_n = mn(&format_number(tau, 2));
        let parts = if f == ScoreFunction::ScaledDot {
            vec![
                l,
                mo("="),
                frac(
                    s,
                    row(&[sqrt(sub(mi("d"), mi("k"))), mo("\u{2062}"), mi("\u{3c4}")]),
                ),
                mo(","),
                mspace(),
                sub(mi("d"), mi("k")),
                mo("="),
                mn(&d_k.to_string()),
                mo(","),
                mspace(),
                mi("\u{3c4}"),
                mo("="),
                tau_n,
            ]
        } else {
            vec![
                l,
                mo("="),
                frac(s, mi("\u{3c4}")),
                mo(","),
                mspace(),
                mi("\u{3c4}"),
                mo("="),
                tau_n,
            ]
        };
        wrap(&row(&parts))
    }

    fn mask_condition(variant: &Variant) -> String {
        let on = variant.masks.on();
        if on.is_empty() {
            return mtext("every key allowed (no mask)");
        }
        let mut parts = Vec::new();
        for (k, kind) in on.iter().enumerate() {
            if k > 0 {
                parts.push(mo("\u{2227}"));
            }
            parts.push(match kind {
                crate::state::MaskKind::Causal => row(&[mi("j"), mo("\u{2264}"), mi("i")]),
                crate::state::MaskKind::Window => row(&[
                    mo("|"),
                    mi("i"),
                    mo("\u{2212}"),
                    mi("j"),
                    mo("|"),
                    mo("\u{2264}"),
                    mn(&variant.masks.window.unwrap_or(0).to_string()),
                ]),
                other => mtext(other.label()),
            });
        }
        row(&parts)
    }

    /// `l̃_ij = l_ij` where the mask allows, else `−∞`.
    pub fn masked(variant: &Variant) -> String {
        let table = format!(
            "<mrow><mo>{{</mo><mtable>\
             <mtr><mtd>{}</mtd><mtd>{}</mtd></mtr>\
             <mtr><mtd>{}</mtd><mtd>{}</mtd></mtr></mtable></mrow>",
            sub(mi("l"), mi("ij")),
            row(&[mtext("if "), mask_condition(variant)]),
            row(&[mo("\u{2212}"), mi("\u{221e}")]),
            mtext("otherwise"),
        );
        wrap(&row(&[sub(mover_tilde(), mi("ij")), mo("="), table]))
    }

    fn mover_tilde() -> String {
        "<mover><mi>l</mi><mo>~</mo></mover>".to_string()
    }

    /// `a_ij = exp(l̃_ij − max) / Σ exp(…)`.
    pub fn softmax() -> String {
        let e = |j: &str| {
            row(&[
                mi("exp"),
                paren(row(&[
                    sub(mover_tilde(), mi(&format!("i{j}"))),
                    mo("\u{2212}"),
                    sub(mi("max"), mi("j")),
                    sub(mover_tilde(), mi("ij")),
                ])),
            ])
        };
        wrap(&row(&[
            sub(mi("a"), mi("ij")),
            mo("="),
            frac(
                e("j"),
                row(&[sub(mo("\u{2211}"), mi("j\u{2032}")), e("j\u{2032}")]),
            ),
        ]))
    }

    /// The feature map of a kernel variant applied to `of` (`"Q"` or `"K"`).
    pub fn feature_map(map: FeatureMap, of: &str) -> String {
        let x = mi("x");
        let def = match map {
            FeatureMap::Elu1 => row(&[mi("elu"), paren(x), mo("+"), mn("1")]),
            FeatureMap::Relu => row(&[mi("max"), paren(row(&[x, mo(","), mn("0")]))]),
            FeatureMap::Taylor => row(&[
                mo("["),
                mn("1"),
                mo(","),
                frac(mi("x"), row(&[mo("\u{2016}"), mi("x"), mo("\u{2016}")])),
                mo("]"),
            ]),
        };
        wrap(&row(&[
            mi("\u{3c6}"),
            paren(mi("x")),
            mo("="),
            def,
            mo(","),
            mspace(),
            mtext(&format!("applied to each row of {of}")),
        ]))
    }

    /// `S_ij = M_ij φ(q_i)ᵀ φ(k_j)`.
    pub fn similarity(variant: &Variant) -> String {
        let masked = !variant.masks.on().is_empty();
        let mut parts = vec![sub(mi("S"), mi("ij")), mo("=")];
        if masked {
            parts.extend([sub(mi("M"), mi("ij")), mo("\u{2062}")]);
        }
        parts.extend([
            t(row(&[mi("\u{3c6}"), paren(sub(mi("q"), mi("i")))])),
            mo("\u{2062}"),
            mi("\u{3c6}"),
            paren(sub(mi("k"), mi("j"))),
        ]);
        wrap(&row(&parts))
    }

    /// `Â_ij = S_ij / (Σ_j' S_ij' + ε)`.
    pub fn implied() -> String {
        wrap(&row(&[
            sub("<mover><mi>A</mi><mo>^</mo></mover>".to_string(), mi("ij")),
            mo("="),
            frac(
                sub(mi("S"), mi("ij")),
                row(&[
                    sub(mo("\u{2211}"), mi("j\u{2032}")),
                    sub(mi("S"), mi("ij\u{2032}")),
                    mo("+"),
                    mi("\u{3b5}"),
                ]),
            ),
        ]))
    }

    /// Efficient attention's normalisations.
    pub fn efficient_map(of: &str) -> String {
        let (name, over) = if of == "Q" {
            ("softmax_row", "over the d_k features of each row")
        } else {
            ("softmax_col", "over the positions of each column")
        };
        wrap(&row(&[
            mi("\u{3c6}"),
            paren(mi(of)),
            mo("="),
            sub(mi("softmax"), mi(name.trim_start_matches("softmax_"))),
            paren(mi(of)),
            mspace(),
            mtext(over),
        ]))
    }

    /// Efficient attention's implied matrix.
    pub fn efficient_implied() -> String {
        wrap(&row(&[
            "<mover><mi>A</mi><mo>^</mo></mover>".to_string(),
            mo("="),
            mi("\u{3c6}"),
            paren(mi("Q")),
            mo("\u{2062}"),
            mi("\u{3c6}"),
            t(paren(mi("K"))),
        ]))
    }

    /// `O_h = A V` (Linformer: `A V'`).
    pub fn head_output(head: &str, linformer: bool) -> String {
        let v = if linformer {
            sup(mi("V"), mo("\u{2032}"))
        } else {
            mi("V")
        };
        wrap(&row(&[
            sub(mi("O"), mn(head)),
            mo("="),
            mi("A"),
            mo("\u{2062}"),
            v,
        ]))
    }

    /// The O(n) kernel form (causal: sums over `j ≤ i`).
    pub fn linear_output(head: &str, causal: bool) -> String {
        let range = if causal {
            row(&[mi("j"), mo("\u{2264}"), mi("i")])
        } else {
            mi("j")
        };
        let sum = |body: String| row(&[sub(mo("\u{2211}"), range.clone()), body]);
        let phi = |x: &str, i: &str| row(&[mi("\u{3c6}"), paren(sub(mi(x), mi(i)))]);
        wrap(&row(&[
            sub(mi("o"), row(&[mi("i"), mo(","), mn(head)])),
            mo("="),
            frac(
                row(&[
                    t(phi("q", "i")),
                    paren(sum(row(&[phi("k", "j"), t(sub(mi("v"), mi("j")))]))),
                ]),
                row(&[t(phi("q", "i")), sum(phi("k", "j")), mo("+"), mi("\u{3b5}")]),
            ),
        ]))
    }

    /// Efficient attention's output.
    pub fn efficient_output(head: &str) -> String {
        wrap(&row(&[
            sub(mi("O"), mn(head)),
            mo("="),
            mi("\u{3c6}"),
            paren(mi("Q")),
            paren(row(&[mi("\u{3c6}"), t(paren(mi("K"))), mi("V")])),
        ]))
    }

    /// `MultiHead = Concat(O_0 … O_{h−1}) W^O`.
    pub fn output(heads: usize, with_wo: bool) -> String {
        let mut parts = vec![
            mi("MultiHead"),
            mo("="),
            mi("Concat"),
            paren(row(&[
                sub(mi("O"), mn("0")),
                mo(","),
                mo("\u{2026}"),
                mo(","),
                sub(mi("O"), mn(&heads.saturating_sub(1).to_string())),
            ])),
        ];
        if with_wo {
            parts.extend([mo("\u{2062}"), sup(mi("W"), mi("O"))]);
        }
        wrap(&row(&parts))
    }

    /// One sentence on the score function.
    pub fn score_note(f: ScoreFunction, linformer: bool) -> String {
        if linformer {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::Pipeline;
    use crate::state::LabState;

    fn run(state: &LabState, variant: usize, head: usize, query: usize) -> Vec<Stage> {
        let p = Pipeline::new(state);
        let queries = p.queries().labels();
        let v = &state.variants[variant];
        let keys = p.keys().labels();
        let encoded = compute::encode(&state.model, p.queries()).unwrap();
        let problem = p.variant(variant).unwrap().problem;
        let input = StepsInput {
            model: &state.model,
            variant: v,
            mode: state.mode,
            encoded: &encoded,
            problem: &problem,
            queries: &queries,
            keys: &keys,
        };
        steps(&input, head, query).unwrap()
    }

    fn stage(stages: &[Stage], kind: StageKind) -> &Stage {
        stages.iter().find(|s| s.kind == kind).unwrap()
    }

    #[test]
    fn softmax_stages_match_the_lab_exactly() {
        let mut state = LabState::default();
        state.variants[0].masks.causal = true;
        state.variants[0].temperature = 0.7;
        for head in 0..4 {
            let stages = run(&state, 0, head, 7);
            let kinds: Vec<StageKind> = stages.iter().map(|s| s.kind).collect();
            use StageKind::*;
            assert_eq!(
                kinds,
                [
                    Input, Queries, Keys, Values, Scores, Scaled, Masked, Softmax, HeadOutput,
                    Output
                ]
            );
            let r = Pipeline::new(&state).variant(0).unwrap();
            assert_eq!(stage(&stages, Softmax).values, r.heads[head].weights);
            assert_eq!(stage(&stages, HeadOutput).values, r.heads[head].output);
            assert_eq!(
                stage(&stages, Output).values,
                r.problem.combine(&r.heads).unwrap()
            );
            // Scaled = raw / √d_k / τ (d_k = 16).
            let raw = &stage(&stages, Scores).values;
            let scaled = &stage(&stages, Scaled).values;
            assert!((scaled[[3, 2]] - raw[[3, 2]] / 4.0 / 0.7).abs() < 1e-5);
            assert_eq!(stage(&stages, Softmax).highlight, Some(7));
            assert_eq!(stage(&stages, Keys).highlight, None);
        }
    }

    #[test]
    fn masked_stage_reads_minus_infinity_and_rows_sum_to_one() {
        let mut state = LabState::default();
        state.variants[0].masks.causal = true;
        let stages = run(&state, 0, 1, 2);
        let masked = stage(&stages, StageKind::Masked);
        assert!(masked.is_blocked(2, 3) && !masked.is_blocked(2, 2));
        let text = masked.row_text(2, 3).unwrap();
        assert_eq!(text.matches("\u{2212}\u{221e}").count(), 8, "{text}");
        assert!(
            text.starts_with("The ") && text.contains("animal "),
            "{text}"
        );
        assert!(text.ends_with("tired \u{2212}\u{221e}"), "{text}");
        let q = stage(&stages, StageKind::Queries).row_text(2, 2).unwrap();
        assert_eq!(
            q.split(", ").count(),
            16,
            "dimensions are not labelled: {q}"
        );
        assert!(!q.chars().any(char::is_alphabetic), "{q}");
        assert!(masked.formula.contains("\u{2264}"), "causal j ≤ i shown");
        let soft = stage(&stages, StageKind::Softmax);
        let row: f32 = soft.row_values(2).unwrap().iter().flatten().sum();
        assert!((row - 1.0).abs() < 1e-6);
        assert!(soft.heatmap("t").unwrap().is_blocked(2, 3));
    }

    #[test]
    fn linear_variants_show_feature_maps_and_match_the_lab() {
        for kind in [
            AttentionKind::Elu1,
            AttentionKind::Relu,
            AttentionKind::Taylor,
            AttentionKind::Efficient,
        ] {
            let mut state = LabState::default();
            state.variants[1].attention = kind;
            let stages = run(&state, 1, 0, 0);
            let r = Pipeline::new(&state).variant(1).unwrap();
            assert!(stages.iter().any(|s| s.kind == StageKind::FeatureQueries));
            assert!(!stages.iter().any(|s| s.kind == StageKind::Softmax));
            assert_eq!(
                stage(&stages, StageKind::Implied).values,
                r.heads[0].weights
            );
            assert_eq!(
                stage(&stages, StageKind::HeadOutput).values,
                r.heads[0].output
            );
            assert!(
                stage(&stages, StageKind::FeatureQueries)
                    .formula
                    .contains("\u{3c6}")
            );
        }
    }

    #[test]
    fn linformer_projects_keys_and_has_no_mask_stage() {
        let mut state = LabState::default();
        state.variants[0].attention = AttentionKind::Linformer;
        state.variants[0].linformer_k = 3;
        let stages = run(&state, 0, 2, 4);
        let r = Pipeline::new(&state).variant(0).unwrap();
        assert!(!stages.iter().any(|s| s.kind == StageKind::Masked));
        let pk = stage(&stages, StageKind::ProjectedKeys);
        assert_eq!(pk.values.dim(), (3, 16));
        assert_eq!(
            stage(&stages, StageKind::Softmax).values,
            r.heads[2].weights
        );
        assert_eq!(
            stage(&stages, StageKind::Softmax).cols,
            ["k'0", "k'1", "k'2"]
        );
        // K and V have a row per key token, labelled by the token.
        for kind in [StageKind::Keys, StageKind::Values] {
            let s = stage(&stages, kind);
            assert_eq!(s.rows, Pipeline::new(&state).keys().labels());
            assert!(s.heatmap("t").is_ok(), "{kind:?}");
        }
    }

    #[test]
    fn formulas_follow_the_score_function_and_escape_tokens() {
        let mut state = LabState {
            text: "a <b> & c".into(),
            ..LabState::default()
        };
        let mut seen = std::collections::HashSet::new();
        for f in ScoreFunction::ALL {
            state.variants[0].score = f;
            let stages = run(&state, 0, 0, 1);
            let s = stage(&stages, StageKind::Scores);
            assert!(s.formula.starts_with("<math"));
            seen.insert(s.formula.clone());
            let x = &stages[0].formula;
            assert!(x.contains("&lt;"), "{x}");
            assert!(!x.contains("<b>"), "{x}");
        }
        // dot and scaled_dot share qᵀk as the raw score; the four others differ.
        assert_eq!(seen.len(), 4);
        state.variants[0].score = ScoreFunction::ScaledDot;
        let stages = run(&state, 0, 0, 1);
        assert!(
            stage(&stages, StageKind::Scaled)
                .formula
                .contains("<msqrt>")
        );
        state.variants[0].score = ScoreFunction::Cosine;
        let stages = run(&state, 0, 0, 1);
        assert!(
            !stage(&stages, StageKind::Scaled)
                .formula
                .contains("<msqrt>")
        );
    }

    #[test]
    fn cross_mode_and_bad_heads() {
        let mut state = LabState::default();
        state.set_mode(Mode::Cross);
        let stages = run(&state, 0, 0, 0);
        let soft = stage(&stages, StageKind::Softmax);
        assert_eq!(soft.values.dim(), (4, 6));
        assert!(stages[0].note.contains("source"));
        let p = Pipeline::new(&state);
        let q = p.queries().labels();
        let k = p.keys().labels();
        let e = compute::encode(&state.model, p.queries()).unwrap();
        let problem = p.variant(0).unwrap().problem;
        let input = StepsInput {
            model: &state.model,
            variant: &state.variants[0],
            mode: state.mode,
            encoded: &e,
            problem: &problem,
            queries: &q,
            keys: &k,
        };
        assert!(
            steps(&input, 9, 0)
                .unwrap_err()
                .sentence()
                .contains("no head 9")
        );
        // A query past the end highlights nothing.
        assert_eq!(steps(&input, 0, 99).unwrap()[0].highlight, None);
    }

    #[test]
    fn the_input_formula_and_the_highlight_follow_the_query() {
        let state = LabState::default();
        let tokens = Pipeline::new(&state).queries().labels();
        for (i, token) in tokens.iter().enumerate() {
            let stages = run(&state, 0, 1, i);
            let x = &stage(&stages, StageKind::Input).formula;
            assert!(
                x.contains(&format!("\u{201c}{token}\u{201d}")),
                "query {i} names {token}: {x}"
            );
            let others = tokens.iter().filter(|t| *t != token);
            for other in others {
                assert!(!x.contains(&format!("\u{201c}{other}\u{201d}")), "{x}");
            }
            for s in &stages {
                let rows_are_queries = s.row_axis == QUERY_ROWS;
                assert_eq!(s.highlight, rows_are_queries.then_some(i), "{:?}", s.kind);
            }
        }
    }

    #[test]
    fn numbers_are_formatted_with_true_minus_signs() {
        assert_eq!(format_number(-0.1234, 3), "\u{2212}0.123");
        assert_eq!(format_number(-0.0001, 3), "0.000");
        assert_eq!(format_number(2.0, 2), "2.00");
    }
}
