//! `Q Kᵀ` in SIMD128: the packed kernel (keys in `d × 8` panels, outer products) from
//! [`PACK_FROM`] queries on, the dot-product kernel (two queries × four keys) below; and
//! a part of the product computed apart, bit for bit as the whole computes it there
//! ([`scores_part`], [`score_order`]).

use super::*;

/// The four sums of `a0..a3` as one vector `[Σa0, Σa1, Σa2, Σa3]`.
#[inline(always)]
fn hsum4(a0: v128, a1: v128, a2: v128, a3: v128) -> v128 {
    let t0 = f32x4_add(
        i32x4_shuffle::<0, 4, 1, 5>(a0, a1),
        i32x4_shuffle::<2, 6, 3, 7>(a0, a1),
    );
    let t1 = f32x4_add(
        i32x4_shuffle::<0, 4, 1, 5>(a2, a3),
        i32x4_shuffle::<2, 6, 3, 7>(a2, a3),
    );
    f32x4_add(
        i32x4_shuffle::<0, 1, 4, 5>(t0, t1),
        i32x4_shuffle::<2, 3, 6, 7>(t0, t1),
    )
}

/// `[q_r · k_0, …, q_r · k_3]` for `R` query rows against four key rows (register
/// blocking: each key load is reused by `R` queries, each query load by four keys).
#[inline(always)]
fn block<const R: usize>(q: [&[f32]; R], k: [&[f32]; 4], d: usize) -> [v128; R] {
    let mut acc = [[f32x4_splat(0.0); 4]; R];
    let mut c = 0;
    while c + LANES <= d {
        let kv = [
            load(&k[0][c..]),
            load(&k[1][c..]),
            load(&k[2][c..]),
            load(&k[3][c..]),
        ];
        for r in 0..R {
            let qv = load(&q[r][c..]);
            for j in 0..4 {
                acc[r][j] = f32x4_add(acc[r][j], f32x4_mul(qv, kv[j]));
            }
        }
        c += LANES;
    }
    let mut out = [f32x4_splat(0.0); R];
    for r in 0..R {
        let mut v = hsum4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
        if c < d {
            let mut tail = [0.0f32; 4];
            for (j, t) in tail.iter_mut().enumerate() {
                for cc in c..d {
                    *t += q[r][cc] * k[j][cc];
                }
            }
            v = f32x4_add(v, load(&tail));
        }
        out[r] = v;
    }
    out
}

/// Floats of `k` that [`scores`] keeps in cache while every query passes over them: 16 K
/// floats, 64 KB (a third of a 384-wide weight matrix, two 64-wide heads of 256 keys).
const KEY_BLOCK_FLOATS: usize = 16 * 1024;

/// `out[i·m + j] = scale · (q_i · k_j)`, blocked two queries × four keys; leftover keys
/// through [`dot`], a leftover query one row × four keys.
///
/// The keys go in column blocks of [`KEY_BLOCK_FLOATS`] (a multiple of four keys), every
/// query against one block before the next: a block is read from memory once and reused
/// from cache by all `n` queries, instead of all of `k` streaming past each pair of them
/// (a 1536 × 384 weight is 2.4 MB). Every output is computed as without the blocks, so the
/// results are the same bit for bit.
fn scores_dot(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    let m = k.len() / d;
    let keys = (KEY_BLOCK_FLOATS / d / LANES).max(1) * LANES;
    let mut start = 0;
    while start < m {
        let end = (start + keys).min(m);
        scores_columns(q, k, d, scale, out, start..end);
        start = end;
    }
}

