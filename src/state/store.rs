//! The lab's state as a `reactive_stores::Store`: an accessor for each field of
//! [`LabState`] and of its [`View`], read and written on its own, and [`edit`], which
//! changes the state in place and tells the readers of each field it changed.
//!
//! The accessors are what `#[derive(Store)]` writes, written here so that `attnlab-lab`
//! stays a crate without reactive dependencies. A write to a field notifies that field's
//! readers and the readers of the whole state, not its siblings'; a field added to
//! `LabState` or `View` fails to compile here until it has its accessor and its place in
//! [`edit`].
//!
//! The variants are one field: in reactive_stores 0.4.4 a write through `at_unkeyed(i)`
//! notifies the readers of every element too (its parent's write guard is not
//! untracked), so each variant's memos start from a memo of the variant itself
//! (`VariantSlot::variant`), which stops there when the change is another variant's.

use attnlab_core::model::ModelConfig;
use attnlab_lab::state::{BlockView, DecodeStepView, KvCache, PretrainedView, Seq2seqView};
use attnlab_lab::{CompareWhat, LabState, Mode, Page, Variant, View, Zoom};
use leptos::prelude::*;
use reactive_stores::{Store, StoreField, Subfield};

/// An accessor for each field of `$ty`, on the store and on any field holding a `$ty`.
macro_rules! store_fields {
    ($(#[$doc:meta])* $name:ident for $ty:ident { $($i:literal $field:ident: $fty:ty,)* }) => {
        $(#[$doc])*
        pub trait $name<F> {
            $(
                #[doc = concat!("`", stringify!($field), "`, read and written on its own.")]
                fn $field(self) -> Subfield<F, $ty, $fty>;
            )*
        }

        impl<F: StoreField<Value = $ty>> $name<F> for F {
            $(
                #[track_caller]
                fn $field(self) -> Subfield<F, $ty, $fty> {
                    Subfield::new(self, $i.into(), |s| &s.$field, |s| &mut s.$field)
                }
            )*
        }

        // Every field has its accessor.
        const _: fn(&$ty) = |s| {
            let $ty { $($field: _),* } = s;
        };
    };
}

store_fields! {
    /// The fields of the lab's state: `state.lab.text()`, `state.lab.view().head()`, …
    LabFields for LabState {
        0 mode: Mode,
        1 text: String,
        2 source: String,
        3 pair: String,
        4 model: ModelConfig,
        5 pad_to: Option<usize>,
        6 variants: Vec<Variant>,
        7 view: View,
        8 pretrained: Option<PretrainedView>,
    }
}

store_fields! {
    /// The fields of the view selections: `state.lab.view().page()`, …
    ViewFields for View {
        0 page: Page,
        1 variant: usize,
        2 head: usize,
        3 compare: (usize, usize),
        4 compare_what: CompareWhat,
        5 zoom: Option<Zoom>,
        6 lines_threshold: usize,
        7 kv_cache: KvCache,
        8 block: BlockView,
        9 seq2seq: Seq2seqView,
        10 decode_step: DecodeStepView,
    }
}

/// Applies `f` to the state in `lab`, in place, then tells the readers of each field it
/// changed (and the readers of the whole state); a field left as it was wakes no one.
pub fn edit<R>(lab: Store<LabState>, f: impl FnOnce(&mut LabState) -> R) -> R {
    let before = lab.get_untracked();
    let (result, changed) = {
        let mut state = lab.write_untracked();
        let result = f(&mut state);
        (result, changed(&before, &state))
    };
    // The write lock is released: each notice is a write of that field, so its readers
    // and the whole state's readers rerun, and no sibling's.
    for notify in changed {
        notify(lab);
    }
    result
}

/// How the readers of one field are told it changed.
type Notice = fn(Store<LabState>);

/// The notices of the fields `after` changed from `before`.
fn changed(before: &LabState, after: &LabState) -> Vec<Notice> {
    let LabState {
        mode,
        text,
        source,
        pair,
        model,
        pad_to,
        variants,
        view,
        pretrained,
    } = after;
    let View {
        page,
        variant,
        head,
        compare,
        compare_what,
        zoom,
        lines_threshold,
        kv_cache,
        block,
        seq2seq,
        decode_step,
    } = view;
    let was = &before.view;
    let mut notices: Vec<Notice> = Vec::new();
    let mut note = |changed: bool, notice: Notice| {
        if changed {
            notices.push(notice);
        }
    };
    note(*mode != before.mode, |l| touch(l.mode()));
    note(*text != before.text, |l| touch(l.text()));
    note(*source != before.source, |l| touch(l.source()));
    note(*pair != before.pair, |l| touch(l.pair()));
    note(*model != before.model, |l| touch(l.model()));
    note(*pad_to != before.pad_to, |l| touch(l.pad_to()));
    note(*variants != before.variants, |l| touch(l.variants()));
    note(*pretrained != before.pretrained, |l| touch(l.pretrained()));
    note(*page != was.page, |l| touch(l.view().page()));
    note(*variant != was.variant, |l| touch(l.view().variant()));
    note(*head != was.head, |l| touch(l.view().head()));
    note(*compare != was.compare, |l| touch(l.view().compare()));
    note(*compare_what != was.compare_what, |l| {
        touch(l.view().compare_what())
    });
    note(*zoom != was.zoom, |l| touch(l.view().zoom()));
    note(*lines_threshold != was.lines_threshold, |l| {
        touch(l.view().lines_threshold())
    });
    note(*kv_cache != was.kv_cache, |l| touch(l.view().kv_cache()));
    note(*block != was.block, |l| touch(l.view().block()));
    note(*seq2seq != was.seq2seq, |l| touch(l.view().seq2seq()));
    note(*decode_step != was.decode_step, |l| {
        touch(l.view().decode_step())
    });
    notices
}

/// Notifies what a write of `field` notifies, for a value already changed in place.
fn touch<T>(field: impl Update<Value = T>) {
    field.update(|_| ());
}
