//! The core's attention kernels, exported to JavaScript for the browser benchmark
//! (`cargo xtask bench`, page and driver in `bench/`).
//!
//! `cargo xtask bench` builds this crate twice for `wasm32-unknown-unknown`, with SIMD128
//! (the app's build) and without, and the page times both against TensorFlow.js's wasm
//! backend on the same data:
//!
//! ```js
//! import init, { Workload, Kernel, simd128 } from './pkg-simd/attnlab_bench.js';
//! await init();
//! const w = new Workload(q, k, v, n, d);  // Float32Arrays, n × d row-major
//! const o = w.output(Kernel.SoftmaxApp);  // n × d, for the agreement check
//! w.run(Kernel.SoftmaxApp, reps);         // reps calls, nothing copied out
//! ```
//!
//! The timed work is the core's own code: softmax attention as the app computes it
//! (`Problem::compute_head`: scores, the softmax of the logits with each row's entropy,
//! `A V`) and as the streaming kernel, `Q Kᵀ` alone (the packed scores kernel), and linear elu1 attention in O(n) (global and recurrent).
//! Issue 33's variants beside their peers: a head with RoPE and without (each a
//! `Problem::new` and `compute_head`), the turn of `q` and `k` alone, softmax tile by tile
//! (`tiles: B`), decayed linear attention's O(n) recurrence (`decayed::recurrent`, called
//! directly: `compute_head` would also form the `n × n` weights), and grouped-query
//! attention over several heads ([`GroupedWorkload`]). The Transformer block: one layer
//! at once, and decoding with its KV cache against recomputing the prefix
//! ([`BlockWorkload`]).
//! [`roof`] is a register-only multiply-add loop: the most arithmetic this build can do.
//!
//! The forward rows time the pretrained encoder of `attnlab-model` ([`ForwardPass`]: the
//! f32 checkpoint against the same BERT built from TensorFlow.js ops, and the int8
//! asset) and its matrix products on their own ([`MatrixProducts`], against the roof).

use std::cell::RefCell;
use std::hint::black_box;

use attnlab_core::attention::{AttentionKind, AttentionSpec, HeadInput, Problem};
use attnlab_core::decayed;
use attnlab_core::kernels;
use attnlab_core::linear::{self, FeatureMap};
use attnlab_core::mask::MaskSpec;
use attnlab_core::rope::{Rope, positions_or_count};
use attnlab_core::streaming::{self, Causality};
use ndarray::Array2;
use wasm_bindgen::prelude::*;

mod block;
mod forward;
mod grouped;

pub use block::BlockWorkload;
pub use forward::{ForwardPass, MatrixProducts};
pub use grouped::GroupedWorkload;

/// The largest `n` for the kernels that hold an `n × n` matrix (the mask, the scores).
pub const MAX_QUADRATIC_N: usize = 4096;

/// `γ` of the decayed rows: `a_t = γ` at every position (RetNet's fixed decay).
pub const DECAY: f32 = 0.95;

/// The tile widths `B` of the tiled softmax rows.
pub const TILES: [usize; 2] = [64, 128];

/// [`DECAY`], for the page's labels.
#[wasm_bindgen]
pub fn decay() -> f32 {
    DECAY
}

/// A linear-attention path of the core: `(φ(Q), φ(K), V, allowed keys) → output`.
type LinearKernel = fn(&Array2<f32>, &Array2<f32>, &Array2<f32>, &[bool]) -> Array2<f32>;

