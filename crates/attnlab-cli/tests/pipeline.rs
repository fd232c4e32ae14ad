//! `attnlab compute` with the fields of the logits pipeline and of the positions:
//! `positions` (RoPE), `alibi`, `softcap`, `kv_heads`, `tiles` and `mask.sinks`. Each is
//! accepted and changes the numbers as its definition says (hand-checked cases); each bad
//! value or misplaced field exits 2 with one line naming its path.

mod common;

use common::{refused, result};
use serde_json::{Value, json};

fn weight(r: &Value, h: usize, i: usize, j: usize) -> f64 {
    r["heads"][h]["weights"][i][j].as_f64().unwrap()
}

fn close(got: f64, want: f64, label: &str) {
    assert!((got - want).abs() < 1e-6, "{label}: {got} against {want}");
}

/// One query (1, 0) and two keys (1, 0), values 1 and 0.
fn two_keys() -> Value {
    json!({"heads": [{"q": [[1, 0]], "k": [[1, 0], [1, 0]], "v": [[1], [0]]}]})
}

#[test]
fn rope_turns_the_keys_by_their_positions() {
    // d = 2, θ_0 = 1: key 1 at position π/2 turns to (0, 1), so its score is 0 against
    // 1/√2 for key 0 at position 0: weights 1/(1 + e^(−1/√2)) and 1/(1 + e^(1/√2)).
    let mut doc = two_keys();
    doc["positions"] = json!({
        "kind": "rope", "query_positions": [0], "key_positions": [0, std::f32::consts::FRAC_PI_2]
    });
    let r = result(&doc);
    let s = 0.5f64.sqrt();
    close(weight(&r, 0, 0, 0), 1.0 / (1.0 + (-s).exp()), "key 0");
    close(weight(&r, 0, 0, 1), 1.0 / (1.0 + s.exp()), "key 1");
    // Without positions both keys sit at their rows' numbers 0 and 1: key 1 turns 1 rad.
    doc["positions"] = json!({"kind": "rope"});
    let r = result(&doc);
    let z = 1f64.cos() * s;
    close(
        weight(&r, 0, 0, 1),
        1.0 / (1.0 + (s - z).exp()),
        "default positions",
    );
    // Every layout and scaling is accepted.
    for positions in [
        json!({"kind": "rope", "pairs": "interleaved", "base": 500, "rotary_dims": 2}),
        json!({"kind": "rope", "scaling": {"kind": "linear", "factor": 2}}),
        json!({"kind": "rope", "rotary_dims": 2, "scaling": {"kind": "yarn", "factor": 4, "original_max_positions": 64}}),
        json!({"kind": "rope", "scaling": {"kind": "yarn", "factor": 4, "original_max_positions": 64, "beta_fast": 8, "beta_slow": 2}}),
    ] {
        doc["positions"] = positions;
        let r = result(&doc);
        close(
            r["heads"][0]["row_sum"][0].as_f64().unwrap(),
            1.0,
            "row_sum",
        );
    }
    // YaRN with r = 2, L = 64: corr(32) < 0 and corr(1) = ln(64/2π)/ln 10000 = 0.25, so
    // low = 0, high = 1 and pair 0 keeps θ_0 = 1 (ramp 0); cos and sin are multiplied by
    // mscale = 0.1 ln 4 + 1 in q and k alike, so both scores grow by mscale².
    doc["positions"] = json!({"kind": "rope", "scaling": {"kind": "yarn", "factor": 4, "original_max_positions": 64}});
    let r = result(&doc);
    let mscale = 0.1 * 4f64.ln() + 1.0;
    let (s0, s1) = (mscale * mscale * s, mscale * mscale * 1f64.cos() * s);
    close(weight(&r, 0, 0, 1), 1.0 / (1.0 + (s0 - s1).exp()), "yarn");
    let mut wide = json!({"heads": [{"q": [[1, 0, 0, 1]], "k": [[1, 0, 0, 1]], "v": [[1]]}]});
    wide["positions"] = json!({"kind": "rope", "scaling": {"kind": "ntk", "factor": 2}});
    result(&wide);
}

