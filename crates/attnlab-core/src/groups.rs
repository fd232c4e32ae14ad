//! Grouped-query attention (Ainslie et al. 2023) and multi-query attention (Shazeer
//! 2019; docs/maths.md §13): `H` query heads share `G` groups of keys and values, head
//! `h` reading group `⌊h·G/H⌋` (`G` must divide `H`). `G = H` is plain multi-head
//! attention; `G = 1`, multi-query attention, every head reads the same `K`, `V`.

use ndarray::Array2;

use crate::attention::HeadInput;
use crate::error::{CoreError, Invalid, PipelineInvalid, Result};

/// One group's keys and values.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValues {
    /// `m × d_k`.
    pub k: Array2<f32>,
    /// `m × d_v`.
    pub v: Array2<f32>,
}

/// The group head `head` of `heads` reads, of `groups`.
pub fn group_of(head: usize, heads: usize, groups: usize) -> usize {
    head * groups / heads
}

/// Checks that there is a group and that `groups` divides `heads`: an error naming
/// `kv_heads` otherwise.
pub fn check_groups(heads: usize, groups: usize) -> Result<()> {
    let invalid = |reason| CoreError::InvalidSetting {
        field: "kv_heads",
        reason: Invalid::Pipeline(reason),
    };
    if groups == 0 {
        return Err(invalid(PipelineInvalid::NoGroups));
    }
    if !heads.is_multiple_of(groups) {
        return Err(invalid(PipelineInvalid::GroupsDivide { heads, groups }));
    }
    Ok(())
}

/// Gives every head its group's keys and values (`head.k`, `head.v` are replaced): the
/// heads then form a [`crate::attention::Problem`] like any other, which checks their
/// shapes. An error naming `kv_heads` when there is no group or `G` does not divide `H`.
pub fn share_key_values(heads: &mut [HeadInput], groups: &[KeyValues]) -> Result<()> {
    let (h, g) = (heads.len(), groups.len());
    check_groups(h, g)?;
    for (i, head) in heads.iter_mut().enumerate() {
        let group = &groups[group_of(i, h, g)];
        head.k = group.k.clone();
        head.v = group.v.clone();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_read_consecutive_groups() {
        // 8 heads, 2 groups: heads 0–3 read group 0, heads 4–7 group 1.
        let got: Vec<usize> = (0..8).map(|h| group_of(h, 8, 2)).collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(
            (0..3).map(|h| group_of(h, 3, 3)).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(
            (0..4).map(|h| group_of(h, 4, 1)).collect::<Vec<_>>(),
            [0; 4]
        );
    }

    #[test]
    fn groups_must_divide_the_heads() {
        let head = || {
            HeadInput::new(
                Array2::zeros((1, 2)),
                Array2::zeros((0, 0)),
                Array2::zeros((0, 0)),
            )
        };
        let kv = || KeyValues {
            k: Array2::ones((3, 2)),
            v: Array2::ones((3, 1)),
        };
        let mut heads = vec![head(), head(), head()];
        let e = share_key_values(&mut heads, &[kv(), kv()]).unwrap_err();
        assert_eq!(e.path(), "kv_heads");
        assert_eq!(
            share_key_values(&mut heads, &[]).unwrap_err().path(),
            "kv_heads"
        );
        share_key_values(&mut heads, &[kv()]).unwrap();
        assert!(heads.iter().all(|h| h.k == kv().k && h.v == kv().v));
    }
}
