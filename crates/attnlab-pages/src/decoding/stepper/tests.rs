use attnlab_i18n::Lang;
use attnlab_lab::LabState;
use attnlab_lab::compute::{self, Pipeline};
use attnlab_lab::state::{BlockView, Mode, Norm};

use super::*;

/// The stepper on `state`, as the page builds it.
fn stepper_on(state: &LabState) -> Result<Stepper, CoreError> {
    crate::block::with_input(state, |_, input| stepper(input)).unwrap()
}

fn states() -> Vec<LabState> {
    let mut out = Vec::new();
    for mode in [Mode::SelfAttention, Mode::Cross] {
        for norm in [Norm::Post, Norm::Pre] {
            let mut state = LabState {
                mode,
                ..LabState::default()
            };
            state.view.block = BlockView {
                norm,
                layers: 3,
                ..BlockView::default()
            };
            out.push(state);
        }
    }
    out
}

#[test]
fn at_step_t_the_rows_after_t_are_zero_and_blocked_and_rows_up_to_t_sum_to_one() {
    let s = stepper_on(&LabState::default()).unwrap();
    let n = s.len();
    assert_eq!(n, 11);
    for t in [0, 4, n - 1] {
        let at = StepAt::within(&s, t, 1, 2);
        let h = weights(&s, at, Lang::En).unwrap();
        for i in 0..n {
            let sum: f32 = (0..n).map(|j| h.value(i, j).unwrap()).sum();
            if i <= t {
                assert!((sum - 1.0).abs() < 1e-5, "row {i} at step {t}: {sum}");
                assert!(!h.is_blocked(i, 0));
            } else {
                assert_eq!(sum, 0.0, "row {i} at step {t}");
                assert!((0..n).all(|j| h.is_blocked(i, j)));
            }
            // The causal mask: nothing after the diagonal.
            assert!((i + 1..n).all(|j| h.value(i, j) == Some(0.0) && h.is_blocked(i, j)));
        }
    }
}

#[test]
fn the_cache_holds_t_plus_one_rows_of_the_heads_features_and_its_rows_are_the_parallel_passes() {
    for state in states() {
        let s = stepper_on(&state).unwrap();
        let used = s.used();
        let d_k = used.d / used.heads;
        for t in 0..s.len() {
            let at = StepAt::within(&s, t, 2, 1);
            let c = cache(&s, at, Lang::En).unwrap();
            assert_eq!((c.keys.n_rows(), c.keys.n_cols()), (t + 1, d_k));
            assert_eq!((c.values.n_rows(), c.values.n_cols()), (t + 1, d_k));
            let size = s.cache_size(t);
            let m = s.memory_rows();
            assert_eq!(size.entries, 2 * used.layers * (t + 1 + m));
            assert_eq!(size.bytes, size.entries * used.d * 4);
        }
        // The keys cached from the decoded stream are the parallel pass's keys (the
        // self-attention sub-layer's input, normed in a pre-LN stack).
        for (l, layer) in s.prepared.block.layers().iter().enumerate() {
            let input = s.parallel.layers[l].self_sublayer.input.to_owned();
            let h = match s.prepared.block.norm() {
                Norm::Post => input,
                Norm::Pre => layer_norm(&input.view(), &layer.ln_self, s.prepared.block.eps()),
            };
            let (k, _) = keys_values(&layer.self_attention, &h);
            let diff = k
                .iter()
                .zip(&s.self_kv[l].0)
                .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
            assert!(diff < 1e-4, "layer {l}: {diff}");
        }
    }
}

#[test]
fn the_work_of_a_small_case_counted_by_hand() {
    // The default sentence, 2 layers, 4 heads, d = 64, f = 256, no memory.
    let s = stepper_on(&LabState::default()).unwrap();
    let used = s.used();
    assert_eq!(
        (used.layers, used.heads, used.d, used.ffn_width),
        (2, 4, 64, 256)
    );
    // Step 2: 3 rows cached.
    let w = work(&s, 2);
    assert_eq!(w.cells_cached, 2 * 4 * 3); // 24
    assert_eq!(w.cells_recomputed, 2 * 4 * 9); // 72
    // Per layer: 4·64² + 2·64·256 = 16,384 + 32,768 = 49,152; plus 2·3·64 = 384.
    assert_eq!(w.macs_cached, 2 * (49_152 + 384));
    // Per layer: 3·49,152 + 2·9·64 = 147,456 + 1,152.
    assert_eq!(w.macs_recomputed, 2 * (147_456 + 1_152));
    // The cells the core counted while decoding.
    assert_eq!(w.cells_cached, s.cache_size(2).cells as u64);
    let f = work_formulas(&s, 2);
    assert_eq!(f[0], "L·H·(t+1) = 2·4·3 = 24");
    assert_eq!(f[1], "L·H·(t+1)² = 2·4·3² = 72");
    assert!(f[2].ends_with(&format!("= {}", 2 * (49_152 + 384))));
    // Summed over steps 0 … 2.
    let (a, b) = cumulative(&s, 2);
    let by_step: u64 = (0..3).map(|t| work(&s, t).macs_cached).sum();
    assert_eq!(a, by_step);
    assert!(b > a);
    let chart = work_chart(&s, 2, Lang::En);
    assert_eq!(chart.series[0].points[2], (2.0, a as f64));
    assert_eq!(chart.series[1].points[2], (2.0, b as f64));
}

