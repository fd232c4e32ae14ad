//! `attnlab compute` with the kinds beyond the lab's six: each kind and each of its fields
//! accepted, with numbers checked by hand; every field a kind does not use, and every bad
//! value, refused with exit status 2 and one line naming its path.

mod common;

use common::{refused, result};
use serde_json::{Value, json};

fn close(got: &Value, want: f64) {
    let g = got
        .as_f64()
        .unwrap_or_else(|| panic!("{got} is not a number"));
    assert!(
        (g - want).abs() <= 1e-6 * want.abs().max(1.0),
        "{g} vs {want}"
    );
}

/// One query [0] and `m` zero keys with values 1, 2, …, m: every logit is 0.
fn zeros(kind: &str, m: usize) -> Value {
    json!({
        "attention": kind,
        "heads": [{
            "q": [[0.0]],
            "k": vec![[0.0]; m],
            "v": (1..=m).map(|j| [j as f64]).collect::<Vec<_>>(),
        }]
    })
}

#[test]
fn softmax_plus_one_sigmoid_and_sink_of_zero_logits() {
    // 1/(1 + m) per key, for m = 3: 0.25; the output Σ_j j/4 = 1.5; the row sums 0.75.
    for (kind, extra) in [
        ("softmax_plus_one", json!({})),
        ("sigmoid", json!({})),
        ("sink", json!({"sink": 0.0})),
    ] {
        let mut doc = zeros(kind, 3);
        for (k, v) in extra.as_object().unwrap() {
            doc["heads"][0][k] = v.clone();
        }
        let r = result(&doc);
        let h = &r["heads"][0];
        for w in h["weights"][0].as_array().unwrap() {
            close(w, 0.25);
        }
        close(&h["output"][0][0], 1.5);
        close(&h["row_sum"][0], 0.75);
        assert_eq!(h["row_entropy"], Value::Null, "{kind}");
        assert_eq!(h["row_entropy_normalised"], Value::Null, "{kind}");
        assert_eq!(h["computation"], "quadratic");
        // norms = |w_ij|·‖v_j‖.
        close(&h["norms"][0][2], 0.75);
    }
    // A sigmoid bias given: σ(0 + 0) = 1/2.
    let mut doc = zeros("sigmoid", 3);
    doc["sigmoid_bias"] = json!(0);
    close(&result(&doc)["heads"][0]["weights"][0][0], 0.5);
}

#[test]
fn softpick_by_hand() {
    // z = ln 3, ln 2, −ln 2 (dot score): e^z − 1 = 2, 1, −1/2; Σ|·| + 10⁻⁶ = 3.5 + 10⁻⁶.
    let doc = json!({
        "attention": "softpick",
        "score": "dot",
        "heads": [{"q": [[1.0]], "k": [[3f64.ln()], [2f64.ln()], [-(2f64.ln())]], "v": [[1.0], [1.0], [1.0]]}]
    });
    let r = result(&doc);
    let w = &r["heads"][0]["weights"][0];
    close(&w[0], 2.0 / (3.5 + 1e-6));
    close(&w[1], 1.0 / (3.5 + 1e-6));
    assert_eq!(w[2], json!(0.0));
}

#[test]
fn differential_subtracts_lambda_times_the_second_softmax() {
    // Two keys. z₁ = (0, 0): softmax (1/2, 1/2). z₂ = (ln 3, 0) (q2 = ln 3, k2 = (1, 0),
    // dot score): softmax (3/4, 1/4). λ = 0.5: (1/2 − 3/8, 1/2 − 1/8) = (1/8, 3/8).
    let doc = json!({
        "attention": "differential",
        "score": "dot",
        "lambda": 0.5,
        "heads": [{
            "q": [[0.0]], "k": [[0.0], [0.0]], "v": [[1.0], [0.0]],
            "q2": [[3f64.ln()]], "k2": [[1.0], [0.0]]
        }]
    });
    let r = result(&doc);
    let w = &r["heads"][0]["weights"][0];
    close(&w[0], 0.125);
    close(&w[1], 0.375);
    close(&r["heads"][0]["row_sum"][0], 0.5);
    // λ defaults to 0.8: (1/2 − 0.6, 1/2 − 0.2) = (−0.1, 0.3): a negative weight.
    let mut doc = doc;
    doc.as_object_mut().unwrap().remove("lambda");
    let r = result(&doc);
    close(&r["heads"][0]["weights"][0][0], -0.1);
    close(&r["heads"][0]["norms"][0][0], 0.1);
}

