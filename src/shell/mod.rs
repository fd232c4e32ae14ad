//! The page around the views: the header with the link, the page tabs, the sidebar
//! (sentence and source with their tokens, brought tensors, the model settings) and the notices.

mod app;
mod app_header;
mod bring_tensors;
mod link_bar;
mod model_choice;
mod model_settings;
mod notice;
mod page_nav;
pub mod panic_banner;
mod qr;
mod sentence_input;
mod token_strip;

pub use app::App;
pub use app_header::AppHeader;
pub use bring_tensors::BringTensors;
pub use link_bar::LinkBar;
pub use model_choice::ModelChoice;
pub use model_settings::ModelSettingsPanel;
pub use notice::Notice;
pub use page_nav::PageNav;
pub use sentence_input::{SentenceInput, TextBox};
pub use token_strip::TokenStrip;
