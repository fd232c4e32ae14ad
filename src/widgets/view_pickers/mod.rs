//! The variant and head pickers of the explanatory views, bound to the lab's own
//! selection (`selected_variant`, `head`), so a choice made on any page is the lab's and
//! the link's.

mod head_picker;
mod variant_picker;

pub use head_picker::HeadPicker;
pub use variant_picker::VariantPicker;
