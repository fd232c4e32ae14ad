//! The neuron view and the weight | contribution switch, shared by the lab and the model
//! page: why a cell has its weight (its score term by term, the row's softmax), and what
//! each key contributes beside its weight. The data comes from `attnlab_pages::neuron` and
//! `attnlab_lab::contribution`; these components only show it.

mod measure_switch;
mod neuron_panel;

pub use measure_switch::MeasureSwitch;
pub use neuron_panel::NeuronPanel;
