//! The rows of each section of the table, read from the driver's report: what was
//! measured, this run's value and the id of its target.

use serde_json::Value;

use super::read::{array, field, int, ms, number, numbers, text};

/// One table row: what, this run's value, and the id of its target in `report.targets`.
pub(super) struct Row {
    pub(super) what: String,
    pub(super) value: String,
    pub(super) target: Option<String>,
}

pub(super) fn row(
    what: impl Into<String>,
    value: impl Into<String>,
    target: Option<String>,
) -> Row {
    Row {
        what: what.into(),
        value: value.into(),
        target,
    }
}

pub(super) fn kernel_rows(report: &Value) -> Result<Vec<Row>, String> {
    let k = field(report, "kernels")?;
    let roof = number(report, "roofGflops")?;
    let rows = array(k, "rows")?;
    let find = |group: &str, kernel: &str, n: f64, engine: &str| {
        rows.iter().find(|r| {
            r.get("group").and_then(Value::as_str) == Some(group)
                && r.get("kernel").and_then(Value::as_str) == Some(kernel)
                && r.get("n").and_then(Value::as_f64) == Some(n)
                && r.get("engine").and_then(Value::as_str) == Some(engine)
        })
    };
    let options = field(k, "options")?;
    let mut out = vec![row(
        "roof, this machine (register-only f32x4 multiplies and adds)",
        format!("{roof:.2} GFLOP/s"),
        None,
    )];
    let timed = |r: &Value| -> Result<String, String> {
        Ok(format!(
            "{} ms, {:.0}% of the roof",
            ms(number(r, "ms")?),
            number(r, "roofFraction")? * 100.0
        ))
    };
    let softmax_n = numbers(options, "softmaxN")?;
    let largest = softmax_n.iter().copied().fold(f64::NAN, f64::max);
    for n in &softmax_n {
        if let Some(r) = find("softmax", "app", *n, "attnlab simd") {
            let target = (*n == 512.0).then(|| "kernels.app-roof".to_owned());
            out.push(row(
                format!("softmax attention (app path), n = {}", int(*n)),
                timed(r)?,
                target,
            ));
        }
    }
    for n in &softmax_n {
        if let Some(r) = find("softmax", "qk", *n, "attnlab simd") {
            let target = if *n == 512.0 {
                Some("kernels.qk-roof".to_owned())
            } else if *n == largest {
                Some("kernels.qk-roof-largest".to_owned())
            } else {
                None
            };
            out.push(row(
                format!("Q·Kᵀ alone, n = {}", int(*n)),
                timed(r)?,
                target,
            ));
        }
    }
    for n in numbers(options, "linearN")? {
        if let Some(r) = find("linear", "global", n, "attnlab simd") {
            out.push(row(
                format!("linear elu1 non-causal, n = {}", int(n)),
                format!(
                    "{} ms (best sample {} ms)",
                    ms(number(r, "ms")?),
                    ms(number(r, "bestMs")?)
                ),
                (n == 65536.0).then(|| "kernels.linear-ms".to_owned()),
            ));
        }
    }
    out.extend(variant_rows(options, &find)?);
    Ok(out)
}

