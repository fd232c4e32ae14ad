//! Bad input for the modern variants (issue 33): every field given to a kind
//! it does not apply to (spec decision 6), and bad values of the new fields.
//! Each must exit with status 2 and exactly one line on stderr naming the
//! field's path, never a panic. Where the spec does not fix which path names
//! the problem (a missing or doubled decay, an odd d_k under RoPE), the line
//! must contain one of a few alternatives (`a|b`); n ≠ m for decayed_linear
//! must name `heads[0]` (its `q` or `k`).

use serde_json::{Value, json};

use super::{Via, check_error_output, linformer_params, run_compute, valid_base};

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
const FAMILY: [&str; 6] = [
    "softmax",
    "softmax_plus_one",
    "sigmoid",
    "softpick",
    "sink",
    "differential",
];

/// A valid document of `kind` on the shared base (n = m = 3, d_k = 2,
/// d_v = 1), with the per-head fields the kind requires.
fn base_for(kind: &str) -> Value {
    let mut c = valid_base();
    if kind != "softmax" {
        c["attention"] = json!(kind);
    }
    let h = &mut c["heads"][0];
    match kind {
        "linformer" => h["linformer"] = linformer_params(),
        "sink" => h["sink"] = json!(0.5),
        "differential" => {
            h["q2"] = json!([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]);
            h["k2"] = json!([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]);
        }
        "decayed_linear" => h["decay"] = json!(0.5),
        "favor" => h["features"] = json!([[1.0, 0.0], [0.0, 1.0]]),
        _ => {}
    }
    c
}

fn on(kind: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut c = base_for(kind);
    f(&mut c);
    serde_json::to_string(&c).unwrap()
}

