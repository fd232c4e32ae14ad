//! The "Block" page: the Transformer layer around attention, run on the lab's sentence.
//! A stack of seeded layers ([`Block::seeded`], docs/maths.md §14) takes the lab's `X`
//! (its word vectors and positions) and shows, for the layer chosen, each sub-layer's
//! input and output and every head's weights; the residual stream across the layers;
//! and what the feed-forward does to each token on its own against what attention mixes.
//! In cross mode the target goes through a decoder (causal self-attention, then
//! cross-attention over the source run through an encoder of the same settings, then the
//! feed-forward).
//!
//! - what is run ([`used`], [`Used`]): the settings within their choices, and the tokens
//!   kept under the work the page allows ([`WORK_BUDGET`]);
//! - the run ([`run`], [`BlockRun`]);
//! - its figures ([`sublayers`], [`heads`], [`residual`]) and the permutation check
//!   ([`permutation`]).
//!
//! ```
//! use attnlab_lab::LabState;
//! use attnlab_lab::compute::{self, Pipeline};
//! use attnlab_pages::block::{self, BlockInput};
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
//! let result = block::run(&input)?;
//! let check = block::permutation(&result, &encoded)?;
//! assert_eq!(check.ffn, 0.0);
//! assert!(check.attention > 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use attnlab_core::CoreError;
use attnlab_core::block::{Block, Norm, Seeded, StackResult};
use attnlab_core::mask::Mask;
use attnlab_core::model::Encoded;
use attnlab_i18n::msg::block as text;
use attnlab_i18n::{Lang, plot_words};
use attnlab_lab::LabState;
use attnlab_lab::compute::{self, Pipeline};
use attnlab_lab::figure::weights_heatmap;
use attnlab_lab::state::{BLOCK_FFN_MULTIPLES, BLOCK_LAYERS_RANGE, BlockView, Mode};
use attnlab_plot::{
    Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series, Ticks,
    ValueRange,
};
use ndarray::{Array2, ArrayView2};

mod permutation;
#[cfg(test)]
mod tests;

pub use permutation::{Permutation, permutation, permutation_figures, permutation_in};

/// The most multiply-adds one run of the page may take (about a second in wasm): a
/// 6-layer stack at 512 tokens and `d = 64` with `f = 4·d` takes 3.5·10⁸.
pub const WORK_BUDGET: f64 = 5e8;

/// What the page runs on: the sentence's (or target's) encoding and token labels, the
/// source's in cross mode, the lab's seed and the page's settings.
#[derive(Debug, Clone, Copy)]
pub struct BlockInput<'a> {
    /// The queries' `X` (the sentence, or the target) and their labels.
    pub queries: (&'a Encoded, &'a [String]),
    /// Cross mode: the source's `X` and labels, run through the encoder.
    pub source: Option<(&'a Encoded, &'a [String])>,
    /// The lab's seed.
    pub seed: u64,
    /// The page's settings as written.
    pub settings: &'a BlockView,
}

/// The settings and sizes one run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Used {
    /// Layers, within [`BLOCK_LAYERS_RANGE`].
    pub layers: usize,
    /// The layer shown, below `layers`.
    pub shown: usize,
    /// The width of `X`.
    pub d: usize,
    /// The heads (as written: [`Block::seeded`] refuses those that do not divide `d`).
    pub heads: usize,
    /// The feed-forward's width `f`.
    pub ffn_width: usize,
    /// Tokens of the sentence (target) run, and how many it has.
    pub tokens: (usize, usize),
    /// Tokens of the source run, and how many it has (cross mode).
    pub source_tokens: Option<(usize, usize)>,
}

impl Used {
    /// Whether some tokens were left out to keep the run within [`WORK_BUDGET`].
    pub fn limited(&self) -> bool {
        self.tokens.0 < self.tokens.1 || self.source_tokens.is_some_and(|(u, all)| u < all)
    }
}

/// Multiply-adds of `layers` layers on `n` tokens of width `d` with a feed-forward of
/// width `f`, with cross-attention over `m` memory rows when there is a memory (its
/// keys and values included), and the encoder's run over those `m` rows.
pub fn work(layers: usize, n: usize, memory: Option<usize>, d: usize, f: usize) -> f64 {
    let (n, d, f, l) = (n as f64, d as f64, f as f64, layers as f64);
    let layer = |n: f64| 4.0 * n * d * d + 2.0 * n * n * d + 2.0 * n * d * f;
    let cross = match memory {
        Some(m) => {
            let m = m as f64;
            layer(m) + 2.0 * n * d * d + 2.0 * m * d * d + 2.0 * n * m * d
        }
        None => 0.0,
    };
    l * (layer(n) + cross)
}

