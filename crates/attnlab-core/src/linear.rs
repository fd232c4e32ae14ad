//! Linear attention (docs/maths.md §7; Katharopoulos et al. 2020).
//!
//! General form: `o_i = Σ_j sim(q_i,k_j) v_j / Σ_j sim(q_i,k_j)` with `sim ≥ 0`. With a
//! feature map φ, `sim(q,k) = φ(q)ᵀφ(k)` and the sums factor:
//! `o_i = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ) / (φ(q_i)ᵀ Σ_j φ(k_j) + ε)`, computed here **without**
//! the `n × m` matrix. The causal version keeps running sums `S_i`, `z_i` (an RNN).
//! The implied matrix `Â` is built separately, for drawing; `Â V` equals the O(n) output.

use ndarray::{Array1, Array2, ArrayView1, Axis, CowArray, Ix2};

use crate::kernels;
use crate::mask::Mask;

/// The ε in every linear-attention denominator.
pub const EPSILON: f32 = 1e-6;

pub use crate::kind::FeatureMap;

fn row(a: &Array2<f32>, i: usize) -> &[f32] {
    let c = a.ncols();
    &a.as_slice().expect("standard layout")[i * c..(i + 1) * c]
}

/// The running state of causal linear attention: `S = Σ φ(k_j) v_jᵀ` (`d_φ × d_v`) and
/// `z = Σ φ(k_j)`. One step absorbs a key/value pair; reading with `φ(q)` gives an output.
#[derive(Debug, Clone, PartialEq)]
pub struct RecurrentState {
    /// `S`, `d_φ × d_v`.
    pub s: Array2<f32>,
    /// `z`, length `d_φ`.
    pub z: Array1<f32>,
}

impl RecurrentState {
    /// The zero state.
    pub fn new(d_phi: usize, d_v: usize) -> RecurrentState {
        RecurrentState {
            s: Array2::zeros((d_phi, d_v)),
            z: Array1::zeros(d_phi),
        }
    }

    /// `S += φ(k) vᵀ`, `z += φ(k)`.
    pub fn absorb(&mut self, phi_k: &[f32], v: &[f32]) {
        self.absorb_all(&[(phi_k, v)]);
    }

    /// Absorbs the pairs `(φ(k_j), v_j)` in order: the same as one [`Self::absorb`] each,
    /// but the SIMD path updates `S` with four keys per pass.
    pub fn absorb_all(&mut self, pairs: &[(&[f32], &[f32])]) {
        kernels::outer_accumulate(pairs, self.s.as_slice_mut().expect("standard layout"));
        let z = self.z.as_slice_mut().expect("standard layout");
        for (phi_k, _) in pairs {
            kernels::axpy(1.0, phi_k, z);
        }
    }

    /// `o = φ(q)ᵀ S / (φ(q)ᵀ z + ε)`, written to `out` (length `d_v`).
    pub fn read(&self, phi_q: &[f32], out: &mut [f32]) {
        out.fill(0.0);
        // Σ_a φ(q)_a S_a (rows with φ(q)_a = 0 add nothing and are skipped).
        kernels::weighted_rows(phi_q, self.s.as_slice().expect("standard layout"), out);
        let denom = kernels::dot(phi_q, self.z.as_slice().expect("standard layout")) + EPSILON;
        let inv = 1.0 / denom;
        out.iter_mut().for_each(|o| *o *= inv);
    }
}

/// Non-causal kernel attention in O((n + m)·d_φ·d_v): one state over the keys that are
/// not padding, read by every query.
///
/// Both halves are matrix products: the state is formed transposed, `Sᵀ = Vᵀ φ(K)`
/// ([`kernels::transposed_product`]), so that `φ(Q) S` is the scores kernel of `φ(Q)`
/// against the rows of `Sᵀ` ([`kernels::scores`]); with SIMD128 both are the core's
/// register-blocked kernels, elsewhere ndarray's `dot` (matrixmultiply).
pub fn kernel_global(
    phi_q: &Array2<f32>,
    phi_k: &Array2<f32>,
    v: &Array2<f32>,
    key_allowed: &[bool],
) -> Array2<f32> {
    let kept: Vec<usize> = (0..phi_k.nrows()).filter(|&j| key_allowed[j]).collect();
    let (d_phi, d_v) = (phi_k.ncols(), v.ncols());
    // Every key, or the rows of the kept ones.
    let (pk, vk): (CowArray<f32, Ix2>, CowArray<f32, Ix2>) = if kept.len() == phi_k.nrows() {
        (phi_k.as_standard_layout(), v.as_standard_layout())
    } else {
        (
            phi_k.select(Axis(0), &kept).into(),
            v.select(Axis(0), &kept).into(),
        )
    };
    let mut s_t = Array2::zeros((d_v, d_phi));
    kernels::transposed_product(
        vk.as_slice().expect("standard layout"),
        pk.as_slice().expect("standard layout"),
        d_v,
        d_phi,
        s_t.as_slice_mut().expect("fresh array"),
    );
    let z = pk.sum_axis(Axis(0));
    let n = phi_q.nrows();
    let mut out = Array2::zeros((n, d_v));
    let pq = phi_q.as_standard_layout();
    let pq = pq.as_slice().expect("standard layout");
    kernels::scores(
        pq,
        s_t.as_slice().expect("fresh array"),
        d_phi,
        1.0,
        out.as_slice_mut().expect("fresh array"),
    );
    let z = z.as_slice().expect("fresh array");
    for (o, q_i) in out
        .rows_mut()
        .into_iter()
        .zip(pq.chunks_exact(d_phi.max(1)))
    {
        let inv = 1.0 / (kernels::dot(q_i, z) + EPSILON);
        o.into_iter().for_each(|x| *x *= inv);
    }
    out
}