#[test]
fn decayed_linear_with_a_decay_with_gates_and_with_a_mask() {
    // q = k = v = 1 at three positions, dot score: w_ij = γ^{i−j}.
    let ones = json!([[1.0], [1.0], [1.0]]);
    let doc = json!({
        "attention": "decayed_linear", "score": "dot",
        "heads": [{"q": ones, "k": ones, "v": ones, "decay": 0.5}]
    });
    let r = result(&doc);
    let h = &r["heads"][0];
    assert_eq!(
        h["weights"],
        json!([[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.25, 0.5, 1.0]])
    );
    assert_eq!(h["output"], json!([[1.0], [1.5], [1.75]]));
    assert_eq!(h["computation"], "decayed_recurrent");
    assert_eq!(h["row_entropy"], Value::Null);
    // Top-level gates (a_0 unused): D = [[1], [0.5, 1], [0.125, 0.25, 1]].
    let doc = json!({
        "attention": "decayed_linear", "score": "dot", "gates": [0.9, 0.5, 0.25],
        "heads": [{"q": ones, "k": ones, "v": ones}]
    });
    let r = result(&doc);
    assert_eq!(
        r["heads"][0]["weights"],
        json!([[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.125, 0.25, 1.0]])
    );
    // The head's own gates win; a window mask makes it the masked quadratic form.
    let doc = json!({
        "attention": "decayed_linear", "score": "dot", "gates": [0.0, 0.0, 0.0],
        "mask": {"window": 1},
        "heads": [{"q": ones, "k": ones, "v": ones, "gates": [1.0, 0.5, 0.25]}]
    });
    let r = result(&doc);
    assert_eq!(
        r["heads"][0]["weights"],
        json!([[1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.25, 1.0]])
    );
    assert_eq!(r["heads"][0]["computation"], "decayed_masked_quadratic");
}

#[test]
fn favor_in_its_three_forms() {
    // One feature w = 0: φ(x) = exp(−‖x′‖²/2) for every x; with x = 0, φ = 1, so every
    // allowed key gets 1/(#allowed + 10⁻⁶).
    let z = json!([[0.0], [0.0]]);
    let doc = |mask: Value| {
        json!({
            "attention": "favor", "mask": mask,
            "heads": [{"q": z, "k": z, "v": [[1.0], [3.0]], "features": [[0.0]]}]
        })
    };
    let r = result(&doc(json!({})));
    let h = &r["heads"][0];
    close(&h["weights"][0][0], 1.0 / (2.0 + 1e-6));
    close(&h["output"][0][0], 4.0 / (2.0 + 1e-6));
    assert_eq!(h["computation"], "favor_linear");
    assert!(h["row_entropy"].is_array());
    let r = result(&doc(json!({"causal": true})));
    assert_eq!(r["heads"][0]["computation"], "favor_recurrent");
    close(&r["heads"][0]["output"][0][0], 1.0 / (1.0 + 1e-6));
    let r = result(&doc(json!({"window": 0})));
    assert_eq!(r["heads"][0]["computation"], "favor_masked_quadratic");
    close(&r["heads"][0]["output"][1][0], 3.0 / (1.0 + 1e-6));
    // Padding alone is a mask too: the masked quadratic form.
    let r = result(&doc(json!({"padding_keys": [1]})));
    assert_eq!(r["heads"][0]["computation"], "favor_masked_quadratic");
    close(&r["heads"][0]["output"][0][0], 1.0 / (1.0 + 1e-6));
}

#[test]
fn a_fully_masked_row_is_zero_and_listed() {
    let mut doc = zeros("softmax_plus_one", 2);
    doc["heads"][0]["q"] = json!([[0.0], [0.0]]);
    doc["mask"] = json!({"custom": [[true, true], [false, false]]});
    let r = result(&doc);
    assert_eq!(r["heads"][0]["weights"][1], json!([0.0, 0.0]));
    assert_eq!(r["heads"][0]["empty_rows"], json!([1]));
    assert_eq!(r["heads"][0]["row_sum"][1], json!(0.0));
}

#[test]
fn the_lab_kinds_carry_row_sums_and_their_entropies() {
    let r = result(&json!({"heads": [{"q": [[1.0]], "k": [[1.0], [0.0]], "v": [[1.0], [1.0]]}]}));
    close(&r["heads"][0]["row_sum"][0], 1.0);
    assert!(r["heads"][0]["row_entropy"].is_array());
}

