//! The logits pipeline and the positions (docs/maths.md §13) against a naive f64
//! reference written here from the definitions alone — RoPE with its scalings, ALiBi's
//! slopes and bias, the softcap, grouped keys and values, attention sinks, tiles — and
//! their properties on random inputs. Run with `--nocapture` to see the largest
//! deviation of each case.

// The reference is written index by index, as the definitions are.
#![allow(clippy::needless_range_loop)]

use attnlab_core::alibi::Alibi;
use attnlab_core::attention::{AttentionKind, AttentionSpec, Computation, HeadInput, Problem};
use attnlab_core::groups::{KeyValues, share_key_values};
use attnlab_core::mask::MaskSpec;
use attnlab_core::rope::{Rope, RopePairs, RopeScaling};
use attnlab_core::score::ScoreFunction;
use ndarray::Array2;
use proptest::prelude::*;

mod common;
use common::config;

// ---------------------------------------------------------------------------------------
// The f64 reference.

type M = Vec<Vec<f64>>;

/// A small seeded generator (not the core's), uniform in [−a, a).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, a: f64) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * a
    }

    fn matrix(&mut self, rows: usize, cols: usize, a: f64) -> M {
        (0..rows)
            .map(|_| (0..cols).map(|_| self.next(a)).collect())
            .collect()
    }
}

fn f32_matrix(x: &M) -> Array2<f32> {
    let (r, c) = (x.len(), x[0].len());
    Array2::from_shape_fn((r, c), |(i, j)| x[i][j] as f32)
}

/// The inputs rounded to f32 and back, so both sides start from the same numbers.
fn rounded(x: &M) -> M {
    x.iter()
        .map(|r| r.iter().map(|&v| f64::from(v as f32)).collect())
        .collect()
}

#[derive(Clone)]
enum Scale {
    None,
    Linear(f64),
    Ntk(f64),
    Yarn {
        s: f64,
        l: f64,
        fast: f64,
        slow: f64,
    },
}

#[derive(Clone)]
struct RefRope {
    base: f64,
    interleaved: bool,
    r: Option<usize>,
    scale: Scale,
}

/// RoPE from the definitions: θ_t = base^(−2t/r); the scalings as the spec says them.
fn ref_rope(x: &M, pos: &[f64], rope: &RefRope) -> M {
    let d = x[0].len();
    let r = rope.r.unwrap_or(d);
    let half = r / 2;
    let rf = r as f64;
    let mut base = rope.base;
    if let Scale::Ntk(s) = rope.scale {
        base *= s.powf(rf / (rf - 2.0));
    }
    let mut inv: Vec<f64> = (0..half)
        .map(|t| 1.0 / base.powf(2.0 * t as f64 / rf))
        .collect();
    let mut m = 1.0;
    match rope.scale {
        Scale::Linear(s) => inv.iter_mut().for_each(|w| *w /= s),
        Scale::Yarn { s, l, fast, slow } => {
            // find_correction_dim / find_correction_range / linear_ramp_factor.
            let dim =
                |rot: f64| rf * (l / (rot * 2.0 * std::f64::consts::PI)).ln() / (2.0 * base.ln());
            let low = dim(fast).floor().max(0.0);
            let mut high = dim(slow).ceil().min(rf - 1.0);
            if low == high {
                high += 0.001;
            }
            for (t, w) in inv.iter_mut().enumerate() {
                let ramp = ((t as f64 - low) / (high - low)).clamp(0.0, 1.0);
                let extra = 1.0 - ramp;
                *w = *w / s * (1.0 - extra) + *w * extra;
            }
            if s > 1.0 {
                m = 0.1 * s.ln() + 1.0;
            }
        }
        _ => {}
    }
    x.iter()
        .zip(pos)
        .map(|(row, &p)| {
            let mut out = row.clone();
            for (t, w) in inv.iter().enumerate() {
                let (a, b) = if rope.interleaved {
                    (2 * t, 2 * t + 1)
                } else {
                    (t, t + half)
                };
                let phi = p * w;
                let (c, s) = (phi.cos() * m, phi.sin() * m);
                out[a] = row[a] * c - row[b] * s;
                out[b] = row[a] * s + row[b] * c;
            }
            out
        })
        .collect()
}

