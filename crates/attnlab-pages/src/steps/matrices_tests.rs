//! The stages against the lab's own computations, for every family and mode.

use super::super::stages::Axis;
use super::*;
use attnlab_core::attention::AttentionKind;
use attnlab_lab::compute::Pipeline;
use attnlab_lab::state::LabState;

fn run(state: &LabState, variant: usize, head: usize, query: usize) -> Vec<Stage> {
    let p = Pipeline::new(state);
    let queries = p.queries().labels();
    let v = &state.variants[variant];
    let keys = p.keys().labels();
    let encoded = compute::encode(&state.model, p.queries()).unwrap();
    let problem = p.variant(variant).unwrap().problem;
    let input = StepsInput {
        model: &state.model,
        variant: v,
        mode: state.mode,
        encoded: Some(&encoded),
        problem: &problem,
        unturned: None,
        queries: &queries,
        keys: &keys,
    };
    steps(&input, head, query, Lang::En).unwrap()
}

fn stage(stages: &[Stage], kind: StageKind) -> &Stage {
    stages.iter().find(|s| s.kind == kind).unwrap()
}

#[test]
fn softmax_stages_match_the_lab_exactly() {
    let mut state = LabState::default();
    state.variants[0].masks.causal = true;
    state.variants[0].temperature = 0.7;
    for head in 0..4 {
        let stages = run(&state, 0, head, 7);
        let kinds: Vec<StageKind> = stages.iter().map(|s| s.kind).collect();
        use StageKind::*;
        assert_eq!(
            kinds,
            [
                Input, Queries, Keys, Values, Scores, Scaled, Masked, Softmax, HeadOutput, Output
            ]
        );
        let r = Pipeline::new(&state).variant(0).unwrap();
        assert_eq!(stage(&stages, Softmax).values, r.heads[head].weights);
        assert_eq!(stage(&stages, HeadOutput).values, r.heads[head].output);
        assert_eq!(
            stage(&stages, Output).values,
            r.problem.combine(&r.heads).unwrap()
        );
        // Scaled = raw / √d_k / τ (d_k = 16).
        let raw = &stage(&stages, Scores).values;
        let scaled = &stage(&stages, Scaled).values;
        assert!((scaled[[3, 2]] - raw[[3, 2]] / 4.0 / 0.7).abs() < 1e-5);
        assert_eq!(stage(&stages, Softmax).highlight, Some(7));
        assert_eq!(stage(&stages, Keys).highlight, None);
    }
}

#[test]
fn masked_stage_reads_minus_infinity_and_rows_sum_to_one() {
    let mut state = LabState::default();
    state.variants[0].masks.causal = true;
    let stages = run(&state, 0, 1, 2);
    let masked = stage(&stages, StageKind::Masked);
    assert!(masked.is_blocked(2, 3) && !masked.is_blocked(2, 2));
    let text = masked.row_text(2, 3).unwrap();
    assert_eq!(text.matches("\u{2212}\u{221e}").count(), 8, "{text}");
    assert!(
        text.starts_with("The ") && text.contains("animal "),
        "{text}"
    );
    assert!(text.ends_with("tired \u{2212}\u{221e}"), "{text}");
    let q = stage(&stages, StageKind::Queries).row_text(2, 2).unwrap();
    assert_eq!(
        q.split(", ").count(),
        16,
        "dimensions are not labelled: {q}"
    );
    assert!(!q.chars().any(char::is_alphabetic), "{q}");
    assert!(masked.formula.contains("\u{2264}"), "causal j ≤ i shown");
    let soft = stage(&stages, StageKind::Softmax);
    let row: f32 = soft.row_values(2).unwrap().iter().flatten().sum();
    assert!((row - 1.0).abs() < 1e-6);
    assert!(soft.heatmap("t", Lang::En).unwrap().is_blocked(2, 3));
}