/// The settings within their choices and the tokens run: all of them when the run fits
/// [`WORK_BUDGET`], else the first `t` of each text, `t` the most that fits.
pub fn used(view: &BlockView, d: usize, n: usize, m: Option<usize>) -> Used {
    let layers = view
        .layers
        .clamp(*BLOCK_LAYERS_RANGE.start(), *BLOCK_LAYERS_RANGE.end());
    let multiple = match BLOCK_FFN_MULTIPLES.contains(&view.ffn_multiple) {
        true => view.ffn_multiple,
        false => 4,
    };
    let ffn_width = multiple * d.max(1);
    let fits = |t: usize| work(layers, n.min(t), m.map(|m| m.min(t)), d, ffn_width) <= WORK_BUDGET;
    let longest = n.max(m.unwrap_or(0));
    let cap = if fits(longest) {
        longest
    } else {
        // The largest t that fits (at least one token).
        let (mut lo, mut hi) = (1, longest);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if fits(mid) { lo = mid } else { hi = mid - 1 }
        }
        lo
    };
    Used {
        layers,
        shown: view.shown.min(layers - 1),
        d,
        heads: view.heads,
        ffn_width,
        tokens: (n.min(cap), n),
        source_tokens: m.map(|m| (m.min(cap), m)),
    }
}

/// The stack's result on the sentence (the encoder's in self mode, the decoder's in
/// cross mode), the encoder's on the source in cross mode, and what it was run with.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockRun {
    /// The settings and sizes used.
    pub used: Used,
    /// Post-LN or pre-LN.
    pub norm: Norm,
    /// The stack run on the sentence or target.
    pub block: Block,
    /// Its result.
    pub stack: StackResult,
    /// Cross mode: the encoder's result on the source, whose output is the memory.
    pub encoder: Option<StackResult>,
    /// The labels of the tokens run (the sentence or target).
    pub queries: Vec<String>,
    /// The labels of the source's tokens run (cross mode).
    pub keys: Vec<String>,
}

impl BlockRun {
    /// Whether this is the decoder of cross mode.
    pub fn is_decoder(&self) -> bool {
        self.encoder.is_some()
    }
}

/// The decoder's seed: its weights are not the encoder's.
fn decoder_seed(seed: u64) -> u64 {
    seed ^ 0x00de_c0de
}

/// The first `n` rows of `x`.
fn first(x: &Array2<f32>, n: usize) -> Array2<f32> {
    x.slice(ndarray::s![..n, ..]).to_owned()
}

/// The page's stack and what it runs on, before the run: the settings used, the stack,
/// its input `X` (the first tokens kept), and in cross mode the encoder's result on the
/// source (whose output is the memory) and the source's labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The settings and sizes used.
    pub used: Used,
    /// The stack run on the sentence or target.
    pub block: Block,
    /// Its input, `n × d`.
    pub x: Array2<f32>,
    /// Cross mode: the encoder's result on the source.
    pub encoder: Option<StackResult>,
    /// The labels of the tokens run (the sentence or target).
    pub queries: Vec<String>,
    /// The labels of the source's tokens run (cross mode).
    pub keys: Vec<String>,
}

impl Prepared {
    /// Cross mode: the memory, the encoder's output on the source (`m × d`).
    pub fn memory(&self) -> Option<&Array2<f32>> {
        self.encoder.as_ref().map(|e| &e.output)
    }
}

