//! Attention masks (docs/maths.md §5).
//!
//! A mask is a boolean `n × m` matrix, `true` = may attend. The kinds combine as the
//! interchange format defines: start from all-true; AND `causal` (`j ≤ i`), `window r`
//! (`|i − j| ≤ r`) and `strided s` (`j ≤ i` and (`i − j < s` or `(i − j) mod s = 0`));
//! then `global G` opens every row and column of a token in G; then `sinks s` opens the
//! key columns `0 … s − 1` for every query (StreamingLLM's attention sinks); then AND
//! `padding` (padded keys are blocked for every query) and AND `custom`.

use ndarray::{ArcArray2, Array2, ArrayRef2};

use crate::error::{CoreError, Expected, Invalid, PipelineInvalid, Result};

/// Which masks to apply. The default applies none (every query sees every key).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MaskSpec {
    /// `j ≤ i`: a query sees only keys at or before its own position.
    pub causal: bool,
    /// `|i − j| ≤ r`: restricted (local) attention, O(n·r).
    pub window: Option<usize>,
    /// Sparse Transformer's strided pattern with stride `s ≥ 1`.
    pub strided: Option<usize>,
    /// Tokens that attend to and are attended by everything.
    pub global: Vec<usize>,
    /// Keys that are padding: blocked for every query.
    pub padding_keys: Vec<usize>,
    /// Cells set by hand, `n × m`.
    pub custom: Option<Array2<bool>>,
    /// Attention sinks: keys `0 … s − 1` open for every query after causal, window,
    /// strided and global (StreamingLLM, Xiao et al. 2024); padding and custom still
    /// close them. `s ≤ m`.
    pub sinks: Option<usize>,
}

/// The names of the mask kinds, as used in the interchange format's `mask` object.
pub const KINDS: [&str; 7] = [
    "causal",
    "window",
    "strided",
    "global",
    "padding_keys",
    "custom",
    "sinks",
];

impl MaskSpec {
    /// The mask kinds present, by their names in [`KINDS`].
    pub fn kinds(&self) -> Vec<&'static str> {
        let present = [
            self.causal,
            self.window.is_some(),
            self.strided.is_some(),
            !self.global.is_empty(),
            !self.padding_keys.is_empty(),
            self.custom.is_some(),
            self.sinks.is_some(),
        ];
        KINDS
            .iter()
            .zip(present)
            .filter(|(_, p)| *p)
            .map(|(k, _)| *k)
            .collect()
    }

    /// True when no mask is set.
    pub fn is_none(&self) -> bool {
        self.kinds().is_empty()
    }

    /// The kinds other than padding and causal: those that make kernel linear attention
    /// fall back to the quadratic form.
    pub fn structural_kinds(&self) -> Vec<&'static str> {
        self.kinds()
            .into_iter()
            .filter(|k| *k != "padding_keys" && *k != "causal")
            .collect()
    }

    /// Checks indices, the stride and the custom shape against an `n × m` problem.
    pub fn validate(&self, n: usize, m: usize) -> Result<()> {
        if self.strided == Some(0) {
            return Err(CoreError::InvalidSetting {
                field: "mask.strided",
                reason: Invalid::Stride,
            });
        }
        let bound = n.max(m);
        if let Some(&g) = self.global.iter().find(|&&g| g >= bound) {
            return Err(CoreError::IndexOutOfRange {
                field: "mask.global",
                index: g,
                len: bound,
            });
        }
        if let Some(&p) = self.padding_keys.iter().find(|&&p| p >= m) {
            return Err(CoreError::IndexOutOfRange {
                field: "mask.padding_keys",
                index: p,
                len: m,
            });
        }
        if let Some(s) = self.sinks.filter(|&s| s > m) {
            return Err(CoreError::InvalidSetting {
                field: "mask.sinks",
                reason: Invalid::Pipeline(PipelineInvalid::Sinks { got: s, m }),
            });
        }
        if let Some(c) = self.custom.as_ref().filter(|c| c.dim() != (n, m)) {
            return Err(CoreError::ShapeMismatch {
                head: None,
                field: "mask.custom",
                expected: Expected::Mask { n, m },
                got: c.dim(),
            });
        }
        Ok(())
    }

    /// Builds the `n × m` mask. Call [`MaskSpec::validate`] first; out-of-range indices
    /// are ignored here.
    pub fn build(&self, n: usize, m: usize) -> Mask {
        let mut allowed = Array2::from_elem((n, m), true);
        if self.causal || self.window.is_some() || self.strided.is_some() {
            for ((i, j), a) in allowed.indexed_iter_mut() {
                let mut ok = true;
                if self.causal {
                    ok &= j <= i;
                }
                if let Some(r) = self.window {
                    ok &= i.abs_diff(j) <= r;
                }
                if let Some(s) = self.strided {
                    ok &= j <= i && (i - j < s || (i - j) % s == 0);
                }
                *a = ok;
            }
        }
        for &g in &self.global {
            if g < n {
                allowed.row_mut(g).fill(true);
            }
            if g < m {
                allowed.column_mut(g).fill(true);
            }
        }
        for j in 0..self.sinks.unwrap_or(0).min(m) {
            allowed.column_mut(j).fill(true);
        }
        for &p in &self.padding_keys {
            if p < m {
                allowed.column_mut(p).fill(false);
            }
        }
        if let Some(c) = self.custom.as_ref().filter(|c| c.dim() == (n, m)) {
            allowed.zip_mut_with(c, |a, &c| *a &= c);
        }
        Mask::from_array(allowed)
    }

    /// Which keys (of `m`) are not padding.
    pub fn key_allowed(&self, m: usize) -> Vec<bool> {
        let mut keep = vec![true; m];
        for &p in &self.padding_keys {
            if p < m {
                keep[p] = false;
            }
        }
        keep
    }
}

