//! What the texts of lessons 11 (beyond softmax) and 12 (decayed linear attention) say,
//! checked against what the lab and the linear page compute for each step's own state
//! (read from the lesson files, never restated here). Each test names the lesson and step
//! whose words it checks; the sentence checked is quoted above each assertion.

mod common;

use common::{run, step};

use attnlab_core::attention::AttentionKind;
use attnlab_core::score::ScoreFunction;
use attnlab_i18n::Lang;
use attnlab_lab::compute::Pipeline;
use attnlab_lab::figure::head_figure;
use attnlab_lessons::{Answer, Catalog, Step, StepKind, answer};
use attnlab_pages::linear::{Decay, DecayedTrace, decayed_trace, rnn_trace, seeded_gates};
use attnlab_plot::ColorScale;
use ndarray::{Array2, ArrayRef2};

/// Both languages' text of a step, English first.
fn words(lesson: &str, id: &str) -> [String; 2] {
    let (catalog, _) = Catalog::embedded();
    let lesson = catalog.lesson(lesson).unwrap();
    [Lang::En, Lang::Zh].map(|lang| lesson.text(lang).step(id).unwrap().text.clone())
}

fn row_sums(w: &ArrayRef2<f32>) -> Vec<f32> {
    w.rows().into_iter().map(|r| r.sum()).collect()
}

/// The figure of head 0 of `variant` as the lab draws it.
fn figure(step: &Step, variant: usize) -> attnlab_plot::Heatmap {
    let p = Pipeline::new(&step.state);
    let r = run(step, variant);
    head_figure(
        &step.state.model,
        &step.state.variants[variant],
        0,
        p.queries().labels().to_vec(),
        p.keys().labels().to_vec(),
        &r.heads[0],
        Lang::En,
    )
    .unwrap()
}

const HEADS: usize = 4;

// ---- Lesson 11: beyond softmax ----

#[test]
fn beyond_softmax_spends_the_whole_row_and_the_first_query_takes_itself() {
    let s = step("beyond-softmax", "spend-it-all");
    assert_eq!(s.state.variants[0].attention, AttentionKind::Softmax);
    assert!(s.state.variants[0].masks.causal);
    let r = run(&s, 0);
    for h in 0..HEADS {
        let w = &r.heads[h].weights;
        // "every row hands out exactly 1"
        for (i, sum) in row_sums(w).into_iter().enumerate() {
            assert!((sum - 1.0).abs() < 1e-5, "head {h} row {i}: {sum}");
        }
        // "Under the causal mask the first query has no choice at all: its one allowed key,
        // itself, gets weight 1 whatever the score."
        assert_eq!(w[[0, 0]], 1.0, "head {h}");
        assert!(w.row(0).iter().skip(1).all(|&x| x == 0.0));
    }
    assert_eq!(s.selection.query, Some(0));
    // "Xiao et al. (2023, StreamingLLM) named such tokens attention sinks."
    let [en, zh] = words("beyond-softmax", "spend-it-all");
    assert!(en.contains("Xiao et al. (2023, StreamingLLM)") && en.contains("attention sinks"));
    assert!(zh.contains("Xiao 等（2023，StreamingLLM）"));
}

#[test]
fn beyond_softmax_plus_one_scales_each_row_down_by_one_factor() {
    let s = step("beyond-softmax", "plus-one");
    assert_eq!(s.state.variants[1].attention, AttentionKind::SoftmaxPlusOne);
    assert_eq!(s.state.variants[0].score, ScoreFunction::ScaledDot);
    assert_eq!(s.state.variants[0].temperature, 1.0);
    let (a, b) = (run(&s, 0), run(&s, 1));
    for h in 0..HEADS {
        let (wa, wb) = (&a.heads[h].weights, &b.heads[h].weights);
        let scores = a.heads[h].scores.as_ref().unwrap();
        for i in 0..wa.nrows() {
            // "B is A with every row multiplied by the same factor Σ/(1 + Σ)": Σ = Σ_j e^z
            // over the allowed keys of the row (z the scaled dot product, τ = 1).
            let sum: f64 = (0..=i).map(|j| f64::from(scores[[i, j]]).exp()).sum();
            let factor = (sum / (1.0 + sum)) as f32;
            for j in 0..wa.ncols() {
                assert!(
                    (wb[[i, j]] - wa[[i, j]] * factor).abs() < 1e-5,
                    "head {h} ({i}, {j}): {} vs {} · {factor}",
                    wb[[i, j]],
                    wa[[i, j]]
                );
                // "every weight shrinks, and the difference A − B is never negative"
                assert!(wa[[i, j]] - wb[[i, j]] >= 0.0);
                if wa[[i, j]] > 0.0 {
                    assert!(wb[[i, j]] < wa[[i, j]]);
                }
            }
            // "a row may now sum to less than 1"
            assert!(b.heads[h].row_sum[i] < 1.0);
            // "the order of the keys stays"
            for j in 0..=i {
                for k in 0..=i {
                    if wa[[i, j]] > wa[[i, k]] {
                        assert!(wb[[i, j]] > wb[[i, k]]);
                    }
                }
            }
        }
    }
    // "Point at a cell of B: the reading gives its row's sum." (no entropy to read
    // instead: the reading falls back on the sum, src/lab/cell_info.rs)
    assert!(!figure(&s, 1).has_row_entropy());
    // "Evan Miller's blog post "Attention Is Off By One" (2023)"
    let [en, zh] = words("beyond-softmax", "plus-one");
    assert!(en.contains("Evan Miller's blog post \"Attention Is Off By One\" (2023)"));
    assert!(zh.contains("Evan Miller 在 2023 年的博客文章“Attention Is Off By One”"));
}

