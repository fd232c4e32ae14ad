//! "Decoding step by step": the Block page's stack ([`crate::block::prepare`], with
//! causal self-attention in every layer) decoded one position at a time with a KV cache
//! ([`Block::decode`], docs/maths.md §14), and what each step shows:
//!
//! - the layer and head chosen's weights filling row by row ([`weights`]): rows `0 … t`
//!   known, the rows after `t` not decoded yet (drawn blocked);
//! - the cache ([`cache`]): that layer's key and value rows `0 … t` of the head's `d_k`
//!   features, and in cross mode the memory's keys and values, computed once; the size of
//!   the whole cache ([`CacheSize`]);
//! - the step's work with the cache against recomputing the prefix ([`work`], [`Work`];
//!   [`work_chart`] sums them over the steps);
//! - at the last step, the largest difference from the parallel masked pass
//!   ([`Stepper::equality`]), computed from both runs.
//!
//! ```
//! use attnlab_lab::LabState;
//! use attnlab_lab::compute::{self, Pipeline};
//! use attnlab_pages::block::BlockInput;
//! use attnlab_pages::decoding::stepper::{self, StepAt};
//!
//! let state = LabState::default();
//! let run = Pipeline::new(&state);
//! let encoded = compute::encode(&state.model, run.queries())?;
//! let labels = run.queries().labels();
//! let input = BlockInput {
//!     queries: (&encoded, &labels),
//!     source: None,
//!     seed: state.model.seed,
//!     settings: &state.view.block,
//! };
//! let s = stepper::stepper(&input)?;
//! let at = StepAt::within(&s, 2, 0, 0);
//! assert_eq!(stepper::cache(&s, at, attnlab_i18n::Lang::En)?.keys.n_rows(), 3);
//! assert!(s.equality().equal());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::block::{Block, CacheSize, Decoded, MultiHead, Norm, StackResult, layer_norm};
use attnlab_core::linear::weights_times_values;
use attnlab_core::mask::Mask;
use attnlab_i18n::msg::decoding as text;
use attnlab_i18n::{Lang, plot_words};
use attnlab_lab::figure::weights_heatmap;
use attnlab_plot::{
    Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series, Ticks,
    VerticalMarker,
};
use ndarray::{Array2, s};

use crate::block::{BlockInput, Prepared, Used, prepare};

/// Decode and the parallel pass are "equal up to rounding" when the largest difference
/// is at most this times `max(1, max |y|)` (`y` the parallel pass's output): f32 keeps
/// about 7 digits, and the two passes add the same products in different orders.
pub const EQUAL_WITHIN: f32 = 1e-5;

/// The stack decoded with its cache, and the parallel pass it is checked against.
#[derive(Debug, Clone, PartialEq)]
pub struct Stepper {
    /// The Block page's stack (causal self-attention) and its input.
    pub prepared: Prepared,
    /// The parallel masked pass.
    pub parallel: StackResult,
    /// The same stack decoded one position at a time.
    pub decoded: Decoded,
    /// Each layer's self-attention keys and values as the cache holds them (row `t`
    /// appended at step `t`), `n × d` each.
    pub self_kv: Vec<(Array2<f32>, Array2<f32>)>,
    /// Cross mode: each layer's keys and values of the memory, `m × d` each, computed
    /// once before step 0.
    pub memory_kv: Vec<(Array2<f32>, Array2<f32>)>,
}

/// Decodes the Block page's stack ([`prepare`] with causal self-attention) on the page's
/// input, and runs the parallel pass beside it. Refused as the Block page is.
pub fn stepper(input: &BlockInput<'_>) -> Result<Stepper, CoreError> {
    let prepared = prepare(input, true)?;
    let memory = prepared.memory();
    let block = &prepared.block;
    let parallel = block.run(&prepared.x, memory)?;
    let decoded = block.decode(&prepared.x, memory)?;
    let self_kv = cached_self_kv(block, &prepared.x, &decoded);
    let memory_kv = match memory {
        Some(memory) => block
            .layers()
            .iter()
            .filter_map(|l| l.cross.as_ref())
            .map(|c| keys_values(&c.attention, memory))
            .collect(),
        None => Vec::new(),
    };
    Ok(Stepper {
        prepared,
        parallel,
        decoded,
        self_kv,
        memory_kv,
    })
}

