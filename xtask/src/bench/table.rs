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

mod read;
mod rows;

use read::{cell, number, text};
use rows::{app_rows, forward_rows, kernel_rows, phone_rows};

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

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
