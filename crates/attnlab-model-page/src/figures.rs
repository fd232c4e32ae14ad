//! The model page's figures: the layer × head atlas, one head large, and rollout or
//! flow, each over the tokens a [`TokenView`] shows.

use attnlab_lab::state::Relevance;
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::ArrayView2;

use super::run::{ModelRun, TokenView};
use attnlab_i18n::msg::model_page;
use attnlab_i18n::{Lang, Tr, plot_words};

/// Said under the atlas.
pub const ATLAS_CAPTION: Tr = model_page::ATLAS_CAPTION;

/// Said next to the `[CLS]`/`[SEP]` switch.
pub const SPECIAL_TOKENS_NOTE: Tr = model_page::SPECIAL_TOKENS_NOTE;

/// Said once on the model page when its tokens are SentencePiece pieces.
pub const WORD_START_NOTE: Tr = model_page::WORD_START_NOTE;

/// Said under the head search.
pub const SEARCH_CAUTION: Tr = model_page::SEARCH_CAUTION;

/// The title of every atlas tile, layer by layer: `L0 H0`, `L0 H1`, ….
pub fn atlas_titles(layers: usize, heads: usize) -> Vec<String> {
    (0..layers)
        .flat_map(|l| (0..heads).map(move |h| format!("L{l} H{h}")))
        .collect()
}

/// The labels of the tokens `view` keeps.
pub(super) fn labels(run: &ModelRun, view: &TokenView) -> Vec<String> {
    view.kept()
        .iter()
        .map(|&i| run.labels()[i].clone())
        .collect()
}

/// The axis titles of a token × token figure, in `lang`.
pub(super) fn token_axes(lang: Lang) -> (&'static str, &'static str) {
    (
        model_page::QUERY_TOKEN.get(lang),
        model_page::KEY_TOKEN.get(lang),
    )
}

/// `name · layer L · head H`, in `lang`.
pub(super) fn head_title(lang: Lang, name: &str, layer: usize, head: usize) -> String {
    model_page::LayerHeadTitle {
        name: &name,
        layer: &layer,
        head: &head,
    }
    .say(lang)
}

/// `name · layer L · mean of its heads`, in `lang`.
pub(super) fn mean_title(lang: Lang, name: &str, layer: usize) -> String {
    model_page::LayerMeanTitle {
        name: &name,
        layer: &layer,
    }
    .say(lang)
}

fn figure(
    lang: Lang,
    title: String,
    run: &ModelRun,
    view: &TokenView,
    m: ArrayView2<'_, f32>,
) -> Result<Heatmap, HeatmapError> {
    let (values, empty) = view.restrict(m);
    let labels = labels(run, view);
    let (rows, cols) = token_axes(lang);
    Heatmap::weights(
        title,
        labels.clone(),
        labels,
        values.into_iter().collect::<Vec<_>>(),
    )?
    .with_words(plot_words(lang))
    .with_axis_titles(rows, cols)
    .with_empty_rows(empty)
}

/// Every head of every layer (layer-major), for the atlas.
pub fn atlas_figures(lang: Lang, run: &ModelRun, view: &TokenView) -> Vec<Heatmap> {
    let titles = atlas_titles(run.layers(), run.heads());
    (0..run.layers())
        .flat_map(|l| (0..run.heads()).map(move |h| (l, h)))
        .zip(titles)
        .filter_map(|((l, h), title)| figure(lang, title, run, view, run.attention(l, h)?).ok())
        .collect()
}

/// Head `head` of layer `layer`, large.
pub fn head_figure(
    lang: Lang,
    run: &ModelRun,
    name: &str,
    layer: usize,
    head: usize,
    view: &TokenView,
) -> Option<Heatmap> {
    let title = head_title(lang, name, layer, head);
    figure(lang, title, run, view, run.attention(layer, head)?).ok()
}

/// The mean of layer `layer`'s heads: the raw attention rollout and flow start from.
pub fn layer_average_figure(
    lang: Lang,
    run: &ModelRun,
    name: &str,
    layer: usize,
    view: &TokenView,
) -> Option<Heatmap> {
    let mut sum = run.attention(layer, 0)?.to_owned();
    for h in 1..run.heads() {
        sum += &run.attention(layer, h)?;
    }
    sum /= run.heads() as f32;
    let title = mean_title(lang, name, layer);
    figure(lang, title, run, view, sum.view()).ok()
}