/// `h W_K + b_K` and `h W_V + b_V`.
fn keys_values(a: &MultiHead, h: &Array2<f32>) -> (Array2<f32>, Array2<f32>) {
    let affine = |w: &Array2<f32>, b: Option<&ndarray::Array1<f32>>| {
        let mut y = weights_times_values(h, w);
        if let Some(b) = b {
            y += b;
        }
        y
    };
    (
        affine(&a.w_k, a.b_k.as_ref()),
        affine(&a.w_v, a.b_v.as_ref()),
    )
}

/// The rows each layer's self-attention cached while decoding: the keys and values of
/// the layer's input as decoded (`X` for layer 1, the decoded output of the layer below
/// after), normed first in a pre-LN stack.
fn cached_self_kv(
    block: &Block,
    x: &Array2<f32>,
    decoded: &Decoded,
) -> Vec<(Array2<f32>, Array2<f32>)> {
    block
        .layers()
        .iter()
        .enumerate()
        .map(|(l, layer)| {
            let stream = match l {
                0 => x.clone(),
                _ => decoded.layers[l - 1].output.clone(),
            };
            let h = match block.norm() {
                Norm::Post => stream,
                Norm::Pre => layer_norm(&stream.view(), &layer.ln_self, block.eps()),
            };
            keys_values(&layer.self_attention, &h)
        })
        .collect()
}

impl Stepper {
    /// The positions decoded, `n`.
    pub fn len(&self) -> usize {
        self.prepared.x.nrows()
    }

    /// Whether there is nothing to decode (never, for a stack the core accepted).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The settings and sizes used (the Block page's).
    pub fn used(&self) -> Used {
        self.prepared.used
    }

    /// The memory's rows `m` (cross mode), else 0.
    pub fn memory_rows(&self) -> usize {
        self.prepared.memory().map_or(0, Array2::nrows)
    }

    /// The cache's size after step `t`.
    pub fn cache_size(&self, t: usize) -> CacheSize {
        self.decoded.cache[t.min(self.len() - 1)]
    }

    /// The largest differences between the decoded and the parallel pass.
    pub fn equality(&self) -> Equality {
        let largest = |a: &Array2<f32>, b: &Array2<f32>| {
            a.iter().zip(b).fold(0f32, |m, (x, y)| m.max((x - y).abs()))
        };
        let output = largest(&self.decoded.output, &self.parallel.output);
        let mut weights = 0f32;
        for (d, p) in self.decoded.layers.iter().zip(&self.parallel.layers) {
            for (a, b) in d.self_attention.iter().zip(&p.self_attention) {
                weights = weights.max(largest(a, b));
            }
            if let (Some(dc), Some(pc)) = (&d.cross_attention, &p.cross_attention) {
                for (a, b) in dc.iter().zip(pc) {
                    weights = weights.max(largest(a, b));
                }
            }
        }
        let scale = self
            .parallel
            .output
            .iter()
            .fold(0f32, |m, v| m.max(v.abs()));
        Equality {
            output,
            weights,
            bound: EQUAL_WITHIN * scale.max(1.0),
        }
    }
}

/// Decode against the parallel pass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Equality {
    /// `max |decode − parallel|` over the final output.
    pub output: f32,
    /// The same over every layer's and head's weights.
    pub weights: f32,
    /// [`EQUAL_WITHIN`] `· max(1, max |y|)`.
    pub bound: f32,
}

impl Equality {
    /// Whether both differences are within the bound (a NaN is not).
    pub fn equal(&self) -> bool {
        self.output <= self.bound && self.weights <= self.bound
    }
}

/// The step, layer and head shown, within the stepper's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepAt {
    /// The step `t`, `0 … n − 1`.
    pub t: usize,
    /// The layer (from 0).
    pub layer: usize,
    /// The head (from 0).
    pub head: usize,
}

impl StepAt {
    /// `t`, `layer` and `head` as written, each made the last there is when past it.
    pub fn within(s: &Stepper, t: usize, layer: usize, head: usize) -> StepAt {
        let used = s.used();
        StepAt {
            t: t.min(s.len().saturating_sub(1)),
            layer: layer.min(used.layers - 1),
            head: head.min(used.heads.max(1) - 1),
        }
    }
}

