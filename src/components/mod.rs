//! The app's components, one per file. They read the [`AppState`](crate::state::AppState)
//! and render it; the maths lives in `attnlab_lab` and `attnlab_core`.

mod app;
mod app_header;
mod attention_heatmap;
mod cell_info;
mod head_picker;
mod notice;
mod sentence_input;
mod token_strip;

pub use app::App;
pub use app_header::AppHeader;
pub use attention_heatmap::AttentionHeatmap;
pub use cell_info::CellInfo;
pub use head_picker::HeadPicker;
pub use notice::Notice;
pub use sentence_input::SentenceInput;
pub use token_strip::TokenStrip;
