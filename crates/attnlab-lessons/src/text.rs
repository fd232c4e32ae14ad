//! A lesson's words in one language: `en.toml`, `zh.toml`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Answer, Lang};

/// The placeholder a reveal text may carry for the computed answer.
pub(super) const ANSWER: &str = "{answer}";

/// A lesson's title, summary and step texts in one language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonText {
    /// The lesson's title.
    pub title: String,
    /// One or two sentences for the lesson list.
    pub summary: String,
    /// Each step's text, by step id.
    pub steps: BTreeMap<String, StepText>,
}

impl LessonText {
    /// The text of step `id`.
    pub fn step(&self, id: &str) -> Option<&StepText> {
        self.steps.get(id)
    }
}

/// One step's words. Paragraphs are separated by a blank line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepText {
    /// The step's title.
    pub title: String,
    /// What the step explains (for a question: what to look at before picking).
    pub text: String,
    /// A predict step's question.
    pub question: Option<String>,
    /// A predict step's explanation, shown with the answer; `{answer}` stands for it.
    pub reveal: Option<String>,
}

impl StepText {
    /// The reveal text with `{answer}` replaced by the answer's label in `lang`.
    pub fn reveal_with(&self, answer: &Answer, lang: Lang) -> Option<String> {
        self.reveal
            .as_ref()
            .map(|r| r.replace(ANSWER, &answer.label(lang)))
    }

    /// Every piece of text with its field name, for the checks.
    pub(super) fn fields(&self) -> Vec<(&'static str, &str)> {
        let mut out = vec![("title", self.title.as_str()), ("text", self.text.as_str())];
        if let Some(q) = &self.question {
            out.push(("question", q));
        }
        if let Some(r) = &self.reveal {
            out.push(("reveal", r));
        }
        out
    }
}
