//! The token-to-token lines of the "Lines" view: the selected heads' weights as an
//! `attnlab_plot::TokenLines` figure, and the strongest connections of a focused token.

use attnlab_core::attention::HeadResult;
use attnlab_plot::{Focus, HEAD_COLOURS, HeatmapError, TokenLines};

use attnlab_i18n::{Lang, msg};

/// The colour of head `h`'s lines (and its legend swatch and checkbox).
pub fn head_colour(h: usize) -> (u8, u8, u8) {
    let c = HEAD_COLOURS[h % HEAD_COLOURS.len()];
    (c.0, c.1, c.2)
}

/// The figure: `queries` left, `keys` right, one set of lines per `(head index, result)`
/// in `heads`, labelled "head h" (in `lang`) and coloured [`head_colour`]`(h)`, `focus`
/// isolated.
pub fn token_lines(
    title: impl Into<String>,
    queries: &[String],
    keys: &[String],
    heads: &[(usize, &HeadResult)],
    focus: Focus,
    lang: Lang,
) -> Result<TokenLines, HeatmapError> {
    let mut fig = TokenLines::new(title, queries.to_vec(), keys.to_vec())
        .with_words(attnlab_i18n::plot_words(lang));
    for &(h, r) in heads {
        fig = fig.with_head(
            msg::lines::LinesHead { head: &h }.say(lang),
            HEAD_COLOURS[h % HEAD_COLOURS.len()],
            r.weights.iter().copied().collect(),
        )?;
    }
    Ok(fig.with_focus(focus))
}

/// The `k` strongest connections of the focused token in one head, strongest first
/// (ties by index): for a query, the keys it attends to; for a key, the queries that
/// attend to it. Each is `(index of the other token, weight)`; nothing for no focus.
pub fn strongest(result: &HeadResult, focus: Focus, k: usize) -> Vec<(usize, f32)> {
    let w = &result.weights;
    let mut all: Vec<(usize, f32)> = match focus {
        Focus::Query(i) if i < w.nrows() => w.row(i).iter().copied().enumerate().collect(),
        Focus::Key(j) if j < w.ncols() => w.column(j).iter().copied().enumerate().collect(),
        _ => Vec::new(),
    };
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(k);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::{LabState, Mode};

    #[test]
    fn the_figure_carries_the_lab_weights_and_the_strongest_keys() {
        let state = LabState::default();
        let p = Pipeline::new(&state);
        let a = p.variant(0).unwrap();
        let labels = p.queries().labels();
        let fig = token_lines(
            "A",
            &labels,
            &labels,
            &[(0, &a.heads[0]), (2, &a.heads[2])],
            Focus::Query(7),
            Lang::En,
        )
        .unwrap();
        assert_eq!(fig.heads().len(), 2);
        assert_eq!(fig.heads()[1].label, "head 2");
        assert_eq!(fig.weight(1, 7, 1), Some(a.heads[2].weights[[7, 1]]));
        let top = strongest(&a.heads[0], Focus::Query(7), 3);
        assert_eq!(top.len(), 3);
        assert!(top[0].1 >= top[1].1 && top[1].1 >= top[2].1);
        let max = a.heads[0]
            .weights
            .row(7)
            .iter()
            .copied()
            .fold(0.0, f32::max);
        assert_eq!(top[0].1, max);
        let col = strongest(&a.heads[0], Focus::Key(1), 11);
        let sum: f32 = col.iter().map(|x| x.1).sum();
        let expected: f32 = a.heads[0].weights.column(1).sum();
        assert!((sum - expected).abs() < 1e-5);
        assert!(strongest(&a.heads[0], Focus::Query(11), 3).is_empty());
        assert!(strongest(&a.heads[0], Focus::None, 3).is_empty());
    }

    #[test]
    fn the_default_threshold_keeps_a_long_text_to_a_few_lines_per_query() {
        let default = LabState::default();
        let short = Pipeline::new(&default);
        let t = attnlab_lab::state::DEFAULT_LINES_THRESHOLD as f32 / 1000.0;
        for head in &short.variant(0).unwrap().heads {
            let kept = head.weights.iter().filter(|&&x| x >= t).count();
            let visible = head.weights.iter().filter(|&&x| x >= 0.005).count();
            // The classic sentence keeps its picture: 52–71 of its 115–120 visible lines
            // per head (the others are drawn at under 5 % opacity).
            assert!(
                kept * 2 > visible * 2 / 5 && kept > 40,
                "{kept} of {visible}"
            );
        }
        let state = LabState {
            text: (0..300)
                .map(|i| ["the", "cat", "sat", "on", "a", "mat"][i % 6])
                .collect::<Vec<_>>()
                .join(" "),
            ..LabState::default()
        };
        let p = Pipeline::new(&state);
        assert_eq!(p.queries().labels().len(), 300);
        let a = p.variant(0).unwrap();
        let t = attnlab_lab::state::DEFAULT_LINES_THRESHOLD as f32 / 1000.0;
        for head in &a.heads {
            let w = &head.weights;
            let kept = w.iter().filter(|&&x| x >= t).count();
            let visible = w.iter().filter(|&&x| x >= 0.005).count();
            // Measured: 15–159 lines per head at ≥ 0.05, of 17 000–18 500 at ≥ 0.005.
            // At most 1/t per query by construction; far fewer than every visible line.
            assert!(kept <= 300 * 20);
            assert!(kept * 10 < visible, "{kept} of {visible}");
        }
    }

    #[test]
    fn cross_mode_puts_the_source_on_the_right() {
        let mut state = LabState::default();
        state.set_mode(Mode::Cross);
        let p = Pipeline::new(&state);
        let a = p.variant(0).unwrap();
        let fig = token_lines(
            "x",
            &p.queries().labels(),
            &p.keys().labels(),
            &[(1, &a.heads[1])],
            Focus::Key(5),
            Lang::Zh,
        )
        .unwrap();
        assert_eq!(fig.heads()[0].label, "头 1");
        // The columns' captions on the canvas are in the page's language too.
        assert_eq!((fig.words().queries, fig.words().keys), ("查询", "键"));
        assert_eq!((fig.queries().len(), fig.keys().len()), (4, 6));
        assert_eq!(fig.focus(), Focus::Key(5));
        assert_eq!(head_colour(1), head_colour(17));
    }
}
