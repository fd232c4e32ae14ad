//! Decoding with a KV cache: the stack run one position at a time. At step `t` the new
//! token's row goes through every layer; each layer projects it once into its query,
//! key and value, appends the key and value rows to its cache, and attends with the one
//! query over the `t + 1` cached rows: O(t·d) attention work per step, where running the
//! parallel pass again on the first `t + 1` tokens would be O(t²·d). Cross-attention's
//! keys and values (of the memory) are computed once, before the first step. Since
//! self-attention is causal, row `t` of every layer depends only on rows `0 … t` of the
//! layer below, and the result equals [`Block::run`]'s.

use ndarray::{Array2, ArrayView2, Axis, s};

use super::ops::{affine, attend, feed_forward, keys_values};
use super::stack::sublayer;
use super::validate::finite_result;
use super::{Block, MultiHead};
use crate::error::{BlockInvalid, CoreError, Invalid, Result};

/// The cache's size after one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheSize {
    /// The step `t`, from 0 (the position just decoded).
    pub step: usize,
    /// Rows held: one entry is one key row or one value row (all heads, `d` numbers) of
    /// one layer: `2 · layers · (t + 1)` for self-attention, plus `2 · layers · m` for
    /// cross-attention's memory.
    pub entries: usize,
    /// `entries · d · 4` (f32).
    pub bytes: usize,
    /// Query–key cells scored at this step, over every layer and head: `heads · (t + 1)`
    /// per layer for self-attention (`heads · m` for cross-attention), never `(t + 1)²`.
    pub cells: usize,
}

/// One layer's result, assembled row by row.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedLayer {
    /// Each head's self-attention weights, `n × n` (row `t` from step `t`; the cells
    /// after it are 0, as the causal mask makes them).
    pub self_attention: Vec<Array2<f32>>,
    /// Each head's cross-attention weights, `n × m` (with a memory).
    pub cross_attention: Option<Vec<Array2<f32>>>,
    /// The layer's output, `n × d`.
    pub output: Array2<f32>,
}

/// The decoded stack.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// Per layer.
    pub layers: Vec<DecodedLayer>,
    /// The output after the final norm when there is one, `n × d`.
    pub output: Array2<f32>,
    /// The cache after each step.
    pub cache: Vec<CacheSize>,
}

/// One layer's cache of self-attention keys and values, `d` numbers a row.
struct Cache {
    k: Vec<f32>,
    v: Vec<f32>,
    d: usize,
}

impl Cache {
    fn rows(&self) -> usize {
        self.k.len() / self.d
    }

    fn push(&mut self, k: &Array2<f32>, v: &Array2<f32>) {
        self.k.extend(k.iter());
        self.v.extend(v.iter());
    }

    fn views(&self) -> (ArrayView2<'_, f32>, ArrayView2<'_, f32>) {
        let dim = (self.rows(), self.d);
        (
            ArrayView2::from_shape(dim, &self.k[..]).expect("whole rows"),
            ArrayView2::from_shape(dim, &self.v[..]).expect("whole rows"),
        )
    }
}

impl Block {
    /// Runs the stack one position at a time with a KV cache (see the module's doc);
    /// every layer's self-attention must be causal.
    pub fn decode(&self, x: &Array2<f32>, memory: Option<&Array2<f32>>) -> Result<Decoded> {
        self.check_input(x, memory)?;
        if let Some(l) = self.layers.iter().position(|l| !l.self_attention.causal) {
            let e = CoreError::InvalidSetting {
                field: "self.causal",
                reason: Invalid::Block(BlockInvalid::DecodeNeedsCausal),
            };
            return Err(e.in_layer(l));
        }
        let (n, d) = x.dim();
        let m = memory.map_or(0, Array2::nrows);
        let layers = self.layers.len();
        // Cross-attention's keys and values, once.
        let memory_kv: Vec<Option<(Array2<f32>, Array2<f32>)>> = self
            .layers
            .iter()
            .map(|l| Some(keys_values(&l.cross.as_ref()?.attention, memory?)))
            .collect();
        let mut caches: Vec<Cache> = (0..layers)
            .map(|_| Cache {
                k: Vec::with_capacity(n * d),
                v: Vec::with_capacity(n * d),
                d,
            })
            .collect();
        let mut out: Vec<DecodedLayer> = self
            .layers
            .iter()
            .map(|l| DecodedLayer {
                self_attention: vec![Array2::zeros((n, n)); l.self_attention.heads],
                cross_attention: l
                    .cross
                    .as_ref()
                    .map(|c| vec![Array2::zeros((n, m)); c.attention.heads]),
                output: Array2::zeros((n, d)),
            })
            .collect();
        let mut cache = Vec::with_capacity(n);
        let mut last = Array2::zeros((n, d));
        for t in 0..n {
            let mut stream = x.slice(s![t..=t, ..]).to_owned().into_shared();
            let mut cells = 0;
            for (l, layer) in self.layers.iter().enumerate() {
                let at = |e: CoreError| e.in_layer(l);
                let sa = &layer.self_attention;
                let store = &mut caches[l];
                let record = &mut out[l];
                let sub = sublayer(self.norm, self.eps, &layer.ln_self, &stream, |h| {
                    let q = affine(h, &sa.w_q, sa.b_q.as_ref());
                    let (k, v) = keys_values(sa, h);
                    store.push(&k, &v);
                    let (keys, values) = store.views();
                    let (w, o) = attend(sa, &q, keys, values, false)?;
                    cells += sa.heads * keys.nrows();
                    put_rows(&mut record.self_attention, t, &w);
                    Ok(o)
                })
                .map_err(at)?;
                stream = sub.output;
                if let (Some(cross), Some((k, v))) = (&layer.cross, &memory_kv[l]) {
                    let ca: &MultiHead = &cross.attention;
                    let sub = sublayer(self.norm, self.eps, &cross.ln, &stream, |h| {
                        let q = affine(h, &ca.w_q, ca.b_q.as_ref());
                        let (w, o) = attend(ca, &q, k.view(), v.view(), false)?;
                        cells += ca.heads * k.nrows();
                        if let Some(rows) = record.cross_attention.as_mut() {
                            put_rows(rows, t, &w);
                        }
                        Ok(o)
                    })
                    .map_err(at)?;
                    stream = sub.output;
                }
                let sub = sublayer(self.norm, self.eps, &layer.ln_ffn, &stream, |h| {
                    Ok(feed_forward(h, &layer.ffn))
                })
                .map_err(at)?;
                stream = sub.output;
                finite_result(stream.view()).map_err(at)?;
                record.output.row_mut(t).assign(&stream.row(0));
            }
            last.row_mut(t).assign(&stream.row(0));
            let entries = 2 * layers * (t + 1) + 2 * layers * m * usize::from(self.has_cross());
            cache.push(CacheSize {
                step: t,
                entries,
                bytes: entries * d * std::mem::size_of::<f32>(),
                cells,
            });
        }
        let output = self.finish(last.view());
        finite_result(output.view())?;
        Ok(Decoded {
            layers: out,
            output,
            cache,
        })
    }
}

/// Row `t` of every head's weights from the heads' `1 × keys` rows (the cells past
/// `keys` stay 0).
fn put_rows(into: &mut [Array2<f32>], t: usize, rows: &[Array2<f32>]) {
    for (all, row) in into.iter_mut().zip(rows) {
        let keys = row.ncols();
        all.slice_mut(s![t, ..keys])
            .assign(&row.index_axis(Axis(0), 0));
    }
}
