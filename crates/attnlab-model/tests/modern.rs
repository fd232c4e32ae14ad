//! The modern variants substituted inside the encoder (the tiny random checkpoint: 2
//! layers, 2 heads of width 4): every kind runs with the seeded parameters it needs, the
//! options that must not change the numbers do not, and grouped keys and values are the
//! mean of each group's heads.

use attnlab_core::alibi::Alibi;
use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, Problem};
use attnlab_core::model::{HeadParams, ModelConfig};
use attnlab_core::rope::Rope;
use attnlab_model::{AttentionOverride, Parameters, Pretrained, Run, Scope, testing};
use ndarray::Array2;

const TEXT: &str = "the big red dog";

fn tiny() -> Pretrained {
    let (w, c, v) = testing::tiny_checkpoint(11);
    Pretrained::from_hugging_face(&w, &c, None, &v).expect("loads")
}

fn parameters(head: HeadParams) -> Parameters {
    // The tiny checkpoint: hidden 8, 2 heads of width 4, as the seeded config's d_k.
    Parameters {
        seeded: ModelConfig {
            d_model: 8,
            heads: 2,
            seed: 7,
            ..ModelConfig::default()
        },
        head,
    }
}

fn run(spec: AttentionSpec, scope: Scope, head: HeadParams) -> Run {
    let lab = AttentionOverride::default()
        .with(scope, spec)
        .with_parameters(parameters(head));
    tiny().run(TEXT, &lab).expect("runs")
}

fn kind(attention: AttentionKind) -> AttentionSpec {
    AttentionSpec {
        attention,
        ..AttentionSpec::default()
    }
}