/// The chosen layer and head's self-attention weights after step `t`: rows `0 … t` as
/// decoded, the rows after `t` (not decoded yet) and the cells after the diagonal
/// (the causal mask) blocked; their values 0.
pub fn weights(s: &Stepper, at: StepAt, lang: Lang) -> Result<Heatmap, HeatmapError> {
    let n = s.len();
    let w = &s.decoded.layers[at.layer].self_attention[at.head];
    let known = Array2::from_shape_fn((n, n), |(i, j)| if i <= at.t { w[(i, j)] } else { 0.0 });
    let title = text::DecodingStepperWeightsTitle { t: &at.t }.say(lang);
    let labels = &s.prepared.queries;
    Ok(weights_heatmap(
        title,
        labels.clone(),
        labels.clone(),
        known.iter().copied().collect::<Vec<_>>().into(),
        &Mask::from_array(Array2::from_shape_fn((n, n), |(i, j)| j <= i && i <= at.t)),
        &[],
    )?
    .with_words(plot_words(lang))
    .with_axis_titles(
        text::DECODING_STEPPER_AXIS_QUERIES.get(lang),
        text::DECODING_STEPPER_AXIS_KEYS.get(lang),
    ))
}

/// Cross mode: the chosen layer and head's cross-attention weights after step `t`, rows
/// `0 … t` over the memory's `m` positions, the rows after `t` blocked.
pub fn cross_weights(s: &Stepper, at: StepAt, lang: Lang) -> Option<Result<Heatmap, HeatmapError>> {
    let w = &s.decoded.layers[at.layer].cross_attention.as_ref()?[at.head];
    let (n, m) = w.dim();
    let known = Array2::from_shape_fn((n, m), |(i, j)| if i <= at.t { w[(i, j)] } else { 0.0 });
    let title = text::DecodingStepperCrossTitle { t: &at.t }.say(lang);
    let figure = weights_heatmap(
        title,
        s.prepared.queries.clone(),
        s.prepared.keys.clone(),
        known.iter().copied().collect::<Vec<_>>().into(),
        &Mask::from_array(Array2::from_shape_fn((n, m), |(i, _)| i <= at.t)),
        &[],
    )
    .map(|h| {
        h.with_words(plot_words(lang)).with_axis_titles(
            text::DECODING_STEPPER_AXIS_QUERIES.get(lang),
            text::DECODING_STEPPER_AXIS_MEMORY.get(lang),
        )
    });
    Some(figure)
}

/// The cache of the chosen layer and head after step `t`.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheFigures {
    /// The key rows `0 … t`, `(t + 1) × d_k` (row `t` appended at this step).
    pub keys: Heatmap,
    /// The value rows, the same shape.
    pub values: Heatmap,
    /// Cross mode: the memory's keys and values, `m × d_k` each, computed before step 0.
    pub memory: Option<(Heatmap, Heatmap)>,
}

/// The columns of head `head` among `heads` heads of `d` features.
fn head_columns(d: usize, heads: usize, head: usize) -> std::ops::Range<usize> {
    let d_k = d / heads.max(1);
    head * d_k..(head + 1) * d_k
}

fn cache_heatmap(
    title: String,
    rows: &[String],
    m: ndarray::ArrayView2<'_, f32>,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let cols: Vec<String> = (0..m.ncols()).map(|c| c.to_string()).collect();
    Ok(Heatmap::difference(
        title,
        rows.to_vec(),
        cols,
        m.iter().copied().collect::<Vec<_>>(),
    )?
    .with_value_label(text::DECODING_STEPPER_VALUE_LABEL.get(lang))
    .with_words(plot_words(lang))
    .with_axis_titles(
        text::DECODING_STEPPER_AXIS_POSITIONS.get(lang),
        text::DECODING_STEPPER_AXIS_FEATURES.get(lang),
    ))
}