/// Rows of `K` whose features [`global_attention`] forms at a time: 256 rows of 64
/// features are 64 KB, read back from cache by the state's product.
const FEATURE_ROWS: usize = 256;

/// Rows of `Q` whose features [`global_attention`] forms at a time: more than for the keys,
/// since the scores kernel packs the state's rows again for every block (1,024 rows of 64
/// features are 256 KB).
const QUERY_ROWS: usize = 1024;

/// Non-causal kernel attention straight from `Q`, `K`, `V`: what [`kernel_global`] gives
/// for `map.features(q)` and `map.features(k)`, without either `n × d_φ` matrix: the
/// features are formed 256 (keys) or 1,024 (queries) rows at a time into a buffer the
/// products read at once (at n = 65,536 and d = 64 the two matrices are 16 MB each,
/// written and read back from memory). The state `Sᵀ` adds the keys in the same order as
/// [`kernel_global`], so both give the same numbers to rounding (`z` may be summed in
/// another order).
pub fn global_attention(
    map: FeatureMap,
    q: &Array2<f32>,
    k: &Array2<f32>,
    v: &Array2<f32>,
    key_allowed: &[bool],
) -> Array2<f32> {
    let (n, m, d, d_v) = (q.nrows(), k.nrows(), k.ncols(), v.ncols());
    let d_phi = map.width(d);
    let (q, k, v) = (
        q.as_standard_layout(),
        k.as_standard_layout(),
        v.as_standard_layout(),
    );
    let (q, k, v) = (
        q.as_slice().expect("standard layout"),
        k.as_slice().expect("standard layout"),
        v.as_slice().expect("standard layout"),
    );
    let mut s_t = vec![0.0f32; d_v * d_phi];
    let mut z = vec![0.0f32; d_phi];
    let mut phi = vec![0.0f32; FEATURE_ROWS.max(QUERY_ROWS) * d_phi];
    let mut kept_v = vec![0.0f32; FEATURE_ROWS * d_v];
    let mut start = 0;
    while start < m {
        let end = (start + FEATURE_ROWS).min(m);
        let all = key_allowed[start..end].iter().all(|&a| a);
        // The allowed keys of the block: their features (and, when some are left out,
        // their values), in order.
        let mut rows = 0;
        for j in (start..end).filter(|&j| key_allowed[j]) {
            let f = &mut phi[rows * d_phi..(rows + 1) * d_phi];
            map.apply(&k[j * d..(j + 1) * d], f);
            for (zc, &fc) in z.iter_mut().zip(f.iter()) {
                *zc += fc;
            }
            if !all {
                kept_v[rows * d_v..(rows + 1) * d_v].copy_from_slice(&v[j * d_v..(j + 1) * d_v]);
            }
            rows += 1;
        }
        let values = if all {
            &v[start * d_v..end * d_v]
        } else {
            &kept_v[..rows * d_v]
        };
        kernels::transposed_product(values, &phi[..rows * d_phi], d_v, d_phi, &mut s_t);
        start = end;
    }
    let mut out = Array2::zeros((n, d_v));
    let o = out.as_slice_mut().expect("fresh array");
    let mut start = 0;
    while start < n {
        let end = (start + QUERY_ROWS).min(n);
        let rows = end - start;
        for (i, f) in (start..end).zip(phi.chunks_exact_mut(d_phi.max(1))) {
            map.apply(&q[i * d..(i + 1) * d], f);
        }
        let block = &mut o[start * d_v..end * d_v];
        kernels::scores(&phi[..rows * d_phi], &s_t, d_phi, 1.0, block);
        for (row, f) in block
            .chunks_exact_mut(d_v.max(1))
            .zip(phi.chunks_exact(d_phi.max(1)))
        {
            let inv = 1.0 / (kernels::dot(f, &z) + EPSILON);
            row.iter_mut().for_each(|x| *x *= inv);
        }
        start = end;
    }
    out
}

