//! Properties of the core that hold for every input (docs/maths.md §5–§7), checked on random
//! problems from a seeded proptest runner. These run natively and under wasm32 (with and
//! without SIMD128), where `kernels::dot` etc. take the SIMD path.

use attnlab_core::attention::{
    AttentionKind, AttentionSpec, Computation, HeadInput, HeadResult, Problem,
};
use attnlab_core::kernels::{self, scalar};
use attnlab_core::linear::{self, FeatureMap};
use attnlab_core::mask::{Mask, MaskSpec};
use attnlab_core::model::ModelConfig;
use attnlab_core::position::{Combine, PositionKind};
use attnlab_core::score::{self, ScoreFunction, ScoreParams};
use attnlab_core::tokenize::{Token, tokenize};
use ndarray::Array2;
use proptest::prelude::*;

mod common;
use common::{assert_close, config, lane_length};

fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Array2<f32>> {
    prop::collection::vec(-3.0f32..3.0, rows * cols)
        .prop_map(move |v| Array2::from_shape_vec((rows, cols), v).unwrap())
}

fn head(n: usize, m: usize, d_k: usize, d_v: usize) -> impl Strategy<Value = HeadInput> {
    (matrix(n, d_k), matrix(m, d_k), matrix(m, d_v)).prop_map(|(q, k, v)| HeadInput::new(q, k, v))
}

fn mask_spec(n: usize, m: usize) -> impl Strategy<Value = MaskSpec> {
    (
        any::<bool>(),
        prop::option::of(0usize..4),
        prop::option::of(1usize..4),
        prop::collection::vec(0..n.max(m), 0..2),
        prop::collection::vec(0..m, 0..3),
        prop::option::of(prop::collection::vec(prop::bool::weighted(0.8), n * m)),
    )
        .prop_map(
            move |(causal, window, strided, global, padding_keys, custom)| MaskSpec {
                causal,
                window,
                strided,
                global,
                padding_keys,
                custom: custom.map(|c| Array2::from_shape_vec((n, m), c).unwrap()),
            },
        )
}

fn sizes() -> impl Strategy<Value = (usize, usize, usize, usize)> {
    (1usize..9, 1usize..9, 1usize..7, 1usize..5)
}

/// A random head of random shape (n, m < 9) with a random mask of its shape.
fn head_and_mask() -> impl Strategy<Value = (HeadInput, MaskSpec)> {
    sizes().prop_flat_map(|(n, m, d_k, d_v)| (head(n, m, d_k, d_v), mask_spec(n, m)))
}

fn any_head() -> impl Strategy<Value = HeadInput> {
    sizes().prop_flat_map(|(n, m, d_k, d_v)| head(n, m, d_k, d_v))
}

