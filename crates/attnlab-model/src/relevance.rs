//! How much each position draws from each input token once attention has been followed
//! through several layers: **attention rollout** and **attention flow** (Abnar and
//! Zuidema 2020, *Quantifying Attention Flow in Transformers*), defined in
//! docs/maths.md §9.
//!
//! Both start from the same per-layer matrix: the mean of the layer's heads `Ā_l`, plus
//! the identity for the residual connection, with every row divided by its sum,
//! `Â_l = row_normalise(Ā_l + I)`. A row of `Ā_l` that is all zero (a fully masked query
//! of a lab variant) becomes the identity row: that position keeps only itself.
//!
//! - **Rollout** multiplies them: `R_0 = Â_0`, `R_l = Â_l · R_{l−1}`.
//! - **Flow** reads the `Â_l` as the capacities of a layered graph and takes, for every
//!   input token `j` and position `i` after layer `l`, the maximum flow from one to the
//!   other; each row is then divided by its sum, as the authors' code does.
//!
//! `R_l[i][j]` and `flow_l[i][j]` both answer "how much does position `i` after layer `l`
//! draw from input token `j`"; every row sums to 1.
//!
//! ```
//! use attnlab_model::relevance::{self, AttentionGraph};
//! use ndarray::array;
//!
//! // One layer, one head, two tokens: token 0 attends to itself, token 1 half and half.
//! let layers = vec![vec![array![[1.0f32, 0.0], [0.5, 0.5]]]];
//! // Â = (A + I) with rows renormalised: [[2, 0], [1/2, 3/2]] / [2, 2].
//! let rollout = relevance::rollout(&layers)?;
//! assert_eq!(rollout[0], array![[1.0, 0.0], [0.25, 0.75]]);
//!
//! // After one layer the flow is the capacities themselves.
//! let graph = AttentionGraph::new(&layers)?;
//! assert_eq!(graph.flow(0)?, array![[1.0, 0.0], [0.25, 0.75]]);
//! # Ok::<(), attnlab_model::relevance::RelevanceError>(())
//! ```

use std::collections::VecDeque;
use std::fmt;

use ndarray::Array2;

use crate::encoder::Forward;

/// The most tokens [`AttentionGraph::flow`] takes: it runs one maximum-flow computation
/// per pair of tokens, `n²` in all.
pub const MAX_FLOW_TOKENS: usize = 64;

/// Why rollout or flow cannot be computed from the given attention.
#[derive(Debug, Clone, PartialEq)]
pub enum RelevanceError {
    /// No layers were given.
    NoLayers,
    /// A layer has no heads.
    NoHeads {
        /// The layer.
        layer: usize,
    },
    /// The first head's matrix is `0 × 0`: there are no tokens.
    NoTokens,
    /// A head's matrix is not square (e.g. a Linformer head, whose keys are projected).
    NotSquare {
        /// The layer.
        layer: usize,
        /// The head in that layer.
        head: usize,
        /// Its rows.
        rows: usize,
        /// Its columns.
        cols: usize,
    },
    /// A head's matrix is square but not as large as the first head's.
    ShapeMismatch {
        /// The layer.
        layer: usize,
        /// The head in that layer.
        head: usize,
        /// Its size (`size × size`).
        size: usize,
        /// The first head's size.
        tokens: usize,
    },
    /// A weight is NaN or infinite.
    NotFinite {
        /// The layer.
        layer: usize,
        /// The head in that layer.
        head: usize,
        /// The row (query).
        row: usize,
        /// The column (key).
        col: usize,
    },
    /// A weight is negative.
    Negative {
        /// The layer.
        layer: usize,
        /// The head in that layer.
        head: usize,
        /// The row (query).
        row: usize,
        /// The column (key).
        col: usize,
        /// The weight.
        value: f32,
    },
    /// A layer index is not below the number of layers.
    NoSuchLayer {
        /// The index asked for.
        layer: usize,
        /// How many layers there are.
        layers: usize,
    },
    /// Flow was asked for more than [`MAX_FLOW_TOKENS`] tokens.
    TooManyTokens {
        /// The tokens of the text.
        tokens: usize,
        /// The limit.
        max: usize,
    },
}

