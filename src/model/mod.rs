//! The real (pretrained) model: its worker and the session that drives it. The views of
//! the model are in `pages::model`; what the page and the worker agree on is
//! `attnlab_model_page`.

mod session;
mod worker;

pub use session::{ModelSession, Status, provide_model_session, use_model_session};