/// The ALiBi paper's `get_slopes`, written as its Python is.
fn ref_slopes(n: usize) -> Vec<f64> {
    let p2 = |n: usize| -> Vec<f64> {
        let start = 2f64.powf(-(2f64.powf(-((n as f64).log2() - 3.0))));
        (0..n).map(|i| start * start.powi(i as i32)).collect()
    };
    if (n as f64).log2().fract() == 0.0 {
        return p2(n);
    }
    let c = 2usize.pow((n as f64).log2().floor() as u32);
    let mut s = p2(c);
    s.extend(ref_slopes(2 * c).into_iter().step_by(2).take(n - c));
    s
}

#[derive(Clone, Default)]
struct RefMask {
    causal: bool,
    window: Option<usize>,
    sinks: usize,
    padding: Vec<usize>,
}

fn ref_allowed(mask: &RefMask, i: usize, j: usize) -> bool {
    let mut ok = true;
    if mask.causal {
        ok &= j <= i;
    }
    if let Some(w) = mask.window {
        ok &= i.abs_diff(j) <= w;
    }
    if j < mask.sinks {
        ok = true;
    }
    ok && !mask.padding.contains(&j)
}

#[derive(Clone)]
struct RefCase {
    scaled: bool,
    tau: f64,
    softcap: Option<f64>,
    slopes: Option<Vec<f64>>,
    rope: Option<RefRope>,
    qpos: Option<Vec<f64>>,
    kpos: Option<Vec<f64>>,
    mask: RefMask,
}

/// Softmax attention of one head, from its definition.
fn ref_head(q: &M, k: &M, v: &M, h: usize, case: &RefCase) -> (M, M) {
    let (n, m) = (q.len(), k.len());
    let qpos = case
        .qpos
        .clone()
        .unwrap_or((0..n).map(|p| p as f64).collect());
    let kpos = case
        .kpos
        .clone()
        .unwrap_or((0..m).map(|p| p as f64).collect());
    let (q, k) = match &case.rope {
        Some(r) => (ref_rope(q, &qpos, r), ref_rope(k, &kpos, r)),
        None => (q.clone(), k.clone()),
    };
    let d = q[0].len() as f64;
    let mut weights = vec![vec![0.0; m]; n];
    let mut out = vec![vec![0.0; v[0].len()]; n];
    for i in 0..n {
        let logits: Vec<Option<f64>> = (0..m)
            .map(|j| {
                if !ref_allowed(&case.mask, i, j) {
                    return None;
                }
                let mut z: f64 = q[i].iter().zip(&k[j]).map(|(a, b)| a * b).sum();
                if case.scaled {
                    z /= d.sqrt();
                }
                z /= case.tau;
                if let Some(c) = case.softcap {
                    z = c * (z / c).tanh();
                }
                if let Some(s) = &case.slopes {
                    z -= s[h] * (qpos[i] - kpos[j]).abs();
                }
                Some(z)
            })
            .collect();
        let max = logits
            .iter()
            .flatten()
            .fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        if max == f64::NEG_INFINITY {
            continue;
        }
        let sum: f64 = logits.iter().flatten().map(|z| (z - max).exp()).sum();
        for j in 0..m {
            if let Some(z) = logits[j] {
                weights[i][j] = (z - max).exp() / sum;
                for (o, x) in out[i].iter_mut().zip(&v[j]) {
                    *o += weights[i][j] * x;
                }
            }
        }
    }
    (weights, out)
}