#[test]
fn half_and_interleaved_pair_different_dimensions() {
    // d = 4, base 100: θ_0 = 1, θ_1 = 0.1. The key (0, 1, 0, 0) at position 1: `half`
    // pairs dims (1, 3) and turns it by θ_1 = 0.1 rad, `interleaved` pairs (0, 1) and
    // turns it by θ_0 = 1 rad. Against the query (0, 1, 0, 0) at position 0 it scores
    // cos(angle)/√4, and key 0 (position 0) scores 1/2: weight 1/(1 + e^((1 − cos)/2)).
    let doc = |pairs: &str| {
        json!({
            "heads": [{"q": [[0, 1, 0, 0]], "k": [[0, 1, 0, 0], [0, 1, 0, 0]], "v": [[1], [0]]}],
            "positions": {"kind": "rope", "base": 100, "pairs": pairs}
        })
    };
    for (pairs, angle) in [("half", 0.1f64), ("interleaved", 1.0)] {
        let r = result(&doc(pairs));
        let want = 1.0 / (1.0 + ((1.0 - angle.cos()) / 2.0).exp());
        close(weight(&r, 0, 0, 1), want, pairs);
    }
}

#[test]
fn alibi_biases_by_distance_with_the_papers_slopes() {
    // Two heads of zero queries: scores 0; the paper's slopes for 2 heads are 2^−4 and
    // 2^−8, so row 0 gives key 1 the logit −m_h: weight 1/(1 + e^(m_h)).
    let zero = json!({"q": [[0], [0]], "k": [[0], [0]], "v": [[1], [0]]});
    let doc = json!({"heads": [zero, zero], "alibi": true});
    let r = result(&doc);
    close(
        weight(&r, 0, 0, 1),
        1.0 / (1.0 + (1.0f64 / 16.0).exp()),
        "head 0",
    );
    close(
        weight(&r, 1, 0, 1),
        1.0 / (1.0 + (1.0f64 / 256.0).exp()),
        "head 1",
    );
    let doc = json!({"heads": [zero, zero], "alibi": {"slopes": [1, 0]}});
    let r = result(&doc);
    close(weight(&r, 0, 1, 0), 1.0 / (1.0 + 1f64.exp()), "slope 1");
    close(weight(&r, 1, 1, 0), 0.5, "slope 0");
    // `false` is no ALiBi.
    let r = result(&json!({"heads": [zero], "alibi": false}));
    close(weight(&r, 0, 0, 1), 0.5, "alibi false");
}

#[test]
fn softcap_bounds_the_logits() {
    // Scores ±10000 (dot), capped at 1: logits tanh(±10000) = ±1, weights e/(e + e^−1).
    let doc = json!({
        "heads": [{"q": [[100]], "k": [[100], [-100]], "v": [[1], [0]]}],
        "score": "dot", "softcap": 1
    });
    let r = result(&doc);
    close(weight(&r, 0, 0, 0), 1.0 / (1.0 + (-2f64).exp()), "capped");
}

#[test]
fn kv_heads_share_keys_and_values() {
    // Four heads, two groups: heads 0, 1 read group 0 and heads 2, 3 group 1; the same
    // query in every head, so heads of a group agree and the groups differ.
    let q = json!({"q": [[1, 2]]});
    let doc = json!({
        "heads": [q, q, q, q],
        "kv_heads": [
            {"k": [[1, 0], [0, 1]], "v": [[1], [2]]},
            {"k": [[0, 1], [1, 0]], "v": [[3], [4]]}
        ]
    });
    let r = result(&doc);
    let w = |h| r["heads"][h]["weights"].clone();
    assert_eq!(w(0), w(1));
    assert_eq!(w(2), w(3));
    assert_ne!(w(0), w(2));
    // Head 0 against the same keys given per head.
    let alone =
        result(&json!({"heads": [{"q": [[1, 2]], "k": [[1, 0], [0, 1]], "v": [[1], [2]]}]}));
    assert_eq!(r["heads"][0], alone["heads"][0]);
}