#[test]
fn linear_variants_show_feature_maps_and_match_the_lab() {
    for kind in [
        AttentionKind::Elu1,
        AttentionKind::Relu,
        AttentionKind::Taylor,
        AttentionKind::Efficient,
    ] {
        let mut state = LabState::default();
        state.variants[1].attention = kind;
        let stages = run(&state, 1, 0, 0);
        let r = Pipeline::new(&state).variant(1).unwrap();
        assert!(stages.iter().any(|s| s.kind == StageKind::FeatureQueries));
        assert!(!stages.iter().any(|s| s.kind == StageKind::Softmax));
        assert_eq!(
            stage(&stages, StageKind::Implied).values,
            r.heads[0].weights
        );
        assert_eq!(
            stage(&stages, StageKind::HeadOutput).values,
            r.heads[0].output
        );
        assert!(
            stage(&stages, StageKind::FeatureQueries)
                .formula
                .contains("\u{3c6}")
        );
    }
}

#[test]
fn linformer_projects_keys_and_has_no_mask_stage() {
    let mut state = LabState::default();
    state.variants[0].attention = AttentionKind::Linformer;
    state.variants[0].linformer_k = 3;
    let stages = run(&state, 0, 2, 4);
    let r = Pipeline::new(&state).variant(0).unwrap();
    assert!(!stages.iter().any(|s| s.kind == StageKind::Masked));
    let pk = stage(&stages, StageKind::ProjectedKeys);
    assert_eq!(pk.values.dim(), (3, 16));
    assert_eq!(
        stage(&stages, StageKind::Softmax).values,
        r.heads[2].weights
    );
    assert_eq!(
        stage(&stages, StageKind::Softmax).cols,
        ["k'0", "k'1", "k'2"]
    );
    // K and V have a row per key token, labelled by the token.
    for kind in [StageKind::Keys, StageKind::Values] {
        let s = stage(&stages, kind);
        assert_eq!(s.rows, Pipeline::new(&state).keys().labels());
        assert!(s.heatmap("t", Lang::En).is_ok(), "{kind:?}");
    }
}

#[test]
fn formulas_follow_the_score_function_and_escape_tokens() {
    let mut state = LabState {
        text: "a <b> & c".into(),
        ..LabState::default()
    };
    let mut seen = std::collections::HashSet::new();
    for f in ScoreFunction::ALL {
        state.variants[0].score = f;
        let stages = run(&state, 0, 0, 1);
        let s = stage(&stages, StageKind::Scores);
        assert!(s.formula.starts_with("<math"));
        seen.insert(s.formula.clone());
        let x = &stages[0].formula;
        assert!(x.contains("&lt;"), "{x}");
        assert!(!x.contains("<b>"), "{x}");
    }
    // dot and scaled_dot share qᵀk as the raw score; the four others differ.
    assert_eq!(seen.len(), 4);
    state.variants[0].score = ScoreFunction::ScaledDot;
    let stages = run(&state, 0, 0, 1);
    assert!(
        stage(&stages, StageKind::Scaled)
            .formula
            .contains("<msqrt>")
    );
    state.variants[0].score = ScoreFunction::Cosine;
    let stages = run(&state, 0, 0, 1);
    assert!(
        !stage(&stages, StageKind::Scaled)
            .formula
            .contains("<msqrt>")
    );
}

#[test]
fn cross_mode_and_bad_heads() {
    let mut state = LabState::default();
    state.set_mode(Mode::Cross);
    let stages = run(&state, 0, 0, 0);
    let soft = stage(&stages, StageKind::Softmax);
    assert_eq!(soft.values.dim(), (4, 6));
    assert!(stages[0].note.contains("source"));
    let p = Pipeline::new(&state);
    let q = p.queries().labels();
    let k = p.keys().labels();
    let e = compute::encode(&state.model, p.queries()).unwrap();
    let problem = p.variant(0).unwrap().problem;
    let input = StepsInput {
        model: &state.model,
        variant: &state.variants[0],
        mode: state.mode,
        encoded: Some(&e),
        problem: &problem,
        unturned: None,
        queries: &q,
        keys: &k,
    };
    assert!(
        steps(&input, 9, 0, Lang::En)
            .unwrap_err()
            .sentence()
            .contains("no head 9")
    );
    // A query past the end highlights nothing.
    assert_eq!(steps(&input, 0, 99, Lang::En).unwrap()[0].highlight, None);
}

