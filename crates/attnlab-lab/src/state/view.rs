//! What a shared link reopens besides the settings: the page on screen, the variant and
//! head shown, the two variants compared and how, the zoom of a large heatmap, and the
//! Lines page's threshold.

use std::ops::RangeInclusive;

pub use attnlab_core::block::{Activation, Norm};

/// What the comparison compares: the selected head of both variants, or their head
/// averages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompareWhat {
    /// The selected head of each variant.
    #[default]
    Head,
    /// The head average of each.
    Average,
}

/// The page on screen: the lab itself, or one of the explanatory views that read the
/// same sentence, model and variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Page {
    /// Variants side by side, their heads and the comparison.
    #[default]
    Lab,
    /// The pipeline of one variant, stage by stage, for one query token.
    Steps,
    /// The Transformer block around attention: residuals, LayerNorm, the feed-forward,
    /// stacked layers, the decoder's two attentions.
    Block,
    /// Position encodings and the bag-of-words check.
    Positions,
    /// Why the scores are divided by `√d_k`.
    Scaling,
    /// Softmax against linear attention: implied matrices, ranks, the RNN form.
    Linear,
    /// Token-to-token lines of the selected head.
    Lines,
    /// Softmax and linear attention timed in the browser against n.
    Complexity,
    /// Decoding one token at a time: the KV cache's size.
    Decoding,
    /// The real (pretrained) model: every head, the head search, rollout and flow.
    Model,
}

impl Page {
    /// Every page, in the order of the navigation.
    pub const ALL: [Page; 10] = [
        Page::Lab,
        Page::Model,
        Page::Steps,
        Page::Block,
        Page::Positions,
        Page::Scaling,
        Page::Linear,
        Page::Decoding,
        Page::Lines,
        Page::Complexity,
    ];

    /// The page's name in links.
    pub fn name(self) -> &'static str {
        match self {
            Page::Lab => "lab",
            Page::Steps => "steps",
            Page::Block => "block",
            Page::Positions => "positions",
            Page::Scaling => "scaling",
            Page::Linear => "linear",
            Page::Lines => "lines",
            Page::Complexity => "complexity",
            Page::Decoding => "decoding",
            Page::Model => "model",
        }
    }

    /// The page called `name` in links.
    pub fn parse(name: &str) -> Option<Page> {
        Page::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The least weight of a line the Lines page draws, in thousandths, when a link does not
/// say: 0.05. A query's weights add up to 1, so at most 20 of its lines are that strong
/// (at 300 tokens, a few hundred lines per head instead of 90 000); lines weaker than
/// 0.05 are drawn at under 5 % opacity, nearly invisible on their own, so a short
/// sentence looks as it did.
pub const DEFAULT_LINES_THRESHOLD: usize = 50;

/// The choices of the Lines page's threshold, in thousandths of a weight (0: every line).
pub const LINES_THRESHOLD_RANGE: RangeInclusive<usize> = 0..=1000;

/// A range of queries and keys the lab's large heatmaps show: token indices, both ends
/// included, `first ≤ last < MAX_TOKENS`. A zoom past the current text's end is kept and
/// clamped when drawn ([`Zoom::within`]), so shortening a text never loses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Zoom {
    /// The first and last query (row).
    pub queries: (usize, usize),
    /// The first and last key (column).
    pub keys: (usize, usize),
}

impl Zoom {
    /// The zoom on queries `a..=b` and keys `c..=d`, each pair in either order.
    pub fn new((a, b): (usize, usize), (c, d): (usize, usize)) -> Zoom {
        Zoom {
            queries: (a.min(b), a.max(b)),
            keys: (c.min(d), c.max(d)),
        }
    }

    /// The rows and columns (half-open) it shows of an `n × m` matrix: each range as it
    /// is when it fits; moved back to end at the matrix's end when it runs past it (a
    /// shortened text keeps a range as long); the whole axis when it is as long as that.
    pub fn within(&self, n: usize, m: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let fit = |(a, b): (usize, usize), len: usize| {
            let (first, last) = (a.min(b), a.max(b));
            let span = last - first + 1;
            if span >= len {
                0..len
            } else if last >= len {
                len - span..len
            } else {
                first..last + 1
            }
        };
        (fit(self.queries, n), fit(self.keys, m))
    }

    /// Whether it shows all of an `n × m` matrix.
    pub fn is_whole(&self, n: usize, m: usize) -> bool {
        self.within(n, m) == (0..n, 0..m)
    }
}

/// The KV-cache calculator's settings on the Decoding page: a model's shape, the width of
/// a cached value, the context and the batch. Values as a person or a link wrote them; the
/// page clamps what is out of range and says so (`attnlab_pages::decoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KvCache {
    /// Layers L.
    pub layers: u64,
    /// Query heads H.
    pub query_heads: u64,
    /// Key/value heads G (H: multi-head, 1: multi-query, between: grouped-query).
    pub kv_heads: u64,
    /// The head size d_h.
    pub head_dim: u64,
    /// Bits per cached value: 32 (fp32), 16 (fp16, bf16), 8 (fp8, int8) or 4 (int4).
    pub bits: u64,
    /// A latent cache (MLA) instead of K and V: the latent's width d_c and the decoupled
    /// RoPE key's width d_r, per layer.
    pub latent: Option<(u64, u64)>,
    /// The context length T in tokens.
    pub context: u64,
    /// Sequences decoded at once.
    pub batch: u64,
}