fn largest_difference(a: &Array2<f32>, b: &Array2<f32>) -> f32 {
    assert_eq!(a.dim(), b.dim());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn every_kind_replaces_a_layer_with_finite_numbers_and_changes_the_embedding() {
    let own = tiny().run(TEXT, &AttentionOverride::default()).unwrap();
    for attention in AttentionKind::EVERY {
        if attention == AttentionKind::Softmax {
            continue;
        }
        let head = HeadParams {
            linformer_k: 3,
            features: 16,
            sink: 1.0,
            decay: 0.8,
            ..HeadParams::default()
        };
        let out = run(kind(attention), Scope::Layer(1), head);
        // Layer 0 is the model's own; layer 1 is the variant, finite throughout.
        assert_eq!(out.forward.heads[0], own.forward.heads[0], "{attention:?}");
        for trace in &out.forward.heads[1] {
            assert!(trace.weights.iter().all(|w| w.is_finite()), "{attention:?}");
        }
        assert!(
            out.forward.embedding.iter().all(|x| x.is_finite()),
            "{attention:?}"
        );
        assert_ne!(
            out.forward.embedding, own.forward.embedding,
            "{attention:?}"
        );
    }
}

#[test]
fn the_normalisers_with_an_extra_term_give_rows_below_one_and_sigmoid_judges_each_key() {
    let head = HeadParams {
        sink: 2.0,
        ..HeadParams::default()
    };
    for attention in [AttentionKind::SoftmaxPlusOne, AttentionKind::Sink] {
        let out = run(kind(attention), Scope::Every, head);
        for trace in out.forward.heads.iter().flatten() {
            for row in trace.weights.rows() {
                let sum = row.sum();
                assert!(sum > 0.0 && sum < 1.0, "{attention:?}: {sum}");
            }
        }
    }
    // σ(z + b) of each key alone: every weight in (0, 1), the rows free to sum to more
    // or less than 1.
    let out = run(kind(AttentionKind::Sigmoid), Scope::Every, head);
    let sums: Vec<f32> = out
        .forward
        .heads
        .iter()
        .flatten()
        .flat_map(|t| {
            t.weights
                .rows()
                .into_iter()
                .map(|r| r.sum())
                .collect::<Vec<_>>()
        })
        .collect();
    let weights = out
        .forward
        .heads
        .iter()
        .flatten()
        .flat_map(|t| t.weights.iter());
    assert!(weights.clone().all(|&w| w > 0.0 && w < 1.0));
    assert!(sums.iter().any(|&s| (s - 1.0).abs() > 0.01), "{sums:?}");
}

#[test]
fn tiles_leave_the_models_numbers_as_they_are_within_rounding() {
    let own = tiny().run(TEXT, &AttentionOverride::default()).unwrap();
    let tiled = AttentionSpec {
        tiles: Some(2),
        ..AttentionSpec::default()
    };
    let out = run(tiled, Scope::Every, HeadParams::default());
    for (a, b) in own
        .forward
        .heads
        .iter()
        .flatten()
        .zip(out.forward.heads.iter().flatten())
    {
        assert!(largest_difference(&a.weights, &b.weights) < 1e-6);
    }
    let cosine: f32 = own
        .forward
        .embedding
        .iter()
        .zip(&out.forward.embedding)
        .map(|(a, b)| a * b)
        .sum();
    assert!((cosine - 1.0).abs() < 1e-5, "{cosine}");
}

#[test]
fn softcap_alibi_and_rope_each_change_what_the_head_computes() {
    let own = tiny().run(TEXT, &AttentionOverride::default()).unwrap();
    let options = [
        AttentionSpec {
            softcap: Some(0.5),
            ..AttentionSpec::default()
        },
        AttentionSpec {
            alibi: Some(Alibi::Paper),
            ..AttentionSpec::default()
        },
        AttentionSpec {
            rope: Some(Rope::default()),
            ..AttentionSpec::default()
        },
    ];
    for spec in options {
        let label = format!("{spec:?}");
        let out = run(
            spec,
            Scope::Head { layer: 0, head: 1 },
            HeadParams::default(),
        );
        assert_eq!(out.forward.heads[0][0], own.forward.heads[0][0], "{label}");
        assert!(
            largest_difference(
                &out.forward.heads[0][1].weights,
                &own.forward.heads[0][1].weights
            ) > 1e-4,
            "{label}"
        );
    }
}

#[test]
fn one_group_gives_every_head_the_mean_keys_and_values_of_its_layer() {
    let own = tiny().run(TEXT, &AttentionOverride::default()).unwrap();
    let head = HeadParams {
        kv_groups: Some(1),
        ..HeadParams::default()
    };
    let out = run(AttentionSpec::default(), Scope::Layer(0), head);
    let traces = &own.forward.heads[0];
    let mean_k = (&traces[0].k + &traces[1].k) / 2.0;
    let mean_v = (&traces[0].v + &traces[1].v) / 2.0;
    for (h, trace) in out.forward.heads[0].iter().enumerate() {
        assert_eq!(trace.q, traces[h].q);
        assert!(largest_difference(&trace.k, &mean_k) < 1e-6);
        assert!(largest_difference(&trace.v, &mean_v) < 1e-6);
        // The weights are softmax(q k̄ᵀ/√d_k) of the shared keys: computed here by the
        // core on the same inputs, outside the encoder.
        let problem = Problem::new(
            vec![HeadInput::new(
                trace.q.clone(),
                mean_k.clone(),
                mean_v.clone(),
            )],
            AttentionSpec::default(),
            None,
        )
        .unwrap();
        let expected = problem.compute().unwrap().heads[0].weights.to_owned();
        assert!(largest_difference(&trace.weights, &expected) < 1e-6);
    }
    // As many groups as heads: each head keeps its own keys and values.
    let head = HeadParams {
        kv_groups: Some(2),
        ..HeadParams::default()
    };
    let out = run(AttentionSpec::default(), Scope::Every, head);
    assert_eq!(out.forward.heads, own.forward.heads);
}

#[test]
fn groups_that_do_not_divide_the_heads_are_the_cores_error_not_a_panic() {
    let lab = AttentionOverride::default()
        .with(Scope::Every, AttentionSpec::default())
        .with_parameters(parameters(HeadParams {
            kv_groups: Some(3),
            ..HeadParams::default()
        }));
    let err = tiny().run(TEXT, &lab).unwrap_err();
    assert!(err.to_string().contains("layer 0"), "{err}");
}
