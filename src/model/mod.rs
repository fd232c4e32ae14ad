//! The real (pretrained) model: the session that drives its worker (`attnlab_workers::ModelWorker`). The views of
//! the model are in `pages::model`; what the page and the worker agree on is
//! `attnlab_model_page`.

mod session;

pub use session::{ModelSession, Status, provide_model_session, use_model_session};
