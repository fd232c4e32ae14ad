//! The figures a lesson step can point at: one id per figure of the app, the page it is
//! on, and the `data-testid` of its element, so the player finds what to outline and the
//! validator knows what exists where.

use serde::Deserialize;

use attnlab_lab::state::Page;
use attnlab_pages::steps::StageKind;

/// What a figure is drawn as, which decides the regions it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grid {
    /// A heatmap whose rows are the query tokens and whose columns are the keys (or
    /// Linformer's projected keys).
    Tokens,
    /// A heatmap whose rows and columns are the positions `0 … n − 1`.
    Positions,
    /// A chart, a table or a panel: no cells to point at.
    None,
}

macro_rules! figures {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $page:ident, $testid:literal, $grid:ident;)*) => {
        /// A figure of the app that a lesson step can point at.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum FigureId {
            $($(#[$doc])* $variant,)*
        }

        impl FigureId {
            /// Every figure, page by page.
            pub const ALL: &[FigureId] = &[$(FigureId::$variant,)*];

            /// The figure's id in lesson files, e.g. `"lab-head"`.
            pub fn name(self) -> &'static str {
                match self { $(FigureId::$variant => $name,)* }
            }

            /// The page the figure is on.
            pub fn page(self) -> Page {
                match self { $(FigureId::$variant => Page::$page,)* }
            }

            /// The `data-testid` of the figure's element in the app (for the lab's head
            /// heatmap, of the first variant's; see [`FigureId::testid_for`]).
            pub fn testid(self) -> &'static str {
                match self { $(FigureId::$variant => $testid,)* }
            }

            /// What the figure's cells are.
            pub fn grid(self) -> Grid {
                match self { $(FigureId::$variant => Grid::$grid,)* }
            }
        }
    };
}