#[test]
fn the_input_formula_highlight_and_readout_follow_the_query() {
    let mut state = LabState::default();
    state.variants[0].masks.causal = true;
    let tokens = Pipeline::new(&state).queries().labels();
    for (i, token) in tokens.iter().enumerate() {
        let stages = run(&state, 0, 1, i);
        let x = &stage(&stages, StageKind::Input).formula;
        assert!(
            x.contains(&format!("\u{201c}{token}\u{201d}")),
            "query {i} names {token}: {x}"
        );
        assert!(
            x.contains(&format!("<msub><mi>x</mi><mn>{i}</mn></msub>")),
            "x_{i}: {x}"
        );
        let others = tokens
            .iter()
            .enumerate()
            .filter(|&(j, t)| j != i && t != token);
        for (_, other) in others {
            assert!(!x.contains(&format!("\u{201c}{other}\u{201d}")), "{x}");
        }
        for s in &stages {
            assert_eq!(
                s.query,
                Some(Query {
                    index: i,
                    token: token.clone()
                })
            );
            let expected = (s.row_axis == Axis::QueryTokens).then_some(i);
            assert_eq!(s.highlight, expected, "{:?}", s.kind);
            let readout = s.readout(3, Lang::En).unwrap();
            assert!(
                readout
                    .text
                    .contains(&format!("\u{201c}{token}\u{201d} ({i})")),
                "{}",
                readout.text
            );
            assert_eq!(readout.values.is_some(), expected.is_some());
        }
        let soft = stage(&stages, StageKind::Softmax)
            .readout(3, Lang::En)
            .unwrap();
        assert_eq!(
            soft.values.as_ref().unwrap().iter().flatten().count(),
            i + 1,
            "causal: query {i} sees keys 0..={i}"
        );
        assert!((soft.sum().unwrap() - 1.0).abs() < 1e-5);
    }
    // The keys' stages read out which query is selected instead of a row.
    let stages = run(&state, 0, 0, 7);
    let keys = stage(&stages, StageKind::Keys)
        .readout(3, Lang::En)
        .unwrap();
    assert_eq!(
        keys.text,
        "The rows of Keys K are the keys (all of them are used by every query); the \
         selected query is \u{201c}it\u{201d} (7)."
    );
    assert_eq!(keys.sum(), None);
}

#[test]
fn every_variant_builds_its_familys_stage_list() {
    for kind in AttentionKind::EVERY {
        let mut state = LabState::default();
        state.variants[0].attention = kind;
        let stages = run(&state, 0, 0, 3);
        let kinds: Vec<StageKind> = stages.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, Family::of(kind).stages(), "{kind:?}");
        for s in &stages {
            assert_eq!(s.rows.len(), s.values.nrows(), "{kind:?} {:?}", s.kind);
            assert_eq!(s.cols.len(), s.values.ncols(), "{kind:?} {:?}", s.kind);
        }
    }
}

#[test]
fn identity_projections_drop_the_weight_matrices_from_the_formulas() {
    let mut state = LabState::default();
    state.model.heads = 1;
    state.model.projection = Projection::Identity;
    let stages = run(&state, 0, 0, 0);
    let q = &stage(&stages, StageKind::Queries).formula;
    assert!(!q.contains("<msubsup>"), "{q}");
    let out = stage(&stages, StageKind::Output);
    assert!(
        !out.formula.contains("<mi>O</mi></msup>"),
        "{}",
        out.formula
    );
    assert!(!out.note.contains("W^O"), "{}", out.note);
    state.model.projection = Projection::Seeded;
    state.set_mode(Mode::Cross);
    let stages = run(&state, 0, 0, 0);
    assert!(
        stage(&stages, StageKind::Keys)
            .formula
            .contains("<mi>src</mi>")
    );
    assert!(!stage(&stages, StageKind::Queries).formula.contains("src"));
}

