use attnlab_core::block::Activation;
use attnlab_i18n::Lang;
use attnlab_lab::LabState;
use attnlab_lab::compute::{self, Pipeline};
use attnlab_lab::state::{BlockView, Mode, Norm};

use super::*;

/// The block page's run on `state`: its encodings and result.
fn run_on(state: &LabState) -> (Encoded, Result<BlockRun, CoreError>) {
    with_input(state, |encoded, input| (encoded.clone(), run(input))).unwrap()
}

fn with(view: BlockView) -> LabState {
    let mut state = LabState::default();
    state.view.block = view;
    state
}

#[test]
fn post_ln_and_pre_ln_differ_and_post_ln_keeps_every_token_at_norm_root_d() {
    let post = run_on(&with(BlockView::default())).1.unwrap();
    let pre = run_on(&with(BlockView {
        norm: Norm::Pre,
        ..BlockView::default()
    }))
    .1
    .unwrap();
    let (a, b) = (residual_norms(&post), residual_norms(&pre));
    assert_eq!(a.dim(), (3, 11));
    assert_eq!(a.row(0), b.row(0), "both start from the same X");
    assert!(largest_difference(&a, &b) > 0.1);
    // LN with gain 1 and bias 0: mean 0, variance ≈ 1, so ‖x‖ ≈ √d = 8.
    for &v in a.row(2) {
        assert!((v - 8.0).abs() < 1e-2, "{v}");
    }
}

#[test]
fn the_feed_forward_follows_the_permutation_exactly_and_attention_does_not() {
    for mode in [Mode::SelfAttention, Mode::Cross] {
        for activation in Activation::ALL {
            let mut state = with(BlockView {
                activation,
                ..BlockView::default()
            });
            state.set_mode(mode);
            let (encoded, r) = run_on(&state);
            let check = permutation(&r.unwrap(), &encoded).unwrap();
            assert_eq!(check.ffn, 0.0, "{mode:?} {activation:?}");
            assert!(check.attention > 1e-2, "{mode:?}: {}", check.attention);
            assert!(!check.no_positions);
        }
    }
}

#[test]
fn any_shuffle_moves_the_feed_forwards_rows_and_the_figures_are_labelled_in_its_order() {
    let state = LabState::default();
    let (encoded, r) = run_on(&state);
    let r = r.unwrap();
    let n = r.used.tokens.0;
    for draw in 0..5 {
        let order = crate::positions::Permutation::shuffled(n, n, state.model.seed, draw)
            .order()
            .to_vec();
        let check = permutation_in(&r, &encoded, &order).unwrap();
        assert_eq!(check.order, order);
        assert_eq!(check.ffn, 0.0, "draw {draw}");
        assert_eq!(check.ffn_of_shuffled, check.shuffled_ffn);
        assert!(check.attention > 1e-2, "draw {draw}: {}", check.attention);
        let figures = permutation_figures(&check, &r.queries, Lang::En).unwrap();
        for f in &figures {
            let rows: Vec<&String> = order.iter().map(|&i| &r.queries[i]).collect();
            assert_eq!(f.row_labels().iter().collect::<Vec<_>>(), rows);
        }
        assert_eq!(
            figures[0].values(),
            figures[1].values(),
            "the feed-forward's pair is equal"
        );
        assert_ne!(
            figures[2].values(),
            figures[3].values(),
            "attention's pair is not"
        );
    }
    // Not a permutation of the run's tokens: the sentence backwards.
    let check = permutation_in(&r, &encoded, &[0, 0, 1]).unwrap();
    assert_eq!(check.order, (0..n).rev().collect::<Vec<_>>());
}

#[test]
fn without_positions_or_a_mask_attention_follows_the_shuffle_up_to_rounding() {
    let mut state = LabState::default();
    state.model.position.kind = attnlab_core::position::PositionKind::None;
    let (encoded, r) = run_on(&state);
    let check = permutation(&r.unwrap(), &encoded).unwrap();
    assert!(check.no_positions);
    assert_eq!(check.ffn, 0.0);
    assert!(check.attention < 1e-4, "{}", check.attention);
}

