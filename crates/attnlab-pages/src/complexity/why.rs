//! Why attention: "Attention Is All You Need" (Vaswani et al. 2017), Table 1, for chosen
//! numbers. Four kinds of layer map n inputs of width d to n outputs: a recurrent layer, a
//! convolution of kernel width k, self-attention, and self-attention restricted to a window
//! of r positions on each side. For each: the work per layer, the operations that must run
//! one after another, and the longest path a signal takes between two positions.
//!
//! The paths are counted in the network's arrows: a layer of attention or convolution is
//! one arrow from each input it reads to its output; a recurrent layer's output `i` reads
//! input `j ≤ i` through `x_j → h_j → h_{j+1} → … → h_i`, `1 + (i − j)` arrows in one
//! layer. The convolution here is contiguous and centred (k odd: `(k − 1) / 2` inputs on
//! each side); a dilated one reaches further, in `O(log_k n)` layers (the paper's figure),
//! and its number is given beside. The recurrent layer is causal (it reads what came
//! before); the other three read both sides.
//!
//! The figure ([`reach`]): for an output `i`, which inputs reach it after `L` layers, and
//! through how many arrows ([`path`]); the longest of those paths over every `i` and `j` is
//! the table's maximum path length ([`Sizes::max_path`]).

use std::ops::RangeInclusive;

use attnlab_i18n::{Tr, msg};

/// A kind of layer of Table 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    /// A recurrent layer: `h_i = f(h_{i−1}, x_i)`.
    Recurrent,
    /// A contiguous convolution of kernel width k (centred).
    Convolution,
    /// Self-attention: every output reads every input.
    SelfAttention,
    /// Self-attention restricted to `|i − j| ≤ r`.
    Restricted,
}

impl Layer {
    /// The four, in the paper's order.
    pub const ALL: [Layer; 4] = [
        Layer::SelfAttention,
        Layer::Recurrent,
        Layer::Convolution,
        Layer::Restricted,
    ];

    /// Its name on the page.
    pub fn label(self) -> Tr {
        use msg::complexity as m;
        match self {
            Layer::Recurrent => m::COMPLEXITY_WHY_LAYER_RECURRENT,
            Layer::Convolution => m::COMPLEXITY_WHY_LAYER_CONVOLUTION,
            Layer::SelfAttention => m::COMPLEXITY_WHY_LAYER_SELF_ATTENTION,
            Layer::Restricted => m::COMPLEXITY_WHY_LAYER_RESTRICTED,
        }
    }

    /// Table 1's complexity per layer and its maximum path length as formulas (the
    /// convolution's path: contiguous).
    pub fn formulas(self) -> (&'static str, &'static str) {
        match self {
            Layer::Recurrent => ("n·d²", "n"),
            Layer::Convolution => ("k·n·d²", "⌈(n − 1) / ((k − 1) / 2)⌉"),
            Layer::SelfAttention => ("n²·d", "1"),
            Layer::Restricted => ("r·n·d", "⌈(n − 1) / r⌉"),
        }
    }

    /// Its name in `data-testid`s.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Recurrent => "recurrent",
            Layer::Convolution => "convolution",
            Layer::SelfAttention => "self-attention",
            Layer::Restricted => "restricted",
        }
    }
}

/// The numbers Table 1 is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sizes {
    /// The sequence length n.
    pub n: u64,
    /// The width d of a position's vector.
    pub d: u64,
    /// The convolution's kernel width k (odd, ≥ 3).
    pub k: u64,
    /// The restricted window's reach r on each side (≥ 1).
    pub r: u64,
}

impl Default for Sizes {
    fn default() -> Sizes {
        Sizes {
            n: 16,
            d: 512,
            k: 3,
            r: 2,
        }
    }
}

/// The range of n.
pub const N_RANGE: RangeInclusive<u64> = 2..=100_000;
/// The range of d.
pub const D_RANGE: RangeInclusive<u64> = 1..=65_536;
/// The kernel widths offered (odd, so the kernel is centred).
pub const K_CHOICES: [u64; 5] = [3, 5, 7, 9, 11];
/// The range of r.
pub const R_RANGE: RangeInclusive<u64> = 1..=1_000;
/// The layers the figure shows at most.
pub const LAYERS_RANGE: RangeInclusive<u64> = 1..=16;
/// The positions the figure draws at most (the first ones of the sequence).
pub const FIGURE_MAX_N: u64 = 32;
/// The layers the figure opens with.
pub const DEFAULT_LAYERS: u64 = 2;
/// The output the figure opens on.
pub const DEFAULT_OUTPUT: u64 = 8;

