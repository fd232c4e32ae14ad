//! The app state's memos, natively: what follows what, and that the app draws the
//! figures the lab builds for a link.

use super::*;
use attnlab_core::attention::AttentionKind;
use attnlab_lab::Mode;
use attnlab_lab::tokens::Tokens;
use attnlab_plot::Heatmap;

fn with_state(f: impl FnOnce(AppState)) {
    let owner = Owner::new();
    owner.with(|| f(AppState::from_lab(LabState::default())));
}

#[test]
fn memos_follow_the_sentence_and_the_head() {
    with_state(|state| {
        assert_eq!(state.derived.tokens.with(Tokens::total), 11);
        assert_eq!(state.derived.notice.get(), None);
        let slots = state.derived.variants.get_untracked();
        assert_eq!(slots.len(), 2);
        let a = slots[0].memos.selected;
        assert_eq!(a.with(|h| h.as_ref().map(Heatmap::n_rows)), Some(11));
        assert!(
            a.get()
                .unwrap()
                .title()
                .starts_with("A \u{b7} scaled dot-product softmax \u{b7} Head 0")
        );
        assert_eq!(slots[0].memos.grid.with(Vec::len), 4);

        state.lab.text().set("   ".into());
        settle();
        assert!(
            state
                .derived
                .notice
                .get()
                .unwrap()
                .contains("type a sentence")
        );
        assert_eq!(a.get(), None);

        state.lab.text().set("我爱机器学习".into());
        state.lab.view().head().set(3);
        settle();
        assert!(
            a.get()
                .unwrap()
                .title()
                .starts_with("A \u{b7} scaled dot-product softmax \u{b7} Head 3")
        );
        state.lab.view().head().set(99);
        assert!(
            a.get()
                .unwrap()
                .title()
                .starts_with("A \u{b7} scaled dot-product softmax \u{b7} Head 3")
        );
    });
}

#[test]
fn a_knob_changes_its_variant_only() {
    with_state(|state| {
        let slots = state.derived.variants.get_untracked();
        let (a, b) = (slots[0].memos.selected, slots[1].memos.selected);
        let (a0, b0) = (a.get().unwrap(), b.get().unwrap());
        state.edit_variant(1, |v| v.temperature = 0.5);
        settle();
        assert_eq!(a.get().unwrap(), a0);
        assert_ne!(b.get().unwrap().values(), b0.values());
        let Compared::Shown(cmp) = state.derived.comparison.get() else {
            panic!("A and B are compared: {:?}", state.derived.comparison.get());
        };
        assert!(cmp.result.metrics.max_abs > 0.0);
        assert_eq!(cmp.names, ("A".to_string(), "B".to_string()));
    });
}

#[test]
fn settings_errors_are_sentences_and_kinds_reach_the_problem() {
    with_state(|state| {
        let slots = state.derived.variants.get_untracked();
        state.edit_variant(0, |v| {
            v.attention = AttentionKind::Linformer;
            v.linformer_k = 3;
        });
        settle();
        assert_eq!(
            slots[0]
                .memos
                .selected
                .with(|h| h.as_ref().map(Heatmap::n_cols)),
            Some(3)
        );
        state.lab.model().update(|m| m.heads = 5);
        settle();
        let msg = state.derived.notice.get().expect("a notice");
        assert!(msg.starts_with("These settings cannot be used:"), "{msg}");
    });
}

#[test]
fn variants_are_added_and_removed_and_the_link_follows() {
    with_state(|state| {
        state.edit_variants(VariantEdit::Add).unwrap();
        assert_eq!(state.derived.variants.with_untracked(Vec::len), 3);
        assert_eq!(state.link_state().variants[2].name, "C");
        let b_id = state.derived.variants.with_untracked(|s| s[1].id);
        state.edit_variants(VariantEdit::Remove(0)).unwrap();
        assert_eq!(state.derived.variants.with_untracked(|s| s[0].id), b_id);
        state.lab.view().head().set(9);
        assert_eq!(
            state.link_state().view.head,
            3,
            "the head shown, not past the count"
        );
        state.lab.view().compare_what().set(CompareWhat::Average);
        let link = attnlab_link::encode(&state.link_state());
        let back = AppState::from_fragment(&link, Lang::En);
        assert_eq!(back.link_state(), state.link_state());
        assert_eq!(
            back.lab.view().compare_what().get_untracked(),
            CompareWhat::Average
        );
    });
}

