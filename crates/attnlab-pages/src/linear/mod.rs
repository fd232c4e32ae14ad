//! The linear-attention lab (docs/maths.md §7, §8): for one head's Q, K, V, softmax
//! attention against a kernel variant's implied matrix, the singular values of both
//! un-normalised similarity matrices, causal kernel attention run as an RNN step by step
//! beside the masked parallel form (also with a decay: decayed linear attention, its `D`
//! and weights), and Linformer's projections.
//!
//! Every number comes from the core (`attnlab_core::linear`, `attnlab_core::metrics`):
//! this module picks the inputs, runs the core's steps and shapes the results for the
//! page and its figures.
//!
//! ```
//! use attnlab_core::attention::AttentionKind;
//! use attnlab_pages::linear::{kernel_comparison, rnn_trace};
//! use attnlab_lab::{LabState, Pipeline};
//!
//! let state = LabState::default();
//! let run = Pipeline::new(&state);
//! let problem = run.variant(0)?.problem;
//! let cmp = kernel_comparison(&problem, 0, AttentionKind::Elu1)?;
//! assert!(cmp.metrics.max_abs > 0.0);
//! let spectra = cmp.spectra.as_ref().unwrap();
//! assert!(spectra.linear_rank <= cmp.phi_width);
//!
//! // The RNN form agrees with the masked parallel form at every step.
//! let trace = rnn_trace(&problem, 0, AttentionKind::Elu1)?;
//! assert!((0..trace.len()).all(|t| trace.step(t).unwrap().max_abs_diff < 1e-5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, HeadResult, Problem};
use attnlab_core::linear::FeatureMap;
use attnlab_core::mask::MaskSpec;
use attnlab_core::score::ScoreFunction;
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::Array2;

use attnlab_i18n::{Lang, msg, plot_words};

mod decay;
mod favor;
mod kernels;
mod linformer;
mod rnn;

pub use decay::{
    DEFAULT_GAMMA, Decay, DecayedStep, DecayedTrace, GATE_BIAS, decayed_figures,
    decayed_step_figures, decayed_trace, previous, seeded_gates,
};
pub use favor::{
    FAVOR_BUDGET, FAVOR_DRAWS, FAVOR_FEATURES, FavorError, favor_chart, favor_error,
    features_within,
};
pub use kernels::{
    KernelComparison, LINEAR_COLOUR, MAX_SPECTRUM_TOKENS, RANK_TOLERANCE, SOFTMAX_COLOUR, Spectra,
    THRESHOLD_COLOUR, comparison_figures, kernel_comparison, spectrum_chart,
};
pub use linformer::{LinformerView, linformer_figures, linformer_view};
pub use rnn::{RnnStep, RnnTrace, rnn_trace, step_figures};

/// The kernel kinds the lab compares with softmax.
pub const KERNEL_KINDS: [AttentionKind; 3] = [
    AttentionKind::Elu1,
    AttentionKind::Relu,
    AttentionKind::Taylor,
];
/// Why the linear-attention lab cannot show something.
#[derive(Debug, Clone, PartialEq)]
pub enum LinearLabError {
    /// The core refused the input.
    Core(CoreError),
    /// The kind given is not a kernel kind (elu1, relu, taylor).
    NotKernel(AttentionKind),
    /// The RNN form needs one sequence: queries and keys the same tokens.
    NotOneSequence {
        /// Queries.
        n: usize,
        /// Keys.
        m: usize,
    },
    /// There are no tokens.
    Empty,
    /// A figure cannot be built from what was computed.
    Figure(HeatmapError),
}

impl From<CoreError> for LinearLabError {
    fn from(e: CoreError) -> Self {
        LinearLabError::Core(e)
    }
}

impl From<HeatmapError> for LinearLabError {
    fn from(e: HeatmapError) -> Self {
        LinearLabError::Figure(e)
    }
}

impl LinearLabError {
    /// One sentence for a student, in English (the lessons' answers and `Display`).
    pub fn sentence(&self) -> String {
        self.sentence_in(Lang::En)
    }

