//! The catalogue's checks: the compiler refuses languages that disagree, the generated
//! messages format their variables in both languages, and no Chinese message hides an
//! English word.

use std::collections::BTreeMap;
use std::path::Path;

use crate::{Lang, msg};

#[allow(dead_code)]
#[path = "../build/catalogue.rs"]
mod compiler;

/// `files[lang][area]` from `(area, en, zh)` triples.
fn files(areas: &[(&str, &str, &str)]) -> Vec<BTreeMap<String, String>> {
    let mut en = BTreeMap::new();
    let mut zh = BTreeMap::new();
    for (area, e, z) in areas {
        en.insert(area.to_string(), e.to_string());
        zh.insert(area.to_string(), z.to_string());
    }
    vec![en, zh]
}

fn errors(areas: &[(&str, &str, &str)]) -> Vec<String> {
    match compiler::check(&files(areas)) {
        Ok(_) => Vec::new(),
        Err(e) => e,
    }
}

fn real() -> compiler::Catalogue {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let files = compiler::read_dir(&root).expect("the locales are readable");
    compiler::check(&files).unwrap_or_else(|e| panic!("{}", e.join("\n")))
}

#[test]
fn the_catalogue_is_whole_and_its_count_is_the_generated_one() {
    let catalogue = real();
    assert_eq!(catalogue.ids(), msg::IDS);
    assert!(catalogue.areas.len() >= 2, "{:?}", catalogue.areas.keys());
}

#[test]
fn an_id_missing_in_chinese_fails() {
    let e = errors(&[("a", "one = One\ntwo = Two\n", "one = 一\n")]);
    assert_eq!(e, ["zh/a.ftl: `two` is missing (it is in en/a.ftl)"]);
    let e = errors(&[("a", "one = One\n", "one = 一\ntwo = 二\n")]);
    assert_eq!(e, ["zh/a.ftl: `two` is not in en/a.ftl"]);
    let mut only_en = files(&[("a", "one = One\n", "one = 一\n")]);
    only_en[0].insert("b".into(), "three = Three\n".into());
    let e = compiler::check(&only_en).unwrap_err();
    assert_eq!(e, ["en/b.ftl has no zh/b.ftl"]);
}

#[test]
fn variables_that_differ_between_the_languages_fail() {
    let e = errors(&[(
        "a",
        "shape = { $rows }×{ $cols }\n",
        "shape = { $rows }×{ $columns }\n",
    )]);
    assert_eq!(
        e,
        ["a.ftl: `shape` has the variables [$cols, $rows] in en but [$columns, $rows] in zh"]
    );
    // A variable said in one language and dropped in the other is a difference too.
    let e = errors(&[("a", "n = { $n } heads\n", "n = 头\n")]);
    assert_eq!(e.len(), 1, "{e:?}");
}

#[test]
fn what_the_compiler_does_not_write_is_refused() {
    for (source, problem) in [
        ("-term = T\nm = { -term }\n", "terms are not supported"),
        ("m = { NUMBER($n) }\n", "only variables"),
        ("m = { other }\nother = O\n", "only variables"),
        ("m = M\n    .title = T\n", "attributes are not supported"),
        ("m = { $x\n", "cannot read"),
        ("Bad_Id = B\n", "lowercase-with-dashes"),
    ] {
        let e = errors(&[("a", source, source)]);
        assert!(e.iter().any(|e| e.contains(problem)), "{source:?}: {e:?}");
    }
}

#[test]
fn a_count_selects_by_number_then_by_the_plural_category() {
    let catalogue = compiler::check(&files(&[(
        "a",
        "heads = { $n ->\n    [0] no head\n    [one] one head\n   *[other] { $n } heads\n}\n",
        "heads = { $n } 个头\n",
    )]))
    .expect("a count in one language and shown in the other is one variable");
    let m = &catalogue.areas["a"][0];
    assert_eq!(m.vars["n"], compiler::VarKind::Count);
    let code = compiler::render(&catalogue);
    assert!(code.contains("pub n: usize"), "{code}");
    assert!(code.contains("self.n == 0"), "{code}");
    assert!(
        code.contains("crate::plural(crate::Lang::En, self.n) == \"one\""),
        "{code}"
    );
    assert_eq!(crate::plural(Lang::En, 1), "one");
    assert_eq!(crate::plural(Lang::En, 2), "other");
    assert_eq!(crate::plural(Lang::Zh, 1), "other");
}

