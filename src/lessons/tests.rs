//! Opening a lesson step natively: every step's state, applied to a running app, is the
//! state the app then holds and links to, with its figures computed.

use attnlab_lab::LabState;
use attnlab_lessons::Catalog;
use leptos::prelude::*;

use crate::state::{AppState, LabFields, ViewFields};

#[test]
fn every_step_applies_its_whole_state() {
    let owner = Owner::new();
    owner.with(|| {
        let app = AppState::from_lab(LabState::default());
        let (catalog, errors) = Catalog::embedded();
        assert!(errors.is_empty(), "{errors:?}");
        let mut steps = 0;
        for lesson in catalog.lessons() {
            for step in &lesson.steps {
                app.apply(step.state.clone());
                crate::state::settle();
                let label = format!("{}/{}", lesson.id, step.id);
                assert_eq!(app.link_state(), step.state, "{label}");
                assert_eq!(app.lab.view().page().get(), step.page, "{label}");
                assert!(app.brought.with(Option::is_none), "{label}");
                let slots = app.derived.variants.get();
                assert_eq!(slots.len(), step.state.variants.len(), "{label}");
                for (slot, v) in slots.iter().zip(&step.state.variants) {
                    assert_eq!(slot.variant.get(), *v, "{label}");
                    // The slot's memos follow its variant: its figure is computed, or
                    // its error is a sentence.
                    let figure = slot.memos.selected.get();
                    let error = slot.memos.error.get();
                    assert!(
                        figure.is_some() || error.is_some(),
                        "{label}: nothing shown"
                    );
                }
                steps += 1;
            }
        }
        assert!(steps >= 8 * 3, "only {steps} steps");
    });
}

#[test]
fn applying_keeps_the_slots_of_variants_that_stay() {
    let owner = Owner::new();
    owner.with(|| {
        let app = AppState::from_lab(LabState::default());
        let before: Vec<u64> = app
            .derived
            .variants
            .with(|s| s.iter().map(|s| s.id).collect());
        let mut lab = LabState::default();
        lab.variants[1].temperature = 2.0;
        lab.variants.push(lab.variants[0].clone());
        lab.variants[2].name = "C".into();
        app.apply(lab.clone());
        let after: Vec<u64> = app
            .derived
            .variants
            .with(|s| s.iter().map(|s| s.id).collect());
        assert_eq!(&after[..2], &before[..], "kept variants keep their memos");
        assert_eq!(after.len(), 3);
        assert_eq!(app.link_state(), lab);
        app.apply(LabState::default());
        assert_eq!(app.derived.variants.with(Vec::len), 2);
        assert_eq!(app.link_state(), LabState::default());
    });
}