/// A built mask: `n × m` booleans in row-major order. Clones share the booleans (every
/// head of a problem holds the same mask).
#[derive(Debug, Clone, PartialEq)]
pub struct Mask {
    allowed: ArcArray2<bool>,
    /// Every cell allowed: known when built, so asking costs nothing.
    full: bool,
}

impl Mask {
    /// The all-true `n × m` mask.
    pub fn full(n: usize, m: usize) -> Mask {
        Mask {
            allowed: ArcArray2::from_elem((n, m), true),
            full: true,
        }
    }

    /// Wraps a boolean matrix.
    pub fn from_array(allowed: Array2<bool>) -> Mask {
        let allowed = if allowed.is_standard_layout() {
            allowed
        } else {
            allowed.as_standard_layout().into_owned()
        };
        let full = allowed.iter().all(|&a| a);
        Mask {
            allowed: allowed.into_shared(),
            full,
        }
    }

    /// `(n, m)`.
    pub fn dim(&self) -> (usize, usize) {
        self.allowed.dim()
    }

    /// The boolean matrix.
    pub fn allowed(&self) -> &ArrayRef2<bool> {
        &self.allowed
    }

    /// Whether query `i` may attend to key `j`.
    pub fn get(&self, i: usize, j: usize) -> bool {
        self.allowed[[i, j]]
    }

    /// Row `i` as a slice.
    pub fn row(&self, i: usize) -> &[bool] {
        let m = self.allowed.ncols();
        &self.allowed.as_slice().expect("standard layout")[i * m..(i + 1) * m]
    }

    /// How many keys query `i` may attend to.
    pub fn allowed_count(&self, i: usize) -> usize {
        if self.full {
            return self.allowed.ncols();
        }
        self.row(i).iter().filter(|&&a| a).count()
    }