/// A valid head of `kind` with every field it needs.
fn head_of(kind: &str) -> Value {
    let mut h = json!({"q": [[1.0], [0.0]], "k": [[1.0], [0.5]], "v": [[1.0], [2.0]]});
    match kind {
        "sink" => h["sink"] = json!(0.0),
        "differential" => {
            h["q2"] = json!([[0.5], [0.0]]);
            h["k2"] = json!([[1.0], [0.0]]);
        }
        "decayed_linear" => h["decay"] = json!(0.5),
        "favor" => h["features"] = json!([[0.3], [-0.2]]),
        _ => {}
    }
    h
}

const KINDS: [&str; 13] = [
    "softmax",
    "elu1",
    "relu",
    "taylor",
    "efficient",
    "linformer",
    "softmax_plus_one",
    "sigmoid",
    "softpick",
    "sink",
    "differential",
    "decayed_linear",
    "favor",
];

fn doc_of(kind: &str) -> Value {
    let mut h = head_of(kind);
    if kind == "linformer" {
        h["linformer"] = json!({"e": [[1.0, 0.0]], "f": [[1.0, 0.0]]});
    }
    json!({"attention": kind, "heads": [h]})
}

#[test]
fn every_kind_computes_with_its_own_fields() {
    for kind in KINDS {
        let r = result(&doc_of(kind));
        assert!(r["heads"][0]["weights"].is_array(), "{kind}");
    }
}

#[test]
fn every_field_a_kind_does_not_use_is_refused_with_its_path() {
    // (field at the top or in heads[0], its value, the kinds that use it).
    let fields: [(&str, Value, &[&str]); 8] = [
        ("sigmoid_bias", json!(0.5), &["sigmoid"]),
        ("lambda", json!(0.5), &["differential"]),
        ("gates", json!([1.0, 1.0]), &["decayed_linear"]),
        ("heads[0].sink", json!(1.0), &["sink"]),
        ("heads[0].q2", json!([[1.0], [1.0]]), &["differential"]),
        ("heads[0].k2", json!([[1.0], [1.0]]), &["differential"]),
        ("heads[0].decay", json!(0.5), &["decayed_linear"]),
        ("heads[0].features", json!([[1.0]]), &["favor"]),
    ];
    let mut refusals = 0;
    for kind in KINDS {
        for (path, value, users) in &fields {
            let mut doc = doc_of(kind);
            match path.strip_prefix("heads[0].") {
                Some(f) => doc["heads"][0][f] = value.clone(),
                None => doc[*path] = value.clone(),
            }
            if users.contains(&kind) {
                continue; // the kind's own field, accepted above
            }
            assert_eq!(
                refused(&doc),
                format!("{path}: does not apply to {kind} attention")
            );
            refusals += 1;
        }
        // A head's own gates are refused as the document's are.
        if kind != "decayed_linear" {
            let mut doc = doc_of(kind);
            doc["heads"][0]["gates"] = json!([1.0, 1.0]);
            assert_eq!(
                refused(&doc),
                format!("heads[0].gates: does not apply to {kind} attention")
            );
        }
    }
    assert_eq!(refusals, 13 * 8 - 8);
    // Temperature and score where the new kinds use none, score_params where the score
    // takes none, Linformer's projections on a new kind.
    for (kind, field, value) in [
        ("decayed_linear", "temperature", json!(2.0)),
        ("favor", "temperature", json!(2.0)),
        ("favor", "score", json!("dot")),
    ] {
        let mut doc = doc_of(kind);
        doc[field] = value;
        assert_eq!(
            refused(&doc),
            format!("{field}: does not apply to {kind} attention")
        );
    }
    for kind in ["sigmoid", "favor", "decayed_linear"] {
        let mut doc = doc_of(kind);
        doc["heads"][0]["score_params"] = json!({"w": [[1.0]]});
        assert_eq!(
            refused(&doc),
            format!("heads[0].score_params: does not apply to {kind} attention")
        );
        let mut doc = doc_of(kind);
        doc["heads"][0]["linformer"] = json!({"e": [[1.0, 0.0]], "f": [[1.0, 0.0]]});
        assert_eq!(
            refused(&doc),
            format!("heads[0].linformer: does not apply to {kind} attention")
        );
    }
    // The lab's kinds keep reading their fields as before: temperature and score with
    // elu1 are accepted (and unused).
    let mut doc = doc_of("elu1");
    doc["temperature"] = json!(2.0);
    doc["score"] = json!("dot");
    result(&doc);
    // A general score's parameters with sigmoid are used, so accepted.
    let mut doc = doc_of("sigmoid");
    doc["score"] = json!("general");
    doc["heads"][0]["score_params"] = json!({"w": [[2.0]]});
    result(&doc);
}