/// The page's stack with its input: in self mode an encoder for the sentence, whose
/// self-attention is causal when `causal` (the Decoding page's stepper needs it; the
/// weights are the same); in cross mode an encoder of the same settings run on the
/// source, then a decoder (causal self-attention, cross-attention over the encoder's
/// output) for the target. Pre-LN stacks end with a final norm. Refused as the core
/// refuses (no tokens, heads not dividing `d`).
pub fn prepare(input: &BlockInput<'_>, causal: bool) -> Result<Prepared, CoreError> {
    let (x, labels) = input.queries;
    let view = input.settings;
    let d = x.x.ncols();
    let used = used(view, d, x.x.nrows(), input.source.map(|(s, _)| s.x.nrows()));
    let options = |causal: bool, cross: bool| Seeded {
        norm: view.norm,
        activation: view.activation,
        causal,
        cross,
        final_norm: view.norm == Norm::Pre,
        ..Seeded::default()
    };
    let seeded =
        |seed, o: Seeded| Block::seeded(seed, d, used.heads, used.ffn_width, used.layers, &o);
    let (block, encoder, keys) = match input.source {
        None => (
            seeded(input.seed, options(causal, false))?,
            None,
            Vec::new(),
        ),
        Some((source, source_labels)) => {
            let m = used.source_tokens.map_or(0, |(u, _)| u);
            let encoder = seeded(input.seed, options(false, false))?;
            let encoded = encoder.run(&first(&source.x, m), None)?;
            let decoder = seeded(decoder_seed(input.seed), options(true, true))?;
            let keys = source_labels.iter().take(m).cloned().collect();
            (decoder, Some(encoded), keys)
        }
    };
    Ok(Prepared {
        used,
        block,
        x: first(&x.x, used.tokens.0),
        encoder,
        queries: labels.iter().take(used.tokens.0).cloned().collect(),
        keys,
    })
}

/// `f` of the page's input on a whole lab state, computed as the app derives it: the
/// sentence's (the target's) encoding and labels, in cross mode the source's, the lab's
/// seed and the page's settings; `f` also gets the sentence's encoding. Refused as the
/// lab's encoding refuses.
pub fn with_input<R>(
    state: &LabState,
    f: impl FnOnce(&Encoded, &BlockInput<'_>) -> R,
) -> Result<R, CoreError> {
    let pipeline = Pipeline::new(state);
    let encoded = compute::encode(&state.model, pipeline.queries())?;
    let labels = pipeline.queries().labels();
    let source = match state.mode {
        Mode::Cross => Some((
            compute::encode(&state.model, pipeline.keys())?,
            pipeline.keys().labels(),
        )),
        Mode::SelfAttention => None,
    };
    let input = BlockInput {
        queries: (&encoded, &labels),
        source: source.as_ref().map(|(e, l)| (e, l.as_slice())),
        seed: state.model.seed,
        settings: &state.view.block,
    };
    Ok(f(&encoded, &input))
}

/// Runs the page's stack ([`prepare`], self-attention not causal in self mode) on its
/// input.
pub fn run(input: &BlockInput<'_>) -> Result<BlockRun, CoreError> {
    let p = prepare(input, false)?;
    let stack = p.block.run(&p.x, p.memory())?;
    Ok(BlockRun {
        used: p.used,
        norm: input.settings.norm,
        block: p.block,
        stack,
        encoder: p.encoder,
        queries: p.queries,
        keys: p.keys,
    })
}

/// Which sub-layer of a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SublayerKind {
    /// Self-attention (causal in the decoder).
    SelfAttention,
    /// The decoder's cross-attention over the encoder's output.
    CrossAttention,
    /// The position-wise feed-forward network.
    FeedForward,
}

impl SublayerKind {
    /// Its name on the page.
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            SublayerKind::SelfAttention => text::BLOCK_SUBLAYER_SELF.get(lang),
            SublayerKind::CrossAttention => text::BLOCK_SUBLAYER_CROSS.get(lang),
            SublayerKind::FeedForward => text::BLOCK_SUBLAYER_FFN.get(lang),
        }
    }

    /// Its name in test ids: `self`, `cross`, `ffn`.
    pub fn id(self) -> &'static str {
        match self {
            SublayerKind::SelfAttention => "self",
            SublayerKind::CrossAttention => "cross",
            SublayerKind::FeedForward => "ffn",
        }
    }
}

/// One sub-layer's figures: the stream entering and leaving (`n × d` heatmaps) and each
/// token's norm before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct SublayerFigures {
    /// Which sub-layer.
    pub kind: SublayerKind,
    /// The stream entering.
    pub input: Heatmap,
    /// The stream leaving.
    pub output: Heatmap,
    /// Each token's ‖x‖ entering and leaving.
    pub norms: LineChart,
    /// The mean of the tokens' norms leaving (read by the tests of the page).
    pub mean_output_norm: f32,
}