#[test]
fn beyond_softmax_a_learnt_sink_keeps_more_back() {
    let s = step("beyond-softmax", "sink");
    let (va, vb) = (&s.state.variants[0], &s.state.variants[1]);
    assert_eq!(va.attention, AttentionKind::SoftmaxPlusOne);
    assert_eq!(vb.attention, AttentionKind::Sink);
    // "B has s_h = 2"
    assert_eq!(vb.sink_logit, 2.0);
    let (a, b) = (run(&s, 0), run(&s, 1));
    for h in 0..HEADS {
        // "every row of B sums to less than the same row of A, so the difference A − B is
        // positive"
        for i in 0..a.heads[h].row_sum.len() {
            assert!(
                b.heads[h].row_sum[i] < a.heads[h].row_sum[i],
                "head {h} row {i}"
            );
        }
        let d = &a.heads[h].weights - &b.heads[h].weights;
        assert!(d.iter().all(|&x| x >= 0.0) && d.iter().any(|&x| x > 0.0));
    }
    // "s_h = 0 is softmax + 1, a very negative s_h gives softmax back"
    let mut zero = s.state.clone();
    zero.variants[1].sink_logit = 0.0;
    let zero = Pipeline::new(&zero).variant(1).unwrap();
    let mut negative = s.state.clone();
    negative.variants[1].sink_logit = -20.0;
    negative.variants[0].attention = AttentionKind::Softmax;
    let softmax = Pipeline::new(&negative).variant(0).unwrap();
    let negative = Pipeline::new(&negative).variant(1).unwrap();
    for h in 0..HEADS {
        let d0 = &zero.heads[h].weights - &a.heads[h].weights;
        assert!(d0.iter().all(|x| x.abs() < 1e-6));
        let dn = &negative.heads[h].weights - &softmax.heads[h].weights;
        assert!(dn.iter().all(|x| x.abs() < 1e-5));
    }
    // "a larger s_h lets the head keep more of its weight unspent"
    let mut larger = s.state.clone();
    larger.variants[1].sink_logit = 4.0;
    let larger = Pipeline::new(&larger).variant(1).unwrap();
    for h in 0..HEADS {
        for (x, y) in larger.heads[h].row_sum.iter().zip(&b.heads[h].row_sum) {
            assert!(x < y);
        }
    }
    // "gpt-oss has such a learnt sink per head." (no other model named)
    let [en, zh] = words("beyond-softmax", "sink");
    assert!(en.contains("gpt-oss has such a learnt sink per head."));
    assert!(zh.contains("gpt-oss 的每个头都有这样一个学到的汇聚 logit"));
}

#[test]
fn beyond_softmax_sigmoid_keeps_softmax_s_favourite_key() {
    let s = step("beyond-softmax", "predict-sigmoid");
    assert_eq!(s.state.variants[1].attention, AttentionKind::Sigmoid);
    // "Row 7 is the query "it" in both variants."
    let p = Pipeline::new(&s.state);
    assert_eq!(p.queries().labels()[7], "it");
    let StepKind::Predict(q) = &s.kind else {
        panic!("the step asks nothing")
    };
    // "{answer}, the key A's softmax weighs most too."
    let Answer::Key { index, .. } = answer(q, &s.state, None).unwrap() else {
        panic!()
    };
    let a = run(&s, 0);
    let row = a.heads[0].weights.row(7).to_owned();
    let softmax_best = (0..row.len())
        .max_by(|&x, &y| row[x].total_cmp(&row[y]))
        .unwrap();
    assert_eq!(index, softmax_best);
    // "σ is increasing, so the highest logit still gets the highest weight" (every head,
    // every row)
    let b = run(&s, 1);
    for h in 0..HEADS {
        let (wa, wb) = (&a.heads[h].weights, &b.heads[h].weights);
        for i in 0..wa.nrows() {
            for j in 0..=i {
                for k in 0..=i {
                    if wa[[i, j]] > wa[[i, k]] {
                        assert!(wb[[i, j]] >= wb[[i, k]], "head {h} row {i}");
                    }
                }
            }
        }
    }
}

