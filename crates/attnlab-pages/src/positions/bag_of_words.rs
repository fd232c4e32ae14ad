//! The bag-of-words check: shuffle the tokens, run the variant again with and without
//! positions, un-permute, and compare.

use attnlab_core::attention::{AttentionKind, HeadResult};
use attnlab_core::position::{PositionConfig, PositionKind};
use attnlab_core::rng;
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::{Array2, ArrayRef2};

use attnlab_i18n::msg::positions as text;
use attnlab_i18n::{Lang, plot_words};
use attnlab_lab::compute::{self, LabError};
use attnlab_lab::state::{MaskKind, ModelConfig, Variant};
use attnlab_lab::tokens::Tokens;

/// A permutation of the tokens: `order[i]` is the original index of the token placed at
/// position `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permutation {
    order: Vec<usize>,
}

impl Permutation {
    /// Every token in its place.
    pub fn identity(n: usize) -> Permutation {
        Permutation {
            order: (0..n).collect(),
        }
    }

    /// A seeded shuffle of the first `typed` of `n` tokens (draw `draw` of the seed's
    /// shuffle stream). Padding tokens (`typed..n`) stay at the end, where padding goes,
    /// so the padding mask blocks the same key positions before and after. With two or
    /// more typed tokens the order differs from the identity.
    pub fn shuffled(n: usize, typed: usize, seed: u64, draw: u64) -> Permutation {
        let typed = typed.min(n);
        let mut order: Vec<usize> = (0..n).collect();
        if typed < 2 {
            return Permutation { order };
        }
        // Sorting by independent normal draws gives a uniformly random order; retry the
        // (rare) identity so that a shuffle always moves something.
        for attempt in 0..64u64 {
            let keys = rng::normal_vec(
                &mut rng::stream(seed, "shuffle", draw.wrapping_mul(64).wrapping_add(attempt)),
                typed,
                1.0,
            );
            let mut head: Vec<usize> = (0..typed).collect();
            head.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
            if head.iter().enumerate().any(|(i, &j)| i != j) {
                order[..typed].copy_from_slice(&head);
                return Permutation { order };
            }
        }
        order[..typed].reverse();
        Permutation { order }
    }

    /// A permutation given as its order; `None` unless `order` is a permutation of
    /// `0..order.len()`.
    pub fn from_order(order: Vec<usize>) -> Option<Permutation> {
        let mut seen = vec![false; order.len()];
        for &i in &order {
            if i >= order.len() || std::mem::replace(&mut seen[i], true) {
                return None;
            }
        }
        Some(Permutation { order })
    }

    /// `order[i]`: the original index of the token at position `i`.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Whether every token stays in its place.
    pub fn is_identity(&self) -> bool {
        self.order.iter().enumerate().all(|(i, &j)| i == j)
    }

    /// A matrix over the shuffled tokens put back in the original order:
    /// `back[order[i], order[j]] = shuffled[i, j]`. When the columns are not the tokens
    /// (Linformer's `k` projected keys) only the rows are put back. Rows or columns
    /// beyond the permutation are left where they are.
    pub fn unpermute(&self, shuffled: &ArrayRef2<f32>) -> Array2<f32> {
        let (rows, cols) = shuffled.dim();
        let to = |i: usize| self.order.get(i).copied().filter(|&o| o < rows.max(cols));
        let mut back = Array2::zeros((rows, cols));
        let permute_cols = cols == self.order.len();
        for i in 0..rows {
            let oi = to(i).filter(|&o| o < rows).unwrap_or(i);
            for j in 0..cols {
                let oj = if permute_cols { to(j).unwrap_or(j) } else { j };
                back[[oi, oj]] = shuffled[[i, j]];
            }
        }
        back
    }

