//! Hand-checkable cases of `attnlab block`, and bad documents.

use serde_json::{Value, json};

use super::common::rng::Rng;
use super::common::{block_refused, block_result};
use super::{Shape, document};

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().unwrap().iter().map(numbers).collect()
}

fn largest_difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn shape(n: usize, causal: bool, pre: bool) -> Shape {
    Shape {
        n,
        d: 4,
        layers: 2,
        memory: None,
        pre,
        causal,
        final_norm: false,
    }
}

#[test]
fn one_token_attends_to_itself_with_weight_1() {
    let mut rng = Rng::new(0x5EED_B200);
    for pre in [false, true] {
        let doc = document(
            &mut rng,
            Shape {
                memory: Some(3),
                ..shape(1, true, pre)
            },
        );
        let out = block_result(&doc, false);
        for layer in out["layers"].as_array().unwrap() {
            for head in layer["self_attention"].as_array().unwrap() {
                assert_eq!(head, &json!([[1.0]]));
            }
            // Over a memory of 3 the one query's weights sum to 1.
            for head in layer["cross_attention"].as_array().unwrap() {
                let sum: f64 = numbers(&head[0]).iter().sum();
                assert!((sum - 1.0).abs() < 1e-6, "{sum}");
            }
        }
    }
}

#[test]
fn post_ln_rows_have_mean_0_and_variance_1_before_gain_and_bias() {
    let mut rng = Rng::new(0x5EED_B201);
    let mut doc = document(&mut rng, shape(5, false, false));
    for layer in doc["layers"].as_array_mut().unwrap() {
        layer["ln_ffn"] = json!({"gain": [1, 1, 1, 1], "bias": [0, 0, 0, 0]});
    }
    let out = block_result(&doc, false);
    for layer in out["layers"].as_array().unwrap() {
        for row in matrix(&layer["output"]) {
            let mean = row.iter().sum::<f64>() / 4.0;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 4.0;
            assert!(mean.abs() < 1e-6, "mean {mean}");
            // σ²/(σ² + ε) with ε = 1e-5: 1 to within 1e-4 for rows that are not flat.
            assert!((var - 1.0).abs() < 1e-3, "variance {var}");
        }
    }
}

/// `doc` with its tokens' rows in `order`.
fn permuted(doc: &Value, order: &[usize]) -> Value {
    let mut p = doc.clone();
    let x = doc["x"].as_array().unwrap();
    p["x"] = json!(order.iter().map(|&i| x[i].clone()).collect::<Vec<_>>());
    p
}

#[test]
fn the_feed_forward_works_on_each_token_alone_attention_mixes_them() {
    let mut rng = Rng::new(0x5EED_B202);
    let with_attention = document(&mut rng, shape(5, false, false));
    // Attention switched off: W_V = W_O = 0 and no biases, so each layer is LN and the
    // feed-forward on each token, a convolution of width 1.
    let mut alone = with_attention.clone();
    for layer in alone["layers"].as_array_mut().unwrap() {
        let a = &mut layer["self"];
        a["w_v"] = json!(vec![vec![0.0; 4]; 4]);
        a["w_o"] = json!(vec![vec![0.0; 4]; 4]);
        a["b_o"] = json!([0, 0, 0, 0]);
    }
    let mut changed_x = with_attention["x"].clone();
    changed_x[2] = json!([3.0, -1.0, 0.5, 2.0]);
    for (doc, mixes) in [(&alone, false), (&with_attention, true)] {
        let mut changed = doc.clone();
        changed["x"] = changed_x.clone();
        let (a, b) = (
            matrix(&block_result(doc, false)["output"]),
            matrix(&block_result(&changed, false)["output"]),
        );
        for i in 0..5 {
            let moved = largest_difference(&a[i..=i], &b[i..=i]) > 1e-4;
            assert_eq!(moved, i == 2 || mixes, "row {i}, attention mixing: {mixes}");
        }
    }
    // Permuting the tokens permutes the feed-forward's output; causal attention does not
    // permute with them.
    let order = [4, 1, 0, 3, 2];
    let out = matrix(&block_result(&alone, false)["output"]);
    let p = matrix(&block_result(&permuted(&alone, &order), false)["output"]);
    let reordered: Vec<Vec<f64>> = order.iter().map(|&i| out[i].clone()).collect();
    assert!(largest_difference(&p, &reordered) < 1e-5);
    let causal = document(&mut rng, shape(5, true, true));
    let out = matrix(&block_result(&causal, false)["output"]);
    let p = matrix(&block_result(&permuted(&causal, &order), false)["output"]);
    let reordered: Vec<Vec<f64>> = order.iter().map(|&i| out[i].clone()).collect();
    assert!(largest_difference(&p, &reordered) > 1e-2);
}

