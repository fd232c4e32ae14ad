//! ALiBi's bias per head as the positions page draws it (docs/maths.md §13), from the
//! core's `alibi`.

use attnlab_core::alibi;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::positions as text;
use attnlab_plot::number::significant;
use attnlab_plot::{Heatmap, HeatmapError, ValueRange};
use ndarray::Array2;

use super::pe::signed_heatmap;

/// ALiBi's bias `−m_h·|i − j|` of head `h` of `heads` (the paper's slopes) over `n`
/// positions, and the slope.
pub fn alibi_bias(heads: usize, h: usize, n: usize) -> (f32, Array2<f32>) {
    let slopes = alibi::paper_slopes(heads);
    let m = slopes.get(h).copied().unwrap_or(0.0) as f32;
    let bias = Array2::from_shape_fn((n, n), |(i, j)| alibi::bias(m, i as f32, j as f32));
    (m, bias)
}

/// [`alibi_bias`] as a figure in `lang`, on one colour range for every head (the
/// steepest head's, rounded up to a whole number so the legend's ticks do not crowd),
/// so a gentle head looks gentle.
pub fn alibi_heatmap(
    heads: usize,
    h: usize,
    n: usize,
    lang: Lang,
) -> std::result::Result<Heatmap, HeatmapError> {
    let (m, bias) = alibi_bias(heads, h, n);
    let axes = (
        text::ROPE_AXIS_QUERY_POSITION.get(lang),
        text::ROPE_AXIS_KEY_POSITION.get(lang),
    );
    let title = text::RopeAlibiTitle {
        head: &h,
        slope: &significant(f64::from(m), 3),
    }
    .say(lang);
    let steepest = alibi::paper_slopes(heads)
        .into_iter()
        .fold(0.0f64, f64::max);
    let range =
        ValueRange::symmetric((steepest * n.saturating_sub(1) as f64).ceil().max(1.0) as f32);
    Ok(signed_heatmap(title, &bias, "\u{2212}m\u{b7}|i\u{2212}j|", axes, lang)?.with_range(range))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alibi_uses_the_papers_slopes() {
        let (m, bias) = alibi_bias(4, 1, 5);
        // 4 heads: 2^(−8·2/4) = 1/16.
        assert_eq!(m, 1.0 / 16.0);
        assert_eq!(bias[[0, 4]], -0.25);
        assert_eq!(bias[[3, 1]], -0.125);
        assert_eq!(bias[[2, 2]], 0.0);
        let slopes: Vec<f32> = (0..8).map(|h| alibi_bias(8, h, 2).0).collect();
        assert_eq!(
            slopes,
            [
                0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625
            ]
        );
        let h = alibi_heatmap(4, 0, 6, Lang::En).unwrap();
        assert_eq!(h.n_rows(), 6);
        assert!(h.title().contains("0.25"));
    }
}