/// The chosen layer and head's cache after step `t`: its key and value rows `0 … t`
/// (the head's `d_k` columns of the layer's `d`), and the memory's in cross mode.
pub fn cache(s: &Stepper, at: StepAt, lang: Lang) -> Result<CacheFigures, HeatmapError> {
    let used = s.used();
    let cols = head_columns(used.d, used.heads, at.head);
    let d_k = cols.len();
    let rows = at.t + 1;
    let (k, v) = &s.self_kv[at.layer];
    let labels = &s.prepared.queries[..rows];
    let (layer, head) = (at.layer + 1, at.head + 1);
    let keys = cache_heatmap(
        text::DecodingStepperKeysTitle {
            layer: &layer,
            head: &head,
            rows: &rows,
            d_k: &d_k,
        }
        .say(lang),
        labels,
        k.slice(s![..rows, cols.clone()]),
        lang,
    )?;
    let values = cache_heatmap(
        text::DecodingStepperValuesTitle {
            layer: &layer,
            head: &head,
            rows: &rows,
            d_k: &d_k,
        }
        .say(lang),
        labels,
        v.slice(s![..rows, cols.clone()]),
        lang,
    )?;
    let memory = match s.memory_kv.get(at.layer) {
        Some((mk, mv)) => {
            let m = mk.nrows();
            let keys = &s.prepared.keys;
            Some((
                cache_heatmap(
                    text::DecodingStepperMemoryKeysTitle {
                        layer: &layer,
                        head: &head,
                        rows: &m,
                        d_k: &d_k,
                    }
                    .say(lang),
                    keys,
                    mk.slice(s![.., cols.clone()]),
                    lang,
                )?,
                cache_heatmap(
                    text::DecodingStepperMemoryValuesTitle {
                        layer: &layer,
                        head: &head,
                        rows: &m,
                        d_k: &d_k,
                    }
                    .say(lang),
                    keys,
                    mv.slice(s![.., cols]),
                    lang,
                )?,
            ))
        }
        None => None,
    };
    Ok(CacheFigures {
        keys,
        values,
        memory,
    })
}

/// One step's work with the cache and recomputing the prefix of `t + 1` positions.
///
/// Multiply–adds counted per layer, with the cache: the new row's projections
/// (`W_Q`, `W_K`, `W_V`, `W_O`: `4d²`), its scores and weighted sum over the `t + 1`
/// cached rows (`2(t + 1)·d`: `heads · (t + 1)` cells of `d_k` each, twice), the
/// feed-forward (`2d·f`); with a memory of `m` rows, cross-attention's query and output
/// projections (`2d²`) and its scores and sum over the memory (`2m·d`). Recomputing does
/// the same for every one of the `t + 1` rows, with `(t + 1)²` self-attention cells. Not
/// counted, in either: LayerNorm, softmax, the residual additions (`O(d)` a row) and the
/// memory's keys and values (projected once either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// The step `t`.
    pub t: usize,
    /// Query–key cells scored with the cache: `L · H · (t + 1 + m)`.
    pub cells_cached: u64,
    /// Recomputing: `L · H · (t + 1)(t + 1 + m)`.
    pub cells_recomputed: u64,
    /// Multiply–adds with the cache.
    pub macs_cached: u64,
    /// Multiply–adds recomputing.
    pub macs_recomputed: u64,
}

/// The sizes the work counts use: `L`, `H`, `d`, `f`, `m`.
fn sizes(s: &Stepper) -> (u64, u64, u64, u64, u64) {
    let u = s.used();
    (
        u.layers as u64,
        u.heads as u64,
        u.d as u64,
        u.ffn_width as u64,
        s.memory_rows() as u64,
    )
}

/// Step `t`'s work (see [`Work`]).
pub fn work(s: &Stepper, t: usize) -> Work {
    let (l, h, d, f, m) = sizes(s);
    let p = t as u64 + 1;
    let cross = u64::from(s.prepared.block.has_cross());
    let row = 4 * d * d + 2 * d * f + cross * (2 * d * d + 2 * m * d);
    Work {
        t,
        cells_cached: l * h * (p + m),
        cells_recomputed: l * h * p * (p + m),
        macs_cached: l * (row + 2 * p * d),
        macs_recomputed: l * (p * row + 2 * p * p * d),
    }
}

