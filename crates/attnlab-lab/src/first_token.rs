//! The weight each head puts on the first token, key 0: the mean over the query rows that
//! have an allowed key of `w_i0` (a row the mask closes to key 0 counts 0 there). A trained
//! softmax head must spend every row's whole weight, and heads with nothing to look for
//! park it on the first tokens: Xiao et al. (2024) called them attention sinks. A window
//! that keeps the first keys open (the mask's sinks), softmax+1 and a learned sink logit
//! give that weight a place; the figure shows where each variant's heads put it.
//!
//! ```
//! use attnlab_lab::first_token::share;
//! use ndarray::array;
//!
//! // Rows 0 and 1 put 1 and ½ on key 0; row 2 has no allowed key and does not count.
//! let w = array![[1.0f32, 0.0], [0.5, 0.5], [0.0, 0.0]];
//! assert_eq!(share(w.view(), &[2]), Some(0.75));
//! assert_eq!(share(w.view(), &[0, 1, 2]), None);
//! ```

use attnlab_core::attention::{AttentionKind, HeadResult};
use attnlab_i18n::msg::figure as m;
use attnlab_i18n::{Lang, plot_words};
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::ArrayView2;

/// The mean of column 0 of `weights` over the rows not in `empty_rows`; `None` when no
/// row counts or there is no column.
pub fn share(weights: ArrayView2<f32>, empty_rows: &[usize]) -> Option<f32> {
    if weights.ncols() == 0 {
        return None;
    }
    let (sum, rows) = weights
        .column(0)
        .iter()
        .enumerate()
        .filter(|(i, _)| !empty_rows.contains(i))
        .fold((0.0f64, 0usize), |(s, n), (_, &w)| {
            (s + f64::from(w), n + 1)
        });
    (rows > 0).then(|| (sum / rows as f64) as f32)
}

/// [`share`] of a computed head of a variant of kind `kind`; `None` for Linformer, whose
/// columns are projected keys, not tokens.
pub fn head_share(kind: AttentionKind, head: &HeadResult) -> Option<f32> {
    (kind != AttentionKind::Linformer)
        .then(|| share(head.weights.view(), &head.empty_rows))
        .flatten()
}

/// A figure of shares: one row per `rows` label, one column per `cols` label, `None`
/// cells drawn as blocked (no share to show). Shares outside `0..=1` (differential
/// attention's can be negative) take the diverging palette, as weights do.
fn figure(
    title: String,
    rows: Vec<String>,
    cols: Vec<String>,
    shares: &[Vec<Option<f32>>],
    axes: (String, String),
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let width = cols.len();
    let cell = |row: &Vec<Option<f32>>, j: usize| row.get(j).copied().flatten();
    let values: Vec<f32> = shares
        .iter()
        .flat_map(|row| (0..width).map(move |j| cell(row, j).unwrap_or(0.0)))
        .collect();
    let blocked: Vec<bool> = shares
        .iter()
        .flat_map(|row| (0..width).map(move |j| cell(row, j).is_none()))
        .collect();
    let heatmap = Heatmap::weights(title, rows, cols, values)?
        .with_words(plot_words(lang))
        .with_value_label(m::FIRST_TOKEN_VALUE.get(lang))
        .with_axis_titles(axes.0, axes.1);
    let heatmap = crate::figure::fitted_range(heatmap);
    if blocked.iter().any(|&b| b) {
        heatmap.with_blocked(blocked)
    } else {
        Ok(heatmap)
    }
}

/// The lab's figure: one row per variant (`(name, each head's share)`, `None` for a
/// variant that could not be computed), one column per head of `heads`. Its title names
/// no token: the sentence is the user's, in any language.
pub fn lab_figure(
    variants: &[(String, Option<Vec<Option<f32>>>)],
    heads: usize,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let rows = variants.iter().map(|(name, _)| name.clone()).collect();
    let cols = (0..heads)
        .map(|head| m::FirstTokenHead { head: &head }.say(lang))
        .collect();
    let shares: Vec<Vec<Option<f32>>> = variants
        .iter()
        .map(|(_, s)| s.clone().unwrap_or_else(|| vec![None; heads]))
        .collect();
    figure(
        m::FIRST_TOKEN_TITLE.get(lang).to_string(),
        rows,
        cols,
        &shares,
        (
            m::FIRST_TOKEN_AXIS_VARIANT.get(lang).to_string(),
            m::FIRST_TOKEN_AXIS_HEAD.get(lang).to_string(),
        ),
        lang,
    )
}

/// A real model's figure: one row per layer, one column per head, from `weights(layer,
/// head)` (every row of a real model's text has its keys); `token` is the first token's
/// text (e.g. `[CLS]`).
pub fn model_figure<'a>(
    layers: usize,
    heads: usize,
    weights: impl Fn(usize, usize) -> Option<ArrayView2<'a, f32>>,
    token: &str,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let rows = (0..layers)
        .map(|layer| m::FirstTokenLayer { layer: &layer }.say(lang))
        .collect();
    let cols = (0..heads)
        .map(|head| m::FirstTokenHead { head: &head }.say(lang))
        .collect();
    let shares: Vec<Vec<Option<f32>>> = (0..layers)
        .map(|l| {
            (0..heads)
                .map(|h| weights(l, h).and_then(|w| share(w, &[])))
                .collect()
        })
        .collect();
    figure(
        m::FirstTokenModelTitle { token: &token }.say(lang),
        rows,
        cols,
        &shares,
        (
            m::FIRST_TOKEN_AXIS_LAYER.get(lang).to_string(),
            m::FIRST_TOKEN_AXIS_HEAD.get(lang).to_string(),
        ),
        lang,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn the_share_is_the_mean_of_the_first_column_over_rows_with_keys() {
        let w = array![[0.2f32, 0.8], [0.6, 0.4], [0.0, 0.0]];
        assert!((share(w.view(), &[2]).unwrap() - 0.4).abs() < 1e-7);
        // A closed key 0 in a row that has other keys counts as 0.
        assert!((share(w.view(), &[]).unwrap() - 0.8 / 3.0).abs() < 1e-7);
        assert_eq!(
            share(ndarray::Array2::<f32>::zeros((2, 0)).view(), &[]),
            None
        );
    }

    #[test]
    fn the_lab_figure_has_a_row_per_variant_and_blocks_what_has_no_share() {
        let variants = vec![
            ("A".to_string(), Some(vec![Some(0.5), Some(0.25)])),
            ("B".to_string(), None),
        ];
        let f = lab_figure(&variants, 2, Lang::En).unwrap();
        assert_eq!((f.n_rows(), f.n_cols()), (2, 2));
        assert_eq!(&f.values()[..2], &[0.5, 0.25]);
        assert_eq!(f.title(), "Weight on the first key, per head");
        let blocked: Vec<bool> = (0..4).map(|c| f.is_blocked(c / 2, c % 2)).collect();
        assert_eq!(blocked, [false, false, true, true]);
        let zh = lab_figure(&variants, 2, Lang::Zh).unwrap();
        assert_eq!(
            attnlab_i18n::check::latin_words(zh.title()),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_model_figure_reads_every_layer_and_head() {
        let w = array![[0.9f32, 0.1], [0.7, 0.3]];
        let f = model_figure(2, 3, |_, h| (h < 2).then(|| w.view()), "[CLS]", Lang::En).unwrap();
        assert_eq!((f.n_rows(), f.n_cols()), (2, 3));
        assert!((f.values()[0] - 0.8).abs() < 1e-6);
        assert!(f.is_blocked(0, 2) && !f.is_blocked(0, 1));
    }
}
