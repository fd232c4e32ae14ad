//! What the lesson-claims tests share: a lesson's step as the embedded catalogue holds
//! it, the lab's result for one of its variants, and its words in both languages.

#![allow(dead_code)]

use attnlab_core::model::Encoded;
use attnlab_lab::compute::{Pipeline, VariantResult};
use attnlab_lab::state::LabState;
use attnlab_lessons::{Answer, Catalog, Lang, Step, StepKind, answer};
use attnlab_pages::block::{self, BlockInput, BlockRun};
use ndarray::{Array2, ArrayRef2};

/// Step `id` of `lesson`, from the embedded lessons (which must load without error).
pub fn step(lesson: &str, id: &str) -> Step {
    let (catalog, errors) = Catalog::embedded();
    assert!(errors.is_empty(), "{errors:?}");
    let lesson = catalog.lesson(lesson).unwrap();
    lesson.steps[lesson.step_index(id).unwrap()].clone()
}

/// Variant `variant` of the step's own state, as the lab computes it.
pub fn run(step: &Step, variant: usize) -> VariantResult {
    Pipeline::new(&step.state).variant(variant).unwrap()
}

/// The words of `lesson`'s step `id` (title, text, question, reveal) in both languages,
/// English first.
pub fn words(lesson: &str, id: &str) -> [String; 2] {
    let (catalog, _) = Catalog::embedded();
    let lesson = catalog.lesson(lesson).unwrap();
    [Lang::En, Lang::Zh].map(|lang| {
        let t = lesson.text(lang).step(id).unwrap();
        [
            Some(&t.title),
            Some(&t.text),
            t.question.as_ref(),
            t.reveal.as_ref(),
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n")
    })
}

/// Both languages say `en` / `zh`.
pub fn says(lesson: &str, id: &str, en: &str, zh: &str) {
    let [e, z] = words(lesson, id);
    assert!(
        e.contains(en),
        "{lesson}/{id} (en) does not say “{en}”: {e}"
    );
    assert!(
        z.contains(zh),
        "{lesson}/{id} (zh) does not say “{zh}”: {z}"
    );
}

/// `f` of the Block page's input on `state` (`attnlab_pages::block::with_input`: as the
/// app derives it), with the sentence's encoding.
pub fn with_block_input<R>(state: &LabState, f: impl FnOnce(&Encoded, &BlockInput<'_>) -> R) -> R {
    block::with_input(state, f).unwrap()
}

/// The Block page's run on `state` ([`with_block_input`]), with the sentence's encoding.
pub fn block_run(state: &LabState) -> (Encoded, BlockRun) {
    with_block_input(state, |encoded, input| {
        (encoded.clone(), block::run(input).unwrap())
    })
}

/// The largest |difference| of two matrices.
pub fn max_abs(a: &ArrayRef2<f32>, b: &ArrayRef2<f32>) -> f32 {
    (a - b).iter().fold(0.0f32, |m, d| m.max(d.abs()))
}

/// The answer of a predict step, by the app's own [`answer`].
pub fn predicted(s: &Step) -> Answer {
    let StepKind::Predict(q) = &s.kind else {
        panic!("{} asks nothing", s.id)
    };
    answer(q, &s.state, None).unwrap()
}

/// The decoder's input `X` (the target's rows the run used).
pub fn encoded_target(r: &BlockRun, encoded: &Encoded) -> Array2<f32> {
    encoded
        .x
        .slice(ndarray::s![..r.used.tokens.0, ..])
        .to_owned()
}
