//! What the lessons' texts say, checked against what the lab computes for each step's own
//! state (read from the lesson files, never restated here). Each test names the lesson
//! and step whose words it checks; the sentence checked is quoted above each assertion.

mod common;

use common::{run, step, words};

use attnlab_core::attention::AttentionKind;
use attnlab_core::linear::{efficient, softmax_rows};
use attnlab_core::position::PositionKind;
use attnlab_core::score::ScoreFunction;
use attnlab_lab::compute::{Pipeline, VariantResult, Which};
use attnlab_lessons::{Answer, Catalog, Lang, Step, StepKind, answer};
use attnlab_pages::complexity::Kind;
use attnlab_pages::linear::{causality, kernel_comparison, rnn_trace};
use attnlab_pages::positions::{
    Permutation, RotationCheck, bag_of_words, diagonal_spread, dot_matrix, rotation_check, table,
};
use attnlab_pages::scaling::study;
use ndarray::{Array2, ArrayRef2, s};

fn predicted(step: &Step) -> Answer {
    let StepKind::Predict(q) = &step.kind else {
        panic!("{} asks nothing", step.id)
    };
    answer(q, &step.state, None).unwrap()
}

/// The keys with a positive weight in row `i`.
fn positive(weights: &ArrayRef2<f32>, i: usize) -> Vec<usize> {
    (0..weights.ncols())
        .filter(|&j| weights[[i, j]] > 0.0)
        .collect()
}

fn assert_rows_sum_to_one(weights: &ArrayRef2<f32>, what: &str) {
    for (i, row) in weights.rows().into_iter().enumerate() {
        assert!(
            (row.sum() - 1.0).abs() < 1e-5,
            "{what}: row {i} sums to {}",
            row.sum()
        );
        assert!(row.iter().all(|&w| w >= 0.0), "{what}: row {i}");
    }
}

#[test]
fn alignment_rows_are_target_words_over_source_characters() {
    let s = step("alignment", "rows-and-columns");
    let p = Pipeline::new(&s.state);
    // "each row of the heatmap is one English word, each column one Chinese character"
    assert_eq!(p.queries().labels(), ["I", "love", "machine", "learning"]);
    assert_eq!(p.keys().labels(), ["我", "爱", "机", "器", "学", "习"]);
    // "Look at the row of "love": its cells are non-negative and add up to 1."
    assert_eq!(p.queries().labels()[s.selection.query.unwrap()], "love");
    assert_rows_sum_to_one(&run(&s, 0).heads[0].weights, "alignment");
    // "The four heads of the grid each give a different … pattern."
    let seeded = run(&step("alignment", "seeded"), 0);
    assert_eq!(seeded.heads.len(), 4);
    let w = |h: usize| &seeded.heads[h].weights;
    assert!((w(0) - w(1)).iter().any(|d| d.abs() > 0.01));
}

#[test]
fn scores_step_through_it_and_its_eleven_keys() {
    let s = step("scores", "scores");
    let p = Pipeline::new(&s.state);
    // "The row of "it" in this matrix is eleven numbers, one per key."
    assert_eq!(p.keys().labels().len(), 11);
    assert_eq!(p.queries().labels()[s.selection.query.unwrap()], "it");
    // "Every weight is then positive and the row sums to 1, and a higher score always
    // gives a higher weight."
    let head = &run(&step("scores", "softmax"), 0).heads[0];
    assert_rows_sum_to_one(&head.weights, "softmax");
    let scores = head.scores.as_ref().expect("softmax keeps its scores");
    let (w, sc) = (head.weights.row(7), scores.row(7));
    for a in 0..11 {
        assert!(w[a] > 0.0);
        for b in 0..11 {
            if sc[a] > sc[b] {
                assert!(w[a] >= w[b], "key {a} scores more than {b} but weighs less");
            }
        }
    }
}

