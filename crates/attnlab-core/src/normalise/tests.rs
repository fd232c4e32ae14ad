use ndarray::array;
use proptest::prelude::*;

use super::*;

fn row(z: &[f32], allowed: &[bool], how: Normaliser) -> Vec<f32> {
    let mut out = vec![f32::NAN; z.len()];
    normalise_row(z, allowed, how, &mut out);
    out
}

#[test]
fn softmax_plus_one_by_hand() {
    // z = (ln 2, 0): e^z = (2, 1), weights 2/(1 + 3) and 1/(1 + 3).
    let w = row(&[2f32.ln(), 0.0], &[true, true], Normaliser::PlusOne);
    assert!((w[0] - 0.5).abs() < 1e-7 && (w[1] - 0.25).abs() < 1e-7);
    // A masked key does not count: 1/(1 + 1).
    let w = row(&[0.0, 5.0], &[true, false], Normaliser::PlusOne);
    assert_eq!(w, vec![0.5, 0.0]);
}

#[test]
fn sink_by_hand() {
    // s = ln 3, z = (0, 0): 1/(3 + 2) each.
    let w = row(
        &[0.0, 0.0],
        &[true, true],
        Normaliser::Sink { sink: 3f32.ln() },
    );
    assert!(w.iter().all(|x| (x - 0.2).abs() < 1e-7));
}

#[test]
fn sigmoid_by_hand() {
    // σ(0) = 1/2; σ(ln 3) = 3/4; σ(−ln 3) = 1/4.
    let w = row(
        &[0.0, 3f32.ln(), 0.0],
        &[true, true, true],
        Normaliser::Sigmoid { bias: 0.0 },
    );
    assert!((w[0] - 0.5).abs() < 1e-7 && (w[1] - 0.75).abs() < 1e-7);
    let w = row(&[0.0], &[true], Normaliser::Sigmoid { bias: -(3f32.ln()) });
    assert!((w[0] - 0.25).abs() < 1e-7);
}

#[test]
fn softpick_by_hand() {
    // z = (ln 3, ln 2, −ln 2): e^z − 1 = (2, 1, −1/2); Σ|·| = 3.5 (+10⁻⁶).
    let z = [3f32.ln(), 2f32.ln(), -(2f32.ln())];
    let w = row(&z, &[true; 3], Normaliser::Softpick);
    let d = 3.5 + 1e-6;
    assert!((f64::from(w[0]) - 2.0 / d).abs() < 1e-7);
    assert!((f64::from(w[1]) - 1.0 / d).abs() < 1e-7);
    assert_eq!(w[2], 0.0);
}

#[test]
fn empty_rows_are_zero_for_every_normaliser() {
    for how in [
        Normaliser::PlusOne,
        Normaliser::Sigmoid { bias: 0.0 },
        Normaliser::Softpick,
        Normaliser::Sink { sink: 0.0 },
    ] {
        assert_eq!(row(&[1.0, 2.0], &[false, false], how), vec![0.0, 0.0]);
        assert_eq!(row(&[], &[], how), Vec::<f32>::new());
    }
}

#[test]
fn a_matrix_is_normalised_row_by_row_with_its_mask() {
    let z = array![[0.0f32, 0.0], [0.0, 0.0]];
    let mask = Mask::from_array(array![[true, false], [true, true]]);
    let a = normalise(&z, &mask, Normaliser::PlusOne);
    assert_eq!(a, array![[0.5, 0.0], [1.0 / 3.0, 1.0 / 3.0]]);
}

fn logits() -> impl Strategy<Value = (Vec<f32>, Vec<bool>)> {
    (0usize..20).prop_flat_map(|m| {
        (
            prop::collection::vec(prop_oneof![-1e30f32..1e30, -50f32..50.0], m),
            prop::collection::vec(prop::bool::weighted(0.8), m),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every weight is in [0, 1], masked ones are 0; softmax + 1 and sink rows sum
    /// below 1 and softpick rows at most 1: for any finite logits, up to ±1e30.
    #[test]
    fn weights_are_bounded_and_finite((z, allowed) in logits(), sink in -1e30f32..1e30, bias in -10f32..10.0) {
        for how in [
            Normaliser::PlusOne,
            Normaliser::Sigmoid { bias },
            Normaliser::Softpick,
            Normaliser::Sink { sink },
        ] {
            let w = row(&z, &allowed, how);
            for (x, a) in w.iter().zip(&allowed) {
                prop_assert!((0.0..=1.0).contains(x), "{how:?}: {x}");
                if !a {
                    prop_assert_eq!(*x, 0.0);
                }
            }
            let sum: f32 = w.iter().sum();
            if !matches!(how, Normaliser::Sigmoid { .. }) {
                prop_assert!(sum <= 1.0 + 1e-5, "{how:?}: row sums to {sum}");
            }
        }
    }

    /// Softpick's weights are those of the unshifted formula, in f64, where it does not
    /// overflow.
    #[test]
    fn softpick_shift_is_exact(z in prop::collection::vec(-20f32..20.0, 1..12)) {
        let allowed = vec![true; z.len()];
        let w = row(&z, &allowed, Normaliser::Softpick);
        let d: f64 = z.iter().map(|&x| f64::from(x).exp_m1().abs()).sum::<f64>() + 1e-6;
        for (x, &zi) in w.iter().zip(&z) {
            let want = f64::from(zi).exp_m1().max(0.0) / d;
            prop_assert!((f64::from(*x) - want).abs() <= 1e-6 * want.max(1.0));
        }
    }
}
