//! Criterion benchmarks of the core (native): softmax attention n ∈ {128, 512, 2048},
//! d = 64; linear elu1 attention n ∈ {1024, 16384, 65536}, d = 64 (the sizes of the browser
//! benchmark, `cargo xtask bench`). `cargo bench -p attnlab-core --bench attention`.

#[cfg(not(target_arch = "wasm32"))]
mod workloads;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::hint::black_box;
    use std::time::Duration;

    use attnlab_core::mask::Mask;
    use criterion::{BenchmarkId, Criterion, criterion_group};

    use super::workloads::*;

    const D: usize = 64;

    fn softmax_attention(c: &mut Criterion) {
        let mut g = c.benchmark_group("softmax_attention");
        g.sample_size(10).warm_up_time(Duration::from_millis(500));
        for n in [128, 512, 2048] {
            let h = head(n, D);
            let mask = Mask::full(n, n);
            g.bench_with_input(BenchmarkId::new("quadratic", n), &n, |b, _| {
                b.iter(|| softmax_quadratic(black_box(&h), &mask))
            });
            g.bench_with_input(BenchmarkId::new("streaming", n), &n, |b, _| {
                b.iter(|| softmax_streaming(black_box(&h)))
            });
            g.bench_with_input(BenchmarkId::new("qk_kernels", n), &n, |b, _| {
                b.iter(|| qk_kernels(black_box(&h)))
            });
            g.bench_with_input(BenchmarkId::new("qk_ndarray", n), &n, |b, _| {
                b.iter(|| qk_ndarray(black_box(&h)))
            });
        }
        g.finish();
    }

    fn linear_attention(c: &mut Criterion) {
        let mut g = c.benchmark_group("linear_elu1");
        g.sample_size(10).warm_up_time(Duration::from_millis(500));
        for n in [1024, 16384, 65536] {
            let h = head(n, D);
            let keep = vec![true; n];
            g.bench_with_input(BenchmarkId::new("global", n), &n, |b, _| {
                b.iter(|| linear_elu1_global(black_box(&h), &keep))
            });
            g.bench_with_input(BenchmarkId::new("recurrent", n), &n, |b, _| {
                b.iter(|| linear_elu1_recurrent(black_box(&h), &keep))
            });
        }
        g.finish();
    }

    criterion_group!(benches, softmax_attention, linear_attention);
}

// criterion is a native dev-dependency only; under wasm32 use `benches/timing.rs`.
#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
