//! The Decoding page's classic decoder (docs/maths.md §15): the lab's two sentences run
//! through the seeded recurrent encoder–decoder of Bahdanau et al. with additive
//! attention, the context fed back and not, and what a stepper over the target shows.
//!
//! - what is run ([`run`], [`Used`]): the words of each sentence up to [`MAX_WORDS`], the
//!   lab's word vectors (no positions: the recurrence knows the order), encoder states
//!   `d_e = ⌈d/2⌉` each way ([`encoder_width`]), the lab's seed;
//! - the step shown ([`step_shown`]) and the difference the feed makes ([`Seq2seqRun::max_delta`]);
//! - the figures: the alignment so far ([`alignment`]), the query and the context as
//!   strips ([`query_strip`], [`context_strip`]), the step's scores and weights
//!   ([`weights_rows`]).
//!
//! ```
//! use attnlab_core::embed::embed_one;
//! use attnlab_core::model::ModelConfig;
//! use attnlab_core::tokenize::tokenize;
//! use attnlab_pages::decoding::seq2seq::{self, Seq2seqInput};
//!
//! let model = ModelConfig::default();
//! let (src, tgt) = (tokenize("the cat sat"), tokenize("le chat"));
//! let (es, et) = (model.encode(&src)?, model.encode(&tgt)?);
//! let labels = |t: &[attnlab_core::tokenize::Token]| t.iter().map(|t| t.text.clone()).collect::<Vec<_>>();
//! let (ls, lt) = (labels(&src), labels(&tgt));
//! let start = embed_one(seq2seq::START, model.d_model, model.seed, model.embedding_scale);
//! let run = seq2seq::run(&Seq2seqInput {
//!     source: (&es.words, &ls),
//!     target: (&et.words, &lt),
//!     start: &start,
//!     seed: model.seed,
//! })?;
//! assert_eq!(run.steps(), 2);
//! assert_eq!(run.max_delta(1), 0.0); // row 1 reads s_0 with or without the feed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::seq2seq::{Run, Seq2seq};
use attnlab_i18n::msg::seq2seq as text;
use attnlab_i18n::{Lang, plot_words};
use attnlab_lab::explain::explain_in;
use attnlab_lab::state::Seq2seqView;
use attnlab_plot::{Heatmap, HeatmapError, ValueRange};
use ndarray::{Array1, Array2, s};

/// The most words of each sentence the section runs: beyond it a row or a column of the
/// matrix would be too thin to read and to point at.
pub const MAX_WORDS: usize = 64;

/// The text whose embedding is the start symbol `y_0` (the tokenizer never makes it a
/// word).
pub const START: &str = "<s>";

/// The encoder's state width per direction for word vectors of width `d`: `⌈d/2⌉`, so the
/// annotations and the decoder's state are about as wide as the words.
pub fn encoder_width(d: usize) -> usize {
    d.div_ceil(2).max(1)
}

/// What the section runs on: each sentence's word vectors (`words` of the lab's
/// encoding) and labels, the start symbol's vector and the lab's seed.
#[derive(Debug, Clone, Copy)]
pub struct Seq2seqInput<'a> {
    /// The source's word vectors and labels.
    pub source: (&'a Array2<f32>, &'a [String]),
    /// The target's word vectors and labels.
    pub target: (&'a Array2<f32>, &'a [String]),
    /// `y_0`, the start symbol's vector.
    pub start: &'a [f32],
    /// The lab's seed.
    pub seed: u64,
}

/// The words run of each sentence and how many it has, and the widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Used {
    /// Source words run, and how many there are.
    pub source: (usize, usize),
    /// Target words run (the steps), and how many there are.
    pub target: (usize, usize),
    /// The word vectors' width `d_x`.
    pub d_x: usize,
    /// The encoder's state width per direction `d_e`.
    pub d_e: usize,
}

impl Used {
    /// Whether some words were left out ([`MAX_WORDS`]).
    pub fn limited(&self) -> bool {
        self.source.0 < self.source.1 || self.target.0 < self.target.1
    }

    /// The sentence saying which words are run, when some were left out.
    pub fn limited_text(&self, lang: Lang) -> Option<String> {
        self.limited().then(|| {
            text::Seq2seqLimited {
                max: &MAX_WORDS,
                m: &self.source.1,
                t: &self.target.1,
            }
            .say(lang)
        })
    }

