//! The `attnlab-tensors/1` reader on hand-made documents.

use super::*;

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn ragged_rows_name_the_row() {
    let e = err(
        r#"{"heads":[{"q":[[1,2]],"k":[[1,2],[1,2],[1,2],[1,2,3,4,5]],"v":[[1],[1],[1],[1]]}]}"#,
    );
    assert_eq!(e, "heads[0].k[3]: expected 2 numbers, found 5");
}

#[test]
fn a_short_row_in_a_later_head() {
    let h0 =
        r#"{"q":[[1,0,0,0]],"k":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]],"v":[[1],[2],[3],[4]]}"#;
    let h1 =
        r#"{"q":[[1,0,0,0]],"k":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,1]],"v":[[1],[2],[3],[4]]}"#;
    let e = err(&format!(r#"{{"heads":[{h0},{h1}]}}"#));
    assert_eq!(e, "heads[1].k[3]: expected 4 numbers, found 3");
}

#[test]
fn a_wrong_type_deep_in_a_nested_array() {
    let e = err(r#"{"heads":[{"q":[[1,2],[3,4],[5,"x"]],"k":[[1,2]],"v":[[1]]}]}"#);
    assert_eq!(
        e,
        r#"heads[0].q[2][1]: invalid type: string "x", expected f32"#
    );
    let e = err(
        r#"{"score":"general","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"score_params":{"w":[[null]]}}]}"#,
    );
    assert_eq!(
        e,
        "heads[0].score_params.w[0][0]: invalid type: null, expected f32"
    );
    let e = err(
        r#"{"heads":[{"q":[[1],[2]],"k":[[1],[2]],"v":[[1],[2]]}],"mask":{"custom":[[true,true],[true,1]]}}"#,
    );
    assert_eq!(
        e,
        "mask.custom[1][1]: invalid type: integer `1`, expected a boolean"
    );
    let e = err(r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"mask":{"global":[0,-1]}}"#);
    assert_eq!(
        e,
        "mask.global[1]: invalid value: integer `-1`, expected a non-negative integer"
    );
    let e = err(r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}, [1]]}"#);
    assert_eq!(e, "heads[1]: invalid type: sequence, expected an object");
    let e = err(r#"{"heads":[{"q":[1],"k":[[1]],"v":[[1]]}]}"#);
    assert_eq!(
        e,
        "heads[0].q[0]: invalid type: integer `1`, expected an array of numbers"
    );
    assert_eq!(
        err("[1, 2]"),
        "input: invalid type: sequence, expected an object"
    );
}

#[test]
fn missing_fields_are_named() {
    assert_eq!(err(r#"{"format":"attnlab-tensors/1"}"#), "heads: missing");
    assert_eq!(err(r#"{"heads":null}"#), "heads: missing");
    assert_eq!(
        err(r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]},{"q":[[1]],"v":[[1]]}]}"#),
        "heads[1].k: missing"
    );
}

#[test]
fn a_repeated_field_is_refused() {
    let head = r#"{"q":[[1]],"k":[[1]],"v":[[1]]}"#;
    assert_eq!(
        err(&format!(r#"{{"heads":[{head}],"heads":[{head}]}}"#)),
        "input: duplicate field `heads`"
    );
    assert_eq!(
        err(r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"q":[[2]]}]}"#),
        "heads[0]: duplicate field `q`"
    );
}

#[test]
fn width_and_row_mismatches() {
    let e = err(r#"{"heads":[{"q":[[1,2]],"k":[[1,2,3]],"v":[[1]]}]}"#);
    assert_eq!(
        e,
        "heads[0].k: rows have 3 values, expected 2 (the width of q)"
    );
    let e = err(r#"{"heads":[{"q":[[1]],"k":[[1],[2]],"v":[[1]]}]}"#);
    assert_eq!(e, "heads[0].v: has 1 rows, expected 2 (one per key, as k)");
}

#[test]
fn names_and_values_are_checked() {
    let ok = r#""heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]"#;
    assert!(
        err(&format!(r#"{{"score":"dott",{ok}}}"#))
            .starts_with("score: is the string \"dott\", expected one of")
    );
    assert!(err(&format!(r#"{{"attention":"fast",{ok}}}"#)).starts_with("attention:"));
    assert!(err(&format!(r#"{{"temperature":0,{ok}}}"#)).starts_with("temperature: is 0"));
    assert!(err(&format!(r#"{{"temperature":"1",{ok}}}"#)).starts_with("temperature:"));
    assert!(err(r#"{"attention":"linformer","mask":{"causal":true},"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"linformer":{"e":[[1]],"f":[[1]]}}]}"#).starts_with("mask.causal: linformer attention cannot"));
    assert!(
        err(r#"{"heads":[{"q":[[1e39]],"k":[[1]],"v":[[1]]}]}"#).contains("outside the f32 range")
    );
    assert!(
        err(r#"{"heads":[{"q":[["x"]],"k":[[1]],"v":[[1]]}]}"#)
            .starts_with("heads[0].q[0][0]: invalid type: string")
    );
    assert!(err("{").starts_with("input: is not valid JSON"));
    let e = err(r#"{"heads":[{"q":[[1],[-1e999]],"k":[[1]],"v":[[1]]}]}"#);
    assert_eq!(
        e,
        "heads[0].q[1][0]: is -1e+999, outside the f32 range (|x| ≤ 3.4e38)"
    );
}

#[test]
fn a_wrong_score_name_names_the_allowed_ones() {
    let e = err(r#"{"score":"dott","heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#);
    assert_eq!(
        e,
        r#"score: is the string "dott", expected one of "dot", "scaled_dot", "general", "additive", "cosine""#
    );
}

#[test]
fn unknown_fields_are_collected() {
    let d =
        parse(r#"{"temprature":2,"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"extra":1}]}"#).unwrap();
    assert_eq!(d.unknown_fields, ["temprature", "heads[0].extra"]);
}

#[test]
fn unknown_fields_deep_down_are_warnings_not_errors() {
    let d = parse(
        r#"{"score":"general",
            "heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"score_params":{"w":[[1]],"bias":[0]}}],
            "mask":{"padding":[0]}}"#,
    )
    .unwrap();
    assert_eq!(
        d.unknown_fields,
        ["mask.padding", "heads[0].score_params.bias"]
    );
    assert!(d.problem.compute().is_ok());
    let d = parse(
        r#"{"attention":"linformer",
            "heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"linformer":{"e":[[1]],"f":[[1]],"rank":1}}]}"#,
    )
    .unwrap();
    assert_eq!(d.unknown_fields, ["heads[0].linformer.rank"]);
    assert!(d.problem.compute().is_ok());
}

#[test]
fn parameters_an_attention_kind_does_not_use_are_not_read() {
    let d = parse(
        r#"{"attention":"elu1","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],
            "score_params":"unused","linformer":{"e":"unused"}}]}"#,
    )
    .unwrap();
    assert!(d.unknown_fields.is_empty());
}

#[test]
fn a_field_the_kind_does_not_use_is_refused_in_both_languages() {
    let e = parse(r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"sink":0}]}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "heads[0].sink: does not apply to softmax attention"
    );
    let zh = e.text(Lang::Zh);
    assert!(
        zh.contains("heads[0].sink") && zh.contains("不适用于"),
        "{zh}"
    );
    assert!(attnlab_i18n::check::latin_words(&zh).is_empty(), "{zh}");
    // A core error about a new field, said in Chinese from the catalogue.
    let e = parse(
        r#"{"attention":"decayed_linear","heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"decay":2}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "heads[0].decay: must be between 0 and 1, got 2"
    );
    assert!(
        e.text(Lang::Zh).contains("必须在 0 到 1 之间"),
        "{}",
        e.text(Lang::Zh)
    );
}

#[test]
fn the_new_kinds_fields_reach_the_problem() {
    let doc = parse(
        r#"{"attention":"differential","lambda":0.25,"heads":[{"q":[[1]],"k":[[1]],"v":[[1]],"q2":[[2]],"k2":[[3]]}]}"#,
    )
    .unwrap();
    let spec = doc.problem.spec();
    assert_eq!(spec.attention, AttentionKind::Differential);
    assert_eq!(spec.lambda, 0.25);
    let h = &doc.problem.heads()[0];
    assert_eq!(h.q2.as_ref().unwrap()[[0, 0]], 2.0);
    assert_eq!(h.k2.as_ref().unwrap()[[0, 0]], 3.0);
    let doc = parse(
        r#"{"attention":"decayed_linear","gates":[1,0.5],"heads":[{"q":[[1],[1]],"k":[[1],[1]],"v":[[1],[1]]}]}"#,
    )
    .unwrap();
    assert_eq!(doc.problem.spec().gates, Some(vec![1.0, 0.5]));
    assert!(doc.unknown_fields.is_empty());
}
