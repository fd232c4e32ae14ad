//! The model page's contributions: every head's `‖α_ij v_j W^O_h‖` (computed in the
//! worker, `attnlab_model::contribution`) as the atlas, the head and the layer mean show
//! them, the per-layer shares on the special tokens and their chart, and the neuron view
//! of a real head's cell.

use attnlab_core::attention::{AttentionSpec, HeadInput, Problem};
use attnlab_plot::{Heatmap, LineChart, ValueRange};
use ndarray::{Array2, ArrayView2};

use super::figures::{atlas_titles, head_title, labels, mean_title, token_axes};
use super::run::{ModelRun, TokenView};
use attnlab_i18n::Lang;
use attnlab_lab::compute::LabError;
use attnlab_lab::contribution::{
    self, LayerShare, ShareError, contribution_heatmap, contribution_title, special_names,
};
use attnlab_pages::neuron::{self, Neuron};

/// `m` on the tokens `view` shows, without renormalising: a contribution is a length,
/// not a share of the row.
fn restricted(view: &TokenView, m: ArrayView2<'_, f32>) -> Array2<f32> {
    let kept = view.kept();
    Array2::from_shape_fn((kept.len(), kept.len()), |(r, c)| m[[kept[r], kept[c]]])
}

fn figure(
    lang: Lang,
    title: String,
    run: &ModelRun,
    view: &TokenView,
    m: ArrayView2<'_, f32>,
) -> Option<Heatmap> {
    let labels = labels(run, view);
    let (rows, cols) = token_axes(lang);
    contribution_heatmap(
        lang,
        title,
        &labels,
        &labels,
        restricted(view, m).view(),
        None,
        &[],
    )
    .ok()
    .map(|f| f.with_axis_titles(rows, cols))
}

/// Every head's contributions (layer-major) for the atlas, on one colour scale: 0 to the
/// largest contribution of any head.
pub fn atlas_contribution_figures(lang: Lang, run: &ModelRun, view: &TokenView) -> Vec<Heatmap> {
    let titles = atlas_titles(run.layers(), run.heads());
    let tiles: Vec<Heatmap> = (0..run.layers())
        .flat_map(|l| (0..run.heads()).map(move |h| (l, h)))
        .zip(titles)
        .filter_map(|((l, h), title)| figure(lang, title, run, view, run.norms(l, h)?.view()))
        .collect();
    let top = tiles
        .iter()
        .flat_map(|t| t.values().iter().copied())
        .fold(0.0f32, f32::max);
    match ValueRange::new(0.0, top) {
        Some(range) => tiles.into_iter().map(|t| t.with_range(range)).collect(),
        None => tiles,
    }
}

/// Head `head` of layer `layer`'s contributions, large.
pub fn head_contribution_figure(
    lang: Lang,
    run: &ModelRun,
    name: &str,
    layer: usize,
    head: usize,
    view: &TokenView,
) -> Option<Heatmap> {
    let title = contribution_title(lang, &head_title(lang, name, layer, head));
    figure(lang, title, run, view, run.norms(layer, head)?.view())
}

/// The mean of layer `layer`'s heads' contributions.
pub fn layer_average_contribution_figure(
    lang: Lang,
    run: &ModelRun,
    name: &str,
    layer: usize,
    view: &TokenView,
) -> Option<Heatmap> {
    let mut sum = run.norms(layer, 0)?;
    for h in 1..run.heads() {
        sum += &run.norms(layer, h)?;
    }
    sum /= run.heads() as f32;
    let title = contribution_title(lang, &mean_title(lang, name, layer));
    figure(lang, title, run, view, sum.view())
}

/// Per layer, the share of weight and of contribution on the run's special tokens.
pub fn special_shares(run: &ModelRun) -> Result<Vec<LayerShare>, ShareError> {
    let (layers, heads) = (0..run.layers(), 0..run.heads());
    let weights: Vec<Vec<_>> = layers
        .clone()
        .map(|l| heads.clone().filter_map(|h| run.attention(l, h)).collect())
        .collect();
    let owned: Vec<Vec<Array2<f32>>> = layers
        .map(|l| heads.clone().filter_map(|h| run.norms(l, h)).collect())
        .collect();
    let norms: Vec<Vec<_>> = owned
        .iter()
        .map(|l| l.iter().map(|n| n.view()).collect())
        .collect();
    contribution::special_shares(&weights, &norms, &run.header().special)
}

/// The per-layer chart of the shares on the run's special tokens, or why there is none.
pub fn share_chart(lang: Lang, run: &ModelRun) -> Result<LineChart, ShareError> {
    let shares = special_shares(run)?;
    let names = special_names(run.tokens(), &run.header().special);
    Ok(contribution::share_chart(lang, &shares, &names))
}

