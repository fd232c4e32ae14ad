//! Controls every page uses: a labelled knob, the keys that move a stepper, and the
//! variant and head pickers bound to the lab's own selection.

pub mod knob;
pub mod step_keys;
pub mod view_pickers;