/// A one-feature pre-LN layer whose output is `GELU(v)`: attention's values are 0, and
/// LayerNorm of one feature is its bias, `v`, which the feed-forward (`W₁ = W₂ = 1`)
/// passes through GELU onto `x = 0`.
fn gelu_of(v: f64) -> f64 {
    let doc = json!({
        "x": [[0.0]],
        "norm": "pre",
        "layers": [{
            "self": {"heads": 1, "w_q": [[1]], "w_k": [[1]], "w_v": [[0]], "w_o": [[0]]},
            "ln_self": {"gain": [1], "bias": [0]},
            "ln_ffn": {"gain": [1], "bias": [v]},
            "ffn": {"w_1": [[1]], "w_2": [[1]], "activation": "gelu"}
        }]
    });
    block_result(&doc, false)["output"][0][0].as_f64().unwrap()
}

#[test]
fn gelu_at_hand_checked_points() {
    assert_eq!(gelu_of(0.0), 0.0);
    assert_eq!(gelu_of(10.0), 10.0);
    assert_eq!(gelu_of(-10.0), 0.0);
    // Φ(1) = 0.8413447461, Φ(−0.5) = 0.3085375387.
    assert!((gelu_of(1.0) - 0.841_344_746).abs() < 1e-6);
    assert!((gelu_of(-0.5) + 0.154_268_769).abs() < 1e-6);
    // The reference's GELU agrees.
    assert!((super::reference::gelu(1.0) - 0.841_344_746_1).abs() < 1e-9);
}

#[test]
fn bad_documents_exit_2_with_one_line_naming_the_path() {
    let mut rng = Rng::new(0x5EED_B203);
    let valid = document(
        &mut rng,
        Shape {
            memory: Some(2),
            ..shape(3, true, false)
        },
    );
    let heads_of = |l: usize| valid["layers"][l]["self"]["heads"].as_u64().unwrap();
    assert!(heads_of(0) >= 1);
    let f = valid["layers"][1]["ffn"]["w_1"][0]
        .as_array()
        .unwrap()
        .len();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut d = valid.clone();
        f(&mut d);
        d
    };
    let cases: Vec<(Value, String)> = vec![
        (
            with(&|d| d["layers"][1]["ffn"]["w_1"][3] = json!(vec![0.5; f + 1])),
            match f {
                1 => "layers[1].ffn.w_1[3]: expected 1 number, found 2".to_string(),
                f => format!("layers[1].ffn.w_1[3]: expected {f} numbers, found {}", f + 1),
            },
        ),
        (
            with(&|d| d["layers"][0]["cross"]["heads"] = json!(3)),
            "layers[0].cross.heads: must divide d_model = 4 (so d_k = d_model / heads is whole), got 3".into(),
        ),
        (
            with(&|d| d["layers"][1]["ffn"]["activation"] = json!("swish")),
            "layers[1].ffn.activation: is the string \"swish\", expected one of \"relu\", \"gelu\"".into(),
        ),
        (
            with(&|d| d["layers"][0]["ln_cross"]["gain"] = json!([1, 1])),
            "layers[0].ln_cross.gain: expected 4 numbers, found 2".into(),
        ),
        (
            with(&|d| d["layers"][0]["self"]["w_o"][1][2] = json!(null)),
            "layers[0].self.w_o[1][2]: invalid type: null, expected f32".into(),
        ),
        (
            with(&|d| d["layers"][0]["self"]["bias_q"] = json!([0, 0, 0, 0])),
            "layers[0].self.bias_q: is not a field of attnlab-block/1".into(),
        ),
        (
            with(&|d| {
                d.as_object_mut().unwrap().remove("memory");
            }),
            "layers[0].cross: with a memory, every layer has cross-attention; without one, none has".into(),
        ),
        (
            with(&|d| d["memory"] = json!([])),
            "memory: has no rows, expected at least one".into(),
        ),
        (
            with(&|d| d["norm"] = json!(1)),
            "norm: invalid type: integer `1`, expected a string".into(),
        ),
        (
            with(&|d| d["layer_norm_eps"] = json!(-1e-5)),
            "layer_norm_eps: must be a finite number greater than 0, got -0.00001".into(),
        ),
    ];
    let mut wrong = Vec::new();
    for (doc, want) in cases {
        let got = block_refused(&doc, false);
        if got != want {
            wrong.push(format!("got  {got}\nwant {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Not JSON at all: the document itself.
    let o = super::common::block(&json!("x"), false);
    assert_eq!(o.status.code(), Some(2));
}