/// Causal kernel attention as an RNN: query `i` reads the state after absorbing keys
/// `0..=i` (padding skipped). O((n + m)·d_φ·d_v).
pub fn kernel_recurrent(
    phi_q: &Array2<f32>,
    phi_k: &Array2<f32>,
    v: &Array2<f32>,
    key_allowed: &[bool],
) -> Array2<f32> {
    let m = phi_k.nrows();
    let mut state = RecurrentState::new(phi_k.ncols(), v.ncols());
    let mut out = Array2::zeros((phi_q.nrows(), v.ncols()));
    for (i, mut o) in out.rows_mut().into_iter().enumerate() {
        if i < m && key_allowed[i] {
            state.absorb(row(phi_k, i), row(v, i));
        }
        state.read(row(phi_q, i), o.as_slice_mut().expect("fresh array"));
    }
    out
}

/// The similarity matrix `M ⊙ φ(Q)φ(K)ᵀ` (un-normalised, `n × m`).
pub fn kernel_similarity(phi_q: &Array2<f32>, phi_k: &Array2<f32>, mask: &Mask) -> Array2<f32> {
    let (n, m) = (phi_q.nrows(), phi_k.nrows());
    let mut sim = Array2::zeros((n, m));
    let out = sim.as_slice_mut().expect("fresh array");
    // Every pair through the blocked kernel, then the blocked cells set to exactly 0.
    kernels::scores(
        phi_q.as_slice().expect("standard layout"),
        phi_k.as_slice().expect("standard layout"),
        phi_q.ncols(),
        1.0,
        out,
    );
    for i in 0..n {
        for (s, &allowed) in out[i * m..(i + 1) * m].iter_mut().zip(mask.row(i)) {
            if !allowed {
                *s = 0.0;
            }
        }
    }
    sim
}

/// The implied matrix `Â_ij = M_ij sim_ij / (Σ_j' M_ij' sim_ij' + ε)` from a masked
/// similarity matrix (see [`kernel_similarity`]).
pub fn implied_from_similarity(sim: &Array2<f32>) -> Array2<f32> {
    let mut a = sim.clone();
    for mut r in a.rows_mut() {
        let inv = 1.0 / (r.sum() + EPSILON);
        r.mapv_inplace(|x| x * inv);
    }
    a
}

/// `Â V`: the quadratic form, for masks that break the O(n) factorisation.
pub fn weights_times_values(a: &Array2<f32>, v: &Array2<f32>) -> Array2<f32> {
    let mut out = Array2::zeros((a.nrows(), v.ncols()));
    let a = a.as_standard_layout();
    let v = v.as_standard_layout();
    kernels::weights_times_values(
        a.as_slice().expect("standard layout"),
        v.as_slice().expect("standard layout"),
        v.ncols(),
        out.as_slice_mut().expect("fresh array"),
    );
    out
}

/// Softmax of every row of `x` over its features.
pub fn softmax_rows(x: &Array2<f32>) -> Array2<f32> {
    let mut out = x.to_owned();
    for mut r in out.rows_mut() {
        let max = r.fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        r.mapv_inplace(|v| (v - max).exp());
        let inv = 1.0 / r.sum();
        r.mapv_inplace(|v| v * inv);
    }
    out
}

/// Softmax of every column of `x` over the rows where `keep` is true (other rows 0). A
/// column with no kept row is all zeros.
pub fn softmax_columns(x: &Array2<f32>, keep: &[bool]) -> Array2<f32> {
    let mut out = Array2::zeros(x.dim());
    for (c, mut col) in out.axis_iter_mut(Axis(1)).enumerate() {
        let src: ArrayView1<f32> = x.column(c);
        let max = crate::softmax::masked_max(src, keep);
        if max == f32::NEG_INFINITY {
            continue;
        }
        let mut sum = 0.0;
        for ((o, &v), &k) in col.iter_mut().zip(src).zip(keep) {
            if k {
                *o = (v - max).exp();
                sum += *o;
            }
        }
        col.mapv_inplace(|v| v / sum);
    }
    out
}

