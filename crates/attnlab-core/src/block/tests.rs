use ndarray::{Array1, Array2, array};
use proptest::prelude::*;

use super::ops::{attend, feed_forward};
use super::*;
use crate::error::{BlockInvalid, CoreError, Expected, Invalid};

fn tokens(n: usize, d: usize, phase: f32) -> Array2<f32> {
    Array2::from_shape_fn((n, d), |(i, j)| ((i * d + j) as f32 * 0.61 + phase).sin())
}

fn largest_difference(a: &Array2<f32>, b: &Array2<f32>) -> f32 {
    assert_eq!(a.dim(), b.dim());
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

fn seeded(options: Seeded, layers: usize, heads: usize) -> Block {
    Block::seeded(11, 8, heads, 12, layers, &options).unwrap()
}

#[test]
fn gelu_at_hand_checked_points() {
    assert_eq!(gelu(0.0), 0.0);
    // Φ(1) = 0.841344746…, Φ(−1) = 0.158655254…
    assert!((gelu(1.0) - 0.841_344_7).abs() < 1e-6);
    assert!((gelu(-1.0) + 0.158_655_25).abs() < 1e-6);
    // Φ(2) = 0.977249868…
    assert!((gelu(2.0) - 1.954_499_7).abs() < 1e-6);
    for x in [8.0f32, 20.0, 1e3] {
        assert_eq!(gelu(x), x, "GELU({x}) is x");
        assert_eq!(gelu(-x), 0.0, "GELU(−{x}) is 0");
    }
}

#[test]
fn layer_norm_gives_mean_0_variance_1_before_gain_and_bias() {
    let x = tokens(4, 6, 0.3) * 5.0 + 2.0;
    let y = layer_norm(&x.view(), &LayerNorm::identity(6), 1e-5);
    for row in y.rows() {
        let mean = row.sum() / 6.0;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / 6.0;
        assert!(mean.abs() < 1e-6, "mean {mean}");
        assert!((var - 1.0).abs() < 1e-4, "variance {var}");
    }
    // Gain and bias act per feature after the normalisation: [1, 3] → [−1, 1] → ·[2, 1] + [0, 5].
    let ln = LayerNorm {
        gain: array![2.0, 1.0],
        bias: array![0.0, 5.0],
    };
    let y = layer_norm(&array![[1.0f32, 3.0]].view(), &ln, 0.0);
    assert_eq!(y, array![[-2.0f32, 6.0]]);
}

#[test]
fn one_token_attends_to_itself_with_weight_1() {
    for options in [
        Seeded::default(),
        Seeded {
            causal: true,
            norm: Norm::Pre,
            ..Seeded::default()
        },
    ] {
        let block = seeded(options, 2, 4);
        let run = block.run(&tokens(1, 8, 0.0), None).unwrap();
        for layer in &run.layers {
            for head in &layer.self_attention {
                assert_eq!(head, &array![[1.0f32]]);
            }
        }
    }
}

#[test]
fn the_feed_forward_works_on_each_token_alone_attention_mixes_them() {
    let block = seeded(Seeded::default(), 1, 2);
    let layer = &block.layers()[0];
    let x = tokens(5, 8, 0.1);
    let mut changed = x.clone();
    changed.row_mut(3).mapv_inplace(|v| v * -2.0 + 0.5);
    // The feed-forward: only row 3 changes.
    let (a, b) = (
        feed_forward(&x, &layer.ffn),
        feed_forward(&changed, &layer.ffn),
    );
    for i in 0..5 {
        let row_moved = (&a.row(i) - &b.row(i)).iter().any(|v| v.abs() > 1e-6);
        assert_eq!(row_moved, i == 3, "feed-forward row {i}");
    }
    // Permuting the tokens permutes its output.
    let order = [4, 0, 3, 1, 2];
    let permuted = x.select(ndarray::Axis(0), &order);
    let out = feed_forward(&permuted, &layer.ffn);
    assert!(largest_difference(&out, &a.select(ndarray::Axis(0), &order)) < 1e-6);
    // Attention: every row changes.
    let sa = &layer.self_attention;
    let attend_all = |x: &Array2<f32>| {
        let q = super::ops::affine(x, &sa.w_q, None);
        let (k, v) = super::ops::keys_values(sa, x);
        attend(sa, &q, k.view(), v.view(), false).unwrap().1
    };
    let (a, b) = (attend_all(&x), attend_all(&changed));
    for i in 0..5 {
        assert!(
            (&a.row(i) - &b.row(i)).iter().any(|v| v.abs() > 1e-4),
            "attention row {i} unchanged"
        );
    }
}

#[test]
fn causal_layers_do_not_permute_with_the_tokens() {
    let block = seeded(
        Seeded {
            causal: true,
            ..Seeded::default()
        },
        1,
        2,
    );
    let x = tokens(4, 8, 0.2);
    let order = [3, 2, 1, 0];
    let a = block.run(&x, None).unwrap().output;
    let b = block
        .run(&x.select(ndarray::Axis(0), &order), None)
        .unwrap()
        .output;
    assert!(largest_difference(&b, &a.select(ndarray::Axis(0), &order)) > 1e-3);
    // Without the mask (and without positions) the stack permutes with the tokens.
    let block = seeded(Seeded::default(), 2, 2);
    let a = block.run(&x, None).unwrap().output;
    let b = block
        .run(&x.select(ndarray::Axis(0), &order), None)
        .unwrap()
        .output;
    assert!(largest_difference(&b, &a.select(ndarray::Axis(0), &order)) < 1e-5);
}

#[test]
fn sublayers_keep_the_stream() {
    for norm in Norm::ALL {
        let block = seeded(
            Seeded {
                norm,
                cross: true,
                ..Seeded::default()
            },
            2,
            2,
        );
        let (x, memory) = (tokens(3, 8, 0.0), tokens(5, 8, 1.0));
        let run = block.run(&x, Some(&memory)).unwrap();
        let first = &run.layers[0];
        assert_eq!(first.self_sublayer.input, x.clone().into_shared());
        let cross = first.cross_sublayer.as_ref().unwrap();
        assert_eq!(cross.input, first.self_sublayer.output);
        assert_eq!(first.ffn_sublayer.input, cross.output);
        assert_eq!(run.layers[1].self_sublayer.input, *first.output());
        assert_eq!(first.cross_attention.as_ref().unwrap()[1].dim(), (3, 5));
        let sum = &first.ffn_sublayer.input + &first.ffn_sublayer.transformed;
        let expected = match norm {
            Norm::Post => layer_norm(&sum.view(), &LayerNorm::identity(8), block.eps()),
            Norm::Pre => sum,
        };
        assert!(largest_difference(&expected, &first.output().to_owned()) < 1e-6);
        assert_eq!(run.output, run.layers[1].output().to_owned());
    }
}

#[test]
fn decoding_with_the_cache_equals_the_parallel_causal_pass() {
    for norm in Norm::ALL {
        for activation in Activation::ALL {
            for cross in [false, true] {
                let options = Seeded {
                    norm,
                    activation,
                    causal: true,
                    cross,
                    final_norm: cross,
                    ..Seeded::default()
                };
                let block = seeded(options, 3, 4);
                let (x, memory) = (tokens(7, 8, 0.4), tokens(3, 8, 2.0));
                let memory = cross.then_some(&memory);
                let parallel = block.run(&x, memory).unwrap();
                let decoded = block.decode(&x, memory).unwrap();
                let scale = parallel.output.iter().fold(0f32, |m, v| m.max(v.abs()));
                let diff = largest_difference(&parallel.output, &decoded.output);
                assert!(diff <= 1e-5 * scale.max(1.0), "{options:?}: {diff}");
                for (p, q) in parallel.layers.iter().zip(&decoded.layers) {
                    for (a, b) in p.self_attention.iter().zip(&q.self_attention) {
                        assert!(largest_difference(a, b) < 1e-5);
                    }
                    if let (Some(a), Some(b)) = (&p.cross_attention, &q.cross_attention) {
                        for (a, b) in a.iter().zip(b) {
                            assert!(largest_difference(a, b) < 1e-5);
                        }
                    }
                    assert!(largest_difference(&p.output().to_owned(), &q.output) < 1e-4);
                }
            }
        }
    }
}

#[test]
fn the_cache_grows_by_one_key_and_one_value_row_per_layer_and_step() {
    let options = Seeded {
        causal: true,
        cross: true,
        ..Seeded::default()
    };
    let block = seeded(options, 3, 2);
    let decoded = block
        .decode(&tokens(6, 8, 0.0), Some(&tokens(4, 8, 0.5)))
        .unwrap();
    for c in &decoded.cache {
        // 3 layers × 2 (k, v) × (t + 1) rows, and the memory's 3 × 2 × 4 rows.
        assert_eq!(c.entries, 6 * (c.step + 1) + 24, "{c:?}");
        assert_eq!(c.bytes, c.entries * 8 * 4);
        // Each step scores its one query against t + 1 keys (and the 4 memory rows) per
        // head and layer: linear in t.
        assert_eq!(c.cells, 3 * 2 * (c.step + 1) + 3 * 2 * 4, "{c:?}");
    }
    assert_eq!(decoded.cache.len(), 6);
}

#[test]
fn seeded_blocks_are_deterministic_and_layers_independent() {
    let a = seeded(Seeded::default(), 2, 2);
    let b = seeded(Seeded::default(), 3, 2);
    assert_eq!(a.layers()[1], b.layers()[1]);
    assert_ne!(a.layers()[0], a.layers()[1]);
    let c = Block::seeded(12, 8, 2, 12, 2, &Seeded::default()).unwrap();
    assert_ne!(a.layers()[0], c.layers()[0]);
}

fn refused(e: CoreError) -> (String, CoreError) {
    (e.path(), e)
}

#[test]
fn bad_blocks_and_inputs_name_their_field() {
    let heads = Block::seeded(1, 8, 3, 4, 1, &Seeded::default()).unwrap_err();
    assert_eq!(heads.path(), "layers[0].self.heads");
    assert!(matches!(
        heads,
        CoreError::InLayer { layer: 0, ref error } if matches!(**error, CoreError::InvalidSetting { reason: Invalid::HeadsDivide { d_model: 8, heads: 3 }, .. })
    ));
    let eps = Seeded {
        eps: 0.0,
        ..Seeded::default()
    };
    assert_eq!(
        refused(Block::seeded(1, 8, 2, 4, 1, &eps).unwrap_err()).0,
        "layer_norm_eps"
    );
    let none = Block::new(Vec::new(), Norm::Post, 1e-5, None).unwrap_err();
    assert_eq!(none.path(), "layers");

    let good = seeded(Seeded::default(), 2, 2);
    let mut layers = good.layers().to_vec();
    layers[1].ffn.w_2 = Array2::zeros((11, 8));
    let e = Block::new(layers, Norm::Post, 1e-5, None).unwrap_err();
    assert_eq!(e.path(), "layers[1].ffn.w_2");
    assert_eq!(
        e.reason(),
        "has shape 11×8, expected 12×8 (f×d, f = the columns of ffn.w_1)"
    );
    let mut layers = good.layers().to_vec();
    layers[0].ln_ffn.bias[2] = f32::NAN;
    let e = Block::new(layers, Norm::Post, 1e-5, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "layers[0].ln_ffn.bias: value at row 0, column 2 is not a finite number"
    );
    let mut layers = good.layers().to_vec();
    layers[1].self_attention.b_o = Some(Array1::zeros(7));
    let e = Block::new(layers, Norm::Post, 1e-5, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "layers[1].self.b_o: has shape 1×7, expected 8 values (d, the width of x)"
    );
    let mut layers = good.layers().to_vec();
    layers[0].self_attention.w_k = Array2::zeros((8, 6));
    assert_eq!(
        Block::new(layers, Norm::Post, 1e-5, None)
            .unwrap_err()
            .path(),
        "layers[0].self.w_k"
    );

    // Cross-attention: in every layer or none, never causal, and with a memory.
    let cross = seeded(
        Seeded {
            cross: true,
            ..Seeded::default()
        },
        2,
        2,
    );
    let mut mixed = cross.layers().to_vec();
    mixed[1].cross = None;
    let e = Block::new(mixed, Norm::Post, 1e-5, None).unwrap_err();
    assert_eq!(e.path(), "layers[1].cross");
    let mut causal = cross.layers().to_vec();
    causal[0].cross.as_mut().unwrap().attention.causal = true;
    let e = Block::new(causal, Norm::Post, 1e-5, None).unwrap_err();
    assert_eq!(
        e,
        CoreError::InvalidSetting {
            field: "cross.causal",
            reason: Invalid::Block(BlockInvalid::CrossCausal)
        }
        .in_layer(0)
    );
    let x = tokens(3, 8, 0.0);
    assert_eq!(cross.run(&x, None).unwrap_err().path(), "memory");
    assert_eq!(good.run(&x, Some(&x)).unwrap_err().path(), "memory");
    let e = good.run(&tokens(3, 7, 0.0), None).unwrap_err();
    assert_eq!(
        e,
        CoreError::ShapeMismatch {
            head: None,
            field: "x",
            expected: Expected::ModelColumns { d: 8 },
            got: (3, 7)
        }
    );
    assert_eq!(
        good.run(&Array2::zeros((0, 8)), None).unwrap_err().path(),
        "x"
    );
    // Decoding needs causal self-attention.
    assert_eq!(
        good.decode(&x, None).unwrap_err().path(),
        "layers[0].self.causal"
    );
    // An overflow is an error, not inf.
    let huge = Array2::from_elem((2, 8), 3e38f32);
    assert!(good.run(&huge, None).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn decoding_equals_the_parallel_pass_for_any_sizes(
        seed in 0u64..1000,
        n in 1usize..7,
        m in 1usize..5,
        heads_log in 0u32..3,
        layers in 1usize..4,
        pre in any::<bool>(),
        cross in any::<bool>(),
    ) {
        let heads = 1usize << heads_log;
        let options = Seeded {
            norm: if pre { Norm::Pre } else { Norm::Post },
            activation: Activation::Gelu,
            causal: true,
            cross,
            final_norm: pre,
            ..Seeded::default()
        };
        let block = Block::seeded(seed, 8, heads, 16, layers, &options).unwrap();
        let x = tokens(n, 8, seed as f32);
        let memory = tokens(m, 8, seed as f32 + 0.5);
        let memory = cross.then_some(&memory);
        let a = block.run(&x, memory).unwrap().output;
        let b = block.decode(&x, memory).unwrap().output;
        prop_assert!(largest_difference(&a, &b) < 1e-4);
    }

    #[test]
    fn layer_norm_rows_have_mean_0_and_variance_1(
        rows in proptest::collection::vec(proptest::collection::vec(-50.0f32..50.0, 2..9), 1..5)
    ) {
        let width = rows[0].len();
        let rows: Vec<Vec<f32>> = rows.into_iter().map(|mut r| { r.resize(width, 1.0); r }).collect();
        let x = Array2::from_shape_vec((rows.len(), width), rows.concat()).unwrap();
        let y = layer_norm(&x.view(), &LayerNorm::identity(width), 1e-5);
        for (row, given) in y.rows().into_iter().zip(x.rows()) {
            let spread = given.iter().fold(f32::MIN, |a, &b| a.max(b)) - given.iter().fold(f32::MAX, |a, &b| a.min(b));
            let mean = row.sum() / width as f32;
            prop_assert!(mean.abs() < 1e-4);
            if spread > 0.1 {
                let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / width as f32;
                prop_assert!((var - 1.0).abs() < 1e-2, "variance {}", var);
            }
        }
    }
}
