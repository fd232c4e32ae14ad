//! What the lessons `rope` (09) and `long-context` (10) say, checked against what the app
//! computes for each step's own state (read from the lesson files), with the functions
//! the positions page and the lab draw from. The sentence checked is quoted above each
//! assertion.

mod common;

use common::{run, says, step};

use attnlab_core::alibi::paper_slopes;
use attnlab_core::rope::{self, Rope, RopePairs, RopeScaling};
use attnlab_lab::compute::{Pipeline, Which};
use attnlab_lab::state::{LabState, View};
use attnlab_lessons::{Answer, Lang, StepKind, answer};
use attnlab_pages::positions::{
    PAPER_DIMS, PAPER_DISTANCE, RepeatedWord, RopeSettings, ScalingKind, decay_chart, pair_turn,
    repeated_word, wavelengths,
};
use ndarray::{Array2, ArrayRef2};

/// The positions page's RoPE settings in `state`: the page's defaults, following the
/// shown variant's RoPE when it has one (src/pages/positions/rope_panel.rs).
fn page_settings(state: &LabState) -> RopeSettings {
    let shown = View::shown_variant(state.view.variant, state.variants.len());
    match &state.variants[shown].rope {
        Some(rope) => RopeSettings::default().following(rope),
        None => RopeSettings::default(),
    }
}

/// The proof's figures as the page computes them: the first word of the sentence, in the
/// shown head, repeated as many times as the sentence has tokens (12 to 64).
fn proof(state: &LabState) -> RepeatedWord {
    let tokens = state.query_tokens();
    let used = tokens.used();
    let n = used.len().clamp(12, 64);
    let head = View::shown_head(state.view.head, state.model.heads);
    repeated_word(&state.model, &page_settings(state), &used[0], head, n).unwrap()
}

/// The largest |difference| of two matrices.
fn max_abs(a: &ArrayRef2<f32>, b: &ArrayRef2<f32>) -> f32 {
    (a - b).iter().fold(0.0f32, |m, d| m.max(d.abs()))
}

#[test]
fn rope_lost_the_sinusoid_s_scores_vary_along_the_diagonals() {
    let s = step("rope", "lost");
    let r = proof(&s.state);
    // "Its scores still vary along each diagonal (one distance i − j): they depend on
    // where both copies stand."
    says(
        "rope",
        "lost",
        "vary along each diagonal",
        "沿每条对角线（同一个距离 i − j）仍在变化",
    );
    let top = r.sinusoid.iter().fold(0f32, |a, v| a.max(v.abs()));
    assert!(
        r.sinusoid_spread > 0.05 * top,
        "{} of {top}",
        r.sinusoid_spread
    );
    // "The figure puts one word at every position": the page's word, 12 times.
    assert_eq!(r.sinusoid.dim(), (12, 12));
    // "In his 2018 “浅读” article, Su Jianlin called attention's weak grasp of position a
    // 硬伤": the article (2018-01-06) names it so.
    says("rope", "lost", "2018 “浅读”", "2018 年的《浅读》");
}

#[test]
fn rope_turn_pair_0_is_dims_0_and_8_turning_once_every_2_pi() {
    let s = step("rope", "turn");
    let settings = page_settings(&s.state);
    let tokens = s.state.query_tokens();
    let word = &tokens.used()[0];
    let head = View::shown_head(s.state.view.head, s.state.model.heads);
    // The page draws at least 64 positions.
    let t = pair_turn(&s.state.model, &settings, word, head, 0, 64).unwrap();
    // "pair 0 of one word's query, dimensions 0 and 8 here: θ_0 = 1, a full turn every
    // 2π ≈ 6.28 positions"
    says("rope", "turn", "dimensions 0 and 8", "第 0 维和第 8 维");
    assert_eq!(s.state.model.d_k(), 16);
    assert_eq!(t.dims, (0, 8));
    assert_eq!(t.theta, 1.0);
    assert_eq!(format!("{:.2}", t.wavelength()), "6.28");
    // "its length (dashed) never changes"
    let len = |c: &(f64, f64)| c.0.hypot(c.1);
    let first = len(&t.coords[0]);
    assert!(first > 0.1);
    for c in &t.coords {
        assert!((len(c) - first).abs() < 1e-5 * first.max(1.0), "{c:?}");
    }
    // "The last pair turns more than 3000 times more slowly."
    let last = pair_turn(&s.state.model, &settings, word, head, 7, 64).unwrap();
    let ratio = t.theta / last.theta;
    assert!(ratio > 3000.0 && ratio < 3500.0, "{ratio}");
    // "θ_i = 10000^(−2i/d_k)"
    assert_eq!(settings.base, 10_000.0);
    assert!((last.theta - 10_000f64.powf(-14.0 / 16.0)).abs() < 1e-15);
}

