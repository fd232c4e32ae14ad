//! The table of `docs/benchmarks.md`, written from `target/bench/report.json` after each
//! `cargo xtask bench` (never by hand).
//!
//! The table sits between two marker lines, [`START`] and [`END`]; inside them, each
//! section of the benchmark (kernels, forward, app, phone) is a block that starts with its
//! own marker line, `<!-- bench-table:section NAME -->`, then one line naming the run it
//! comes from (full or `--quick`, date, commit, machine, load) and its rows: what was
//! measured, this run's value, the target and whether it was met.
//!
//! A run rewrites the blocks of the sections it ran and keeps the others as they were, so
//! `--only forward` does not erase the app's rows; each block's own line says which run
//! it comes from. A section no run has measured yet says so. The rows' targets are the
//! driver's (`report.targets`, found by their stable `id`); a target that no row below
//! names gets a row of its own, so none is dropped.

use std::fmt::Write as _;

use serde_json::Value;

/// The line before the table.
pub const START: &str = "<!-- bench-table:start: written by `cargo xtask bench` from target/bench/report.json; edits between these markers are lost -->";
/// The line after it.
pub const END: &str = "<!-- bench-table:end -->";
const SECTION: &str = "<!-- bench-table:section ";
/// The report format this reads (bench/run.mjs).
const FORMAT: &str = "attnlab-bench/3";

/// The benchmark's sections, in the order of the table, with their titles.
const SECTIONS: [(&str, &str); 4] = [
    ("kernels", "Kernels"),
    ("forward", "Forward pass"),
    ("app", "The app (desktop, 1280 × 800)"),
    ("phone", "The app on a phone (390 × 844, CPU slowed 4×)"),
];

/// `doc` with the table between its markers rewritten from `report` (the parsed
/// `report.json`): the blocks of the sections the report ran are new, the others kept.
pub fn rewrite(doc: &str, report: &Value) -> Result<String, String> {
    let format = report.get("format").and_then(Value::as_str);
    if format != Some(FORMAT) {
        return Err(format!(
            "the report's format is {}, not {FORMAT}: run the benchmark again",
            format.map_or("missing".to_owned(), |f| format!("`{f}`"))
        ));
    }
    let ran: Vec<&str> = report
        .get("sections")
        .and_then(Value::as_array)
        .ok_or("the report lists no `sections`")?
        .iter()
        .filter_map(Value::as_str)
        .collect();

    let (before, old, after) = split(doc)?;
    let kept = blocks(old)?;
    let mut table = String::new();
    table.push_str(START);
    table.push('\n');
    for (name, title) in SECTIONS {
        table.push_str(SECTION);
        table.push_str(name);
        table.push_str(" -->\n");
        if ran.contains(&name) {
            table.push_str(&section(report, name, title)?);
        } else if let Some(body) = kept.iter().find(|(n, _)| *n == name).map(|(_, b)| b) {
            table.push_str(body);
        } else {
            let _ = writeln!(
                table,
                "\n**{title}**: not run yet (`cargo xtask bench --only {name}`).\n"
            );
        }
    }
    table.push_str(END);
    Ok(format!("{before}{table}{after}"))
}

/// The text before the start marker's line, between the two marker lines, and from the
/// end marker's line's end on.
fn split(doc: &str) -> Result<(&str, &str, &str), String> {
    let line_at = |marker: &str| {
        let found: Vec<usize> = doc
            .match_indices(marker)
            .map(|(i, _)| i)
            .filter(|&i| i == 0 || doc.as_bytes()[i - 1] == b'\n')
            .collect();
        match found[..] {
            [i] => Ok(i),
            [] => Err(format!("no line starting with `{marker}`")),
            _ => Err(format!("{} lines start with `{marker}`", found.len())),
        }
    };
    let start = line_at("<!-- bench-table:start")?;
    let end = line_at(END)?;
    if end < start {
        return Err(format!("`{END}` comes before the start marker"));
    }
    let inside = doc[start..end].find('\n').map_or(end, |i| start + i + 1);
    Ok((&doc[..start], &doc[inside..end], &doc[end + END.len()..]))
}

/// The blocks between the markers, by section name: each from the line after its
/// section marker to the next marker.
fn blocks(old: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    let mut rest = old;
    // Whatever precedes the first section marker is not kept.
    let Some(first) = rest.find(SECTION) else {
        return Ok(out);
    };
    rest = &rest[first..];
    while let Some(line_end) = rest.find('\n') {
        let name = rest[SECTION.len()..line_end]
            .strip_suffix(" -->")
            .ok_or_else(|| format!("a malformed section marker: `{}`", &rest[..line_end]))?;
        let body = &rest[line_end + 1..];
        let next = body.find(SECTION).unwrap_or(body.len());
        if out.iter().any(|(n, _)| *n == name) {
            return Err(format!("section `{name}` appears twice in the table"));
        }
        out.push((name, &body[..next]));
        rest = &body[next..];
        if rest.is_empty() {
            break;
        }
    }
    Ok(out)
}

/// One table row: what, this run's value, and the id of its target in `report.targets`.
struct Row {
    what: String,
    value: String,
    target: Option<String>,
}

fn row(what: impl Into<String>, value: impl Into<String>, target: Option<String>) -> Row {
    Row {
        what: what.into(),
        value: value.into(),
        target,
    }
}