impl fmt::Display for RelevanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelevanceError::NoLayers => f.write_str(
                "there is no layer: rollout and flow follow the attention of at least one layer",
            ),
            RelevanceError::NoHeads { layer } => {
                write!(
                    f,
                    "layer {layer} has no heads, so it has no attention to follow"
                )
            }
            RelevanceError::NoTokens => {
                f.write_str("the attention has no tokens: its matrices are 0 × 0")
            }
            RelevanceError::NotSquare {
                layer,
                head,
                rows,
                cols,
            } => write!(
                f,
                "layer {layer}, head {head}: the attention is {rows} × {cols}; rollout and flow \
                 need one row and one column per token (a head that attends to projected keys \
                 cannot be followed back to the tokens)"
            ),
            RelevanceError::ShapeMismatch {
                layer,
                head,
                size,
                tokens,
            } => write!(
                f,
                "layer {layer}, head {head}: the attention is {size} × {size}, but the first \
                 head's is {tokens} × {tokens}"
            ),
            RelevanceError::NotFinite {
                layer,
                head,
                row,
                col,
            } => write!(
                f,
                "layer {layer}, head {head}: the weight of query {row} for key {col} is not a \
                 finite number"
            ),
            RelevanceError::Negative {
                layer,
                head,
                row,
                col,
                value,
            } => write!(
                f,
                "layer {layer}, head {head}: the weight of query {row} for key {col} is {value}; \
                 a share of attention cannot be negative"
            ),
            RelevanceError::NoSuchLayer { layer, layers } => write!(
                f,
                "there is no layer {layer}: the layers are numbered 0 to {}",
                layers.saturating_sub(1)
            ),
            RelevanceError::TooManyTokens { tokens, max } => write!(
                f,
                "attention flow needs one maximum-flow computation per pair of tokens; it is \
                 offered up to {max} tokens, this text has {tokens}"
            ),
        }
    }
}

impl std::error::Error for RelevanceError {}

/// The validated attention of every layer, as the residual-augmented, head-averaged,
/// row-normalised matrices `Â_l` (docs/maths.md §9), computed once in f64.
#[derive(Debug, Clone, PartialEq)]
pub struct AttentionGraph {
    tokens: usize,
    /// `Â_l`, `tokens × tokens`, every row summing to 1.
    augmented: Vec<Array2<f64>>,
}

impl AttentionGraph {
    /// From the weights of every head of every layer, `layers[l][h]`, each `n × n`.
    pub fn new(layers: &[Vec<Array2<f32>>]) -> Result<AttentionGraph, RelevanceError> {
        AttentionGraph::from_heads(layers.iter().map(|heads| heads.iter()))
    }

    /// From the heads a forward pass traced ([`Forward::heads`]).
    pub fn from_forward(forward: &Forward) -> Result<AttentionGraph, RelevanceError> {
        AttentionGraph::from_heads(
            forward
                .heads
                .iter()
                .map(|heads| heads.iter().map(|h| &h.weights)),
        )
    }

    fn from_heads<'a, L, H>(layers: L) -> Result<AttentionGraph, RelevanceError>
    where
        L: Iterator<Item = H>,
        H: ExactSizeIterator<Item = &'a Array2<f32>>,
    {
        let mut tokens = None;
        let mut augmented = Vec::new();
        for (layer, heads) in layers.enumerate() {
            let count = heads.len();
            if count == 0 {
                return Err(RelevanceError::NoHeads { layer });
            }
            let mut mean: Option<Array2<f64>> = None;
            for (head, w) in heads.enumerate() {
                let (rows, cols) = w.dim();
                if rows != cols {
                    return Err(RelevanceError::NotSquare {
                        layer,
                        head,
                        rows,
                        cols,
                    });
                }
                let n = *tokens.get_or_insert(rows);
                if n == 0 {
                    return Err(RelevanceError::NoTokens);
                }
                if rows != n {
                    return Err(RelevanceError::ShapeMismatch {
                        layer,
                        head,
                        size: rows,
                        tokens: n,
                    });
                }
                if let Some(((row, col), &value)) =
                    w.indexed_iter().find(|(_, v)| !v.is_finite() || **v < 0.0)
                {
                    return Err(if value.is_finite() {
                        RelevanceError::Negative {
                            layer,
                            head,
                            row,
                            col,
                            value,
                        }
                    } else {
                        RelevanceError::NotFinite {
                            layer,
                            head,
                            row,
                            col,
                        }
                    });
                }
                let sum = mean.get_or_insert_with(|| Array2::zeros((n, n)));
                sum.zip_mut_with(w, |s, &v| *s += f64::from(v));
            }
            let mut a = mean.expect("at least one head");
            a.mapv_inplace(|s| s / count as f64);
            augment(&mut a);
            augmented.push(a);
        }
        match tokens {
            Some(tokens) => Ok(AttentionGraph { tokens, augmented }),
            None => Err(RelevanceError::NoLayers),
        }
    }