figures! {
    /// The lab: a variant's selected head (`variant` says which variant).
    LabHead = "lab-head", Lab, "heatmap", Tokens;
    /// The lab: a variant's head average.
    LabAverage = "lab-average", Lab, "average-heatmap", Tokens;
    /// The lab: every head of a variant, side by side.
    LabHeadGrid = "lab-head-grid", Lab, "head-grid", None;
    /// The lab: the difference of the two compared variants.
    LabDifference = "lab-difference", Lab, "difference-heatmap", Tokens;
    /// The lab: the comparison's numbers (max |ΔA|, KL, JS, mean entropies).
    LabCompareTable = "lab-compare-table", Lab, "compare-table", None;
    /// Steps: the matrix of one stage of the pipeline (`stage` says which).
    StepsStage = "steps-stage", Steps, "steps-canvas", None;
    /// Steps: the selected query's row read out.
    StepsReadout = "steps-readout", Steps, "steps-row", None;
    /// Positions: the table of position vectors.
    PositionsTable = "positions-table", Positions, "pe-heatmap", None;
    /// Positions: a few dimensions of the position vectors as curves.
    PositionsCurves = "positions-curves", Positions, "pe-curves", None;
    /// Positions: `PE(a)·PE(b)`, constant along diagonals for sinusoids.
    PositionsDot = "positions-dot", Positions, "pe-dot-heatmap", Positions;
    /// Positions: the rotation `R_k` and its residual.
    PositionsRotation = "positions-rotation", Positions, "pe-rotation-panel", None;
    /// Positions, RoPE: one pair of a word's query turning with the position.
    RopePair = "rope-pair", Positions, "rope-pair-chart", None;
    /// Positions, RoPE: the proof's scores of one word repeated, with the sinusoid added.
    RopeProofSinusoid = "rope-proof-sinusoid", Positions, "rope-proof-sinusoid", None;
    /// Positions, RoPE: the proof's scores of one word repeated, with RoPE.
    RopeProofRope = "rope-proof-rope", Positions, "rope-proof-rope", None;
    /// Positions, RoPE: RoFormer's long-term decay of the relative upper bound.
    RopeDecay = "rope-decay", Positions, "rope-decay", None;
    /// Positions, long context: each pair's wavelength against the context lengths.
    RopeWavelengths = "rope-wavelengths", Positions, "rope-wavelengths", None;
    /// Positions, long context: the bound beyond the trained length.
    RopeLongDecay = "rope-long-decay", Positions, "rope-long-decay", None;
    /// Positions: ALiBi's bias, one heatmap per head.
    RopeAlibi = "rope-alibi", Positions, "rope-alibi-figure", None;
    /// Block: the layer shown's sub-layers, each one's stream in and out and its norms.
    BlockSublayers = "block-sublayers", Block, "block-sublayers", None;
    /// Block: the layer shown's heads.
    BlockHeads = "block-heads", Block, "block-head-figures", None;
    /// Block: the residual stream, each token's norm after each layer.
    BlockResidual = "block-residual", Block, "block-residual", None;
    /// Block: the feed-forward against attention on shuffled tokens.
    BlockPermutation = "block-permutation", Block, "block-permutation", None;
    /// Block: the sizes run (layers, d, heads, f, tokens), in a sentence.
    BlockSizes = "block-sizes", Block, "block-sizes", None;
    /// Block, cross mode: what the decoder is, in a sentence above its figures.
    BlockDecoder = "block-decoder", Block, "block-decoder-lead", None;
    /// Block, cross mode: the encoder's output, the memory every decoder layer reads.
    BlockMemory = "block-memory", Block, "block-memory", None;
    /// Positions: the bag-of-words check (both runs and their numbers).
    BagOfWords = "bag-of-words", Positions, "bag-of-words", None;
    /// Positions: the bag-of-words check's attention on the sentence as typed.
    BagOfWordsOriginal = "bag-of-words-original", Positions, "bow-original", Tokens;
    /// Positions: the attention on the shuffled sentence, put back in order.
    BagOfWordsRestored = "bag-of-words-restored", Positions, "bow-restored", Tokens;
    /// Why √d_k: the spread of the logits against `d_k`.
    ScalingSpread = "scaling-spread", Scaling, "scaling-spread-chart", None;
    /// Why √d_k: the softmax's entropy against `d_k`.
    ScalingEntropy = "scaling-entropy", Scaling, "scaling-entropy-chart", None;
    /// Why √d_k: one row of weights per `d_k`, with and without the scaling.
    ScalingExamples = "scaling-examples", Scaling, "example-rows", None;
    /// Linear: the softmax head's weights.
    LinearSoftmax = "linear-softmax", Linear, "lin-softmax", None;
    /// Linear: the kernel variant's implied matrix `Â`.
    LinearImplied = "linear-implied", Linear, "lin-implied", None;
    /// Linear: their difference.
    LinearDifference = "linear-difference", Linear, "lin-difference", None;
    /// Linear: both matrices' singular values.
    LinearSpectrum = "linear-spectrum", Linear, "spectrum-chart", None;
    /// Linear: the ranks and `d_φ`, in a sentence.
    LinearRank = "linear-rank", Linear, "rank-statement", None;
    /// Linear: causal linear attention as an RNN, step by step.
    LinearRnn = "linear-rnn", Linear, "rnn-stepper", None;
    /// Linear: the RNN's state `S_t`.
    LinearRnnState = "linear-rnn-state", Linear, "rnn-s", None;
    /// Linear: the decay matrix `D` of the parallel form (the decay on: a
    /// `decayed_linear` variant).
    LinearDecayD = "linear-decay-d", Linear, "decay-d", None;
    /// Linear: the parallel form's weights `D ⊙ QKᵀ/√d_k`.
    LinearDecayWeights = "linear-decay-weights", Linear, "decay-w", None;
    /// Linear: the largest difference between the RNN's outputs and the parallel form's.
    LinearDecayDifference = "linear-decay-difference", Linear, "decay-diff-all", None;
    /// Linear: Linformer's maps and weights.
    Linformer = "linformer", Linear, "linformer-panel", None;
    /// Linear: which kinds can be causal.
    LinearCausality = "linear-causality", Linear, "causality", None;
    /// Lines: the selected heads as token-to-token lines.
    Lines = "lines", Lines, "lines-canvas", None;
    /// Complexity: the measured times against n, log–log.
    ComplexityChart = "complexity-chart", Complexity, "complexity-chart", None;
    /// Complexity: the table of measured times.
    ComplexityTable = "complexity-table", Complexity, "complexity-table", None;
    /// Complexity, why attention: Table 1 (work, sequential operations, path length).
    WhyAttentionTable = "why-attention-table", Complexity, "why-table", None;
    /// Complexity, why attention: which inputs reach an output after L layers of each kind.
    WhyAttentionReach = "why-attention-reach", Complexity, "why-reach", None;
    /// Decoding, the classic decoder: the alignment, one row per target word written.
    Seq2seqAlignment = "seq2seq-alignment", Decoding, "seq2seq-alignment", None;
    /// Decoding, the classic decoder: one step's query, scores, weights and context.
    Seq2seqStep = "seq2seq-step", Decoding, "seq2seq-step", None;
    /// Decoding: the KV cache's bytes per token, with the formula.
    DecodingKvPerToken = "decoding-kv-per-token", Decoding, "kv-per-token", None;
    /// Decoding: the KV cache's bytes for the context and the batch, with the formula.
    DecodingKvTotals = "decoding-kv-totals", Decoding, "kv-totals", None;
    /// Decoding: the KV cache against the context length, MHA, GQA, MQA (and MLA).
    DecodingKvChart = "decoding-kv-chart", Decoding, "kv-chart", None;
    /// Decoding, step by step: the layer and head's weights filling row by row, row `t`
    /// outlined (query and key positions of the target).
    DecodingStepperWeights = "decoding-stepper-weights", Decoding, "decoding-stepper-weights", Positions;
    /// Decoding, step by step: the K and V rows cached so far and the cache's size.
    DecodingStepperCache = "decoding-stepper-cache", Decoding, "decoding-stepper-cache", None;
    /// Decoding, step by step: the step's work with the cache against recomputing.
    DecodingStepperWork = "decoding-stepper-work", Decoding, "decoding-stepper-work", None;
    /// Decoding, step by step: the last step's difference from the parallel masked pass.
    DecodingStepperEquality = "decoding-stepper-equality", Decoding, "decoding-stepper-equality", None;
    /// The real model: every layer's and head's attention.
    ModelAtlas = "model-atlas", Model, "atlas", None;
    /// The real model: the selected layer's and head's attention.
    ModelHead = "model-head", Model, "model-heatmap", None;
    /// The real model: rollout or flow through the layers.
    ModelRelevance = "model-relevance", Model, "relevance-heatmap", None;
    /// The real model: the head search.
    ModelHeadSearch = "model-head-search", Model, "head-search", None;
    /// The real model: weight against contribution on the special tokens, per layer.
    ModelShares = "model-shares", Model, "shares", None;
    /// The real model on a sentence pair: the lines from one sentence to the other.
    ModelAlignment = "model-alignment", Model, "alignment-canvas", None;
    /// The real model on a sentence pair: the heads ranked by the weight that crosses.
    ModelCrossing = "model-crossing", Model, "crossing-ranking", None;
}