/// What [`Workload::run`] and [`Workload::output`] compute.
#[wasm_bindgen]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `softmax(Q Kᵀ/√d) V` as the app computes a head (`Problem::compute_head`): scores
    /// and their check, the softmax of the logits with each row's entropy, `A V` (n × n
    /// memory).
    SoftmaxApp,
    /// The same by the streaming kernel (online softmax, O(n·d) memory).
    SoftmaxStreaming,
    /// `Q Kᵀ/√d` alone, by the scores kernel, into a reused buffer (output: its
    /// first row only).
    Scores,
    /// Non-causal elu1 linear attention: φ(Q), φ(K) a block of rows at a time, one global
    /// state (O(n·d) memory).
    LinearGlobal,
    /// Causal elu1 linear attention as a recurrence over `S_i`, `z_i`.
    LinearRecurrent,
    /// One head of softmax attention built and computed: `Problem::new` (which checks and
    /// copies `q`, `k`, `v`) then `compute_head` — the peer of [`Kernel::RopeBuilt`].
    SoftmaxBuilt,
    /// The same with RoPE (half pairs, base 10000, positions `0 … n − 1`): `Problem::new`
    /// turns `q` and `k`, then `compute_head`.
    RopeBuilt,
    /// The turn alone: `q` and `k` copied and turned by `Rope::turn` (output: the turned
    /// `q`).
    RopeTurn,
    /// Softmax attention tile by tile, `B = 64` (`AttentionSpec::tiles`), by
    /// `compute_head`.
    Tiled64,
    /// The same, `B = 128`.
    Tiled128,
    /// Causal decayed linear attention (`γ` = [`DECAY`], scaled dot product) by its O(n)
    /// recurrence `decayed::recurrent`, called directly (what `compute_head` returns as
    /// `Computation::DecayedRecurrent`, without the `n × n` weights it also forms).
    DecayedRecurrent,
}

/// One head's `Q`, `K`, `V` (`n × d` each), kept in wasm memory so that timing copies
/// nothing in.
#[wasm_bindgen]
pub struct Workload {
    q: Array2<f32>,
    k: Array2<f32>,
    v: Array2<f32>,
    /// One head of softmax attention as the app builds it (scaled dot product, τ = 1, no
    /// mask), for `n ≤ MAX_QUADRATIC_N` only.
    problem: Option<Problem>,
    /// The same head with `tiles: B` for each of [`TILES`] (`n ≤ MAX_QUADRATIC_N`).
    tiled: Vec<Problem>,
    keep: Vec<bool>,
    scratch: RefCell<Vec<f32>>,
}

#[wasm_bindgen]
impl Workload {
    /// Copies `q`, `k`, `v` (each `n · d` values, row-major).
    #[wasm_bindgen(constructor)]
    pub fn new(q: &[f32], k: &[f32], v: &[f32], n: usize, d: usize) -> Result<Workload, JsError> {
        Workload::from_slices(q, k, v, n, d).map_err(|e| JsError::new(&e))
    }

    /// The kernel's output, row-major (`n × d`; for [`Kernel::Scores`] the first row of
    /// the scores, `n` values).
    pub fn output(&self, kernel: Kernel) -> Result<Vec<f32>, JsError> {
        self.compute(kernel).map_err(|e| JsError::new(&e))
    }

    /// Runs the kernel `reps` times; returns the sum of each result's first value, so the
    /// work cannot be skipped.
    pub fn run(&self, kernel: Kernel, reps: u32) -> Result<f32, JsError> {
        let mut sum = 0.0;
        for _ in 0..reps {
            sum += self.first(kernel).map_err(|e| JsError::new(&e))?;
        }
        Ok(sum)
    }

    /// The largest difference between the first `rows` outputs of
    /// [`Kernel::DecayedRecurrent`] over all `n` rows and the parallel form on those rows
    /// alone: decayed attention as `Problem::compute_head` forms it (causal mask, decay
    /// [`DECAY`]), its `n × n` weights `D_ij · q_i·k_j/√d` times `V`. Causal, so the
    /// first rows of the long run do not depend on the rest.
    pub fn decayed_check(&self, rows: usize) -> Result<f32, JsError> {
        self.decayed_difference(rows).map_err(|e| JsError::new(&e))
    }
}

