//! Weight matrices behind one type: f32 rows, int8 rows each with its own scale, or
//! Q4_0 blocks (32 weights sharing one f16 scale, 4 bits each).
//!
//! The model code calls [`Linear::forward`] and [`Matrix::row_into`] and never asks which
//! storage a matrix has: an f32 checkpoint and a quantised asset run the same code.

use attnlab_core::kernels;
use ndarray::Array2;

/// How a matrix's values are stored.
#[derive(Debug, Clone, PartialEq)]
pub enum Storage {
    /// Row-major f32.
    F32(Vec<f32>),
    /// Row-major int8 with a scale per row and one per column: `w_rc = s_r · t_c · q_rc`.
    Int8 {
        /// `rows × cols` quantised values in `[-127, 127]`.
        data: Vec<i8>,
        /// `s_r`, one per row.
        scales: Vec<f32>,
        /// `t_c`, one per column (all 1 for plain per-row scaling).
        col_scales: Vec<f32>,
    },
    /// Row-major Q4_0 blocks of [`Q4_BLOCK`] weights, [`Q4_BLOCK_BYTES`] bytes each: an
    /// f16 scale `d` (little-endian), then 16 bytes whose byte `j` holds weight `j` in
    /// its low nibble and weight `j + 16` in its high nibble; `w = d · (nibble − 8)`.
    /// Kept bit for bit as the checkpoint ships them; `cols` is a multiple of
    /// [`Q4_BLOCK`].
    Q4_0(Vec<u8>),
}

/// Weights per Q4_0 block.
pub const Q4_BLOCK: usize = 32;
/// Bytes per Q4_0 block: the f16 scale and 16 bytes of nibbles.
pub const Q4_BLOCK_BYTES: usize = 18;

/// Widens one Q4_0 block (`Q4_BLOCK_BYTES` bytes) into `out` (`Q4_BLOCK` values).
fn dequantize_block(block: &[u8], out: &mut [f32]) {
    let d = half::f16::from_le_bytes([block[0], block[1]]).to_f32();
    let (low, high) = out.split_at_mut(Q4_BLOCK / 2);
    for ((q, lo), hi) in block[2..Q4_BLOCK_BYTES].iter().zip(low).zip(high) {
        *lo = f32::from(i8::try_from(q & 0x0f).expect("a nibble") - 8) * d;
        *hi = f32::from(i8::try_from(q >> 4).expect("a nibble") - 8) * d;
    }
}

/// Why bytes are not a Q4_0 matrix of a given shape.
pub fn check_q4_0(rows: usize, cols: usize, blocks: &[u8]) -> Result<(), String> {
    if !cols.is_multiple_of(Q4_BLOCK) {
        return Err(format!(
            "{cols} columns are not a multiple of the Q4_0 block of {Q4_BLOCK}"
        ));
    }
    let expected = rows * cols / Q4_BLOCK * Q4_BLOCK_BYTES;
    if blocks.len() != expected {
        return Err(format!(
            "{} bytes of Q4_0 blocks, expected {expected} for {rows} × {cols}",
            blocks.len()
        ));
    }
    if let Some(i) = blocks
        .chunks_exact(Q4_BLOCK_BYTES)
        .position(|b| !half::f16::from_le_bytes([b[0], b[1]]).is_finite())
    {
        return Err(format!("Q4_0 block {i} has a scale that is not finite"));
    }
    Ok(())
}

/// A `rows × cols` matrix (a weight `out × in`, or an embedding table `tokens × d`).
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    storage: Storage,
}

impl Matrix {
    /// A matrix of f32 values, row-major. Panics unless `data.len() == rows · cols`.
    pub fn from_f32(rows: usize, cols: usize, data: Vec<f32>) -> Matrix {
        assert_eq!(data.len(), rows * cols, "f32 matrix data");
        Matrix {
            rows,
            cols,
            storage: Storage::F32(data),
        }
    }

    /// A quantised matrix. Panics unless the lengths fit `rows × cols`.
    pub fn from_int8(
        rows: usize,
        cols: usize,
        data: Vec<i8>,
        scales: Vec<f32>,
        col_scales: Vec<f32>,
    ) -> Matrix {
        assert_eq!(data.len(), rows * cols, "int8 matrix data");
        assert_eq!(scales.len(), rows, "int8 matrix scales");
        assert_eq!(col_scales.len(), cols, "int8 matrix column scales");
        Matrix {
            rows,
            cols,
            storage: Storage::Int8 {
                data,
                scales,
                col_scales,
            },
        }
    }

