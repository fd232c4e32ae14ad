//! The linear-attention lab: softmax against a kernel variant on the same
//! Q, K of the selected head (implied matrices, difference, singular values and ranks),
//! causal linear attention stepped through as an RNN (also with a decay: decayed linear
//! attention beside its masked parallel form with D), Linformer's projections, FAVOR+'s
//! error against its number of features, and which kinds can be made causal. The numbers come from `attnlab_pages::linear`.

mod causality_notes;
mod decay_knob;
mod favor_panel;
mod kernel_panel;
mod linear_page;
mod linear_pickers;
mod linformer_panel;
mod rnn_stepper;

use attnlab_core::attention::Problem;
use attnlab_pages::linear::LinearLabError;
use leptos::prelude::*;

pub use causality_notes::CausalityNotes;
pub use decay_knob::{DecayKnob, DecayMode};
pub use favor_panel::FavorPanel;
pub use kernel_panel::KernelPanel;
pub use linear_page::LinearPage;
pub use linear_pickers::LinearPickers;
pub use linformer_panel::LinformerPanel;
pub use rnn_stepper::RnnStepper;

/// The selected variant's problem, or the sentence saying why there is none.
pub type ProblemMemo = Memo<Result<Problem, String>>;

/// A memo of `f` on the selected variant's problem: what `f` computes, or the problem's
/// or `f`'s error as a sentence.
pub fn from_problem<T>(
    problem: ProblemMemo,
    f: impl Fn(&Problem) -> Result<T, LinearLabError> + Send + Sync + 'static,
) -> Memo<Result<T, String>>
where
    T: PartialEq + Send + Sync + 'static,
{
    let lang = crate::i18n::use_lang();
    Memo::new(move |_| {
        problem.with(|p| match p {
            Ok(p) => f(p).map_err(|e| e.sentence_in(lang.get())),
            Err(e) => Err(e.clone()),
        })
    })
}