    /// One sentence for a student, in `lang`. The core's refusals are the lab's own
    /// sentences ([`attnlab_lab::explain::explain_in`]).
    pub fn sentence_in(&self, lang: Lang) -> String {
        match self {
            LinearLabError::Core(e) => attnlab_lab::explain::explain_in(e, lang),
            // Said as a refused setting of the figure, as the core's refusals are.
            LinearLabError::Figure(e) => msg::lab::Explained {
                what: &msg::lab::EXPLAIN_SETTINGS.get(lang),
                reason: &attnlab_lab::explain::heatmap_error_in(e, lang),
                path: &"figure",
            }
            .say(lang),
            // English names every kind by its name (efficient, linformer).
            LinearLabError::NotKernel(kind) => msg::linear::LinearNotKernel {
                kind: &kind_name(*kind, lang),
                elu1: &AttentionKind::Elu1.name(),
                relu: &AttentionKind::Relu.name(),
                taylor: &AttentionKind::Taylor.name(),
            }
            .say(lang),
            LinearLabError::NotOneSequence { n, m } => {
                msg::linear::LinearNotOneSequence { n, m }.say(lang)
            }
            LinearLabError::Empty => msg::linear::LINEAR_NO_TOKENS.get(lang).to_string(),
        }
    }
}

impl std::fmt::Display for LinearLabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sentence())
    }
}

/// An attention kind's name as the page writes it in `lang`: its own name (`elu1`,
/// `softmax`, `Linformer`…), and in Chinese 高效注意力 for efficient attention.
pub fn kind_name(kind: AttentionKind, lang: Lang) -> &'static str {
    match kind {
        AttentionKind::Efficient => msg::linear::LINEAR_KIND_EFFICIENT.get(lang),
        AttentionKind::Linformer => msg::linear::LINEAR_KIND_LINFORMER.get(lang),
        _ => kind.name(),
    }
}

impl std::error::Error for LinearLabError {}

/// The kernel kind the lab starts with for a variant: its own kind if it is a kernel
/// kind, else elu1.
pub fn default_kernel(variant: AttentionKind) -> AttentionKind {
    if variant.feature_map().is_some() {
        variant
    } else {
        AttentionKind::Elu1
    }
}

/// Whether `kind` can be made causal, and how or why not (for efficient attention: not as
/// defined, and its causal form), as one sentence in `lang`.
pub fn causality(kind: AttentionKind, lang: Lang) -> String {
    match kind {
        // The kinds the lab does not offer yet mask their logits as softmax does, or
        // run as an RNN as the kernel kinds do.
        AttentionKind::Softmax
        | AttentionKind::SoftmaxPlusOne
        | AttentionKind::Sigmoid
        | AttentionKind::Softpick
        | AttentionKind::Sink
        | AttentionKind::Differential => msg::linear::LINEAR_CAUSAL_SOFTMAX.get(lang).to_string(),
        AttentionKind::Elu1
        | AttentionKind::Relu
        | AttentionKind::Taylor
        | AttentionKind::DecayedLinear
        | AttentionKind::Favor => msg::linear::LinearCausalKernel { kind: &kind.name() }.say(lang),
        AttentionKind::Efficient => msg::linear::LINEAR_CAUSAL_EFFICIENT.get(lang).to_string(),
        AttentionKind::Linformer => msg::linear::LINEAR_CAUSAL_LINFORMER.get(lang).to_string(),
    }
}

/// Whether the lab's `kind`, as it computes it, takes the causal mask ([`causality`] says
/// how or why not; efficient attention is not causal as defined, though a causal form of it
/// exists).
pub fn can_be_causal(kind: AttentionKind) -> bool {
    !matches!(kind, AttentionKind::Efficient | AttentionKind::Linformer)
}

fn head_input(problem: &Problem, head: usize) -> Result<&HeadInput, LinearLabError> {
    problem.heads().get(head).ok_or_else(|| {
        LinearLabError::Core(CoreError::IndexOutOfRange {
            field: "head",
            index: head,
            len: problem.heads().len(),
        })
    })
}

fn feature_map(kind: AttentionKind) -> Result<FeatureMap, LinearLabError> {
    kind.feature_map().ok_or(LinearLabError::NotKernel(kind))
}

/// One head of `kind` on the head's Q, K, V with `mask`, computed by the core.
fn run(
    input: &HeadInput,
    kind: AttentionKind,
    mask: MaskSpec,
    temperature: f32,
) -> Result<HeadResult, CoreError> {
    let spec = AttentionSpec {
        score: ScoreFunction::ScaledDot,
        temperature,
        attention: kind,
        mask,
        ..AttentionSpec::default()
    };
    let mut head = HeadInput::new(input.q.clone(), input.k.clone(), input.v.clone());
    head.linformer = input.linformer.clone();
    Problem::new(vec![head], spec, None)?.compute_head(0)
}

