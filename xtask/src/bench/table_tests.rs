//! The table writer's tests, on the fixture report `xtask/testdata/bench-report.json`.

use super::read::{int, ms};
use super::*;

fn fixture() -> Value {
    serde_json::from_str(include_str!("../../testdata/bench-report.json")).unwrap()
}

const DOC: &str = "# Benchmarks\n\nThe method.\n\n\
    <!-- bench-table:start: an older wording of the marker -->\n\
    <!-- bench-table:section kernels -->\n\nold kernel rows\n\n\
    <!-- bench-table:section forward -->\n\nold forward rows, from another run\n\n\
    <!-- bench-table:section app -->\n\nold app rows\n\n\
    <!-- bench-table:end -->\n\nAfter the table.\n";

#[test]
fn the_sections_run_are_rewritten_and_the_others_kept() {
    let out = rewrite(DOC, &fixture()).unwrap();
    // Outside the markers, nothing changes.
    assert!(out.starts_with("# Benchmarks\n\nThe method.\n\n<!-- bench-table:start:"));
    assert!(out.ends_with("<!-- bench-table:end -->\n\nAfter the table.\n"));
    // The fixture ran kernels and app: their old rows are gone, forward's kept
    // verbatim, phone (never run) says so.
    assert!(!out.contains("old kernel rows") && !out.contains("old app rows"));
    assert!(out.contains(
        "<!-- bench-table:section forward -->\n\nold forward rows, from another run\n\n<!-- bench-table:section app -->"
    ));
    assert!(out.contains(
        "<!-- bench-table:section phone -->\n\n**The app on a phone (390 × 844, CPU slowed 4×)**: not run yet (`cargo xtask bench --only phone`).\n\n<!-- bench-table:end -->"
    ));
    // Written again from the same report, the table is the same.
    assert_eq!(rewrite(&out, &fixture()).unwrap(), out);
}

#[test]
fn the_kernel_rows_name_their_run_values_and_targets() {
    let out = rewrite(DOC, &fixture()).unwrap();
    let kernels = out
        .split("<!-- bench-table:section kernels -->\n")
        .nth(1)
        .unwrap()
        .split("<!-- bench-table:section forward -->")
        .next()
        .unwrap();
    assert_eq!(
        kernels,
        "\n**Kernels**: a quick run (`cargo xtask bench --quick`: fewer samples, smaller kernel sizes) \
of commit `0123456` with uncommitted changes, 2026-11-28 09:41 UTC; Intel(R) Xeon(R) Processor, \
2 cores, 24 GB, Chromium 156.0.8078.108, Node 20.20.2; load average (1 min) 0.5 before the run, 2.3 after.\n\
\n\
| row | this run | target | |\n\
|---|---|---|---|\n\
| roof, this machine (register-only f32x4 multiplies and adds) | 32.00 GFLOP/s |  |  |\n\
| softmax attention (app path), n = 512 | 3.04 ms, 61% of the roof | ≥ 60% of the roof | met |\n\
| Q·Kᵀ alone, n = 512 | 0.897 ms, 69% of the roof | ≥ 70% of the roof | **missed** |\n\
| linear elu1 non-causal, n = 65,536 | 62.20 ms (best sample 59.50 ms) | ≤ 60 ms | **missed** |\n\
| softmax n=512: attnlab simd (app path) ≥ 1.0× tfjs-wasm | 5.81× (17.650 / 3.037 ms) | ≥ 1.0× tfjs-wasm | met |\n\
| Q·Kᵀ n=512 ≥ 50% of the roof | 69% (22.10 of 32.00 GFLOP/s; best samples: 71%) | ≥ 50% of the roof | met |\n\
\n"
    );
}