impl Workload {
    /// [`Workload::new`] with a plain error.
    pub fn from_slices(
        q: &[f32],
        k: &[f32],
        v: &[f32],
        n: usize,
        d: usize,
    ) -> Result<Workload, String> {
        let matrix = |name: &str, x: &[f32]| {
            Array2::from_shape_vec((n, d), x.to_vec())
                .map_err(|_| format!("{name} has {} values, expected {n} × {d}", x.len()))
        };
        let built = |spec: AttentionSpec| -> Result<Problem, String> {
            let head = HeadInput::new(matrix("q", q)?, matrix("k", k)?, matrix("v", v)?);
            Problem::new(vec![head], spec, None).map_err(|e| e.to_string())
        };
        let quadratic = n <= MAX_QUADRATIC_N;
        Ok(Workload {
            q: matrix("q", q)?,
            k: matrix("k", k)?,
            v: matrix("v", v)?,
            problem: match quadratic {
                true => Some(built(AttentionSpec::default())?),
                false => None,
            },
            tiled: match quadratic {
                true => TILES
                    .iter()
                    .map(|&b| {
                        built(AttentionSpec {
                            tiles: Some(b),
                            ..AttentionSpec::default()
                        })
                    })
                    .collect::<Result<_, _>>()?,
                false => Vec::new(),
            },
            keep: vec![true; n],
            scratch: RefCell::new(Vec::new()),
        })
    }

    fn scale(&self) -> f32 {
        1.0 / (self.q.ncols() as f32).sqrt()
    }

    fn quadratic(&self) -> Result<&Problem, String> {
        self.problem.as_ref().ok_or_else(|| {
            format!(
                "n = {} is too large for a kernel with an n × n matrix (at most {MAX_QUADRATIC_N})",
                self.q.nrows()
            )
        })
    }

    /// The kernel's result as an `n × d` matrix (for `Scores`, `1 × n`).
    pub fn compute(&self, kernel: Kernel) -> Result<Vec<f32>, String> {
        let out = match kernel {
            Kernel::SoftmaxApp => self.softmax_app()?,
            Kernel::SoftmaxStreaming => self.softmax_streaming(),
            Kernel::Scores => {
                self.scores()?;
                let n = self.q.nrows();
                return Ok(self.scratch.borrow()[..n].to_vec());
            }
            Kernel::LinearGlobal => self.linear_global(),
            Kernel::LinearRecurrent => self.linear(linear::kernel_recurrent),
            other => self.variant(other)?,
        };
        Ok(out.into_raw_vec_and_offset().0)
    }

    fn first(&self, kernel: Kernel) -> Result<f32, String> {
        let out = match kernel {
            Kernel::SoftmaxApp => self.softmax_app()?,
            Kernel::SoftmaxStreaming => self.softmax_streaming(),
            Kernel::Scores => {
                self.scores()?;
                return Ok(black_box(self.scratch.borrow()[0]));
            }
            Kernel::LinearGlobal => self.linear_global(),
            Kernel::LinearRecurrent => self.linear(linear::kernel_recurrent),
            other => self.variant(other)?,
        };
        Ok(black_box(out[[0, 0]]))
    }

    /// Issue 33's kernels (see [`Kernel`]).
    fn variant(&self, kernel: Kernel) -> Result<Array2<f32>, String> {
        let tiled = |i: usize| -> Result<Array2<f32>, String> {
            self.quadratic()?;
            let head = self.tiled[i].compute_head(0).map_err(|e| e.to_string())?;
            Ok(head.output)
        };
        match kernel {
            Kernel::SoftmaxBuilt => self.built(None),
            Kernel::RopeBuilt => self.built(Some(Rope::default())),
            Kernel::RopeTurn => {
                let rope = Rope::default();
                let positions = positions_or_count(None, self.q.nrows());
                let (mut q, mut k) = (self.q.clone(), self.k.clone());
                rope.turn(&mut q, &positions);
                rope.turn(&mut k, &positions);
                black_box(&k);
                Ok(q)
            }
            Kernel::Tiled64 => tiled(0),
            Kernel::Tiled128 => tiled(1),
            Kernel::DecayedRecurrent => Ok(decayed::recurrent(
                &self.q,
                &self.k,
                &self.v,
                &vec![DECAY; self.q.nrows()],
                self.scale(),
            )),
            _ => unreachable!("the other kernels are computed in `compute`"),
        }
    }

    /// One head built (`Problem::new`: checks, copies, RoPE's turn when given) and
    /// computed (`compute_head`).
    fn built(&self, rope: Option<Rope>) -> Result<Array2<f32>, String> {
        self.quadratic()?;
        let head = HeadInput::new(self.q.clone(), self.k.clone(), self.v.clone());
        let spec = AttentionSpec {
            rope,
            ..AttentionSpec::default()
        };
        let problem = Problem::new(vec![head], spec, None).map_err(|e| e.to_string())?;
        Ok(problem.compute_head(0).map_err(|e| e.to_string())?.output)
    }