    /// The number of tokens `n`.
    pub fn tokens(&self) -> usize {
        self.tokens
    }

    /// The number of layers `L`.
    pub fn layers(&self) -> usize {
        self.augmented.len()
    }

    /// `Â_l`: layer `l`'s heads averaged, plus the identity, rows renormalised; `None`
    /// when `l` is not below [`AttentionGraph::layers`].
    pub fn augmented(&self, layer: usize) -> Option<&Array2<f64>> {
        self.augmented.get(layer)
    }

    /// The rollout after every layer: `R_0 = Â_0`, `R_l = Â_l · R_{l−1}` (computed in
    /// f64, rounded once). `R_l[i][j]` is how much position `i` after layer `l` draws from
    /// input token `j`; every row sums to 1.
    pub fn rollout(&self) -> Vec<Array2<f32>> {
        let mut out = Vec::with_capacity(self.augmented.len());
        let mut r: Option<Array2<f64>> = None;
        for a in &self.augmented {
            let next = match &r {
                None => a.clone(),
                Some(prev) => a.dot(prev),
            };
            out.push(next.mapv(|v| v as f32));
            r = Some(next);
        }
        out
    }

    /// The attention flow after layer `layer`: entry `[i][j]` is the maximum flow from
    /// input token `j` to position `i` after that layer through the graph whose edges
    /// carry the `Â` as capacities, each row then divided by its sum (so rows sum to 1).
    ///
    /// One maximum flow per pair of tokens: at most [`MAX_FLOW_TOKENS`] tokens.
    pub fn flow(&self, layer: usize) -> Result<Array2<f32>, RelevanceError> {
        if layer >= self.augmented.len() {
            return Err(RelevanceError::NoSuchLayer {
                layer,
                layers: self.augmented.len(),
            });
        }
        let n = self.tokens;
        if n > MAX_FLOW_TOKENS {
            return Err(RelevanceError::TooManyTokens {
                tokens: n,
                max: MAX_FLOW_TOKENS,
            });
        }
        let layers = &self.augmented[..=layer];
        let mut network = Network::layered(layers);
        let mut out = Array2::zeros((n, n));
        for i in 0..n {
            let mut row = vec![0.0f64; n];
            for (j, value) in row.iter_mut().enumerate() {
                *value = network.max_flow(layers, j, i);
            }
            // The path that stays on its own token has positive capacity at every step
            // (Â's diagonal is (Ā_ii + 1) / (Σ_k Ā_ik + 1) > 0), so the sum is positive.
            let total: f64 = row.iter().sum();
            for (o, v) in out.row_mut(i).iter_mut().zip(&row) {
                *o = (v / total) as f32;
            }
        }
        Ok(out)
    }
}

/// `a ← row_normalise(a + I)`. Every row of `a` is non-negative, so each sum is ≥ 1.
fn augment(a: &mut Array2<f64>) {
    for (i, mut row) in a.rows_mut().into_iter().enumerate() {
        row[i] += 1.0;
        let sum = row.sum();
        row.mapv_inplace(|v| v / sum);
    }
}

/// Attention rollout after every layer of `layers[l][h]` (see
/// [`AttentionGraph::rollout`]).
pub fn rollout(layers: &[Vec<Array2<f32>>]) -> Result<Vec<Array2<f32>>, RelevanceError> {
    Ok(AttentionGraph::new(layers)?.rollout())
}

/// Attention flow after layer `layer` of `layers[l][h]` (see [`AttentionGraph::flow`]).
pub fn flow(layers: &[Vec<Array2<f32>>], layer: usize) -> Result<Array2<f32>, RelevanceError> {
    AttentionGraph::new(layers)?.flow(layer)
}