    /// The sizes, as a sentence.
    pub fn sizes_text(&self, lang: Lang) -> String {
        text::Seq2seqSizes {
            m: &self.source.0,
            t: &self.target.0,
            dx: &self.d_x,
            de: &self.d_e,
            n: &(2 * self.d_e),
        }
        .say(lang)
    }
}

/// Why the section shows no run.
#[derive(Debug, Clone, PartialEq)]
pub enum Seq2seqError {
    /// The source has no word.
    NoSource,
    /// The target has no word.
    NoTarget,
    /// The core refused the input.
    Core(CoreError),
}

impl Seq2seqError {
    /// The sentence a person reads.
    pub fn say(&self, lang: Lang) -> String {
        match self {
            Seq2seqError::NoSource => text::SEQ2SEQ_NO_SOURCE.get(lang).to_string(),
            Seq2seqError::NoTarget => text::SEQ2SEQ_NO_TARGET.get(lang).to_string(),
            Seq2seqError::Core(e) => explain_in(e, lang),
        }
    }
}

impl std::fmt::Display for Seq2seqError {
    /// The English sentence.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(Lang::En))
    }
}

impl std::error::Error for Seq2seqError {}

impl From<CoreError> for Seq2seqError {
    fn from(e: CoreError) -> Seq2seqError {
        Seq2seqError::Core(e)
    }
}

/// The two runs of one source and target: with the context fed back (Bahdanau) and
/// without, and the labels of the words run.
#[derive(Debug, Clone, PartialEq)]
pub struct Seq2seqRun {
    /// `s_t = GRU(s_{t−1}, [y_{t−1}; c_t])`.
    pub fed: Run,
    /// `s_t = GRU(s_{t−1}, [y_{t−1}; 0])`.
    pub off: Run,
    /// The source words run.
    pub source: Vec<String>,
    /// The target words run.
    pub target: Vec<String>,
    /// What was run.
    pub used: Used,
}

/// Runs the model on the first [`MAX_WORDS`] words of each sentence, both ways.
pub fn run(input: &Seq2seqInput<'_>) -> Result<Seq2seqRun, Seq2seqError> {
    let (src, src_labels) = input.source;
    let (tgt, tgt_labels) = input.target;
    if src.nrows() == 0 {
        return Err(Seq2seqError::NoSource);
    }
    if tgt.nrows() == 0 {
        return Err(Seq2seqError::NoTarget);
    }
    let d_x = src.ncols();
    let d_e = encoder_width(d_x);
    let (m, t) = (src.nrows().min(MAX_WORDS), tgt.nrows().min(MAX_WORDS));
    let model = Seq2seq::seeded(input.seed, d_x, d_e);
    let source = src.slice(s![..m, ..]).to_owned();
    let target = tgt.slice(s![..t, ..]).to_owned();
    let start = Array1::from(input.start.to_vec());
    let fed = model.run(&source, &target, &start, true)?;
    let off = model.run(&source, &target, &start, false)?;
    let label = |labels: &[String], n: usize| -> Vec<String> {
        (0..n)
            .map(|i| labels.get(i).cloned().unwrap_or_else(|| i.to_string()))
            .collect()
    };
    Ok(Seq2seqRun {
        fed,
        off,
        source: label(src_labels, m),
        target: label(tgt_labels, t),
        used: Used {
            source: (m, src.nrows()),
            target: (t, tgt.nrows()),
            d_x,
            d_e,
        },
    })
}

/// The step shown for `view` among `steps` steps: its step within `1 … steps`.
pub fn step_shown(view: &Seq2seqView, steps: usize) -> usize {
    view.step.clamp(1, steps.max(1))
}

impl Seq2seqRun {
    /// The steps (target words run).
    pub fn steps(&self) -> usize {
        self.fed.steps.len()
    }

    /// The run the switch shows.
    pub fn shown(&self, feed: bool) -> &Run {
        if feed { &self.fed } else { &self.off }
    }

    /// `max |α_fed − α_off|` over rows `1 … step`: 0 for row 1 (both read `s_0`), above
    /// 0 after it unless the context happens not to move the state.
    pub fn max_delta(&self, step: usize) -> f32 {
        self.fed
            .steps
            .iter()
            .zip(&self.off.steps)
            .take(step)
            .flat_map(|(a, b)| a.weights.iter().zip(&b.weights).map(|(x, y)| (x - y).abs()))
            .fold(0.0, f32::max)
    }

