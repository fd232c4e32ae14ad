//! A lesson's and step's place in the link: `#lesson=LESSON[/STEP][&v1.…]`.

use std::fmt;

/// What a lesson part of a fragment starts with.
pub const LESSON_PREFIX: &str = "lesson=";

/// A lesson, and optionally one of its steps, named by a link.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LessonLink {
    /// The lesson's id, e.g. `"masks"`.
    pub lesson: String,
    /// The step's id, e.g. `"causal"`; `None`: the lesson's first step.
    pub step: Option<String>,
}

impl LessonLink {
    /// A link to `lesson`'s `step` (or to its start).
    pub fn new(lesson: impl Into<String>, step: Option<&str>) -> LessonLink {
        LessonLink {
            lesson: lesson.into(),
            step: step.map(String::from),
        }
    }

    /// Splits a fragment (without `#`) into its lesson part and the rest, the state:
    /// `lesson=masks/causal&v1.e30` → (`Some(masks/causal)`, `"v1.e30"`);
    /// `v1.e30` → (`None`, `"v1.e30"`). A lesson part that names no lesson
    /// (`lesson=` or `lesson=/x`) is `None` and is still skipped.
    pub fn split(fragment: &str) -> (Option<LessonLink>, &str) {
        let Some(rest) = fragment.strip_prefix(LESSON_PREFIX) else {
            return (None, fragment);
        };
        let (place, state) = rest.split_once('&').unwrap_or((rest, ""));
        let (lesson, step) = match place.split_once('/') {
            Some((lesson, step)) => (lesson, Some(step).filter(|s| !s.is_empty())),
            None => (place, None),
        };
        let link = (!lesson.is_empty()).then(|| LessonLink::new(lesson, step));
        (link, state)
    }

    /// The lesson named by a fragment or a whole URL, if it names one.
    pub fn parse(input: &str) -> Option<LessonLink> {
        let fragment = match input.find('#') {
            Some(at) => &input[at + 1..],
            None => input,
        };
        LessonLink::split(super::split_lang(fragment.trim()).1.trim()).0
    }

    /// The fragment (without `#`) for this place, followed by `&` and `state` (a `v1.…`
    /// fragment from [`super::encode`]) when the learner changed the step's state.
    pub fn fragment(&self, state: Option<&str>) -> String {
        match state {
            Some(state) => format!("{self}&{state}"),
            None => self.to_string(),
        }
    }
}

impl fmt::Display for LessonLink {
    /// `lesson=LESSON` or `lesson=LESSON/STEP`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{LESSON_PREFIX}{}", self.lesson)?;
        if let Some(step) = &self.step {
            write!(f, "/{step}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode, encode, load};
    use attnlab_lab::LabState;

    #[test]
    fn a_lesson_and_step_round_trip() {
        for link in [
            LessonLink::new("masks", None),
            LessonLink::new("masks", Some("causal")),
            LessonLink::new("01-x", Some("predict-it")),
        ] {
            let fragment = link.fragment(None);
            assert_eq!(
                LessonLink::parse(&format!("#{fragment}")),
                Some(link.clone())
            );
            let url = format!("https://example.org/attnlab/#{fragment}");
            assert_eq!(LessonLink::parse(&url), Some(link));
        }
        assert_eq!(
            LessonLink::new("masks", Some("causal")).to_string(),
            "lesson=masks/causal"
        );
    }

    #[test]
    fn a_changed_state_rides_after_the_lesson() {
        let mut state = LabState::default();
        state.variants[1].masks.causal = true;
        let link = LessonLink::new("masks", Some("causal"));
        let fragment = link.fragment(Some(&encode(&state)));
        assert!(fragment.starts_with("lesson=masks/causal&v1"), "{fragment}");
        assert_eq!(LessonLink::parse(&fragment), Some(link));
        assert_eq!(decode(&format!("#{fragment}")).unwrap().state, state);
        assert_eq!(load(&fragment).notice, None);
    }

    #[test]
    fn a_lesson_link_alone_opens_the_defaults_without_a_notice() {
        let loaded = load("#lesson=masks/causal");
        assert_eq!((loaded.state, loaded.notice), (LabState::default(), None));
        let loaded = load("#lesson=");
        assert_eq!(loaded.notice, None);
    }

    #[test]
    fn links_without_a_lesson_name_none() {
        assert_eq!(LessonLink::parse("#v1.e30"), None);
        assert_eq!(LessonLink::parse("#lesson="), None);
        assert_eq!(LessonLink::parse("#lesson=/x"), None);
        assert_eq!(LessonLink::parse("https://example.org/"), None);
        assert_eq!(
            LessonLink::parse("#lesson=masks/"),
            Some(LessonLink::new("masks", None))
        );
    }
}