#[test]
fn tiles_give_the_same_weights_and_say_so() {
    let doc = json!({
        "heads": [{"q": [[1, 0], [0, 1], [1, 1]], "k": [[1, 0], [0, 1], [2, 1]], "v": [[1], [2], [3]]}],
        "mask": {"causal": true}
    });
    let plain = result(&doc);
    for b in [1, 2, 3, 9] {
        let mut tiled = doc.clone();
        tiled["tiles"] = json!(b);
        let r = result(&tiled);
        assert_eq!(r["heads"][0]["computation"], "tiled");
        for i in 0..3 {
            for j in 0..3 {
                close(
                    weight(&r, 0, i, j),
                    weight(&plain, 0, i, j),
                    &format!("B = {b}"),
                );
            }
            let (a, b) = (
                &r["heads"][0]["output"][i][0],
                &plain["heads"][0]["output"][i][0],
            );
            close(a.as_f64().unwrap(), b.as_f64().unwrap(), "output");
        }
    }
    assert_eq!(plain["heads"][0]["computation"], "quadratic");
}

#[test]
fn sinks_keep_the_first_keys_open() {
    // Window 0 keeps only the diagonal; one sink adds key 0 to every row.
    let zero = json!({"q": [[0], [0], [0]], "k": [[0], [0], [0]], "v": [[1], [2], [3]]});
    let r = result(&json!({"heads": [zero], "mask": {"window": 0, "sinks": 1}}));
    let w = &r["heads"][0]["weights"];
    assert_eq!(
        w,
        &json!([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.0, 0.5]])
    );
    assert_eq!(r["heads"][0]["row_sum"], json!([1.0, 1.0, 1.0]));
}

/// `base` with `field` set to `value` (a path of object keys).
fn with(base: &Value, path: &[&str], value: Value) -> Value {
    let mut doc = base.clone();
    let mut at = &mut doc;
    for key in &path[..path.len() - 1] {
        at = &mut at[*key];
    }
    at[path[path.len() - 1]] = value;
    doc
}