    /// The sum of row `step`'s weights (1 up to rounding).
    pub fn row_sum(&self, feed: bool, step: usize) -> f32 {
        self.step_of(feed, step).weights.sum()
    }

    fn step_of(&self, feed: bool, step: usize) -> &attnlab_core::seq2seq::Step {
        let steps = &self.shown(feed).steps;
        &steps[step.clamp(1, steps.len()) - 1]
    }
}

/// The alignment so far: rows `1 … step` (the target words written), columns the source
/// words, sequential colours over `0 … 1`.
pub fn alignment(
    run: &Seq2seqRun,
    feed: bool,
    step: usize,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let step = step.clamp(1, run.steps());
    let a = run.shown(feed).alignment();
    let values: Vec<f32> = a.slice(s![..step, ..]).iter().copied().collect();
    Ok(Heatmap::weights(
        text::SEQ2SEQ_ALIGNMENT_TITLE.get(lang),
        run.target[..step].to_vec(),
        run.source.clone(),
        values,
    )?
    .with_words(plot_words(lang))
    .with_axis_titles(
        text::SEQ2SEQ_AXIS_TARGET.get(lang),
        text::SEQ2SEQ_AXIS_SOURCE.get(lang),
    ))
}

/// A vector as a one-row strip, diverging colours over `−1 … 1` (every state and
/// annotation entry is within it: a GRU's state is a mix of states and `tanh`s).
fn strip(title: String, label: &str, v: &Array1<f32>, lang: Lang) -> Result<Heatmap, HeatmapError> {
    let cols: Vec<String> = (0..v.len()).map(|c| c.to_string()).collect();
    Ok(
        Heatmap::difference(title, vec![label.to_string()], cols, v.to_vec())?
            .with_range(ValueRange::new(-1.0, 1.0).unwrap_or(ValueRange::UNIT))
            .with_value_label(text::SEQ2SEQ_VALUE.get(lang))
            .with_words(plot_words(lang))
            .with_axis_titles("", text::SEQ2SEQ_AXIS_FEATURES.get(lang)),
    )
}

/// The query of step `step`: the state `s_{t−1}`.
pub fn query_strip(
    run: &Seq2seqRun,
    feed: bool,
    step: usize,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let step = step.clamp(1, run.steps());
    let title = text::Seq2seqQueryTitle { t: &step }.say(lang);
    strip(
        title,
        &format!("s_{}", step - 1),
        &run.step_of(feed, step).query,
        lang,
    )
}

/// The context of step `step`: `c_t`.
pub fn context_strip(
    run: &Seq2seqRun,
    feed: bool,
    step: usize,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let step = step.clamp(1, run.steps());
    let title = text::Seq2seqContextTitle { t: &step }.say(lang);
    strip(
        title,
        &format!("c_{step}"),
        &run.step_of(feed, step).context,
        lang,
    )
}

/// One source word's score and weight at a step.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightRow {
    /// The source word.
    pub word: String,
    /// `e_tj`.
    pub score: f32,
    /// `α_tj`.
    pub weight: f32,
}

/// Step `step`'s score and weight of every source word.
pub fn weights_rows(run: &Seq2seqRun, feed: bool, step: usize) -> Vec<WeightRow> {
    let s = run.step_of(feed, step);
    run.source
        .iter()
        .zip(s.scores.iter().zip(&s.weights))
        .map(|(w, (&score, &weight))| WeightRow {
            word: w.clone(),
            score,
            weight,
        })
        .collect()
}

/// The formula of step `step`'s next state, with the context or with zeros in its place:
/// `s_3 = GRU(s_2, [y_2; c_3])`.
pub fn state_formula(feed: bool, step: usize) -> String {
    let (t, p) = (step.max(1), step.max(1) - 1);
    let c = if feed { format!("c_{t}") } else { "0".into() };
    format!("s_{t} = GRU(s_{p}, [y_{p}; {c}])")
}

/// The word step `step` reads as `y_{t−1}`: the start symbol at step 1, else the target
/// word before.
pub fn previous_word(run: &Seq2seqRun, step: usize) -> &str {
    match step {
        0 | 1 => START,
        t => run.target.get(t - 2).map_or(START, String::as_str),
    }
}

#[cfg(test)]
mod tests;
