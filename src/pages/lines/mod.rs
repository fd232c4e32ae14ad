//! The "Lines" view: the selected variant's heads as token-to-token lines (BertViz
//! style), queries left and keys right, line opacity = weight, one colour per head.

mod head_toggles;
mod lines_view;
mod token_lines_canvas;

pub use head_toggles::HeadToggles;
pub use lines_view::LinesView;
pub use token_lines_canvas::TokenLinesCanvas;
