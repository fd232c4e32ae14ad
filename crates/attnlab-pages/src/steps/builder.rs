//! What the stages are computed from ([`StepsInput`]) and the stages under construction
//! ([`Builder`]), shared by the matrices of every kind.

use attnlab_core::CoreError;
use attnlab_core::attention::Problem;
use attnlab_core::linear;
use attnlab_core::model::Encoded;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::steps as text;
use attnlab_lab::compute::LabError;
use attnlab_lab::state::{Mode, ModelConfig, Variant};
use ndarray::{Array2, ArrayRef2};

use super::formula;
use super::stages::{Axis, Family, Query, Stage, StageKind};

/// What the stages are computed from: the state's model and variant, the queries'
/// encoded input, the variant's problem, and the token labels.
#[derive(Debug, Clone, Copy)]
pub struct StepsInput<'a> {
    /// The model settings (positions, projections, `d_k`).
    pub model: &'a ModelConfig,
    /// The variant walked through.
    pub variant: &'a Variant,
    /// Self-attention or cross-attention (keys from the source).
    pub mode: Mode,
    /// The queries' word vectors, positions and `X`; `None` for brought tensors, whose
    /// stages start at `Q`, `K`, `V`.
    pub encoded: Option<&'a Encoded>,
    /// The variant's validated problem.
    pub problem: &'a Problem,
    /// With RoPE on: the same variant's problem with RoPE off ([`unturned`](super::unturned)), whose `Q`
    /// and `K` are the projections before they turn; `None` otherwise (the `Q` and `K`
    /// stages then show the problem's own).
    pub unturned: Option<&'a Problem>,
    /// The query token labels.
    pub queries: &'a [String],
    /// The key token labels (the tokens themselves, also for Linformer: the stages
    /// label its projected keys).
    pub keys: &'a [String],
}

pub(super) fn finite(a: &Array2<f32>, what: &'static str) -> Result<(), LabError> {
    if a.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(LabError::Core(CoreError::Overflow { head: 0, what }))
    }
}

/// The stages under construction: each one's name, axes, labels, colouring and
/// highlighted row follow from its kind, the family and the query.
pub(super) struct Builder<'a> {
    pub(super) family: Family,
    pub(super) lang: Lang,
    pub(super) queries: &'a [String],
    pub(super) keys: &'a [String],
    pub(super) query: Option<Query>,
    pub(super) stages: Vec<Stage>,
}

impl Builder<'_> {
    fn labels(&self, axis: Axis, count: usize) -> Vec<String> {
        match axis {
            Axis::QueryTokens => self.queries.to_vec(),
            Axis::KeyTokens => self.keys.to_vec(),
            Axis::ProjectedKeys => (0..count).map(|j| format!("k'{j}")).collect(),
            Axis::Dimensions | Axis::Features => (0..count).map(|i| i.to_string()).collect(),
        }
    }

    pub(super) fn push(
        &mut self,
        kind: StageKind,
        values: Array2<f32>,
        formula: String,
        note: String,
    ) {
        let (row_axis, col_axis) = kind.axes(self.family);
        let highlight = match row_axis {
            Axis::QueryTokens => self.query.as_ref().map(|q| q.index),
            _ => None,
        };
        self.stages.push(Stage {
            kind,
            name: kind.name(self.family, self.lang),
            row_axis,
            col_axis,
            rows: self.labels(row_axis, values.nrows()),
            cols: self.labels(col_axis, values.ncols()),
            values,
            blocked: None,
            coloured: kind.coloured(self.family),
            query: self.query.clone(),
            highlight,
            formula,
            note,
        });
    }

    /// The similarities `φ(q)ᵀφ(k)` of a kernel variant and the weights they imply
    /// (each row over its sum), both with the cells `allowed` does not allow blocked.
    pub(super) fn push_similarity(
        &mut self,
        sim: Array2<f32>,
        variant: &Variant,
        allowed: &ArrayRef2<bool>,
    ) {
        let implied = linear::implied_from_similarity(&sim);
        let lang = self.lang;
        self.push(
            StageKind::Similarity,
            sim,
            formula::similarity(variant),
            text::STEPS_SIMILARITY_NOTE.get(lang).to_string(),
        );
        self.block(allowed);
        self.push(
            StageKind::Implied,
            implied,
            formula::implied(),
            text::STEPS_IMPLIED_NOTE.get(lang).to_string(),
        );
        self.block(allowed);
    }

    /// Marks the cells `allowed` does not allow as blocked in the last stage.
    pub(super) fn block(&mut self, allowed: &ArrayRef2<bool>) {
        if let Some(last) = self.stages.last_mut() {
            last.blocked = Some(allowed.mapv(|a| !a));
        }
    }
}