#[test]
fn scores_the_predicted_key_is_the_largest_in_the_row_of_it() {
    let s = step("scores", "predict-it");
    // "The largest weight in the row of "it" goes to {answer}."
    let Answer::Key { index, weight, .. } = predicted(&s) else {
        panic!()
    };
    let row = run(&s, 0).heads[0].weights.row(7).to_owned();
    assert_eq!(row[index], weight);
    assert!(row.iter().all(|&w| w <= weight));
}

#[test]
fn scores_five_functions_and_the_flat_cosine() {
    let s = step("scores", "functions");
    let scores: Vec<ScoreFunction> = s.state.variants.iter().map(|v| v.score).collect();
    use ScoreFunction::*;
    assert_eq!(scores, [Dot, General, Additive, Cosine]);
    let s = step("scores", "predict-cosine");
    // "The sharper one is {answer}."
    assert_eq!(predicted(&s).label(Lang::En), "qᵀk/√d");
    assert_eq!(s.state.variants[0].score, ScaledDot);
    // "in a row of cosine scores no weight can be more than e² ≈ 7.4 times another"
    let cosine = run(&s, 1);
    let bound = 2f32.exp() * (1.0 + 1e-4);
    for head in &cosine.heads {
        for row in head.weights.rows() {
            let (lo, hi) = row
                .iter()
                .fold((f32::MAX, 0f32), |(lo, hi), &w| (lo.min(w), hi.max(w)));
            assert!(hi / lo <= bound, "{hi} / {lo}");
        }
    }
}

#[test]
fn scaling_the_spread_grows_as_the_root_of_d_k() {
    let study = study(11, 42);
    for p in &study.points {
        // "Unscaled, it follows √d_k; divided by √d_k, it stays near 1 at every width."
        let root = (p.d_k as f32).sqrt();
        assert!((p.logit_std_unscaled / root - 1.0).abs() < 0.2, "{p:?}");
        assert!((p.logit_std_scaled - 1.0).abs() < 0.2, "{p:?}");
    }
    // "When the scores spread by 8 or more (d_k = 64, unscaled)… the row is almost
    // one-hot. Its entropy… falls towards 0."
    let at = |d: usize| study.points.iter().find(|p| p.d_k == d).unwrap();
    assert!(at(64).logit_std_unscaled > 7.0);
    assert!(at(512).entropy_unscaled < 0.2 * at(4).entropy_unscaled);
    assert!(at(512).max_weight_unscaled > 0.9);
}

#[test]
fn scaling_the_unscaled_variant_is_sharper_with_the_same_winners() {
    let s = step("scaling", "predict-sharper");
    // "It is {answer}, the variant without the division. With d_k = 16…"
    let Answer::Variant { index, .. } = predicted(&s) else {
        panic!()
    };
    assert_eq!(s.state.variants[index].score, ScoreFunction::Dot);
    assert_eq!(s.state.model.d_k(), 16);
    // "The scaling makes no difference to which key wins a row"
    let (a, b) = (run(&s, 0), run(&s, 1));
    let argmax = |w: &ArrayRef2<f32>, i: usize| {
        (0..w.ncols())
            .max_by(|&x, &y| w[[i, x]].total_cmp(&w[[i, y]]))
            .unwrap()
    };
    for h in 0..4 {
        for i in 0..11 {
            assert_eq!(
                argmax(&a.heads[h].weights, i),
                argmax(&b.heads[h].weights, i)
            );
        }
    }
    // "so the table's mean entropy of B is lower than A's"
    let s = step("scaling", "difference");
    let e = |r: &VariantResult| r.weights(Which::Head(0)).unwrap().mean_entropy();
    assert!(e(&run(&s, 1)) < e(&run(&s, 0)));
}