#[test]
fn issue_33s_rows_are_ratios_against_their_peers() {
    let mut report = fixture();
    let options = &mut report["kernels"]["options"];
    for (key, n) in [
        ("ropeN", 512),
        ("gqaN", 512),
        ("gqaHeads", 8),
        ("tiledN", 2048),
        ("decayedN", 65536),
    ] {
        options[key] = n.into();
    }
    let timed = |group: &str, kernel: &str, n: u32, ms: f64, extra: Value| {
        let mut r = serde_json::json!({
            "group": group, "kernel": kernel, "n": n, "engine": "attnlab simd", "ms": ms,
        });
        for (k, v) in extra.as_object().unwrap() {
            r[k] = v.clone();
        }
        r
    };
    let none = serde_json::json!({});
    let gqa = |g: u32, ms: f64| {
        let bytes = 2 * g * 64 * 4;
        timed(
            "gqa",
            &format!("G={g}"),
            512,
            ms,
            serde_json::json!({ "groups": g, "msPerHead": ms / 8.0, "kvBytesPerToken": bytes }),
        )
    };
    let rows = report["kernels"]["rows"].as_array_mut().unwrap();
    rows.extend([
        timed("rope", "without", 512, 3.0, none.clone()),
        timed("rope", "with", 512, 3.6, none.clone()),
        timed("rope", "turn", 512, 0.52, none.clone()),
        gqa(8, 24.0),
        gqa(2, 24.8),
        gqa(1, 25.6),
        timed("tiled", "plain", 2048, 46.5, none.clone()),
        timed("tiled", "B=64", 2048, 93.0, none.clone()),
        timed("tiled", "B=128", 2048, 44.2, none.clone()),
        timed("decayed", "elu1", 65536, 50.0, none.clone()),
        timed(
            "decayed",
            "decayed",
            65536,
            150.0,
            serde_json::json!({ "decay": 0.949999988079071 }),
        ),
    ]);
    let targets = report["targets"].as_array_mut().unwrap();
    for (id, met) in [
        ("kernels.tiled-64", false),
        ("kernels.tiled-128", true),
        ("kernels.decayed-no-nxn", true),
    ] {
        let target = match id {
            "kernels.decayed-no-nxn" => "completes without an n×n buffer",
            _ => "tiled ≤ 1.0× plain",
        };
        targets.push(serde_json::json!({
            "id": id, "name": id, "target": target, "met": met, "measured": "-",
        }));
    }
    let out = rewrite(DOC, &report).unwrap();
    for line in [
        "| RoPE: one head with RoPE against the same without (each `Problem::new`, which turns q and k, and `compute_head`), n = 512 | 1.20× (3.60 / 3.00 ms); the turn of q and k alone 0.520 ms |  |  |",
        "| MHA: H = 8 heads, each its own K, V, n = 512: per query head | 3.00 ms per head; K/V 4,096 bytes per token |  |  |",
        "| GQA: G = 2 groups of K, V shared by H = 8 heads, n = 512: per query head, against MHA | 1.03× (3.10 / 3.00 ms) per head; K/V 1,024 bytes per token (MHA 4,096) |  |  |",
        "| MQA: G = 1 group of K, V shared by H = 8 heads, n = 512: per query head, against MHA | 1.07× (3.20 / 3.00 ms) per head; K/V 512 bytes per token (MHA 4,096) |  |  |",
        "| softmax tiled, B = 64, n = 2,048, against plain softmax (both `compute_head`) | 2.00× (93.00 / 46.50 ms) | tiled ≤ 1.0× plain | **missed** |",
        "| softmax tiled, B = 128, n = 2,048, against plain softmax (both `compute_head`) | 0.95× (44.20 / 46.50 ms) | tiled ≤ 1.0× plain | met |",
        "| decayed linear attention, recurrent (γ = 0.95; `decayed::recurrent` called directly: `compute_head` also forms the n × n weights), n = 65,536, against linear elu1 causal (recurrent) | 3.00× (150.0 / 50.00 ms) | completes without an n×n buffer | met |",
    ] {
        assert!(out.contains(line), "no line {line}\nin\n{out}");
    }
    // Every target is a row's, none left over as a row of its own.
    assert!(!out.contains("| kernels.tiled-64 |"));
}

#[test]
fn the_app_rows_say_what_the_lab_cut_and_what_was_skipped() {
    let out = rewrite(DOC, &fixture()).unwrap();
    for line in [
        "| interaction p50 / p95, 64 tokens | 5.2 / 8.8 ms | p95 ≤ 8 ms | **missed** |",
        "| interaction p50 / p95, 1,024 tokens (cut to 512 by the lab's limit) | 38.2 / 48.9 ms |  |  |",
        "| growth of the interaction's p50 with n, 64–512 tokens | n^0.93 |  |  |",
        "| long tasks while typing | 2 (longest 56 ms) | none over 50 ms | **missed** |",
        "| main wasm | 642.3 KB gzip (1,597 KB raw) | ≤ 400 KB gzip | **missed** |",
        "| all-MiniLM-L6-v2: navigation → atlas painted, the asset from the Cache API | 908 ms | ≤ 1500 ms | met |",
        "| multilingual-E5-small (4-bit) loaded | skipped: dist/ has no model asset (`cargo xtask model`) |  |  |",
    ] {
        assert!(out.contains(line), "no line {line}\nin\n{out}");
    }
}

#[test]
fn a_first_table_and_broken_markers() {
    let first = format!("intro\n{START}\n{END}\n");
    let out = rewrite(&first, &fixture()).unwrap();
    assert!(out.contains("**Forward pass**: not run yet (`cargo xtask bench --only forward`)."));
    assert!(out.contains("| main wasm |"));

    let err = |doc: &str| rewrite(doc, &fixture()).unwrap_err();
    assert!(err("no markers").contains("no line starting with `<!-- bench-table:start`"));
    assert!(err(&format!("{END}\n{START}\n")).contains("comes before"));
    assert!(err(&format!("{START}\n{START}\n{END}\n")).contains("2 lines start with"));
    let twice = format!(
        "{START}\n<!-- bench-table:section app -->\na\n<!-- bench-table:section app -->\nb\n{END}\n"
    );
    assert!(err(&twice).contains("section `app` appears twice"));

    let mut old = fixture();
    old["format"] = "attnlab-bench/2".into();
    assert!(
        rewrite(&first, &old)
            .unwrap_err()
            .contains("run the benchmark again")
    );
}

#[test]
fn numbers() {
    assert_eq!(int(65536.0), "65,536");
    assert_eq!(int(512.0), "512");
    assert_eq!(int(1_234_567.0), "1,234,567");
    assert_eq!(ms(0.8971), "0.897");
    assert_eq!(ms(3.037), "3.04");
    assert_eq!(ms(275.21), "275.2");
    assert_eq!(ms(1433.4), "1,433");
    assert_eq!(cell("max |Δ|"), "max \\|Δ\\|");
}