#[test]
fn rope_proof_every_diagonal_holds_one_number_and_moving_changes_nothing() {
    let s = step("rope", "proof");
    let r = proof(&s.state);
    // "the same word with RoPE: every diagonal holds one number, up to rounding"
    says(
        "rope",
        "proof",
        "every diagonal holds one number",
        "每条对角线上只有一个数",
    );
    let top = r.rope.iter().fold(0f32, |a, v| a.max(v.abs()));
    assert!(top > 1.0, "{top}");
    assert!(r.rope_spread < 1e-5, "{}", r.rope_spread);
    assert!(r.sinusoid_spread > 1000.0 * r.rope_spread.max(1e-6));
    // "Move the whole sentence along and no score changes." The step's own sentence, its
    // q and k without added positions, turned from position 0 and from position 7.
    let mut bare = s.state.clone();
    bare.model.position.kind = attnlab_core::position::PositionKind::None;
    let result = Pipeline::new(&bare).variant(0).unwrap();
    let head = &result.problem.heads()[0];
    let n = head.q.nrows();
    let settings = page_settings(&s.state);
    let rope = settings.rope(16);
    let scores = |from: f32| {
        let at: Vec<f32> = (0..n).map(|p| from + p as f32).collect();
        let (mut q, mut k) = (head.q.clone(), head.k.clone());
        rope.turn(&mut q, &at);
        rope.turn(&mut k, &at);
        q.dot(&k.t())
    };
    let (a, b) = (scores(0.0), scores(7.0));
    let top = a.iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(max_abs(&a, &b) < 1e-5 * top.max(1.0), "{}", max_abs(&a, &b));
}

#[test]
fn rope_decay_falls_from_32_5_to_below_8_with_ripples() {
    let s = step("rope", "decay");
    let chart = decay_chart(&page_settings(&s.state), Lang::En);
    // "drawn for d = 128 as in the paper"
    assert_eq!(PAPER_DIMS, 128);
    assert_eq!(chart.series.len(), 1);
    let points = &chart.series[0].points;
    // "falls from 32.5 at distance 0 to below 8 at distance 250, with ripples"
    says(
        "rope",
        "decay",
        "from 32.5 at distance 0 to below 8 at distance 250",
        "距离 0 时为 32.5，到距离 250 时降到 8 以下",
    );
    assert_eq!(points[0].0, 0.0);
    assert!((points[0].1 - 32.5).abs() < 1e-9);
    let last = points.last().unwrap();
    assert_eq!(last.0, PAPER_DISTANCE as f64);
    assert!(last.1 < 8.0 && last.1 > 1.0, "{}", last.1);
    let rises = points.windows(2).filter(|w| w[1].1 > w[0].1).count();
    assert!(rises > 0, "no ripple");
}

/// The q and k of head 0 of variant 0, f32.
fn q_and_k(state: &LabState) -> (Array2<f32>, Array2<f32>) {
    let r = Pipeline::new(state).variant(0).unwrap();
    let head = &r.problem.heads()[0];
    (head.q.clone(), head.k.clone())
}