/// The core's spec for a reference case (and its tiles).
fn core_spec(case: &RefCase, tiles: Option<usize>, paper: bool) -> AttentionSpec {
    let rope = case.rope.as_ref().map(|r| Rope {
        base: r.base as f32,
        pairs: if r.interleaved {
            RopePairs::Interleaved
        } else {
            RopePairs::Half
        },
        rotary_dims: r.r,
        query_positions: case
            .qpos
            .as_ref()
            .map(|p| p.iter().map(|&x| x as f32).collect()),
        key_positions: case
            .kpos
            .as_ref()
            .map(|p| p.iter().map(|&x| x as f32).collect()),
        scaling: match r.scale {
            Scale::None => RopeScaling::None,
            Scale::Linear(s) => RopeScaling::Linear { factor: s as f32 },
            Scale::Ntk(s) => RopeScaling::Ntk { factor: s as f32 },
            Scale::Yarn { s, l, fast, slow } => RopeScaling::Yarn {
                factor: s as f32,
                original_max_positions: l as f32,
                beta_fast: fast as f32,
                beta_slow: slow as f32,
            },
        },
    });
    AttentionSpec {
        score: if case.scaled {
            ScoreFunction::ScaledDot
        } else {
            ScoreFunction::Dot
        },
        temperature: case.tau as f32,
        mask: MaskSpec {
            causal: case.mask.causal,
            window: case.mask.window,
            sinks: (case.mask.sinks > 0).then_some(case.mask.sinks),
            padding_keys: case.mask.padding.clone(),
            ..MaskSpec::default()
        },
        rope,
        alibi: case.slopes.as_ref().map(|s| {
            if paper {
                Alibi::Paper
            } else {
                Alibi::Slopes(s.iter().map(|&x| x as f32).collect())
            }
        }),
        softcap: case.softcap.map(|c| c as f32),
        tiles,
        ..AttentionSpec::default()
    }
}

/// The largest |core − reference| over every head's weights and output.
fn deviation(
    label: &str,
    heads: usize,
    (n, m, d, dv): (usize, usize, usize, usize),
    case: &RefCase,
    tiles: Option<usize>,
    paper: bool,
    seed: u64,
) -> f64 {
    let mut g = Lcg(seed);
    let inputs: Vec<(M, M, M)> = (0..heads)
        .map(|_| {
            (
                rounded(&g.matrix(n, d, 2.0)),
                rounded(&g.matrix(m, d, 2.0)),
                rounded(&g.matrix(m, dv, 1.0)),
            )
        })
        .collect();
    let core_heads = inputs
        .iter()
        .map(|(q, k, v)| HeadInput::new(f32_matrix(q), f32_matrix(k), f32_matrix(v)))
        .collect();
    let problem = Problem::new(core_heads, core_spec(case, tiles, paper), None).unwrap();
    let result = problem.compute().unwrap();
    let mut worst = 0.0f64;
    for (h, (q, k, v)) in inputs.iter().enumerate() {
        let (w, o) = ref_head(q, k, v, h, case);
        let got = &result.heads[h];
        for i in 0..n {
            for j in 0..m {
                worst = worst.max((f64::from(got.weights[[i, j]]) - w[i][j]).abs());
            }
            for c in 0..dv {
                worst = worst.max((f64::from(got.output[[i, c]]) - o[i][c]).abs());
            }
        }
    }
    eprintln!("{label}: largest |core − f64 reference| = {worst:.3e}");
    assert!(worst < 1e-5, "{label}: {worst:e}");
    worst
}

fn plain() -> RefCase {
    RefCase {
        scaled: true,
        tau: 1.0,
        softcap: None,
        slopes: None,
        rope: None,
        qpos: None,
        kpos: None,
        mask: RefMask::default(),
    }
}

fn rope(interleaved: bool, r: Option<usize>, scale: Scale) -> Option<RefRope> {
    Some(RefRope {
        base: 10000.0,
        interleaved,
        r,
        scale,
    })
}