#[test]
fn scaling_cold_is_one_hot_and_hot_is_uniform() {
    let s = step("scaling", "temperature");
    // "each row's weight gathers on its largest score: nearly every row becomes one
    // bright cell, and a row whose two best scores are almost equal splits between them"
    let mut one_hot = 0;
    for row in run(&s, 0).heads[0].weights.rows() {
        let mut sorted: Vec<f32> = row.to_vec();
        sorted.sort_by(|a, b| b.total_cmp(a));
        assert!(sorted[0] + sorted[1] > 0.99, "{row}");
        one_hot += usize::from(sorted[0] > 0.99);
    }
    assert!(one_hot >= 9, "{one_hot} rows of 11 are one bright cell");
    // "each row is close to uniform, every key weighing nearly 1/11"
    for w in run(&s, 1).heads[0].weights.iter() {
        assert!((w - 1.0 / 11.0).abs() < 0.02, "{w}");
    }
}

#[test]
fn scaling_wide_heads_saturate_more() {
    let wide = step("scaling", "wide");
    // "so d_k = 64 … B is close to one-hot, and the gap between their mean entropies is
    // wider than at d_k = 16."
    assert_eq!(wide.state.model.d_k(), 64);
    let b = run(&wide, 1);
    let mean_max = b.heads[0]
        .weights
        .rows()
        .into_iter()
        .map(|r| r.iter().copied().fold(0.0, f32::max))
        .sum::<f32>()
        / 11.0;
    assert!(mean_max > 0.8, "{mean_max}");
    // "The scaled variant A still has spread-out rows"
    let a = run(&wide, 0);
    let spread = a.heads[0].row_entropy_normalised.iter().sum::<f32>() / 11.0;
    assert!(spread > 0.5, "{spread}");
    let gap = |s: &Step| {
        let e = |v| {
            run(s, v)
                .weights(Which::Average)
                .unwrap()
                .mean_entropy()
                .unwrap()
        };
        e(0) - e(1)
    };
    assert!(gap(&wide) > gap(&step("scaling", "difference")));
}

#[test]
fn heads_split_the_width_and_the_average_is_no_sharper() {
    let s = step("heads", "split");
    assert_eq!((s.state.model.heads, s.state.model.d_k()), (4, 16));
    let r = run(&s, 0);
    // "Mixing distributions never lowers entropy, so each of its rows is at least as
    // spread out as the heads' rows are on average."
    let average = r.average.as_ref().unwrap();
    for i in 0..11 {
        let heads: f32 = r.heads.iter().map(|h| h.row_entropy[i]).sum::<f32>() / 4.0;
        assert!(average.row_entropy[i] >= heads - 1e-5, "row {i}");
    }
    // "Concat(O_0, O_1, O_2, O_3) · W^O … 4 × 16 = 64 numbers per token again"
    assert_eq!(r.heads.iter().map(|h| h.output.ncols()).sum::<usize>(), 64);
    let Answer::Head { index, entropy } = predicted(&step("heads", "predict-head")) else {
        panic!()
    };
    for h in 0..4 {
        assert!(
            entropy <= r.weights(Which::Head(h)).unwrap().mean_entropy().unwrap(),
            "{index}"
        );
    }
    // "one head of width d_k = 64"; "each head has d_k = 8. The total width h · d_k is
    // still 64"
    assert_eq!(step("heads", "one-head").state.model.d_k(), 64);
    let eight = step("heads", "eight-heads").state.model;
    assert_eq!((eight.d_k(), eight.heads * eight.d_k()), (8, 64));
}

#[test]
fn masks_causal_blocks_the_future_and_the_first_token_sees_itself() {
    let s = step("masks", "causal");
    for head in &run(&s, 0).heads {
        assert_rows_sum_to_one(&head.weights, "causal");
        for i in 0..11 {
            // "each row shares its weight among the tokens up to itself"
            assert_eq!(positive(&head.weights, i), (0..=i).collect::<Vec<_>>());
        }
    }
    // "It is {answer}, with weight exactly 1."
    let Answer::Key {
        index,
        token,
        weight,
    } = predicted(&step("masks", "predict-first"))
    else {
        panic!()
    };
    assert_eq!((index, token.as_str(), weight), (0, "The", 1.0));
}

