//! The "Step by step" view: one variant's pipeline, stage by stage, for one head and
//! one query token, with each stage's formula rendered as MathML.

mod steps_neuron;
mod steps_tiles;
mod steps_view;

pub use steps_view::StepsView;