/// The words (3 letters or more) in Latin letters of `text` that are not symbols or
/// names every language writes alike.
fn latin_words(text: &str) -> Vec<String> {
    const SYMBOLS: &[&str] = &[
        "softmax",
        "elu",
        "relu",
        "taylor",
        "max",
        "exp",
        "tanh",
        "Luong",
        "Bahdanau",
        "model",
        "RNN",
        "Linformer",
        "sigmoid",
        "softpick",
        "FAVOR",
        "RoPE",
        "ALiBi",
        "Gemma",
        "logit",
    ];
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3 && !SYMBOLS.contains(w))
        .map(String::from)
        .collect()
}

#[test]
fn every_stage_speaks_chinese() {
    for kind in AttentionKind::EVERY {
        for mode in [Mode::SelfAttention, Mode::Cross] {
            // Decayed linear attention needs n = m: no cross-attention.
            if kind == AttentionKind::DecayedLinear && mode == Mode::Cross {
                continue;
            }
            let mut state = LabState::default();
            state.set_mode(mode);
            state.variants[0].attention = kind;
            state.variants[0].masks.causal = kind.feature_map().is_some();
            let p = Pipeline::new(&state);
            let (queries, keys) = (p.queries().labels(), p.keys().labels());
            let encoded = compute::encode(&state.model, p.queries()).unwrap();
            let problem = p.variant(0).unwrap().problem;
            let input = StepsInput {
                model: &state.model,
                variant: &state.variants[0],
                mode,
                encoded: Some(&encoded),
                problem: &problem,
                unturned: None,
                queries: &queries,
                keys: &keys,
            };
            let zh = steps(&input, 0, 1, Lang::Zh).unwrap();
            let en = steps(&input, 0, 1, Lang::En).unwrap();
            assert_eq!(zh.len(), en.len());
            for (z, e) in zh.iter().zip(&en) {
                assert_eq!(
                    (z.kind, &z.values, &z.formula),
                    (e.kind, &e.values, &e.formula)
                );
                assert_ne!(z.note, e.note, "{:?}", z.kind);
                for text in [z.name.to_string(), z.note.clone()] {
                    assert!(latin_words(&text).is_empty(), "{kind:?} {mode:?}: {text}");
                }
                let fig = z.heatmap("t", Lang::Zh).unwrap();
                assert!(
                    latin_words(fig.row_axis()).is_empty()
                        && latin_words(fig.col_axis()).is_empty()
                );
                let r = z.readout(3, Lang::Zh).unwrap();
                let said: String = r
                    .parts
                    .iter()
                    .filter(|p| !p.1)
                    .map(|p| p.0.as_str())
                    .collect();
                assert!(latin_words(&said).is_empty(), "{said}");
                assert!(r.text.contains("“"), "{}", r.text);
            }
        }
    }
}

/// The stage of `kind` whose matrix is the head's weights.
fn weights_stage(kind: AttentionKind) -> StageKind {
    match kind {
        AttentionKind::Softmax => StageKind::Softmax,
        AttentionKind::SoftmaxPlusOne => StageKind::PlusOne,
        AttentionKind::Sigmoid => StageKind::Sigmoid,
        AttentionKind::Softpick => StageKind::Softpick,
        AttentionKind::Sink => StageKind::SinkWeights,
        AttentionKind::Differential => StageKind::Differential,
        AttentionKind::DecayedLinear => StageKind::Decayed,
        AttentionKind::Favor => StageKind::Implied,
        other => unreachable!("{other:?}"),
    }
}