#[test]
fn braces_and_quotes_in_a_message_are_text() {
    let catalogue = compiler::check(&files(&[(
        "a",
        "m = {\"{\"}{ $x }{\"}\"} \"quoted\"\n",
        "m = {\"{\"}{ $x }{\"}\"}“引号”\n",
    )]))
    .expect("string literals are text");
    let code = compiler::render(&catalogue);
    assert!(
        code.contains(r#"format!("{{{}}} \"quoted\"", self.x)"#),
        "{code}"
    );
}

#[test]
fn a_message_with_variables_is_said_in_both_languages() {
    let shape = msg::core::ShapeMismatch {
        rows: &3,
        cols: &5,
        expected: &"3×4 (…)",
    };
    assert_eq!(shape.say(Lang::En), "has shape 3×5, expected 3×4 (…)");
    assert_eq!(shape.say(Lang::Zh), "形状为 3×5，应为 3×4 (…)");
    let said = shape.said();
    assert_eq!(
        (said.get(Lang::En), said.get(Lang::Zh)),
        (shape.say(Lang::En).as_str(), shape.say(Lang::Zh).as_str())
    );
    assert_eq!(msg::core::NO_HEADS.get(Lang::Zh), "至少需要一个头");
}

#[test]
fn no_chinese_message_holds_an_english_word_and_no_english_one_chinese() {
    let catalogue = real();
    let mut found = Vec::new();
    for (area, messages) in &catalogue.areas {
        for m in messages {
            let zh = compiler::texts(&m.parts[1]);
            let words = crate::check::latin_words(&zh);
            if !words.is_empty() {
                found.push(format!("zh/{area}.ftl `{}`: {words:?}", m.id));
            }
            // 中文, the language's own name, is shown as itself in every language.
            let en = compiler::texts(&m.parts[0]).replace(Lang::Zh.name(), "");
            if en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
                found.push(format!("en/{area}.ftl `{}` holds Chinese", m.id));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn a_variable_may_be_left_unsaid_only_where_the_comment_says_so() {
    let unsaid = "# unsaid: $detail\nm = 配置无法读取\n";
    assert!(errors(&[("a", "m = config: { $detail }\n", unsaid)]).is_empty());
    let e = errors(&[("a", "m = config: { $detail }\n", "m = 配置无法读取\n")]);
    assert_eq!(e.len(), 1, "{e:?}");
    let e = errors(&[(
        "a",
        "m = config: { $detail }\n",
        "# unsaid: $detail\nm = 配置 { $detail }\n",
    )]);
    assert_eq!(
        e,
        ["a.ftl: `m` says $detail in zh though its comment leaves it unsaid"]
    );
}

#[test]
fn a_count_chooses_the_english_plural_and_is_shown_in_chinese() {
    let label = |heads| msg::lab::ModelLabel {
        heads,
        d_model: &64,
    };
    assert_eq!(label(1).say(Lang::En), "1 head · d_model 64");
    assert_eq!(label(4).say(Lang::En), "4 heads · d_model 64");
    assert_eq!(label(0).say(Lang::En), "0 heads · d_model 64");
    assert_eq!(label(1).say(Lang::Zh), "1 个头 · d_model 64");
}

#[test]
fn a_name_chooses_its_variant() {
    let clipped = |what| msg::rules::TextClipped { what, max: &20 }.said();
    assert_eq!(
        clipped("source").get(Lang::En),
        "the source was longer than 20 characters, so only its beginning was kept"
    );
    assert_eq!(
        clipped("text").get(Lang::Zh),
        "文本超过 20 个字符，因此只保留了开头部分"
    );
    assert!(
        clipped("pair")
            .get(Lang::En)
            .starts_with("the second sentence ")
    );
}

/// What the pages once overstated (issue 33), said nowhere in either language; each
/// qualified sentence is said in both.
#[test]
fn no_message_overstates_positions_causality_or_rank() {
    // Relative positions hold for PE·PE, not for the scores after W_Q and W_K; the base
    // 1000 is a misprint, not a common alternative; efficient attention is not causal as
    // defined, but a causal form exists; softmax's matrix is usually, not always, of full
    // rank.
    let overstated = [
        "attention can read relative positions",
        "注意力能够读出相对位置",
        "common alternative",
        "常见的替代",
        "efficient: cannot be made causal",
        "高效注意力：不能做成因果的",
        "no such bound and is of full rank",
        "没有这种限制，是满秩的",
    ];
    let mut found = Vec::new();
    for (area, messages) in &real().areas {
        for m in messages {
            for part in &m.parts {
                let text = compiler::texts(part);
                for phrase in overstated.iter().filter(|p| text.contains(*p)) {
                    found.push(format!("{area}.ftl `{}`: “{phrase}”", m.id));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));

    let said = |tr: crate::Tr, en: &[&str], zh: &[&str]| {
        for (lang, phrases) in [(Lang::En, en), (Lang::Zh, zh)] {
            let text = tr.get(lang);
            for p in phrases {
                assert!(text.contains(p), "{lang:?}: “{p}” not in “{text}”");
            }
        }
    };
    said(
        msg::positions::POSITIONS_ROTATION_EXPLAIN,
        &[
            "PE(p)·PE(p+k) depends on k only",
            "The attention scores do not keep this",
            "not on i − j only",
            "RoPE, which turns q and k themselves",
        ],
        &[
            "PE(p)·PE(p+k) 只取决于 k",
            "注意力分数并不保留这一点",
            "而不只取决于 i − j",
            "RoPE 在 W_Q 和 W_K 之后按位置旋转 q 和 k 本身",
        ],
    );
    said(
        msg::positions::POSITIONS_BASE_TRANSFORMER,
        &["models use"],
        &["模型实际使用"],
    );
    said(
        msg::positions::POSITIONS_BASE_MISPRINT,
        &["misprints the base as 1000", "models use 10000"],
        &["误印成了 1000", "模型使用的是 10000"],
    );
    said(
        msg::linear::LINEAR_CAUSAL_EFFICIENT,
        &[
            "not causal as defined",
            "A causal form exists",
            "running sums",
        ],
        &["按定义不是因果的", "存在一种因果形式", "累加和"],
    );
}