    /// The order as people read it, e.g. `"3 0 5 1 2 4"`.
    pub fn describe(&self) -> String {
        self.order
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One side of the bag-of-words check: the head on the sentence as typed, and on the
/// shuffled sentence put back in the original order.
#[derive(Debug, Clone, PartialEq)]
pub struct ShuffleRun {
    /// The positions used.
    pub position: PositionConfig,
    /// The head on the original sentence.
    pub original: HeadResult,
    /// The head's weights on the shuffled sentence, un-permuted.
    pub restored: Array2<f32>,
    /// The cells the shuffled run's mask blocked, un-permuted (`true` = blocked).
    pub restored_blocked: Array2<bool>,
    /// `max |original − restored|`.
    pub max_difference: f32,
}

/// The bag-of-words check with positions off and with positions on, side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct BagOfWords {
    /// The permutation applied.
    pub permutation: Permutation,
    /// With positions off: the restored weights equal the original (≈ 0 difference)
    /// unless a mask depends on position.
    pub without_positions: ShuffleRun,
    /// With the model's positions (sinusoidal when the model has none): they differ.
    pub with_positions: ShuffleRun,
    /// Whether `with_positions` used sinusoids because the model has positions off.
    pub positions_substituted: bool,
}

impl ShuffleRun {
    /// The two figures of this run: the weights on the sentence as typed, and those on
    /// the shuffled sentence put back in the original order (same labels, blocked cells
    /// hatched). `rows` are the tokens, `cols` the key labels; the words are in `lang`.
    pub fn figures(
        &self,
        rows: &[String],
        cols: &[String],
        lang: Lang,
    ) -> Result<(Heatmap, Heatmap), HeatmapError> {
        let original = attnlab_lab::figure::head_heatmap(
            text::POSITIONS_BOW_AS_TYPED.get(lang),
            rows,
            cols,
            &self.original,
        )?
        .with_words(plot_words(lang));
        let restored = Heatmap::weights(
            text::POSITIONS_BOW_PUT_BACK.get(lang),
            rows.to_vec(),
            cols.to_vec(),
            self.restored.iter().copied().collect::<Vec<_>>(),
        )?
        .with_words(plot_words(lang))
        .with_blocked(self.restored_blocked.iter().copied().collect())?;
        Ok((original, restored))
    }
}

/// Why the bag-of-words difference with positions off is not expected to be ≈ 0 for
/// this variant (a mask or a map that depends on position), in `lang`, or `None`.
pub fn position_dependence(variant: &Variant, lang: Lang) -> Option<String> {
    if variant.attention == AttentionKind::Linformer {
        return Some(text::POSITIONS_LINFORMER_DEPENDS.get(lang).into());
    }
    let kinds: Vec<&str> = variant
        .masks
        .on()
        .into_iter()
        .filter(|k| *k != MaskKind::Padding)
        .map(|k| k.shown(lang))
        .collect();
    (!kinds.is_empty()).then(|| {
        text::PositionsMasksDepend {
            masks: &kinds.join(text::POSITIONS_MASK_JOINER.get(lang)),
            count: kinds.len(),
            name: &variant.name,
        }
        .say(lang)
    })
}

/// Runs head `head` of `variant` on `tokens` and on `tokens` shuffled by `permutation`,
/// with positions off and with the model's positions (sinusoidal ones when the model has
/// none, so the contrast is always there), and compares after un-permuting.
/// Self-attention on one sentence: `tokens` are the queries and the keys.
pub fn bag_of_words(
    model: &ModelConfig,
    variant: &Variant,
    tokens: &Tokens,
    head: usize,
    permutation: &Permutation,
) -> Result<BagOfWords, LabError> {
    let shuffled = tokens.reordered(permutation.order()).ok_or(LabError::Core(
        attnlab_core::CoreError::InvalidSetting {
            field: "permutation",
            reason: attnlab_core::Invalid::Permutation {
                positions: permutation.len(),
                tokens: tokens.used().len(),
            },
        },
    ))?;
    let run = |position: PositionConfig| -> Result<ShuffleRun, LabError> {
        let model = ModelConfig { position, ..*model };
        let original = head_of(&model, variant, tokens, head)?;
        let moved = head_of(&model, variant, &shuffled, head)?;
        let restored = permutation.unpermute(&moved.weights);
        let blocked = moved.mask.allowed().mapv(|a| if a { 0.0 } else { 1.0 });
        let restored_blocked = permutation.unpermute(&blocked).mapv(|b| b > 0.5);
        let max_difference = original
            .weights
            .iter()
            .zip(&restored)
            .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
        Ok(ShuffleRun {
            position,
            original,
            restored,
            restored_blocked,
            max_difference,
        })
    };
    let off = PositionConfig {
        kind: PositionKind::None,
        ..model.position
    };
    let substituted = model.position.kind == PositionKind::None;
    let on = if substituted {
        PositionConfig {
            kind: PositionKind::Sinusoidal,
            ..model.position
        }
    } else {
        model.position
    };
    Ok(BagOfWords {
        permutation: permutation.clone(),
        without_positions: run(off)?,
        with_positions: run(on)?,
        positions_substituted: substituted,
    })
}

fn head_of(
    model: &ModelConfig,
    variant: &Variant,
    tokens: &Tokens,
    head: usize,
) -> Result<HeadResult, LabError> {
    let x = compute::encode(model, tokens)?;
    let projected = compute::project(model, None, &x, None)?;
    let problem = compute::problem(model, &projected, variant, tokens)?;
    Ok(compute::compute_head(&problem, head)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_core::position::Combine;
    use attnlab_lab::state::LabState;

    #[test]
    fn permutations() {
        let p = Permutation::shuffled(6, 6, 1, 0);
        assert!(!p.is_identity());
        let mut sorted = p.order().to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..6).collect::<Vec<_>>());
        assert_eq!(p, Permutation::shuffled(6, 6, 1, 0), "seeded");
        assert_ne!(p, Permutation::shuffled(6, 6, 1, 1), "each draw differs");
        // Two tokens: the only other order.
        assert_eq!(Permutation::shuffled(2, 2, 5, 0).order(), &[1, 0]);
        assert!(Permutation::shuffled(1, 1, 5, 0).is_identity());
        // Padding stays at the end.
        let q = Permutation::shuffled(8, 5, 3, 0);
        assert_eq!(&q.order()[5..], &[5, 6, 7]);
        // Un-permuting by hand: order [2, 0, 1] puts token 2 first.
        let p = Permutation::from_order(vec![2, 0, 1]).unwrap();
        let shuffled = ndarray::array![[22.0f32, 20.0, 21.0], [2.0, 0.0, 1.0], [12.0, 10.0, 11.0]];
        let back = p.unpermute(&shuffled);
        assert_eq!(
            back,
            ndarray::array![[0.0f32, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0]]
        );
        assert_eq!(p.describe(), "2 0 1");
        assert!(Permutation::from_order(vec![0, 0]).is_none());
    }