/// The flow network of layers `0..=l` for one source and one sink, as residual
/// capacities in f64, solved by Dinic's algorithm. With one layer (no hidden nodes)
/// the flow is the one edge's capacity and no network is needed.
///
/// Only the source `(0, j)`, the hidden layers `1..=l` and the sink `(l + 1, i)` are
/// nodes: the other input tokens have no incoming edges and the other outputs no
/// outgoing ones, so no flow can pass through them. Node 0 is the source, node
/// `1 + (t − 1)·n + k` is token `k` after layer `t − 1`, the last node is the sink.
/// The edges between hidden layers are built once; each pair only rewrites the `n`
/// source edges (column `j` of `Â_0`) and the `n` sink edges (row `i` of `Â_l`).
struct Network {
    n: usize,
    /// Edges leaving node `u` are `start[u]..start[u + 1]`.
    start: Vec<usize>,
    to: Vec<usize>,
    /// The edge in the opposite direction (its residual).
    back: Vec<usize>,
    /// The capacity of every edge (0 for the reverse edges), hidden layers filled in.
    capacity: Vec<f64>,
    residual: Vec<f64>,
    level: Vec<u32>,
    next: Vec<usize>,
    queue: VecDeque<usize>,
    /// The edge from the source to hidden node `k` of layer 1 (when there is one).
    source_edges: Vec<usize>,
    /// The edge from hidden node `k` of the last hidden layer to the sink.
    sink_edges: Vec<usize>,
}

impl Network {
    fn layered(layers: &[Array2<f64>]) -> Network {
        let n = layers[0].nrows();
        let hidden = layers.len() - 1;
        let nodes = 2 + hidden * n;
        let (source, sink) = (0, nodes - 1);
        let node = |t: usize, k: usize| 1 + (t - 1) * n + k;
        // Forward edges (from, to, capacity) before the reverse ones are paired in.
        let mut edges: Vec<(usize, usize, f64)> = Vec::new();
        if hidden > 0 {
            for k in 0..n {
                edges.push((source, node(1, k), 0.0));
            }
            // Layers 1..hidden join hidden layer t to hidden layer t + 1; layer 0 and the
            // last layer are the source and sink edges, filled in per pair.
            for (t, a) in layers.iter().enumerate().take(hidden).skip(1) {
                for from in 0..n {
                    for to in 0..n {
                        // Token `to` after layer t draws Â_t[to][from] from token `from`.
                        let c = a[[to, from]];
                        if c > 0.0 {
                            edges.push((node(t, from), node(t + 1, to), c));
                        }
                    }
                }
            }
            for k in 0..n {
                edges.push((node(hidden, k), sink, 0.0));
            }
        }
        // Compressed adjacency: every edge and its reverse.
        let mut degree = vec![0usize; nodes + 1];
        for &(u, v, _) in &edges {
            degree[u + 1] += 1;
            degree[v + 1] += 1;
        }
        for u in 0..nodes {
            degree[u + 1] += degree[u];
        }
        let start = degree;
        let total = start[nodes];
        let mut fill = start.clone();
        let (mut to, mut back, mut capacity) = (vec![0; total], vec![0; total], vec![0.0; total]);
        let mut forward_index = Vec::with_capacity(edges.len());
        for &(u, v, c) in &edges {
            let (e, r) = (fill[u], fill[v]);
            fill[u] += 1;
            fill[v] += 1;
            to[e] = v;
            back[e] = r;
            capacity[e] = c;
            to[r] = u;
            back[r] = e;
            forward_index.push(e);
        }
        let (source_edges, sink_edges) = if hidden == 0 {
            (Vec::new(), Vec::new())
        } else {
            let last = forward_index.len() - n;
            (forward_index[..n].to_vec(), forward_index[last..].to_vec())
        };
        Network {
            n,
            start,
            to,
            back,
            residual: capacity.clone(),
            capacity,
            level: vec![0; nodes],
            next: vec![0; nodes],
            queue: VecDeque::with_capacity(nodes),
            source_edges,
            sink_edges,
        }
    }

