//! The real model's page: loading it, a sentence pair and its alignment, the layer ×
//! head atlas, one head large, the head search, rollout and flow. The data come from the model worker through
//! [`crate::model::ModelSession`]; the figures, the search and the `[CLS]`/`[SEP]`
//! switch are `attnlab_model_page`'s.

mod atlas_view;
mod contribution_panel;
mod model_page;
mod pair_panel;
mod status_panel;
mod substitution_panel;
mod variants_panel;

#[cfg(test)]
mod texts_tests;

pub use atlas_view::AtlasView;
pub use model_page::ModelPage;
pub use pair_panel::PairPanel;
pub use status_panel::ModelStatusPanel;
pub use substitution_panel::SubstitutionPanel;
pub use variants_panel::VariantsOnHead;
