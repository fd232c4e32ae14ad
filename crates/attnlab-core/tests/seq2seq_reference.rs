//! The classic encoder–decoder (docs/maths.md §15) against an f64 implementation written
//! here from the formulas, not from the core's code: plain `Vec<f64>` loops, its own
//! sigmoid, tanh and softmax. The weights are the seeded model's; the inputs several
//! seeds' random words. The largest relative deviation is printed (`--nocapture`).

use attnlab_core::seq2seq::Seq2seq;
use ndarray::{Array1, Array2};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

type Mat = Vec<Vec<f64>>;

fn mat(a: &Array2<f32>) -> Mat {
    a.rows()
        .into_iter()
        .map(|r| r.iter().map(|&v| f64::from(v)).collect())
        .collect()
}

fn mv(m: &Mat, x: &[f64]) -> Vec<f64> {
    m.iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum())
        .collect()
}

fn sig(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// h' = (1 − z) h + z tanh(W x + U (r ⊙ h)), z = σ(W_z x + U_z h), r = σ(W_r x + U_r h).
fn gru(w: &[Mat; 6], h: &[f64], x: &[f64]) -> Vec<f64> {
    let add =
        |a: Vec<f64>, b: Vec<f64>| -> Vec<f64> { a.iter().zip(&b).map(|(p, q)| p + q).collect() };
    let z: Vec<f64> = add(mv(&w[0], x), mv(&w[1], h))
        .into_iter()
        .map(sig)
        .collect();
    let r: Vec<f64> = add(mv(&w[2], x), mv(&w[3], h))
        .into_iter()
        .map(sig)
        .collect();
    let rh: Vec<f64> = r.iter().zip(h).map(|(a, b)| a * b).collect();
    let cand: Vec<f64> = add(mv(&w[4], x), mv(&w[5], &rh))
        .into_iter()
        .map(f64::tanh)
        .collect();
    (0..h.len())
        .map(|i| (1.0 - z[i]) * h[i] + z[i] * cand[i])
        .collect()
}

struct Reference {
    alignment: Mat,
    contexts: Mat,
    states: Mat,
}

fn reference(model: &Seq2seq, src: &Mat, tgt: &Mat, start: &[f64], feed: bool) -> Reference {
    let cell = |g: &attnlab_core::seq2seq::Gru| -> [Mat; 6] { g.matrices().map(mat) };
    let (fw, bw, dec) = (
        cell(&model.forward),
        cell(&model.backward),
        cell(&model.decoder),
    );
    let d_e = model.forward.hidden();
    let m = src.len();
    let mut fwd = vec![vec![0.0; d_e]; m];
    let mut h = vec![0.0; d_e];
    for j in 0..m {
        h = gru(&fw, &h, &src[j]);
        fwd[j] = h.clone();
    }
    let mut bwd = vec![vec![0.0; d_e]; m];
    let mut h = vec![0.0; d_e];
    for j in (0..m).rev() {
        h = gru(&bw, &h, &src[j]);
        bwd[j] = h.clone();
    }
    let ann: Mat = (0..m)
        .map(|j| [fwd[j].clone(), bwd[j].clone()].concat())
        .collect();
    let mut s: Vec<f64> = mv(&mat(&model.w_s), &bwd[0])
        .into_iter()
        .map(f64::tanh)
        .collect();
    let (w_a, u_a) = (mat(&model.w_a), mat(&model.u_a));
    let v_a: Vec<f64> = model.v_a.iter().map(|&v| f64::from(v)).collect();
    let mut out = Reference {
        alignment: vec![],
        contexts: vec![],
        states: vec![],
    };
    for t in 0..tgt.len() {
        let ws = mv(&w_a, &s);
        let e: Vec<f64> = ann
            .iter()
            .map(|h| {
                let uh = mv(&u_a, h);
                (0..v_a.len())
                    .map(|k| v_a[k] * (ws[k] + uh[k]).tanh())
                    .sum()
            })
            .collect();
        let max = e.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let ex: Vec<f64> = e.iter().map(|v| (v - max).exp()).collect();
        let total: f64 = ex.iter().sum();
        let alpha: Vec<f64> = ex.iter().map(|v| v / total).collect();
        let c: Vec<f64> = (0..2 * d_e)
            .map(|k| (0..m).map(|j| alpha[j] * ann[j][k]).sum())
            .collect();
        let y = if t == 0 {
            start.to_vec()
        } else {
            tgt[t - 1].clone()
        };
        let fed = if feed { c.clone() } else { vec![0.0; c.len()] };
        s = gru(&dec, &s, &[y, fed].concat());
        out.alignment.push(alpha);
        out.contexts.push(c);
        out.states.push(s.clone());
    }
    out
}

fn random(rng: &mut ChaCha8Rng, rows: usize, cols: usize) -> Array2<f32> {
    Array2::from_shape_simple_fn((rows, cols), || {
        (rng.next_u32() as f64 / u32::MAX as f64 * 2.0 - 1.0) as f32
    })
}

/// |a − b| / max(|b|, 1e-3): relative where the value is not tiny.
fn deviation(a: f32, b: f64) -> f64 {
    (f64::from(a) - b).abs() / b.abs().max(1e-3)
}

#[test]
fn the_core_matches_an_f64_reference() {
    let mut worst = 0.0f64;
    for (seed, d_x, d_e, m, t) in [
        (1u64, 8, 4, 7, 5),
        (2, 16, 8, 12, 9),
        (3, 64, 32, 20, 15),
        (4, 3, 1, 1, 3),
    ] {
        let model = Seq2seq::seeded(seed, d_x, d_e);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (src, tgt) = (random(&mut rng, m, d_x), random(&mut rng, t, d_x));
        let start = Array1::from_iter((0..d_x).map(|i| (i as f32 * 0.37).sin()));
        for feed in [true, false] {
            let run = model.run(&src, &tgt, &start, feed).unwrap();
            let start64: Vec<f64> = start.iter().map(|&v| f64::from(v)).collect();
            let r = reference(&model, &mat(&src), &mat(&tgt), &start64, feed);
            for (step, ((a, c), s)) in run
                .steps
                .iter()
                .zip(r.alignment.iter().zip(&r.contexts).zip(&r.states))
            {
                for (x, y) in step.weights.iter().zip(a) {
                    worst = worst.max(deviation(*x, *y));
                }
                for (x, y) in step.context.iter().zip(c) {
                    worst = worst.max(deviation(*x, *y));
                }
                for (x, y) in step.state.iter().zip(s) {
                    worst = worst.max(deviation(*x, *y));
                }
            }
        }
    }
    println!("seq2seq against f64: max relative deviation {worst:.3e}");
    // f32 against f64 through 15 recurrent steps: about 10⁻⁴ where values are near 10⁻³.
    assert!(worst < 5e-4, "{worst}");
}
