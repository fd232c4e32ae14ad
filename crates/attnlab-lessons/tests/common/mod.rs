//! What the lesson-claims tests share: a lesson's step as the embedded catalogue holds
//! it, the lab's result for one of its variants, and its words in both languages.

#![allow(dead_code)]

use attnlab_lab::compute::{Pipeline, VariantResult};
use attnlab_lessons::{Catalog, Lang, Step};

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