#[test]
fn bad_values_of_the_new_fields_exit_2_with_their_paths() {
    let with = |kind: &str, edit: &dyn Fn(&mut Value)| {
        let mut doc = doc_of(kind);
        edit(&mut doc);
        refused(&doc)
    };
    let cases: Vec<(String, &str)> = vec![
        (
            with("sink", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("sink");
            }),
            "heads[0].sink: missing: sink attention needs the head's sink logit s_h (a number)",
        ),
        (
            with("sink", &|d| d["heads"][0]["sink"] = json!("high")),
            r#"heads[0].sink: invalid type: string "high", expected f32"#,
        ),
        (
            with("differential", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("k2");
            }),
            "heads[0].k2: missing: differential attention needs q2 (n×d_k) and k2 (m×d_k)",
        ),
        (
            with("differential", &|d| d["heads"][0]["q2"] = json!([[1.0]])),
            "heads[0].q2: has shape 1×1, expected 2×1 (as q)",
        ),
        (
            with("differential", &|d| d["lambda"] = json!(1e39)),
            "lambda: is 1e+39, outside the f32 range (|x| ≤ 3.4e38)",
        ),
        (
            with("sigmoid", &|d| d["sigmoid_bias"] = json!(true)),
            "sigmoid_bias: invalid type: boolean `true`, expected f32",
        ),
        (
            with("decayed_linear", &|d| d["heads"][0]["decay"] = json!(1.5)),
            "heads[0].decay: must be between 0 and 1, got 1.5",
        ),
        (
            with("decayed_linear", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("decay");
            }),
            "heads[0].decay: missing: decayed linear attention needs decay (γ in [0, 1]) or gates (one per position)",
        ),
        (
            with("decayed_linear", &|d| d["gates"] = json!([1.0, 1.0])),
            "heads[0].decay: give either decay or gates, not both",
        ),
        (
            with("decayed_linear", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("decay");
                d["heads"][0]["gates"] = json!([1.0, 2.0]);
            }),
            "heads[0].gates: gate 1 is 2, outside [0, 1]",
        ),
        (
            with("decayed_linear", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("decay");
                d["gates"] = json!([1.0]);
            }),
            "gates: has shape 1×1, expected 2 values (one per position)",
        ),
        (
            with("decayed_linear", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("decay");
                d["gates"] = json!([1.0, -0.5]);
            }),
            "gates: gate 1 is -0.5, outside [0, 1]",
        ),
        (
            with("decayed_linear", &|d| d["score"] = json!("cosine")),
            "score: decayed linear attention takes the dot or scaled_dot score, not cosine",
        ),
        (
            with("decayed_linear", &|d| {
                d["heads"][0]["k"] = json!([[1.0]]);
                d["heads"][0]["v"] = json!([[1.0]]);
            }),
            "heads[0].k: has shape 1×1, expected 2×1 (one key per query: decayed linear attention is causal)",
        ),
        (
            with("favor", &|d| {
                d["heads"][0]["features"] = json!([[1.0, 2.0]])
            }),
            "heads[0].features: has shape 1×2, expected r×1 (r ≥ 1 features, d_k columns)",
        ),
        (
            with("favor", &|d| {
                d["heads"][0].as_object_mut().unwrap().remove("features");
            }),
            "heads[0].features: missing: favor attention needs the features W (r×d_k)",
        ),
        (
            with("favor", &|d| d["heads"][0]["features"] = json!([])),
            "heads[0].features: has no rows, expected at least one",
        ),
        (
            with("softmax", &|d| d["attention"] = json!("sigmoidal")),
            r#"attention: is the string "sigmoidal", expected one of "softmax", "elu1", "relu", "taylor", "efficient", "linformer", "softmax_plus_one", "sigmoid", "softpick", "sink", "differential", "decayed_linear", "favor""#,
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
}

#[test]
fn extreme_logits_never_print_nan() {
    // q·k = ±1e30 (dot score): finite weights for every softmax-family kind.
    for kind in [
        "softmax_plus_one",
        "sigmoid",
        "softpick",
        "sink",
        "differential",
    ] {
        let mut h = json!({"q": [[1e15], [-1e15]], "k": [[1e15], [-1e15]], "v": [[1.0], [2.0]]});
        match kind {
            "sink" => h["sink"] = json!(1e30),
            "differential" => {
                h["q2"] = json!([[-1e15], [1e15]]);
                h["k2"] = json!([[1e15], [-1e15]]);
            }
            _ => {}
        }
        let r = result(&json!({"attention": kind, "score": "dot", "heads": [h]}));
        let text = r.to_string();
        for row in r["heads"][0]["weights"].as_array().unwrap() {
            for w in row.as_array().unwrap() {
                assert!(w.is_number(), "{kind}: {text}");
            }
        }
    }
}