#[test]
fn the_decoders_self_attention_is_causal_its_cross_attention_is_not_and_rows_sum_to_one() {
    let mut state = with(BlockView {
        layers: 3,
        heads: 2,
        shown: 2,
        ..BlockView::default()
    });
    state.set_mode(Mode::Cross);
    let r = run_on(&state).1.unwrap();
    assert!(r.is_decoder());
    let (n, m) = (r.queries.len(), r.keys.len());
    assert_eq!((n, m), (4, 6));
    let figures = heads(&r, r.used.shown, Lang::En).unwrap();
    assert_eq!(figures.len(), 4, "two self heads, two cross heads");
    for (kind, fig) in &figures {
        for i in 0..fig.n_rows() {
            let sum: f32 = (0..fig.n_cols()).map(|j| fig.value(i, j).unwrap()).sum();
            assert!((sum - 1.0).abs() < 1e-5, "{kind:?} row {i}: {sum}");
            for j in 0..fig.n_cols() {
                let w = fig.value(i, j).unwrap();
                match kind {
                    SublayerKind::SelfAttention if j > i => {
                        assert_eq!(w, 0.0);
                        assert!(fig.is_blocked(i, j));
                    }
                    _ => {
                        assert!(w > 0.0, "{kind:?} ({i}, {j})");
                        assert!(!fig.is_blocked(i, j));
                    }
                }
            }
        }
    }
    let mem = memory(&r, Lang::En).unwrap().unwrap();
    assert_eq!((mem.n_rows(), mem.n_cols()), (6, 64));
    assert!(memory(&run_on(&LabState::default()).1.unwrap(), Lang::En).is_none());
    let subs = sublayers(&r, 2, Lang::En).unwrap();
    let kinds: Vec<_> = subs.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            SublayerKind::SelfAttention,
            SublayerKind::CrossAttention,
            SublayerKind::FeedForward
        ]
    );
    assert_eq!(subs[1].input.n_rows(), 4);
}

#[test]
fn the_encoders_heads_rows_sum_to_one_over_every_key() {
    let r = run_on(&LabState::default()).1.unwrap();
    let figures = heads(&r, 1, Lang::En).unwrap();
    assert_eq!(figures.len(), 4);
    for (_, fig) in &figures {
        assert!(!fig.has_blocked());
        for i in 0..fig.n_rows() {
            let sum: f32 = (0..fig.n_cols()).map(|j| fig.value(i, j).unwrap()).sum();
            assert!((sum - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn heads_that_do_not_divide_d_are_refused_not_a_panic() {
    let r = run_on(&with(BlockView {
        heads: 5,
        ..BlockView::default()
    }))
    .1;
    assert!(r.is_err());
    let state = LabState {
        text: String::new(),
        ..LabState::default()
    };
    let pipeline = Pipeline::new(&state);
    let encoded = compute::encode(&state.model, pipeline.queries()).unwrap();
    let input = BlockInput {
        queries: (&encoded, &[]),
        source: None,
        seed: 1,
        settings: &state.view.block,
    };
    assert!(run(&input).is_err(), "no tokens: refused");
}

#[test]
fn settings_out_of_range_are_kept_within_the_choices() {
    let u = used(
        &BlockView {
            layers: 40,
            shown: 9,
            ffn_multiple: 3,
            ..BlockView::default()
        },
        64,
        11,
        None,
    );
    assert_eq!((u.layers, u.shown, u.ffn_width), (6, 5, 256));
    let u = used(
        &BlockView {
            layers: 0,
            ..BlockView::default()
        },
        64,
        11,
        None,
    );
    assert_eq!((u.layers, u.shown), (1, 0));
}

#[test]
fn the_work_budget_runs_six_layers_on_512_tokens_at_d_64_and_cuts_larger_runs() {
    let six = BlockView {
        layers: 6,
        ..BlockView::default()
    };
    let u = used(&six, 64, 512, None);
    assert_eq!(u.tokens, (512, 512));
    assert!(!u.limited());
    let u = used(&six, 512, 512, Some(512));
    assert!(u.limited());
    let t = u.tokens.0;
    assert!(work(6, t, Some(t), 512, 2048) <= WORK_BUDGET);
    assert!(work(6, t + 1, Some(t + 1), 512, 2048) > WORK_BUDGET);
}

#[test]
fn every_figure_is_built_in_both_languages() {
    let mut state = LabState::default();
    state.set_mode(Mode::Cross);
    let r = run_on(&state).1.unwrap();
    for lang in Lang::ALL {
        assert_eq!(sublayers(&r, 0, lang).unwrap().len(), 3);
        let res = residual(&r, lang).unwrap();
        assert_eq!((res.n_rows(), res.n_cols()), (3, 4));
    }
}

#[test]
fn pre_ln_lets_the_stream_grow_layer_after_layer() {
    let r = run_on(&with(BlockView {
        layers: 6,
        norm: Norm::Pre,
        ..BlockView::default()
    }))
    .1
    .unwrap();
    let norms = residual_norms(&r);
    let means: Vec<f32> = norms
        .rows()
        .into_iter()
        .map(|row| row.mean().unwrap())
        .collect();
    assert!(means.windows(2).all(|w| w[1] > w[0]), "{means:?}");
}