impl Sizes {
    /// Every value in its range (an even k rounded up to the next odd, at most 11).
    pub fn clamped(self) -> Sizes {
        let k = self.k.clamp(3, 11);
        Sizes {
            n: self.n.clamp(*N_RANGE.start(), *N_RANGE.end()),
            d: self.d.clamp(*D_RANGE.start(), *D_RANGE.end()),
            k: if k.is_multiple_of(2) { k + 1 } else { k },
            r: self.r.clamp(*R_RANGE.start(), *R_RANGE.end()),
        }
    }

    /// The convolution's reach on each side, `(k − 1) / 2`.
    pub fn half_kernel(&self) -> u64 {
        (self.k - 1) / 2
    }

    /// The operations of one layer (Table 1's "complexity per layer", without the O):
    /// `n·d²`, `k·n·d²`, `n²·d`, `r·n·d`.
    pub fn work(&self, layer: Layer) -> u128 {
        let (n, d, k, r) = (
            self.n as u128,
            self.d as u128,
            self.k as u128,
            self.r as u128,
        );
        match layer {
            Layer::Recurrent => n * d * d,
            Layer::Convolution => k * n * d * d,
            Layer::SelfAttention => n * n * d,
            Layer::Restricted => r * n * d,
        }
    }

    /// The operations that must run one after another: `n` for the recurrence, 1 for the
    /// others.
    pub fn sequential(&self, layer: Layer) -> u64 {
        match layer {
            Layer::Recurrent => self.n,
            _ => 1,
        }
    }

    /// The longest path between two of the n positions, in arrows ([`path`] over every
    /// `i` and `j`): `n` for the recurrence (from `x_0` to `h_{n−1}`), `⌈(n − 1) / ((k − 1) / 2)⌉`
    /// for the contiguous convolution, 1 for self-attention, `⌈(n − 1) / r⌉` restricted.
    pub fn max_path(&self, layer: Layer) -> u64 {
        let far = self.n - 1;
        match layer {
            Layer::Recurrent => self.n,
            Layer::Convolution => far.div_ceil(self.half_kernel()).max(1),
            Layer::SelfAttention => 1,
            Layer::Restricted => far.div_ceil(self.r).max(1),
        }
    }

    /// A dilated convolution's longest path, `⌈log_k n⌉` layers (the paper's
    /// `O(log_k(n))`): the smallest `L` with `k^L ≥ n`.
    pub fn dilated_path(&self) -> u64 {
        let mut layers = 0;
        let mut span: u128 = 1;
        while span < self.n as u128 {
            span *= self.k as u128;
            layers += 1;
        }
        layers.max(1)
    }

    /// The width of the inputs output `i` reads after `layers` layers (before the
    /// sequence's ends cut it): the recurrence every `j ≤ i` (`i + 1`), the convolution
    /// `L·(k − 1) + 1`, self-attention all n, restricted `L·2r + 1`.
    pub fn cone_width(&self, layer: Layer, i: u64, layers: u64) -> u64 {
        match layer {
            Layer::Recurrent => i + 1,
            Layer::Convolution => layers * (self.k - 1) + 1,
            Layer::SelfAttention => self.n,
            Layer::Restricted => layers * 2 * self.r + 1,
        }
    }
}

/// An integer with a comma between groups of three digits.
fn grouped(v: u128) -> String {
    crate::decoding::grouped(v)
}

impl Sizes {
    /// The work of one layer written out: `n·d² = 16·512² = 4,194,304`.
    pub fn work_text(&self, layer: Layer) -> String {
        let (n, d, k, r) = (self.n, self.d, self.k, self.r);
        let numbers = match layer {
            Layer::Recurrent => format!("{n}·{d}²"),
            Layer::Convolution => format!("{k}·{n}·{d}²"),
            Layer::SelfAttention => format!("{n}²·{d}"),
            Layer::Restricted => format!("{r}·{n}·{d}"),
        };
        format!(
            "{} = {numbers} = {}",
            layer.formulas().0,
            grouped(self.work(layer))
        )
    }

    /// The maximum path length written out: `⌈(n − 1) / r⌉ = ⌈15 / 2⌉ = 8`.
    pub fn path_text(&self, layer: Layer) -> String {
        let far = self.n - 1;
        let value = self.max_path(layer);
        match layer {
            Layer::Recurrent => format!("n = {value}"),
            Layer::Convolution => format!(
                "{} = ⌈{far} / {}⌉ = {value}",
                layer.formulas().1,
                self.half_kernel()
            ),
            Layer::SelfAttention => "1".into(),
            Layer::Restricted => format!("{} = ⌈{far} / {}⌉ = {value}", layer.formulas().1, self.r),
        }
    }
}

