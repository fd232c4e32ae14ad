//! The loader's checks, on small lessons written here.

use super::*;
use crate::{LessonError, Region};

const LESSON: &str = r#"
[base]
t = "the cat sat"

[[steps]]
id = "look"
page = "lab"
select = { query = 2 }
point = [{ figure = "lab-head", variant = 0, row = 2 }]

[[steps]]
id = "guess"
kind = "predict"
page = "lab"
point = [{ figure = "lab-head", variant = 0 }]
predict = { pick = "key", variant = 0, head = 0, query = 2 }
"#;

const EN: &str = r#"
title = "A cat"
summary = "Three words."
[steps.look]
title = "Look"
text = "Row 2 is the query “sat”."
[steps.guess]
title = "Guess"
text = "Which key?"
question = "Which key does “sat” weigh most?"
reveal = "It is {answer}."
"#;

const ZH: &str = r#"
title = "一只猫"
summary = "三个词。"
[steps.look]
title = "看"
text = "第 2 行是查询“sat”。"
[steps.guess]
title = "猜"
text = "哪个键？"
question = "“sat”最看重哪个键？"
reveal = "是 {answer}。"
"#;

fn with(files: &[(&str, &str)]) -> (Catalog, Vec<LoadError>) {
    load(files)
}

fn good() -> Vec<(&'static str, &'static str)> {
    vec![
        ("01-cat/lesson.toml", LESSON),
        ("01-cat/en.toml", EN),
        ("01-cat/zh.toml", ZH),
    ]
}

/// The errors of the good lesson with `file` replaced by `text`.
fn errors_with(file: &str, text: &'static str) -> Vec<String> {
    let mut files = good();
    files.retain(|f| f.0 != file);
    files.push((Box::leak(file.to_string().into_boxed_str()), text));
    let (catalog, errors) = with(&files);
    assert!(
        catalog.lessons().is_empty(),
        "a lesson with an error is left out"
    );
    errors.iter().map(|e| e.to_string()).collect()
}