#[test]
fn long_text_is_cut_at_512_tokens_and_says_so() {
    with_state(|state| {
        state.lab.text().set("word ".repeat(600));
        let msg = state.derived.notice.get().expect("a notice");
        assert!(
            msg.contains("600 tokens") && msg.contains("first 512"),
            "{msg}"
        );
    });
}

/// Links that exercise every part of a figure: masks and empty rows, padding,
/// cross-attention, Linformer's projected keys, each score and kind.
fn links() -> Vec<String> {
    use attnlab_core::score::ScoreFunction;
    let mut links = vec![attnlab_link::encode(&LabState::default())];
    let mut cross = LabState::default();
    cross.set_mode(Mode::Cross);
    cross.model.heads = 2;
    cross.variants[1].masks.causal = true;
    cross.view.head = 1;
    cross.view.compare_what = CompareWhat::Average;
    links.push(attnlab_link::encode(&cross));
    let mut masked = LabState {
        text: "我爱机器学习 and 🙂 too".into(),
        ..LabState::default()
    };
    masked.pad_to = Some(12);
    masked.variants[0].masks.padding = true;
    masked.variants[0].masks.window = Some(1);
    masked.variants[0].temperature = 0.3;
    masked.variants[1].score = ScoreFunction::Cosine;
    masked.variants[1].masks.strided = Some(2);
    masked.view.variant = 1;
    masked.view.head = 2;
    links.push(attnlab_link::encode(&masked));
    let mut kinds = LabState::default();
    kinds.add_variant().unwrap();
    kinds.variants[0].attention = AttentionKind::Elu1;
    kinds.variants[1].attention = AttentionKind::Linformer;
    kinds.variants[2].score = ScoreFunction::Additive;
    kinds.view.compare = (0, 2);
    links.push(attnlab_link::encode(&kinds));
    links
}

#[test]
fn the_app_draws_the_figures_the_lab_builds_for_a_link() {
    use attnlab_lab::compute::{Pipeline, Which};
    use attnlab_lab::figure::FigureRequest;
    for link in links() {
        let owner = Owner::new();
        owner.with(|| {
            let app = AppState::from_fragment(&link, Lang::En);
            let lab = app.link_state();
            let run = Pipeline::new(&lab);
            let head = app.shown_head();
            let slots = app.derived.variants.get_untracked();
            for (i, slot) in slots.iter().enumerate() {
                let want = run.figure(FigureRequest::Head { variant: i, head }).ok();
                assert_eq!(slot.memos.selected.get(), want, "{link}: variant {i}");
                let want = run.figure(FigureRequest::Average { variant: i }).ok();
                assert_eq!(slot.memos.average_figure.get(), want, "{link}: average {i}");
                for (h, fig) in slot.memos.grid.get().into_iter().enumerate() {
                    let want = run.figure(FigureRequest::Head {
                        variant: i,
                        head: h,
                    });
                    assert_eq!(Ok(fig), want, "{link}: variant {i}, head {h}");
                }
            }
            let (a, b) = lab.view.compare;
            let which = match lab.view.compare_what {
                CompareWhat::Head => Which::Head(head),
                CompareWhat::Average => Which::Average,
            };
            let want = run.figure(FigureRequest::Difference { a, b, which });
            match (app.derived.comparison.get(), want) {
                (Compared::Shown(got), Ok(want)) => assert_eq!(got.figure, want, "{link}"),
                (Compared::Refused(got), Err(want)) => {
                    assert_eq!(got, want.sentence(), "{link}")
                }
                (got, want) => panic!("{link}: the app has {got:?}, the lab {want:?}"),
            }
        });
    }
}

#[test]
fn a_tampered_link_keeps_the_text_and_says_so() {
    let owner = Owner::new();
    owner.with(|| {
        let state = AppState::from_fragment("v1.!!!", Lang::En);
        assert!(state.repair_notice.get().is_some());
        assert_eq!(state.derived.variants.with_untracked(Vec::len), 2);
    });
}