#[test]
fn masks_padding_window_strided_and_global() {
    let s = step("masks", "padding");
    let p = Pipeline::new(&s.state);
    // "padded from 11 to 14 tokens … the three <pad> columns are exactly 0 in every row"
    assert_eq!(p.keys().labels()[11..], ["<pad>", "<pad>", "<pad>"]);
    let w = &run(&s, 0).heads[0].weights;
    assert!((0..14).all(|i| (11..14).all(|j| w[[i, j]] == 0.0)));

    // "each token sees at most 5 tokens: two on each side and itself"
    let w = run(&step("masks", "window"), 0).heads[0].weights.clone();
    for i in 0..11 {
        let seen = positive(&w, i);
        assert!(seen.len() <= 5 && seen.iter().all(|&j| j.abs_diff(i) <= 2));
    }
    assert_eq!(positive(&w, 5), [3, 4, 5, 6, 7]);

    // "it reaches back almost to the start of the sentence through a few regularly
    // spaced keys" (the last 3 positions and every third before them)
    let w = run(&step("masks", "strided"), 0).heads[0].weights.clone();
    assert_eq!(positive(&w, 10), [1, 4, 7, 8, 9, 10]);

    // "its row is fully open … and its column is open in every row"
    let w = run(&step("masks", "global"), 0).heads[0].weights.clone();
    assert_eq!(positive(&w, 0), (0..11).collect::<Vec<_>>());
    assert!((0..11).all(|i| w[[i, 0]] > 0.0));
    assert_eq!(positive(&w, 5), [0, 4, 5, 6]);

    // "the allowed cells of the row still add up to 1" (steps page, query 3)
    let s = step("masks", "minus-infinity");
    let w = &run(&s, 0).heads[0].weights;
    assert_eq!(positive(w, s.selection.query.unwrap()), [0, 1, 2, 3]);
}

#[test]
fn positions_bag_of_words_sinusoids_and_learned() {
    let check = |id: &str| {
        let s = step("positions", id);
        let tokens = s.state.query_tokens();
        let n = tokens.used().len();
        let shuffle = Permutation::shuffled(n, n, s.state.model.seed, 0);
        bag_of_words(&s.state.model, &s.state.variants[0], &tokens, 0, &shuffle).unwrap()
    };
    // "The result equals the original matrix up to rounding"
    let none = check("bag-of-words");
    assert!(none.without_positions.max_difference < 1e-5);
    // "The same shuffle, put back in order, gives a clearly different matrix"
    let with = check("with-positions");
    assert!(
        with.with_positions.max_difference > 0.05,
        "{}",
        with.with_positions.max_difference
    );

    let s = step("positions", "relative");
    let pe = table(&s.state.model, 11);
    let g = dot_matrix(&pe);
    // "every diagonal is constant … largest at its own position, where it equals d/2"
    assert!(diagonal_spread(&g) < 1e-4);
    assert!((g[[3, 3]] - 32.0).abs() < 1e-3);
    assert!(g.row(3).iter().all(|&x| x <= g[[3, 3]]));
    // "The panel measures the residual … rounding only."
    let RotationCheck::Residual { residual, .. } = rotation_check(&s.state.model.position, &pe, 3)
    else {
        panic!()
    };
    assert!(residual < 1e-5);
    // "the diagonals of the matrix are not constant, and no single rotation carries every
    // position k places on"
    let s = step("positions", "learned");
    let pe = table(&s.state.model, 11);
    assert!(diagonal_spread(&dot_matrix(&pe)) > 0.1);
    assert!(matches!(
        rotation_check(&s.state.model.position, &pe, 3),
        RotationCheck::NoRotation(_)
    ));
}