/// Rollout after layer `layer` (from the run), or a flow matrix computed for that
/// layer, as a token × token figure.
pub fn relevance_figure(
    lang: Lang,
    run: &ModelRun,
    relevance: Relevance,
    layer: usize,
    flow: Option<ArrayView2<'_, f32>>,
    view: &TokenView,
) -> Option<Heatmap> {
    let m = match relevance {
        Relevance::Rollout => run.rollout(layer)?,
        Relevance::Flow => flow?,
    };
    if m.dim() != (run.n(), run.n()) {
        return None;
    }
    let title = model_page::RelevanceTitle {
        relevance: &relevance.label(lang),
        layer: &layer,
    }
    .say(lang);
    figure(lang, title, run, view, m)
        .ok()
        .map(|f| f.with_value_label(model_page::SHARE.get(lang)))
}

#[cfg(test)]
mod tests {
    use super::super::run::HideSpecial;
    use super::super::run::tests::run_with;
    use super::*;

    #[test]
    fn the_figures_speak_the_language_asked_for() {
        let run = run_with([[0.25; 16]; 4]);
        let view = run.token_view(HideSpecial::No);
        let zh = head_figure(Lang::Zh, &run, "M", 1, 0, &view).unwrap();
        assert_eq!(zh.title(), "M \u{b7} 第 1 层 \u{b7} 头 0");
        assert_eq!((zh.row_axis(), zh.col_axis()), ("查询词元", "键词元"));
        assert_eq!(zh.value_label(), "权重");
        assert!(std::ptr::eq(zh.words(), plot_words(Lang::Zh)));
        let en = head_figure(Lang::En, &run, "M", 1, 0, &view).unwrap();
        assert_eq!(en.title(), "M \u{b7} layer 1 \u{b7} head 0");
        assert_eq!((en.row_axis(), en.col_axis()), ("query token", "key token"));
        assert_eq!(en.value_label(), "weight");
        let mean = layer_average_figure(Lang::Zh, &run, "M", 0, &view).unwrap();
        assert_eq!(mean.title(), "M \u{b7} 第 0 层 \u{b7} 各头的平均");
        let flow = relevance_figure(Lang::Zh, &run, Relevance::Rollout, 1, None, &view).unwrap();
        assert_eq!(flow.title(), "第 1 层之后的注意力展开");
        assert_eq!(flow.value_label(), "份额");
        let tiles = atlas_figures(Lang::Zh, &run, &view);
        assert!(tiles.iter().all(|t| t.row_axis() == "查询词元"));
    }

    #[test]
    fn the_atlas_has_a_tile_per_head_titled_by_layer_and_head() {
        let run = run_with([[0.25; 16]; 4]);
        let tiles = atlas_figures(Lang::En, &run, &run.token_view(HideSpecial::No));
        let titles: Vec<_> = tiles.iter().map(|t| t.title().to_string()).collect();
        assert_eq!(titles, ["L0 H0", "L0 H1", "L1 H0", "L1 H1"]);
        let hidden = atlas_figures(Lang::En, &run, &run.token_view(HideSpecial::Yes));
        assert_eq!(hidden[0].row_labels(), ["a", "b"]);
        assert_eq!(hidden[0].values(), [0.5; 4]);
    }

    #[test]
    fn a_layer_average_is_the_mean_of_its_heads() {
        let mut a = [0.0; 16];
        let mut b = [0.0; 16];
        for i in 0..4 {
            a[i * 4] = 1.0; // every row on [CLS]
            b[i * 4 + i] = 1.0; // every row on itself
        }
        let run = run_with([a, b, a, a]);
        let avg =
            layer_average_figure(Lang::En, &run, "M", 0, &run.token_view(HideSpecial::No)).unwrap();
        assert_eq!(avg.title(), "M \u{b7} layer 0 \u{b7} mean of its heads");
        // Row "a": ½ on [CLS], ½ on itself.
        assert_eq!(&avg.values()[4..8], &[0.5, 0.5, 0.0, 0.0]);
        assert!(
            layer_average_figure(Lang::En, &run, "M", 2, &run.token_view(HideSpecial::No))
                .is_none()
        );
    }

    #[test]
    fn relevance_needs_a_square_matrix_of_the_text() {
        let run = run_with([[0.25; 16]; 4]);
        let view = run.token_view(HideSpecial::No);
        let rollout = relevance_figure(Lang::En, &run, Relevance::Rollout, 1, None, &view).unwrap();
        assert_eq!(rollout.title(), "Attention rollout after layer 1");
        assert!(relevance_figure(Lang::En, &run, Relevance::Flow, 1, None, &view).is_none());
        let wrong = ndarray::Array2::<f32>::zeros((3, 3));
        assert!(
            relevance_figure(
                Lang::En,
                &run,
                Relevance::Flow,
                1,
                Some(wrong.view()),
                &view
            )
            .is_none()
        );
        assert_eq!(Relevance::parse("flow"), Some(Relevance::Flow));
    }
}
