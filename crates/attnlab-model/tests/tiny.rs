//! The encoder on a tiny random checkpoint made here (2 layers, 2 heads of width 4):
//! shapes, the attention maths against a naive softmax, lab overrides per head and
//! layer, the asset round trip, and errors. No download needed.

use std::collections::HashMap;

use attnlab_core::attention::AttentionSpec;
use attnlab_core::mask::MaskSpec;
use attnlab_core::score::ScoreFunction;
use attnlab_model::{
    About, AttentionOverride, ModelError, Pretrained, Scope, asset, tensors::Tensors, testing,
};
use ndarray::Array2;
use safetensors::tensor::TensorView;

fn tiny() -> Pretrained {
    let (w, c, v) = testing::tiny_checkpoint(11);
    Pretrained::from_hugging_face(&w, &c, None, &v).expect("loads")
}

fn close(a: &Array2<f32>, b: &Array2<f32>, tol: f32, label: &str) {
    assert_eq!(a.dim(), b.dim(), "{label}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol, "{label}: {x} vs {y}");
    }
}

#[test]
fn every_head_of_every_layer_is_traced() {
    let run = tiny()
        .run("the big red dog ran.", &AttentionOverride::default())
        .unwrap();
    let n = run.encoding.ids.len();
    assert_eq!(n, 8);
    assert_eq!(run.forward.heads.len(), 2);
    for layer in &run.forward.heads {
        assert_eq!(layer.len(), 2);
        for head in layer {
            assert_eq!(head.q.dim(), (n, 4));
            assert_eq!(head.k.dim(), (n, 4));
            assert_eq!(head.v.dim(), (n, 4));
            assert_eq!(head.weights.dim(), (n, n));
            for row in head.weights.rows() {
                assert!((row.sum() - 1.0).abs() < 1e-5);
            }
        }
    }
    assert_eq!(run.forward.hidden.dim(), (n, 8));
    let norm: f32 = run.forward.embedding.iter().map(|x| x * x).sum();
    assert!((norm - 1.0).abs() < 1e-5);
}

#[test]
fn weights_are_the_softmax_of_scaled_dot_products() {
    let run = tiny()
        .run("a quick cat sat", &AttentionOverride::default())
        .unwrap();
    for layer in &run.forward.heads {
        for head in layer {
            // softmax(q kᵀ / √4) row by row, in f64.
            let s = head.q.dot(&head.k.t()).mapv(|x| f64::from(x) / 2.0);
            let mut a = Array2::<f32>::zeros(s.dim());
            for (i, row) in s.rows().into_iter().enumerate() {
                let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = row.iter().map(|x| (x - max).exp()).sum();
                for (j, x) in row.iter().enumerate() {
                    a[[i, j]] = ((x - max).exp() / sum) as f32;
                }
            }
            close(&head.weights, &a, 1e-6, "softmax");
        }
    }
}

#[test]
fn an_override_changes_only_its_heads_and_what_follows() {
    let model = tiny();
    let text = "the cat sat on the mat";
    let base = model.run(text, &AttentionOverride::default()).unwrap();
    // Naming the model's own attention explicitly changes nothing.
    let same = AttentionOverride::default().with(Scope::Every, AttentionSpec::default());
    assert_eq!(model.run(text, &same).unwrap(), base);

    let causal = AttentionSpec {
        mask: MaskSpec {
            causal: true,
            ..MaskSpec::default()
        },
        ..AttentionSpec::default()
    };
    let lab = AttentionOverride::default().with(Scope::Head { layer: 1, head: 0 }, causal);
    let run = model.run(text, &lab).unwrap();
    let a = &run.forward.heads[1][0].weights;
    for i in 0..a.nrows() {
        for j in i + 1..a.ncols() {
            assert_eq!(a[[i, j]], 0.0, "({i}, {j}) is above the diagonal");
        }
    }
    assert_eq!(
        run.forward.heads[0], base.forward.heads[0],
        "layer 0 is untouched"
    );
    assert_eq!(
        run.forward.heads[1][1], base.forward.heads[1][1],
        "head 1 is untouched"
    );
    assert_ne!(run.forward.embedding, base.forward.embedding);

    // A whole layer with another score: both its heads change, the layer before does not.
    let dot = AttentionSpec {
        score: ScoreFunction::Dot,
        ..AttentionSpec::default()
    };
    let run = model
        .run(
            text,
            &AttentionOverride::default().with(Scope::Layer(1), dot),
        )
        .unwrap();
    assert_eq!(run.forward.heads[0], base.forward.heads[0]);
    for h in 0..2 {
        assert_ne!(
            run.forward.heads[1][h].weights,
            base.forward.heads[1][h].weights
        );
    }
}