/// Each row's Euclidean norm.
pub fn row_norms(x: ArrayView2<'_, f32>) -> Vec<f32> {
    x.rows()
        .into_iter()
        .map(|r| r.iter().map(|v| v * v).sum::<f32>().sqrt())
        .collect()
}

/// An `n × d` activation as a heatmap: tokens down, features across, diverging colours
/// around 0.
fn activations(
    title: String,
    x: ArrayView2<'_, f32>,
    rows: &[String],
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let cols: Vec<String> = (0..x.ncols()).map(|c| c.to_string()).collect();
    let values: Vec<f32> = x.iter().copied().collect();
    Ok(Heatmap::difference(title, rows.to_vec(), cols, values)?
        .with_value_label(text::BLOCK_VALUE_LABEL.get(lang))
        .with_words(plot_words(lang))
        .with_axis_titles(
            text::BLOCK_AXIS_TOKENS.get(lang),
            text::BLOCK_AXIS_FEATURES.get(lang),
        ))
}

/// The colours of the lines "entering" and "leaving" (blue and orange, told apart by
/// people who do not see red and green apart).
const ENTERING: RGBColor = RGBColor(31, 94, 168);
const LEAVING: RGBColor = RGBColor(214, 96, 0);

fn norms_chart(title: String, entering: &[f32], leaving: &[f32], lang: Lang) -> LineChart {
    let points = |v: &[f32]| {
        v.iter()
            .enumerate()
            .map(|(i, &y)| (i as f64, y as f64))
            .collect()
    };
    let markers = entering.len() <= 64;
    LineChart {
        title,
        x: Axis {
            label: text::BLOCK_AXIS_TOKEN_INDEX.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        y: Axis {
            label: text::BLOCK_AXIS_NORM.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        series: vec![
            Series {
                name: Some(text::BLOCK_NORM_ENTERING.get(lang).into()),
                points: points(entering),
                color: ENTERING,
                dash: LineDash::Dashed,
                markers,
            },
            Series {
                name: Some(text::BLOCK_NORM_LEAVING.get(lang).into()),
                points: points(leaving),
                color: LEAVING,
                dash: LineDash::Solid,
                markers,
            },
            // One point at norm 0, drawn as nothing: the axis starts at 0, so norms that
            // are all about √d read as a flat line, not as noise magnified.
            Series {
                name: None,
                points: vec![(0.0, 0.0)],
                color: LEAVING,
                dash: LineDash::Solid,
                markers: false,
            },
        ],
        markers: Vec::new(),
        note: None,
    }
}

/// The sub-layers of layer `layer` (within the run's), in order: self-attention,
/// cross-attention (decoder), the feed-forward.
pub fn sublayers(
    run: &BlockRun,
    layer: usize,
    lang: Lang,
) -> Result<Vec<SublayerFigures>, HeatmapError> {
    let layer = layer.min(run.stack.layers.len() - 1);
    let l = &run.stack.layers[layer];
    let subs = [
        (SublayerKind::SelfAttention, Some(&l.self_sublayer)),
        (SublayerKind::CrossAttention, l.cross_sublayer.as_ref()),
        (SublayerKind::FeedForward, Some(&l.ffn_sublayer)),
    ];
    subs.into_iter()
        .filter_map(|(kind, s)| s.map(|s| (kind, s)))
        .map(|(kind, s)| {
            let name = kind.name(lang);
            let (entering, leaving) = (row_norms(s.input.view()), row_norms(s.output.view()));
            let mean = leaving.iter().sum::<f32>() / leaving.len().max(1) as f32;
            Ok(SublayerFigures {
                kind,
                input: activations(
                    text::BlockInputTitle {
                        layer: &(layer + 1),
                        sublayer: &name,
                    }
                    .say(lang),
                    s.input.view(),
                    &run.queries,
                    lang,
                )?,
                output: activations(
                    text::BlockOutputTitle {
                        layer: &(layer + 1),
                        sublayer: &name,
                    }
                    .say(lang),
                    s.output.view(),
                    &run.queries,
                    lang,
                )?,
                norms: norms_chart(
                    text::BlockNormsTitle {
                        layer: &(layer + 1),
                        sublayer: &name,
                    }
                    .say(lang),
                    &entering,
                    &leaving,
                    lang,
                ),
                mean_output_norm: mean,
            })
        })
        .collect()
}

/// Each head's weights in layer `layer`: self-attention's (`n × n`, the causal cells
/// blocked in the decoder), then cross-attention's (`n × m`, nothing blocked).
pub fn heads(
    run: &BlockRun,
    layer: usize,
    lang: Lang,
) -> Result<Vec<(SublayerKind, Heatmap)>, HeatmapError> {
    let layer = layer.min(run.stack.layers.len() - 1);
    let l = &run.stack.layers[layer];
    let n = run.queries.len();
    let self_mask = match run.is_decoder() {
        true => Mask::from_array(Array2::from_shape_fn((n, n), |(i, j)| j <= i)),
        false => Mask::full(n, n),
    };
    let mut out = Vec::new();
    for (h, w) in l.self_attention.iter().enumerate() {
        let title = text::BlockHeadTitle {
            layer: &(layer + 1),
            head: &h,
            sublayer: &SublayerKind::SelfAttention.name(lang),
        }
        .say(lang);
        let fig = weights_heatmap(
            title,
            run.queries.clone(),
            run.queries.clone(),
            w.iter().copied().collect::<Vec<_>>().into(),
            &self_mask,
            &[],
        )?
        .with_words(plot_words(lang));
        out.push((SublayerKind::SelfAttention, fig));
    }
    if let Some(cross) = &l.cross_attention {
        let m = run.keys.len();
        for (h, w) in cross.iter().enumerate() {
            let title = text::BlockHeadTitle {
                layer: &(layer + 1),
                head: &h,
                sublayer: &SublayerKind::CrossAttention.name(lang),
            }
            .say(lang);
            let fig = weights_heatmap(
                title,
                run.queries.clone(),
                run.keys.clone(),
                w.iter().copied().collect::<Vec<_>>().into(),
                &Mask::full(n, m),
                &[],
            )?
            .with_words(plot_words(lang));
            out.push((SublayerKind::CrossAttention, fig));
        }
    }
    Ok(out)
}

/// Cross mode: the encoder's output on the source (`m × d`), the memory every decoder
/// layer's cross-attention reads its keys and values from.
pub fn memory(run: &BlockRun, lang: Lang) -> Option<Result<Heatmap, HeatmapError>> {
    let encoder = run.encoder.as_ref()?;
    Some(activations(
        text::BLOCK_ENCODER_HEADING.get(lang).to_string(),
        encoder.output.view(),
        &run.keys,
        lang,
    ))
}

/// The residual stream across the layers: each token's norm entering layer 1 (`X`) and
/// leaving each layer, `(layers + 1) × n`.
pub fn residual_norms(run: &BlockRun) -> Array2<f32> {
    let first = &run.stack.layers[0].self_sublayer.input;
    let mut rows = vec![row_norms(first.view())];
    rows.extend(
        run.stack
            .layers
            .iter()
            .map(|l| row_norms(l.output().view())),
    );
    let n = rows[0].len();
    Array2::from_shape_fn((rows.len(), n), |(r, c)| rows[r][c])
}

/// [`residual_norms`] as a heatmap: rows `X`, layer 1, …, columns the tokens.
pub fn residual(run: &BlockRun, lang: Lang) -> Result<Heatmap, HeatmapError> {
    let norms = residual_norms(run);
    let rows: Vec<String> = std::iter::once("X".to_string())
        .chain((1..norms.nrows()).map(|l| text::BlockLayerLabel { layer: &l }.say(lang)))
        .collect();
    let max = norms.iter().fold(0f32, |a, &b| a.max(b));
    let range = ValueRange::new(0.0, max).unwrap_or(ValueRange::UNIT);
    Ok(Heatmap::weights(
        text::BLOCK_RESIDUAL_TITLE.get(lang),
        rows,
        run.queries.clone(),
        norms.iter().copied().collect::<Vec<_>>(),
    )?
    .with_range(range)
    .with_value_label(text::BLOCK_AXIS_NORM.get(lang))
    .with_words(plot_words(lang))
    .with_axis_titles(
        text::BLOCK_AXIS_LAYERS.get(lang),
        text::BLOCK_AXIS_TOKENS.get(lang),
    ))
}

/// The largest `|a − b|` over the cells of two matrices of one shape.
fn largest_difference(a: &Array2<f32>, b: &Array2<f32>) -> f32 {
    a.iter().zip(b).fold(0f32, |m, (x, y)| m.max((x - y).abs()))
}
