//! Which steps a learner has seen, as a small serde type the page keeps in
//! `localStorage` under [`STORAGE_KEY`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{Catalog, Lesson};

/// The `localStorage` key the page keeps [`Progress`] under.
pub const STORAGE_KEY: &str = "attnlab.lessons.progress";

/// The steps seen, lesson by lesson (by id). Serialised as
/// `{"seen":{"masks":["causal","intro"]}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Lesson id → the ids of its steps seen.
    #[serde(default)]
    pub seen: BTreeMap<String, BTreeSet<String>>,
}

/// How far a learner is in one lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LessonProgress {
    /// Steps seen (of the lesson's current steps).
    pub seen: usize,
    /// Steps in the lesson.
    pub total: usize,
}

impl LessonProgress {
    /// Every step seen.
    pub fn is_complete(&self) -> bool {
        self.total > 0 && self.seen == self.total
    }
}

impl Progress {
    /// Marks `step` of `lesson` as seen; whether it was new.
    pub fn mark_seen(&mut self, lesson: &str, step: &str) -> bool {
        self.seen
            .entry(lesson.to_string())
            .or_default()
            .insert(step.to_string())
    }

    /// Whether `step` of `lesson` was seen.
    pub fn has_seen(&self, lesson: &str, step: &str) -> bool {
        self.seen.get(lesson).is_some_and(|s| s.contains(step))
    }

    /// How many of `lesson`'s steps were seen (steps since removed from it do not count).
    pub fn of(&self, lesson: &Lesson) -> LessonProgress {
        LessonProgress {
            seen: lesson
                .steps
                .iter()
                .filter(|s| self.has_seen(&lesson.id, &s.id))
                .count(),
            total: lesson.steps.len(),
        }
    }

    /// Forgets every lesson and step `catalog` no longer has.
    pub fn retain_known(&mut self, catalog: &Catalog) {
        self.seen
            .retain(|lesson, steps| match catalog.lesson(lesson) {
                Ok(l) => {
                    steps.retain(|s| l.step_index(s).is_some());
                    !steps.is_empty()
                }
                Err(_) => false,
            });
    }

    /// Forgets everything about `lesson`.
    pub fn reset(&mut self, lesson: &str) {
        self.seen.remove(lesson);
    }

    /// The JSON the page stores.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("maps of strings serialise")
    }

    /// Reads what the page stored; anything unreadable (another version, a hand edit)
    /// starts afresh, since progress is only a convenience.
    pub fn from_json(text: &str) -> Progress {
        serde_json::from_str(text).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_and_forgives_bad_json() {
        let mut p = Progress::default();
        assert!(p.mark_seen("masks", "causal"));
        assert!(!p.mark_seen("masks", "causal"));
        p.mark_seen("masks", "intro");
        let json = p.to_json();
        assert_eq!(json, r#"{"seen":{"masks":["causal","intro"]}}"#);
        assert_eq!(Progress::from_json(&json), p);
        assert!(p.has_seen("masks", "intro") && !p.has_seen("masks", "window"));
        assert_eq!(Progress::from_json("{not json"), Progress::default());
        assert_eq!(Progress::from_json(r#"{"seen":3}"#), Progress::default());
        p.reset("masks");
        assert_eq!(p, Progress::default());
    }
}
