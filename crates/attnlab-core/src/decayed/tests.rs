use ndarray::array;

use super::*;

#[test]
fn the_decay_matrix_multiplies_the_gates_between_key_and_query() {
    // a = (·, 0.5, 0.25, 1): D_20 = a_1·a_2 = 0.125, D_31 = a_2·a_3 = 0.25.
    let d = decay_matrix(&[7.0, 0.5, 0.25, 1.0]);
    assert_eq!(
        d,
        array![
            [1.0, 0.0, 0.0, 0.0],
            [0.5, 1.0, 0.0, 0.0],
            [0.125, 0.25, 1.0, 0.0],
            [0.125, 0.25, 1.0, 1.0]
        ]
    );
    // γ = 0: only the diagonal (0⁰ = 1).
    assert_eq!(decay_matrix(&[0.0, 0.0]), array![[1.0, 0.0], [0.0, 1.0]]);
}

#[test]
fn the_causal_mask_closes_the_future_even_for_a_global_token() {
    let all = Mask::full(3, 3);
    let c = causal_mask(&all);
    assert_eq!(
        c.allowed(),
        array![
            [true, false, false],
            [true, true, false],
            [true, true, true]
        ]
    );
}

#[test]
fn the_recurrence_reads_the_state_through_the_query() {
    // d_k = 2, d_v = 1, γ = 0.5, dot score. k_0 = (1, 0), k_1 = (0, 1); v = 2, 4.
    // S_0 = k_0 v_0ᵀ = (2, 0)ᵀ; S_1 = 0.5 S_0 + k_1 v_1ᵀ = (1, 4)ᵀ.
    // o_0 = q_0ᵀS_0 with q_0 = (1, 1): 2; o_1 = q_1ᵀS_1 with q_1 = (1, 1): 5.
    let q = array![[1.0f32, 1.0], [1.0, 1.0]];
    let k = array![[1.0f32, 0.0], [0.0, 1.0]];
    let v = array![[2.0f32], [4.0]];
    assert_eq!(
        recurrent(&q, &k, &v, &[0.5, 0.5], 1.0),
        array![[2.0], [5.0]]
    );
    // The same by the weights: w = D ⊙ QKᵀ = [[1, 0], [0.5, 1]] ⊙ [[1, 1], [1, 1]].
    let w = weights(&q.dot(&k.t()), &[0.5, 0.5], &causal_mask(&Mask::full(2, 2)));
    assert_eq!(w.dot(&v), array![[2.0], [5.0]]);
}

#[test]
fn the_state_is_the_decayed_sum_of_the_outer_products() {
    // S_2 = a_1 a_2 k_0 v_0ᵀ + a_2 k_1 v_1ᵀ + k_2 v_2ᵀ; a key left out only decays S.
    let k = array![[1.0f32, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let v = array![[2.0f32], [4.0], [8.0]];
    let gates = [0.0f64, 0.5, 0.25];
    let mut s = DecayedState::new(2, 1);
    for (t, a) in gates.into_iter().enumerate() {
        s.step(a, Some((&k.row(t).to_vec(), &v.row(t).to_vec())));
    }
    // (0.125·2 + 8, 0.25·4 + 8).
    assert_eq!(s.matrix(), array![[8.25f32], [9.0]]);
    assert_eq!(s.read(&[1.0, 1.0], 0.5), vec![8.625]);
    s.step(0.5, None);
    assert_eq!(s.matrix(), array![[4.125f32], [4.5]]);
    assert_eq!(DecayedState::new(3, 0).matrix().dim(), (3, 0));
}