/// Issue 33's rows, each a ratio of times against its peer of the same run (a report
/// from before them has none).
pub(super) fn variant_rows<'a>(
    options: &Value,
    find: &dyn Fn(&str, &str, f64, &str) -> Option<&'a Value>,
) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let at = |group: &str, kernel: &str, key: &str| {
        let n = options.get(key).and_then(Value::as_f64)?;
        Some((n, find(group, kernel, n, "attnlab simd")?))
    };
    let ratio = |a: &Value, b: &Value, key: &str| -> Result<String, String> {
        let (x, y) = (number(a, key)?, number(b, key)?);
        Ok(format!("{:.2}× ({} / {} ms)", x / y, ms(x), ms(y)))
    };
    if let (Some((n, with)), Some((_, without)), Some((_, turn))) = (
        at("rope", "with", "ropeN"),
        at("rope", "without", "ropeN"),
        at("rope", "turn", "ropeN"),
    ) {
        out.push(row(
            format!(
                "RoPE: one head with RoPE against the same without (each `Problem::new`, which turns q and k, and `compute_head`), n = {}",
                int(n)
            ),
            format!(
                "{}; the turn of q and k alone {} ms",
                ratio(with, without, "ms")?,
                ms(number(turn, "ms")?)
            ),
            None,
        ));
    }
    let heads = options.get("gqaHeads").and_then(Value::as_f64);
    let mha = at("gqa", "G=8", "gqaN");
    if let (Some(h), Some((n, mha))) = (heads, mha) {
        let bytes = |r: &Value| number(r, "kvBytesPerToken").map(int);
        out.push(row(
            format!(
                "MHA: H = {} heads, each its own K, V, n = {}: per query head",
                int(h),
                int(n)
            ),
            format!(
                "{} ms per head; K/V {} bytes per token",
                ms(number(mha, "msPerHead")?),
                bytes(mha)?
            ),
            None,
        ));
        for (kernel, name) in [("G=2", "GQA: G = 2 groups"), ("G=1", "MQA: G = 1 group")] {
            if let Some((_, r)) = at("gqa", kernel, "gqaN") {
                out.push(row(
                    format!(
                        "{name} of K, V shared by H = {} heads, n = {}: per query head, against MHA",
                        int(h),
                        int(n)
                    ),
                    format!(
                        "{} per head; K/V {} bytes per token (MHA {})",
                        ratio(r, mha, "msPerHead")?,
                        bytes(r)?,
                        bytes(mha)?
                    ),
                    None,
                ));
            }
        }
    }
    if let Some((n, plain)) = at("tiled", "plain", "tiledN") {
        for b in ["64", "128"] {
            if let Some((_, tiled)) = at("tiled", &format!("B={b}"), "tiledN") {
                out.push(row(
                    format!(
                        "softmax tiled, B = {b}, n = {}, against plain softmax (both `compute_head`)",
                        int(n)
                    ),
                    ratio(tiled, plain, "ms")?,
                    Some(format!("kernels.tiled-{b}")),
                ));
            }
        }
    }
    if let (Some((n, decayed)), Some((_, elu1))) = (
        at("decayed", "decayed", "decayedN"),
        at("decayed", "elu1", "decayedN"),
    ) {
        out.push(row(
            format!(
                "decayed linear attention, recurrent (γ = {:.2}; `decayed::recurrent` called directly: `compute_head` also forms the n × n weights), n = {}, against linear elu1 causal (recurrent)",
                number(decayed, "decay")?,
                int(n)
            ),
            ratio(decayed, elu1, "ms")?,
            Some("kernels.decayed-no-nxn".to_owned()),
        ));
    }
    out.extend(block_rows(options, find)?);
    Ok(out)
}

/// Issue 34's rows: one Transformer layer at each size, and decoding with the KV cache
/// against recomputing the prefix (a report from before them has none).
fn block_rows<'a>(
    options: &Value,
    find: &dyn Fn(&str, &str, f64, &str) -> Option<&'a Value>,
) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    if options.get("blockN").is_none() {
        return Ok(out);
    }
    let (d, heads) = (number(options, "blockD")?, number(options, "blockHeads")?);
    for n in numbers(options, "blockN")? {
        if let Some(r) = find("block", "layer", n, "attnlab simd") {
            out.push(row(
                format!(
                    "one Transformer layer (post-LN, GELU feed-forward 4d wide), d = {}, {} heads, n = {}",
                    int(d),
                    int(heads),
                    int(n)
                ),
                format!("{} ms", ms(number(r, "ms")?)),
                None,
            ));
        }
    }
    let n = number(options, "decodeN")?;
    if let (Some(cache), Some(recompute)) = (
        find("decode", "cache", n, "attnlab simd"),
        find("decode", "recompute", n, "attnlab simd"),
    ) {
        let (c, r) = (number(cache, "ms")?, number(recompute, "ms")?);
        out.push(row(
            format!(
                "decoding {} positions through one causal layer (d = {}, {} heads): with the KV cache against recomputing the prefix at every step",
                int(n),
                int(d),
                int(heads)
            ),
            format!(
                "{:.1}× faster ({} / {} ms); the cache at the end {} KiB",
                r / c,
                ms(r),
                ms(c),
                int(number(cache, "cacheBytes")? / 1024.0)
            ),
            Some("kernels.decode-cache".to_owned()),
        ));
    }
    Ok(out)
}