/// A field, how to add it, the needle, and the kinds it applies to.
type Field = (&'static str, fn(&mut Value), &'static [&'static str]);

/// The fields spec decision 6 has the kinds refuse when they do not use them.
fn fields() -> Vec<Field> {
    vec![
        ("softcap", |c| c["softcap"] = json!(2.0), &FAMILY),
        ("alibi", |c| c["alibi"] = json!(true), &FAMILY),
        (
            "sigmoid_bias",
            |c| c["sigmoid_bias"] = json!(-1.0),
            &["sigmoid"],
        ),
        ("lambda", |c| c["lambda"] = json!(0.5), &["differential"]),
        (
            "heads[0].q2",
            |c| c["heads"][0]["q2"] = json!([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
            &["differential"],
        ),
        (
            "heads[0].k2",
            |c| c["heads"][0]["k2"] = json!([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
            &["differential"],
        ),
        (
            "heads[0].sink",
            |c| c["heads"][0]["sink"] = json!(0.5),
            &["sink"],
        ),
        (
            "heads[0].decay",
            |c| c["heads"][0]["decay"] = json!(0.5),
            &["decayed_linear"],
        ),
        (
            "gates",
            |c| c["gates"] = json!([1.0, 0.5, 0.5]),
            &["decayed_linear"],
        ),
        (
            "heads[0].gates",
            |c| c["heads"][0]["gates"] = json!([1.0, 0.5, 0.5]),
            &["decayed_linear"],
        ),
        (
            "heads[0].features",
            |c| c["heads"][0]["features"] = json!([[1.0, 0.0]]),
            &["favor"],
        ),
        ("tiles", |c| c["tiles"] = json!(2), &["softmax"]),
        // today's kinds keep today's behaviour for temperature and score
        (
            "temperature",
            |c| c["temperature"] = json!(2.0),
            &[
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
            ],
        ),
        (
            "score",
            |c| c["score"] = json!("dot"),
            &[
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
            ],
        ),
        (
            "mask.sinks",
            |c| c["mask"] = json!({ "sinks": 1 }),
            &[
                "softmax",
                "elu1",
                "relu",
                "taylor",
                "softmax_plus_one",
                "sigmoid",
                "softpick",
                "sink",
                "differential",
                "decayed_linear",
                "favor",
            ],
        ),
    ]
}

/// (name, input, needle — alternatives separated by `|`)
fn cases() -> Vec<(String, String, &'static str)> {
    let mut out = Vec::new();
    for (needle, add, applies) in fields() {
        for kind in KINDS.into_iter().filter(|k| !applies.contains(k)) {
            out.push((format!("{kind}-with-{needle}"), on(kind, add), needle));
        }
    }
    // score_params where the (new kind's) score does not use them
    let w = json!({ "w": [[1.0, 0.0], [0.0, 1.0]] });
    for kind in [
        "softmax_plus_one",
        "sigmoid",
        "softpick",
        "sink",
        "differential",
    ] {
        let w = w.clone();
        out.push((
            format!("{kind}-dot-with-score_params"),
            on(kind, |c| {
                c["score"] = json!("dot");
                c["heads"][0]["score_params"] = w;
            }),
            "heads[0].score_params",
        ));
    }
    for kind in ["decayed_linear", "favor"] {
        let w = w.clone();
        out.push((
            format!("{kind}-with-score_params"),
            on(kind, |c| c["heads"][0]["score_params"] = w),
            "heads[0].score_params",
        ));
    }

    let mut bad = |name: &str, kind: &str, f: fn(&mut Value), needle: &'static str| {
        out.push((name.to_string(), on(kind, f), needle));
    };
    // RoPE
    bad(
        "rope-rotary_dims-odd",
        "softmax",
        |c| rope(c, json!({ "rotary_dims": 1 })),
        "positions.rotary_dims",
    );
    bad(
        "rope-rotary_dims-zero",
        "softmax",
        |c| rope(c, json!({ "rotary_dims": 0 })),
        "positions.rotary_dims",
    );
    bad(
        "rope-rotary_dims-beyond-d_k",
        "elu1",
        |c| rope(c, json!({ "rotary_dims": 4 })),
        "positions.rotary_dims",
    );
    bad(
        "rope-rotary_dims-not-integer",
        "softmax",
        |c| rope(c, json!({ "rotary_dims": 1.5 })),
        "positions.rotary_dims",
    );
    bad(
        "rope-odd-d_k-default-r",
        "softmax",
        |c| {
            c["heads"][0]["q"] = json!([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]]);
            c["heads"][0]["k"] = json!([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]);
            rope(c, json!({}));
        },
        "positions|heads[0]",
    );
    bad(
        "rope-base-zero",
        "softmax",
        |c| rope(c, json!({ "base": 0 })),
        "positions.base",
    );
    bad(
        "rope-base-negative",
        "favor",
        |c| rope(c, json!({ "base": -10 })),
        "positions.base",
    );
    bad(
        "rope-pairs-unknown",
        "softmax",
        |c| rope(c, json!({ "pairs": "diagonal" })),
        "positions.pairs",
    );
    bad(
        "rope-kind-unknown",
        "softmax",
        |c| c["positions"] = json!({ "kind": "sinusoidal" }),
        "positions.kind",
    );
    bad(
        "rope-query_positions-short",
        "softmax",
        |c| rope(c, json!({ "query_positions": [0, 1] })),
        "positions.query_positions",
    );
    bad(
        "rope-key_positions-long",
        "sigmoid",
        |c| rope(c, json!({ "key_positions": [0, 1, 2, 3] })),
        "positions.key_positions",
    );
    bad(
        "rope-query_positions-not-number",
        "softmax",
        |c| rope(c, json!({ "query_positions": [0, "x", 2] })),
        "positions.query_positions",
    );
    bad(
        "rope-scaling-factor-zero",
        "softmax",
        |c| rope(c, json!({ "scaling": { "kind": "linear", "factor": 0 } })),
        "positions.scaling",
    );
    bad(
        "rope-scaling-factor-negative",
        "softmax",
        |c| rope(c, json!({ "scaling": { "kind": "ntk", "factor": -2 } })),
        "positions.scaling",
    );
    bad(
        "rope-scaling-kind-unknown",
        "softmax",
        |c| rope(c, json!({ "scaling": { "kind": "dynamic", "factor": 2 } })),
        "positions.scaling",
    );
    bad(
        "rope-ntk-r-2",
        "softmax",
        |c| rope(c, json!({ "scaling": { "kind": "ntk", "factor": 2 } })),
        "positions.scaling",
    );
    bad(
        "rope-yarn-without-original_max_positions",
        "softmax",
        |c| rope(c, json!({ "scaling": { "kind": "yarn", "factor": 2 } })),
        "positions.scaling",
    );
    bad(
        "rope-yarn-original_max_positions-zero",
        "softmax",
        |c| {
            rope(
                c,
                json!({ "scaling": { "kind": "yarn", "factor": 2, "original_max_positions": 0 } }),
            )
        },
        "positions.scaling",
    );
    // ALiBi
    bad(
        "alibi-slopes-too-few",
        "softmax",
        |c| c["alibi"] = json!({ "slopes": [0.5, 0.25] }),
        "alibi",
    );
    bad(
        "alibi-slopes-not-number",
        "softmax",
        |c| c["alibi"] = json!({ "slopes": ["x"] }),
        "alibi",
    );
    bad(
        "alibi-string",
        "sink",
        |c| c["alibi"] = json!("yes"),
        "alibi",
    );
    // kv_heads
    bad(
        "kv_heads-h-not-multiple-of-g",
        "softmax",
        |c| {
            let q = c["heads"][0]["q"].clone();
            let g = json!({ "k": c["heads"][0]["k"].clone(), "v": c["heads"][0]["v"].clone() });
            c["heads"] = json!([{ "q": q }, { "q": q }, { "q": q }]);
            c["kv_heads"] = json!([g, g]);
        },
        "kv_heads",
    );
    bad(
        "kv_heads-with-heads-k",
        "softmax",
        |c| {
            let g = json!({ "k": c["heads"][0]["k"].clone(), "v": c["heads"][0]["v"].clone() });
            c["heads"][0].as_object_mut().unwrap().remove("v");
            c["kv_heads"] = json!([g]);
        },
        "heads[0].k",
    );
    bad(
        "kv_heads-with-heads-v",
        "sigmoid",
        |c| {
            let g = json!({ "k": c["heads"][0]["k"].clone(), "v": c["heads"][0]["v"].clone() });
            c["heads"][0].as_object_mut().unwrap().remove("k");
            c["kv_heads"] = json!([g]);
        },
        "heads[0].v",
    );
    bad(
        "kv_heads-k-wrong-width",
        "softmax",
        |c| {
            let v = c["heads"][0]["v"].clone();
            let q = c["heads"][0]["q"].clone();
            c["heads"] = json!([{ "q": q }]);
            c["kv_heads"] =
                json!([{ "k": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]], "v": v }]);
        },
        "kv_heads",
    );
    bad(
        "kv_heads-groups-other-m",
        "softmax",
        |c| {
            let q = c["heads"][0]["q"].clone();
            let g = json!({ "k": c["heads"][0]["k"].clone(), "v": c["heads"][0]["v"].clone() });
            c["heads"] = json!([{ "q": q }, { "q": q }]);
            c["kv_heads"] = json!([g, { "k": [[1.0, 0.0], [0.0, 1.0]], "v": [[1.0], [2.0]] }]);
        },
        "kv_heads",
    );
    bad(
        "kv_heads-empty",
        "softmax",
        |c| {
            let q = c["heads"][0]["q"].clone();
            c["heads"] = json!([{ "q": q }]);
            c["kv_heads"] = json!([]);
        },
        "kv_heads",
    );
    // mask.sinks
    bad(
        "sinks-negative",
        "softmax",
        |c| c["mask"] = json!({ "causal": true, "sinks": -1 }),
        "mask.sinks",
    );
    bad(
        "sinks-beyond-m",
        "softpick",
        |c| c["mask"] = json!({ "causal": true, "sinks": 4 }),
        "mask.sinks",
    );
    bad(
        "sinks-not-integer",
        "softmax",
        |c| c["mask"] = json!({ "sinks": 1.5 }),
        "mask.sinks",
    );
    // softcap, sigmoid_bias, sink, lambda
    bad(
        "softcap-zero",
        "softmax",
        |c| c["softcap"] = json!(0),
        "softcap",
    );
    bad(
        "softcap-negative",
        "sink",
        |c| c["softcap"] = json!(-1.0),
        "softcap",
    );
    bad(
        "softcap-string",
        "softmax",
        |c| c["softcap"] = json!("big"),
        "softcap",
    );
    bad(
        "sigmoid_bias-nan",
        "sigmoid",
        |c| c["sigmoid_bias"] = json!("NaN"),
        "sigmoid_bias",
    );
    bad(
        "sink-missing",
        "sink",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("sink");
        },
        "heads[0].sink",
    );
    bad(
        "sink-not-number",
        "sink",
        |c| c["heads"][0]["sink"] = json!("Infinity"),
        "heads[0].sink",
    );
    bad(
        "lambda-string",
        "differential",
        |c| c["lambda"] = json!("x"),
        "lambda",
    );
    // differential
    bad(
        "differential-q2-missing",
        "differential",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("q2");
        },
        "heads[0].q2",
    );
    bad(
        "differential-k2-missing",
        "differential",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("k2");
        },
        "heads[0].k2",
    );
    bad(
        "differential-q2-wrong-rows",
        "differential",
        |c| c["heads"][0]["q2"] = json!([[1.0, 0.0], [0.0, 1.0]]),
        "heads[0].q2",
    );
    bad(
        "differential-k2-wrong-width",
        "differential",
        |c| c["heads"][0]["k2"] = json!([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]),
        "heads[0].k2",
    );
    // decayed_linear
    bad(
        "decayed-n-ne-m",
        "decayed_linear",
        |c| {
            c["heads"][0]["q"] = json!([[1.0, 0.0], [0.0, 1.0]]);
        },
        "heads[0]",
    );
    bad(
        "decayed-score-general",
        "decayed_linear",
        |c| c["score"] = json!("general"),
        "score",
    );
    bad(
        "decayed-score-cosine",
        "decayed_linear",
        |c| c["score"] = json!("cosine"),
        "score",
    );
    bad(
        "decayed-decay-above-1",
        "decayed_linear",
        |c| c["heads"][0]["decay"] = json!(1.5),
        "heads[0].decay",
    );
    bad(
        "decayed-decay-negative",
        "decayed_linear",
        |c| c["heads"][0]["decay"] = json!(-0.1),
        "heads[0].decay",
    );
    bad(
        "decayed-gates-above-1",
        "decayed_linear",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("decay");
            c["gates"] = json!([0.5, 1.2, 0.5]);
        },
        "gates",
    );
    bad(
        "decayed-head-gates-negative",
        "decayed_linear",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("decay");
            c["heads"][0]["gates"] = json!([0.5, -0.5, 0.5]);
        },
        "heads[0].gates",
    );
    bad(
        "decayed-gates-wrong-length",
        "decayed_linear",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("decay");
            c["gates"] = json!([0.5, 0.5]);
        },
        "gates",
    );
    bad(
        "decayed-neither-decay-nor-gates",
        "decayed_linear",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("decay");
        },
        "heads[0].decay|heads[0].gates|heads[0]",
    );
    bad(
        "decayed-decay-and-own-gates",
        "decayed_linear",
        |c| c["heads"][0]["gates"] = json!([0.5, 0.5, 0.5]),
        "heads[0].decay|heads[0].gates|heads[0]",
    );
    // favor
    bad(
        "favor-features-missing",
        "favor",
        |c| {
            c["heads"][0].as_object_mut().unwrap().remove("features");
        },
        "heads[0].features",
    );
    bad(
        "favor-features-wrong-width",
        "favor",
        |c| c["heads"][0]["features"] = json!([[1.0, 0.0, 1.0]]),
        "heads[0].features",
    );
    bad(
        "favor-features-no-rows",
        "favor",
        |c| c["heads"][0]["features"] = json!([]),
        "heads[0].features",
    );
    // tiles
    bad("tiles-zero", "softmax", |c| c["tiles"] = json!(0), "tiles");
    bad(
        "tiles-negative",
        "softmax",
        |c| c["tiles"] = json!(-2),
        "tiles",
    );
    bad(
        "tiles-not-integer",
        "softmax",
        |c| c["tiles"] = json!(1.5),
        "tiles",
    );
    out
}