/// A section's block: the line naming its run, then its table.
fn section(report: &Value, name: &str, title: &str) -> Result<String, String> {
    let rows = match name {
        "kernels" => kernel_rows(report),
        "forward" => forward_rows(report),
        "app" => app_rows(report),
        "phone" => phone_rows(report),
        _ => unreachable!("SECTIONS names every section"),
    }
    .map_err(|e| format!("{name}: {e}"))?;

    let targets: Vec<&Value> = report
        .get("targets")
        .and_then(Value::as_array)
        .map(|t| t.iter().collect())
        .unwrap_or_default();
    let in_section = |t: &Value| {
        t.get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| id.split('.').next() == Some(name))
    };
    let mut out = String::new();
    let _ = writeln!(out, "\n**{title}**: {}\n", provenance(report)?);
    out.push_str("| row | this run | target | |\n|---|---|---|---|\n");
    let mut used = Vec::new();
    for r in &rows {
        let found = r.target.as_deref().and_then(|id| {
            targets
                .iter()
                .position(|t| t.get("id").and_then(Value::as_str) == Some(id))
        });
        let (threshold, met) = match found {
            Some(i) => {
                used.push(i);
                verdict(targets[i])?
            }
            None => (String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            cell(&r.what),
            cell(&r.value),
            cell(&threshold),
            met
        );
    }
    // Targets no row above names: a row of their own, as the driver words them.
    for (i, t) in targets.iter().enumerate() {
        if used.contains(&i) || !in_section(t) {
            continue;
        }
        let (threshold, met) = verdict(t)?;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            cell(text(t, "name")?),
            cell(text(t, "measured")?),
            cell(&threshold),
            met
        );
    }
    out.push('\n');
    Ok(out)
}

/// A target's threshold and "met", "**missed**" or "skipped".
fn verdict(t: &Value) -> Result<(String, String), String> {
    let met = match t.get("met") {
        Some(Value::Bool(true)) => "met",
        Some(Value::Bool(false)) => "**missed**",
        _ => "skipped",
    };
    Ok((text(t, "target")?.to_owned(), met.to_owned()))
}

/// Which run a block comes from: full or quick, date, commit, machine and its load.
fn provenance(report: &Value) -> Result<String, String> {
    let quick = report
        .get("quick")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let kind = if quick {
        "a quick run (`cargo xtask bench --quick`: fewer samples, smaller kernel sizes)"
    } else {
        "a full run (`cargo xtask bench`)"
    };
    // "2026-11-26T18:35:00.486Z" → "2026-11-26 18:35 UTC".
    let date = text(report, "date")?;
    let date = match (date.get(..10), date.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => date.to_owned(),
    };
    let commit = match report.get("commit") {
        Some(c) if c.is_object() => {
            let hash = text(c, "hash")?;
            let short = hash.get(..7).unwrap_or(hash);
            if c.get("dirty").and_then(Value::as_bool) == Some(true) {
                format!("commit `{short}` with uncommitted changes")
            } else {
                format!("commit `{short}`")
            }
        }
        _ => "an unknown commit".to_owned(),
    };
    let m = report.get("machine").ok_or("the report has no `machine`")?;
    let load = |key: &str| -> Result<String, String> {
        m.get(key)
            .and_then(|l| l.get(0))
            .and_then(Value::as_f64)
            .map(|l| format!("{l:.1}"))
            .ok_or_else(|| format!("machine.{key} is missing"))
    };
    Ok(format!(
        "{kind} of {commit}, {date}; {}, {} cores, {} GB, Chromium {}, Node {}; load average (1 min) {} before the run, {} after.",
        text(m, "cpu")?,
        number(m, "nproc")?,
        number(m, "memoryGB")?,
        text(m, "chromium")?,
        text(m, "node")?.trim_start_matches('v'),
        load("loadBefore")?,
        load("loadAfter")?,
    ))
}

fn kernel_rows(report: &Value) -> Result<Vec<Row>, String> {
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
fn variant_rows<'a>(
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
    Ok(out)
}

fn forward_rows(report: &Value) -> Result<Vec<Row>, String> {
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

fn app_rows(report: &Value) -> Result<Vec<Row>, String> {
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

fn phone_rows(report: &Value) -> Result<Vec<Row>, String> {
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
fn typing_rows(k: &Value, what: String, target: Option<&str>) -> Result<[Row; 2], String> {
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

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key)
        .filter(|f| !f.is_null())
        .ok_or_else(|| format!("`{key}` is missing"))
}

fn array<'a>(v: &'a Value, key: &str) -> Result<&'a [Value], String> {
    field(v, key)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("`{key}` is not a list"))
}

fn number(v: &Value, key: &str) -> Result<f64, String> {
    field(v, key)?
        .as_f64()
        .ok_or_else(|| format!("`{key}` is not a number"))
}

fn numbers(v: &Value, key: &str) -> Result<Vec<f64>, String> {
    array(v, key)?
        .iter()
        .map(|x| {
            x.as_f64()
                .ok_or_else(|| format!("`{key}` holds a non-number"))
        })
        .collect()
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| format!("`{key}` is not a string"))
}

/// Milliseconds with three significant figures or so, as the driver's table prints them.
fn ms(x: f64) -> String {
    if x >= 1000.0 {
        int(x.round())
    } else if x >= 100.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// A whole number with thousands separated: 65536 → "65,536".
fn int(x: f64) -> String {
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 { format!("-{out}") } else { out }
}

/// A table cell: a `|` would end it.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