impl FigureId {
    /// The figure called `name` in lesson files.
    pub fn parse(name: &str) -> Option<FigureId> {
        FigureId::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The `data-testid` of this figure for variant `variant` (the lab shows the first
    /// variant's head as `heatmap` and the others' as `variant-heatmap`, inside the panel
    /// whose `data-variant` is the variant's name).
    pub fn testid_for(self, variant: usize) -> &'static str {
        match self {
            FigureId::LabHead if variant > 0 => "variant-heatmap",
            _ => self.testid(),
        }
    }

    /// Whether the figure shows only while the RNN stepper's decay is on, which a
    /// `decayed_linear` variant turns on.
    pub fn needs_decay(self) -> bool {
        matches!(
            self,
            FigureId::LinearDecayD | FigureId::LinearDecayWeights | FigureId::LinearDecayDifference
        )
    }

    /// Whether the figure belongs to one variant (and a pointer names it).
    pub fn per_variant(self) -> bool {
        matches!(
            self,
            FigureId::LabHead | FigureId::LabAverage | FigureId::LabHeadGrid
        )
    }
}

/// A part of a figure: a cell, a row or a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    /// Cell `(row, column)`.
    Cell(usize, usize),
    /// Row `i` (a query).
    Row(usize),
    /// Column `j` (a key).
    Col(usize),
}

