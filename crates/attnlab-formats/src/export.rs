//! A figure's matrix as files: CSV and JSON with its token labels, and the file names
//! every export uses (they say what they hold).

use attnlab_core::attention::Problem;
use attnlab_core::score::ScoreParams;
use attnlab_plot::{Heatmap, LineChart};
use ndarray::{Array1, Array2};
use serde::Serialize;
use serde_json::{Value, json};

/// The format tag of a matrix exported as JSON.
pub const MATRIX_FORMAT: &str = "attnlab-matrix/1";

/// `attnlab-` and the figure's title in lower-case words joined by `-` (at most 80
/// characters), then `.ext`; e.g. `"A · scaled dot-product softmax · Head 2"` →
/// `attnlab-a-scaled-dot-product-softmax-head-2.svg`.
pub fn file_name(title: &str, ext: &str) -> String {
    let mut slug = String::new();
    for word in title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let word = word.to_lowercase();
        if slug.len() + word.len() + 1 > 80 {
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word);
    }
    if slug.is_empty() {
        slug.push_str("figure");
    }
    format!("attnlab-{slug}.{ext}")
}

/// The matrix as CSV: a header of the column labels (after the axis names), then one
/// line per row, its label first. Labels with commas, quotes or line breaks are quoted.
pub fn csv(h: &Heatmap) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let corner = format!("{} \\ {}", h.row_axis(), h.col_axis());
    let header = std::iter::once(corner).chain(h.col_labels().iter().cloned());
    w.write_record(header).map_err(|e| e.to_string())?;
    for (i, label) in h.row_labels().iter().enumerate() {
        let values =
            (0..h.n_cols()).map(|j| h.value(i, j).map_or(String::new(), |v| v.to_string()));
        w.write_record(std::iter::once(label.clone()).chain(values))
            .map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// A chart's points as CSV: one line per point, `series,x,y` (the series' legend name,
/// or `series i`).
pub fn chart_csv(chart: &LineChart) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["series", &chart.x.label, &chart.y.label])
        .map_err(|e| e.to_string())?;
    for (i, s) in chart.series.iter().enumerate() {
        let name = s.name.clone().unwrap_or_else(|| format!("series {i}"));
        for (x, y) in &s.points {
            w.write_record([name.clone(), x.to_string(), y.to_string()])
                .map_err(|e| e.to_string())?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// A chart's points as JSON: `{"format": "attnlab-chart/1", "title", "x", "y",
/// "series": [{"name", "points": [[x, y], …]}, …]}`.
pub fn chart_json(chart: &LineChart) -> Result<String, String> {
    let series: Vec<Value> = chart
        .series
        .iter()
        .map(|s| json!({"name": s.name, "points": s.points}))
        .collect();
    let doc = json!({
        "format": "attnlab-chart/1",
        "title": chart.title,
        "x": chart.x.label,
        "y": chart.y.label,
        "series": series,
    });
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

/// The format tag of several matrices in one JSON file (every head of a variant, the
/// atlas, the token lines' heads).
pub const MATRICES_FORMAT: &str = "attnlab-matrices/1";

/// One of several matrices: its label (e.g. `head 2`, `L3 H5`) and its `rows × cols`
/// values, row-major.
#[derive(Debug, Clone, Copy)]
pub struct Labelled<'a> {
    /// What it is.
    pub label: &'a str,
    /// The row labels.
    pub rows: &'a [String],
    /// The column labels.
    pub cols: &'a [String],
    /// The values, row-major (`None`: blocked).
    pub values: &'a [Option<f32>],
}

/// Several matrices as CSV in long form, one line per cell: `matrix, row, column, value`
/// (a blocked cell has an empty value), so a spreadsheet or pandas can filter and pivot.
pub fn matrices_csv(value: &str, matrices: &[Labelled<'_>]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["matrix", "row", "column", value])
        .map_err(|e| e.to_string())?;
    for m in matrices {
        for (i, row) in m.rows.iter().enumerate() {
            for (j, col) in m.cols.iter().enumerate() {
                let v = m.values[i * m.cols.len() + j].map_or(String::new(), |v| v.to_string());
                w.write_record([m.label, row, col, &v])
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// Several matrices as one `attnlab-matrices/1` JSON document: the title, then each
/// matrix's label, row and column labels and values (`null`: blocked).
pub fn matrices_json(
    title: &str,
    value: &str,
    matrices: &[Labelled<'_>],
) -> Result<String, String> {
    let list: Vec<Value> = matrices
        .iter()
        .map(|m| {
            let values: Vec<&[Option<f32>]> = m.values.chunks(m.cols.len().max(1)).collect();
            json!({"label": m.label, "rows": m.rows, "cols": m.cols, "values": values})
        })
        .collect();
    let doc = json!({
        "format": MATRICES_FORMAT,
        "title": title,
        "value": value,
        "matrices": list,
    });
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

#[derive(Serialize)]
struct MatrixFile<'a> {
    format: &'static str,
    title: &'a str,
    value: &'a str,
    row_axis: &'a str,
    col_axis: &'a str,
    rows: &'a [String],
    cols: &'a [String],
    values: Vec<&'a [f32]>,
}

/// The matrix as JSON: `{"format": "attnlab-matrix/1", "title", "value", "row_axis",
/// "col_axis", "rows", "cols", "values": [[…], …]}`. Values are the shortest decimals
/// that read back as the same f32.
pub fn json(h: &Heatmap) -> Result<String, String> {
    let values = h.values().chunks(h.n_cols().max(1)).collect();
    let file = MatrixFile {
        format: MATRIX_FORMAT,
        title: h.title(),
        value: h.value_label(),
        row_axis: h.row_axis(),
        col_axis: h.col_axis(),
        rows: h.row_labels(),
        cols: h.col_labels(),
        values,
    };
    serde_json::to_string_pretty(&file).map_err(|e| e.to_string())
}

/// The format tag `attnlab compute` reads.
pub const TENSORS_FORMAT: &str = "attnlab-tensors/1";

/// A number as the shortest decimal that reads back as the same f32.
fn num(x: f32) -> Value {
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

fn rows(m: &Array2<f32>) -> Value {
    Value::Array(
        m.rows()
            .into_iter()
            .map(|r| Value::Array(r.iter().map(|&x| num(x)).collect()))
            .collect(),
    )
}

fn vector(v: &Array1<f32>) -> Value {
    Value::Array(v.iter().map(|&x| num(x)).collect())
}

/// A problem as an `attnlab-tensors/1` document: the token labels, every head's `Q`,
/// `K`, `V` (and the score function's and Linformer's parameters when they are used),
/// the score function, τ, the attention kind, the mask and `W^O`: `attnlab compute`
/// computes from it what the app shows.
pub fn tensors(problem: &Problem, queries: &[String], keys: &[String]) -> Result<String, String> {
    let spec = problem.spec();
    let heads: Vec<Value> = problem
        .heads()
        .iter()
        .map(|h| {
            let mut head = json!({"q": rows(&h.q), "k": rows(&h.k), "v": rows(&h.v)});
            match &h.score_params {
                ScoreParams::None => {}
                ScoreParams::General { w } => head["score_params"] = json!({"w": rows(w)}),
                ScoreParams::Additive { w_a, u_a, v_a } => {
                    head["score_params"] =
                        json!({"w_a": rows(w_a), "u_a": rows(u_a), "v_a": vector(v_a)})
                }
            }
            if let Some(l) = &h.linformer {
                head["linformer"] = json!({"e": rows(&l.e), "f": rows(&l.f)});
            }
            head
        })
        .collect();
    let m = &spec.mask;
    let mut mask = serde_json::Map::new();
    if m.causal {
        mask.insert("causal".into(), Value::Bool(true));
    }
    if let Some(r) = m.window {
        mask.insert("window".into(), json!(r));
    }
    if let Some(s) = m.strided {
        mask.insert("strided".into(), json!(s));
    }
    if !m.global.is_empty() {
        mask.insert("global".into(), json!(m.global));
    }
    if !m.padding_keys.is_empty() {
        mask.insert("padding_keys".into(), json!(m.padding_keys));
    }
    if let Some(c) = &m.custom {
        let cells: Vec<Vec<bool>> = c.rows().into_iter().map(|r| r.to_vec()).collect();
        mask.insert("custom".into(), json!(cells));
    }
    let mut doc = json!({
        "format": TENSORS_FORMAT,
        "query_tokens": queries,
        "key_tokens": keys,
        "heads": heads,
        "score": spec.score.name(),
        "temperature": num(spec.temperature),
        "attention": spec.attention.name(),
        "mask": Value::Object(mask),
    });
    if let Some(w_o) = problem.w_o() {
        doc["w_o"] = rows(w_o);
    }
    serde_json::to_string(&doc).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure() -> Heatmap {
        Heatmap::weights(
            "A · Head 2 · scaled dot-product softmax",
            vec!["didn't".into(), "a, \"b\"".into()],
            vec!["x".into(), "y".into()],
            vec![0.25, 0.75, 1.0, 0.0],
        )
        .unwrap()
    }

    fn chart() -> LineChart {
        use attnlab_plot::{Axis, AxisScale, LineDash, RGBColor, Series, Ticks};
        let axis = |label: &str| Axis {
            label: label.into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        };
        let series = |name: Option<&str>, points: Vec<(f64, f64)>| Series {
            name: name.map(String::from),
            points,
            color: RGBColor(0, 0, 0),
            dash: LineDash::Solid,
            markers: false,
        };
        LineChart {
            title: "Spread, with and without 1/√d_k".into(),
            x: axis("d_k"),
            y: axis("std of the logits"),
            series: vec![
                series(Some("scaled, \"1/√d_k\""), vec![(4.0, 1.0), (16.0, 1.0)]),
                series(None, vec![(4.0, 2.0)]),
            ],
            markers: Vec::new(),
            note: None,
        }
    }

    #[test]
    fn a_chart_exports_every_point_with_its_series() {
        let text = chart_csv(&chart()).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines[0], "series,d_k,std of the logits");
        assert_eq!(lines[1], "\"scaled, \"\"1/√d_k\"\"\",4,1");
        assert_eq!(lines[3], "series 1,4,2");
        assert_eq!(lines.len(), 4);
        let v: serde_json::Value = serde_json::from_str(&chart_json(&chart()).unwrap()).unwrap();
        assert_eq!(v["format"], "attnlab-chart/1");
        assert_eq!(v["series"][0]["points"][1], serde_json::json!([16.0, 1.0]));
        assert_eq!(v["series"][1]["name"], serde_json::Value::Null);
    }

    #[test]
    fn names_say_what_the_file_holds() {
        assert_eq!(
            file_name("A · Head 2 · scaled dot-product softmax", "svg"),
            "attnlab-a-head-2-scaled-dot-product-softmax.svg"
        );
        assert_eq!(file_name("我爱 · 头 1", "png"), "attnlab-我爱-头-1.png");
        assert_eq!(file_name(" · ", "csv"), "attnlab-figure.csv");
        assert!(file_name(&"word ".repeat(100), "json").len() <= "attnlab-".len() + 80 + 5);
    }

    #[test]
    fn csv_quotes_labels_and_keeps_every_value() {
        let text = csv(&figure()).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].ends_with(",x,y"), "{}", lines[0]);
        assert_eq!(lines[1], "didn't,0.25,0.75");
        assert_eq!(lines[2], "\"a, \"\"b\"\"\",1,0");
    }

    #[test]
    fn json_has_the_labels_and_the_rows() {
        let v: serde_json::Value = serde_json::from_str(&json(&figure()).unwrap()).unwrap();
        assert_eq!(v["format"], MATRIX_FORMAT);
        assert_eq!(v["rows"][1], "a, \"b\"");
        assert_eq!(v["values"][0][1], 0.75);
        assert_eq!(v["values"].as_array().unwrap().len(), 2);
        assert_eq!(v["value"], "weight");
    }
}