#[test]
fn beyond_softmax_sigmoid_rows_sum_to_different_amounts() {
    let s = step("beyond-softmax", "sigmoid");
    let v = &s.state.variants[1];
    assert_eq!(v.attention, AttentionKind::Sigmoid);
    // "Here b = −ln m with m = 11 keys, so a row of zero logits would give each key 1/12."
    assert_eq!(v.sigmoid_bias, None, "the default bias −ln m");
    let m = Pipeline::new(&s.state).keys().used().len();
    assert_eq!(m, 11);
    let b = -(m as f32).ln();
    assert!((1.0 / (1.0 + (-b).exp()) - 1.0 / 12.0).abs() < 1e-7);
    let r = run(&s, 1);
    let a = run(&s, 0);
    for h in 0..HEADS {
        let w = &r.heads[h].weights;
        let scores = a.heads[h].scores.as_ref().unwrap();
        // "weighs each key by σ(z + b)"
        for i in 0..w.nrows() {
            for j in 0..=i {
                let z = scores[[i, j]];
                let want = 1.0 / (1.0 + (-(z + b)).exp());
                assert!((w[[i, j]] - want).abs() < 1e-5, "head {h} ({i}, {j})");
            }
        }
        // "No row has to sum to 1: B's rows sum to different amounts"
        let sums = row_sums(w);
        let (lo, hi) = sums
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        assert!(hi - lo > 0.1, "head {h}: {lo} … {hi}");
        assert!(
            sums.iter().all(|&x| (x - 1.0).abs() > 1e-3),
            "head {h}: {sums:?}"
        );
        // "and the first query no longer gives itself everything"
        assert!(w[[0, 0]] < 1.0);
    }
    // "(point at a cell to read its row's sum)"
    assert!(!figure(&s, 1).has_row_entropy());
    // "Sigmoid attention (Ramapuram et al., Apple, 2024)"; "Softpick (Zuhri et al. 2025)
    // … a key with a negative logit gets exactly 0"
    let [en, zh] = words("beyond-softmax", "sigmoid");
    assert!(en.contains("(Ramapuram et al., Apple, 2024)") && en.contains("(Zuhri et al. 2025)"));
    assert!(zh.contains("（Ramapuram 等，苹果，2024）") && zh.contains("（Zuhri 等，2025）"));
    let mut softpick = s.state.clone();
    softpick.variants[1].attention = AttentionKind::Softpick;
    let sp = Pipeline::new(&softpick).variant(1).unwrap();
    for h in 0..HEADS {
        let scores = a.heads[h].scores.as_ref().unwrap();
        for ((i, j), &w) in sp.heads[h].weights.indexed_iter() {
            if j <= i && scores[[i, j]] < 0.0 {
                assert_eq!(w, 0.0);
            }
        }
    }
}

#[test]
fn beyond_softmax_differential_goes_negative_and_rows_sum_to_one_minus_lambda() {
    let s = step("beyond-softmax", "differential");
    let v = &s.state.variants[1];
    assert_eq!(v.attention, AttentionKind::Differential);
    // "here λ = 0.8"
    assert_eq!(v.lambda, 0.8);
    let r = run(&s, 1);
    let mut negative = 0;
    for h in 0..HEADS {
        let w = &r.heads[h].weights;
        // "Each row sums to 1 − λ = 0.2."
        for (i, sum) in row_sums(w).into_iter().enumerate() {
            assert!((sum - 0.2).abs() < 1e-5, "head {h} row {i}: {sum}");
        }
        negative += w.iter().filter(|&&x| x < 0.0).count();
    }
    // "Cells where the second map is larger go negative: the heatmap draws them on the
    // other side of its diverging palette."
    assert!(negative > 0);
    assert!(r.heads[0].weights.iter().any(|&x| x < 0.0));
    assert_eq!(figure(&s, 1).scale(), ColorScale::Diverging);
    assert_eq!(figure(&s, 0).scale(), ColorScale::Sequential);
    // "(Ye et al., Microsoft, 2024) … softmax(z₁) − λ·softmax(z₂)"
    let [en, zh] = words("beyond-softmax", "differential");
    assert!(
        en.contains("(Ye et al., Microsoft, 2024)") && en.contains("softmax(z₁) − λ·softmax(z₂)")
    );
    assert!(zh.contains("（Ye 等，微软，2024）"));
}