    #[test]
    fn without_positions_attention_is_a_bag_of_words() {
        let state = LabState::default();
        let tokens = Tokens::new(&state.text, None);
        for draw in 0..3 {
            let p = Permutation::shuffled(11, 11, 42, draw);
            for v in &state.variants {
                for head in 0..4 {
                    let b = bag_of_words(&state.model, v, &tokens, head, &p).unwrap();
                    assert!(b.without_positions.max_difference < 1e-6, "{b:?}");
                    assert!(b.with_positions.max_difference > 1e-3, "{b:?}");
                    assert!(!b.positions_substituted);
                }
            }
        }
        // The identity changes nothing at all.
        let b = bag_of_words(
            &state.model,
            &state.variants[0],
            &tokens,
            0,
            &Permutation::identity(11),
        )
        .unwrap();
        assert_eq!(b.with_positions.max_difference, 0.0);
    }

    #[test]
    fn the_check_covers_learned_concat_none_linear_and_padding() {
        let mut state = LabState::default();
        state.model.position.kind = PositionKind::Learned;
        state.model.position.combine = Combine::Concat { d_pos: 16 };
        state.variants[0].attention = AttentionKind::Elu1;
        let tokens = Tokens::new(&state.text, Some(14));
        state.variants[0].masks.padding = true;
        let p = Permutation::shuffled(14, tokens.typed(), 9, 0);
        assert_eq!(&p.order()[11..], &[11, 12, 13]);
        let b = bag_of_words(&state.model, &state.variants[0], &tokens, 1, &p).unwrap();
        assert!(b.without_positions.max_difference < 1e-5, "{b:?}");
        assert!(b.with_positions.max_difference > 1e-3);
        // The pads are still blocked after the shuffle.
        assert!(
            b.with_positions
                .restored
                .column(13)
                .iter()
                .all(|&w| w == 0.0)
        );
        assert!(
            b.with_positions
                .restored_blocked
                .column(13)
                .iter()
                .all(|&x| x)
        );
        let labels = tokens.labels();
        let (orig, back) = b
            .with_positions
            .figures(&labels, &labels, Lang::En)
            .unwrap();
        assert_eq!((orig.n_rows(), back.n_cols()), (14, 14));
        assert!(back.is_blocked(0, 13) && !back.is_blocked(0, 0));
        assert_eq!(
            (orig.title(), back.title()),
            ("As typed", "Shuffled, then put back")
        );
        assert!(!b.with_positions.restored_blocked[[0, 0]]);
        assert_eq!(position_dependence(&state.variants[0], Lang::En), None);

        // Positions off in the model: the "with" side uses sinusoids and says so.
        state.model.position.kind = PositionKind::None;
        let b = bag_of_words(&state.model, &state.variants[1], &tokens, 0, &p).unwrap();
        assert!(b.positions_substituted);
        assert_eq!(b.with_positions.position.kind, PositionKind::Sinusoidal);
        assert!(b.with_positions.max_difference > 1e-3);
    }

    #[test]
    fn position_dependent_masks_are_named() {
        let state = LabState::default();
        let tokens = Tokens::new(&state.text, None);
        let mut v = state.variants[0].clone();
        v.masks.causal = true;
        let why = position_dependence(&v, Lang::En).unwrap();
        assert!(
            why.contains("causal mask") && why.contains("depends"),
            "{why}"
        );
        // And indeed the difference is not ≈ 0 then.
        let p = Permutation::shuffled(11, 11, 1, 0);
        let b = bag_of_words(&state.model, &v, &tokens, 0, &p).unwrap();
        assert!(b.without_positions.max_difference > 1e-3);
        v.masks.window = Some(2);
        assert!(
            position_dependence(&v, Lang::En)
                .unwrap()
                .contains("causal and window masks")
        );
        v.masks = Default::default();
        v.attention = AttentionKind::Linformer;
        assert!(
            position_dependence(&v, Lang::En)
                .unwrap()
                .starts_with("Linformer")
        );
        // Linformer's weights are over k projected keys: only the rows go back.
        let b = bag_of_words(&state.model, &v, &tokens, 0, &p).unwrap();
        assert_eq!(b.without_positions.restored.dim(), (11, 4));
        // A permutation of the wrong length is an error, not a panic.
        assert!(bag_of_words(&state.model, &v, &tokens, 0, &Permutation::identity(3)).is_err());
    }
}
