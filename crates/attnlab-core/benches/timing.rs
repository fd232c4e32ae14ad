//! A dependency-free timing harness over the same workloads as the criterion benchmarks,
//! so the kernels can be timed where criterion does not run: under Node for wasm32, with
//! and without SIMD128 (see the `kernels` module). Prints one line per workload: the
//! median of 7 samples, each at least 20 ms of repetitions, and GFLOP/s.
//!
//! ```sh
//! cargo bench -p attnlab-core --bench timing
//! CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings xtask/wasi-run.mjs" \
//!   RUSTFLAGS="-C target-feature=+simd128" cargo bench -p attnlab-core --bench timing --target wasm32-wasip1
//! ```

use std::hint::black_box;
use std::time::Instant;

use attnlab_core::kernels;
use attnlab_core::linear::FeatureMap;
use attnlab_core::mask::Mask;
use attnlab_core::softmax;

mod workloads;
use workloads::*;

const D: usize = 64;

/// Median seconds per call of `f`.
fn time<R>(mut f: impl FnMut() -> R) -> f64 {
    black_box(f());
    let mut reps = 1;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            black_box(f());
        }
        if t.elapsed().as_secs_f64() >= 0.02 {
            break;
        }
        reps *= 2;
    }
    let mut samples: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(f());
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn report(label: &str, n: usize, flops: f64, secs: f64) {
    println!(
        "{:<28} n={:<6} {:>10.3} ms {:>7.2} GFLOP/s",
        label,
        n,
        secs * 1e3,
        flops / secs / 1e9
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects workloads by label.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let want = |label: &str| filter.as_deref().is_none_or(|f| label.contains(f));
    println!("attnlab-core timing, kernels: {}", kernels::ACTIVE);
    for n in [128, 512, 2048] {
        let h = head(n, D);
        let mask = Mask::full(n, n);
        let (nf, df) = (n as f64, D as f64);
        // QKᵀ and A·V: 2·n²·d each; softmax ≈ n² exps, not counted.
        let attn = 4.0 * nf * nf * df;
        if want("softmax/quadratic") {
            report(
                "softmax/quadratic",
                n,
                attn,
                time(|| softmax_quadratic(&h, &mask)),
            );
        }
        if want("softmax/streaming") {
            report("softmax/streaming", n, attn, time(|| softmax_streaming(&h)));
        }
        let qk = 2.0 * nf * nf * df;
        if want("qk/kernels") {
            report("qk/kernels", n, qk, time(|| qk_kernels(&h)));
        }
        if want("qk/ndarray") {
            report("qk/ndarray", n, qk, time(|| qk_ndarray(&h)));
        }
        let a = softmax::softmax_masked(&qk_kernels(&h), &mask);
        if want("av/kernels") {
            report(
                "av/kernels",
                n,
                qk,
                time(|| attnlab_core::linear::weights_times_values(&a, &h.v)),
            );
        }
        if want("av/ndarray") {
            report("av/ndarray", n, qk, time(|| av_ndarray(&a, &h.v)));
        }
        let s = qk_kernels(&h);
        if want("softmax/rows") {
            report(
                "softmax/rows",
                n,
                0.0,
                time(|| softmax::softmax_masked(&s, &mask)),
            );
        }
    }
    if want("rows/") {
        // 1M entries as 512 rows of 2048: the row passes of a softmax, one at a time.
        let x: Vec<f32> = (0..1 << 20).map(|i| -((i % 1000) as f32) / 50.0).collect();
        let mut out = vec![0.0; x.len()];
        let m = 1 << 20;
        report(
            "rows/exp",
            m,
            0.0,
            time(|| {
                kernels::exp(&x, &mut out);
                black_box(&mut out);
            }),
        );
        report(
            "rows/max",
            m,
            0.0,
            time(|| x.chunks_exact(2048).map(kernels::max).sum::<f32>()),
        );
        report(
            "rows/exp_shifted_sum",
            m,
            0.0,
            time(|| kernels::exp_shifted_sum(&x, 0.5, &mut out)),
        );
        report(
            "rows/softmax_row",
            m,
            0.0,
            time(|| {
                for (r, o) in x.chunks_exact(2048).zip(out.chunks_exact_mut(2048)) {
                    kernels::softmax_row(r, 0.125, o);
                }
                black_box(&mut out);
            }),
        );
    }
    for n in [1024, 16384] {
        let h = head(n, D);
        let keep = vec![true; n];
        let (nf, df) = (n as f64, D as f64);
        // φ(K)ᵀV and φ(Q)S: 2·n·d² each.
        let lin = 4.0 * nf * df * df;
        if want("linear/global") {
            report(
                "linear/global",
                n,
                lin,
                time(|| linear_elu1_global(&h, &keep)),
            );
        }
        if want("linear/recurrent") {
            report(
                "linear/recurrent",
                n,
                lin,
                time(|| linear_elu1_recurrent(&h, &keep)),
            );
        }
        let phi_k = FeatureMap::Elu1.features(&h.k);
        if want("state/ndarray") {
            report(
                "state/ndarray",
                n,
                lin / 2.0,
                time(|| state_ndarray(&phi_k, &h.v)),
            );
        }
        if want("features/elu1") {
            report(
                "features/elu1",
                n,
                0.0,
                time(|| FeatureMap::Elu1.features(&h.k)),
            );
        }
    }
}