#[test]
fn a_spec_the_core_rejects_names_its_layer() {
    let general = AttentionSpec {
        score: ScoreFunction::General,
        ..AttentionSpec::default()
    };
    let lab = AttentionOverride::default().with(Scope::Layer(1), general);
    match tiny().run("the cat", &lab) {
        Err(ModelError::Attention { layer: 1, .. }) => {}
        other => panic!("expected an attention error in layer 1, got {other:?}"),
    }
}

#[test]
fn seeded_parameters_let_every_lab_score_and_linformer_replace_a_layer() {
    use attnlab_core::attention::AttentionKind;
    use attnlab_core::model::{HeadParams, ModelConfig};
    use attnlab_model::Parameters;
    // The tiny checkpoint: hidden 8, 2 heads of width 4, as the seeded config's d_k.
    let parameters = Parameters {
        seeded: ModelConfig {
            d_model: 8,
            heads: 2,
            seed: 7,
            ..ModelConfig::default()
        },
        head: HeadParams {
            linformer_k: 3,
            ..HeadParams::default()
        },
    };
    let base = tiny()
        .run("the big red dog", &AttentionOverride::default())
        .unwrap();
    for (score, attention) in [
        (ScoreFunction::General, AttentionKind::Softmax),
        (ScoreFunction::Additive, AttentionKind::Softmax),
        (ScoreFunction::ScaledDot, AttentionKind::Linformer),
    ] {
        let spec = AttentionSpec {
            score,
            attention,
            ..AttentionSpec::default()
        };
        let lab = AttentionOverride::default()
            .with(Scope::Layer(1), spec)
            .with_parameters(parameters.clone());
        let run = tiny().run("the big red dog", &lab).unwrap();
        assert_eq!(run.forward.heads[0], base.forward.heads[0], "{score:?}");
        let cols = if attention == AttentionKind::Linformer {
            3
        } else {
            6
        };
        assert_eq!(run.forward.heads[1][0].weights.dim(), (6, cols));
        assert_ne!(run.forward.embedding, base.forward.embedding, "{score:?}");
    }
}

#[test]
fn the_asset_round_trips_config_vocabulary_and_about() {
    let (w, c, v) = testing::tiny_checkpoint(5);
    let f32m = Pretrained::from_hugging_face(&w, &c, None, &v).unwrap();
    let about = About {
        name: "tiny".into(),
        source: "tests".into(),
        licence: "none".into(),
    };
    let bytes = asset::write(
        f32m.encoder(),
        asset::Vocabulary::WordPiece(&v),
        &about,
        asset::default_plan,
    )
    .unwrap();
    let q = Pretrained::from_asset(&bytes).unwrap();
    assert_eq!(q.about(), &about);
    // The same weights give the same bytes, whatever order the writer's maps had.
    for _ in 0..4 {
        let again = asset::write(
            f32m.encoder(),
            asset::Vocabulary::WordPiece(&v),
            &about,
            asset::default_plan,
        )
        .unwrap();
        assert!(
            again == bytes,
            "the asset's bytes changed between two writes"
        );
    }
    assert_eq!(q.encoder().config(), f32m.encoder().config());
    let text = "the big red dog ran on a mat";
    let (a, b) = (
        q.run(text, &AttentionOverride::default()).unwrap(),
        f32m.run(text, &AttentionOverride::default()).unwrap(),
    );
    assert_eq!(a.encoding, b.encoding);
    let dot: f32 = a
        .forward
        .embedding
        .iter()
        .zip(&b.forward.embedding)
        .map(|(x, y)| x * y)
        .sum();
    assert!(dot > 0.99, "embedding cosine {dot}");
    // A Hugging Face checkpoint is not an asset.
    assert!(matches!(
        Pretrained::from_asset(&w),
        Err(ModelError::Format(_))
    ));
}

