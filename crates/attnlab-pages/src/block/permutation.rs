//! The permutation check: what the feed-forward does to each token on its own against
//! what attention mixes. Shuffle the tokens with a permutation `P` and compare
//! "shuffle, then apply" with "apply, then shuffle" for both sub-layers of layer 1.

use attnlab_core::CoreError;
use attnlab_core::model::Encoded;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::block as text;
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::{Array2, ArrayView2, Axis as Dim};

use super::{BlockRun, activations, first, largest_difference};

/// The permutation check of one shuffle: the order, both sides of each comparison and
/// their largest differences. The feed-forward acts on `P·X`; attention on `X′`, the
/// shuffled words with the positions left where they were (what a shuffled sentence
/// is when it is encoded again).
#[derive(Debug, Clone, PartialEq)]
pub struct Permutation {
    /// `P`: row `i` of the shuffled sentence is token `order[i]`.
    pub order: Vec<usize>,
    /// `FFN(P·X)`, `n × d`.
    pub ffn_of_shuffled: Array2<f32>,
    /// `P·FFN(X)`.
    pub shuffled_ffn: Array2<f32>,
    /// `Attn(X′)`: self-attention's output on the shuffled sentence.
    pub attention_of_shuffled: Array2<f32>,
    /// `P·Attn(X)`.
    pub shuffled_attention: Array2<f32>,
    /// The feed-forward's largest difference (0: its rows move with the tokens).
    pub ffn: f32,
    /// Attention's largest difference.
    pub attention: f32,
    /// Whether the positions are all 0 (no position encoding): then only a causal mask
    /// keeps attention from following the shuffle.
    pub no_positions: bool,
}

/// `P·x`: row `i` is row `order[i]` of `x`.
fn permute(x: ArrayView2<'_, f32>, order: &[usize]) -> Array2<f32> {
    x.select(Dim(0), order)
}

/// The permutation check with the sentence backwards, the page's first shuffle.
pub fn permutation(run: &BlockRun, encoded: &Encoded) -> Result<Permutation, CoreError> {
    let order: Vec<usize> = (0..run.used.tokens.0).rev().collect();
    permutation_in(run, encoded, &order)
}

/// The permutation check of a run on the sentence encoded as `encoded` (the run's
/// queries; its first rows are used when the run kept fewer), with layer 1's weights on
/// the stack's input `X` and the shuffle `order` (a permutation of the run's tokens;
/// anything else is read as the sentence backwards).
pub fn permutation_in(
    run: &BlockRun,
    encoded: &Encoded,
    order: &[usize],
) -> Result<Permutation, CoreError> {
    let n = run.used.tokens.0;
    let order: Vec<usize> = if is_permutation(order, n) {
        order.to_vec()
    } else {
        (0..n).rev().collect()
    };
    let x = first(&encoded.x, n);
    let words = first(&encoded.words, n);
    let layer = &run.block.layers()[0];
    let ffn = &layer.ffn;
    let ffn_of_shuffled = ffn.forward(&permute(x.view(), &order));
    let shuffled_ffn = permute(ffn.forward(&x).view(), &order);
    // X′: the shuffled words, the positions where they were (added, or concatenated
    // after the words).
    let mut shuffled = x.clone();
    let shuffled_words = permute(words.view(), &order);
    let d_words = words.ncols();
    if d_words == x.ncols() {
        shuffled = &shuffled - &words + &shuffled_words;
    } else {
        shuffled
            .slice_mut(ndarray::s![.., ..d_words])
            .assign(&shuffled_words);
    }
    let attention = &layer.self_attention;
    let (_, a) = attention.self_attend(&x)?;
    let (_, attention_of_shuffled) = attention.self_attend(&shuffled)?;
    let shuffled_attention = permute(a.view(), &order);
    Ok(Permutation {
        ffn: largest_difference(&ffn_of_shuffled, &shuffled_ffn),
        attention: largest_difference(&attention_of_shuffled, &shuffled_attention),
        order,
        ffn_of_shuffled,
        shuffled_ffn,
        attention_of_shuffled,
        shuffled_attention,
        no_positions: encoded.positions.iter().all(|&v| v == 0.0),
    })
}

fn is_permutation(order: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    order.len() == n
        && order
            .iter()
            .all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
}

/// The check's six `n × d` heatmaps, rows in the shuffled order (labelled with the
/// shuffled tokens), three for each sub-layer: `[FFN(P·X), P·FFN(X), their difference,
/// Attn(X′), P·Attn(X), their difference]`. A difference is drawn on its pair's colour
/// range, so a small one shows small.
pub fn permutation_figures(
    check: &Permutation,
    queries: &[String],
    lang: Lang,
) -> Result<[Heatmap; 6], HeatmapError> {
    let rows: Vec<String> = check
        .order
        .iter()
        .map(|&i| queries.get(i).cloned().unwrap_or_default())
        .collect();
    let figure =
        |title: &str, x: &Array2<f32>| activations(title.to_string(), x.view(), &rows, lang);
    let trio = |first: (&str, &Array2<f32>), after: (&str, &Array2<f32>), difference: &str| {
        let first_map = figure(first.0, first.1)?;
        let range = first_map.range();
        Ok::<_, HeatmapError>([
            first_map,
            figure(after.0, after.1)?,
            figure(difference, &(first.1 - after.1))?.with_range(range),
        ])
    };
    let [a, b, c] = trio(
        (
            text::BLOCK_PERM_FFN_OF_SHUFFLED.get(lang),
            &check.ffn_of_shuffled,
        ),
        (text::BLOCK_PERM_SHUFFLED_FFN.get(lang), &check.shuffled_ffn),
        text::BLOCK_PERM_FFN_DIFFERENCE.get(lang),
    )?;
    let [d, e, f] = trio(
        (
            text::BLOCK_PERM_ATTENTION_OF_SHUFFLED.get(lang),
            &check.attention_of_shuffled,
        ),
        (
            text::BLOCK_PERM_SHUFFLED_ATTENTION.get(lang),
            &check.shuffled_attention,
        ),
        text::BLOCK_PERM_ATTENTION_DIFFERENCE.get(lang),
    )?;
    Ok([a, b, c, d, e, f])
}
