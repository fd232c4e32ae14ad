//! The real (pretrained) model: its worker and the session that drives it. The views of
//! the model are in `pages::model`; what the page and the worker agree on is
//! `attnlab_lab::pretrained`.

mod session;
mod worker;

pub use session::{ModelSession, Status, provide_model_session, use_model_session};

use leptos::prelude::*;

use crate::state::AppState;

/// Keeps the model in step with the state: loads it when the real model is chosen (by a
/// click or by a link) and runs the sentence whenever it changes once the model is ready.
pub fn drive(state: AppState, session: ModelSession) {
    let chosen = Memo::new(move |_| state.pretrained.with(|p| p.map(|p| p.checkpoint)));
    Effect::new(move |_| {
        if let Some(checkpoint) = chosen.get()
            && session.status.with_untracked(|s| *s == Status::Idle)
        {
            session.load(checkpoint);
        }
    });
    let ready = Memo::new(move |_| session.status.with(|s| matches!(s, Status::Ready(_))));
    Effect::new(move |_| {
        let text = state.sentence.get();
        let pair = state
            .pair
            .with(|p| (!p.trim().is_empty()).then(|| p.clone()));
        if ready.get() && chosen.with(Option::is_some) {
            session.run_text(text, pair);
        }
    });
}
