//! The lab page: the variants side by side, each with its knobs, its selected head, its
//! head grid and head average; the comparison of two variants; and the weight each
//! variant's heads put on the first token.

mod cell_info;
mod compare_panel;
mod first_token_panel;
mod groups_figure;
mod head_grid_view;
mod variant_controls;
mod variant_options;
mod variant_panel;
mod zoom;

pub use cell_info::CellInfo;
pub use compare_panel::{ComparePanel, ComparedPick};
pub use first_token_panel::FirstTokenPanel;
pub use head_grid_view::HeadGridView;
pub use variant_controls::VariantControls;
pub use variant_panel::VariantPanel;
pub use zoom::{ZoomBar, ZoomNote, zoom_to, zoomed};
