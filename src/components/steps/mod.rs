//! The "Step by step" view: one variant's pipeline, stage by stage, for one head and
//! one query token, with each stage's formula rendered as MathML.

mod stage_figure;
mod steps_view;

pub use stage_figure::StageFigure;
pub use steps_view::StepsView;