/// The largest `|a_i − b_i|` (the stepper's output against the parallel form's row).
fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).fold(0f32, |m, (x, y)| m.max((x - y).abs()))
}

fn labels(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

fn values(a: &Array2<f32>) -> Vec<f32> {
    a.iter().copied().collect()
}

/// A signed matrix on a diverging scale (white = 0).
fn signed(
    title: impl Into<String>,
    (rows, cols): (Vec<String>, Vec<String>),
    a: &Array2<f32>,
    value: &str,
    axes: (&str, &str),
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    Ok(Heatmap::difference(title, rows, cols, values(a))?
        .with_words(plot_words(lang))
        .with_value_label(value)
        .with_axis_titles(axes.0, axes.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::{LabState, Mode};

    fn problem_of(state: &LabState, index: usize) -> Problem {
        Pipeline::new(state).variant(index).unwrap().problem
    }

    #[test]
    fn cross_attention_compares_but_does_not_recur() {
        let mut state = LabState::default();
        state.set_mode(Mode::Cross);
        let p = problem_of(&state, 0);
        let c = kernel_comparison(&p, 0, AttentionKind::Taylor).unwrap();
        assert_eq!(c.linear.weights.dim(), (4, 6));
        let e = rnn_trace(&p, 0, AttentionKind::Taylor).unwrap_err();
        assert!(e.sentence().contains("cross-attention"));
        assert!(e.sentence_in(Lang::Zh).contains("交叉注意力"));
        let l = linformer_view(&state.model, &p, 0, 3).unwrap();
        assert_eq!((l.e.dim(), l.weights.dim()), ((3, 6), (4, 3)));
    }

    #[test]
    fn causality_statements() {
        let en = Lang::En;
        assert!(causality(AttentionKind::Linformer, en).contains("cannot be made causal"));
        assert!(causality(AttentionKind::Linformer, en).contains("k projected keys"));
        // Efficient attention: not causal as defined, but a causal form with running sums.
        assert!(causality(AttentionKind::Efficient, en).contains("not causal as defined"));
        assert!(causality(AttentionKind::Efficient, en).contains("A causal form exists"));
        let zh = causality(AttentionKind::Efficient, Lang::Zh);
        assert!(zh.contains("按定义不是因果的") && zh.contains("存在一种因果形式"));
        assert!(causality(AttentionKind::Elu1, en).contains("can be made causal and stays O(n)"));
        for kind in AttentionKind::ALL
            .into_iter()
            .filter(|&k| k != AttentionKind::Efficient)
        {
            let zh = causality(kind, Lang::Zh);
            assert!(
                zh.contains("可以做成因果的") || zh.contains("不能做成因果的"),
                "{zh}"
            );
        }
        let not_kernel = LinearLabError::NotKernel(AttentionKind::Efficient);
        assert_eq!(
            not_kernel.sentence(),
            "efficient is not a kernel (feature-map) variant: choose elu1, relu or taylor."
        );
        assert_eq!(
            not_kernel.sentence_in(Lang::Zh),
            "高效注意力 不是核（特征映射）变体：请选择 elu1、relu 或 taylor。"
        );
        assert_eq!(default_kernel(AttentionKind::Softmax), AttentionKind::Elu1);
        assert_eq!(default_kernel(AttentionKind::Taylor), AttentionKind::Taylor);
    }
}

/// What the page's tests share: a variant's problem, and a sentence longer than the φ
/// width.
#[cfg(test)]
mod test_support {
    use attnlab_core::attention::Problem;

    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;

    /// Variant `index`'s problem in `state`.
    pub fn problem_of(state: &LabState, index: usize) -> Problem {
        Pipeline::new(state).variant(index).unwrap().problem
    }

    /// A 25-token sentence: longer than the φ width 16 of the default heads.
    pub fn long_state() -> LabState {
        LabState {
            text: "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi \
                   omicron pi rho sigma tau upsilon phi chi psi omega zero"
                .into(),
            ..LabState::default()
        }
    }
}