/// The formulas of a step's work with the numbers: cells with the cache, cells
/// recomputing, multiply–adds with the cache, multiply–adds recomputing (the same in
/// every language: symbols and numbers).
pub fn work_formulas(s: &Stepper, t: usize) -> [String; 4] {
    let (l, h, d, f, m) = sizes(s);
    let p = t + 1;
    let w = work(s, t);
    match s.prepared.block.has_cross() {
        false => [
            format!("L·H·(t+1) = {l}·{h}·{p} = {}", w.cells_cached),
            format!("L·H·(t+1)² = {l}·{h}·{p}² = {}", w.cells_recomputed),
            format!(
                "L·(4d² + 2d·f + 2(t+1)·d) = {l}·(4·{d}² + 2·{d}·{f} + 2·{p}·{d}) = {}",
                w.macs_cached
            ),
            format!(
                "L·((t+1)(4d² + 2d·f) + 2(t+1)²·d) = {l}·({p}·(4·{d}² + 2·{d}·{f}) + 2·{p}²·{d}) = {}",
                w.macs_recomputed
            ),
        ],
        true => [
            format!("L·H·(t+1+m) = {l}·{h}·({p}+{m}) = {}", w.cells_cached),
            format!(
                "L·H·(t+1)(t+1+m) = {l}·{h}·{p}·({p}+{m}) = {}",
                w.cells_recomputed
            ),
            format!(
                "L·(6d² + 2d·f + 2m·d + 2(t+1)·d) = {l}·(6·{d}² + 2·{d}·{f} + 2·{m}·{d} + 2·{p}·{d}) = {}",
                w.macs_cached
            ),
            format!(
                "L·((t+1)(6d² + 2d·f + 2m·d) + 2(t+1)²·d) = {l}·({p}·(6·{d}² + 2·{d}·{f} + 2·{m}·{d}) + 2·{p}²·{d}) = {}",
                w.macs_recomputed
            ),
        ],
    }
}

/// Multiply–adds of steps `0 … t` together: with the cache, recomputing.
pub fn cumulative(s: &Stepper, t: usize) -> (u64, u64) {
    (0..=t).map(|t| work(s, t)).fold((0, 0), |(a, b), w| {
        (a + w.macs_cached, b + w.macs_recomputed)
    })
}

/// The colours of the two curves (blue and orange, told apart without red and green).
const CACHED: RGBColor = RGBColor(31, 94, 168);
const RECOMPUTED: RGBColor = RGBColor(214, 96, 0);

/// The multiply–adds of steps `0 … t` together against `t`, with the cache (grows as
/// `t²·d`: `O(n²·d)` over `n` steps) and recomputing each prefix (`t³·d`: `O(n³·d)`), a
/// marker at the step shown.
pub fn work_chart(s: &Stepper, t: usize, lang: Lang) -> LineChart {
    let n = s.len();
    let mut sums = (0u64, 0u64);
    let mut cached = Vec::with_capacity(n);
    let mut recomputed = Vec::with_capacity(n);
    for step in 0..n {
        let w = work(s, step);
        sums = (sums.0 + w.macs_cached, sums.1 + w.macs_recomputed);
        cached.push((step as f64, sums.0 as f64));
        recomputed.push((step as f64, sums.1 as f64));
    }
    let markers = n <= 64;
    LineChart {
        title: text::DECODING_STEPPER_CHART_TITLE.get(lang).into(),
        x: Axis {
            label: text::DECODING_STEPPER_CHART_AXIS_STEP.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        y: Axis {
            label: text::DECODING_STEPPER_CHART_AXIS_WORK.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        series: vec![
            Series {
                name: Some(text::DECODING_STEPPER_SERIES_CACHED.get(lang).into()),
                points: cached,
                color: CACHED,
                dash: LineDash::Solid,
                markers,
            },
            Series {
                name: Some(text::DECODING_STEPPER_SERIES_RECOMPUTED.get(lang).into()),
                points: recomputed,
                color: RECOMPUTED,
                dash: LineDash::Dashed,
                markers,
            },
        ],
        markers: vec![VerticalMarker {
            x: t.min(n.saturating_sub(1)) as f64,
            label: format!("t = {t}"),
        }],
        note: None,
    }
}

#[cfg(test)]
mod tests;