#[test]
fn rope_pairs_differ_on_the_same_weights_and_a_reordering_maps_one_onto_the_other() {
    let s = step("rope", "pairs");
    // "A and B are one head with RoPE and no other positions, A pairing halves, B
    // neighbours."
    let (a, b) = (&s.state.variants[0], &s.state.variants[1]);
    assert_eq!(
        s.state.model.position.kind,
        attnlab_core::position::PositionKind::None
    );
    assert_eq!(a.rope.as_ref().unwrap().pairs, RopePairs::Half);
    assert_eq!(b.rope.as_ref().unwrap().pairs, RopePairs::Interleaved);
    let (mut twin, mut other) = (a.clone(), b.clone());
    twin.rope = None;
    other.rope = None;
    twin.name.clear();
    other.name.clear();
    assert_eq!(twin, other, "A and B differ in more than the pairing");
    // "On the same W_Q and W_K their weights differ."
    let (ra, rb) = (run(&s, 0), run(&s, 1));
    let diff = max_abs(&ra.heads[0].weights, &rb.heads[0].weights);
    assert!(diff > 0.01, "{diff}");
    // "Reorder the columns of W_Q and W_K and one layout gives exactly the other's
    // scores": q with its columns reordered (half pair t = (t, t + 8) → (2t, 2t + 1)),
    // turned by neighbours, is q turned by halves, reordered the same way.
    let (q, k) = q_and_k(&s.state);
    let mut bare = s.state.clone();
    bare.variants[0].rope = None;
    let (q0, k0) = q_and_k(&bare);
    let (n, d) = q0.dim();
    let reorder = |x: &Array2<f32>| {
        Array2::from_shape_fn((x.nrows(), d), |(i, c)| {
            let (t, second) = (c / 2, c % 2);
            x[[i, t + second * d / 2]]
        })
    };
    let at = rope::positions_or_count(None, n);
    let turned = |x: &Array2<f32>, pairs| {
        let mut x = x.clone();
        Rope {
            pairs,
            ..Rope::default()
        }
        .turn(&mut x, &at);
        x
    };
    // The lab's own A is the halves turn of the bare q and k.
    assert!(max_abs(&turned(&q0, RopePairs::Half), &q) < 1e-5);
    assert!(max_abs(&turned(&k0, RopePairs::Half), &k) < 1e-5);
    let (qi, ki) = (
        turned(&reorder(&q0), RopePairs::Interleaved),
        turned(&reorder(&k0), RopePairs::Interleaved),
    );
    assert!(max_abs(&qi, &reorder(&q)) < 1e-5);
    let (half, neighbours) = (q.dot(&k.t()), qi.dot(&ki.t()));
    assert!(
        max_abs(&half, &neighbours) < 1e-4,
        "{}",
        max_abs(&half, &neighbours)
    );
    // "RoFormer and GPT-J pair neighbours (2i, 2i + 1); GPT-NeoX, and Llama as Hugging
    // Face's code runs it, pair halves (i, i + d/2)."
    assert_eq!(RopePairs::Interleaved.dims(3, 16), (6, 7));
    assert_eq!(RopePairs::Half.dims(3, 16), (3, 11));
    says(
        "rope",
        "pairs",
        "Llama as Hugging Face's code runs it",
        "Hugging Face 代码里的 Llama",
    );
}

#[test]
fn rope_predict_the_repeated_word_is_uniform_in_a_and_not_in_b() {
    let s = step("rope", "predict-repeated");
    let p = Pipeline::new(&s.state);
    // "The sentence is one word ten times, and no position vector is added."
    let labels = p.queries().labels();
    assert_eq!(labels.len(), 10);
    assert!(labels.iter().all(|l| l == &labels[0]));
    assert_eq!(
        s.state.model.position.kind,
        attnlab_core::position::PositionKind::None
    );
    assert!(s.state.variants[0].rope.is_none() && s.state.variants[1].rope.is_some());
    // "It is {answer}."
    let StepKind::Predict(q) = &s.kind else {
        panic!("asks nothing")
    };
    let Answer::Variant { index, .. } = answer(q, &s.state, None).unwrap() else {
        panic!()
    };
    assert_eq!(index, 1);
    // "each row is uniform, 1/10 per key"
    for head in &run(&s, 0).heads {
        assert!(head.weights.iter().all(|w| (w - 0.1).abs() < 1e-6));
    }
    // "each score depends on the distance i − j and no row is uniform"
    let b = run(&s, 1);
    for head in &b.heads {
        for row in head.weights.rows() {
            assert!(row.iter().any(|w| (w - 0.1).abs() > 1e-3), "{row}");
        }
        let scores = head.scores.as_ref().expect("softmax keeps its scores");
        let spread = attnlab_pages::positions::diagonal_spread(&scores.to_owned());
        assert!(spread < 1e-4, "{spread}");
    }
    let e = |v: usize| {
        run(&s, v)
            .weights(Which::Average)
            .unwrap()
            .mean_entropy()
            .unwrap()
    };
    assert!((e(0) - 10f32.ln()).abs() < 1e-5 && e(1) < e(0));
}

