//! A lab variant inside the model: the whole forward pass with the variant replacing the
//! model's softmax attention in one head, one layer or every layer, and what changes —
//! each layer's attention, the sentence embedding, and the similarity of two sentences.
//! This is the question "what does linear attention lose?" asked of a trained model.

use attnlab_model::{AttentionOverride, Forward, Parameters, Pretrained, Scope};
use serde::{Deserialize, Serialize};

use crate::said::{Said, model_error_in};
use attnlab_i18n::Lang;
use attnlab_lab::state::Variant;
use attnlab_lab::state::seeded;

/// Where the variant replaces the model's attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "scope", rename_all = "snake_case")]
pub enum Place {
    /// One head.
    Head {
        /// Its layer.
        layer: usize,
        /// The head.
        head: usize,
    },
    /// Every head of one layer.
    Layer {
        /// The layer.
        layer: usize,
    },
    /// Every head of every layer.
    Every,
}

impl Place {
    /// The encoder's scope.
    pub fn scope(self) -> Scope {
        match self {
            Place::Head { layer, head } => Scope::Head { layer, head },
            Place::Layer { layer } => Scope::Layer(layer),
            Place::Every => Scope::Every,
        }
    }

    /// In words, e.g. "head 3 of layer 2", in `lang`.
    pub fn describe(self, lang: Lang) -> String {
        use attnlab_i18n::msg::model_page;
        match self {
            Place::Head { layer, head } => model_page::PlaceHead {
                head: &head,
                layer: &layer,
            }
            .say(lang),
            Place::Layer { layer } => model_page::PlaceLayer { layer: &layer }.say(lang),
            Place::Every => model_page::PLACE_EVERY.get(lang).to_string(),
        }
    }
}

/// How much one layer's attention changed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LayerChange {
    /// The layer.
    pub layer: usize,
    /// Mean |ΔA| over the cells of the heads compared.
    pub mean_abs: f32,
    /// Largest |ΔA|.
    pub max_abs: f32,
    /// Heads compared (Linformer heads, whose weights are over projected keys, are not).
    pub heads: usize,
}

/// Two sentences' similarity (cosine of their embeddings), with the model's own
/// attention and with the variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairSimilarity {
    /// The second sentence.
    pub other: String,
    /// With the model's own attention.
    pub own: f32,
    /// With the variant substituted.
    pub substituted: f32,
}

/// What substituting a variant changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Substituted {
    /// The request's id.
    pub id: u64,
    /// The variant's name.
    pub variant: String,
    /// Where it replaced the model's attention.
    pub place: Place,
    /// Per layer, how much the attention changed.
    pub layers: Vec<LayerChange>,
    /// Cosine between the sentence embedding with the model's own attention and with the
    /// variant (1: unchanged).
    pub cosine: f32,
    /// The pair's similarity, when a second sentence was given.
    pub pair: Option<PairSimilarity>,
    /// The time of the forward passes, in milliseconds (filled in by the caller).
    pub millis: f64,
}

/// Cosine of two vectors (0 when either is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let na: f64 = a.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        (dot / (na * nb)) as f32
    }
}

/// Each layer's change between two forward passes of the same text.
pub fn compare_forwards(own: &Forward, substituted: &Forward) -> Vec<LayerChange> {
    own.heads
        .iter()
        .zip(&substituted.heads)
        .enumerate()
        .map(|(layer, (a, b))| {
            let (mut sum, mut max, mut cells, mut heads) = (0.0f64, 0.0f32, 0usize, 0usize);
            for (ha, hb) in a.iter().zip(b) {
                if ha.weights.dim() != hb.weights.dim() {
                    continue;
                }
                heads += 1;
                for (x, y) in ha.weights.iter().zip(&hb.weights) {
                    let d = (x - y).abs();
                    sum += d as f64;
                    max = max.max(d);
                    cells += 1;
                }
            }
            LayerChange {
                layer,
                mean_abs: if cells == 0 {
                    0.0
                } else {
                    (sum / cells as f64) as f32
                },
                max_abs: max,
                heads,
            }
        })
        .collect()
}

/// The attention override that puts `variant` (with the lab's `seed` for the
/// parameters it needs) at `place`, for a text of `n` tokens.
pub fn override_for(
    model: &Pretrained,
    variant: &Variant,
    seed: u64,
    place: Place,
    n: usize,
) -> AttentionOverride {
    let config = model.encoder().config();
    let heads = config.num_attention_heads;
    AttentionOverride::default()
        .with(place.scope(), variant.spec(n, n, &[]))
        .with_parameters(Parameters {
            seeded: seeded(seed, config.head_dim(), heads),
            // A real head brings no second queries and keys: differential attention's are
            // the seeded second projections of the head's own.
            head: variant.head_params(true),
        })
}