#[test]
fn cross_mode_caches_the_memorys_keys_and_values_once_and_counts_its_cells() {
    let state = LabState {
        mode: Mode::Cross,
        ..LabState::default()
    };
    let s = stepper_on(&state).unwrap();
    let m = s.memory_rows();
    assert!(m > 0);
    assert_eq!(s.memory_kv.len(), s.used().layers);
    let at = StepAt::within(&s, 1, 0, 0);
    let c = cache(&s, at, Lang::En).unwrap();
    let (mk, mv) = c.memory.expect("the memory's keys and values");
    let d_k = s.used().d / s.used().heads;
    assert_eq!((mk.n_rows(), mk.n_cols()), (m, d_k));
    assert_eq!((mv.n_rows(), mv.n_cols()), (m, d_k));
    // Their rows are the source's tokens, the same at every step.
    let later = cache(&s, StepAt::within(&s, 3, 0, 0), Lang::En).unwrap();
    assert_eq!(later.memory.unwrap().0, mk);
    let (l, h) = (s.used().layers, s.used().heads);
    for t in 0..s.len() {
        let w = work(&s, t);
        assert_eq!(w.cells_cached, (l * h * (t + 1 + m)) as u64);
        assert_eq!(w.cells_cached, s.cache_size(t).cells as u64);
        assert_eq!(w.cells_recomputed, (l * h * (t + 1) * (t + 1 + m)) as u64);
        assert_eq!(s.cache_size(t).entries, 2 * l * (t + 1) + 2 * l * m);
    }
    let x = cross_weights(&s, at, Lang::En).unwrap().unwrap();
    assert_eq!((x.n_rows(), x.n_cols()), (s.len(), m));
    assert!(x.is_blocked(2, 0) && !x.is_blocked(1, 0));
}

#[test]
fn decoding_equals_the_parallel_pass_within_rounding() {
    for state in states() {
        let s = stepper_on(&state).unwrap();
        let e = s.equality();
        assert!(e.output < 1e-5, "{e:?}");
        assert!(e.weights < 1e-5, "{e:?}");
        assert!(e.equal(), "{e:?}");
        assert!(e.bound >= EQUAL_WITHIN);
    }
    // A NaN is never "equal".
    let nan = Equality {
        output: f32::NAN,
        weights: 0.0,
        bound: 1e-5,
    };
    assert!(!nan.equal());
}

#[test]
fn the_stepper_runs_causal_self_attention_with_the_block_pages_weights() {
    let state = LabState::default();
    let s = stepper_on(&state).unwrap();
    assert!(
        s.prepared
            .block
            .layers()
            .iter()
            .all(|l| l.self_attention.causal)
    );
    // The Block page's stack: the same weights, unmasked.
    let pipeline = Pipeline::new(&state);
    let encoded = compute::encode(&state.model, pipeline.queries()).unwrap();
    let labels = pipeline.queries().labels();
    let input = BlockInput {
        queries: (&encoded, &labels),
        source: None,
        seed: state.model.seed,
        settings: &state.view.block,
    };
    let page = crate::block::run(&input).unwrap();
    for (a, b) in page.block.layers().iter().zip(s.prepared.block.layers()) {
        assert!(!a.self_attention.causal);
        assert_eq!(a.self_attention.w_k, b.self_attention.w_k);
        assert_eq!(a.ffn, b.ffn);
    }
}

#[test]
fn bad_input_is_refused_as_the_block_page_refuses_and_long_text_is_capped() {
    let mut state = LabState::default();
    state.view.block.heads = 3; // 64 is not a multiple of 3
    assert!(stepper_on(&state).is_err());
    let mut long = LabState {
        text: vec!["word"; 512].join(" "),
        ..LabState::default()
    };
    long.view.block.layers = 6;
    long.model.d_model = 256;
    let s = stepper_on(&long).unwrap();
    assert!(s.used().limited());
    assert!(s.len() < 512);
    assert!(s.equality().equal(), "{:?}", s.equality());
    let at = StepAt::within(&s, usize::MAX, 99, 99);
    assert_eq!(
        at,
        StepAt {
            t: s.len() - 1,
            layer: 5,
            head: 3
        }
    );
}