    /// The maximum flow from input token `j` to token `i` after the last of `layers`.
    fn max_flow(&mut self, layers: &[Array2<f64>], j: usize, i: usize) -> f64 {
        let first = &layers[0];
        let last = &layers[layers.len() - 1];
        if layers.len() == 1 {
            // No hidden layer: one edge from source to sink.
            return first[[i, j]];
        }
        self.residual.copy_from_slice(&self.capacity);
        for k in 0..self.n {
            // Source (0, j) → (1, k): Â_0[k][j]; (l, k) → sink (l + 1, i): Â_l[i][k].
            self.residual[self.source_edges[k]] = first[[k, j]];
            self.residual[self.sink_edges[k]] = last[[i, k]];
        }
        let (source, sink) = (0, self.level.len() - 1);
        let mut total = 0.0;
        while self.levels(source, sink) {
            self.next.copy_from_slice(&self.start[..self.level.len()]);
            total += self.blocking_flow(source, sink);
        }
        total
    }

    /// Breadth-first levels from `source` over edges with residual capacity; whether
    /// `sink` is reachable.
    fn levels(&mut self, source: usize, sink: usize) -> bool {
        self.level.fill(u32::MAX);
        self.level[source] = 0;
        self.queue.clear();
        self.queue.push_back(source);
        while let Some(u) = self.queue.pop_front() {
            for e in self.start[u]..self.start[u + 1] {
                let v = self.to[e];
                if self.residual[e] > 0.0 && self.level[v] == u32::MAX {
                    self.level[v] = self.level[u] + 1;
                    self.queue.push_back(v);
                }
            }
        }
        self.level[sink] != u32::MAX
    }

    /// Augments along shortest paths (depth-first, without recursion) until none is
    /// left in the level graph; returns the flow added.
    fn blocking_flow(&mut self, source: usize, sink: usize) -> f64 {
        let mut added = 0.0;
        let mut path: Vec<usize> = Vec::new();
        let mut u = source;
        loop {
            if u == sink {
                let bottleneck = path
                    .iter()
                    .map(|&e| self.residual[e])
                    .fold(f64::INFINITY, f64::min);
                for &e in &path {
                    self.residual[e] -= bottleneck;
                    self.residual[self.back[e]] += bottleneck;
                }
                added += bottleneck;
                // Resume from the tail of the first edge the path saturated.
                let cut = path
                    .iter()
                    .position(|&e| self.residual[e] <= 0.0)
                    .unwrap_or(0);
                path.truncate(cut);
                u = path.last().map_or(source, |&e| self.to[e]);
                continue;
            }
            let mut advanced = false;
            while self.next[u] < self.start[u + 1] {
                let e = self.next[u];
                let v = self.to[e];
                if self.residual[e] > 0.0 && self.level[v] == self.level[u] + 1 {
                    path.push(e);
                    u = v;
                    advanced = true;
                    break;
                }
                self.next[u] += 1;
            }
            if advanced {
                continue;
            }
            // Dead end: nothing more goes through `u` in this phase.
            match path.pop() {
                None => return added,
                Some(e) => {
                    self.level[u] = u32::MAX;
                    u = self.to[self.back[e]];
                    self.next[u] += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn augment_adds_the_identity_and_renormalises_each_row() {
        // [1/2, 1/2] + [1, 0] = [3/2, 1/2] → [3/4, 1/4]; an empty row [0, 0] + [0, 1]
        // = [0, 1] is the identity row.
        let mut a = array![[0.5, 0.5], [0.0, 0.0]];
        augment(&mut a);
        assert_eq!(a, array![[0.75, 0.25], [0.0, 1.0]]);
    }

    #[test]
    fn the_network_keeps_only_the_hidden_layers_between_source_and_sink() {
        // Three layers of 2 tokens: source, 2 hidden layers of 2, sink = 6 nodes; edges:
        // 2 from the source, 4 between the hidden layers, 2 into the sink, each with its
        // reverse: 16.
        let layers = vec![Array2::from_elem((2, 2), 0.5); 3];
        let network = Network::layered(&layers);
        assert_eq!(network.level.len(), 6);
        assert_eq!(network.to.len(), 16);
        assert_eq!(
            (network.source_edges.len(), network.sink_edges.len()),
            (2, 2)
        );
    }
}