/// Efficient attention (Shen et al.): `O = softmax_row(Q) · (softmax_col(K)ᵀ V)`, in
/// O((n + m)·d_k·d_v). Returns `(Â, O)` with `Â = softmax_row(Q) softmax_col(K)ᵀ`.
pub fn efficient(
    q: &Array2<f32>,
    k: &Array2<f32>,
    v: &Array2<f32>,
    key_allowed: &[bool],
) -> (Array2<f32>, Array2<f32>) {
    let qs = softmax_rows(q);
    let ks = softmax_columns(k, key_allowed);
    let context = ks.t().dot(v); // d_k × d_v: the O(n) part
    let out = qs.dot(&context);
    let implied = qs.dot(&ks.t());
    (implied, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// Straight from Q, K, V in blocks of rows, as from the feature matrices: every map,
    /// keys left out (padding), more rows than a block, values wider than the keys.
    #[test]
    fn global_attention_is_kernel_global_of_the_features() {
        let mut r = crate::rng::stream(3, "test", 0);
        for (n, m, d, d_v) in [
            (1, 1, 1, 1),
            (5, 7, 4, 3),
            (300, 530, 8, 12),
            (257, 256, 6, 6),
        ] {
            let q = crate::rng::normal_matrix(&mut r, n, d, 1.0);
            let k = crate::rng::normal_matrix(&mut r, m, d, 1.0);
            let v = crate::rng::normal_matrix(&mut r, m, d_v, 1.0);
            for allowed in [
                vec![true; m],
                (0..m).map(|j| j % 3 != 1).collect::<Vec<_>>(),
            ] {
                for map in [FeatureMap::Elu1, FeatureMap::Relu, FeatureMap::Taylor] {
                    let want = kernel_global(&map.features(&q), &map.features(&k), &v, &allowed);
                    let got = global_attention(map, &q, &k, &v, &allowed);
                    assert_eq!(got.dim(), want.dim());
                    for (g, w) in got.iter().zip(&want) {
                        assert!(
                            (g - w).abs() <= 1e-4 * (1.0 + w.abs()),
                            "{map:?} {n}×{m}, d {d}, d_v {d_v}: {g} vs {w}"
                        );
                    }
                }
            }
        }
        // No keys allowed and no rows at all are not an error.
        let q = crate::rng::normal_matrix(&mut r, 3, 4, 1.0);
        let k = crate::rng::normal_matrix(&mut r, 2, 4, 1.0);
        let v = crate::rng::normal_matrix(&mut r, 2, 5, 1.0);
        let out = global_attention(FeatureMap::Elu1, &q, &k, &v, &[false, false]);
        assert_eq!(out.dim(), (3, 5));
        assert!(out.iter().all(|x| *x == 0.0));
        let empty = Array2::<f32>::zeros((0, 4));
        assert_eq!(
            global_attention(FeatureMap::Elu1, &empty, &k, &v, &[true, true]).dim(),
            (0, 5)
        );
    }

    #[test]
    fn feature_maps_by_hand() {
        let mut out = [0.0; 3];
        FeatureMap::Elu1.apply(&[1.0, 0.0, -1.0], &mut out);
        // elu(1)+1 = 2; elu(0)+1 = exp(0) = 1; elu(−1)+1 = exp(−1).
        assert_eq!(out, [2.0, 1.0, (-1f32).exp()]);
        FeatureMap::Relu.apply(&[1.5, 0.0, -1.0], &mut out);
        assert_eq!(out, [1.5, 0.0, 0.0]);
        FeatureMap::Taylor.apply(&[3.0, 4.0], &mut out);
        assert_eq!(out, [1.0, 0.6, 0.8]);
        FeatureMap::Taylor.apply(&[0.0, 0.0], &mut out);
        assert_eq!(out, [1.0, 0.0, 0.0], "a zero vector normalises to zero");
        // 1-d: q̂ = ±1 exactly, so antiparallel q, k give sim = 1 + (1)(−1) = 0 exactly.
        let (mut q, mut k) = ([0.0; 2], [0.0; 2]);
        FeatureMap::Taylor.apply(&[0.509_489_24], &mut q);
        FeatureMap::Taylor.apply(&[-0.936_388_7], &mut k);
        assert_eq!(q[0] * k[0] + q[1] * k[1], 0.0);
    }

    #[test]
    fn recurrent_state_by_hand() {
        // Keys φ = [1], [3]; values [10], [20]. After both: S = 1·10 + 3·20 = 70, z = 4.
        let mut s = RecurrentState::new(1, 1);
        s.absorb(&[1.0], &[10.0]);
        s.absorb(&[3.0], &[20.0]);
        let mut o = [0.0];
        s.read(&[2.0], &mut o);
        // o = 2·70 / (2·4 + ε) ≈ 17.5
        assert!((o[0] - 17.5).abs() < 1e-4);
    }

    #[test]
    fn efficient_rows_sum_to_one() {
        let q = array![[1.0f32, -2.0], [0.5, 0.5], [3.0, 0.0]];
        let k = array![[0.0f32, 1.0], [2.0, -1.0], [1.0, 1.0]];
        let v = array![[1.0f32], [2.0], [3.0]];
        let (a, o) = efficient(&q, &k, &v, &[true, false, true]);
        for r in a.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-6);
        }
        assert!(
            a.column(1).iter().all(|&x| x == 0.0),
            "padded key gets no weight"
        );
        let av = a.dot(&v);
        for (x, y) in av.iter().zip(&o) {
            assert!((x - y).abs() < 1e-5);
        }
    }
}