/// What a step points at: a figure (with its variant or stage when it has one) and
/// optionally a part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointer {
    /// The figure.
    pub figure: FigureId,
    /// The variant, for the figures of one variant (the shown one when absent).
    pub variant: Option<usize>,
    /// The stage, for the steps page's matrix.
    pub stage: Option<StageKind>,
    /// The part of the figure, if not the whole.
    pub region: Option<Region>,
}

/// A pointer as written in a lesson file: `{ figure = "lab-head", variant = 0, row = 7 }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPointer {
    pub figure: String,
    pub variant: Option<usize>,
    pub stage: Option<String>,
    pub row: Option<usize>,
    pub col: Option<usize>,
    pub cell: Option<(usize, usize)>,
}

/// The stage called `name` in lesson files (`"scores"`, `"softmax"`, …).
pub fn stage_named(name: &str) -> Option<StageKind> {
    STAGES.iter().find(|(n, _)| *n == name).map(|&(_, k)| k)
}

/// The name of a stage in lesson files.
pub fn stage_name(kind: StageKind) -> &'static str {
    STAGES
        .iter()
        .find(|(_, k)| *k == kind)
        .map_or("?", |&(n, _)| n)
}

const STAGES: [(&str, StageKind); 29] = [
    ("input", StageKind::Input),
    ("queries", StageKind::Queries),
    ("keys", StageKind::Keys),
    ("values", StageKind::Values),
    ("projected-keys", StageKind::ProjectedKeys),
    ("projected-values", StageKind::ProjectedValues),
    ("scores", StageKind::Scores),
    ("scaled", StageKind::Scaled),
    ("turned-queries", StageKind::TurnedQueries),
    ("turned-keys", StageKind::TurnedKeys),
    ("softcap", StageKind::Softcap),
    ("alibi", StageKind::Alibi),
    ("masked", StageKind::Masked),
    ("softmax", StageKind::Softmax),
    ("plus-one", StageKind::PlusOne),
    ("sigmoid", StageKind::Sigmoid),
    ("softpick", StageKind::Softpick),
    ("sink", StageKind::SinkWeights),
    ("first-softmax", StageKind::FirstSoftmax),
    ("second-softmax", StageKind::SecondSoftmax),
    ("differential", StageKind::Differential),
    ("decay", StageKind::Decay),
    ("decayed", StageKind::Decayed),
    ("feature-queries", StageKind::FeatureQueries),
    ("feature-keys", StageKind::FeatureKeys),
    ("similarity", StageKind::Similarity),
    ("implied", StageKind::Implied),
    ("head-output", StageKind::HeadOutput),
    ("output", StageKind::Output),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut names: Vec<_> = FigureId::ALL.iter().map(|f| f.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FigureId::ALL.len());
        for &f in FigureId::ALL {
            assert_eq!(FigureId::parse(f.name()), Some(f));
        }
        assert_eq!(FigureId::parse("lab-heatmap"), None);
    }

    #[test]
    fn every_page_but_none_has_figures() {
        for page in Page::ALL {
            assert!(
                FigureId::ALL.iter().any(|f| f.page() == page),
                "{} has no figure",
                page.name()
            );
        }
    }

    #[test]
    fn the_lab_head_of_later_variants_has_its_own_testid() {
        assert_eq!(FigureId::LabHead.testid_for(0), "heatmap");
        assert_eq!(FigureId::LabHead.testid_for(2), "variant-heatmap");
        assert_eq!(FigureId::LabAverage.testid_for(2), "average-heatmap");
    }

    #[test]
    fn every_stage_has_one_name() {
        for (name, kind) in STAGES {
            assert_eq!(stage_named(name), Some(kind));
            assert_eq!(stage_name(kind), name);
        }
    }
}
