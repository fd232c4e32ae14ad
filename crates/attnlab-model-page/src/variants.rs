//! Lab variants on a real head: the selected head's `Q`, `K`, `V` from the model, the
//! variant's score function, temperature, masks and kind (linear kernels, Linformer),
//! side by side with the model's own attention and the difference.
//!
//! The model's own attention is the default variant (scaled dot product, τ = 1,
//! softmax, no mask) on the same `Q`, `K`, `V`: computed by the same core code, it is the
//! model's weights exactly (a test).

use attnlab_core::attention::{HeadInput, Problem};
use attnlab_model::Parameters;
use attnlab_plot::Heatmap;

use super::run::ModelRun;
use attnlab_i18n::msg::model_page;
use attnlab_i18n::{Lang, plot_words};
use attnlab_lab::compute::{self, VariantComparison, WeightsRef};
use attnlab_lab::figure;
use attnlab_lab::state::{Variant, seeded};
use attnlab_lab::tokens::Tokens;

/// A variant computed on one real head.
#[derive(Debug, Clone, PartialEq)]
pub struct OnHead {
    /// The variant's weights.
    pub figure: Heatmap,
    /// The variant minus the model's own attention (`None` for Linformer, whose weights
    /// are over projected keys, not tokens).
    pub difference: Option<Heatmap>,
    /// max/mean |ΔA|, KL, JS and entropies against the model's own attention.
    pub comparison: Option<VariantComparison>,
}

/// The model's own attention as a variant.
pub fn model_variant() -> Variant {
    Variant::named("model")
}

/// `variant` on head `head` of layer `layer`, with the lab's `seed`, against the model's
/// own attention; or why it cannot be computed, as a sentence.
pub fn variant_on_head(
    lang: Lang,
    run: &ModelRun,
    layer: usize,
    head: usize,
    variant: &Variant,
    seed: u64,
) -> Result<OnHead, String> {
    let (Some(q), Some(k), Some(v)) = (run.q(layer, head), run.k(layer, head), run.v(layer, head))
    else {
        return Err(model_page::NoHeadInLayer {
            head: &head,
            layer: &layer,
        }
        .say(lang));
    };
    let config = seeded(seed, q.ncols(), run.heads());
    // Every head's keys and values of the layer, for a variant whose heads share them in
    // groups.
    let layer_kv = (0..run.heads())
        .map(|j| Some((run.k(layer, j)?.to_owned(), run.v(layer, j)?.to_owned())))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            model_page::NoHeadInLayer {
                head: &head,
                layer: &layer,
            }
            .say(lang)
        })?;
    let tokens = Tokens::pretokenized(run.labels());
    let n = tokens.total();
    // Exactly what substituting the variant for this head inside the model computes.
    let compute = |variant: &Variant| {
        let mut spec = variant.spec(n, n, &[]);
        // The head keeps the ALiBi slope it has among the layer's heads.
        if let Some(alibi) = &spec.alibi {
            spec.alibi = Some(
                alibi
                    .for_members(run.heads(), &[head])
                    .map_err(|e| attnlab_lab::explain::explain(&e))?,
            );
        }
        let parameters = Parameters {
            seeded: config,
            head: variant.head_params(true),
        };
        let input = HeadInput::new(q.to_owned(), k.to_owned(), v.to_owned());
        let input = parameters
            .prepare(&spec, head, layer_kv.len(), input, |j| layer_kv[j].clone())
            .map_err(|e| attnlab_lab::explain::explain(&e))?;
        let problem =
            Problem::new(vec![input], spec, None).map_err(|e| attnlab_lab::explain::explain(&e))?;
        compute::compute_head(&problem, 0).map_err(|e| attnlab_lab::explain::explain(&e))
    };
    let result = compute(variant)?;
    let own = compute(&model_variant())?;
    let rows = tokens.labels();
    let cols = compute::key_labels(&tokens, variant);
    let title = model_page::VariantTitle {
        name: &variant.name,
        layer: &layer,
        head: &head,
    }
    .say(lang);
    let figure = figure::head_heatmap(title, &rows, &cols, &result)
        .map_err(|e| e.to_string())?
        .with_words(plot_words(lang));
    let comparable = result.weights.dim() == own.weights.dim();
    let comparison = comparable
        .then(|| compute::compare(WeightsRef::from(&result), WeightsRef::from(&own)).ok())
        .flatten();
    let difference = if comparable {
        let own_figure =
            figure::head_heatmap("model", &rows, &rows, &own).map_err(|e| e.to_string())?;
        let title = model_page::VariantDifferenceTitle {
            name: &variant.name,
        }
        .say(lang);
        Some(
            Heatmap::difference_of(title, &figure, &own_figure)
                .map_err(|e| e.to_string())?
                .with_words(plot_words(lang)),
        )
    } else {
        None
    };
    Ok(OnHead {
        figure,
        difference,
        comparison,
    })
}

#[cfg(test)]
mod tests {
    use attnlab_core::attention::AttentionKind;
    use attnlab_core::score::ScoreFunction;