/// [`scores`] for the keys `columns` (`columns.start` a multiple of four).
#[inline(always)]
fn scores_columns(
    q: &[f32],
    k: &[f32],
    d: usize,
    scale: f32,
    out: &mut [f32],
    columns: std::ops::Range<usize>,
) {
    let (n, m) = (q.len() / d, k.len() / d);
    let vs = f32x4_splat(scale);
    let qrow = |i: usize| &q[i * d..(i + 1) * d];
    let krow = |j: usize| &k[j * d..(j + 1) * d];
    let mut i = 0;
    while i + 2 <= n {
        let mut j = columns.start;
        while j + 4 <= columns.end {
            let [r0, r1] = block(
                [qrow(i), qrow(i + 1)],
                [krow(j), krow(j + 1), krow(j + 2), krow(j + 3)],
                d,
            );
            store(&mut out[i * m + j..], f32x4_mul(r0, vs));
            store(&mut out[(i + 1) * m + j..], f32x4_mul(r1, vs));
            j += 4;
        }
        for jj in j..columns.end {
            out[i * m + jj] = dot(qrow(i), krow(jj)) * scale;
            out[(i + 1) * m + jj] = dot(qrow(i + 1), krow(jj)) * scale;
        }
        i += 2;
    }
    if i < n {
        let mut j = columns.start;
        while j + 4 <= columns.end {
            let [r0] = block(
                [qrow(i)],
                [krow(j), krow(j + 1), krow(j + 2), krow(j + 3)],
                d,
            );
            store(&mut out[i * m + j..], f32x4_mul(r0, vs));
            j += 4;
        }
        for jj in j..columns.end {
            out[i * m + jj] = dot(qrow(i), krow(jj)) * scale;
        }
    }
}

/// `out[i·m + j] = scale · (q_i · k_j)`: from [`PACK_FROM`] queries on by
/// [`scores_packed`] (the keys packed once, then outer products), for fewer by
/// [`scores_dot`] (dot products, nothing packed: a model's weight matrix against a short
/// sentence costs less than packing it).
pub fn scores(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    let rows = |x: &[f32]| x.len().checked_div(d).unwrap_or(0);
    scores_part(q, k, d, scale, out, (rows(q), rows(k)), None);
}

/// [`super::super::scores_part`]: the queries of `q` through the kernel picked for `n`
/// queries (packed from [`PACK_FROM`] on) (each output of either kernel depends on its query and key alone, not on the
/// queries beside it); the keys numbered `columns`, each score on its own in the order
/// its place in an `n × m` matrix gets.
pub fn scores_part(
    q: &[f32],
    k: &[f32],
    d: usize,
    scale: f32,
    out: &mut [f32],
    (n, m): (usize, usize),
    columns: Option<&[usize]>,
) {
    if d == 0 {
        out.fill(0.0);
        return;
    }
    let Some(columns) = columns else {
        if n >= PACK_FROM {
            scores_packed(q, k, d, scale, out);
        } else {
            scores_dot(q, k, d, scale, out);
        }
        return;
    };
    let width = columns.len();
    for (qi, row) in q.chunks_exact(d).zip(out.chunks_exact_mut(width.max(1))) {
        for ((o, kj), &j) in row.iter_mut().zip(k.chunks_exact(d)).zip(columns) {
            *o = score_at(qi, kj, d, scale, (n, m), j);
        }
    }
}

/// The orders [`scores`] adds a score's products in (see [`super::super::score_order`]).
const IN_PANEL: u8 = 0;
const PANEL_TAIL: u8 = 1;
const IN_BLOCK: u8 = 2;
const BLOCK_TAIL: u8 = 3;

/// [`super::super::score_order`]: a key of a full panel of [`scores_packed`] adds its products in
/// the order of the width; a key of a group of four in [`scores_dot`] goes through
/// [`block`]; a leftover key of either through [`dot`].
pub fn score_order(d: usize, (n, m): (usize, usize), j: usize) -> u8 {
    if d == 0 {
        return IN_PANEL;
    }
    if n >= PACK_FROM {
        return if j < (m / PANEL) * PANEL {
            IN_PANEL
        } else {
            PANEL_TAIL
        };
    }
    let keys = (KEY_BLOCK_FLOATS / d / LANES).max(1) * LANES;
    let start = j / keys * keys;
    let end = (start + keys).min(m);
    if j < start + (end - start) / 4 * 4 {
        IN_BLOCK
    } else {
        BLOCK_TAIL
    }
}

/// The score `scale · (q_i · k_j)` exactly as [`scores`] computes it for key `j` of an
/// `n × m` matrix ([`score_order`]); in a block, each lane is one key's sum, so four
/// copies of the key give it.
fn score_at(qi: &[f32], kj: &[f32], d: usize, scale: f32, (n, m): (usize, usize), j: usize) -> f32 {
    match score_order(d, (n, m), j) {
        IN_PANEL => {
            let mut acc = 0.0f32;
            for (x, y) in qi.iter().zip(kj) {
                acc += x * y;
            }
            acc * scale
        }
        IN_BLOCK => {
            let [r] = block([qi], [kj, kj, kj, kj], d);
            f32x4_extract_lane::<0>(f32x4_mul(r, f32x4_splat(scale)))
        }
        _ => dot(qi, kj) * scale,
    }
}