// ---- Lesson 12: decayed linear attention ----

/// The stepper's decayed trace for a step: the shown variant's own `γ`, as the stepper
/// opens with it (src/pages/linear/rnn_stepper.rs), or the seeded gates.
fn decayed(step: &Step, gates: bool) -> DecayedTrace {
    let v = step.state.selected_variant().unwrap();
    assert_eq!(v.attention, AttentionKind::DecayedLinear);
    let decay = match gates {
        true => Decay::Gates,
        false => Decay::Constant(v.decay),
    };
    let r = run(step, step.state.view.variant);
    decayed_trace(&r.problem, 0, decay, step.state.model.seed).unwrap()
}

#[test]
fn decayed_linear_attention_forgets_nothing_without_a_decay() {
    let s = step("decayed-linear", "forgets-nothing");
    assert_eq!(s.state.variants[0].attention, AttentionKind::Elu1);
    let r = run(&s, 0);
    let trace = rnn_trace(&r.problem, 0, AttentionKind::Elu1).unwrap();
    let n = trace.len();
    let v = &r.problem.heads()[0].v;
    // "S_t = S_{t−1} + φ(k_t) v_tᵀ … at the last token, S still holds φ(k_0) v_0ᵀ of the
    // first token with the same weight, 1, as the newest one": S_{n−1} = Σ_j φ(k_j) v_jᵀ.
    let last = trace.step(n - 1).unwrap();
    let mut sum = Array2::<f32>::zeros(last.s.dim());
    for t in 0..n {
        let st = trace.step(t).unwrap();
        for a in 0..sum.nrows() {
            for b in 0..sum.ncols() {
                sum[[a, b]] += st.phi_k[a] * v[[t, b]];
            }
        }
        // "the state keeps its size, d × d"
        assert_eq!(st.s.dim(), (16, 16));
    }
    let largest = sum.iter().fold(0f32, |m, x| m.max(x.abs()));
    let diff = (&last.s - &sum).iter().fold(0f32, |m, x| m.max(x.abs()));
    assert!(diff < 1e-5 * largest.max(1.0), "{diff}");
}

#[test]
fn decayed_linear_retnet_decay_and_its_matrix_d() {
    let s = step("decayed-linear", "decay");
    // "The variant here has γ = 0.9, and the stepper opens with it."
    assert_eq!(s.state.variants[0].decay, 0.9);
    let trace = decayed(&s, false);
    assert!(trace.gates.iter().all(|&g| g == 0.9));
    // "ten tokens later about 0.35 of it is left"
    assert!(
        (trace.d[[10, 0]] - 0.35).abs() < 0.005,
        "{}",
        trace.d[[10, 0]]
    );
    // "There is no φ and no normaliser: the scores are used as they are." W = D ⊙ QKᵀ/√d_k
    let r = run(&s, 0);
    let head = &r.problem.heads()[0];
    let scores = head.q.dot(&head.k.t()) / 4.0;
    let n = scores.nrows();
    let s = step("decayed-linear", "masked");
    assert_eq!(decayed(&s, false).d, trace.d);
    for i in 0..n {
        for j in 0..n {
            // "D_ij = γ^{i−j} for j ≤ i and 0 above the diagonal … 1 on the diagonal, 0.9
            // next to it, 0.81 after that"
            let want = if j <= i {
                0.9f32.powi((i - j) as i32)
            } else {
                0.0
            };
            assert!((trace.d[[i, j]] - want).abs() < 1e-6, "D ({i}, {j})");
            // "W = D ⊙ QKᵀ/√d_k"
            let w = want * scores[[i, j]];
            assert!((trace.weights[[i, j]] - w).abs() < 1e-5, "W ({i}, {j})");
            // the lab's head is the same W
            assert!((r.heads[0].weights[[i, j]] - w).abs() < 1e-5);
        }
    }
    // "W has no softmax, so its cells can be negative."
    assert!(trace.weights.iter().any(|&w| w < 0.0));
}