    fn decayed_difference(&self, rows: usize) -> Result<f32, String> {
        let rows = rows.min(self.q.nrows());
        if rows > MAX_QUADRATIC_N {
            return Err(format!(
                "{rows} rows is too many for the parallel form (at most {MAX_QUADRATIC_N})"
            ));
        }
        let first = |x: &Array2<f32>| x.slice(ndarray::s![..rows, ..]).to_owned();
        let mut head = HeadInput::new(first(&self.q), first(&self.k), first(&self.v));
        head.decay = Some(DECAY);
        let spec = AttentionSpec {
            attention: AttentionKind::DecayedLinear,
            mask: MaskSpec {
                causal: true,
                ..MaskSpec::default()
            },
            ..AttentionSpec::default()
        };
        let problem = Problem::new(vec![head], spec, None).map_err(|e| e.to_string())?;
        let parallel = linear::weights_times_values(
            &problem
                .compute_head(0)
                .map_err(|e| e.to_string())?
                .weights
                .to_owned(),
            &first(&self.v),
        );
        let recurrent = self.variant(Kernel::DecayedRecurrent)?;
        Ok(parallel
            .iter()
            .zip(recurrent.slice(ndarray::s![..rows, ..]))
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max))
    }

    /// One head as the app computes it (`Problem::compute_head`: the scores and their
    /// finiteness check, the softmax of `scores · 1/τ` with each row's entropy, `A V`).
    fn softmax_app(&self) -> Result<Array2<f32>, String> {
        let head = self
            .quadratic()?
            .compute_head(0)
            .map_err(|e| e.to_string())?;
        Ok(head.output)
    }

    fn softmax_streaming(&self) -> Array2<f32> {
        streaming::softmax_attention(&self.q, &self.k, &self.v, self.scale(), Causality::Full)
    }

    fn scores(&self) -> Result<(), String> {
        self.quadratic()?;
        let n = self.q.nrows();
        let mut out = self.scratch.borrow_mut();
        out.resize(n * n, 0.0);
        kernels::scores(
            self.q.as_slice().expect("standard layout"),
            self.k.as_slice().expect("standard layout"),
            self.q.ncols(),
            self.scale(),
            &mut out,
        );
        Ok(())
    }

    /// Non-causal elu1 attention as the complexity page times it: the features formed a
    /// block of rows at a time inside `linear::global_attention`.
    fn linear_global(&self) -> Array2<f32> {
        linear::global_attention(FeatureMap::Elu1, &self.q, &self.k, &self.v, &self.keep)
    }

    fn linear(&self, kernel: LinearKernel) -> Array2<f32> {
        let phi_q = FeatureMap::Elu1.features(&self.q);
        let phi_k = FeatureMap::Elu1.features(&self.k);
        kernel(&phi_q, &phi_k, &self.v, &self.keep)
    }
}

/// Whether this build was compiled with SIMD128 (`cfg!(target_feature = "simd128")`).
#[wasm_bindgen]
pub fn simd128() -> bool {
    cfg!(target_feature = "simd128")
}

/// The core's kernel path in this build: `"simd128"` or `"scalar"`.
#[wasm_bindgen]
pub fn kernel_path() -> String {
    kernels::ACTIVE.to_string()
}

/// Independent chains in [`roof`]: half multiply, half add, so that neither waits for
/// the other and each kind has enough in flight to hide its latency, while all of them
/// and the two constants stay in the 16 vector registers of x86-64.
const ROOF_CHAINS: usize = 12;

/// Floating-point operations per iteration of [`roof`]: every chain does one operation
/// (a multiply or an add), on 4 lanes with SIMD128 (on 1 without).
#[wasm_bindgen]
pub fn roof_flops_per_iteration() -> f64 {
    let lanes = if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        4
    } else {
        1
    };
    (ROOF_CHAINS * lanes) as f64
}