/// The neuron view of cell `(query, key)` (indices of the whole text) of head `head` of
/// layer `layer`: the model's own scaled dot product, τ = 1, no mask.
pub fn model_neuron(
    run: &ModelRun,
    layer: usize,
    head: usize,
    query: usize,
    key: usize,
) -> Result<Neuron, LabError> {
    let (Some(q), Some(k), Some(v)) = (run.q(layer, head), run.k(layer, head), run.v(layer, head))
    else {
        return Err(LabError::NoHead {
            head: layer * run.heads() + head,
            heads: run.layers() * run.heads(),
        });
    };
    let input = HeadInput::new(q.to_owned(), k.to_owned(), v.to_owned());
    let problem = Problem::new(vec![input], AttentionSpec::default(), None)?;
    neuron::neuron(&problem, 0, query, key)
}

#[cfg(test)]
mod tests {
    use super::super::protocol::RunHeader;
    use super::*;
    use crate::HideSpecial;

    /// 1 layer, 1 head over [CLS] a [SEP]: Q = K = V = identity rows, the lengths given.
    fn run() -> ModelRun {
        let header = RunHeader {
            id: 1,
            tokens: ["[CLS]", "a", "[SEP]"].map(String::from).to_vec(),
            ids: vec![101, 1037, 102],
            special: vec![true, false, true],
            second: None,
            truncated_from: None,
            replaced: Vec::new(),
            outside: Vec::new(),
            layers: 1,
            heads: 1,
            d_head: 3,
            width: 2,
            millis: 0.0,
        };
        let weights = [0.5, 0.5, 0.0, 0.25, 0.5, 0.25, 0.0, 1.0, 0.0];
        let rollout = [0.0; 9];
        let eye = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        // ‖v_j W^O‖ = 0.1, 4, 0.1: contributions 0.05 2 0 / 0.025 2 0.025 / 0 4 0.
        let lengths = [0.1, 4.0, 0.1];
        let floats: Vec<f32> = [
            &weights[..],
            &rollout,
            &eye,
            &eye,
            &eye,
            &lengths,
            &[0.6, 0.8],
        ]
        .concat();
        ModelRun::new(header, floats).unwrap()
    }

    #[test]
    fn the_contributions_and_their_chart_speak_the_language_asked_for() {
        let run = run();
        let all = run.token_view(HideSpecial::No);
        let head = head_contribution_figure(Lang::Zh, &run, "M", 0, 0, &all).unwrap();
        assert_eq!(
            head.title(),
            "M \u{b7} 第 0 层 \u{b7} 头 0 \u{b7} 贡献 \u{2016}\u{3b1}f(x)\u{2016}"
        );
        assert_eq!((head.row_axis(), head.col_axis()), ("查询词元", "键词元"));
        assert_eq!(head.words().entropy, "熵");
        let chart = share_chart(Lang::Zh, &run).unwrap();
        assert_eq!(chart.title, "逐层看 [CLS]/[SEP] 上的份额");
        assert_eq!(chart.x.label, "层");
        let names: Vec<_> = chart.series.iter().filter_map(|s| s.name.clone()).collect();
        assert_eq!(names, ["[CLS]/[SEP] 上的权重", "[CLS]/[SEP] 上的贡献"]);
    }

    #[test]
    fn shares_chart_figures_and_neuron_of_a_run() {
        let run = run();
        let shares = special_shares(&run).unwrap();
        // Weight on specials: (0.5 + 0.25 + 0.25) / 3; contribution 0.1 / 8.1.
        assert!((shares[0].weight - 1.0 / 3.0).abs() < 1e-7);
        assert!((shares[0].contribution - 0.1 / 8.1).abs() < 1e-7);
        let chart = share_chart(Lang::En, &run).unwrap();
        assert_eq!(chart.title, "Share on [CLS]/[SEP], layer by layer");
        let all = run.token_view(HideSpecial::No);
        let tiles = atlas_contribution_figures(Lang::En, &run, &all);
        assert_eq!(tiles.len(), 1);
        assert_eq!(tiles[0].range().max(), 4.0);
        // Hidden specials: only "a", not renormalised.
        let hidden = run.token_view(HideSpecial::Yes);
        let head = head_contribution_figure(Lang::En, &run, "M", 0, 0, &hidden).unwrap();
        assert_eq!(head.values(), [2.0]);
        let mean = layer_average_contribution_figure(Lang::En, &run, "M", 0, &all).unwrap();
        assert_eq!(mean.value(2, 1), Some(4.0));
        // The neuron view of "a" → [SEP]: q = e1, k = e2, product 0, α as the softmax.
        let n = model_neuron(&run, 0, 0, 1, 2).unwrap();
        assert_eq!(n.sum, 0.0);
        let e = (1.0f32 / 3f32.sqrt()).exp();
        assert!((n.row_weights[1] - e / (e + 2.0)).abs() < 1e-6);
        assert!(model_neuron(&run, 1, 0, 0, 0).is_err());
    }
}
