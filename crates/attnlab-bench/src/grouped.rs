//! Grouped-query attention for the benchmark: `H` query heads over `G` groups of keys and
//! values (`G = H` multi-head, `G = 1` multi-query attention), built and computed as the
//! core does it (`groups::share_key_values`, `Problem::new`, `compute_head` per head).

use std::hint::black_box;

use attnlab_core::attention::{AttentionSpec, HeadInput, Problem};
use attnlab_core::groups::{self, KeyValues};
use ndarray::Array2;
use wasm_bindgen::prelude::*;

/// `H` heads' queries and `G` groups' keys and values (`n × d` each), kept in wasm memory.
#[wasm_bindgen]
pub struct GroupedWorkload {
    queries: Vec<Array2<f32>>,
    groups: Vec<KeyValues>,
}

#[wasm_bindgen]
impl GroupedWorkload {
    /// `q`: `heads · n · d` values (head after head, each `n × d` row-major); `k`, `v`:
    /// `groups · n · d` each, group after group.
    #[wasm_bindgen(constructor)]
    pub fn new(
        q: &[f32],
        k: &[f32],
        v: &[f32],
        n: usize,
        d: usize,
        heads: usize,
        groups: usize,
    ) -> Result<GroupedWorkload, JsError> {
        GroupedWorkload::from_slices(q, k, v, n, d, heads, groups).map_err(|e| JsError::new(&e))
    }

    /// Head `h`'s output (`n × d`, row-major), for the agreement check.
    pub fn output(&self, h: usize) -> Result<Vec<f32>, JsError> {
        let problem = self.problem().map_err(|e| JsError::new(&e))?;
        let head = problem
            .compute_head(h)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(head.output.into_raw_vec_and_offset().0)
    }

    /// `reps` times: the problem built (every head given its group's keys and values,
    /// `Problem::new`) and every head computed. Returns a sum of first values, so the
    /// work cannot be skipped.
    pub fn run(&self, reps: u32) -> Result<f32, JsError> {
        let mut sum = 0.0;
        for _ in 0..reps {
            sum += self.all_heads().map_err(|e| JsError::new(&e))?;
        }
        Ok(sum)
    }

    /// The bytes of keys and values kept per token: every group's `k` and `v` rows, f32
    /// (the KV cache per token of one layer).
    pub fn kv_bytes_per_token(&self) -> usize {
        let n = self.groups.first().map_or(1, |g| g.k.nrows().max(1));
        let floats: usize = self.groups.iter().map(|g| g.k.len() + g.v.len()).sum();
        floats * std::mem::size_of::<f32>() / n
    }
}

impl GroupedWorkload {
    /// [`GroupedWorkload::new`] with a plain error.
    pub fn from_slices(
        q: &[f32],
        k: &[f32],
        v: &[f32],
        n: usize,
        d: usize,
        heads: usize,
        groups: usize,
    ) -> Result<GroupedWorkload, String> {
        groups::check_groups(heads, groups).map_err(|e| e.to_string())?;
        let size = n * d;
        let split = |name: &str, x: &[f32], count: usize| -> Result<Vec<Array2<f32>>, String> {
            if x.len() != count * size {
                return Err(format!(
                    "{name} has {} values, expected {count} × {n} × {d}",
                    x.len()
                ));
            }
            Ok(x.chunks(size.max(1))
                .take(count)
                .map(|c| Array2::from_shape_vec((n, d), c.to_vec()).expect("sized"))
                .collect())
        };
        let queries = split("q", q, heads)?;
        let groups = split("k", k, groups)?
            .into_iter()
            .zip(split("v", v, groups)?)
            .map(|(k, v)| KeyValues { k, v })
            .collect();
        Ok(GroupedWorkload { queries, groups })
    }

    fn problem(&self) -> Result<Problem, String> {
        let empty = || Array2::zeros((0, 0));
        let mut heads: Vec<HeadInput> = self
            .queries
            .iter()
            .map(|q| HeadInput::new(q.clone(), empty(), empty()))
            .collect();
        groups::share_key_values(&mut heads, &self.groups).map_err(|e| e.to_string())?;
        Problem::new(heads, AttentionSpec::default(), None).map_err(|e| e.to_string())
    }

    fn all_heads(&self) -> Result<f32, String> {
        let problem = self.problem()?;
        let mut sum = 0.0;
        for h in 0..self.queries.len() {
            let head = problem.compute_head(h).map_err(|e| e.to_string())?;
            sum += black_box(head.output[[0, 0]]);
        }
        Ok(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Kernel, Workload};

    fn values(count: usize, seed: usize) -> Vec<f32> {
        (0..count)
            .map(|i| (((i + seed) * 37 % 101) as f32 - 50.0) / 40.0)
            .collect()
    }

    #[test]
    fn each_head_reads_its_group_and_the_cache_shrinks_with_the_groups() {
        let (n, d, heads) = (6, 4, 4);
        let q = values(heads * n * d, 1);
        let (k, v) = (values(2 * n * d, 7), values(2 * n * d, 13));
        let grouped = GroupedWorkload::from_slices(&q, &k, &v, n, d, heads, 2).unwrap();
        // Heads 0, 1 read group 0; heads 2, 3 group 1: as one head of those q, k, v.
        for (h, g) in [(0, 0), (1, 0), (2, 1), (3, 1)] {
            let part = |x: &[f32], i: usize| x[i * n * d..(i + 1) * n * d].to_vec();
            let single =
                Workload::from_slices(&part(&q, h), &part(&k, g), &part(&v, g), n, d).unwrap();
            let got = grouped.problem().unwrap().compute_head(h).unwrap().output;
            let want = single.compute(Kernel::SoftmaxApp).unwrap();
            for (a, b) in got.iter().zip(&want) {
                assert!((a - b).abs() < 1e-6, "head {h}: {a} vs {b}");
            }
        }
        // 2 groups × (k + v) × 4 values × 4 bytes per token.
        assert_eq!(grouped.kv_bytes_per_token(), 2 * 2 * 4 * 4);
        let mqa = GroupedWorkload::from_slices(&q, &k[..n * d], &v[..n * d], n, d, heads, 1);
        assert_eq!(mqa.unwrap().kv_bytes_per_token(), 2 * 4 * 4);
        assert!(grouped.all_heads().unwrap().is_finite());
        assert!(GroupedWorkload::from_slices(&q, &k, &v, n, d, heads, 3).is_err());
        assert!(GroupedWorkload::from_slices(&q[1..], &k, &v, n, d, heads, 2).is_err());
    }
}