pub(super) fn forward_rows(report: &Value) -> Result<Vec<Row>, String> {
    let f = field(report, "forward")?;
    if let Some(why) = f.get("skipped").and_then(Value::as_str) {
        return Ok(vec![row(
            "all-MiniLM-L6-v2 and multilingual-E5-small",
            format!("skipped: {why}"),
            Some("forward.skipped".to_owned()),
        )]);
    }
    let rows = array(f, "rows")?;
    let find = |kernel: &str, n: f64, engine: &str| {
        rows.iter().find(|r| {
            r.get("kernel").and_then(Value::as_str) == Some(kernel)
                && r.get("n").and_then(Value::as_f64) == Some(n)
                && r.get("engine").and_then(Value::as_str) == Some(engine)
        })
    };
    let options = field(f, "options")?;
    let mut out = vec![row(
        "roof, timed with these rows",
        format!("{:.2} GFLOP/s", number(f, "roofGflops")?),
        None,
    )];
    let tokens = numbers(options, "tokens")?;
    for &n in &tokens {
        let Some(ours) = find("forward", n, "attnlab simd") else {
            continue;
        };
        let theirs: Vec<String> = rows
            .iter()
            .filter(|r| {
                r.get("kernel").and_then(Value::as_str) == Some("forward")
                    && r.get("n").and_then(Value::as_f64) == Some(n)
                    && r.get("engine")
                        .and_then(Value::as_str)
                        .is_some_and(|e| e.starts_with("tfjs-wasm"))
            })
            .map(|r| {
                let engine = text(r, "engine")?;
                let way = engine
                    .trim_start_matches("tfjs-wasm (")
                    .trim_end_matches(')');
                Ok(format!("{} ms {way}", ms(number(r, "ms")?)))
            })
            .collect::<Result<_, String>>()?;
        out.push(row(
            format!("all-MiniLM-L6-v2 (f32), {} tokens", int(n)),
            format!(
                "{} ms; tfjs-wasm {}",
                ms(number(ours, "ms")?),
                theirs.join(", ")
            ),
            Some(format!("forward.speedup-{}", int(n))),
        ));
    }
    for &n in &tokens {
        if let Some(r) = find("forward", n, "attnlab simd int8") {
            out.push(row(
                format!("the app's int8 asset, {} tokens", int(n)),
                format!("{} ms", ms(number(r, "ms")?)),
                None,
            ));
        }
    }
    for &n in &tokens {
        if let Some(r) = find("products", n, "attnlab simd") {
            out.push(row(
                format!("its matrix products alone, {} tokens", int(n)),
                format!(
                    "{} ms, {:.0}% of the roof",
                    ms(number(r, "ms")?),
                    number(r, "roofFraction")? * 100.0
                ),
                Some(format!("forward.products-{}", int(n))),
            ));
        }
    }
    match f.get("e5").filter(|e| e.is_object()) {
        Some(e5) => {
            out.push(row(
                "multilingual-E5-small (4-bit): its asset parsed",
                format!("{} ms", ms(number(e5, "parseMs")?)),
                None,
            ));
            for n in numbers(options, "e5Tokens")? {
                if let (Some(pass), Some(products)) = (
                    find("forward", n, "E5 q4 simd"),
                    find("products", n, "E5 q4 simd"),
                ) {
                    out.push(row(
                        format!("multilingual-E5-small (4-bit), {} tokens", int(n)),
                        format!(
                            "{} ms; its products {:.0}% of the roof",
                            ms(number(pass, "ms")?),
                            number(products, "roofFraction")? * 100.0
                        ),
                        None,
                    ));
                }
            }
        }
        None => out.push(row(
            "multilingual-E5-small (4-bit)",
            "skipped: no target/model/multilingual-e5-small.q4.safetensors",
            None,
        )),
    }
    Ok(out)
}

