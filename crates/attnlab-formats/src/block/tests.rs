//! The `attnlab-block/1` reader on hand-made documents: every field wrong in turn is
//! named by its path.

use serde_json::{Value, json};

use super::*;

fn eye(d: usize) -> Value {
    json!(
        (0..d)
            .map(|i| (0..d)
                .map(|j| if i == j { 1.0 } else { 0.0 })
                .collect::<Vec<f64>>())
            .collect::<Vec<_>>()
    )
}

fn norm(d: usize) -> Value {
    json!({"gain": vec![1.0; d], "bias": vec![0.0; d]})
}

fn attention(d: usize, causal: bool) -> Value {
    json!({"heads": 2, "w_q": eye(d), "w_k": eye(d), "w_v": eye(d), "w_o": eye(d), "causal": causal})
}

/// A valid two-layer document of width 4 (ffn width 8), with a memory when asked.
fn valid(memory: bool) -> Value {
    let d = 4;
    let layer = |_| {
        let mut l = json!({
            "self": attention(d, true),
            "ln_self": norm(d),
            "ln_ffn": norm(d),
            "ffn": {
                "w_1": vec![vec![0.1; 8]; d],
                "b_1": vec![0.0; 8],
                "w_2": vec![vec![0.1; d]; 8],
                "b_2": vec![0.0; d],
                "activation": "gelu"
            }
        });
        if memory {
            l["cross"] = attention(d, false);
            l["ln_cross"] = norm(d);
        }
        l
    };
    let mut doc = json!({
        "format": "attnlab-block/1",
        "x": [[1, 2, 3, 4], [0, 1, 0, 1], [2, 0, 1, 1]],
        "norm": "pre",
        "layers": (0..2).map(layer).collect::<Vec<_>>(),
    });
    if memory {
        doc["memory"] = json!([[1, 0, 0, 0], [0, 0, 1, 1]]);
    }
    doc
}

fn refused(doc: &Value) -> String {
    parse_block(&doc.to_string()).unwrap_err().to_string()
}

fn with(memory: bool, f: impl FnOnce(&mut Value)) -> String {
    let mut doc = valid(memory);
    f(&mut doc);
    refused(&doc)
}

#[test]
fn a_valid_document_reads_and_runs() {
    for memory in [false, true] {
        let doc = parse_block(&valid(memory).to_string()).unwrap();
        assert_eq!(doc.block.layers().len(), 2);
        assert_eq!(doc.block.norm(), Norm::Pre);
        assert_eq!(doc.block.eps(), DEFAULT_EPS);
        assert_eq!(doc.memory.is_some(), memory);
        let run = doc.block.run(&doc.x, doc.memory.as_ref()).unwrap();
        assert_eq!(run.output.dim(), (3, 4));
        doc.block.decode(&doc.x, doc.memory.as_ref()).unwrap();
    }
}