#[test]
fn every_new_kind_has_its_own_weights_stage_equal_to_the_lab() {
    let kinds = [
        AttentionKind::SoftmaxPlusOne,
        AttentionKind::Sigmoid,
        AttentionKind::Softpick,
        AttentionKind::Sink,
        AttentionKind::Differential,
        AttentionKind::DecayedLinear,
        AttentionKind::Favor,
    ];
    for kind in kinds {
        for causal in [false, true] {
            let mut state = LabState::default();
            state.variants[1].attention = kind;
            state.variants[1].masks.causal = causal;
            state.variants[1].sink_logit = 1.5;
            for head in [0, 3] {
                let stages = run(&state, 1, head, 7);
                let r = Pipeline::new(&state).variant(1).unwrap();
                let weights = stage(&stages, weights_stage(kind));
                assert_eq!(weights.values, r.heads[head].weights, "{kind:?}");
                assert_eq!(
                    stage(&stages, StageKind::HeadOutput).values,
                    r.heads[head].output,
                    "{kind:?}"
                );
                assert!(
                    !stages.iter().any(|s| s.kind == StageKind::Softmax),
                    "{kind:?} has no softmax stage"
                );
                assert_ne!(weights.formula, formula::softmax(), "{kind:?}");
                assert!(weights.formula.starts_with("<math"), "{kind:?}");
                // Each weights stage is drawn on the lab's own scale: negative weights
                // on the diverging palette.
                let fig = weights.heatmap("t", Lang::En).unwrap();
                let negative = weights.values.iter().any(|&w| w < 0.0);
                assert_eq!(
                    fig.scale() == attnlab_plot::ColorScale::Diverging,
                    negative,
                    "{kind:?}"
                );
            }
        }
    }
}

#[test]
fn the_normalisers_say_their_row_sums() {
    let mut state = LabState::default();
    for (kind, below_one) in [
        (AttentionKind::SoftmaxPlusOne, true),
        (AttentionKind::Sink, true),
        (AttentionKind::Differential, true),
    ] {
        state.variants[0].attention = kind;
        let stages = run(&state, 0, 0, 2);
        let w = stage(&stages, weights_stage(kind));
        let sum = w.readout(3, Lang::En).unwrap().sum().unwrap();
        assert_eq!(sum < 0.999, below_one, "{kind:?}: {sum}");
        assert!(
            w.note.contains(&attnlab_plot::number::decimals(sum, 3)),
            "{kind:?}: {}",
            w.note
        );
    }
    // Differential: each row sums to 1 − λ, and both maps are shown.
    state.variants[0].attention = AttentionKind::Differential;
    state.variants[0].lambda = 0.5;
    let stages = run(&state, 0, 1, 4);
    let d = stage(&stages, StageKind::Differential);
    assert!((d.readout(3, Lang::En).unwrap().sum().unwrap() - 0.5).abs() < 1e-5);
    assert!(
        d.values.iter().any(|&w| w < 0.0),
        "some weights go negative"
    );
    for kind in [StageKind::FirstSoftmax, StageKind::SecondSoftmax] {
        let s = stage(&stages, kind);
        assert!((s.readout(3, Lang::En).unwrap().sum().unwrap() - 1.0).abs() < 1e-5);
    }
    assert!(d.formula.contains("<mi>\u{3bb}</mi>"), "{}", d.formula);
    // Sigmoid shows its bias −ln m.
    state.variants[0].attention = AttentionKind::Sigmoid;
    let stages = run(&state, 0, 0, 2);
    let s = stage(&stages, StageKind::Sigmoid);
    assert!(s.formula.contains("<mi>ln</mi>") && s.formula.contains("<mn>11</mn>"));
    // Decayed linear: D and D ⊙ S, D = 0.9^(i−j).
    state.variants[0].attention = AttentionKind::DecayedLinear;
    let stages = run(&state, 0, 0, 2);
    let d = stage(&stages, StageKind::Decay);
    assert!((d.values[[2, 0]] - 0.81).abs() < 1e-6, "0.9²");
    assert!(d.is_blocked(2, 3) && !d.is_blocked(2, 2));
}

