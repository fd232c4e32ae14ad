//! The settings of the Decoding and Block pages in a v1 link: the KV-cache calculator
//! (`kv`), the classic decoder (`s2`), the decoder stepper (`ds`) and the Block page's
//! stack (`bk`), each written only
//! where it differs from v1's frozen defaults.

use serde::{Deserialize, Serialize};

use attnlab_i18n::msg::link;
use attnlab_i18n::said::Said;
use attnlab_lab::state::{Activation, BlockView, DecodeStepView, KvCache, Norm, Seq2seqView};

use super::{count, defaults, unless};

/// The KV-cache calculator: `l` layers, `h` query heads, `g` key/value heads, `e` head
/// size, `b` bits per value, `c` the latent cache's `[d_c, d_r]` (absent: K and V), `t`
/// the context, `n` the batch; each absent is [`defaults::KV_CACHE`]'s.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub(super) struct WireKv {
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    g: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<(u64, u64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<u64>,
}

impl WireKv {
    /// `None` when every value is the default.
    pub(super) fn from_cache(c: &KvCache) -> Option<WireKv> {
        let d = defaults::KV_CACHE;
        (*c != d).then(|| WireKv {
            l: unless(c.layers, d.layers),
            h: unless(c.query_heads, d.query_heads),
            g: unless(c.kv_heads, d.kv_heads),
            e: unless(c.head_dim, d.head_dim),
            b: unless(c.bits, d.bits),
            c: c.latent,
            t: unless(c.context, d.context),
            n: unless(c.batch, d.batch),
        })
    }

    /// As written: values out of range are the page's to clamp and report.
    pub(super) fn into_cache(self) -> KvCache {
        let d = defaults::KV_CACHE;
        KvCache {
            layers: self.l.unwrap_or(d.layers),
            query_heads: self.h.unwrap_or(d.query_heads),
            kv_heads: self.g.unwrap_or(d.kv_heads),
            head_dim: self.e.unwrap_or(d.head_dim),
            bits: self.b.unwrap_or(d.bits),
            latent: self.c,
            context: self.t.unwrap_or(d.context),
            batch: self.n.unwrap_or(d.batch),
        }
    }
}

/// The Block page: `l` layers, `n` `"pre"` (pre-LN), `a` `"gelu"`, `h` heads, `f` the
/// feed-forward's width as a multiple of `d`, `s` the layer shown; each absent is
/// [`defaults::BLOCK`]'s.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub(super) struct WireBlock {
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    a: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<u64>,
}

impl WireBlock {
    /// `None` when every value is the default.
    pub(super) fn from_view(b: &BlockView) -> Option<WireBlock> {
        let d = defaults::BLOCK;
        (*b != d).then(|| WireBlock {
            l: unless(b.layers as u64, d.layers as u64),
            n: unless(b.norm, d.norm).map(|n| n.name().into()),
            a: unless(b.activation, d.activation).map(|a| a.name().into()),
            h: unless(b.heads as u64, d.heads as u64),
            f: unless(b.ffn_multiple as u64, d.ffn_multiple as u64),
            s: unless(b.shown as u64, d.shown as u64),
        })
    }

    /// As written: numbers out of range are the page's to keep within its choices; an
    /// unknown name is the default's, with a sentence.
    pub(super) fn into_view(self, unknown: &mut Vec<Said>) -> BlockView {
        let d = defaults::BLOCK;
        let mut name = |what: &str, known: bool| {
            if !known {
                unknown.push(link::LinkUnknownBlock { name: &what }.said());
            }
        };
        let norm = self.n.as_deref().map_or(Some(d.norm), Norm::parse);
        name(self.n.as_deref().unwrap_or(""), norm.is_some());
        let activation = self
            .a
            .as_deref()
            .map_or(Some(d.activation), Activation::parse);
        name(self.a.as_deref().unwrap_or(""), activation.is_some());
        BlockView {
            layers: self.l.map_or(d.layers, count),
            norm: norm.unwrap_or(d.norm),
            activation: activation.unwrap_or(d.activation),
            heads: self.h.map_or(d.heads, count),
            ffn_multiple: self.f.map_or(d.ffn_multiple, count),
            shown: self.s.map_or(d.shown, count),
        }
    }
}

/// The classic decoder: `t` the step shown, `f` `false` when the context is not fed back;
/// each absent is [`defaults::SEQ2SEQ`]'s.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub(super) struct WireSeq2seq {
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<bool>,
}

impl WireSeq2seq {
    /// `None` when every value is the default.
    pub(super) fn from_view(s: &Seq2seqView) -> Option<WireSeq2seq> {
        let d = defaults::SEQ2SEQ;
        (*s != d).then(|| WireSeq2seq {
            t: unless(s.step as u64, d.step as u64),
            f: unless(s.feed, d.feed),
        })
    }

    /// As written: a step past the target's words is the page's to keep within them.
    pub(super) fn into_view(self) -> Seq2seqView {
        let d = defaults::SEQ2SEQ;
        Seq2seqView {
            step: self.t.map_or(d.step, count),
            feed: self.f.unwrap_or(d.feed),
        }
    }
}

/// The Decoding page's stepper: `t` the step, `l` the layer, `h` the head (from 0); each
/// absent is 0.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub(super) struct WireStep {
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
}

impl WireStep {
    /// `None` when every value is the default.
    pub(super) fn from_view(s: &DecodeStepView) -> Option<WireStep> {
        (*s != DecodeStepView::default()).then(|| WireStep {
            t: unless(s.step as u64, 0),
            l: unless(s.layer as u64, 0),
            h: unless(s.head as u64, 0),
        })
    }

    /// As written: values past the decoder's are the page's to show as its last.
    pub(super) fn into_view(self) -> DecodeStepView {
        DecodeStepView {
            step: self.t.map_or(0, count),
            layer: self.l.map_or(0, count),
            head: self.h.map_or(0, count),
        }
    }
}
