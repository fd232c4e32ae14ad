use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput};
use ndarray::array;

use super::*;
use crate::steps::{StageKind, StepsInput, steps};
use attnlab_lab::compute::{self, Pipeline};
use attnlab_lab::state::{LabState, Mode};

/// The stage `kind`'s value at `(i, j)` on the step-by-step page of variant 0.
fn step_value(state: &LabState, head: usize, kind: StageKind, i: usize, j: usize) -> f32 {
    let p = Pipeline::new(state);
    let queries = p.queries().labels();
    let keys = p.keys().labels();
    let encoded = compute::encode(&state.model, p.queries()).unwrap();
    let problem = p.variant(0).unwrap().problem;
    let input = StepsInput {
        model: &state.model,
        variant: &state.variants[0],
        mode: state.mode,
        encoded: Some(&encoded),
        problem: &problem,
        unturned: None,
        queries: &queries,
        keys: &keys,
    };
    let stages = steps(&input, head, i, attnlab_i18n::Lang::En).unwrap();
    let stage = stages.iter().find(|s| s.kind == kind).unwrap();
    stage.values[[i, j]]
}

fn close(a: f32, b: f32, what: &str) {
    assert!(
        (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
        "{what}: {a} vs {b}"
    );
}

/// Every cell of heads 0 and 2 of variant 0: the sum of the products is the page's raw
/// score (`kind`), and the weight is the lab's.
fn check_every_cell(state: &LabState, kind: StageKind) {
    let run = Pipeline::new(state).variant(0).unwrap();
    for head in [0, 2] {
        let weights = &run.heads[head].weights;
        let (n, m) = weights.dim();
        for i in [0, 3, n - 1] {
            for j in 0..m {
                let view = neuron(&run.problem, head, i, j).unwrap();
                let what = format!("{:?} head {head} ({i}, {j})", view.form);
                // The page shows a blocked similarity as 0; the view keeps its value.
                if view.is_allowed() || kind != StageKind::Similarity {
                    close(view.sum, step_value(state, head, kind, i, j), &what);
                }
                close(view.sum, view.row_scores[j], &what);
                assert!((view.weight - weights[[i, j]]).abs() <= 1e-6, "{what}");
                let sum: f32 = view.products.iter().sum();
                close(sum, view.sum, &what);
            }
        }
    }
}

#[test]
fn every_score_function_sums_to_the_step_pages_raw_score_and_weighs_as_the_lab() {
    for score in ScoreFunction::ALL {
        let mut state = LabState::default();
        state.variants[0].score = score;
        state.variants[0].temperature = 0.6;
        check_every_cell(&state, StageKind::Scores);
        // With a mask: blocked cells weigh 0, the others renormalise.
        state.variants[0].masks.causal = true;
        check_every_cell(&state, StageKind::Scores);
    }
}

#[test]
fn kernels_sum_to_the_similarity_and_divide_by_the_row() {
    for kind in [
        AttentionKind::Elu1,
        AttentionKind::Relu,
        AttentionKind::Taylor,
    ] {
        for causal in [false, true] {
            let mut state = LabState::default();
            state.variants[0].attention = kind;
            state.variants[0].masks.causal = causal;
            check_every_cell(&state, StageKind::Similarity);
            let run = Pipeline::new(&state).variant(0).unwrap();
            let view = neuron(&run.problem, 1, 4, 2).unwrap();
            let Normalisation::Kernel { normaliser } = view.normalisation else {
                panic!("{kind:?} normalises by the row");
            };
            close(view.weight, view.sum / normaliser, "α = s / Σ s");
        }
    }
}

#[test]
fn efficient_and_linformer_decompose_too() {
    let mut state = LabState::default();
    state.variants[0].attention = AttentionKind::Efficient;
    check_every_cell(&state, StageKind::Implied);
    let run = Pipeline::new(&state).variant(0).unwrap();
    let view = neuron(&run.problem, 0, 2, 5).unwrap();
    assert_eq!(view.form, Form::Efficient);
    close(view.sum, view.weight, "efficient: the sum is the weight");

    state.variants[0].attention = AttentionKind::Linformer;
    let run = Pipeline::new(&state).variant(0).unwrap();
    let k = run.heads[0].weights.ncols();
    for j in 0..k {
        let view = neuron(&run.problem, 0, 7, j).unwrap();
        assert!(view.projected_keys);
        close(
            view.sum,
            step_value(&state, 0, StageKind::Scores, 7, j),
            "Linformer",
        );
        assert!((view.weight - run.heads[0].weights[[7, j]]).abs() <= 1e-6);
    }
    assert!(neuron(&run.problem, 0, 7, k).is_err());
}

#[test]
fn cross_attention_reads_the_sources_keys() {
    let mut state = LabState::default();
    state.set_mode(Mode::Cross);
    state.variants[0].score = ScoreFunction::Additive;
    check_every_cell(&state, StageKind::Scores);
}

#[test]
fn hand_checked_forms() {
    // q = (1, 2), k = (3, 4): products (3, 8), sum 11.
    let head = |score_params| {
        let mut h = HeadInput::new(
            array![[1.0f32, 2.0]],
            array![[3.0f32, 4.0], [0.0, 0.0]],
            array![[1.0f32], [1.0]],
        );
        h.score_params = score_params;
        h
    };
    let spec = |score| AttentionSpec {
        score,
        ..AttentionSpec::default()
    };
    let p = Problem::new(
        vec![head(ScoreParams::None)],
        spec(ScoreFunction::ScaledDot),
        None,
    )
    .unwrap();
    let v = neuron(&p, 0, 0, 0).unwrap();
    assert_eq!((v.products.clone(), v.sum), (vec![3.0, 8.0], 11.0));
    // Logits 11/√2 and 0: α = 1 / (1 + e^(−11/√2)).
    let expected = 1.0 / (1.0 + (-11.0f32 / 2f32.sqrt()).exp());
    assert!((v.weight - expected).abs() < 1e-6);
    assert_eq!(v.order(Order::Magnitude), [1, 0]);
    assert_eq!(v.order(Order::Dimension), [0, 1]);

    // Cosine: q̂ = (1, 2)/√5, k̂ = (3, 4)/5; the zero key scores 0 (no NaN).
    let p = Problem::new(
        vec![head(ScoreParams::None)],
        spec(ScoreFunction::Cosine),
        None,
    )
    .unwrap();
    let v = neuron(&p, 0, 0, 0).unwrap();
    assert_eq!(
        v.form,
        Form::Cosine {
            q_norm: 5f32.sqrt(),
            k_norm: 5.0
        }
    );
    assert!((v.sum - 11.0 / (5.0 * 5f32.sqrt())).abs() < 1e-6);
    let zero = neuron(&p, 0, 0, 1).unwrap();
    assert_eq!(zero.sum, 0.0);
    assert!(zero.products.iter().all(|x| x.is_finite()));

    // General with W = [[0, 1], [1, 0]]: q W = (2, 1), products (6, 4), sum 10.
    let w = array![[0.0f32, 1.0], [1.0, 0.0]];
    let p = Problem::new(
        vec![head(ScoreParams::General { w })],
        spec(ScoreFunction::General),
        None,
    )
    .unwrap();
    let v = neuron(&p, 0, 0, 0).unwrap();
    assert_eq!((v.left.clone(), v.sum), (vec![2.0, 1.0], 10.0));

    // Additive with W = U = I, v = (1, −1): tanh(4)·1 + tanh(6)·(−1).
    let params = ScoreParams::Additive {
        w_a: Array2::eye(2),
        u_a: Array2::eye(2),
        v_a: array![1.0, -1.0],
    };
    let p = Problem::new(vec![head(params)], spec(ScoreFunction::Additive), None).unwrap();
    let v = neuron(&p, 0, 0, 0).unwrap();
    assert_eq!(v.right, vec![1.0, -1.0]);
    assert!((v.sum - (4f32.tanh() - 6f32.tanh())).abs() < 1e-6);
}

#[test]
fn cells_outside_the_matrix_are_errors() {
    let state = LabState::default();
    let run = Pipeline::new(&state).variant(0).unwrap();
    assert!(neuron(&run.problem, 9, 0, 0).is_err());
    assert!(neuron(&run.problem, 0, 11, 0).is_err());
    assert!(neuron(&run.problem, 0, 0, 11).is_err());
    let mut state = LabState::default();
    state.variants[0].masks.causal = true;
    let run = Pipeline::new(&state).variant(0).unwrap();
    let blocked = neuron(&run.problem, 0, 2, 5).unwrap();
    assert!(!blocked.is_allowed());
    assert_eq!(blocked.weight, 0.0);
}

#[test]
fn every_kind_reads_its_own_weight_not_softmaxs() {
    for kind in AttentionKind::EVERY {
        let mut state = LabState::default();
        state.variants[0].attention = kind;
        let problem = Pipeline::new(&state).variant(0).unwrap().problem;
        let computed = problem.compute_head(1).unwrap();
        let cell = neuron(&problem, 1, 7, 3).unwrap();
        if kind == AttentionKind::Linformer {
            continue;
        }
        assert!(
            (cell.weight - computed.weights[[7, 3]]).abs() < 1e-6,
            "{kind:?}: {} vs {}",
            cell.weight,
            computed.weights[[7, 3]]
        );
    }
    // Softmax after a softcap reads the capped weights, said as the core's.
    let mut state = LabState::default();
    state.variants[0].softcap = Some(0.5);
    let problem = Pipeline::new(&state).variant(0).unwrap().problem;
    let cell = neuron(&problem, 0, 2, 5).unwrap();
    let computed = problem.compute_head(0).unwrap();
    assert_eq!(cell.weight, computed.weights[[2, 5]]);
    let last = cell.steps(Lang::En).pop().unwrap();
    assert!(
        last.contains("turns the row's logits into weights in its own way"),
        "{last}"
    );
}