/// The fewest queries [`scores`] packs the keys for: packing reads and writes `m · d`
/// floats once, the product does `2 · n · m · d` flops. MiniLM's products (`d` = 384) run
/// at 92% of the roof by dot products at 16 tokens and 64% packed; at 128 tokens packing
/// is 5% faster, and attention's `Q Kᵀ` (`d` = 64) gains 25% from n = 128 on.
const PACK_FROM: usize = 64;

/// Keys per panel of [`scores_packed`]: two vectors of four lanes.
const PANEL: usize = 8;

/// `Q Kᵀ` as outer products: the keys are packed eight at a time into panels of `d × 8`
/// floats (`panel[c·8 + t] = k_{j+t}[c]`), and each block of `R` queries × eight keys
/// keeps its `2R` sums in registers while `c` runs over the width: per `c`, two loads of
/// the panel, `R` splats of a query element, `2R` multiplies and adds, and no horizontal
/// sums. Each output adds its products in the order of `c`, as the scalar oracle does.
fn scores_packed(q: &[f32], k: &[f32], d: usize, scale: f32, out: &mut [f32]) {
    if d == 0 {
        out.fill(0.0);
        return;
    }
    let (n, m) = (q.len() / d, k.len() / d);
    let panels = m / PANEL;
    // Panels in blocks of about KEY_BLOCK_FLOATS, packed into one buffer, every query
    // against one block before the next (the block stays in cache).
    let per_block = (KEY_BLOCK_FLOATS / (PANEL * d)).max(1);
    let mut packed = vec![0.0f32; per_block.min(panels) * PANEL * d];
    let vs = f32x4_splat(scale);
    let mut first = 0;
    while first < panels {
        let last = (first + per_block).min(panels);
        for (p, dst) in (first..last).zip(packed.chunks_exact_mut(PANEL * d)) {
            for t in 0..PANEL {
                let row = &k[(p * PANEL + t) * d..(p * PANEL + t + 1) * d];
                for (c, &x) in row.iter().enumerate() {
                    dst[c * PANEL + t] = x;
                }
            }
        }
        let block = &packed[..(last - first) * PANEL * d];
        let mut i = 0;
        while i + 4 <= n {
            for (p, panel) in (first..last).zip(block.chunks_exact(PANEL * d)) {
                panel_block::<4>(q, i, d, panel, vs, out, m, p * PANEL);
            }
            i += 4;
        }
        while i < n {
            for (p, panel) in (first..last).zip(block.chunks_exact(PANEL * d)) {
                panel_block::<1>(q, i, d, panel, vs, out, m, p * PANEL);
            }
            i += 1;
        }
        first = last;
    }
    for i in 0..n {
        let qi = &q[i * d..(i + 1) * d];
        for j in panels * PANEL..m {
            out[i * m + j] = dot(qi, &k[j * d..(j + 1) * d]) * scale;
        }
    }
}

/// Queries `i .. i + R` against the eight keys of `panel` (`d × 8`), written scaled to
/// columns `j .. j + 8` of `out` (`m` wide).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn panel_block<const R: usize>(
    q: &[f32],
    i: usize,
    d: usize,
    panel: &[f32],
    vs: v128,
    out: &mut [f32],
    m: usize,
    j: usize,
) {
    let panel = &panel[..PANEL * d];
    let rows: [&[f32]; R] = core::array::from_fn(|r| &q[(i + r) * d..(i + r + 1) * d]);
    let mut acc = [[f32x4_splat(0.0); 2]; R];
    for (c, kc) in panel.chunks_exact(PANEL).enumerate() {
        let k0 = load(&kc[..4]);
        let k1 = load(&kc[4..]);
        for r in 0..R {
            let x = f32x4_splat(rows[r][c]);
            acc[r][0] = f32x4_add(acc[r][0], f32x4_mul(x, k0));
            acc[r][1] = f32x4_add(acc[r][1], f32x4_mul(x, k1));
        }
    }
    for r in 0..R {
        let o = &mut out[(i + r) * m + j..(i + r) * m + j + PANEL];
        store(&mut o[..4], f32x4_mul(acc[r][0], vs));
        store(&mut o[4..], f32x4_mul(acc[r][1], vs));
    }
}