#[test]
fn bad_values_and_misplaced_fields_exit_2_naming_their_path() {
    let base = two_keys();
    let rope = with(&base, &["positions"], json!({"kind": "rope"}));
    let scaled = |scaling: Value| with(&rope, &["positions", "scaling"], scaling);
    let zero = json!({"q": [[0], [0]], "k": [[0], [0]], "v": [[1], [0]]});
    let q_only = json!({"q": [[1, 2]]});
    let kv = json!({"k": [[1, 0]], "v": [[1]]});
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&base, &["positions"], json!({})),
            "positions.kind: missing",
        ),
        (
            with(&base, &["positions"], json!({"kind": "alibi"})),
            r#"positions.kind: is the string "alibi", expected one of "rope""#,
        ),
        (
            with(&rope, &["positions", "pairs"], json!("zigzag")),
            r#"positions.pairs: is the string "zigzag", expected one of "half", "interleaved""#,
        ),
        (
            with(&rope, &["positions", "base"], json!(0)),
            "positions.base: must be a finite number greater than 0, got 0",
        ),
        (
            with(&rope, &["positions", "rotary_dims"], json!(3)),
            "positions.rotary_dims: must be an even number from 2 to d_k = 2 (dimensions turn in pairs), got 3",
        ),
        (
            json!({"heads": [{"q": [[1]], "k": [[1]], "v": [[1]]}], "positions": {"kind": "rope"}}),
            "positions.rotary_dims: RoPE turns dimensions in pairs, so a head of odd width d_k = 1 needs an even rotary_dims",
        ),
        (
            with(&rope, &["positions", "key_positions"], json!([0])),
            "positions.key_positions: has 1 positions, expected 2 (one per row)",
        ),
        (
            with(&rope, &["positions", "query_positions"], json!(["a"])),
            r#"positions.query_positions[0]: invalid type: string "a", expected f32"#,
        ),
        (
            scaled(json!({"factor": 2})),
            "positions.scaling.kind: missing",
        ),
        (
            scaled(json!({"kind": "dynamic", "factor": 2})),
            r#"positions.scaling.kind: is the string "dynamic", expected one of "linear", "ntk", "yarn""#,
        ),
        (
            scaled(json!({"kind": "linear"})),
            "positions.scaling.factor: missing",
        ),
        (
            scaled(json!({"kind": "linear", "factor": -1})),
            "positions.scaling.factor: must be a finite number greater than 0, got -1",
        ),
        (
            scaled(json!({"kind": "linear", "factor": 2, "beta_fast": 32})),
            "positions.scaling.beta_fast: linear scaling does not use this field",
        ),
        (
            scaled(json!({"kind": "ntk", "factor": 2})),
            "positions.scaling: NTK scaling needs rotary_dims of at least 4 (its exponent is r/(r − 2))",
        ),
        (
            scaled(json!({"kind": "yarn", "factor": 2})),
            "positions.scaling.original_max_positions: missing",
        ),
        (
            scaled(json!({"kind": "yarn", "factor": 2, "original_max_positions": 0})),
            "positions.scaling.original_max_positions: must be a finite number greater than 0, got 0",
        ),
        (
            with(&base, &["alibi"], json!(3)),
            r#"alibi: is 3, expected true or {"slopes": […]}"#,
        ),
        (with(&base, &["alibi"], json!({})), "alibi.slopes: missing"),
        (
            with(&base, &["alibi"], json!({"slopes": [1, 2]})),
            "alibi.slopes: has 2 slopes, expected 1 (one per head)",
        ),
        (
            with(
                &with(&base, &["alibi"], json!(true)),
                &["attention"],
                json!("elu1"),
            ),
            "alibi: elu1 attention does not use this field",
        ),
        (
            with(&base, &["softcap"], json!(0)),
            "softcap: is 0, expected a number greater than 0",
        ),
        (
            with(&base, &["softcap"], json!("big")),
            r#"softcap: invalid type: string "big", expected f32"#,
        ),
        (
            with(
                &with(&base, &["softcap"], json!(5)),
                &["attention"],
                json!("relu"),
            ),
            "softcap: relu attention does not use this field",
        ),
        (
            with(&base, &["tiles"], json!(0)),
            "tiles: is 0, expected an integer ≥ 1",
        ),
        (
            with(&base, &["tiles"], json!(1.5)),
            "tiles: invalid type: floating point `1.5`, expected a non-negative integer",
        ),
        (
            with(
                &with(&base, &["tiles"], json!(2)),
                &["attention"],
                json!("taylor"),
            ),
            "tiles: taylor attention does not use this field",
        ),
        (
            json!({"heads": [q_only], "kv_heads": []}),
            "kv_heads: is empty, expected at least one group of k and v",
        ),
        (
            json!({"heads": [q_only, q_only, q_only], "kv_heads": [kv, kv]}),
            "kv_heads: has 2 groups, which do not divide the 3 heads (each group serves H/G heads)",
        ),
        (
            json!({"heads": [{"q": [[1, 2]], "k": [[1, 0]]}], "kv_heads": [kv]}),
            "heads[0].k: is given by kv_heads: with kv_heads a head holds only q",
        ),
        (
            json!({"heads": [{"q": [[1, 2]], "v": [[1]]}], "kv_heads": [kv]}),
            "heads[0].v: is given by kv_heads: with kv_heads a head holds only q",
        ),
        (
            json!({"heads": [q_only, q_only], "kv_heads": [kv, {"k": [[1, 0], [0, 1]], "v": [[1], [2]]}]}),
            "kv_heads[1].k: has 2 rows, expected 1 (as kv_heads[0].k)",
        ),
        (
            json!({"heads": [q_only], "kv_heads": [{"k": [[1, 0]]}]}),
            "kv_heads[0].v: missing",
        ),
        (
            json!({"heads": [q_only], "kv_heads": [{"k": [[1, 0, 0]], "v": [[1]]}]}),
            "kv_heads[0].k: rows have 3 values, expected 2 (the width of q)",
        ),
        (
            json!({"heads": [zero], "mask": {"sinks": 3}}),
            "mask.sinks: is 3, more than the 2 keys",
        ),
        (
            json!({"heads": [zero], "mask": {"sinks": 1}, "attention": "efficient"}),
            "mask.sinks: efficient attention cannot apply a sinks mask (efficient attention normalises keys over all positions at once, so only padding can be applied)",
        ),
    ];
    for (doc, want) in cases {
        assert_eq!(refused(&doc), want, "{doc}");
    }
}