/// The arrows on the shortest path from input `j` to output `i` (`None`: never, input
/// after output in the recurrence). For the layered kinds this is the smallest number of
/// layers `L` after which `j` reaches `i`.
pub fn path(s: &Sizes, layer: Layer, i: u64, j: u64) -> Option<u64> {
    let gap = i.abs_diff(j);
    match layer {
        Layer::Recurrent => (j <= i).then_some(1 + gap),
        Layer::Convolution => Some(gap.div_ceil(s.half_kernel()).max(1)),
        Layer::SelfAttention => Some(1),
        Layer::Restricted => Some(gap.div_ceil(s.r).max(1)),
    }
}

/// Whether input `j` reaches output `i` after `layers` layers (the recurrence: in one
/// layer, through `1 + (i − j)` steps).
pub fn reaches(s: &Sizes, layer: Layer, i: u64, j: u64, layers: u64) -> bool {
    match (layer, path(s, layer, i, j)) {
        (_, None) => false,
        (Layer::Recurrent, Some(_)) => layers >= 1,
        (_, Some(p)) => p <= layers,
    }
}

/// One row of the figure: for output `i` after `layers` layers, each input position
/// `0 … n_shown − 1` and its path when it reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReachRow {
    /// The kind of layer.
    pub layer: Layer,
    /// Per input `j`: `Some(path)` when it reaches output `i`, else `None`.
    pub cells: Vec<Option<u64>>,
    /// How many inputs reach.
    pub reached: usize,
    /// The longest path among all n inputs to output `i` (the smallest L at which every
    /// input that can reach it does), `None` when some input never can.
    pub all_after: Option<u64>,
}