#[test]
fn rope_matches_the_reference_in_both_layouts_and_every_scaling() {
    let shape = (5, 6, 16, 3);
    let positions = RefCase {
        qpos: Some(vec![3.0, 7.5, 0.0, 120.0, 2047.0]),
        kpos: Some(vec![0.0, 1.0, 2.0, 64.0, 500.25, 3000.0]),
        ..plain()
    };
    for (label, interleaved, r, scale) in [
        ("rope half", false, None, Scale::None),
        ("rope interleaved", true, None, Scale::None),
        ("rope half rotary_dims 6", false, Some(6), Scale::None),
        (
            "rope interleaved rotary_dims 10",
            true,
            Some(10),
            Scale::None,
        ),
        ("rope linear s = 2", false, None, Scale::Linear(2.0)),
        ("rope ntk s = 4", true, None, Scale::Ntk(4.0)),
        (
            "rope yarn s = 4, L = 2048",
            false,
            None,
            Scale::Yarn {
                s: 4.0,
                l: 2048.0,
                fast: 32.0,
                slow: 1.0,
            },
        ),
        (
            "rope yarn s = 8, L = 512, β = 16, 2",
            true,
            Some(12),
            Scale::Yarn {
                s: 8.0,
                l: 512.0,
                fast: 16.0,
                slow: 2.0,
            },
        ),
    ] {
        let case = RefCase {
            rope: rope(interleaved, r, scale),
            ..positions.clone()
        };
        deviation(label, 2, shape, &case, None, false, 11);
        let default_positions = RefCase {
            qpos: None,
            kpos: None,
            ..case
        };
        deviation(label, 1, shape, &default_positions, None, false, 12);
    }
}

#[test]
fn alibi_softcap_and_their_order_match_the_reference() {
    // Six heads: the paper's interleaved slopes; causal as in the paper.
    let causal = RefMask {
        causal: true,
        ..RefMask::default()
    };
    let paper = RefCase {
        slopes: Some(ref_slopes(6)),
        mask: causal.clone(),
        ..plain()
    };
    deviation(
        "alibi paper, 6 heads, causal",
        6,
        (7, 7, 4, 2),
        &paper,
        None,
        true,
        21,
    );
    let given = RefCase {
        scaled: false,
        tau: 0.7,
        softcap: Some(3.0),
        slopes: Some(vec![0.3, -0.1]),
        qpos: Some(vec![0.0, 2.0, 4.5]),
        kpos: Some(vec![1.0, 1.0, 3.0, 9.0]),
        rope: rope(false, Some(2), Scale::None),
        ..plain()
    };
    deviation(
        "alibi slopes + softcap + τ + rope",
        2,
        (3, 4, 4, 3),
        &given,
        None,
        false,
        22,
    );
    // Scores far beyond the cap: softcap bounds the logits, the weights stay finite.
    let capped = RefCase {
        scaled: false,
        softcap: Some(5.0),
        ..plain()
    };
    let mut g = Lcg(23);
    let q = rounded(&g.matrix(4, 4, 40.0));
    let k = rounded(&g.matrix(5, 4, 40.0));
    let v = rounded(&g.matrix(5, 2, 1.0));
    let p = Problem::new(
        vec![HeadInput::new(
            f32_matrix(&q),
            f32_matrix(&k),
            f32_matrix(&v),
        )],
        core_spec(&capped, None, false),
        None,
    )
    .unwrap();
    let got = p.compute_head(0).unwrap();
    let (w, _) = ref_head(&q, &k, &v, 0, &capped);
    let worst = (0..4)
        .flat_map(|i| (0..5).map(move |j| (i, j)))
        .map(|(i, j)| (f64::from(got.weights[[i, j]]) - w[i][j]).abs())
        .fold(0.0, f64::max);
    eprintln!("softcap 5 on scores of ±6400: largest |core − f64 reference| = {worst:.3e}");
    assert!(worst < 1e-5);
}

#[test]
fn sinks_and_tiles_match_the_reference() {
    let sinks = RefCase {
        mask: RefMask {
            causal: true,
            window: Some(1),
            sinks: 2,
            padding: vec![1],
        },
        ..plain()
    };
    deviation(
        "sinks 2 + causal window 1 + padding",
        2,
        (7, 7, 4, 3),
        &sinks,
        None,
        false,
        31,
    );
    let all = RefCase {
        slopes: Some(ref_slopes(3)),
        softcap: Some(2.5),
        rope: rope(true, None, Scale::Linear(1.5)),
        ..sinks.clone()
    };
    for b in [1, 2, 3, 7, 20] {
        let label = format!("tiles {b} + sinks + alibi + softcap + rope");
        deviation(&label, 3, (7, 7, 4, 3), &all, Some(b), true, 32);
    }
}