#[test]
fn linear_rank_limit_rnn_and_linformer() {
    let s = step("linear", "rank");
    let r = run(&s, 0);
    let n = Pipeline::new(&s.state).queries().used().len();
    let cmp = kernel_comparison(&r.problem, 0, AttentionKind::Elu1).unwrap();
    let spectra = cmp.spectra.as_ref().unwrap();
    // "its rank is at most d_φ = 16 here… This sentence has more tokens than that. The
    // softmax's similarity matrix … is of full rank."
    assert_eq!(cmp.phi_width, 16);
    assert!(
        n > 16 && spectra.linear_rank <= 16,
        "{n} {}",
        spectra.linear_rank
    );
    assert_eq!(spectra.softmax_rank, n);
    // "{answer}. The kernel's matrix … its rank cannot exceed 16"
    let Answer::Rank { label, ranks, .. } = predicted(&step("linear", "predict-rank")) else {
        panic!()
    };
    assert_eq!(label, "softmax");
    assert_eq!(ranks, (spectra.softmax_rank, spectra.linear_rank));
    // "similar in places, not the same"
    assert!(cmp.metrics.max_abs > 0.01);

    // "the state S has a fixed size, d × d … the recurrent outputs equal the masked
    // quadratic form to rounding"
    let s = step("linear", "rnn");
    let trace = rnn_trace(&run(&s, 0).problem, 0, AttentionKind::Elu1).unwrap();
    assert!(trace.max_abs_diff() < 1e-4, "{}", trace.max_abs_diff());
    assert_eq!(trace.step(n - 1).unwrap().s.dim(), (16, 16));

    // "The weights are now n × 4"
    let s = step("linear", "linformer");
    assert_eq!(run(&s, 0).heads[0].weights.dim(), (n, 4));
    // "Kernel attention … can be causal and stays O(n). Linformer cannot"
    assert!(causality(AttentionKind::Elu1, Lang::En).contains("can be made causal and stays O(n)"));
    assert!(causality(AttentionKind::Linformer, Lang::En).contains("cannot be made causal"));
}

#[test]
fn complexity_softmax_climbs_fastest_and_a_window_has_fewer_cells() {
    // "{answer}. … a slope near 2: doubling n multiplies its time by about 4. Linear
    // attention's slope is near 1"
    let Answer::Curve {
        kind,
        slope,
        measured,
    } = predicted(&step("complexity", "predict-curve"))
    else {
        panic!()
    };
    assert_eq!((kind, measured), (Kind::Softmax, false));
    assert_eq!((slope, Kind::LinearElu1.expected_slope()), (2.0, 1.0));
    // "A local window of radius r needs only the n·(2r + 1) cells inside the band; here
    // r = 2."
    let s = step("complexity", "memory");
    assert_eq!(s.state.variants[0].masks.window, Some(2));
    let w = &run(&s, 0).heads[0].weights;
    let cells = w.iter().filter(|&&x| x > 0.0).count();
    assert!(cells <= 11 * 5, "{cells}");
}

/// Head 0's queries and keys of the lab for `state`'s first variant, in f64.
fn q_and_k(state: &attnlab_lab::LabState) -> (Array2<f64>, Array2<f64>) {
    let r = Pipeline::new(state).variant(0).unwrap();
    let head = &r.problem.heads()[0];
    (head.q.mapv(f64::from), head.k.mapv(f64::from))
}

/// The largest spread along a diagonal of `q kᵀ`, relative to its largest entry.
fn score_diagonal_spread(q: &Array2<f64>, k: &Array2<f64>) -> f64 {
    let scores = q.dot(&k.t());
    let largest = scores.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
    f64::from(diagonal_spread(&scores.mapv(|x| (x / largest) as f32)))
}

/// RoPE: each (2i, 2i + 1) pair of row p turned by the angle (p + shift)·base^(−2i/d), as
/// if the sentence started at position `shift`.
fn rope(x: &Array2<f64>, base: f64, shift: usize) -> Array2<f64> {
    let d = x.ncols();
    let mut out = x.clone();
    for (p, mut row) in out.rows_mut().into_iter().enumerate() {
        for i in 0..d / 2 {
            let angle = (p + shift) as f64 * base.powf(-2.0 * i as f64 / d as f64);
            let (sin, cos) = angle.sin_cos();
            let (a, b) = (row[2 * i], row[2 * i + 1]);
            row[2 * i] = a * cos - b * sin;
            row[2 * i + 1] = a * sin + b * cos;
        }
    }
    out
}