/// The figure: the first `min(n, FIGURE_MAX_N)` positions, output `i` (clamped to them).
pub fn reach(s: &Sizes, i: u64, layers: u64) -> Vec<ReachRow> {
    let shown = s.n.min(FIGURE_MAX_N);
    let i = i.min(shown - 1);
    Layer::ALL
        .into_iter()
        .map(|layer| {
            let cells: Vec<Option<u64>> = (0..shown)
                .map(|j| {
                    reaches(s, layer, i, j, layers)
                        .then(|| path(s, layer, i, j))
                        .flatten()
                })
                .collect();
            let reached = cells.iter().filter(|c| c.is_some()).count();
            let all_after = (0..s.n)
                .map(|j| path(s, layer, i, j))
                .try_fold(0, |m, p| p.map(|p| p.max(m)));
            ReachRow {
                layer,
                cells,
                reached,
                all_after,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sizes(n: u64, k: u64, r: u64) -> Sizes {
        Sizes { n, d: 8, k, r }
    }

    #[test]
    fn table_1_for_hand_checked_numbers() {
        let s = Sizes {
            n: 10,
            d: 4,
            k: 3,
            r: 2,
        };
        assert_eq!(s.work(Layer::Recurrent), 160);
        assert_eq!(s.work(Layer::Convolution), 480);
        assert_eq!(s.work(Layer::SelfAttention), 400);
        assert_eq!(s.work(Layer::Restricted), 80);
        assert_eq!(s.sequential(Layer::Recurrent), 10);
        assert_eq!(s.sequential(Layer::Restricted), 1);
        assert_eq!(s.max_path(Layer::Recurrent), 10);
        // k = 3: one position per side per layer: 9 layers from one end to the other.
        assert_eq!(s.max_path(Layer::Convolution), 9);
        assert_eq!(s.max_path(Layer::SelfAttention), 1);
        // r = 2: ⌈9 / 2⌉ = 5.
        assert_eq!(s.max_path(Layer::Restricted), 5);
        // 3² = 9 < 10 ≤ 3³.
        assert_eq!(s.dilated_path(), 3);
        assert_eq!(s.work_text(Layer::Convolution), "k·n·d² = 3·10·4² = 480");
        assert_eq!(
            s.path_text(Layer::Restricted),
            "⌈(n − 1) / r⌉ = ⌈9 / 2⌉ = 5"
        );
        assert_eq!(
            Sizes { n: 16, d: 512, ..s }.work_text(Layer::Recurrent),
            "n·d² = 16·512² = 4,194,304"
        );
        // Attention is cheaper than the recurrence when n < d.
        let short = Sizes {
            n: 100,
            d: 512,
            ..s
        };
        assert!(short.work(Layer::SelfAttention) < short.work(Layer::Recurrent));
    }

    #[test]
    fn cones_widen_by_k_minus_1_and_2r_per_layer() {
        let s = sizes(32, 5, 3);
        assert_eq!(s.cone_width(Layer::Convolution, 16, 1), 5);
        assert_eq!(s.cone_width(Layer::Convolution, 16, 3), 13);
        assert_eq!(s.cone_width(Layer::Restricted, 16, 2), 13);
        // Counted on the figure: output 16 of 32 after 3 layers of k = 5 reads 10 … 22.
        let rows = reach(&s, 16, 3);
        let conv = rows.iter().find(|r| r.layer == Layer::Convolution).unwrap();
        let reached: Vec<usize> = (0..32).filter(|&j| conv.cells[j].is_some()).collect();
        assert_eq!(reached, (10..=22).collect::<Vec<_>>());
        assert_eq!(conv.cells[10], Some(3));
        assert_eq!(conv.cells[14], Some(1));
        assert_eq!(conv.cells[13], Some(2));
        // Restricted, r = 3, 3 layers: 3·2·3 + 1 = 19 inputs, 7 … 25.
        let res = rows.iter().find(|r| r.layer == Layer::Restricted).unwrap();
        assert_eq!(res.reached, 19);
        assert_eq!(
            (res.cells[6], res.cells[7], res.cells[25]),
            (None, Some(3), Some(3))
        );
        // The recurrence: everything before 16, in 1 + (16 − j) steps; nothing after.
        let rnn = rows.iter().find(|r| r.layer == Layer::Recurrent).unwrap();
        assert_eq!(rnn.reached, 17);
        assert_eq!(rnn.cells[0], Some(17));
        assert_eq!(rnn.cells[16], Some(1));
        assert_eq!(rnn.cells[17], None);
        assert_eq!(rnn.all_after, None);
        let att = rows
            .iter()
            .find(|r| r.layer == Layer::SelfAttention)
            .unwrap();
        assert_eq!((att.reached, att.all_after), (32, Some(1)));
        // At the edge the cone is cut: output 0 after 1 layer of k = 5 reads 0, 1, 2.
        let edge = reach(&s, 0, 1);
        assert_eq!(edge[2].reached, 3);
    }

    #[test]
    fn clamping_keeps_every_value_usable() {
        let s = Sizes {
            n: 0,
            d: 0,
            k: 4,
            r: 0,
        }
        .clamped();
        assert_eq!((s.n, s.d, s.k, s.r), (2, 1, 5, 1));
        let big = Sizes {
            n: u64::MAX,
            d: u64::MAX,
            k: 100,
            r: u64::MAX,
        }
        .clamped();
        assert_eq!(big.k, 11);
        assert!(big.work(Layer::Convolution) > 0);
    }

    proptest! {
        /// The longest path read off the figure (every output, every input) is Table 1's
        /// formula; and an input reaches after L layers exactly when its path is ≤ L.
        #[test]
        fn the_figure_s_longest_path_is_the_formula(
            n in 2u64..40, ki in 0usize..5, r in 1u64..8, layers in 1u64..16,
        ) {
            let s = sizes(n, K_CHOICES[ki], r);
            for layer in Layer::ALL {
                let longest = (0..n)
                    .flat_map(|i| (0..n).map(move |j| (i, j)))
                    .filter_map(|(i, j)| path(&s, layer, i, j))
                    .max()
                    .unwrap();
                prop_assert_eq!(longest, s.max_path(layer), "{:?}", layer);
                for i in 0..n.min(FIGURE_MAX_N) {
                    let row = &reach(&s, i, layers)[Layer::ALL.iter().position(|&l| l == layer).unwrap()];
                    for j in 0..n.min(FIGURE_MAX_N) {
                        let p = path(&s, layer, i, j);
                        let expected = match layer {
                            Layer::Recurrent => p.is_some(),
                            _ => p.unwrap() <= layers,
                        };
                        prop_assert_eq!(row.cells[j as usize].is_some(), expected);
                    }
                    // The cone's width, cut by the sequence's ends.
                    if layer == Layer::SelfAttention {
                        prop_assert_eq!(row.reached as u64, n.min(FIGURE_MAX_N));
                    } else if layer != Layer::Recurrent && n <= FIGURE_MAX_N {
                        let w = s.cone_width(layer, i, layers);
                        let half = (w - 1) / 2;
                        let lo = i.saturating_sub(half);
                        let hi = (i + half).min(n - 1);
                        prop_assert_eq!(row.reached as u64, hi - lo + 1);
                    }
                }
            }
        }
    }
}