#[test]
fn a_language_switch_rebuilds_the_figures_and_the_notice_in_it() {
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::figure::FigureRequest;
    let owner = Owner::new();
    owner.with(|| {
        let app = AppState::from_fragment("", Lang::En);
        let slot = app.derived.variants.get_untracked()[0].clone();
        let english = slot.memos.selected.get().expect("a figure");
        assert!(english.title().contains("Head 0"));
        app.lang.set(Lang::Zh);
        let lab = app.link_state();
        let want = Pipeline::new(&lab)
            .figure_in(
                FigureRequest::Head {
                    variant: 0,
                    head: 0,
                },
                Lang::Zh,
            )
            .ok();
        let chinese = slot.memos.selected.get();
        assert_eq!(chinese, want);
        assert!(chinese.unwrap().title().contains("头 0"));
        app.lab.text().set(String::new());
        assert!(
            app.derived
                .notice
                .get()
                .unwrap()
                .contains("还没有可关注的内容")
        );
        app.lang.set(Lang::En);
        assert!(
            app.derived
                .notice
                .get()
                .unwrap()
                .contains("type a sentence")
        );
    });
}

#[test]
fn a_reload_reopens_the_latest_state_from_any_address_the_page_wrote() {
    let record = kept_record("v1.latest", ["", "#v1.first", "#v1.second"]);
    assert_eq!(record, "v1.latest\n\nv1.first\nv1.second");
    // The address the page opened with, the one before the last write, and the last.
    assert_eq!(reopened(&record, ""), Some("v1.latest"));
    assert_eq!(reopened(&record, "#v1.first"), Some("v1.latest"));
    assert_eq!(reopened(&record, "v1.second"), Some("v1.latest"));
    // A link pasted or opened since wins.
    assert_eq!(reopened(&record, "#v1.pasted"), None);
    // Nothing kept, or a torn record: nothing reopened.
    assert_eq!(reopened("", ""), None);
    assert_eq!(reopened("v1.latest", "v1.latest"), None);
}

/// B's selected head as the lab builds it for the state's link.
fn lab_figure(state: AppState, variant: usize) -> Option<Heatmap> {
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::figure::FigureRequest;
    let lab = state.link_state();
    let head = state.shown_head();
    Pipeline::new(&lab)
        .figure(FigureRequest::Head { variant, head })
        .ok()
}

#[test]
fn two_variants_asked_in_one_task_land_in_two() {
    use super::tasks::{run_microtasks, run_task};
    with_state(|state| {
        let slots = state.derived.variants.get_untracked();
        let (a, b) = (&slots[0].memos, &slots[1].memos);
        let b_before = b.computed.get_untracked();
        state.lab.text().set("the cat sat on the mat".into());
        // The task of the keystroke: A lands in it, B waits for a later task.
        run_microtasks();
        assert!(!a.busy.get_untracked());
        assert!(b.busy.get_untracked(), "B waits for the next task");
        assert_eq!(
            b.computed.get_untracked(),
            b_before,
            "B still shows its last heads"
        );
        let mut tasks = 0;
        while b.busy.get_untracked() {
            assert!(run_task(), "B is waiting for a task that never comes");
            tasks += 1;
        }
        assert!(tasks >= 1);
        assert_ne!(b.computed.get_untracked(), b_before);
        for (i, slot) in slots.iter().enumerate() {
            assert_eq!(
                slot.memos.selected.get(),
                lab_figure(state, i),
                "variant {i}"
            );
        }
    });
}

#[test]
fn a_variant_whose_heads_outlast_the_budget_lands_them_all_at_once_tasks_later() {
    use super::tasks::{run_microtasks, run_task, set_tick};
    with_state(|state| {
        // Each look at the clock is 10 ms later: two heads fit in the first task's 24 ms,
        // one in each later task's 12 ms.
        set_tick(10.0);
        let slots = state.derived.variants.get_untracked();
        let b = &slots[1].memos;
        let weights = move || b.selected.with(|h| h.as_ref().map(|h| h.values().to_vec()));
        let before = weights();
        state.edit_variant(1, |v| v.temperature = 0.5);
        run_microtasks();
        let mut tasks = 0;
        while b.busy.get_untracked() {
            // Until the last head is computed, B's weights are the last request's, whole.
            assert_eq!(weights(), before, "after {tasks} tasks");
            assert!(run_task());
            tasks += 1;
        }
        assert!(tasks >= 3, "four heads over {tasks} tasks");
        assert_eq!(b.selected.get(), lab_figure(state, 1));
    });
}