/// The ratio of each pair's wavelength under `kind` to its wavelength without scaling,
/// with the page's settings in `state`.
fn ratios(state: &LabState, kind: ScalingKind) -> Vec<f64> {
    let s = page_settings(state);
    let plain = wavelengths(&s, ScalingKind::None, PAPER_DIMS);
    wavelengths(&s, kind, PAPER_DIMS)
        .iter()
        .zip(&plain)
        .map(|(w, p)| w / p)
        .collect()
}

#[test]
fn long_context_beyond_18_of_64_pairs_never_turn_fully() {
    let s = step("long-context", "beyond");
    let settings = page_settings(&s.state);
    // "drawn here for d = 128 and base 10000 … L_train = 4096"
    assert_eq!(settings.scaling, ScalingKind::None);
    assert_eq!((settings.base, settings.trained), (10_000.0, 4096));
    let w = wavelengths(&settings, ScalingKind::None, PAPER_DIMS);
    assert_eq!(w.len(), 64);
    // "the 18 slowest of its 64 pairs never made a full turn: their wavelengths lie above
    // the L_train line"
    says(
        "long-context",
        "beyond",
        "the 18 slowest of its 64 pairs",
        "64 对中最慢的 18 对",
    );
    let above: Vec<usize> = (0..64).filter(|&t| w[t] > 4096.0).collect();
    assert_eq!(above, (46..64).collect::<Vec<_>>());
    // "saw the fast pairs turn many times"
    assert!(4096.0 / w[0] > 600.0);
}

#[test]
fn long_context_linear_stretches_every_wavelength_four_times() {
    let s = step("long-context", "linear");
    let settings = page_settings(&s.state);
    // "here s = 4: every wavelength becomes 4 times as long, and at 4 × 4096 = 16384
    // positions each pair has turned no further than it did at 4096"
    says(
        "long-context",
        "linear",
        "4 × 4096 = 16384",
        "4 × 4096 = 16384",
    );
    assert_eq!(
        (settings.scaling, settings.factor, settings.trained),
        (ScalingKind::Linear, 4.0, 4096)
    );
    for r in ratios(&s.state, ScalingKind::Linear) {
        assert!((r - 4.0).abs() < 1e-9, "{r}");
    }
    // The figure marks s·L_train = 16384.
    let chart = attnlab_pages::positions::wavelength_chart(&settings, Lang::En);
    assert!(
        chart
            .series
            .iter()
            .any(|s| s.name.as_deref() == Some("s·L_train = 16384"))
    );
}

#[test]
fn long_context_ntk_keeps_pair_0_and_stretches_the_slowest_by_s() {
    let s = step("long-context", "ntk");
    let settings = page_settings(&s.state);
    assert_eq!((settings.scaling, settings.factor), (ScalingKind::Ntk, 4.0));
    // "base·s^(d/(d−2))": the core's NTK base.
    let freq = settings.frequencies(ScalingKind::Ntk, PAPER_DIMS);
    let base = 10_000f64 * 4f64.powf(128.0 / 126.0);
    assert!((freq.per_position[1] / base.powf(-2.0 / 128.0) - 1.0).abs() < 1e-9);
    // "Pair 0 keeps its wavelength exactly, the slowest pair's is stretched by the full
    // s = 4, and the pairs between by less and less towards the fast end."
    let r = ratios(&s.state, ScalingKind::Ntk);
    assert_eq!(r[0], 1.0);
    assert!((r[63] - 4.0).abs() < 1e-9, "{}", r[63]);
    assert!(r.windows(2).all(|w| w[1] > w[0]));
    // "a 2023 community proposal (bloc97)"
    says(
        "long-context",
        "ntk",
        "2023 community proposal (bloc97)",
        "2023 年社区里（bloc97）",
    );
}