#[test]
fn every_field_wrong_is_named_by_its_path() {
    let cases: Vec<(String, &str)> = vec![
        (
            with(false, |d| {
                d["layers"][1]["ffn"]["w_1"][3] = json!(vec![0.1; 7])
            }),
            "layers[1].ffn.w_1[3]: expected 8 numbers, found 7",
        ),
        (
            with(false, |d| {
                d["layers"][0]["self"]["w_k"][2] = json!([1, 2, 3])
            }),
            "layers[0].self.w_k[2]: expected 4 numbers, found 3",
        ),
        (
            with(false, |d| {
                d["layers"][0]["self"]["w_q"] = json!(vec![vec![0.0; 4]; 3])
            }),
            "layers[0].self.w_q: has 3 rows, expected 4 (d, the width of x)",
        ),
        (
            with(false, |d| {
                d["layers"][1]["ffn"]["w_2"] = json!(vec![vec![0.0; 4]; 7])
            }),
            "layers[1].ffn.w_2: has 7 rows, expected 8 (f, the columns of ffn.w_1)",
        ),
        (
            with(false, |d| {
                d["layers"][1]["ffn"]["w_1"] = json!(vec![vec![0.0; 8]; 5])
            }),
            "layers[1].ffn.w_1: has 5 rows, expected 4 (d, the width of x)",
        ),
        (
            with(false, |d| d["layers"][0]["ffn"]["b_1"] = json!([0, 0])),
            "layers[0].ffn.b_1: expected 8 numbers, found 2",
        ),
        (
            with(false, |d| {
                d["layers"][0]["ln_ffn"]["gain"] = json!([1, 1, 1])
            }),
            "layers[0].ln_ffn.gain: expected 4 numbers, found 3",
        ),
        (
            with(false, |d| {
                d["layers"][1]["self"]["b_o"] = json!([0, 0, 0, 0, 0])
            }),
            "layers[1].self.b_o: expected 4 numbers, found 5",
        ),
        (
            with(false, |d| d["layers"][0]["self"]["heads"] = json!(3)),
            "layers[0].self.heads: must divide d_model = 4 (so d_k = d_model / heads is whole), got 3",
        ),
        (
            with(false, |d| d["layers"][0]["self"]["heads"] = json!(-1)),
            "layers[0].self.heads: invalid value: integer `-1`, expected a non-negative integer",
        ),
        (
            with(false, |d| {
                d["layers"][1]["ffn"]["activation"] = json!("tanh")
            }),
            "layers[1].ffn.activation: is the string \"tanh\", expected one of \"relu\", \"gelu\"",
        ),
        (
            with(false, |d| d["norm"] = json!("middle")),
            "norm: is the string \"middle\", expected one of \"post\", \"pre\"",
        ),
        (
            with(false, |d| d["layer_norm_eps"] = json!(0)),
            "layer_norm_eps: must be a finite number greater than 0, got 0",
        ),
        (
            with(false, |d| d["x"][1] = json!([1, 2])),
            "x[1]: expected 4 numbers, found 2",
        ),
        (
            with(false, |d| d["x"] = json!([])),
            "x: has no rows, expected at least one",
        ),
        (
            with(false, |d| d["x"][0][0] = json!("a")),
            "x[0][0]: invalid type: string \"a\", expected f32",
        ),
        (
            with(false, |d| d["layers"] = json!([])),
            "layers: is empty, expected at least one layer",
        ),
        (
            with(false, |d| {
                d["layers"][0].as_object_mut().unwrap().remove("ln_self");
            }),
            "layers[0].ln_self: missing",
        ),
        (
            with(false, |d| d["layers"][0]["ffn"]["w_3"] = json!(1)),
            "layers[0].ffn.w_3: is not a field of attnlab-block/1",
        ),
        (
            with(false, |d| d["format"] = json!("attnlab-tensors/1")),
            "format: is the string \"attnlab-tensors/1\", expected \"attnlab-block/1\"",
        ),
        (
            with(false, |d| d["final_norm"] = json!({"gain": [1, 1, 1, 1]})),
            "final_norm.bias: missing",
        ),
        (
            with(false, |d| d["layers"][0]["cross"] = attention(4, false)),
            "layers[0].cross: with a memory, every layer has cross-attention; without one, none has",
        ),
        (
            with(true, |d| {
                d["layers"][1].as_object_mut().unwrap().remove("cross");
            }),
            "layers[1].cross: missing",
        ),
        (
            with(true, |d| d["layers"][1]["cross"]["causal"] = json!(true)),
            "layers[1].cross.causal: cross-attention cannot be causal: its keys are the memory's positions, not the queries'",
        ),
        (
            with(true, |d| d["memory"][1] = json!([1, 2, 3])),
            "memory[1]: expected 4 numbers, found 3",
        ),
        (
            with(true, |d| d["layers"][0]["ln_cross"]["bias"] = json!([0, 0])),
            "layers[0].ln_cross.bias: expected 4 numbers, found 2",
        ),
        (
            parse_block(
                &valid(false)
                    .to_string()
                    .replacen("\"w_v\":[[1.0", "\"w_v\":[[1e999", 1),
            )
            .unwrap_err()
            .to_string(),
            "layers[0].self.w_v[0][0]: is 1e+999, outside the f32 range (|x| ≤ 3.4e38)",
        ),
    ];
    let wrong: Vec<String> = cases
        .into_iter()
        .filter(|(got, want)| got != want)
        .map(|(got, want)| format!("got  {got}\nwant {want}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn refusals_are_said_in_chinese_too() {
    let e = parse_block(
        &{
            let mut d = valid(false);
            d["layers"][1]["ffn"]["w_2"] = json!(vec![vec![0.0; 4]; 7]);
            d
        }
        .to_string(),
    )
    .unwrap_err();
    assert_eq!(
        e.text(attnlab_i18n::Lang::Zh),
        "layers[1].ffn.w_2：有 7 行，应有 8 行（f，即 ffn.w_1 的列数）"
    );
}

#[test]
fn optional_fields_take_their_defaults() {
    let mut doc = valid(false);
    let fields = doc.as_object_mut().unwrap();
    fields.remove("format");
    fields.remove("norm");
    let ffn = doc["layers"][0]["ffn"].as_object_mut().unwrap();
    ffn.remove("b_1");
    ffn.remove("b_2");
    ffn.remove("activation");
    let read = parse_block(&doc.to_string()).unwrap();
    assert_eq!(read.block.norm(), Norm::Post);
    let ffn = &read.block.layers()[0].ffn;
    assert_eq!(ffn.activation, Activation::Relu);
    assert_eq!(ffn.b_1, Array1::<f32>::zeros(8));
    assert_eq!(read.block.layers()[0].self_attention.b_q, None);
}