#[test]
fn a_newer_request_ends_an_older_one_and_only_the_newest_lands() {
    use super::tasks::{run_microtasks, set_tick};
    with_state(|state| {
        set_tick(10.0);
        let slots = state.derived.variants.get_untracked();
        let b = slots[1].memos.clone();
        let landed = StoredValue::new(Vec::<heads_job::Shared>::new());
        let before = b.computed.get_untracked();
        Effect::new(move |_| {
            let c = b.computed.get();
            landed.update_value(|l| l.push(c));
        });
        state.edit_variant(1, |v| v.temperature = 0.5);
        run_microtasks();
        assert!(
            b.busy.get_untracked(),
            "the first request is still being computed"
        );
        state.edit_variant(1, |v| v.temperature = 2.0);
        settle();
        let landed = landed.get_value();
        let new: Vec<_> = landed.iter().filter(|c| **c != before).collect();
        assert_eq!(new.len(), 1, "one landing, the newest request's");
        assert_eq!(*new[0], b.computed.get_untracked());
        assert_eq!(b.selected.get(), lab_figure(state, 1));
    });
}

/// Counts the runs of an effect that reads what `read` reads.
fn runs_of(read: impl Fn() + 'static) -> StoredValue<usize> {
    let runs = StoredValue::new(0);
    Effect::new(move |_| {
        read();
        runs.update_value(|r| *r += 1);
    });
    settle();
    runs
}

#[test]
fn a_knob_on_b_leaves_a_computation_and_figures_untouched() {
    with_state(|state| {
        let slots = state.derived.variants.get_untracked();
        let a = slots[0].memos.clone();
        let painted = runs_of(move || {
            a.selected.track();
            a.grid.track();
            a.average_figure.track();
        });
        let (runs, computed) = (painted.get_value(), a.computed.get_untracked());
        for t in [0.5, 0.25, 2.0] {
            state.edit_variant(1, |v| v.temperature = t);
            settle();
        }
        assert_eq!(painted.get_value(), runs, "A's figures were not notified");
        assert_eq!(
            a.computed.get_untracked(),
            computed,
            "A's heads are the same computation"
        );
    });
}

#[test]
fn an_edit_wakes_the_readers_of_the_fields_it_changes_only() {
    with_state(|state| {
        let lab = state.lab;
        let text = runs_of(move || lab.text().track());
        let head = runs_of(move || lab.view().head().track());
        let variants = runs_of(move || lab.variants().track());
        let whole = runs_of(move || lab.track());
        let count = |r: StoredValue<usize>| r.get_value();
        let before = [count(text), count(head), count(variants), count(whole)];
        state.edit_variant(1, |v| v.temperature = 0.5);
        settle();
        assert_eq!(
            [count(text), count(head), count(variants), count(whole)],
            [before[0], before[1], before[2] + 1, before[3] + 1]
        );
        state.lab.text().set("a new sentence".into());
        state.edit(|l| l.view.head = 0);
        settle();
        assert_eq!(
            [count(text), count(head), count(variants), count(whole)],
            [before[0] + 1, before[1], before[2] + 1, before[3] + 2],
            "the head was 0 already: its readers sleep"
        );
    });
}

#[test]
fn removing_a_variant_wakes_nothing_that_read_its_slot() {
    with_state(|state| {
        // What a panel reads of its slot, in an effect that outlives the slot a moment.
        let slot = state.derived.variants.get_untracked()[0].clone();
        let (index, variant, memos) = (slot.index, slot.variant, slot.memos.clone());
        drop(slot);
        let panel = runs_of(move || {
            index.get();
            variant.with(|_| ());
            memos.selected.with(|_| ());
            memos.busy.get();
        });
        let runs = panel.get_value();
        state.edit_variants(VariantEdit::Remove(0)).unwrap();
        settle();
        assert_eq!(panel.get_value(), runs, "the removed slot's readers sleep");
        assert!(index.try_get_untracked().is_none(), "the slot is gone");
        // The variant that moved to place 0 keeps its memos and follows its settings.
        let b = state.derived.variants.get_untracked()[0].clone();
        assert_eq!(b.index.get_untracked(), 0);
        assert_eq!(b.variant.get().name, "B");
        state.edit_variant(0, |v| v.temperature = 0.5);
        settle();
        assert_eq!(b.memos.selected.get(), lab_figure(state, 0));
    });
}
