//! The app's components, one per file. They read the [`AppState`](crate::state::AppState)
//! and render it; the maths lives in `attnlab_lab` and `attnlab_core`.

mod app;
mod app_header;
mod attention_heatmap;
mod cell_info;
mod compare_panel;
mod complexity;
mod head_grid_view;
pub(crate) mod knob;
mod linear;
mod lines;
mod link_bar;
mod model_settings;
mod notice;
mod page_nav;
pub mod positions;
pub mod scaling;
mod sentence_input;
mod steps;
mod token_strip;
mod variant_controls;
mod variant_panel;
mod view_pickers;

pub use app::App;
pub use app_header::AppHeader;
pub use attention_heatmap::AttentionHeatmap;
pub use cell_info::CellInfo;
pub use compare_panel::ComparePanel;
pub use complexity::ComplexityView;
pub use head_grid_view::HeadGridView;
pub use linear::LinearPage;
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