/// `positions: {"kind": "rope", …p}`.
fn rope(c: &mut Value, p: Value) {
    let mut pos = json!({ "kind": "rope" });
    for (k, v) in p.as_object().unwrap() {
        pos[k] = v.clone();
    }
    c["positions"] = pos;
}

/// Exit 2, one line, no panic, and the line names one of the alternatives.
fn check(text: &str, via: Via, name: &str, needle: &str) -> Result<(), String> {
    let out = run_compute(text, via, name);
    check_error_output(&out, None)?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if needle.split('|').any(|alt| stderr.contains(alt)) {
        Ok(())
    } else {
        Err(format!(
            "stderr does not name `{needle}`: {:?}",
            stderr.trim()
        ))
    }
}

/// Every kind's base document is accepted (or the cases prove nothing), and
/// every bad one is refused with one line naming its field.
#[test]
fn modern_bad_input_exits_2_naming_the_field() {
    let mut failed = Vec::new();
    for kind in KINDS {
        let text = on(kind, |_| {});
        let out = run_compute(&text, Via::File, &format!("modern-base-{kind}"));
        if !out.status.success() {
            failed.push(format!(
                "base {kind} rejected: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    let cases = cases();
    for (i, (name, text, needle)) in cases.iter().enumerate() {
        let via = if i % 2 == 0 { Via::File } else { Via::Stdin };
        if let Err(e) = check(text, via, &format!("modern-error-{name}"), needle) {
            failed.push(format!("{name}: {e}\n  input: {text}"));
        }
    }
    eprintln!(
        "modern bad input: {} cases, {} failed",
        cases.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {} modern bad inputs mishandled:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

/// The cases themselves, without the binary: names are unique and every
/// field-does-not-apply case differs from a valid document by that field.
#[test]
fn modern_bad_input_cases_are_distinct() {
    let cases = cases();
    let mut names: Vec<&str> = cases.iter().map(|(n, _, _)| n.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate case names");
    // 15 fields over 13 kinds, minus the pairs that apply
    let refusals: usize = fields().iter().map(|(_, _, a)| KINDS.len() - a.len()).sum();
    assert!(cases.len() > refusals + 50, "{} cases", cases.len());
}
