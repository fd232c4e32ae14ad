//! The model page's figures: the layer × head atlas, one head large, and rollout or
//! flow, each over the tokens a [`TokenView`] shows.

use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::ArrayView2;

use super::run::{ModelRun, TokenView};

/// What the relevance panel shows beside the raw attention (docs/maths.md, rollout and
/// flow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Relevance {
    /// The product over layers of the head-averaged attention plus the identity.
    #[default]
    Rollout,
    /// The maximum flow from each input token to each position.
    Flow,
}

impl Relevance {
    /// Its name in links.
    pub fn name(self) -> &'static str {
        match self {
            Relevance::Rollout => "rollout",
            Relevance::Flow => "flow",
        }
    }

    /// The relevance called `name` in links.
    pub fn parse(name: &str) -> Option<Relevance> {
        [Relevance::Rollout, Relevance::Flow]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// Its label.
    pub fn label(self) -> &'static str {
        match self {
            Relevance::Rollout => "Attention rollout",
            Relevance::Flow => "Attention flow",
        }
    }
}

/// Said under the atlas.
pub const ATLAS_CAPTION: &str = "Every head of every layer on one colour scale: rows are layers \
     (0 reads the embeddings, 5 is the last), columns are heads. Click a head to show it large.";

/// Said next to the `[CLS]`/`[SEP]` switch.
pub const SPECIAL_TOKENS_NOTE: &str = "Many heads park most of their weight on the special tokens ([CLS]/[SEP], <s>/</s>) \
     when they have nothing better to do. Hiding them divides each row by what is left, so the \
     weights among the words sum to 1 again.";

/// Said under the head search.
pub const SEARCH_CAUTION: &str = "A head that points from “it” to “animal” shows where that \
     head's attention goes for this sentence, not that the model understood what “it” refers \
     to: attention weights are one ingredient of the computation, and heads can agree on the \
     right answer for the wrong reasons.";

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
        .map(|&i| run.tokens()[i].clone())
        .collect()
}

fn figure(
    title: String,
    run: &ModelRun,
    view: &TokenView,
    m: ArrayView2<'_, f32>,
) -> Result<Heatmap, HeatmapError> {
    let (values, empty) = view.restrict(m);
    let labels = labels(run, view);
    Heatmap::weights(title, labels.clone(), labels, values.into_iter().collect())?
        .with_axis_titles("query token", "key token")
        .with_empty_rows(empty)
}

/// Every head of every layer (layer-major), for the atlas.
pub fn atlas_figures(run: &ModelRun, view: &TokenView) -> Vec<Heatmap> {
    let titles = atlas_titles(run.layers(), run.heads());
    (0..run.layers())
        .flat_map(|l| (0..run.heads()).map(move |h| (l, h)))
        .zip(titles)
        .filter_map(|((l, h), title)| figure(title, run, view, run.attention(l, h)?).ok())
        .collect()
}

/// Head `head` of layer `layer`, large.
pub fn head_figure(
    run: &ModelRun,
    name: &str,
    layer: usize,
    head: usize,
    view: &TokenView,
) -> Option<Heatmap> {
    let title = format!("{name} \u{b7} layer {layer} \u{b7} head {head}");
    figure(title, run, view, run.attention(layer, head)?).ok()
}

/// The mean of layer `layer`'s heads: the raw attention rollout and flow start from.
pub fn layer_average_figure(
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
    let title = format!("{name} \u{b7} layer {layer} \u{b7} mean of its heads");
    figure(title, run, view, sum.view()).ok()
}

/// Rollout after layer `layer` (from the run), or a flow matrix computed for that
/// layer, as a token × token figure.
pub fn relevance_figure(
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
    let title = format!("{} after layer {layer}", relevance.label());
    figure(title, run, view, m)
        .ok()
        .map(|f| f.with_value_label("share"))
}

#[cfg(test)]
mod tests {
    use super::super::run::HideSpecial;
    use super::super::run::tests::run_with;
    use super::*;

    #[test]
    fn the_atlas_has_a_tile_per_head_titled_by_layer_and_head() {
        let run = run_with([[0.25; 16]; 4]);
        let tiles = atlas_figures(&run, &run.token_view(HideSpecial::No));
        let titles: Vec<_> = tiles.iter().map(|t| t.title().to_string()).collect();
        assert_eq!(titles, ["L0 H0", "L0 H1", "L1 H0", "L1 H1"]);
        let hidden = atlas_figures(&run, &run.token_view(HideSpecial::Yes));
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
        let avg = layer_average_figure(&run, "M", 0, &run.token_view(HideSpecial::No)).unwrap();
        assert_eq!(avg.title(), "M \u{b7} layer 0 \u{b7} mean of its heads");
        // Row "a": ½ on [CLS], ½ on itself.
        assert_eq!(&avg.values()[4..8], &[0.5, 0.5, 0.0, 0.0]);
        assert!(layer_average_figure(&run, "M", 2, &run.token_view(HideSpecial::No)).is_none());
    }

    #[test]
    fn relevance_needs_a_square_matrix_of_the_text() {
        let run = run_with([[0.25; 16]; 4]);
        let view = run.token_view(HideSpecial::No);
        let rollout = relevance_figure(&run, Relevance::Rollout, 1, None, &view).unwrap();
        assert_eq!(rollout.title(), "Attention rollout after layer 1");
        assert!(relevance_figure(&run, Relevance::Flow, 1, None, &view).is_none());
        let wrong = ndarray::Array2::<f32>::zeros((3, 3));
        assert!(relevance_figure(&run, Relevance::Flow, 1, Some(wrong.view()), &view).is_none());
        assert_eq!(Relevance::parse("flow"), Some(Relevance::Flow));
    }
}
