use super::*;
use crate::linear::test_support::{long_state, problem_of};
use attnlab_core::linear::RecurrentState;
use attnlab_lab::state::LabState;

const SEED: u64 = 42;

fn close(a: &[f32], b: &[f32], tol: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// `Σ_{j ≤ t, j allowed} D_tj k_j v_jᵀ`: the state the parallel form implies at step `t`.
fn state_of_the_parallel_form(tr: &DecayedTrace, t: usize) -> Array2<f32> {
    let mut s = Array2::<f32>::zeros((tr.k.ncols(), tr.v.ncols()));
    for j in 0..=t {
        if tr.key_allowed[j] {
            let kj = tr.k.row(j).insert_axis(ndarray::Axis(1));
            let vj = tr.v.row(j).insert_axis(ndarray::Axis(0));
            s = s + tr.d[[t, j]] * kj.dot(&vj);
        }
    }
    s
}

#[test]
fn the_states_at_every_step_equal_the_parallel_forms_rows() {
    let mut state = long_state();
    state.pad_to = Some(28);
    state.variants[0].masks.padding = true;
    let p = problem_of(&state, 0);
    for decay in [
        Decay::Constant(DEFAULT_GAMMA),
        Decay::Constant(0.5),
        Decay::Gates,
    ] {
        let tr = decayed_trace(&p, 1, decay, SEED).unwrap();
        assert_eq!(tr.len(), 28);
        assert!(tr.max_abs_diff() < 1e-5, "{decay:?}: {}", tr.max_abs_diff());
        assert!(tr.step(28).is_none());
        for t in 0..28 {
            let s = tr.step(t).unwrap();
            assert_eq!(s.max_abs_diff, tr.diffs[t]);
            // o_t from S_t is row t of (D ⊙ QKᵀ/√d_k) V …
            assert!(
                close(&s.output, &tr.parallel.row(t).to_vec(), 1e-5),
                "{decay:?} t = {t}"
            );
            assert_eq!(s.output, tr.recurrent.row(t).to_vec());
            // … and S_t itself is Σ_j D_tj k_j v_jᵀ.
            let want = state_of_the_parallel_form(&tr, t);
            let worst = (&s.s - &want).iter().fold(0f32, |m, x| m.max(x.abs()));
            assert!(worst < 1e-4, "{decay:?} t = {t}: {worst}");
        }
        // Padding is not absorbed: the state only decays.
        let (s24, s26) = (tr.step(24).unwrap(), tr.step(26).unwrap());
        assert!(s24.absorbed && !s26.absorbed);
        let g = f64::from(tr.gates[25]) * f64::from(tr.gates[26]);
        let decayed = s24.s.mapv(|x| (f64::from(x) * g) as f32);
        assert!((&s26.s - &decayed).iter().all(|x| x.abs() < 1e-4));
        // The weights are the core's D ⊙ QKᵀ/√d_k on the causal cells, 0 above.
        let raw = tr.q.dot(&tr.k.t()) * tr.scale;
        for i in 0..28 {
            for j in 0..28 {
                let want = if j <= i && tr.key_allowed[j] {
                    tr.d[[i, j]] * raw[[i, j]]
                } else {
                    0.0
                };
                assert!((tr.weights[[i, j]] - want).abs() < 1e-5, "({i}, {j})");
            }
        }
        let labels = crate::linear::labels("t", 28);
        let [d, w] = decayed_figures(&tr, &labels, Lang::Zh).unwrap();
        assert_eq!((d.n_rows(), w.n_cols()), (28, 28));
        assert!(d.is_blocked(0, 1) && !d.is_blocked(1, 0) && w.is_blocked(3, 26));
        let [s, a, o, par] =
            decayed_step_figures(&tr, &tr.step(5).unwrap(), &labels, Lang::En).unwrap();
        assert_eq!((s.n_rows(), s.n_cols()), (16, 16));
        assert_eq!(
            (a.n_rows(), a.n_cols(), o.n_cols(), par.n_cols()),
            (1, 28, 16, 16)
        );
        assert_eq!(s.title(), "S_5 = a_5·S_4 + k_5 v_5ᵀ");
    }
}

#[test]
fn gamma_one_is_the_unnormalised_causal_linear_attention() {
    let p = problem_of(&LabState::default(), 0);
    let tr = decayed_trace(&p, 0, Decay::Constant(1.0), SEED).unwrap();
    assert!(
        tr.d.iter()
            .enumerate()
            .all(|(c, &x)| x == if c % 11 <= c / 11 { 1.0 } else { 0.0 })
    );
    // Linear attention with φ = identity and no normaliser: the core's running sum S_t =
    // Σ_{j≤t} k_j v_jᵀ, read as S_tᵀ q_t / √d_k, and the sum written out.
    let mut running = RecurrentState::new(tr.k.ncols(), tr.v.ncols());
    for t in 0..11 {
        running.absorb(&tr.k.row(t).to_vec(), &tr.v.row(t).to_vec());
        let step = tr.step(t).unwrap();
        assert!(
            (&step.s - &running.s).iter().all(|x| x.abs() < 1e-4),
            "t = {t}"
        );
        let mut by_hand = vec![0f32; tr.v.ncols()];
        for j in 0..=t {
            let score = tr.q.row(t).dot(&tr.k.row(j)) / 4.0;
            for (o, v) in by_hand.iter_mut().zip(tr.v.row(j)) {
                *o += score * v;
            }
        }
        assert!(close(&step.output, &by_hand, 1e-4), "t = {t}");
    }
}

#[test]
fn gamma_zero_keeps_the_diagonal() {
    let p = problem_of(&LabState::default(), 0);
    let tr = decayed_trace(&p, 2, Decay::Constant(0.0), SEED).unwrap();
    let raw = tr.q.dot(&tr.k.t()) * tr.scale;
    for ((i, j), &w) in tr.weights.indexed_iter() {
        let want = if i == j { raw[[i, i]] } else { 0.0 };
        assert!((w - want).abs() < 1e-6, "({i}, {j}): {w}");
        assert_eq!(tr.d[[i, j]], if i == j { 1.0 } else { 0.0 });
    }
    // The state holds only the last key: S_t = k_t v_tᵀ.
    let s = tr.step(7).unwrap();
    assert_eq!(s.gate, 0.0);
    assert!(
        (&s.s - &state_of_the_parallel_form(&tr, 7))
            .iter()
            .all(|x| x.abs() < 1e-5)
    );
    assert!(tr.max_abs_diff() < 1e-5);
    assert!(tr.weights.iter().all(|x| x.is_finite()));
}

#[test]
fn the_gates_are_seeded_in_the_unit_interval_and_follow_the_tokens() {
    let p = problem_of(&LabState::default(), 0);
    let a = decayed_trace(&p, 0, Decay::Gates, SEED).unwrap();
    assert!(a.gates.iter().all(|g| (0.0..=1.0).contains(g)));
    // Not one constant: each token sets its own.
    let (lo, hi) = a
        .gates
        .iter()
        .fold((1f32, 0f32), |(l, h), &g| (l.min(g), h.max(g)));
    assert!(hi - lo > 0.05, "{lo}…{hi}");
    assert_eq!(
        a.gates,
        decayed_trace(&p, 0, Decay::Gates, SEED).unwrap().gates
    );
    assert_ne!(
        a.gates,
        decayed_trace(&p, 1, Decay::Gates, SEED).unwrap().gates
    );
    assert_ne!(
        a.gates,
        decayed_trace(&p, 0, Decay::Gates, SEED + 1).unwrap().gates
    );
    // D_ij is the product of the gates between j and i.
    let want = f64::from(a.gates[3]) * f64::from(a.gates[4]) * f64::from(a.gates[5]);
    assert!((f64::from(a.d[[5, 2]]) - want).abs() < 1e-6);
    // The weights can be negative: no normaliser, no positive features.
    assert!(a.weights.iter().any(|&w| w < 0.0));
}

#[test]
fn one_token_and_refusals() {
    let state = LabState {
        text: "cat".into(),
        ..LabState::default()
    };
    let p = problem_of(&state, 0);
    for decay in [Decay::Constant(0.0), Decay::Constant(1.0), Decay::Gates] {
        let tr = decayed_trace(&p, 0, decay, SEED).unwrap();
        assert_eq!(tr.len(), 1);
        let s = tr.step(0).unwrap();
        assert!(s.output.iter().all(|x| x.is_finite()));
        assert_eq!(tr.d[[0, 0]], 1.0);
        assert!(tr.max_abs_diff() < 1e-5);
        assert!(decayed_figures(&tr, &["cat".to_string()], Lang::En).is_ok());
    }
    let mut cross = LabState::default();
    cross.set_mode(attnlab_lab::state::Mode::Cross);
    let p = problem_of(&cross, 0);
    assert!(matches!(
        decayed_trace(&p, 0, Decay::Gates, SEED),
        Err(LinearLabError::NotOneSequence { .. })
    ));
    let p = problem_of(&LabState::default(), 0);
    assert!(decayed_trace(&p, 0, Decay::Constant(1.5), SEED).is_err());
    assert!(decayed_trace(&p, 9, Decay::Gates, SEED).is_err());
}