fn one_error(file: &str, text: &'static str) -> String {
    let errors = errors_with(file, text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors[0].clone()
}

#[test]
fn a_good_lesson_loads() {
    let (catalog, errors) = with(&good());
    assert!(errors.is_empty(), "{errors:#?}");
    let lesson = catalog.lesson("cat").unwrap();
    assert_eq!((lesson.number, lesson.steps.len()), (1, 2));
    assert_eq!(lesson.text(Lang::Zh).title, "一只猫");
    let step = &lesson.steps[0];
    assert_eq!(step.state.text, "the cat sat");
    assert_eq!(step.state.view.page, Page::Lab);
    assert_eq!(step.selection.query, Some(2));
    assert_eq!(step.pointers[0].region, Some(Region::Row(2)));
    let StepKind::Predict(q) = lesson.steps[1].kind else {
        panic!()
    };
    let a = answer(&q, &lesson.steps[1].state, None).unwrap();
    let reveal = lesson
        .text(Lang::En)
        .step("guess")
        .unwrap()
        .reveal_with(&a, Lang::En)
        .unwrap();
    assert!(
        reveal.starts_with("It is “") && !reveal.contains('{'),
        "{reveal}"
    );
}

#[test]
fn links_find_lessons_and_steps_or_say_what_is_missing() {
    let (catalog, _) = with(&good());
    let find = |s: &str| catalog.find(&attnlab_link::LessonLink::parse(s).unwrap());
    assert_eq!(find("#lesson=cat").unwrap().1, 0);
    assert_eq!(find("#lesson=cat/guess").unwrap().1, 1);
    let e = find("#lesson=dog/guess").unwrap_err();
    assert_eq!(
        e,
        LessonError::UnknownLesson {
            lesson: "dog".into()
        }
    );
    assert!(e.message(Lang::Zh).contains("dog"));
    let e = find("#lesson=cat/run").unwrap_err();
    assert_eq!(
        e.message(Lang::En),
        "The lesson “cat” has no step “run”; here is the list of lessons."
    );
    let lesson = catalog.lesson("cat").unwrap();
    assert_eq!(lesson.link(1).to_string(), "lesson=cat/guess");
}

#[test]
fn a_missing_text_names_the_file_and_step() {
    let e = one_error(
        "01-cat/zh.toml",
        "title = \"猫\"\nsummary = \"三\"\n[steps.look]\ntitle = \"看\"\ntext = \"看\"\n",
    );
    assert_eq!(
        e,
        "lessons/01-cat/zh.toml, step “guess”: the step has no text in this language"
    );
    let e = one_error(
        "01-cat/en.toml",
        "summary = \"x\"\n[steps.look]\ntitle = \"a\"\ntext = \"b\"\n[steps.guess]\ntitle = \"a\"\ntext = \"b\"\nquestion = \"q\"\nreveal = \"r\"\n",
    );
    assert!(
        e.starts_with("lessons/01-cat/en.toml: ") && e.contains("title"),
        "{e}"
    );
}

#[test]
fn a_missing_language_file_is_an_error() {
    let mut files = good();
    files.pop();
    let (catalog, errors) = with(&files);
    assert!(catalog.lessons().is_empty());
    assert_eq!(
        errors[0].to_string(),
        "lessons/01-cat/zh.toml: the file is missing"
    );
}

#[test]
fn parse_errors_name_the_line_and_step() {
    let e = one_error(
        "01-cat/lesson.toml",
        "[[steps]]\nid = \"a\"\npage = \"lab\"\npoint = [{ figure = \"lab-head\" }]\n\n[[steps]]\nid = \"b\"\npage = \"lab\"\ncolour = 3\n",
    );
    assert!(
        e.starts_with("lessons/01-cat/lesson.toml, step “b”: line 9: unknown field `colour`"),
        "{e}"
    );
    let e = one_error(
        "01-cat/en.toml",
        "title = \"t\"\nsummary = \"s\"\n[steps.look]\ntitle = \"a\"\ntext = 3\n",
    );
    assert!(
        e.starts_with("lessons/01-cat/en.toml, step “look”: line 5"),
        "{e}"
    );
}

#[test]
fn a_state_that_needs_repair_is_an_error() {
    let lesson = LESSON.replace("t = \"the cat sat\"", "t = \"the cat sat\"\nh = 5");
    let errors = errors_with("01-cat/lesson.toml", Box::leak(lesson.into_boxed_str()));
    assert_eq!(
        errors[0],
        "lessons/01-cat/lesson.toml, step “look”: the state needs repairs: 5 heads do not divide \
         d_model = 64, so there are 4"
    );
    let lesson = LESSON.replace("t = \"the cat sat\"", "t = \"the cat sat\"\ntx = 1");
    let errors = errors_with("01-cat/lesson.toml", Box::leak(lesson.into_boxed_str()));
    assert!(
        errors[0].contains("the key “tx” is not part of a state"),
        "{errors:?}"
    );
    let lesson = LESSON.replace(
        "t = \"the cat sat\"",
        "t = \"the cat sat\"\nv = [{ f = \"bilinear\" }]",
    );
    let errors = errors_with("01-cat/lesson.toml", Box::leak(lesson.into_boxed_str()));
    assert!(errors[0].contains("“bilinear” is unknown"), "{errors:?}");
}

#[test]
fn pointers_must_exist_on_the_step_s_page_and_fit_the_figure() {
    let cases = [
        (
            "figure = \"lab-head\", variant = 0, row = 2",
            "figure = \"lab-heat\"",
            "there is no figure “lab-heat”",
        ),
        (
            "figure = \"lab-head\", variant = 0, row = 2",
            "figure = \"scaling-spread\"",
            "is on the scaling page, not on the lab page",
        ),
        (
            "row = 2",
            "row = 3",
            "Row(3) is outside the figure lab-head (3 × 3)",
        ),
        (
            "variant = 0, row = 2",
            "variant = 2, row = 2",
            "there are 2 variants, so there is no variant 2",
        ),
        (
            "row = 2",
            "row = 2, col = 1",
            "a pointer has one of row, col or cell",
        ),
        (
            "figure = \"lab-head\", variant = 0, row = 2",
            "figure = \"lab-compare-table\", row = 2",
            "has no cells to point at",
        ),
    ];
    for (from, to, want) in cases {
        let lesson = LESSON.replacen(from, to, 1);
        assert_ne!(lesson, LESSON, "{from}");
        let e = one_error("01-cat/lesson.toml", Box::leak(lesson.into_boxed_str()));
        assert!(
            e.contains("step “look”") && e.contains(want),
            "{e} / {want}"
        );
    }
}

#[test]
fn steps_stages_are_checked_against_the_variant() {
    let lesson = LESSON.replacen(
        "page = \"lab\"\nselect = { query = 2 }\npoint = [{ figure = \"lab-head\", variant = 0, row = 2 }]",
        "page = \"steps\"\nstate = { v = [{ a = \"elu1\" }], w = [0, 0, 0, 0] }\npoint = [{ figure = \"steps-stage\", stage = \"softmax\" }]",
        1,
    );
    let e = one_error("01-cat/lesson.toml", Box::leak(lesson.into_boxed_str()));
    assert!(
        e.contains("variant A has no stage softmax (its stages: input, queries"),
        "{e}"
    );
}

#[test]
fn the_decay_figures_need_a_decayed_linear_variant() {
    let on_linear = |variant: &str| {
        LESSON.replacen(
            "page = \"lab\"\nselect = { query = 2 }\npoint = [{ figure = \"lab-head\", variant = 0, row = 2 }]",
            &format!(
                "page = \"linear\"\nstate = {{ v = [{variant}], w = [0, 0, 0, 0] }}\npoint = [{{ figure = \"linear-decay-d\" }}, {{ figure = \"linear-rnn\" }}]"
            ),
            1,
        )
    };
    let elu1 = on_linear("{ a = \"elu1\", c = true }");
    let e = one_error("01-cat/lesson.toml", Box::leak(elu1.into_boxed_str()));
    assert!(
        e.contains("step “look”")
            && e.contains("linear-decay-d shows only when the shown variant is decayed_linear"),
        "{e}"
    );
    let decayed = on_linear("{ a = \"decayed_linear\", dg = 0.5 }");
    let mut files = good();
    files[0].1 = Box::leak(decayed.into_boxed_str());
    let (catalog, errors) = with(&files);
    assert!(errors.is_empty(), "{errors:?}");
    let step = &catalog.lessons()[0].steps[0];
    assert_eq!(step.pointers[0].figure, crate::FigureId::LinearDecayD);
    assert_eq!(step.state.variants[0].decay, 0.5);
}

#[test]
fn questions_are_checked_and_must_have_an_answer() {
    for (to, want) in [
        (
            "pick = \"key\", variant = 0, head = 0, query = 5",
            "there are 3 queries",
        ),
        ("pick = \"key\", variant = 0, query = 2", "needs `head`"),
        (
            "pick = \"token\"",
            "is not key, head, variant, curve, rank, sublayer, layer or cache",
        ),
        (
            "pick = \"layer\", variant = 0",
            "the question “layer” has no `variant`",
        ),
        (
            "pick = \"curve\", head = 1",
            "the question “curve” has no `head`",
        ),
    ] {
        let lesson = LESSON.replace("pick = \"key\", variant = 0, head = 0, query = 2", to);
        let e = one_error("01-cat/lesson.toml", Box::leak(lesson.into_boxed_str()));
        assert!(
            e.contains("step “guess”") && e.contains(want),
            "{e} / {want}"
        );
    }
}

#[test]
fn predict_texts_need_a_question_and_a_reveal_and_only_they_do() {
    let en = EN.replace("reveal = \"It is {answer}.\"\n", "");
    let e = one_error("01-cat/en.toml", Box::leak(en.into_boxed_str()));
    assert!(
        e.ends_with("step “guess”: a predict step needs a question and a reveal"),
        "{e}"
    );
    let en = EN.replace(
        "Row 2 is the query “sat”.",
        "Row {row} of S_{i−1}, {answer}",
    );
    let errors = errors_with("01-cat/en.toml", Box::leak(en.into_boxed_str()));
    assert_eq!(
        errors,
        [
            "lessons/01-cat/en.toml, step “look”: the text holds {row}; only a reveal may hold {answer}",
            "lessons/01-cat/en.toml, step “look”: the text holds {answer}; only a reveal may hold {answer}",
        ]
    );
    let en = format!("{EN}\n[steps.extra]\ntitle = \"x\"\ntext = \"y\"\n");
    let e = one_error("01-cat/en.toml", Box::leak(en.into_boxed_str()));
    assert!(
        e.ends_with("step “extra”: lesson.toml has no step of this id"),
        "{e}"
    );
}

#[test]
fn folders_and_files_are_checked() {
    let mut files = good();
    files.push(("01-cat/unused.json", "{}"));
    let (_, errors) = with(&files);
    assert_eq!(
        errors[0].to_string(),
        "lessons/01-cat/unused.json: no step of the lesson uses this file"
    );
    let renamed: Vec<_> = good()
        .into_iter()
        .map(|(p, t)| {
            (
                Box::leak(p.replace("01-cat", "Cat").into_boxed_str()) as &str,
                t,
            )
        })
        .collect();
    let (_, errors) = with(&renamed);
    assert!(errors[0].message.contains("NN-id"), "{errors:?}");
}

#[test]
fn tensors_must_be_in_the_folder_and_in_the_format() {
    let lesson = LESSON.replacen(
        "page = \"lab\"\n",
        "page = \"lab\"\ntensors = \"a.json\"\n",
        1,
    );
    let lesson: &'static str = Box::leak(lesson.into_boxed_str());
    let mut files = good();
    files[0].1 = lesson;
    let (_, errors) = with(&files);
    assert!(
        errors[0]
            .to_string()
            .ends_with("the tensors file a.json is not in the lesson's folder")
    );
    files.push(("01-cat/a.json", r#"{"heads": []}"#));
    let (_, errors) = with(&files);
    assert!(
        errors[0].message.contains("is not marked \"format\""),
        "{errors:?}"
    );
    files.pop();
    files.push((
        "01-cat/a.json",
        r#"{"format": "attnlab-tensors/1", "heads": []}"#,
    ));
    let (catalog, errors) = with(&files);
    assert!(errors.is_empty(), "{errors:?}");
    let step = &catalog.lesson("cat").unwrap().steps[0];
    assert_eq!(step.tensors.as_ref().unwrap().path, "01-cat/a.json");
    // The step points into the tensors' 2 × 3, not the sentence's 3 × 3.
    files.pop();
    files.push((
        "01-cat/a.json",
        r#"{"format": "attnlab-tensors/1", "heads": [{"q": [[1], [0]], "k": [[1], [0], [1]], "v": [[1], [0], [1]]}]}"#,
    ));
    let (_, errors) = with(&files);
    let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "lessons/01-cat/lesson.toml, step “look”: the selected query 2 is not below 2",
            "lessons/01-cat/lesson.toml, step “look”: Row(2) is outside the figure lab-head (2 × 3)",
        ]
    );
}

#[test]
fn the_build_embeds_every_lesson_file_as_json() {
    let files = super::super::embedded::FILES;
    assert!(files.iter().any(|(p, _)| p.ends_with("/lesson.toml")));
    for (path, doc) in files {
        assert!(matches!(doc, Doc::Json(_)), "{path} was not converted");
    }
    // The converted documents read as the files do.
    let toml_files: Vec<(String, String)> = files
        .iter()
        .map(|(p, _)| {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../lessons/");
            (
                p.to_string(),
                std::fs::read_to_string(format!("{dir}{p}")).unwrap(),
            )
        })
        .collect();
    let as_written: Vec<(&str, &str)> = toml_files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    assert_eq!(load(&as_written).0, load_docs(files).0);
}

#[test]
fn a_file_the_build_could_not_read_is_named_with_its_step_and_line() {
    let text = "[[steps]]\nid = \"a\"\npage = \"lab\"\n\n[[steps]]\nid = \"b\"\npage = = \"lab\"\n";
    let at = text.find("= =").map(|a| a + 2);
    let docs = [
        (
            "01-cat/lesson.toml",
            Doc::Broken {
                text,
                at,
                message: "string values must be quoted",
            },
        ),
        ("01-cat/en.toml", Doc::Toml(EN)),
        ("01-cat/zh.toml", Doc::Toml(ZH)),
    ];
    let (catalog, errors) = load_docs(&docs);
    assert!(catalog.lessons().is_empty());
    assert_eq!(
        errors[0].to_string(),
        "lessons/01-cat/lesson.toml, step “b”: line 7: string values must be quoted"
    );
}