    /// A Q4_0 matrix from its blocks (see [`Storage::Q4_0`]). Panics unless
    /// [`check_q4_0`] accepts them.
    pub fn from_q4_0(rows: usize, cols: usize, blocks: Vec<u8>) -> Matrix {
        if let Err(why) = check_q4_0(rows, cols, &blocks) {
            panic!("Q4_0 matrix: {why}");
        }
        Matrix {
            rows,
            cols,
            storage: Storage::Q4_0(blocks),
        }
    }

    /// The rows `keep` (in that order) as a new matrix of the same storage.
    /// Panics if one is out of range.
    pub fn select_rows(&self, keep: &[usize]) -> Matrix {
        let c = self.cols;
        let pick = |width: usize, data: &[u8]| -> Vec<u8> {
            keep.iter()
                .flat_map(|&r| data[r * width..(r + 1) * width].iter().copied())
                .collect()
        };
        let storage = match &self.storage {
            Storage::F32(values) => Storage::F32(
                keep.iter()
                    .flat_map(|&r| values[r * c..(r + 1) * c].iter().copied())
                    .collect(),
            ),
            Storage::Int8 {
                data,
                scales,
                col_scales,
            } => Storage::Int8 {
                data: keep
                    .iter()
                    .flat_map(|&r| data[r * c..(r + 1) * c].iter().copied())
                    .collect(),
                scales: keep.iter().map(|&r| scales[r]).collect(),
                col_scales: col_scales.clone(),
            },
            Storage::Q4_0(blocks) => Storage::Q4_0(pick(c / Q4_BLOCK * Q4_BLOCK_BYTES, blocks)),
        };
        Matrix {
            rows: keep.len(),
            cols: c,
            storage,
        }
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Bytes its values take in memory (scales included).
    pub fn bytes(&self) -> usize {
        match &self.storage {
            Storage::F32(v) => v.len() * 4,
            Storage::Int8 {
                data,
                scales,
                col_scales,
            } => data.len() + (scales.len() + col_scales.len()) * 4,
            Storage::Q4_0(blocks) => blocks.len(),
        }
    }

    /// The storage.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The same matrix quantised per row to `[-levels, levels]` (`levels` from 1 to
    /// 127): `scale_r = max_c |w_rc| / levels`, `q_rc = round(w_rc / scale_r)`. A
    /// quantised matrix is returned as it is.
    pub fn quantized(&self, levels: u8, columns: ColumnScaling) -> Matrix {
        let top = f32::from(levels.clamp(1, 127));
        let Storage::F32(values) = &self.storage else {
            return self.clone();
        };
        let mut col_scales = vec![1.0f32; self.cols];
        if columns == ColumnScaling::Largest {
            col_scales.fill(0.0);
            for row in values.chunks_exact(self.cols.max(1)) {
                for (t, v) in col_scales.iter_mut().zip(row) {
                    *t = t.max(v.abs());
                }
            }
            col_scales
                .iter_mut()
                .filter(|t| **t == 0.0)
                .for_each(|t| *t = 1.0);
        }
        let mut data = Vec::with_capacity(values.len());
        let mut scales = Vec::with_capacity(self.rows);
        let mut row_buf = vec![0.0f32; self.cols];
        for raw in values.chunks_exact(self.cols.max(1)) {
            for ((b, v), t) in row_buf.iter_mut().zip(raw).zip(&col_scales) {
                *b = v / t;
            }
            let row = &row_buf;
            let largest = row.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let scale = if largest > 0.0 { largest / top } else { 1.0 };
            scales.push(scale);
            data.extend(
                row.iter()
                    .map(|v| (v / scale).round().clamp(-top, top) as i8),
            );
        }
        Matrix::from_int8(self.rows, self.cols, data, scales, col_scales)
    }

    /// Writes row `r` as f32 into `out` (`cols` long). Panics if `r` is out of range.
    pub fn row_into(&self, r: usize, out: &mut [f32]) {
        let span = r * self.cols..(r + 1) * self.cols;
        match &self.storage {
            Storage::F32(values) => out.copy_from_slice(&values[span]),
            Storage::Int8 {
                data,
                scales,
                col_scales,
            } => {
                let s = scales[r];
                for ((o, q), t) in out.iter_mut().zip(&data[span]).zip(col_scales) {
                    *o = f32::from(*q) * s * t;
                }
            }
            Storage::Q4_0(blocks) => {
                let width = self.cols / Q4_BLOCK * Q4_BLOCK_BYTES;
                let row = &blocks[r * width..(r + 1) * width];
                for (b, o) in row
                    .chunks_exact(Q4_BLOCK_BYTES)
                    .zip(out.chunks_exact_mut(Q4_BLOCK))
                {
                    dequantize_block(b, o);
                }
            }
        }
    }

    /// Every value as f32, row-major (a copy for int8).
    pub fn to_f32(&self) -> Vec<f32> {
        match &self.storage {
            Storage::F32(values) => values.clone(),
            Storage::Int8 { .. } | Storage::Q4_0(_) => {
                let mut out = vec![0.0; self.rows * self.cols];
                for (r, o) in out.chunks_exact_mut(self.cols.max(1)).enumerate() {
                    self.row_into(r, o);
                }
                out
            }
        }
    }

    /// `out = x Mᵀ` for `x` (`n × cols`, row-major): `out` is `n × rows`, row-major.
    /// Through the core's `scores` kernel (`Q Kᵀ`: ndarray's matrixmultiply natively,
    /// the SIMD128 kernels in the app: packed panels from 64 tokens on, dot products
    /// below); int8 and Q4_0 rows are widened to f32 in
    /// blocks of [`BLOCK_ROWS`] rows first (on the fly: a matrix never exists as f32).
    fn times_transposed(&self, x: &[f32], out: &mut [f32]) {
        let n = x.len() / self.cols.max(1);
        match &self.storage {
            Storage::F32(values) => kernels::scores(x, values, self.cols, 1.0, out),
            Storage::Int8 {
                data,
                scales,
                col_scales,
            } => {
                // x Mᵀ = ((x ⊙ t) Qᵀ) ⊙ s: the column scales go into the input and the row
                // scales onto the output, so that widening is a plain i8 → f32 copy.
                let mut xt = x.to_vec();
                for row in xt.chunks_exact_mut(self.cols.max(1)) {
                    for (v, t) in row.iter_mut().zip(col_scales) {
                        *v *= t;
                    }
                }
                let block = BLOCK_ROWS.min(self.rows).max(1);
                let mut widened = vec![0.0f32; block * self.cols];
                let mut part = vec![0.0f32; n * block];
                for start in (0..self.rows).step_by(block) {
                    let rows = block.min(self.rows - start);
                    let w = &mut widened[..rows * self.cols];
                    let q = &data[start * self.cols..(start + rows) * self.cols];
                    for (o, q) in w.iter_mut().zip(q) {
                        *o = f32::from(*q);
                    }
                    let p = &mut part[..n * rows];
                    kernels::scores(&xt, w, self.cols, 1.0, p);
                    let s = &scales[start..start + rows];
                    for (src, dst) in p.chunks_exact(rows).zip(out.chunks_exact_mut(self.rows)) {
                        for ((d, v), s) in dst[start..start + rows].iter_mut().zip(src).zip(s) {
                            *d = v * s;
                        }
                    }
                }
            }
            Storage::Q4_0(_) => {
                let block = BLOCK_ROWS.min(self.rows).max(1);
                let mut widened = vec![0.0f32; block * self.cols];
                let mut part = vec![0.0f32; n * block];
                for start in (0..self.rows).step_by(block) {
                    let rows = block.min(self.rows - start);
                    let w = &mut widened[..rows * self.cols];
                    for (r, o) in w.chunks_exact_mut(self.cols).enumerate() {
                        self.row_into(start + r, o);
                    }
                    let p = &mut part[..n * rows];
                    kernels::scores(x, w, self.cols, 1.0, p);
                    for (src, dst) in p.chunks_exact(rows).zip(out.chunks_exact_mut(self.rows)) {
                        dst[start..start + rows].copy_from_slice(src);
                    }
                }
            }
        }
    }
}

/// Whether a quantised matrix also gets a scale per column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnScaling {
    /// Every column scale is 1: plain per-row int8.
    None,
    /// Each column is first divided by its largest `|value|`, so that a column of large
    /// values (BERT's outlier dimensions) does not coarsen every row it crosses.
    Largest,
}