pub(super) fn app_rows(report: &Value) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    for c in array(report, "interaction")? {
        let tokens = number(c, "tokens")?;
        let drawn = numbers(c, "renderedTokens")?;
        let cut = if drawn.contains(&tokens) {
            String::new()
        } else {
            let most = drawn.iter().copied().fold(0.0, f64::max);
            format!(" (cut to {} by the lab's limit)", int(most))
        };
        out.push(row(
            format!("interaction p50 / p95, {} tokens{cut}", int(tokens)),
            format!("{:.1} / {:.1} ms", number(c, "p50")?, number(c, "p95")?),
            Some(format!("app.interaction-{}", int(tokens))),
        ));
    }
    if let Some(g) = report.get("growth").filter(|g| g.is_object()) {
        out.push(row(
            format!(
                "growth of the interaction's p50 with n, {}–{} tokens",
                int(number(g, "from")?),
                int(number(g, "to")?.round())
            ),
            format!("n^{:.2}", number(g, "exponent")?),
            None,
        ));
    }
    if let Some(k) = report.get("typing").filter(|k| k.is_object()) {
        out.extend(typing_rows(
            k,
            "typing at 508–512 tokens".to_owned(),
            Some("app.typing"),
        )?);
        let long = numbers(k, "longTasks")?;
        out.push(row(
            "long tasks while typing",
            if long.is_empty() {
                "none".to_owned()
            } else {
                format!(
                    "{} (longest {:.0} ms)",
                    long.len(),
                    long.iter().copied().fold(0.0, f64::max)
                )
            },
            Some("app.long-tasks".to_owned()),
        ));
    }
    if let Some(m) = report.get("memory").filter(|m| m.is_object()) {
        out.push(row(
            format!(
                "peak wasm memory: {} tokens, {} heads, d_model {}, {} variants, every page opened",
                int(number(m, "tokens")?),
                int(number(m, "heads")?),
                int(number(m, "dModel")?),
                int(number(m, "variants")?)
            ),
            format!("{:.0} MB", number(m, "peakMB")?),
            Some("app.memory".to_owned()),
        ));
    }
    let l = field(report, "load")?;
    out.push(row(
        "main wasm",
        format!(
            "{:.1} KB gzip ({} KB raw)",
            number(l, "mainWasmGzipBytes")? / 1000.0,
            int((number(l, "mainWasmBytes")? / 1000.0).round())
        ),
        Some("app.main-wasm".to_owned()),
    ));
    out.push(row(
        "lazily loaded modules, fetched when first used",
        format!(
            "{}, {:.1} KB gzip",
            int(number(l, "lazyModules")?),
            number(l, "lazyGzipBytes")? / 1000.0
        ),
        None,
    ));
    out.push(row(
        format!(
            "navigation → first heatmap, median of {} cold loads",
            int(number(l, "loads")?)
        ),
        format!("{} ms", int(number(l, "firstPaintMs")?.round())),
        Some("app.first-heatmap".to_owned()),
    ));
    for (key, name, target) in [
        (
            "modelLoad",
            "all-MiniLM-L6-v2",
            Some("app.model-from-cache".to_owned()),
        ),
        ("e5Load", "multilingual-E5-small (4-bit)", None),
    ] {
        match report.get(key).filter(|m| m.is_object()) {
            Some(m) => {
                out.push(row(
                    format!("{name}: click → atlas painted, the asset from the network"),
                    format!("{} ms", int(number(m, "networkMs")?.round())),
                    None,
                ));
                out.push(row(
                    format!("{name}: navigation → atlas painted, the asset from the Cache API"),
                    format!("{} ms", int(number(m, "cachedMs")?.round())),
                    target,
                ));
            }
            None => out.push(row(
                format!("{name} loaded"),
                "skipped: dist/ has no model asset (`cargo xtask model`)",
                None,
            )),
        }
    }
    Ok(out)
}

pub(super) fn phone_rows(report: &Value) -> Result<Vec<Row>, String> {
    let p = field(report, "phone")?;
    let l = field(p, "load")?;
    let c = field(p, "interaction")?;
    let k = field(p, "typing")?;
    Ok([
        row(
            format!(
                "navigation → first heatmap, median of {} cold loads",
                int(number(l, "loads")?)
            ),
            format!("{} ms", int(number(l, "firstPaintMs")?.round())),
            Some("phone.first-heatmap".to_owned()),
        ),
        row(
            format!(
                "interaction p50 / p95, {} tokens",
                int(number(c, "tokens")?)
            ),
            format!("{:.1} / {:.1} ms", number(c, "p50")?, number(c, "p95")?),
            Some("phone.interaction".to_owned()),
        ),
    ]
    .into_iter()
    .chain(typing_rows(
        k,
        format!("typing after {} tokens", int(number(k, "tokensBefore")?)),
        None,
    )?)
    .collect())
}

/// The two rows of a typing measurement: each keystroke to the last canvas painted (the
/// row `target` names), and to the next painted frame.
pub(super) fn typing_rows(
    k: &Value,
    what: String,
    target: Option<&str>,
) -> Result<[Row; 2], String> {
    let pair = |p50: &str, p95: &str| -> Result<String, String> {
        Ok(format!(
            "{:.1} / {:.1} ms",
            number(k, p50)?,
            number(k, p95)?
        ))
    };
    Ok([
        row(
            format!("{what}: keystroke → last canvas painted, p50 / p95"),
            pair("paintedP50", "paintedP95")?,
            target.map(str::to_owned),
        ),
        row(
            "typing: keystroke → next painted frame, p50 / p95",
            pair("nextFrameP50", "nextFrameP95")?,
            None,
        ),
    ])
}
