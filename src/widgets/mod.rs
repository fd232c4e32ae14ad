//! Controls every page uses: a labelled knob, and the variant and head pickers bound to
//! the lab's own selection.

pub mod knob;
pub mod view_pickers;