    use super::super::protocol::RunHeader;
    use super::*;

    /// A one-layer, one-head run of 3 tokens whose weights are the scaled-dot softmax of
    /// its own Q and K, computed here in f64.
    fn run() -> ModelRun {
        let n = 3;
        let d = 2;
        let q = [[1.0f32, 0.0], [0.0, 2.0], [1.0, 1.0]];
        let k = [[0.5f32, 0.0], [1.0, 1.0], [0.0, -1.0]];
        let v = [[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
        let mut weights = vec![0.0f32; n * n];
        for i in 0..n {
            let logits: Vec<f64> = (0..n)
                .map(|j| (q[i][0] * k[j][0] + q[i][1] * k[j][1]) as f64 / (d as f64).sqrt())
                .collect();
            let max = logits.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = logits.iter().map(|l| (l - max).exp()).sum();
            for j in 0..n {
                weights[i * n + j] = ((logits[j] - max).exp() / sum) as f32;
            }
        }
        let header = RunHeader {
            id: 1,
            tokens: ["[CLS]", "hi", "[SEP]"].map(String::from).to_vec(),
            ids: vec![101, 7632, 102],
            special: vec![true, false, true],
            second: None,
            truncated_from: None,
            replaced: Vec::new(),
            outside: Vec::new(),
            layers: 1,
            heads: 1,
            d_head: d,
            width: 2,
            millis: 0.0,
        };
        let mut floats = weights;
        floats.extend(vec![0.0; n * n]); // rollout
        for m in [q, k, v] {
            floats.extend(m.iter().flatten());
        }
        floats.extend(vec![0.0; n]); // value lengths
        floats.extend([1.0, 0.0]);
        ModelRun::new(header, floats).unwrap()
    }

    #[test]
    fn the_default_variant_is_the_models_own_attention() {
        let run = run();
        let own = variant_on_head(Lang::En, &run, 0, 0, &model_variant(), 42).unwrap();
        let model = run.attention(0, 0).unwrap();
        for (a, b) in own.figure.values().iter().zip(model.iter()) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
        assert_eq!(own.comparison.unwrap().metrics.max_abs, 0.0);
    }

    #[test]
    fn every_kind_of_variant_runs_on_a_real_head() {
        let run = run();
        let mut causal = Variant::named("C");
        causal.masks.causal = true;
        let out = variant_on_head(Lang::En, &run, 0, 0, &causal, 42).unwrap();
        // Row 0 sees only itself: weight 1, and the rest of the row is blocked.
        assert_eq!(&out.figure.values()[0..3], &[1.0, 0.0, 0.0]);
        assert!(out.comparison.unwrap().metrics.max_abs > 0.1);
        for (score, attention) in [
            (ScoreFunction::General, AttentionKind::Softmax),
            (ScoreFunction::Additive, AttentionKind::Softmax),
            (ScoreFunction::Cosine, AttentionKind::Softmax),
            (ScoreFunction::ScaledDot, AttentionKind::Elu1),
            (ScoreFunction::ScaledDot, AttentionKind::Linformer),
        ] {
            let mut v = Variant::named("V");
            v.score = score;
            v.attention = attention;
            v.linformer_k = 2;
            let out = variant_on_head(Lang::En, &run, 0, 0, &v, 42).unwrap();
            let linformer = attention == AttentionKind::Linformer;
            assert_eq!(out.figure.n_cols(), if linformer { 2 } else { 3 });
            assert_eq!(
                out.difference.is_none(),
                linformer,
                "{score:?} {attention:?}"
            );
        }
        assert!(variant_on_head(Lang::En, &run, 1, 0, &causal, 42).is_err());
    }

    #[test]
    fn every_modern_kind_runs_on_a_real_head_with_its_seeded_parameters() {
        let run = run();
        for attention in AttentionKind::EVERY {
            let mut v = Variant::named("V");
            v.attention = attention;
            v.linformer_k = 2;
            let out = variant_on_head(Lang::En, &run, 0, 0, &v, 42)
                .unwrap_or_else(|e| panic!("{attention:?}: {e}"));
            assert!(
                out.figure.values().iter().all(|w| w.is_finite()),
                "{attention:?}"
            );
        }
        // The options of the logits too: one group of key/value heads (the only head's
        // own), tiles (the model's numbers), ALiBi, softcap and RoPE (changed numbers).
        let mut grouped = Variant::named("G");
        grouped.kv_groups = Some(1);
        grouped.tiles = Some(2);
        let out = variant_on_head(Lang::En, &run, 0, 0, &grouped, 42).unwrap();
        assert!(out.comparison.unwrap().metrics.max_abs < 1e-6);
        let mut options = Variant::named("O");
        options.alibi = true;
        options.softcap = Some(1.0);
        options.rope = Some(attnlab_core::rope::Rope::default());
        let out = variant_on_head(Lang::En, &run, 0, 0, &options, 42).unwrap();
        assert!(out.comparison.unwrap().metrics.max_abs > 1e-3);
    }
}
