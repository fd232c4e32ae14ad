//! The lessons in `lessons/`: every one loads, the catalog has the ten the lesson list
//! promises, every figure a step can point at exists in the app, every step has a link
//! that finds it again, and every "predict, then reveal" answer is computed.
//! (What each lesson's text claims is checked in `lesson_claims.rs`.)

use std::fs;
use std::path::Path;

use attnlab_lessons::{Catalog, FigureId, Lang, StepKind, answer, choices};
use attnlab_link::LessonLink;

fn catalog() -> &'static Catalog {
    let (catalog, errors) = Catalog::embedded();
    let listed: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "invalid lessons:\n{}", listed.join("\n"));
    catalog
}

#[test]
fn every_lesson_loads_with_four_to_nine_steps() {
    let catalog = catalog();
    let ids: Vec<&str> = catalog.lessons().iter().map(|l| l.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "alignment",
            "scores",
            "scaling",
            "heads",
            "masks",
            "positions",
            "linear",
            "complexity",
            "rope",
            "long-context",
            "beyond-softmax",
            "decayed-linear",
            "block",
            "decoder",
            "kv-cache",
            "why-attention"
        ]
    );
    for lesson in catalog.lessons() {
        assert!(
            (4..=9).contains(&lesson.steps.len()),
            "{} has {} steps",
            lesson.id,
            lesson.steps.len()
        );
        for lang in Lang::ALL {
            let text = lesson.text(lang);
            for step in &lesson.steps {
                assert!(text.step(&step.id).is_some(), "{} {}", lesson.id, step.id);
            }
        }
    }
}

#[test]
fn three_lessons_or_more_ask_to_predict_and_every_answer_is_computed() {
    let catalog = catalog();
    let mut lessons_with_questions = 0;
    for lesson in catalog.lessons() {
        let mut asks = false;
        for step in &lesson.steps {
            let StepKind::Predict(question) = &step.kind else {
                continue;
            };
            asks = true;
            let right = answer(question, &step.state, None).unwrap();
            for lang in Lang::ALL {
                let options = choices(question, &step.state, lang).unwrap();
                assert!(right.index() < options.len(), "{} {}", lesson.id, step.id);
                // The answer named in the reveal is the right choice, in this language.
                if let attnlab_lessons::Answer::Curve { .. } = right {
                    assert_eq!(options[right.index()], right.label(lang));
                }
                let text = lesson.text(lang).step(&step.id).unwrap();
                let reveal = text.reveal_with(&right, lang).unwrap();
                assert!(
                    !reveal.contains('{') && reveal.contains(&right.label(lang)),
                    "{} {} {lang:?}: {reveal}",
                    lesson.id,
                    step.id
                );
            }
        }
        lessons_with_questions += usize::from(asks);
    }
    assert!(lessons_with_questions >= 3, "{lessons_with_questions}");
}

#[test]
fn every_step_has_a_link_that_finds_it() {
    let catalog = catalog();
    for lesson in catalog.lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let url = format!("https://example.org/attnlab/#{}", lesson.link(i));
            let link = LessonLink::parse(&url).unwrap();
            let (found, at) = catalog.find(&link).unwrap();
            assert_eq!((found.id.as_str(), at), (lesson.id.as_str(), i), "{url}");
            assert_eq!(step.state.view.page, step.page);
        }
    }
}

/// Every `.rs` file's text below `dir`.
fn sources(dir: &Path, out: &mut String) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn every_figure_id_names_an_element_of_the_app() {
    let mut app = String::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src"),
        &mut app,
    );
    for &figure in FigureId::ALL {
        for testid in [figure.testid(), figure.testid_for(1)] {
            // A token-lines canvas named `x` is `x-canvas` (`TokenLinesCanvas name="x"`).
            let named = testid
                .strip_suffix("-canvas")
                .is_some_and(|name| app.contains(&format!("name=\"{name}\"")));
            assert!(
                named || app.contains(&format!("\"{testid}\"")),
                "{}: no element has data-testid \"{testid}\"",
                figure.name()
            );
        }
    }
}

#[test]
fn progress_counts_the_steps_seen_and_forgets_what_is_gone() {
    use attnlab_lessons::Progress;
    let catalog = catalog();
    let masks = catalog.lesson("masks").unwrap();
    let mut progress = Progress::default();
    for step in &masks.steps[..2] {
        progress.mark_seen(&masks.id, &step.id);
    }
    progress.mark_seen(&masks.id, "a-step-since-removed");
    progress.mark_seen("a-lesson-since-removed", "intro");
    let seen = progress.of(masks);
    assert_eq!((seen.seen, seen.total), (2, masks.steps.len()));
    assert!(!seen.is_complete());

    // What the page keeps in localStorage comes back the same.
    let mut stored = Progress::from_json(&progress.to_json());
    assert_eq!(stored, progress);
    stored.retain_known(catalog);
    assert_eq!(stored.seen.len(), 1);
    assert_eq!(stored.seen["masks"].len(), 2);

    for step in &masks.steps {
        stored.mark_seen(&masks.id, &step.id);
    }
    assert!(stored.of(masks).is_complete());
}