    /// True when every cell is allowed.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Rows with no allowed key, ascending.
    pub fn empty_rows(&self) -> Vec<usize> {
        (0..self.allowed.nrows())
            .filter(|&i| self.allowed_count(i) == 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(spec: &MaskSpec, n: usize, m: usize) -> Vec<String> {
        let mask = spec.build(n, m);
        (0..n)
            .map(|i| {
                mask.row(i)
                    .iter()
                    .map(|&a| if a { '1' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn causal_is_lower_triangular() {
        let s = MaskSpec {
            causal: true,
            ..Default::default()
        };
        assert_eq!(pattern(&s, 3, 3), ["1..", "11.", "111"]);
    }

    #[test]
    fn window_is_a_band() {
        let s = MaskSpec {
            window: Some(1),
            ..Default::default()
        };
        assert_eq!(pattern(&s, 4, 4), ["11..", "111.", ".111", "..11"]);
    }

    #[test]
    fn strided_keeps_recent_and_every_sth() {
        // s = 2: j ≤ i and (i − j < 2 or i − j even).
        let s = MaskSpec {
            strided: Some(2),
            ..Default::default()
        };
        assert_eq!(
            pattern(&s, 5, 5),
            ["1....", "11...", "111..", ".111.", "1.111"]
        );
    }

    #[test]
    fn global_opens_rows_and_columns_then_padding_and_custom_apply() {
        let mut s = MaskSpec {
            causal: true,
            global: vec![1],
            ..Default::default()
        };
        assert_eq!(pattern(&s, 3, 3), ["11.", "111", "111"]);
        s.padding_keys = vec![2];
        assert_eq!(pattern(&s, 3, 3), ["11.", "11.", "11."]);
        let mut custom = Array2::from_elem((3, 3), true);
        custom[[0, 0]] = false;
        s.custom = Some(custom);
        assert_eq!(pattern(&s, 3, 3), [".1.", "11.", "11."]);
    }

    #[test]
    fn sinks_open_the_first_keys_after_the_band_and_padding_closes_them() {
        // Window 1 over 5 tokens, 2 sinks: keys 0 and 1 open in every row.
        let mut s = MaskSpec {
            window: Some(1),
            sinks: Some(2),
            ..Default::default()
        };
        assert_eq!(
            pattern(&s, 5, 5),
            ["11...", "111..", "1111.", "11111", "11.11"]
        );
        // Causal: a sink is still open for query 0, which precedes it (the sinks come
        // after causal, as StreamingLLM keeps them in the cache).
        s.window = None;
        s.causal = true;
        assert_eq!(pattern(&s, 3, 3), ["11.", "11.", "111"]);
        // Padding closes a sink.
        s.padding_keys = vec![0];
        assert_eq!(pattern(&s, 3, 3), [".1.", ".1.", ".11"]);
        assert_eq!(s.kinds(), ["causal", "padding_keys", "sinks"]);
        let too_many = MaskSpec {
            sinks: Some(4),
            ..Default::default()
        };
        assert_eq!(too_many.validate(3, 3).unwrap_err().path(), "mask.sinks");
        assert!(too_many.validate(3, 4).is_ok());
    }

    #[test]
    fn rectangular_masks_and_empty_rows() {
        let s = MaskSpec {
            causal: true,
            padding_keys: vec![0],
            ..Default::default()
        };
        assert_eq!(pattern(&s, 3, 2), ["..", ".1", ".1"]);
        assert_eq!(s.build(3, 2).empty_rows(), [0]);
    }

    #[test]
    fn validation_names_the_field() {
        let s = MaskSpec {
            padding_keys: vec![5],
            ..Default::default()
        };
        assert_eq!(s.validate(3, 5).unwrap_err().path(), "mask.padding_keys");
        let s = MaskSpec {
            strided: Some(0),
            ..Default::default()
        };
        assert_eq!(s.validate(3, 3).unwrap_err().path(), "mask.strided");
        let s = MaskSpec {
            custom: Some(Array2::from_elem((2, 3), true)),
            ..Default::default()
        };
        assert_eq!(s.validate(3, 3).unwrap_err().path(), "mask.custom");
        let s = MaskSpec {
            global: vec![3],
            ..Default::default()
        };
        assert!(
            s.validate(2, 4).is_ok(),
            "global index valid for the keys only"
        );
        assert!(s.validate(2, 3).is_err());
    }
}