#[test]
fn rope_turns_q_and_k_of_the_linear_kinds_too() {
    // elu1 with RoPE: the implied weights φ(q̃_i)·φ(k̃_j) / (Σ_j … + 10⁻⁶) from the
    // reference's turned q and k.
    let mut g = Lcg(41);
    let (q, k, v) = (
        rounded(&g.matrix(4, 4, 1.0)),
        rounded(&g.matrix(4, 4, 1.0)),
        rounded(&g.matrix(4, 2, 1.0)),
    );
    let r = rope(false, None, Scale::None).unwrap();
    let pos = [0.0, 1.0, 2.0, 3.0];
    let (qt, kt) = (ref_rope(&q, &pos, &r), ref_rope(&k, &pos, &r));
    let phi = |x: &Vec<f64>| -> Vec<f64> {
        x.iter()
            .map(|&a| if a > 0.0 { a + 1.0 } else { a.exp() })
            .collect()
    };
    let spec = AttentionSpec {
        attention: AttentionKind::Elu1,
        rope: Some(Rope::default()),
        ..AttentionSpec::default()
    };
    let p = Problem::new(
        vec![HeadInput::new(
            f32_matrix(&q),
            f32_matrix(&k),
            f32_matrix(&v),
        )],
        spec,
        None,
    )
    .unwrap();
    let got = p.compute_head(0).unwrap();
    let mut worst = 0.0f64;
    for i in 0..4 {
        let sims: Vec<f64> = (0..4)
            .map(|j| {
                phi(&qt[i])
                    .iter()
                    .zip(phi(&kt[j]))
                    .map(|(a, b)| a * b)
                    .sum()
            })
            .collect();
        let total: f64 = sims.iter().sum::<f64>() + 1e-6;
        for j in 0..4 {
            worst = worst.max((f64::from(got.weights[[i, j]]) - sims[j] / total).abs());
        }
    }
    eprintln!("elu1 + rope: largest |core − f64 reference| = {worst:.3e}");
    assert!(worst < 1e-5);
}

#[test]
fn grouped_and_multi_query_heads_match_the_reference() {
    let mut g = Lcg(51);
    let (n, m, d, dv) = (5, 6, 4, 3);
    for groups in [1, 2, 4] {
        let kv: Vec<(M, M)> = (0..groups)
            .map(|_| {
                (
                    rounded(&g.matrix(m, d, 2.0)),
                    rounded(&g.matrix(m, dv, 1.0)),
                )
            })
            .collect();
        let qs: Vec<M> = (0..4).map(|_| rounded(&g.matrix(n, d, 2.0))).collect();
        let mut heads: Vec<HeadInput> = qs
            .iter()
            .map(|q| HeadInput::new(f32_matrix(q), Array2::zeros((0, 0)), Array2::zeros((0, 0))))
            .collect();
        let shared: Vec<KeyValues> = kv
            .iter()
            .map(|(k, v)| KeyValues {
                k: f32_matrix(k),
                v: f32_matrix(v),
            })
            .collect();
        share_key_values(&mut heads, &shared).unwrap();
        let case = RefCase {
            rope: rope(false, None, Scale::None),
            slopes: Some(ref_slopes(4)),
            ..plain()
        };
        let p = Problem::new(heads, core_spec(&case, None, true), None).unwrap();
        let result = p.compute().unwrap();
        let mut worst = 0.0f64;
        for (h, q) in qs.iter().enumerate() {
            // Head h reads group ⌊h·G/H⌋.
            let (k, v) = &kv[h * groups / 4];
            let (w, o) = ref_head(q, k, v, h, &case);
            for i in 0..n {
                for j in 0..m {
                    worst = worst.max((f64::from(result.heads[h].weights[[i, j]]) - w[i][j]).abs());
                }
                for c in 0..dv {
                    worst = worst.max((f64::from(result.heads[h].output[[i, c]]) - o[i][c]).abs());
                }
            }
        }
        eprintln!("4 heads, {groups} groups: largest |core − f64 reference| = {worst:.3e}");
        assert!(worst < 1e-5);
    }
}

