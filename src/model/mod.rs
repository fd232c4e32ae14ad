//! The real (pretrained) model: the session that drives its worker (`workers::model`). The views of
//! the model are in `pages::model`; what the page and the worker agree on is
//! `attnlab_model_page`.

mod session;

pub use session::{ModelSession, Status, provide_model_session, use_model_session};

use leptos::prelude::*;

use crate::state::AppState;

/// Keeps the model in step with the state: loads the chosen checkpoint whenever it is not
/// the one the session holds (a click, a link, a switch from one real model to the other;
/// after a cancel or a failure of the same checkpoint, only the person's "Load again"
/// asks again) and runs the sentence whenever it changes once the model is ready.
pub fn drive(state: AppState, session: ModelSession) {
    let chosen = Memo::new(move |_| state.pretrained.with(|p| p.map(|p| p.checkpoint)));
    Effect::new(move |_| {
        if let Some(checkpoint) = chosen.get()
            && session.checkpoint.get_untracked() != Some(checkpoint)
        {
            session.load(checkpoint);
        }
    });
    let ready = Memo::new(move |_| {
        chosen
            .get()
            .is_some_and(|c| matches!(session.status_of(c), Status::Ready(_)))
    });
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