/// Rows of an int8 matrix widened to f32 at a time in [`Linear::forward`] (256 rows ×
/// 1536 columns is 1.5 MB: the widened block stays in cache while the product reads it).
pub const BLOCK_ROWS: usize = 256;

/// `y = x Wᵀ + b` with `W` (`out × in`) stored as a [`Matrix`].
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    weight: Matrix,
    bias: Option<Vec<f32>>,
}

impl Linear {
    /// A layer from its weight (`out × in`) and optional bias (`out` long). Panics if the
    /// bias has the wrong length.
    pub fn new(weight: Matrix, bias: Option<Vec<f32>>) -> Linear {
        if let Some(b) = &bias {
            assert_eq!(b.len(), weight.rows(), "bias length");
        }
        Linear { weight, bias }
    }

    /// The weight.
    pub fn weight(&self) -> &Matrix {
        &self.weight
    }

    /// The bias.
    pub fn bias(&self) -> Option<&[f32]> {
        self.bias.as_deref()
    }

    /// Input width.
    pub fn in_features(&self) -> usize {
        self.weight.cols()
    }

    /// Output width.
    pub fn out_features(&self) -> usize {
        self.weight.rows()
    }

    /// `x Wᵀ + b` for the rows of `x` (`n × in`): `n × out`. Panics if `x` is not
    /// `in_features` wide.
    pub fn forward(&self, x: &Array2<f32>) -> Array2<f32> {
        assert_eq!(x.ncols(), self.in_features(), "Linear::forward input width");
        let x = x.as_standard_layout();
        let n = x.nrows();
        let mut out = vec![0.0f32; n * self.out_features()];
        self.weight
            .times_transposed(x.as_slice().expect("standard layout"), &mut out);
        if let Some(b) = &self.bias {
            for row in out.chunks_exact_mut(b.len().max(1)) {
                for (o, bi) in row.iter_mut().zip(b) {
                    *o += bi;
                }
            }
        }
        Array2::from_shape_vec((n, self.out_features()), out).expect("n × out")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn forward_is_x_w_transposed_plus_b() {
        // W = [[1, 2], [3, 4], [5, 6]] (3 out × 2 in), b = [0.5, 0, -1].
        let w = Matrix::from_f32(3, 2, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let lin = Linear::new(w, Some(vec![0.5, 0.0, -1.0]));
        let y = lin.forward(&array![[1.0, 1.0], [2.0, -1.0]]);
        // Row 0: [1+2+0.5, 3+4, 5+6-1]; row 1: [2-2+0.5, 6-4, 10-6-1].
        assert_eq!(y, array![[3.5, 7.0, 10.0], [0.5, 2.0, 3.0]]);
    }

    #[test]
    fn int8_rows_keep_their_largest_value_exactly() {
        let w = Matrix::from_f32(2, 3, vec![0.5, -1.0, 0.25, 0.0, 0.0, 0.0]);
        let q = w.quantized(127, ColumnScaling::None);
        let Storage::Int8 { data, scales, .. } = q.storage() else {
            panic!("quantised")
        };
        // Row 0: scale 1/127, values 63.5 → 64, -127, 31.75 → 32. Row 1: all zero.
        assert_eq!(data, &[64, -127, 32, 0, 0, 0]);
        assert_eq!(scales, &[1.0 / 127.0, 1.0]);
        let mut row = [0.0; 3];
        q.row_into(0, &mut row);
        assert_eq!(row[1], -1.0);
        assert!((row[0] - 0.5).abs() <= 0.5 / 127.0);
    }

    #[test]
    fn int8_forward_matches_its_dequantised_f32_in_blocks() {
        // More rows than one block, so the block loop and its tail are both used; with
        // and without column scales.
        let (rows, cols) = (BLOCK_ROWS + 37, 5);
        let values: Vec<f32> = (0..rows * cols)
            .map(|i| ((i * 7919) % 101) as f32 / 50.0 - 1.0 + if i % cols == 2 { 4.0 } else { 0.0 })
            .collect();
        for columns in [ColumnScaling::None, ColumnScaling::Largest] {
            let q = Matrix::from_f32(rows, cols, values.clone()).quantized(127, columns);
            let dense = Matrix::from_f32(rows, cols, q.to_f32());
            let x =
                Array2::from_shape_fn((3, cols), |(i, j)| (i as f32 - 1.0) * 0.3 + j as f32 * 0.1);
            let a = Linear::new(q, Some(vec![0.25; rows])).forward(&x);
            let b = Linear::new(dense, Some(vec![0.25; rows])).forward(&x);
            for (u, v) in a.iter().zip(&b) {
                assert!((u - v).abs() < 1e-5, "{columns:?}: {u} vs {v}");
            }
        }
    }

    /// One Q4_0 block: scale `d` (as f16) and the 32 nibbles `q` (0–15).
    fn q4_block(d: f32, q: &[u8; 32]) -> Vec<u8> {
        let mut b = half::f16::from_f32(d).to_le_bytes().to_vec();
        b.extend((0..16).map(|j| q[j] | (q[j + 16] << 4)));
        b
    }

    #[test]
    fn q4_0_blocks_hold_weight_j_low_and_j_plus_16_high() {
        // d = 0.5: nibble 8 is 0, 0 is −4, 15 is 3.5; weight j = (j mod 16) − 8 halved.
        let q: [u8; 32] = std::array::from_fn(|j| (j % 16) as u8);
        let mut nibbles = q;
        nibbles[0] = 15;
        nibbles[16] = 0;
        let m = Matrix::from_q4_0(1, 32, q4_block(0.5, &nibbles));
        let mut row = [0.0f32; 32];
        m.row_into(0, &mut row);
        assert_eq!(row[0], 3.5);
        assert_eq!(row[16], -4.0);
        assert_eq!(row[8], 0.0);
        assert_eq!(row[1], -3.5);
        assert_eq!(row[31], 3.5);
        // The byte layout itself: byte 0 = low 15, high 0.
        assert_eq!(q4_block(0.5, &nibbles)[2], 0x0f);
    }

    #[test]
    fn q4_0_forward_matches_its_dequantised_f32_in_blocks() {
        // More rows than one block, two blocks per row, varied scales.
        let (rows, cols) = (BLOCK_ROWS + 5, 64);
        let blocks: Vec<u8> = (0..rows * 2)
            .flat_map(|b| {
                let q: [u8; 32] = std::array::from_fn(|j| ((b * 7 + j * 5) % 16) as u8);
                q4_block(0.01 * (1 + b % 13) as f32, &q)
            })
            .collect();
        let q = Matrix::from_q4_0(rows, cols, blocks);
        let dense = Matrix::from_f32(rows, cols, q.to_f32());
        let x = Array2::from_shape_fn((3, cols), |(i, j)| (i as f32 - 1.0) * 0.3 + j as f32 * 0.01);
        let a = Linear::new(q.clone(), None).forward(&x);
        let b = Linear::new(dense, None).forward(&x);
        assert_eq!(a, b);
        let picked = q.select_rows(&[3, 0, rows - 1]);
        let mut one = vec![0.0; cols];
        let mut other = vec![0.0; cols];
        picked.row_into(2, &mut one);
        q.row_into(rows - 1, &mut other);
        assert_eq!(one, other);
    }

    #[test]
    fn q4_0_shapes_and_scales_are_checked() {
        assert!(
            check_q4_0(1, 30, &[0; 18])
                .unwrap_err()
                .contains("multiple")
        );
        assert!(
            check_q4_0(2, 32, &[0; 18])
                .unwrap_err()
                .contains("expected 36")
        );
        let mut inf = q4_block(1.0, &[8; 32]);
        inf[..2].copy_from_slice(&half::f16::INFINITY.to_le_bytes());
        assert!(check_q4_0(1, 32, &inf).unwrap_err().contains("not finite"));
    }

    #[test]
    fn column_scales_keep_small_columns_fine() {
        // Column 0 is 100 times column 1: per-row scaling rounds column 1 to a step of
        // 100/127, column scaling to 1/127.
        let w = Matrix::from_f32(1, 2, vec![100.0, 0.3]);
        let mut row = [0.0; 2];
        w.quantized(127, ColumnScaling::None).row_into(0, &mut row);
        assert_eq!(row[1], 0.0);
        w.quantized(127, ColumnScaling::Largest)
            .row_into(0, &mut row);
        assert!((row[1] - 0.3).abs() < 1e-6, "{}", row[1]);
    }
}
