//! The lab page: the variants side by side, each with its knobs, its selected head, its
//! head grid and head average; and the comparison of two variants.

mod cell_info;
mod compare_panel;
mod head_grid_view;
mod variant_controls;
mod variant_options;
mod variant_panel;
mod zoom;

pub use cell_info::CellInfo;
pub use compare_panel::{ComparePanel, ComparedPick};
pub use head_grid_view::HeadGridView;
pub use variant_controls::VariantControls;
pub use variant_panel::VariantPanel;
pub use zoom::{ZoomBar, ZoomNote, zoom_to, zoomed};