#[test]
fn positions_the_rotation_is_the_encodings_not_the_scores_and_rope_keeps_it() {
    let [en, zh] = words("positions", "rotation");
    // "This holds for the encodings, not yet for the scores … even for a sentence of one
    // word repeated, q_i·k_j depends on i and j, not on i − j alone. RoPE, which turns q
    // and k themselves by their positions after W_Q and W_K, keeps the property"
    assert!(en.contains("not on i − j alone") && en.contains("RoPE, which turns q and k"));
    assert!(zh.contains("而不只取决于 i − j") && zh.contains("RoPE 在 W_Q 和 W_K 之后"));
    let s = step("positions", "rotation");
    assert_eq!(s.state.model.position.kind, PositionKind::Sinusoidal);
    // The step's own sentence: words and positions mixed.
    let (q, k) = q_and_k(&s.state);
    assert!(score_diagonal_spread(&q, &k) > 0.1);
    // One word repeated: the words are all alike, only the positions differ, and still
    // the scores' diagonals are not constant.
    let mut same = s.state.clone();
    same.text = "dog ".repeat(11);
    let (q, k) = q_and_k(&same);
    assert_eq!(q.nrows(), 11);
    let spread = score_diagonal_spread(&q, &k);
    assert!(spread > 0.05, "{spread}");
    // RoPE instead: no added positions, q and k turned after W_Q and W_K. Their products
    // depend on i − j only, to rounding (and are not all alike, so this says something).
    same.model.position.kind = PositionKind::None;
    let (q, k) = q_and_k(&same);
    let base = s.state.model.position.base;
    let (q_rope, k_rope) = (rope(&q, base, 0), rope(&k, base, 0));
    let spread = score_diagonal_spread(&q_rope, &k_rope);
    assert!(spread < 1e-5, "{spread}");
    let scores = q_rope.dot(&k_rope.t());
    let (lo, hi) = scores
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(hi - lo > 0.05 * hi.abs().max(lo.abs()), "{lo} … {hi}");
    // With the step's own words: moving the whole sentence 5 places on changes no RoPE
    // score, as the positions enter only through i − j.
    let mut words = s.state.clone();
    words.model.position.kind = PositionKind::None;
    let (q, k) = q_and_k(&words);
    let at = |shift| rope(&q, base, shift).dot(&rope(&k, base, shift).t());
    let moved = (&at(0) - &at(5))
        .iter()
        .fold(0.0f64, |a, &x| a.max(x.abs()));
    assert!(moved < 1e-9, "{moved}");
    // The lesson's summary says the same, not that relative positions follow.
    let (catalog, _) = Catalog::embedded();
    let lesson = catalog.lesson("positions").unwrap();
    for lang in [Lang::En, Lang::Zh] {
        let summary = &lesson.text(lang).summary;
        assert!(
            !summary.contains("relative positions follow from them"),
            "{summary}"
        );
        assert!(!summary.contains("相对位置也由此而来"), "{summary}");
        assert!(summary.contains("RoPE"), "{summary}");
    }
}

