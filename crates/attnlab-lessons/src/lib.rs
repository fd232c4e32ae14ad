//! # attnlab-lessons
//!
//! Guided lessons as data: each lesson is a folder under the workspace's `lessons/`,
//! embedded at build time, read and checked here, so the page only has to show them.
//!
//! A folder `NN-id/` holds `lesson.toml` (everything that does not depend on the
//! language: the steps' ids, kinds, pages, states, selections and what they point at),
//! one text file per language (`en.toml`, `zh.toml`: the titles and each step's text by
//! step id) and any small `attnlab-tensors/1` documents its steps show.
//! `docs/lessons.md` describes the format.
//!
//! - a step's state is the link's own version-1 JSON object
//!   ([`attnlab_link::decode_value`]), so it is exactly what a link can hold; a state
//!   that needs a repair is an error;
//! - what a step points at is a [`FigureId`] (with its page) and optionally a
//!   [`Region`], checked against the step's page and the figure's size;
//! - a "predict, then reveal" step asks a [`Question`] whose [`Answer`] is computed from
//!   the step's state ([`answer()`]); its reveal text says why;
//! - [`load`] names the file and the step of every error and leaves out the lessons that
//!   have one; [`Catalog::embedded`] is the lessons this build carries;
//! - a lesson's and step's place in a link is [`attnlab_link::LessonLink`]; a place
//!   that does not exist is a [`LessonError`];
//! - [`Progress`] is which steps a learner has seen.
//!
//! ```
//! use attnlab_lessons::{Catalog, Lang, StepKind, answer};
//!
//! let (catalog, errors) = Catalog::embedded();
//! assert!(errors.is_empty());
//! let lesson = catalog.lesson("scores")?;
//! let step = lesson.steps.iter().find(|s| matches!(s.kind, StepKind::Predict(_))).unwrap();
//! let StepKind::Predict(question) = &step.kind else { unreachable!() };
//! let right = answer(question, &step.state, None)?;
//! let text = lesson.text(Lang::Zh).step(&step.id).unwrap();
//! assert!(!text.reveal_with(&right, Lang::Zh).unwrap().contains("{answer}"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod answer;
mod figures;
mod load;
mod progress;
mod step_checks;
mod text;

use attnlab_i18n::msg;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

pub use answer::{Answer, AnswerError, Question, answer, choices};
pub use figures::{FigureId, Grid, Pointer, Region, stage_name, stage_named};
pub use load::{Doc, LoadError, load, load_docs};
pub use progress::{LessonProgress, Progress, STORAGE_KEY};
pub use text::{LessonText, StepText};

use attnlab_lab::state::{LabState, Page};
use attnlab_link::LessonLink;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/lessons.rs"));
}

pub use attnlab_i18n::Lang;

/// One lesson: its steps and its texts.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// The id links use: the folder's name after `NN-` (`01-alignment` → `alignment`).
    pub id: String,
    /// The folder's number (`01-…` → 1): the order of the lesson list.
    pub number: u32,
    /// The folder's name.
    pub folder: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
    texts: BTreeMap<Lang, LessonText>,
}

impl Lesson {
    /// The lesson's text in `lang` (every lesson has every language: [`load`] checks).
    pub fn text(&self, lang: Lang) -> &LessonText {
        &self.texts[&lang]
    }

    /// The index of the step called `id`.
    pub fn step_index(&self, id: &str) -> Option<usize> {
        self.steps.iter().position(|s| s.id == id)
    }

    /// The link to step `index` (to the lesson's start for 0).
    pub fn link(&self, index: usize) -> LessonLink {
        LessonLink::new(&self.id, self.steps.get(index).map(|s| s.id.as_str()))
    }
}

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The id links and text files use, e.g. `"causal"`.
    pub id: String,
    /// An explanation, or a question to answer before the reveal.
    pub kind: StepKind,
    /// The page shown (also in `state.view.page`).
    pub page: Page,
    /// The app's whole state for this step, valid with nothing repaired.
    pub state: LabState,
    /// What is selected on the page.
    pub selection: Selection,
    /// What to look at (at least one).
    pub pointers: Vec<Pointer>,
    /// A small `attnlab-tensors/1` document the step shows instead of the seeded model's
    /// Q, K, V.
    pub tensors: Option<TensorFile>,
}

/// What a step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// Text and a figure.
    Explain,
    /// The learner picks among [`choices`]; then the [`answer`] and the reveal text.
    Predict(Question),
}

/// The token or cell a step selects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Selection {
    /// The query token (the steps page's query; the lab's row).
    pub query: Option<usize>,
    /// A cell `(query, key)` of the shown head.
    pub cell: Option<(usize, usize)>,
}

/// A tensors document carried by a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorFile {
    /// Its path below `lessons/`, e.g. `01-alignment/alignment.json`.
    pub path: String,
    /// Its JSON text (`"format": "attnlab-tensors/1"`).
    pub json: String,
}

/// A lesson or step a link names that does not exist; the page opens the lesson list
/// and shows [`LessonError::message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LessonError {
    /// No lesson has this id.
    UnknownLesson {
        /// The id asked for.
        lesson: String,
    },
    /// The lesson exists but has no step of this id.
    UnknownStep {
        /// The lesson.
        lesson: String,
        /// The step asked for.
        step: String,
    },
}

impl LessonError {
    /// The notice, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            LessonError::UnknownLesson { lesson } => {
                msg::lessons::LessonLinkUnknownLesson { lesson }.say(lang)
            }
            LessonError::UnknownStep { lesson, step } => {
                msg::lessons::LessonLinkUnknownStep { lesson, step }.say(lang)
            }
        }
    }
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for LessonError {}

/// The lessons that loaded, in the order of their folders' numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    lessons: Vec<Lesson>,
}

impl Catalog {
    /// The lessons embedded in this build, and the errors of those left out (empty for
    /// the lessons in the repository: a test checks). Read and checked once, on the first
    /// call.
    pub fn embedded() -> (&'static Catalog, &'static [LoadError]) {
        static EMBEDDED: OnceLock<(Catalog, Vec<LoadError>)> = OnceLock::new();
        let (catalog, errors) = EMBEDDED.get_or_init(|| load_docs(embedded::FILES));
        (catalog, errors)
    }

    /// Every lesson, in order.
    pub fn lessons(&self) -> &[Lesson] {
        &self.lessons
    }

    /// The lesson called `id`.
    pub fn lesson(&self, id: &str) -> Result<&Lesson, LessonError> {
        self.lessons
            .iter()
            .find(|l| l.id == id)
            .ok_or_else(|| LessonError::UnknownLesson { lesson: id.into() })
    }

    /// The lesson and step index a link names (its first step when it names none).
    pub fn find(&self, link: &LessonLink) -> Result<(&Lesson, usize), LessonError> {
        let lesson = self.lesson(&link.lesson)?;
        match &link.step {
            None => Ok((lesson, 0)),
            Some(step) => lesson.step_index(step).map(|i| (lesson, i)).ok_or_else(|| {
                LessonError::UnknownStep {
                    lesson: link.lesson.clone(),
                    step: step.clone(),
                }
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_parse_from_browser_codes() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en_GB"), Some(Lang::En));
        assert_eq!(Lang::parse("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
        }
    }
}