// ---------------------------------------------------------------------------------------
// Properties.

fn vector(d: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(-3.0f32..3.0, d)
}

fn any_rope() -> impl Strategy<Value = Rope> {
    (
        prop_oneof![Just(RopePairs::Half), Just(RopePairs::Interleaved)],
        prop_oneof![Just(10000.0f32), Just(100.0), 2.0f32..50000.0],
        prop_oneof![
            Just(RopeScaling::None),
            (0.25f32..8.0).prop_map(|factor| RopeScaling::Linear { factor }),
            (0.5f32..8.0).prop_map(|factor| RopeScaling::Ntk { factor }),
            (1.0f32..8.0).prop_map(|factor| RopeScaling::Yarn {
                factor,
                original_max_positions: 256.0,
                beta_fast: 32.0,
                beta_slow: 1.0,
            }),
        ],
    )
        .prop_map(|(pairs, base, scaling)| Rope {
            base,
            pairs,
            scaling,
            ..Rope::default()
        })
}

fn turned(rope: &Rope, x: &[f32], p: f32) -> Vec<f32> {
    let mut a = Array2::from_shape_vec((1, x.len()), x.to_vec()).unwrap();
    rope.turn(&mut a, &[p]);
    a.into_raw_vec_and_offset().0
}

fn norm(x: &[f32]) -> f64 {
    x.iter()
        .map(|&v| f64::from(v) * f64::from(v))
        .sum::<f64>()
        .sqrt()
}

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum()
}

