//! The app's components, one per file. They read the [`AppState`](crate::state::AppState)
//! and render it; the maths lives in `attnlab_lab` and `attnlab_core`.

mod app;
mod app_header;
mod attention_heatmap;
mod cell_info;
mod compare_panel;
mod head_grid_view;
mod knob;
mod lines;
mod link_bar;
mod model_settings;
mod notice;
mod page_nav;
mod sentence_input;
mod steps;
mod token_strip;
mod variant_controls;
mod variant_panel;

pub use app::App;
pub use app_header::AppHeader;
pub use attention_heatmap::AttentionHeatmap;
pub use cell_info::CellInfo;
pub use compare_panel::ComparePanel;
pub use head_grid_view::HeadGridView;
pub use lines::LinesView;
pub use link_bar::LinkBar;
pub use model_settings::ModelSettingsPanel;
pub use notice::Notice;
pub use page_nav::PageNav;
pub use sentence_input::SentenceInput;
pub use steps::StepsView;
pub use token_strip::TokenStrip;
pub use variant_controls::VariantControls;
pub use variant_panel::VariantPanel;