proptest! {
    #![proptest_config(config(256))]

    /// The softmax's entropy from its own sums equals `−Σ a ln a` over its weights (in
    /// f64), for logits from nearly equal to a thousand apart and every mask.
    #[test]
    fn softmax_entropy_from_its_sums_equals_the_per_cell_sum(
        (n, m, logits, mask) in (1usize..9, 1usize..40).prop_flat_map(|(n, m)| {
            (Just(n), Just(m), prop::collection::vec(-1.0f32..1.0, n * m), mask_spec(n, m))
        }),
        scale in prop_oneof![Just(1e-3f32), Just(1.0), Just(30.0), Just(1000.0)],
    ) {
        let logits = Array2::from_shape_vec((n, m), logits.iter().map(|x| x * scale).collect()).unwrap();
        let mask = mask.build(n, m);
        let (weights, entropy) = attnlab_core::softmax::softmax_masked_entropy(&logits, &mask);
        prop_assert_eq!(&weights, &attnlab_core::softmax::softmax_masked(&logits, &mask));
        for (i, row) in weights.rows().into_iter().enumerate() {
            let want = scalar::entropy(&row.to_vec());
            prop_assert!(entropy[i] >= 0.0);
            prop_assert!(
                (entropy[i] - want).abs() <= 2e-5 * want.max(1.0),
                "row {}: {} from the sums, {} per cell (scale {})", i, entropy[i], want, scale
            );
        }
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn simd_dot_matches_scalar(len in lane_length(), seed in any::<u64>()) {
        let a: Vec<f32> = (0..len).map(|i| ((seed.wrapping_add(i as u64) % 97) as f32 - 48.0) / 7.0).collect();
        let b: Vec<f32> = (0..len).map(|i| ((seed.wrapping_mul(31).wrapping_add(3 * i as u64) % 89) as f32 - 44.0) / 5.0).collect();
        let bound: f32 = a.iter().zip(&b).map(|(x, y)| (x * y).abs()).sum::<f32>() * 1e-6 + 1e-6;
        assert_close(kernels::dot(&a, &b), scalar::dot(&a, &b), bound, &format!("dot len {len} ({})", kernels::ACTIVE));
        let mut y1: Vec<f32> = b.clone();
        let mut y2 = b.clone();
        kernels::axpy(0.37, &a, &mut y1);
        scalar::axpy(0.37, &a, &mut y2);
        prop_assert_eq!(y1, y2, "axpy is lane-wise: bit-identical");
        prop_assert_eq!(kernels::max(&a).to_bits(), scalar::max(&a).to_bits());
    }

    #[test]
    fn softmax_rows_sum_to_one_and_masked_cells_are_zero(
        (mut h, spec_mask) in head_and_mask(),
        score in prop::sample::select(ScoreFunction::ALL.to_vec()),
        temperature in prop::sample::select(vec![0.05f32, 0.5, 1.0, 3.0, 100.0]),
    ) {
        let (n, m, d_k) = (h.q.nrows(), h.k.nrows(), h.q.ncols());
        let cfg = ModelConfig { d_model: d_k, heads: 1, ..ModelConfig::default() };
        h.score_params = cfg.score_params(score, 0);
        let spec = AttentionSpec { score, temperature, attention: AttentionKind::Softmax, mask: spec_mask, ..AttentionSpec::default() };
        let p = Problem::new(vec![h], spec, None).unwrap();
        let r = p.compute_head(0).unwrap();
        for i in 0..n {
            let allowed = p.mask().allowed_count(i);
            let sum: f32 = r.weights.row(i).sum();
            if allowed == 0 {
                prop_assert!(r.empty_rows.contains(&i));
                prop_assert!(r.weights.row(i).iter().all(|&a| a == 0.0));
                prop_assert!(r.output.row(i).iter().all(|&o| o == 0.0));
            } else {
                assert_close(sum, 1.0, 1e-5, &format!("row {i} sum"));
            }
            for j in 0..m {
                if !p.mask().get(i, j) {
                    prop_assert_eq!(r.weights[[i, j]], 0.0, "blocked cell ({}, {}) is exactly 0", i, j);
                }
            }
        }
        prop_assert!(r.weights.iter().chain(&r.output).all(|v| v.is_finite()));
    }

    #[test]
    fn recurrent_equals_masked_parallel_and_linear_equals_implied(
        h in any_head(),
        map in prop::sample::select(vec![FeatureMap::Elu1, FeatureMap::Relu, FeatureMap::Taylor]),
        padding in prop::collection::vec(any::<bool>(), 9),
    ) {
        let (n, m) = (h.q.nrows(), h.k.nrows());
        let keep: Vec<bool> = padding[..m].iter().map(|p| !p).collect();
        let pad: Vec<usize> = (0..m).filter(|&j| !keep[j]).collect();
        let phi_q = map.features(&h.q);
        let phi_k = map.features(&h.k);
        for causal in [false, true] {
            let spec = MaskSpec { causal, padding_keys: pad.clone(), ..MaskSpec::default() };
            let mask = spec.build(n, m);
            let implied = linear::implied_from_similarity(&linear::kernel_similarity(&phi_q, &phi_k, &mask));
            let parallel = linear::weights_times_values(&implied, &h.v);
            let fast = if causal {
                linear::kernel_recurrent(&phi_q, &phi_k, &h.v, &keep)
            } else {
                linear::kernel_global(&phi_q, &phi_k, &h.v, &keep)
            };
            // The O(n) denominator φ(q)ᵀΣφ(k) sums terms that can cancel (Taylor's
            // 1 + q̂ᵀk̂ near 0); f32 error grows with κ_i = Σ|φ(q)||φ(k)| / Σ φ(q)ᵀφ(k).
            let v_max = h.v.iter().fold(0.0f32, |a, x| a.max(x.abs()));
            for ((i, c), &x) in fast.indexed_iter() {
                let (mut abs_sum, mut sum) = (0.0f32, 0.0f32);
                for j in (0..m).filter(|&j| mask.get(i, j)) {
                    let (qi, kj) = (phi_q.row(i), phi_k.row(j));
                    abs_sum += qi.iter().zip(kj).map(|(a, b)| (a * b).abs()).sum::<f32>();
                    sum += qi.dot(&kj);
                }
                let kappa = if sum > 0.0 { (abs_sum / sum).max(1.0) } else { 1.0 };
                let tol = 1e-5 * kappa * (1.0 + v_max);
                assert_close(x, parallel[[i, c]], tol, &format!("{map:?} causal={causal} o[{i}][{c}] κ={kappa}"));
            }
        }
    }

    #[test]
    fn efficient_output_equals_implied_times_values(
        h in any_head(),
        padding in prop::collection::vec(prop::bool::weighted(0.3), 9),
    ) {
        let m = h.k.nrows();
        let keep: Vec<bool> = padding[..m].iter().map(|p| !p).collect();
        let (implied, out) = linear::efficient(&h.q, &h.k, &h.v, &keep);
        let av = implied.dot(&h.v);
        for (x, y) in out.iter().zip(&av) {
            assert_close(*x, *y, 1e-5 * (1.0 + y.abs()), "efficient O vs ÂV");
        }
    }
}

fn attention_of(tokens: &[Token], cfg: &ModelConfig) -> Array2<f32> {
    let x = cfg.encode(tokens).unwrap().x;
    let p = cfg.project(&x, &x).unwrap();
    cfg.problem(&p, AttentionSpec::default(), 4)
        .unwrap()
        .compute_head(1)
        .unwrap()
        .weights
        .into_owned()
}

#[test]
fn without_positions_permuting_tokens_permutes_attention() {
    let tokens = tokenize("the quick brown fox jumps over the lazy dog");
    let perm = [3usize, 0, 8, 5, 1, 7, 2, 6, 4];
    let shuffled: Vec<Token> = perm.iter().map(|&i| tokens[i].clone()).collect();
    let mut cfg = ModelConfig {
        d_model: 32,
        heads: 4,
        ..ModelConfig::default()
    };
    cfg.position.kind = PositionKind::None;
    let a = attention_of(&tokens, &cfg);
    let b = attention_of(&shuffled, &cfg);
    let mut worst = 0.0f32;
    for i in 0..9 {
        for j in 0..9 {
            worst = worst.max((b[[i, j]] - a[[perm[i], perm[j]]]).abs());
        }
    }
    assert!(
        worst < 1e-6,
        "bag of words: max |Δ| after un-permuting = {worst}"
    );
    // With sinusoidal positions the same shuffle changes the attention.
    cfg.position.kind = PositionKind::Sinusoidal;
    let a = attention_of(&tokens, &cfg);
    let b = attention_of(&shuffled, &cfg);
    let moved = (0..9)
        .flat_map(|i| (0..9).map(move |j| (i, j)))
        .map(|(i, j)| (b[[i, j]] - a[[perm[i], perm[j]]]).abs())
        .fold(0.0f32, f32::max);
    assert!(moved > 1e-3, "positions break the symmetry: {moved}");
}

/// A temperature or mask change keeps the raw scores: computing a head from the scores
/// of a problem with τ = 1 and no mask gives exactly what computing it afresh gives, for
/// every score function, softmax and Linformer, and the kinds without scores ignore them;
/// `compute_head_weights` gives the same head without the softmax kinds' output.
#[test]
fn raw_scores_kept_across_temperature_and_masks_give_the_same_heads() {
    let cfg = ModelConfig {
        d_model: 16,
        heads: 2,
        ..ModelConfig::default()
    };
    let x = cfg.encode(&tokenize("the cat sat on the mat")).unwrap().x;
    let p = cfg.project(&x, &x).unwrap();
    let masks = [
        MaskSpec::default(),
        MaskSpec {
            causal: true,
            window: Some(1),
            ..MaskSpec::default()
        },
    ];
    for attention in AttentionKind::ALL {
        for score in ScoreFunction::ALL {
            let plain = AttentionSpec {
                attention,
                score,
                ..AttentionSpec::default()
            };
            let scored = cfg.problem(&p, plain.clone(), 3).unwrap();
            for (temperature, mask) in [0.3, 1.0, 7.5].into_iter().zip(masks.iter().cycle()) {
                let spec = AttentionSpec {
                    temperature,
                    mask: mask.clone(),
                    ..plain.clone()
                };
                let Ok(problem) = cfg.problem(&p, spec, 3) else {
                    continue; // a mask this kind cannot honour
                };
                for h in 0..2 {
                    let raw = scored.raw_scores(h).unwrap();
                    let uses_scores =
                        matches!(attention, AttentionKind::Softmax | AttentionKind::Linformer);
                    assert_eq!(raw.is_some(), uses_scores, "{attention:?}");
                    let whole = problem.compute_head(h).unwrap();
                    assert_eq!(
                        problem.compute_head_scored(h, raw.as_ref()).unwrap(),
                        whole,
                        "{attention:?} {score:?} τ = {temperature} head {h}"
                    );
                    // Without the output: the same head, and no output only where the
                    // weights do not come from it.
                    let weights = problem.compute_head_weights(h, raw.as_ref()).unwrap();
                    let expected_output = if uses_scores {
                        Array2::zeros((0, 0))
                    } else {
                        whole.output.clone()
                    };
                    assert_eq!(
                        weights,
                        HeadResult {
                            output: expected_output,
                            ..whole
                        },
                        "weights only: {attention:?} {score:?} τ = {temperature} head {h}"
                    );
                }
            }
        }
    }
    // The scores given are the ones used (all zero: every row uniform), and scores of
    // another shape are not used.
    let problem = cfg.problem(&p, AttentionSpec::default(), 3).unwrap();
    let zeros = ndarray::ArcArray2::zeros((6, 6));
    let uniform = problem.compute_head_scored(0, Some(&zeros)).unwrap();
    assert!(
        uniform
            .weights
            .iter()
            .all(|&w| (w - 1.0 / 6.0).abs() < 1e-6)
    );
    let wrong = ndarray::ArcArray2::zeros((2, 2));
    assert_eq!(
        problem.compute_head_scored(0, Some(&wrong)).unwrap(),
        problem.compute_head(0).unwrap()
    );
}

#[test]
fn every_kind_reports_how_it_computed() {
    let cfg = ModelConfig {
        d_model: 16,
        heads: 2,
        ..ModelConfig::default()
    };
    let x = cfg.encode(&tokenize("a b c d e")).unwrap().x;
    let p = cfg.project(&x, &x).unwrap();
    let run = |attention, mask| {
        let spec = AttentionSpec {
            attention,
            mask,
            ..AttentionSpec::default()
        };
        cfg.problem(&p, spec, 3)
            .unwrap()
            .compute_head(0)
            .unwrap()
            .computation
    };
    let none = MaskSpec::default();
    let causal = MaskSpec {
        causal: true,
        ..MaskSpec::default()
    };
    let window = MaskSpec {
        window: Some(1),
        ..MaskSpec::default()
    };
    assert_eq!(
        run(AttentionKind::Softmax, none.clone()),
        Computation::Quadratic
    );
    assert_eq!(
        run(AttentionKind::Elu1, none.clone()),
        Computation::LinearGlobal
    );
    assert_eq!(
        run(AttentionKind::Relu, causal),
        Computation::LinearRecurrent
    );
    assert_eq!(
        run(AttentionKind::Taylor, window),
        Computation::LinearMaskedQuadratic
    );
    assert_eq!(
        run(AttentionKind::Efficient, none.clone()),
        Computation::Efficient
    );
    assert_eq!(run(AttentionKind::Linformer, none), Computation::Linformer);
}

#[test]
fn forbidden_masks_are_errors_not_silently_ignored() {
    let h = HeadInput::new(
        Array2::ones((2, 2)),
        Array2::ones((2, 2)),
        Array2::ones((2, 2)),
    );
    for (attention, mask, name) in [
        (
            AttentionKind::Efficient,
            MaskSpec {
                causal: true,
                ..MaskSpec::default()
            },
            "causal",
        ),
        (
            AttentionKind::Efficient,
            MaskSpec {
                window: Some(1),
                ..MaskSpec::default()
            },
            "window",
        ),
        (
            AttentionKind::Linformer,
            MaskSpec {
                padding_keys: vec![0],
                ..MaskSpec::default()
            },
            "padding_keys",
        ),
    ] {
        let spec = AttentionSpec {
            attention,
            mask,
            ..AttentionSpec::default()
        };
        let e = Problem::new(vec![h.clone()], spec, None).unwrap_err();
        assert_eq!(e.path(), format!("mask.{name}"));
    }
}

#[test]
fn zero_vectors_never_give_nan() {
    let z = Array2::zeros((3, 4));
    for attention in AttentionKind::ALL {
        for score in ScoreFunction::ALL {
            let cfg = ModelConfig {
                d_model: 4,
                heads: 1,
                ..ModelConfig::default()
            };
            let mut h = HeadInput::new(z.clone(), z.clone(), Array2::ones((3, 2)));
            h.score_params = cfg.score_params(score, 0);
            h.linformer = Some(cfg.linformer_params(2, 3, 0));
            let spec = AttentionSpec {
                score,
                attention,
                ..AttentionSpec::default()
            };
            let r = Problem::new(vec![h], spec, None)
                .unwrap()
                .compute()
                .unwrap();
            let label = format!("{}/{}", attention.name(), score.name());
            assert!(r.heads[0].weights.iter().all(|v| v.is_finite()), "{label}");
            assert!(r.output.iter().all(|v| v.is_finite()), "{label}");
        }
    }
}

#[test]
fn a_missing_head_is_an_error() {
    let h = HeadInput::new(
        Array2::ones((2, 2)),
        Array2::ones((2, 2)),
        Array2::ones((2, 2)),
    );
    let p = Problem::new(vec![h], AttentionSpec::default(), None).unwrap();
    assert_eq!(p.compute_head(1).unwrap_err().path(), "head");
}

#[test]
fn overflowing_inputs_are_an_error_not_nan() {
    let big = Array2::from_elem((2, 2), 3e38f32);
    let spec = AttentionSpec {
        score: ScoreFunction::Dot,
        ..AttentionSpec::default()
    };
    let e = Problem::new(
        vec![HeadInput::new(big.clone(), big.clone(), big)],
        spec,
        None,
    )
    .unwrap()
    .compute()
    .unwrap_err();
    assert_eq!(e.path(), "heads[0]");
}

#[test]
fn full_and_masked_softmax_paths_agree() {
    let logits = Array2::from_shape_fn((5, 7), |(i, j)| ((i * 7 + j) as f32 * 0.37).sin() * 4.0);
    let a = attnlab_core::softmax::softmax_masked(&logits, &Mask::full(5, 7));
    let mut mostly = Array2::from_elem((5, 7), true);
    mostly[[4, 6]] = false; // forces the masked path
    let b = attnlab_core::softmax::softmax_masked(&logits, &Mask::from_array(mostly));
    for i in 0..4 {
        for j in 0..7 {
            assert_close(a[[i, j]], b[[i, j]], 1e-7, "full vs masked path");
        }
    }
}

/// Editing a sentence (a character appended, a word inserted or removed, the text
/// replaced) and computing the new scores from the old ones where queries and keys are
/// unchanged gives exactly the scores computed afresh, for every score function; other
/// kinds, and a change of score function, compute afresh.
#[test]
fn scores_kept_across_an_edit_are_the_scores_computed_afresh() {
    let cfg = ModelConfig {
        d_model: 24,
        heads: 3,
        ..ModelConfig::default()
    };
    let texts = [
        "the cat sat on the mat because it was warm",
        "the cat sat on the mat because it was warmer",
        "the cat sat on the mat because it was warmer and",
        "the cat sat on a mat because it was warmer and",
        "the cat sat on the old mat because it was warm",
        "cat sat on the mat",
        "",
        "a dog",
    ];
    let project = |text: &str| {
        let x = cfg.encode(&tokenize(text)).unwrap().x;
        cfg.project(&x, &x).unwrap()
    };
    for attention in AttentionKind::ALL {
        for score in ScoreFunction::ALL {
            let spec = AttentionSpec {
                attention,
                score,
                ..AttentionSpec::default()
            };
            for pair in texts.windows(2) {
                let (Ok(before), Ok(after)) = (
                    cfg.problem(&project(pair[0]), spec.clone(), 3),
                    cfg.problem(&project(pair[1]), spec.clone(), 3),
                ) else {
                    continue;
                };
                for h in 0..3 {
                    let Some(raw) = before.raw_scores(h).unwrap() else {
                        continue;
                    };
                    assert_eq!(
                        after.raw_scores_after(h, &before, &raw).unwrap(),
                        after.raw_scores(h).unwrap(),
                        "{attention:?} {score:?} head {h}: {:?} → {:?}",
                        pair[0],
                        pair[1]
                    );
                    // Scores of another function are not reused.
                    let other = AttentionSpec {
                        score: ScoreFunction::Cosine,
                        ..spec.clone()
                    };
                    if score != ScoreFunction::Cosine
                        && let Ok(cosine) = cfg.problem(&project(pair[1]), other, 3)
                    {
                        assert_eq!(
                            cosine.raw_scores_after(h, &before, &raw).unwrap(),
                            cosine.raw_scores(h).unwrap()
                        );
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Any rows of Q and K kept from an earlier pair, shapes near the earlier ones (tails
    /// of the SIMD blocks and panels, and both kernels, included): the kept entries plus
    /// the computed ones are the scores computed afresh, bit for bit.
    #[test]
    fn scores_reusing_equals_scores_for_any_kept_rows(
        (q0, k0, q1, k1, keep_q, keep_k) in (1usize..80, 1usize..80, 0usize..3, 0usize..5, 1usize..9)
            .prop_flat_map(|(n0, m0, dn, dm, d)| {
                // Near the old shape (an edit), either side of the 64 queries from which
                // the SIMD128 kernel packs the keys.
                let (n1, m1) = ((n0 + dn).saturating_sub(1).max(1), (m0 + dm).saturating_sub(2).max(1));
                (
                    matrix(n0, d), matrix(m0, d), matrix(n1, d), matrix(m1, d),
                    prop::collection::vec(prop::bool::weighted(0.8), n1),
                    prop::collection::vec(prop::bool::weighted(0.8), m1),
                )
            }),
        function in prop::sample::select(ScoreFunction::ALL.to_vec()),
    ) {
        let d = q0.ncols();
        let params = match function {
            ScoreFunction::General => ScoreParams::General {
                w: Array2::from_shape_fn((d, d), |(i, j)| ((i * 7 + j * 3) % 5) as f32 * 0.3 - 0.6),
            },
            ScoreFunction::Additive => ScoreParams::Additive {
                w_a: Array2::from_shape_fn((d, d), |(i, j)| ((i + 2 * j) % 3) as f32 * 0.5 - 0.5),
                u_a: Array2::from_shape_fn((d, d), |(i, j)| ((3 * i + j) % 4) as f32 * 0.25 - 0.4),
                v_a: ndarray::Array1::from_shape_fn(d, |i| (i % 3) as f32 - 1.0),
            },
            _ => ScoreParams::None,
        };
        // Rows the new matrices take from the old ones.
        let (mut q1, mut k1) = (q1, k1);
        for (i, keep) in keep_q.iter().enumerate() {
            if *keep && i < q0.nrows() {
                q1.row_mut(i).assign(&q0.row(i));
            }
        }
        for (j, keep) in keep_k.iter().enumerate() {
            if *keep && j < k0.nrows() {
                k1.row_mut(j).assign(&k0.row(j));
            }
        }
        let s0 = score::scores(function, &q0, &k0, &params);
        let reused = score::scores_reusing(function, &q1, &k1, &params, (&q0, &k0, &s0));
        prop_assert_eq!(reused, score::scores(function, &q1, &k1, &params));
    }
}

/// Projecting an edited sentence from the projections before the edit gives exactly the
/// projections computed afresh, for short sentences and long ones (either side of the 64
/// rows from which the SIMD128 kernel packs), self- and cross-attention.
#[test]
fn projections_kept_across_an_edit_are_the_projections_computed_afresh() {
    let words = [
        "the", "cat", "sat", "on", "a", "warm", "mat", "and", "slept",
    ];
    let sentence = |n: usize, last: &str| {
        let mut t: Vec<&str> = (0..n).map(|i| words[i % words.len()]).collect();
        t.push(last);
        t.join(" ")
    };
    let texts = [
        sentence(2, "do"),
        sentence(2, "dog"),
        sentence(3, "dog"),
        sentence(62, "b"),
        sentence(62, "bi"),
        sentence(63, "bird"),
        sentence(64, "bird"),
        sentence(70, "bird"),
        sentence(70, "birds"),
        sentence(69, "birds"),
        "another sentence entirely".to_string(),
    ];
    for cfg in [
        ModelConfig {
            d_model: 32,
            heads: 2,
            ..ModelConfig::default()
        },
        ModelConfig::default(),
    ] {
        let weights = cfg.projection_weights().unwrap();
        let x = |t: &str| cfg.encode(&tokenize(t)).unwrap().x;
        let source = x("a fixed source sentence");
        for pair in texts.windows(2) {
            let (x0, x1) = (x(&pair[0]), x(&pair[1]));
            let before = cfg.project_with(weights.as_ref(), &x0, &x0).unwrap();
            assert_eq!(
                cfg.project_after(weights.as_ref(), &x1, &x1, (&x0, &x0, &before))
                    .unwrap(),
                cfg.project_with(weights.as_ref(), &x1, &x1).unwrap(),
                "{:?} → {:?}",
                pair[0],
                pair[1]
            );
            // Cross-attention: the keys' sentence unchanged, the queries' edited.
            let before = cfg.project_with(weights.as_ref(), &x0, &source).unwrap();
            assert_eq!(
                cfg.project_after(weights.as_ref(), &x1, &source, (&x0, &source, &before))
                    .unwrap(),
                cfg.project_with(weights.as_ref(), &x1, &source).unwrap()
            );
        }
    }
}

/// Encoding an edited sentence from its encoding before the edit gives exactly the
/// encoding computed afresh, for every kind of position and both ways of combining.
#[test]
fn encodings_kept_across_an_edit_are_the_encodings_computed_afresh() {
    let texts = [
        "the cat",
        "the cat sat",
        "the cat sat on the mat",
        "the dog sat on the mat",
        "the",
        "",
        "a cat sat on a mat and slept",
    ];
    for kind in [
        PositionKind::None,
        PositionKind::Sinusoidal,
        PositionKind::Learned,
    ] {
        for combine in [Combine::Add, Combine::Concat { d_pos: 8 }] {
            let mut cfg = ModelConfig {
                d_model: 16,
                heads: 2,
                ..ModelConfig::default()
            };
            cfg.position.kind = kind;
            cfg.position.combine = combine;
            for pair in texts.windows(2) {
                let (t0, t1) = (tokenize(pair[0]), tokenize(pair[1]));
                let e0 = cfg.encode(&t0).unwrap();
                assert_eq!(
                    cfg.encode_after(&t1, (&t0, &e0)).unwrap(),
                    cfg.encode(&t1).unwrap(),
                    "{kind:?} {combine:?}: {:?} → {:?}",
                    pair[0],
                    pair[1]
                );
            }
        }
    }
}