#[test]
fn decayed_linear_both_forms_give_the_same_numbers() {
    let s = step("decayed-linear", "same-numbers");
    let trace = decayed(&s, false);
    // "the largest difference over every t is rounding, below 10⁻⁵"
    assert!(trace.max_abs_diff() < 1e-5, "{}", trace.max_abs_diff());
    // "The recurrence needs a d × d state"
    assert_eq!(trace.step(trace.len() - 1).unwrap().s.dim(), (16, 16));
}

#[test]
fn decayed_linear_gates_are_a_product_and_still_agree() {
    let s = step("decayed-linear", "gates");
    let trace = decayed(&s, true);
    let r = run(&s, 0);
    let gates = seeded_gates(s.state.model.seed, 0, &r.problem.heads()[0].k);
    assert_eq!(trace.gates, gates);
    // "a gate a_t between 0 and 1 computed from the token"; "the rows of D now fade at
    // different speeds"
    assert!(gates.iter().all(|&a| a > 0.0 && a < 1.0));
    let (lo, hi) = gates
        .iter()
        .fold((1f32, 0f32), |(lo, hi), &a| (lo.min(a), hi.max(a)));
    assert!(hi - lo > 0.1, "{lo} … {hi}");
    // "D_ij = a_{j+1}·…·a_i, a product instead of a power"
    let n = gates.len();
    for i in 0..n {
        for j in 0..=i {
            let want: f32 = gates[j + 1..=i].iter().product();
            assert!((trace.d[[i, j]] - want).abs() < 1e-5, "D ({i}, {j})");
        }
    }
    // "and both forms still agree"
    assert!(trace.max_abs_diff() < 1e-5, "{}", trace.max_abs_diff());
}

#[test]
fn decayed_linear_a_smaller_gamma_reads_the_nearest_tokens() {
    let s = step("decayed-linear", "lab");
    assert_eq!(s.state.variants[0].decay, 0.9);
    // "B has γ = 0.5"
    assert_eq!(s.state.variants[1].decay, 0.5);
    let (a, b) = (run(&s, 0), run(&s, 1));
    let mut negative = false;
    for h in 0..HEADS {
        let (wa, wb) = (&a.heads[h].weights, &b.heads[h].weights);
        for ((i, j), &x) in wa.indexed_iter() {
            // "Everything above the diagonal is 0."
            if j > i {
                assert_eq!((x, wb[[i, j]]), (0.0, 0.0));
                continue;
            }
            // "each cell i − j steps below the diagonal is A's multiplied by
            // (0.5/0.9)^{i−j}"
            let want = x * (0.5f32 / 0.9).powi((i - j) as i32);
            assert!((wb[[i, j]] - want).abs() < 1e-5, "head {h} ({i}, {j})");
            negative |= x < 0.0;
        }
        // "rows are not normalised"
        assert!(a.heads[h].row_sum.iter().any(|&x| (x - 1.0).abs() > 0.01));
    }
    // "negative weights show on the other side of the diverging palette"
    assert!(negative);
    assert_eq!(figure(&s, 0).scale(), ColorScale::Diverging);
    // "γ = 1 would be linear attention with no decay and no normaliser"
    let mut one = s.state.clone();
    one.variants[0].decay = 1.0;
    let one = Pipeline::new(&one).variant(0).unwrap();
    let head = &one.problem.heads()[0];
    let scores = head.q.dot(&head.k.t()) / 4.0;
    for ((i, j), &x) in one.heads[0].weights.indexed_iter() {
        let want = if j <= i { scores[[i, j]] } else { 0.0 };
        assert!((x - want).abs() < 1e-5);
    }
}

#[test]
fn decayed_linear_names_its_sources_as_the_references_do() {
    // "RetNet (Sun et al. 2023)"; "GLA, Yang et al. 2023"; "Mamba-2's state space duality
    // (Dao & Gu 2024)"; "Mamba-2 has one gate per head and token, as here; GLA gives each
    // dimension of the key its own gate."
    let [en, zh] = words("decayed-linear", "decay");
    assert!(en.contains("RetNet (Sun et al. 2023)") && zh.contains("RetNet（Sun 等，2023）"));
    let [en, zh] = words("decayed-linear", "gates");
    assert!(en.contains("(GLA, Yang et al. 2023)") && en.contains("(Dao & Gu 2024)"));
    assert!(en.contains("GLA gives each dimension of the key its own gate"));
    assert!(zh.contains("（GLA，Yang 等，2023）") && zh.contains("（Dao 与 Gu，2024）"));
    assert!(zh.contains("GLA 则给键的每一维一个自己的门"));
}