/// Runs `text` (and `pair`, if any) through `model` with its own attention and with
/// `variant` at `place`, and says what changed.
pub fn substitute(
    model: &Pretrained,
    text: &str,
    pair: Option<&str>,
    variant: &Variant,
    seed: u64,
    place: Place,
) -> Result<Substituted, Said> {
    let (layers, heads) = {
        let c = model.encoder().config();
        (c.num_hidden_layers, c.num_attention_heads)
    };
    let (layer, head) = match place {
        Place::Head { layer, head } => (layer, head),
        Place::Layer { layer } => (layer, 0),
        Place::Every => (0, 0),
    };
    if layer >= layers || head >= heads {
        return Err(Said::of(|lang| {
            attnlab_i18n::msg::model_page::NoSuchPlace {
                layers: &layers,
                heads: &heads,
                place: &place.describe(lang),
            }
            .say(lang)
        }));
    }
    let both = |text: &str| -> Result<(Forward, Forward), Said> {
        let encoding = model
            .encode(text)
            .map_err(|e| Said::of(|lang| model_error_in(&e, lang)))?;
        let n = encoding.ids.len();
        let run = |o: &AttentionOverride| {
            model
                .encoder()
                .forward(&encoding.ids, o)
                .map_err(|e| Said::of(|lang| model_error_in(&e, lang)))
        };
        let own = run(&AttentionOverride::default())?;
        let substituted = run(&override_for(model, variant, seed, place, n))?;
        Ok((own, substituted))
    };
    let (own, substituted) = both(text)?;
    let pair = match pair.map(str::trim).filter(|p| !p.is_empty()) {
        None => None,
        Some(other) => {
            let (own_b, sub_b) = both(other)?;
            Some(PairSimilarity {
                other: other.to_string(),
                own: cosine(&own.embedding, &own_b.embedding),
                substituted: cosine(&substituted.embedding, &sub_b.embedding),
            })
        }
    };
    Ok(Substituted {
        id: 0,
        variant: variant.name.clone(),
        place,
        layers: compare_forwards(&own, &substituted),
        cosine: cosine(&own.embedding, &substituted.embedding),
        pair,
        millis: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use attnlab_core::attention::AttentionKind;
    use attnlab_model::testing;

    use super::*;

    fn tiny() -> Pretrained {
        let (w, c, v) = testing::tiny_checkpoint(11);
        Pretrained::from_hugging_face(&w, &c, None, &v).unwrap()
    }

    #[test]
    fn cosine_by_hand() {
        // (1, 0)·(1, 1) / (1 · √2) = 1/√2.
        assert!((cosine(&[1.0, 0.0], &[1.0, 1.0]) - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-7);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 1.0]), 0.0);
    }

    #[test]
    fn the_models_own_attention_changes_nothing() {
        let own = Variant::named("model");
        let out = substitute(
            &tiny(),
            "the big red dog",
            Some("a cat sat"),
            &own,
            42,
            Place::Every,
        )
        .unwrap();
        assert!((out.cosine - 1.0).abs() < 1e-6);
        assert!(out.layers.iter().all(|l| l.max_abs == 0.0 && l.heads == 2));
        let pair = out.pair.unwrap();
        assert!((pair.own - pair.substituted).abs() < 1e-6);
    }

    #[test]
    fn a_head_changes_its_layer_and_what_follows_not_what_precedes() {
        let mut linear = Variant::named("L");
        linear.attention = AttentionKind::Elu1;
        let place = Place::Head { layer: 1, head: 0 };
        let out = substitute(&tiny(), "the big red dog", None, &linear, 42, place).unwrap();
        assert_eq!(out.layers[0].max_abs, 0.0);
        assert!(out.layers[1].max_abs > 0.0);
        assert!(out.cosine < 1.0);
        assert!(out.pair.is_none());
        // Linformer's heads are not compared (their weights are over projected keys).
        let mut lin = Variant::named("F");
        lin.attention = AttentionKind::Linformer;
        lin.linformer_k = 2;
        let out = substitute(
            &tiny(),
            "the big red dog",
            None,
            &lin,
            42,
            Place::Layer { layer: 0 },
        )
        .unwrap();
        assert_eq!(out.layers[0].heads, 0);
        assert_eq!(out.layers[1].heads, 2);
        assert!(out.layers[1].max_abs > 0.0);
    }

    #[test]
    fn a_place_outside_the_model_is_refused() {
        let v = Variant::named("A");
        let err = substitute(&tiny(), "the dog", None, &v, 42, Place::Layer { layer: 9 });
        assert_eq!(
            err,
            Err(Said::new(
                "the model has 2 layers of 2 heads, so there is no every head of layer 9",
                Some("模型有 2 层、每层 2 个头，所以没有第 9 层的每个头".into())
            ))
        );
        assert!(substitute(&tiny(), "   ", None, &v, 42, Place::Every).is_err());
    }
}