#[test]
fn linear_softmax_is_usually_not_always_of_full_rank() {
    let [en, zh] = words("linear", "rank");
    // "it is usually of full rank, as it is here, though not always: two tokens with the
    // same vector (the same word twice, with positions off) give two equal rows, and the
    // rank drops"
    assert!(!en.contains("no such bound and is of full rank"), "{en}");
    assert!(en.contains("usually of full rank") && en.contains("not always"));
    assert!(!zh.contains("没有这种限制，是满秩的"), "{zh}");
    assert!(zh.contains("通常是满秩的") && zh.contains("并非总是如此"));
    let s = step("linear", "rank");
    let rank = |state: &attnlab_lab::LabState| {
        let n = Pipeline::new(state).queries().used().len();
        let r = Pipeline::new(state).variant(0).unwrap();
        let cmp = kernel_comparison(&r.problem, 0, AttentionKind::Elu1).unwrap();
        (cmp.spectra.unwrap().softmax_rank, n)
    };
    // "as it is here" (linear_rank_limit_rnn_and_linformer checks it too)
    let (r, n) = rank(&s.state);
    assert_eq!(r, n);
    // The step's sentence repeats words ("every", "word", "with"): with positions off,
    // each repeat is an equal row (and column), and the rank falls below n.
    let mut off = s.state.clone();
    off.model.position.kind = PositionKind::None;
    let (r, n) = rank(&off);
    assert!(r < n, "{r} of {n}");
    let mut distinct = Pipeline::new(&off).queries().labels();
    distinct.sort();
    distinct.dedup();
    assert!(
        r <= distinct.len(),
        "{r} > {} distinct words",
        distinct.len()
    );
}

#[test]
fn linear_efficient_attention_is_not_causal_as_defined_but_has_a_causal_form() {
    let [en, zh] = words("linear", "causality");
    // "Efficient attention, as defined, is not causal … A causal form exists, in which
    // each query takes that softmax over the keys up to itself from running sums, still
    // O(n)"
    assert!(en.contains("Efficient attention, as defined, is not causal"));
    assert!(en.contains("A causal form exists"));
    assert!(zh.contains("高效注意力按定义不是因果的") && zh.contains("但存在一种因果形式"));
    assert!(causality(AttentionKind::Efficient, Lang::En).contains("not causal as defined"));
    assert!(causality(AttentionKind::Efficient, Lang::En).contains("A causal form exists"));

    let s = step("linear", "causality");
    let r = run(&s, 0);
    let head = &r.problem.heads()[0];
    let (q, k, v) = (&head.q, &head.k, &head.v);
    let n = q.nrows();
    let all = vec![true; n];
    // As defined: changing the last key changes the first query's output.
    let (_, out) = efficient(q, k, v, &all);
    let mut later = k.clone();
    later.row_mut(n - 1).mapv_inplace(|x| x + 1.0);
    let (_, moved) = efficient(q, &later, v, &all);
    let first = (&out.row(0) - &moved.row(0)).mapv(f32::abs);
    assert!(first.iter().any(|&d| d > 1e-4), "{first}");
    // The causal form from running sums: S_t = Σ_(j≤t) exp(k_j) v_jᵀ, z_t = Σ_(j≤t) exp(k_j),
    // o_t = softmax_row(q_t) · (S_t ⊘ z_t): for every t it is efficient attention over
    // keys 0…t only.
    let (d_k, d_v) = (k.ncols(), v.ncols());
    let (mut sums, mut z) = (Array2::<f64>::zeros((d_k, d_v)), vec![0.0f64; d_k]);
    let qs = softmax_rows(q);
    for t in 0..n {
        for f in 0..d_k {
            let e = f64::from(k[[t, f]]).exp();
            z[f] += e;
            for c in 0..d_v {
                sums[[f, c]] += e * f64::from(v[[t, c]]);
            }
        }
        let (_, truncated) = efficient(
            &q.slice(s![t..=t, ..]).to_owned(),
            &k.slice(s![..=t, ..]).to_owned(),
            &v.slice(s![..=t, ..]).to_owned(),
            &all[..=t],
        );
        for c in 0..d_v {
            let o: f64 = (0..d_k)
                .map(|f| f64::from(qs[[t, f]]) * sums[[f, c]] / z[f])
                .sum();
            assert!(
                (o - f64::from(truncated[[0, c]])).abs() < 1e-5,
                "t {t}, column {c}: {o} ≠ {}",
                truncated[[0, c]]
            );
        }
    }
}
