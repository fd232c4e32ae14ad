//! A figure's numbers and labels, shared rather than copied: a memo's copy of a figure,
//! the figure of a head and the head's own matrix can all hold the same `rows × cols`
//! floats, so cloning a figure costs a few reference counts, not megabytes.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Row-major cell values (or raw scores) held behind a reference count. Built from a
/// `Vec<f32>`, or from any owner of a contiguous `[f32]` without copying it
/// ([`Cells::shared`]).
#[derive(Clone)]
pub struct Cells(Arc<dyn AsRef<[f32]> + Send + Sync>);

impl Cells {
    /// Cells that keep `owner` alive and read its slice: e.g. a wrapper around the
    /// reference-counted matrix a computation returned.
    pub fn shared(owner: impl AsRef<[f32]> + Send + Sync + 'static) -> Cells {
        Cells(Arc::new(owner))
    }

    /// Whether `self` and `other` are the very same numbers (not merely equal ones).
    pub fn same(&self, other: &Cells) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Cells {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        (*self.0).as_ref()
    }
}

impl From<Vec<f32>> for Cells {
    fn from(values: Vec<f32>) -> Cells {
        Cells(Arc::new(values))
    }
}

impl PartialEq for Cells {
    fn eq(&self, other: &Cells) -> bool {
        self.same(other) || **self == **other
    }
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Axis labels held behind a reference count: every head of a variant shares its
/// query and key labels.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Labels(Arc<[String]>);

impl Deref for Labels {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.0
    }
}

impl From<Vec<String>> for Labels {
    fn from(labels: Vec<String>) -> Labels {
        Labels(labels.into())
    }
}

impl From<&[String]> for Labels {
    fn from(labels: &[String]) -> Labels {
        Labels(labels.into())
    }
}

impl From<&Vec<String>> for Labels {
    fn from(labels: &Vec<String>) -> Labels {
        Labels(labels.as_slice().into())
    }
}

impl From<&Labels> for Labels {
    fn from(labels: &Labels) -> Labels {
        labels.clone()
    }
}

impl fmt::Debug for Labels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Owner(Vec<f32>);
    impl AsRef<[f32]> for Owner {
        fn as_ref(&self) -> &[f32] {
            &self.0
        }
    }

    #[test]
    fn clones_share_and_equality_reads_the_numbers() {
        let a = Cells::from(vec![1.0, 2.0]);
        let b = a.clone();
        assert!(a.same(&b));
        assert_eq!(&*b, [1.0, 2.0]);
        let c = Cells::shared(Owner(vec![1.0, 2.0]));
        assert!(!a.same(&c));
        assert_eq!(a, c);
        assert_ne!(a, Cells::from(vec![1.0, 2.5]));
        let labels = Labels::from(vec!["a".to_string(), "b".to_string()]);
        assert_eq!(labels.clone(), labels);
        assert_eq!(labels.len(), 2);
    }
}
