use super::*;
use attnlab_core::embed::embed_one;
use attnlab_core::model::ModelConfig;
use attnlab_core::tokenize::tokenize;

struct Words {
    x: Array2<f32>,
    labels: Vec<String>,
}

fn words(text: &str) -> Words {
    let model = ModelConfig::default();
    let tokens = tokenize(text);
    let x = if tokens.is_empty() {
        Array2::zeros((0, model.d_model))
    } else {
        model.encode(&tokens).unwrap().words
    };
    Words {
        x,
        labels: tokens.iter().map(|t| t.text.clone()).collect(),
    }
}

fn run_on(source: &str, target: &str) -> Result<Seq2seqRun, Seq2seqError> {
    let model = ModelConfig::default();
    let (s, t) = (words(source), words(target));
    let start = embed_one(START, model.d_model, model.seed, model.embedding_scale);
    run(&Seq2seqInput {
        source: (&s.x, &s.labels),
        target: (&t.x, &t.labels),
        start: &start,
        seed: model.seed,
    })
}

const SOURCE: &str = "the agreement on the European economic area was signed in August";
const TARGET: &str = "l' accord sur la zone économique européenne a été signé";

#[test]
fn one_row_per_step_each_summing_to_one() {
    let r = run_on(SOURCE, TARGET).unwrap();
    assert_eq!(r.used.source, (r.source.len(), r.source.len()));
    assert_eq!(r.steps(), r.target.len());
    assert_eq!(r.used.d_e, 32);
    for step in 1..=r.steps() {
        let a = alignment(&r, true, step, Lang::En).unwrap();
        assert_eq!((a.n_rows(), a.n_cols()), (step, r.source.len()));
        assert_eq!(a.row_labels()[step - 1], r.target[step - 1]);
        for feed in [true, false] {
            assert!((r.row_sum(feed, step) - 1.0).abs() < 1e-5);
        }
        let rows = weights_rows(&r, true, step);
        assert_eq!(rows.len(), r.source.len());
        let total: f32 = rows.iter().map(|w| w.weight).sum();
        assert!((total - 1.0).abs() < 1e-5);
        // The table is the alignment's row.
        for (j, w) in rows.iter().enumerate() {
            assert_eq!(a.value(step - 1, j), Some(w.weight));
        }
    }
}

#[test]
fn the_feed_changes_later_rows_and_not_the_first() {
    let r = run_on(SOURCE, TARGET).unwrap();
    assert_eq!(r.max_delta(1), 0.0);
    assert!(r.max_delta(2) > 1e-4, "{}", r.max_delta(2));
    assert!(r.max_delta(r.steps()) >= r.max_delta(2));
    // The figure of the switch's side shows that side's rows.
    let on = alignment(&r, true, 3, Lang::En).unwrap();
    let off = alignment(&r, false, 3, Lang::En).unwrap();
    assert_eq!(
        on.values()[..r.source.len()],
        off.values()[..r.source.len()]
    );
    assert_ne!(on.values(), off.values());
}

#[test]
fn the_query_is_the_state_before_the_step() {
    let r = run_on(SOURCE, TARGET).unwrap();
    let q = query_strip(&r, true, 3, Lang::En).unwrap();
    assert_eq!(q.values(), r.fed.steps[1].state.as_slice().unwrap());
    assert_eq!(q.row_labels(), ["s_2"]);
    let c = context_strip(&r, false, 3, Lang::En).unwrap();
    assert_eq!(c.values(), r.off.steps[2].context.as_slice().unwrap());
    assert_eq!(state_formula(true, 3), "s_3 = GRU(s_2, [y_2; c_3])");
    assert_eq!(state_formula(false, 1), "s_1 = GRU(s_0, [y_0; 0])");
    assert_eq!(previous_word(&r, 1), START);
    assert_eq!(previous_word(&r, 3), r.target[1]);
}

#[test]
fn the_step_is_kept_within_the_target() {
    let view = |step| Seq2seqView { step, feed: true };
    assert_eq!(step_shown(&view(0), 5), 1);
    assert_eq!(step_shown(&view(3), 5), 3);
    assert_eq!(step_shown(&view(99), 5), 5);
    assert_eq!(step_shown(&view(99), 0), 1);
}

#[test]
fn empty_sentences_are_said_not_run() {
    assert_eq!(run_on("", TARGET).unwrap_err(), Seq2seqError::NoSource);
    assert_eq!(run_on(SOURCE, "  ").unwrap_err(), Seq2seqError::NoTarget);
    for lang in [Lang::En, Lang::Zh] {
        assert!(!Seq2seqError::NoSource.say(lang).is_empty());
        assert_ne!(
            Seq2seqError::NoSource.say(lang),
            Seq2seqError::NoTarget.say(lang)
        );
    }
}

#[test]
fn long_inputs_are_capped_and_said() {
    let long: String = (0..500).map(|i| format!("w{i} ")).collect();
    let r = run_on(&long, &long).unwrap();
    assert_eq!(r.used.source, (MAX_WORDS, 500));
    assert_eq!(r.used.target, (MAX_WORDS, 500));
    assert!(r.used.limited());
    let said = r.used.limited_text(Lang::En).unwrap();
    assert!(said.contains("64") && said.contains("500"), "{said}");
    assert!(r.used.limited_text(Lang::Zh).unwrap().contains("500"));
    assert!(
        run_on(SOURCE, TARGET)
            .unwrap()
            .used
            .limited_text(Lang::En)
            .is_none()
    );
}

#[test]
fn emoji_and_cjk_run_without_nan() {
    let r = run_on("我 爱 你 😀", "I love you 🎉 🎉").unwrap();
    for feed in [true, false] {
        for step in &r.shown(feed).steps {
            assert!(step.weights.iter().all(|w| w.is_finite()));
            assert!(step.state.iter().all(|v| v.is_finite()));
        }
    }
    assert!(r.max_delta(r.steps()).is_finite());
    assert!(alignment(&r, true, r.steps(), Lang::Zh).is_ok());
}

#[test]
fn sizes_are_said_in_both_languages() {
    let r = run_on(SOURCE, TARGET).unwrap();
    let en = r.used.sizes_text(Lang::En);
    assert!(en.contains("d_e = 32"), "{en}");
    assert!(attnlab_i18n::check::latin_words(&r.used.sizes_text(Lang::Zh)).is_empty());
}