#[test]
fn the_logit_options_add_their_stages_in_the_cores_order() {
    use StageKind::*;
    let mut state = LabState::default();
    state.variants[0].softcap = Some(2.0);
    state.variants[0].alibi = true;
    state.variants[0].rope = Some(attnlab_core::rope::Rope::default());
    state.variants[0].masks.window = Some(1);
    state.variants[0].masks.sinks = Some(2);
    state.variants[0].kv_groups = Some(2);
    let p = Pipeline::new(&state);
    let (queries, keys) = (p.queries().labels(), p.keys().labels());
    let encoded = compute::encode(&state.model, p.queries()).unwrap();
    let r = p.variant(0).unwrap();
    let projected = compute::project(&state.model, None, &encoded, None).unwrap();
    let plain = unturned(
        &state.model,
        &projected,
        &state.variants[0],
        p.keys(),
        false,
    )
    .unwrap()
    .unwrap();
    let input = StepsInput {
        model: &state.model,
        variant: &state.variants[0],
        mode: state.mode,
        encoded: Some(&encoded),
        problem: &r.problem,
        unturned: Some(&plain),
        queries: &queries,
        keys: &keys,
    };
    let stages = steps(&input, 3, 7, Lang::En).unwrap();
    let kinds: Vec<StageKind> = stages.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            Input,
            Queries,
            Keys,
            Values,
            TurnedQueries,
            TurnedKeys,
            Scores,
            Scaled,
            Softcap,
            Alibi,
            Masked,
            Softmax,
            HeadOutput,
            Output
        ]
    );
    assert_eq!(stage(&stages, Softmax).values, r.heads[3].weights);
    // Q before RoPE, q̃ after: the core's turn of the one into the other.
    let q = &stage(&stages, Queries).values;
    let turned = &stage(&stages, TurnedQueries).values;
    assert_eq!(turned, &r.problem.heads()[3].q);
    assert_ne!(q, turned);
    let mut again = q.clone();
    let rope = state.variants[0].rope.clone().unwrap();
    rope.turn(&mut again, &(0..11).map(|p| p as f32).collect::<Vec<_>>());
    assert_eq!(&again, turned);
    assert_eq!(q.row(0), turned.row(0), "position 0 does not turn");
    // The softcap bounds the logits by c = 2; ALiBi's head 3 of 4 has slope 2^−8.
    assert!(
        stage(&stages, Softcap)
            .values
            .iter()
            .all(|z| z.abs() <= 2.0)
    );
    let (capped, biased) = (
        &stage(&stages, Softcap).values,
        &stage(&stages, Alibi).values,
    );
    assert!((biased[[7, 2]] - (capped[[7, 2]] - 5.0 / 256.0)).abs() < 1e-6);
    assert!(stage(&stages, Alibi).formula.contains("0.0039"));
    // Sinks: the first two keys stay open for query 7 beyond the window of 1.
    let masked = stage(&stages, Masked);
    assert!(!masked.is_blocked(7, 0) && !masked.is_blocked(7, 1) && masked.is_blocked(7, 3));
    assert!(masked.formula.contains("\u{2228}"), "{}", masked.formula);
    assert!(masked.note.contains("first 2 key"), "{}", masked.note);
    // Grouped keys: head 3 of 4 reads group 1 of 2, with head 2.
    let k = stage(&stages, Keys);
    assert!(
        k.note.contains("group 1 of 2, shared by heads 2\u{2013}3"),
        "{}",
        k.note
    );
    // Off, none of them.
    let plain_stages = run(&LabState::default(), 0, 0, 0);
    assert!(
        !plain_stages
            .iter()
            .any(|s| matches!(s.kind, TurnedQueries | TurnedKeys | Softcap | Alibi))
    );
}