#[test]
fn long_context_yarn_keeps_21_pairs_interpolates_18_and_blends_25() {
    let s = step("long-context", "yarn");
    let settings = page_settings(&s.state);
    assert_eq!(
        (settings.scaling, settings.factor, settings.trained),
        (ScalingKind::Yarn, 4.0, 4096)
    );
    // "pairs turning 32 times or more keep their angles, pairs turning less than once are
    // interpolated by s, and those between are blended. Here, with s = 4, 21 pairs are
    // kept, 18 interpolated and 25 blended."
    says(
        "long-context",
        "yarn",
        "21 pairs are kept, 18 interpolated and 25 blended",
        "保留 21 对，插值 18 对，混合 25 对",
    );
    let r = ratios(&s.state, ScalingKind::Yarn);
    let kept = r.iter().filter(|&&x| (x - 1.0).abs() < 1e-12).count();
    let interpolated = r.iter().filter(|&&x| (x - 4.0).abs() < 1e-9).count();
    assert_eq!(
        (kept, interpolated, r.len() - kept - interpolated),
        (21, 18, 25)
    );
    let plain = wavelengths(&settings, ScalingKind::None, PAPER_DIMS);
    for (t, (&x, &w)) in r.iter().zip(&plain).enumerate() {
        let turns = 4096.0 / w;
        if turns >= 32.0 {
            assert_eq!(x, 1.0, "pair {t} turns {turns} times");
        }
        if turns < 1.0 {
            assert!((x - 4.0).abs() < 1e-9, "pair {t} turns {turns} times");
        }
        if x > 1.0 && x < 4.0 {
            assert!((1.0..32.0 * 1.5).contains(&turns), "pair {t}: {turns}");
        }
    }
    // "It also multiplies cos and sin by 0.1·ln s + 1"
    let f = settings.frequencies(ScalingKind::Yarn, PAPER_DIMS);
    assert!((f.mscale - (0.1 * 4f64.ln() + 1.0)).abs() < 1e-6);
    let chart = attnlab_pages::positions::wavelength_chart(&settings, Lang::En);
    let names: Vec<_> = chart.series.iter().filter_map(|s| s.name.clone()).collect();
    assert_eq!(names[..2], ["no scaling", "YaRN"]);
    // The page's scaling is the lab variant's.
    assert!(matches!(
        s.state.variants[0].rope.as_ref().unwrap().scaling,
        RopeScaling::Yarn { factor: 4.0, .. }
    ));
}

#[test]
fn long_context_alibi_slopes_for_four_heads() {
    let s = step("long-context", "alibi");
    // "for this model's 4 heads, 1/4, 1/16, 1/64 and 1/256"
    says(
        "long-context",
        "alibi",
        "1/4, 1/16, 1/64 and 1/256",
        "1/4、1/16、1/64 和 1/256",
    );
    assert_eq!(s.state.model.heads, 4);
    assert_eq!(paper_slopes(4), [0.25, 1.0 / 16.0, 1.0 / 64.0, 1.0 / 256.0]);
    // "each head adds −m_h·|i − j| to its logits": the figure's bias of head 1.
    let (m, bias) = attnlab_pages::positions::alibi_bias(4, 1, 12);
    assert_eq!(m, 1.0 / 16.0);
    assert_eq!(bias[[2, 9]], -7.0 / 16.0);
    // "(Press et al., 2021; ICLR 2022)"
    says(
        "long-context",
        "alibi",
        "(Press et al., 2021; ICLR 2022)",
        "（Press 等，2021；ICLR 2022）",
    );
}

#[test]
fn long_context_sinks_keep_key_0_open_beside_the_window() {
    let s = step("long-context", "sinks");
    // "A is causal with a window of 3 keys; B also keeps key 0 open for every query: its
    // column is never closed."
    says("long-context", "sinks", "window of 3 keys", "窗口为 3 个键");
    let (a, b) = (run(&s, 0), run(&s, 1));
    let n = a.heads[0].weights.nrows();
    assert_eq!(n, 11);
    let positive = |w: &ArrayRef2<f32>, i: usize| -> Vec<usize> {
        (0..w.ncols()).filter(|&j| w[[i, j]] > 0.0).collect()
    };
    for h in 0..4 {
        let (wa, wb) = (&a.heads[h].weights, &b.heads[h].weights);
        for i in 0..n {
            let window: Vec<usize> = (i.saturating_sub(2)..=i).collect();
            assert_eq!(positive(wa, i), window, "A head {h} row {i}");
            let mut open = window.clone();
            open.push(0);
            open.sort();
            open.dedup();
            assert_eq!(positive(wb, i), open, "B head {h} row {i}");
        }
    }
    // "four in the paper": StreamingLLM keeps 4 initial tokens.
    says("long-context", "sinks", "four in the paper", "论文中是四个");
}