#[test]
fn bad_ids_and_lengths_are_errors() {
    let model = tiny();
    let lab = AttentionOverride::default();
    assert_eq!(
        model.encoder().forward(&[2, 99, 3], &lab),
        Err(ModelError::TokenId {
            position: 1,
            id: 99,
            vocab_size: 24
        })
    );
    let long = vec![5u32; 33];
    assert!(matches!(
        model.encoder().forward(&long, &lab),
        Err(ModelError::TooManyTokens {
            tokens: 33,
            max: 32
        })
    ));
    assert!(matches!(
        model.encoder().forward(&[], &lab),
        Err(ModelError::TooManyTokens { tokens: 0, .. })
    ));
    // The tiny model has 32 positions: a long text is cut to them and says so.
    let e = model.encode(&"the ".repeat(40)).unwrap();
    assert_eq!((e.ids.len(), e.truncated_from), (32, Some(42)));
}

/// The tiny checkpoint's tensors, renamed or dropped by `edit`, as a new file.
fn edited(edit: impl Fn(&str) -> Option<String>) -> Vec<u8> {
    let (w, _, _) = testing::tiny_checkpoint(2);
    let t = safetensors::SafeTensors::deserialize(&w).unwrap();
    let kept: Vec<(String, TensorView<'_>)> = t
        .tensors()
        .into_iter()
        .filter_map(|(name, view)| edit(&name).map(|n| (n, view)))
        .collect();
    safetensors::serialize(kept, Some(HashMap::new())).unwrap()
}

#[test]
fn names_with_or_without_a_prefix_load_and_missing_ones_are_named() {
    let (_, c, v) = testing::tiny_checkpoint(2);
    let bare = edited(|n| Some(n.trim_start_matches("bert.").to_owned()));
    assert!(Pretrained::from_hugging_face(&bare, &c, None, &v).is_ok());
    let missing = edited(|n| (!n.ends_with("layer.1.output.dense.bias")).then(|| n.to_owned()));
    assert_eq!(
        Pretrained::from_hugging_face(&missing, &c, None, &v).unwrap_err(),
        ModelError::MissingTensor("encoder.layer.1.output.dense.bias".into())
    );
    let wrong = c.replace("\"intermediate_size\": 16", "\"intermediate_size\": 12");
    assert!(matches!(
        Pretrained::from_hugging_face(&edited(|n| Some(n.to_owned())), &wrong, None, &v),
        Err(ModelError::TensorShape { .. })
    ));
    assert!(matches!(
        Tensors::parse(b"not safetensors at all"),
        Err(ModelError::Format(_))
    ));
}

#[test]
fn a_pair_reads_its_second_text_as_segment_one_and_marks_the_specials() {
    let model = tiny();
    let none = AttentionOverride::default();
    let pair = model.run_pair("the cat", "a dog", &none).unwrap();
    assert_eq!(
        pair.encoding.tokens,
        ["[CLS]", "the", "cat", "[SEP]", "a", "dog", "[SEP]"]
    );
    assert_eq!(pair.encoding.type_ids, [0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(
        model.special_tokens(&pair.encoding),
        [true, false, false, true, false, false, true]
    );
    // The same ids all of segment 0 give other states: the segment table is used.
    let flat = model.encoder().forward(&pair.encoding.ids, &none).unwrap();
    assert_ne!(flat.embedding, pair.forward.embedding);
    // Segments that do not fit are errors, not panics.
    let bad = model
        .encoder()
        .forward_segments(&pair.encoding.ids, &[0, 2, 0, 0, 0, 0, 0], &none);
    assert!(matches!(bad, Err(ModelError::Segments(_))), "{bad:?}");
    let short = model
        .encoder()
        .forward_segments(&pair.encoding.ids, &[0], &none);
    assert!(matches!(short, Err(ModelError::Segments(_))), "{short:?}");
}