impl Default for KvCache {
    /// A Llama-3-8B-shaped model at fp16 with its 8,192-token context, one sequence.
    fn default() -> KvCache {
        KvCache {
            layers: 32,
            query_heads: 32,
            kv_heads: 8,
            head_dim: 128,
            bits: 16,
            latent: None,
            context: 8192,
            batch: 1,
        }
    }
}

/// The Block page's settings: a stack of seeded Transformer layers run on the lab's
/// sentence. Values as a person or a link wrote them; the page uses them within
/// [`BLOCK_LAYERS_RANGE`], [`BLOCK_FFN_MULTIPLES`] and the layers there are
/// (`attnlab_pages::block`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockView {
    /// How many layers.
    pub layers: usize,
    /// Post-LN (the paper, BERT) or pre-LN (GPT-2 and later).
    pub norm: Norm,
    /// The feed-forward's ReLU or GELU.
    pub activation: Activation,
    /// Heads of every attention (must divide the width of `X`).
    pub heads: usize,
    /// The feed-forward's width as a multiple of `d` (`f = 4·d` by default).
    pub ffn_multiple: usize,
    /// The layer whose sub-layers and heads are shown (from 0).
    pub shown: usize,
}

/// The choices of the Block page's number of layers.
pub const BLOCK_LAYERS_RANGE: RangeInclusive<usize> = 1..=6;

/// The choices of the feed-forward's width, as multiples of `d`.
pub const BLOCK_FFN_MULTIPLES: [usize; 4] = [1, 2, 4, 8];

impl Default for BlockView {
    /// Two post-LN layers with ReLU (the paper's block), four heads, `f = 4·d`, the first
    /// layer shown.
    fn default() -> BlockView {
        BlockView {
            layers: 2,
            norm: Norm::Post,
            activation: Activation::Relu,
            heads: 4,
            ffn_multiple: 4,
            shown: 0,
        }
    }
}

/// The classic decoder's stepper on the Decoding page: the step shown and whether the
/// context is fed into the next state. The step as a person or a link wrote it; the page
/// keeps it within the target's words (`attnlab_pages::decoding::seq2seq`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seq2seqView {
    /// The step `t` shown, from 1: rows `1 … t` of the alignment are drawn.
    pub step: usize,
    /// `s_t = GRU(s_{t−1}, [y_{t−1}; c_t])` (Bahdanau) when on; `c_t` replaced by zeros
    /// when off.
    pub feed: bool,
}

impl Default for Seq2seqView {
    /// The first step, the context fed back.
    fn default() -> Seq2seqView {
        Seq2seqView {
            step: 1,
            feed: true,
        }
    }
}

/// The Decoding page's stepper: the step shown and the layer and head of its figures
/// (from 0). Values as a person or a link wrote them; the page shows the last there is
/// when one is past it (`attnlab_pages::decoding::stepper`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecodeStepView {
    /// The step `t`.
    pub step: usize,
    /// The layer shown.
    pub layer: usize,
    /// The head shown.
    pub head: usize,
}

/// What is selected on screen, so that a shared link opens on the same view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// The page shown.
    pub page: Page,
    /// The variant shown large (an index into [`LabState::variants`](super::LabState::variants)).
    pub variant: usize,
    /// The head shown large.
    pub head: usize,
    /// The two variants compared (equal when there is only one variant).
    pub compare: (usize, usize),
    /// Whether they are compared on the selected head or on the head average.
    pub compare_what: CompareWhat,
    /// The range of queries and keys the large heatmaps show (`None`: the whole matrix).
    pub zoom: Option<Zoom>,
    /// The Lines page draws only lines whose weight is at least this many thousandths.
    pub lines_threshold: usize,
    /// The Decoding page's KV-cache calculator.
    pub kv_cache: KvCache,
    /// The Block page's settings.
    pub block: BlockView,
    /// The Decoding page's classic decoder (additive attention).
    pub seq2seq: Seq2seqView,
    /// The Decoding page's stepper.
    pub decode_step: DecodeStepView,
}

impl Default for View {
    fn default() -> View {
        View {
            page: Page::Lab,
            variant: 0,
            head: 0,
            compare: (0, 0),
            compare_what: CompareWhat::Head,
            zoom: None,
            lines_threshold: DEFAULT_LINES_THRESHOLD,
            kv_cache: KvCache::default(),
            block: BlockView::default(),
            seq2seq: Seq2seqView::default(),
            decode_step: DecodeStepView::default(),
        }
    }
}

impl View {
    /// The variant every page shows among `count` variants: the selected one, or the
    /// last when the selected one no longer exists. (0 when there are none.)
    pub fn shown_variant(selected: usize, count: usize) -> usize {
        selected.min(count.saturating_sub(1))
    }

    /// The head every page shows among `heads` heads: the selected one, or the last when
    /// the model has fewer heads. (0 when there are none.)
    pub fn shown_head(selected: usize, heads: usize) -> usize {
        selected.min(heads.saturating_sub(1))
    }

    /// The pair compared after the person picks variant `picked` as the first (`second`
    /// false) or the second of `compare`: picking the variant the other side shows swaps
    /// the two, so the app never compares a variant with itself.
    pub fn compare_picked(compare: (usize, usize), second: bool, picked: usize) -> (usize, usize) {
        let (a, b) = compare;
        match (second, picked) {
            (false, p) if p == b => (p, a),
            (false, p) => (p, b),
            (true, p) if p == a => (b, p),
            (true, p) => (a, p),
        }
    }
}