/// The roof: `iterations` rounds of six multiply chains `m ← m · 1` and six add chains
/// `s ← s + c`, every value in a register (f32x4 with SIMD128; wasm has no fused
/// multiply-add outside relaxed SIMD), as many multiplies as adds, like the kernels'
/// `acc + x · y`. Since the multiplies do not feed the adds, no chain waits for a multiply
/// *then* an add (a chain of `a · b + c` is bound by the two latencies in a row, which
/// kernels whose products are independent of their sums outrun). It is still a lower
/// bound of the processor's rate: each chain waits for its own latency, and a kernel
/// with eight independent sums and products that wait for nothing can pass it (the
/// packed `Q Kᵀ` measures 97–114% of it on a 2-core Xeon). The multiplier is 1 (read
/// through `black_box`, so nothing folds it), so no value ever becomes subnormal. No
/// memory is touched in the loop. Returns the sum of the chains.
#[wasm_bindgen]
pub fn roof(iterations: u32) -> f32 {
    roof_loop(iterations)
}

/// The roof's loop over twelve named chains (locals, not an array, so that the loop stays
/// register-only whatever the optimisation level), for any lane type.
macro_rules! roof_chains {
    ($iterations:expr, $splat:expr, $mul:expr, $add:expr, $sum:expr) => {{
        let (one, c) = ($splat(black_box(1.0f32)), $splat(black_box(1e-4f32)));
        let start = |i: u8| $splat(black_box(f32::from(i) * 0.01 + 0.5));
        let (mut m0, mut m1, mut m2, mut m3) = (start(0), start(1), start(2), start(3));
        let (mut m4, mut m5) = (start(4), start(5));
        let (mut s0, mut s1, mut s2, mut s3) = (start(6), start(7), start(8), start(9));
        let (mut s4, mut s5) = (start(10), start(11));
        for _ in 0..$iterations {
            m0 = $mul(m0, one);
            s0 = $add(s0, c);
            m1 = $mul(m1, one);
            s1 = $add(s1, c);
            m2 = $mul(m2, one);
            s2 = $add(s2, c);
            m3 = $mul(m3, one);
            s3 = $add(s3, c);
            m4 = $mul(m4, one);
            s4 = $add(s4, c);
            m5 = $mul(m5, one);
            s5 = $add(s5, c);
        }
        [m0, m1, m2, m3, m4, m5, s0, s1, s2, s3, s4, s5]
            .into_iter()
            .map($sum)
            .sum::<f32>()
    }};
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn roof_loop(iterations: u32) -> f32 {
    use std::arch::wasm32::*;
    roof_chains!(
        iterations,
        f32x4_splat,
        f32x4_mul,
        f32x4_add,
        |a: v128| f32x4_extract_lane::<0>(a)
            + f32x4_extract_lane::<1>(a)
            + f32x4_extract_lane::<2>(a)
            + f32x4_extract_lane::<3>(a)
    )
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn roof_loop(iterations: u32) -> f32 {
    roof_chains!(
        iterations,
        |x: f32| x,
        |a: f32, b: f32| a * b,
        |a: f32, b: f32| a + b,
        |a: f32| a
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workload(n: usize, d: usize) -> Workload {
        let x: Vec<f32> = (0..n * d)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 40.0)
            .collect();
        let y: Vec<f32> = (0..n * d)
            .map(|i| ((i * 53 % 97) as f32 - 48.0) / 30.0)
            .collect();
        let z: Vec<f32> = (0..n * d)
            .map(|i| ((i * 11 % 89) as f32 - 44.0) / 20.0)
            .collect();
        Workload::from_slices(&x, &y, &z, n, d).unwrap()
    }

    #[test]
    fn softmax_paths_agree() {
        let w = workload(37, 8);
        let app = w.compute(Kernel::SoftmaxApp).unwrap();
        let streaming = w.compute(Kernel::SoftmaxStreaming).unwrap();
        assert_eq!(app.len(), 37 * 8);
        for (a, b) in app.iter().zip(&streaming) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        // The first row of the scores: q_0 · k_j / √8.
        let scores = w.compute(Kernel::Scores).unwrap();
        let want: f32 = w.q.row(0).dot(&w.k.row(5)) / 8f32.sqrt();
        assert!((scores[5] - want).abs() < 1e-5);
    }

    #[test]
    fn linear_kernels_run_and_the_last_recurrent_row_is_global() {
        let w = workload(20, 4);
        let global = w.compute(Kernel::LinearGlobal).unwrap();
        let recurrent = w.compute(Kernel::LinearRecurrent).unwrap();
        // The last query of the recurrence has seen every key, as the global state has.
        for (a, b) in global[19 * 4..].iter().zip(&recurrent[19 * 4..]) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        assert!(w.first(Kernel::LinearGlobal).unwrap().is_finite());
    }

    #[test]
    fn too_large_for_a_quadratic_kernel_is_an_error_not_an_allocation() {
        let n = MAX_QUADRATIC_N + 1;
        let w = Workload::from_slices(&vec![0.0; n], &vec![0.0; n], &vec![0.0; n], n, 1).unwrap();
        assert!(w.compute(Kernel::SoftmaxApp).is_err());
        assert!(w.compute(Kernel::Scores).is_err());
        assert_eq!(w.compute(Kernel::LinearGlobal).unwrap().len(), n);
    }

    #[test]
    fn rope_tiles_and_decay_agree_with_their_peers() {
        let w = workload(40, 8);
        let plain = w.compute(Kernel::SoftmaxApp).unwrap();
        let close = |a: &[f32], b: &[f32], tol: f32| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < tol)
        };
        assert!(close(
            &w.compute(Kernel::SoftmaxBuilt).unwrap(),
            &plain,
            1e-6
        ));
        for tiled in [Kernel::Tiled64, Kernel::Tiled128] {
            assert!(close(&w.compute(tiled).unwrap(), &plain, 1e-5));
        }
        // RoPE turns q and k: the turned head differs from the plain one, and is the plain
        // head of the turned q and k.
        let rope = w.compute(Kernel::RopeBuilt).unwrap();
        assert!(!close(&rope, &plain, 1e-3));
        let rope_problem = Problem::new(
            vec![HeadInput::new(w.q.clone(), w.k.clone(), w.v.clone())],
            AttentionSpec {
                rope: Some(Rope::default()),
                ..AttentionSpec::default()
            },
            None,
        )
        .unwrap();
        let turned_q = w.compute(Kernel::RopeTurn).unwrap();
        assert!(close(
            &turned_q,
            rope_problem.heads()[0].q.as_slice().unwrap(),
            1e-6
        ));
        // The recurrence against the parallel form `(D ∘ QKᵀ/√d) V`, on all rows and on a
        // prefix (causal: the first rows ignore the rest).
        assert!(w.decayed_difference(40).unwrap() < 1e-4);
        assert!(w.decayed_difference(9).unwrap() < 1e-4);
        // Position 0 sees only itself: o_0 = (q_0 · k_0 / √8) v_0.
        let o = w.compute(Kernel::DecayedRecurrent).unwrap();
        let s = w.q.row(0).dot(&w.k.row(0)) / 8f32.sqrt();
        assert!((o[0] - s * w.v[[0, 0]]).abs() < 1e-5);
    }

    #[test]
    fn decayed_runs_past_the_quadratic_limit() {
        let n = MAX_QUADRATIC_N + 1;
        let w = Workload::from_slices(&vec![0.5; n], &vec![0.5; n], &vec![1.0; n], n, 1).unwrap();
        assert!(w.compute(Kernel::Tiled64).is_err());
        let o = w.compute(Kernel::DecayedRecurrent).unwrap();
        // q·k = 0.25, v = 1: o_t = 0.25 Σ_{j≤t} 0.95^{t−j} → 0.25 / 0.05 = 5.
        assert!((o[n - 1] - 5.0).abs() < 1e-4, "{}", o[n - 1]);
        assert!(w.decayed_difference(64).unwrap() < 1e-5);
    }

    #[test]
    fn roof_stays_normal_and_counts_its_work() {
        // The multiply chains keep their start (× 1); each add chain grows by 10⁻⁴ a round.
        let rounds = 200_000;
        let total = roof_loop(rounds);
        let lanes = roof_flops_per_iteration() as f32 / ROOF_CHAINS as f32;
        let starts: f32 = (0..12).map(|i| 0.5 + 0.01 * i as f32).sum();
        let want = lanes * (starts + 6.0 * rounds as f32 * 1e-4);
        assert!((total - want).abs() < 0.01 * want, "{total} vs {want}");
    }
}