fn mscale(rope: &Rope) -> f64 {
    match rope.scaling {
        RopeScaling::Yarn { factor, .. } if factor > 1.0 => 0.1 * f64::from(factor).ln() + 1.0,
        _ => 1.0,
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// A turn keeps the length (times YaRN's mscale, which multiplies cos and sin).
    #[test]
    fn rope_keeps_norms(rope in any_rope(), half in 1usize..6, x in vector(12), p in -300.0f32..3000.0) {
        let d = 2 * half;
        let x = &x[..d];
        let y = turned(&rope, x, p);
        let want = norm(x) * mscale(&rope);
        prop_assert!((norm(&y) - want).abs() <= 1e-5 * want.max(1.0), "{} vs {}", norm(&y), want);
    }

    /// q̃_i · k̃_j depends on the positions only through p_i − p_j: shifting both by the
    /// same offset gives the same score.
    #[test]
    fn rope_scores_depend_on_the_offset_only(
        rope in any_rope(),
        half in 1usize..6,
        q in vector(12),
        k in vector(12),
        pi in 0u16..2000,
        pj in 0u16..2000,
        shift in 0u16..2000,
    ) {
        let d = 2 * half;
        let (q, k) = (&q[..d], &k[..d]);
        let (pi, pj, shift) = (f32::from(pi), f32::from(pj), f32::from(shift));
        let a = dot(&turned(&rope, q, pi), &turned(&rope, k, pj));
        let b = dot(&turned(&rope, q, pi + shift), &turned(&rope, k, pj + shift));
        let scale = norm(q) * norm(k) * mscale(&rope).powi(2);
        prop_assert!((a - b).abs() <= 1e-5 * scale.max(1.0), "{a} vs {b}");
    }

    /// Tiles of any width B (1, 2, 3, n, > n) give plain softmax's weights, output and
    /// row entropies, masked and empty rows included.
    #[test]
    fn tiles_give_the_plain_softmax(
        (n, m) in (1usize..9, 1usize..9),
        seed in any::<u64>(),
        causal in any::<bool>(),
        window in prop::option::of(0usize..3),
        padding in prop::collection::vec(0usize..8, 0..3),
    ) {
        let mut g = Lcg(seed);
        let q = f32_matrix(&g.matrix(n, 3, 3.0));
        let k = f32_matrix(&g.matrix(m, 3, 3.0));
        let v = f32_matrix(&g.matrix(m, 2, 3.0));
        let mask = MaskSpec {
            causal,
            window,
            padding_keys: padding.into_iter().filter(|&p| p < m).collect(),
            ..MaskSpec::default()
        };
        let spec = AttentionSpec { mask, ..AttentionSpec::default() };
        let head = HeadInput::new(q, k, v);
        let plain = Problem::new(vec![head.clone()], spec.clone(), None).unwrap().compute_head(0).unwrap();
        for b in [1, 2, 3, n, m, m + 5] {
            let tiled = AttentionSpec { tiles: Some(b), ..spec.clone() };
            let got = Problem::new(vec![head.clone()], tiled, None).unwrap().compute_head(0).unwrap();
            prop_assert_eq!(got.computation, Computation::Tiled);
            prop_assert_eq!(&got.empty_rows, &plain.empty_rows);
            for (x, y) in got.weights.iter().zip(plain.weights.iter()) {
                prop_assert!((x - y).abs() <= 1e-6, "B = {}: weight {} vs {}", b, x, y);
            }
            for (x, y) in got.output.iter().zip(plain.output.iter()) {
                prop_assert!((x - y).abs() <= 1e-6, "B = {}: output {} vs {}", b, x, y);
            }
            // The rows' entropy too, from the tiles' running max and sum.
            for (x, y) in got.row_entropy.iter().zip(&plain.row_entropy) {
                prop_assert!((x - y).abs() <= 1e-5, "B = {}: entropy {} vs {}", b, x, y);
            }
            for (x, y) in got.row_entropy_normalised.iter().zip(&plain.row_entropy_normalised) {
                prop_assert!((x - y).abs() <= 1e-5, "B = {}: normalised entropy {} vs {}", b, x, y);
            }
            prop_assert_eq!(got.row_entropy.len(), plain.row_entropy.len());
        }
    }

    /// G = H groups is plain multi-head attention with the same k, v per head; with one
    /// group (multi-query) every head reads the same k, v: each head's result is that of
    /// its q alone with the shared k, v.
    #[test]
    fn grouped_heads_are_heads_with_their_groups_keys(seed in any::<u64>(), heads in 1usize..5) {
        let mut g = Lcg(seed);
        let (n, m) = (3, 4);
        let qs: Vec<Array2<f32>> = (0..heads).map(|_| f32_matrix(&g.matrix(n, 4, 2.0))).collect();
        let kv: Vec<KeyValues> = (0..heads)
            .map(|_| KeyValues { k: f32_matrix(&g.matrix(m, 4, 2.0)), v: f32_matrix(&g.matrix(m, 2, 1.0)) })
            .collect();
        let spec = AttentionSpec { rope: Some(Rope::default()), ..AttentionSpec::default() };
        let query_heads = || -> Vec<HeadInput> {
            qs.iter().map(|q| HeadInput::new(q.clone(), Array2::zeros((0, 0)), Array2::zeros((0, 0)))).collect()
        };
        let mut grouped = query_heads();
        share_key_values(&mut grouped, &kv).unwrap();
        let mha: Vec<HeadInput> = qs.iter().zip(&kv).map(|(q, g)| HeadInput::new(q.clone(), g.k.clone(), g.v.clone())).collect();
        let a = Problem::new(grouped, spec.clone(), None).unwrap().compute().unwrap();
        let b = Problem::new(mha, spec.clone(), None).unwrap().compute().unwrap();
        prop_assert_eq!(a, b);
        let mut mqa = query_heads();
        share_key_values(&mut mqa, &kv[..1]).unwrap();
        let all = Problem::new(mqa, spec.clone(), None).unwrap().compute().unwrap();
        for (h, q) in qs.iter().enumerate() {
            let alone = HeadInput::new(q.clone(), kv[0].k.clone(), kv[0].v.clone());
            let one = Problem::new(vec![alone], spec.clone(), None).unwrap().compute_head(0).unwrap();
            prop_assert_eq!(&all.heads[h], &one);
        }
    }
}
