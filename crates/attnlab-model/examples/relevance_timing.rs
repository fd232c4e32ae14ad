//! Times attention flow for the last of 6 layers (12 heads each) at 16, 32 and 64 tokens,
//! and rollout beside it, on random softmax attention (no download needed):
//!
//! ```sh
//! cargo run --release -p attnlab-model --example relevance_timing
//! ```

use std::time::{Duration, Instant};

use attnlab_model::AttentionGraph;
use ndarray::Array2;

/// Softmax rows of random logits in [−3, 3): attention about as peaked as a trained
/// model's.
fn random_layers(n: usize, layers: usize, heads: usize, seed: u64) -> Vec<Vec<Array2<f32>>> {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..layers)
        .map(|_| {
            (0..heads)
                .map(|_| {
                    let mut a = Array2::from_shape_fn((n, n), |_| (6.0 * next() - 3.0).exp());
                    for mut row in a.rows_mut() {
                        let sum = row.sum();
                        row.mapv_inplace(|v| v / sum);
                    }
                    a.mapv(|v| v as f32)
                })
                .collect()
        })
        .collect()
}

fn time(runs: u32, mut f: impl FnMut()) -> Duration {
    f(); // warm-up
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    start.elapsed() / runs
}

fn main() {
    for n in [16, 32, 64] {
        let layers = random_layers(n, 6, 12, n as u64);
        let graph = AttentionGraph::new(&layers).expect("valid attention");
        let runs = if n == 64 { 3 } else { 10 };
        let flow = time(runs, || {
            graph.flow(5).expect("flow");
        });
        let rollout = time(runs, || {
            graph.rollout();
        });
        println!(
            "{n:>3} tokens, 6 layers: flow of layer 5 {:>9.2} ms, rollout of all layers {:>7.3} ms",
            flow.as_secs_f64() * 1e3,
            rollout.as_secs_f64() * 1e3
        );
    }
}
