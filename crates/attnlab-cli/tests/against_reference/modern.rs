//! The modern variants of issue 33 against the reference: a seeded generator
//! of valid documents with RoPE, ALiBi, kv_heads, mask.sinks, softcap, tiles
//! and the new kinds, in combination, compared field by field (`row_sum`,
//! `null` entropies and `computation` included).
//!
//! Tolerance: `1e-4` absolute, as for today's fields, except decayed_linear,
//! whose weights are unnormalised scores (`D_ij q·k`, up to ~10 here) and
//! whose outputs sum n of them times `v` (up to a few hundred in the larger
//! cases): there `|Δ| ≤ max(1e-4, 1e-4·|expected|)`, i.e. four significant
//! digits of an f32 computation whose terms are as large as the result.
//!
//! Every test here is ignored until the core has the variants (today's binary
//! warns about the new fields, ignores them and refuses the new kinds).

use serde_json::{Value, json};

use super::{
    MaskKind, Report, Rng, SCORES, Tol, allowed_masks, r32, random_mask, reference, scale_field,
    zero_rows,
};

/// Every kind the format accepts.
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
const NEW_KINDS: [&str; 7] = [
    "softmax_plus_one",
    "sigmoid",
    "softpick",
    "sink",
    "differential",
    "decayed_linear",
    "favor",
];
const FAMILY: [&str; 6] = reference::SOFTMAX_FAMILY;

fn in_family(kind: &str) -> bool {
    FAMILY.contains(&kind)
}

/// Efficient and Linformer refuse `window`, so also `sinks` (spec decision 5).
fn accepts_sinks(kind: &str) -> bool {
    !matches!(kind, "efficient" | "linformer")
}

/// The scores a kind accepts: decayed_linear dot / scaled_dot, favor none.
fn scores_for(kind: &str) -> &'static [Option<&'static str>] {
    match kind {
        "decayed_linear" => &[None, Some("dot"), Some("scaled_dot")],
        "favor" => &[None],
        _ => &SCORES,
    }
}

/// The tolerance for a kind's comparison (see the module's comment).
fn tol_for(kind: &str) -> Tol {
    if kind == "decayed_linear" {
        Tol {
            abs: super::TOL,
            rel: 1e-4,
        }
    } else {
        Tol::abs(super::TOL)
    }
}

// ------------------------------------------------------------ generator ---

/// Which modern fields a generated case carries (the kind-specific ones —
/// sink, q2/k2, λ, decay/gates, features, sigmoid_bias — always follow the
/// kind).
#[derive(Clone, Copy, Debug, Default)]
struct Knobs {
    rope: bool,
    alibi: bool,
    /// `kv_heads` with this many groups G (the number of heads is then a
    /// multiple of G).
    groups: Option<usize>,
    sinks: bool,
    softcap: bool,
    tiles: Option<usize>,
    /// The number of heads H (random 1..=3 when `None`).
    heads: Option<usize>,
    /// Largest head width.
    max_d: usize,
}

impl Knobs {
    fn new() -> Self {
        Knobs {
            max_d: 5,
            ..Knobs::default()
        }
    }
}

/// The `positions` object of a random RoPE, and how wide heads must be:
/// `(object, rotary_dims if given, ntk)`.
fn random_rope(rng: &mut Rng, n: usize, m: usize) -> (Value, Option<usize>, bool) {
    let mut p = json!({ "kind": "rope" });
    if rng.chance(0.5) {
        p["base"] = json!(rng.pick(&[10000.0, 100.0, 500.0, 10.0, 2.5]));
    }
    match rng.range(0, 2) {
        0 => {}
        1 => p["pairs"] = json!("half"),
        _ => p["pairs"] = json!("interleaved"),
    }
    let scaling = rng.range(0, 3);
    let ntk = scaling == 2;
    let r = if rng.chance(0.5) {
        let r = if ntk { 4 } else { 2 * rng.range(1, 2) };
        p["rotary_dims"] = json!(r);
        Some(r)
    } else {
        None
    };
    // positions: integers from an offset, sometimes halves, sometimes negative
    let side = |rng: &mut Rng, len: usize| -> Vec<f64> {
        let start = rng.range(0, 30) as f64 - 5.0;
        let step = rng.pick(&[1.0, 1.0, 0.5, 2.0]);
        (0..len)
            .map(|t| r32(start + step * t as f64 + if rng.chance(0.2) { 0.25 } else { 0.0 }))
            .collect()
    };
    if rng.chance(0.5) {
        p["query_positions"] = json!(side(rng, n));
    }
    if rng.chance(0.5) {
        p["key_positions"] = json!(side(rng, m));
    }
    let factor = rng.pick(&[2.0, 4.0, 0.5, 1.5, 8.0]);
    match scaling {
        0 => {}
        1 => p["scaling"] = json!({ "kind": "linear", "factor": factor }),
        2 => p["scaling"] = json!({ "kind": "ntk", "factor": factor }),
        _ => {
            let mut y = json!({ "kind": "yarn", "factor": factor,
                "original_max_positions": rng.pick(&[4, 16, 64, 2048]) });
            if rng.chance(0.3) {
                y["beta_fast"] = json!(rng.pick(&[16.0, 8.0]));
                y["beta_slow"] = json!(rng.pick(&[2.0, 0.5]));
            }
            p["scaling"] = y;
        }
    }
    (p, r, ntk)
}

/// A width for a head (or a kv group) that the RoPE settings allow.
fn width_for(rng: &mut Rng, rope: Option<(Option<usize>, bool)>, max_d: usize) -> usize {
    match rope {
        None => rng.range(1, max_d),
        // rotary_dims r given: any d_k ≥ r
        Some((Some(r), _)) => rng.range(r, max_d.max(r)),
        // r = d_k: even, and > 2 for ntk
        Some((None, ntk)) => {
            let lo = if ntk { 2 } else { 1 };
            2 * rng.range(lo, (max_d / 2).max(lo))
        }
    }
}

/// One random, valid document of `kind`.
fn modern_case(
    rng: &mut Rng,
    kind: &str,
    score: Option<&str>,
    mask: MaskKind,
    n: usize,
    m: usize,
    knobs: Knobs,
) -> Value {
    assert!(
        kind != "decayed_linear" || n == m,
        "decayed_linear needs n = m"
    );
    let heads = knobs.heads.unwrap_or_else(|| rng.range(1, 3));
    let mut case = json!({ "format": "attnlab-tensors/1" });
    let rope = knobs.rope.then(|| random_rope(rng, n, m));
    let rope_widths = rope.as_ref().map(|(_, r, ntk)| (*r, *ntk));

    // Widths per head, or per kv group (heads read their group's d_k).
    let units = knobs.groups.unwrap_or(heads);
    assert_eq!(heads % units, 0, "H must be a multiple of G");
    let widths: Vec<(usize, usize)> = (0..units)
        .map(|_| {
            (
                width_for(rng, rope_widths, knobs.max_d),
                rng.range(1, knobs.max_d),
            )
        })
        .collect();
    let unit_of = |h: usize| h * units / heads;
    let mut total_dv = 0;
    let mut list = Vec::new();
    for h in 0..heads {
        let (d_k, d_v) = widths[unit_of(h)];
        total_dv += d_v;
        let mut head = json!({ "q": rng.matrix(n, d_k, 1.0) });
        if knobs.groups.is_none() {
            head["k"] = json!(rng.matrix(m, d_k, 1.0));
            head["v"] = json!(rng.matrix(m, d_v, 1.0));
        }
        match score {
            Some("general") => {
                head["score_params"] =
                    json!({ "w": rng.matrix(d_k, d_k, 1.0 / (d_k as f64).sqrt()) });
            }
            Some("additive") => {
                let d_a = rng.range(1, 4);
                head["score_params"] = json!({
                    "w_a": rng.matrix(d_a, d_k, 1.0),
                    "u_a": rng.matrix(d_a, d_k, 1.0),
                    "v_a": rng.matrix(1, d_a, 1.0)[0],
                });
            }
            _ => {}
        }
        match kind {
            "linformer" => {
                let kp = rng.range(1, 4);
                let sd = 1.0 / (kp as f64).sqrt();
                head["linformer"] =
                    json!({ "e": rng.matrix(kp, m, sd), "f": rng.matrix(kp, m, sd) });
            }
            "sink" => head["sink"] = json!(r32(rng.normal() * 2.0)),
            "differential" => {
                head["q2"] = json!(rng.matrix(n, d_k, 1.0));
                head["k2"] = json!(rng.matrix(m, d_k, 1.0));
            }
            "favor" => {
                let r = rng.range(1, 6);
                head["features"] = json!(rng.matrix(r, d_k, 1.0));
            }
            _ => {}
        }
        list.push(head);
    }
    if let Some(g) = knobs.groups {
        let groups: Vec<Value> = widths
            .iter()
            .map(
                |&(d_k, d_v)| json!({ "k": rng.matrix(m, d_k, 1.0), "v": rng.matrix(m, d_v, 1.0) }),
            )
            .collect();
        assert_eq!(groups.len(), g);
        case["kv_heads"] = json!(groups);
    }
    if kind == "decayed_linear" {
        decay_fields(rng, &mut case, &mut list, n);
    }
    case["heads"] = json!(list);

    if kind != "softmax" || rng.chance(0.5) {
        case["attention"] = json!(kind);
    }
    if let Some(s) = score {
        case["score"] = json!(s);
    }
    if !matches!(kind, "decayed_linear" | "favor") && rng.chance(0.5) {
        case["temperature"] = json!(rng.pick(&[0.25, 0.5, 1.0, 1.75, 3.0]));
    }
    match kind {
        "sigmoid" if rng.chance(0.5) => {
            case["sigmoid_bias"] = json!(r32(rng.uniform() * 4.0 - 3.0));
        }
        "differential" if rng.chance(0.6) => {
            case["lambda"] = json!(rng.pick(&[0.0, 0.2, 0.5, 0.8, 1.0, 1.5]));
        }
        _ => {}
    }
    if let Some(mk) = random_mask(rng, mask, n, m) {
        case["mask"] = mk;
    }
    if knobs.sinks {
        let s = rng.range(0, m.min(3));
        if case.get("mask").is_none() {
            case["mask"] = json!({});
        }
        case["mask"]["sinks"] = json!(s);
    }
    if let Some((p, _, _)) = rope {
        case["positions"] = p;
    }
    if knobs.alibi {
        case["alibi"] = if rng.chance(0.5) {
            json!(true)
        } else {
            let slopes: Vec<f64> = (0..heads)
                .map(|_| {
                    let u = rng.uniform();
                    r32(rng.pick(&[0.0, 0.0625, 0.5, 1.0, u]))
                })
                .collect();
            json!({ "slopes": slopes })
        };
    }
    if knobs.softcap {
        case["softcap"] = json!(rng.pick(&[0.5, 1.0, 5.0, 30.0]));
    }
    if let Some(b) = knobs.tiles {
        case["tiles"] = json!(b);
    }
    if rng.chance(0.4) {
        let d_out = rng.range(1, 5);
        case["w_o"] = json!(rng.matrix(total_dv, d_out, 1.0 / (total_dv as f64).sqrt()));
    }
    case
}

/// decayed_linear's decay: every head a γ, every head its own gates, the
/// top-level gates for all, or top-level gates with some heads' own (which
/// win). Gates are uniform in [0, 1] with exact 0s and 1s now and then.
fn decay_fields(rng: &mut Rng, case: &mut Value, heads: &mut [Value], n: usize) {
    let gates = |rng: &mut Rng| -> Vec<f64> {
        (0..n)
            .map(|_| match rng.range(0, 9) {
                0 => 0.0,
                1 => 1.0,
                _ => r32(rng.uniform()),
            })
            .collect()
    };
    match rng.range(0, 3) {
        0 => {
            for head in heads.iter_mut() {
                let u = r32(rng.uniform());
                head["decay"] = json!(rng.pick(&[0.0, 0.3, 0.5, 0.9, 1.0, u]));
            }
        }
        1 => {
            for head in heads.iter_mut() {
                head["gates"] = json!(gates(rng));
            }
        }
        2 => case["gates"] = json!(gates(rng)),
        _ => {
            case["gates"] = json!(gates(rng));
            for head in heads.iter_mut() {
                if rng.chance(0.5) {
                    head["gates"] = json!(gates(rng));
                }
            }
        }
    }
}

/// `n` and `m` for a shape, `m = n` for decayed_linear.
fn shape(rng: &mut Rng, kind: &str, square: bool, hi: usize) -> (usize, usize) {
    let n = rng.range(1, hi);
    if square || kind == "decayed_linear" {
        return (n, n);
    }
    let mut m = rng.range(1, hi);
    while m == n && hi > 1 {
        m = rng.range(1, hi);
    }
    (n, m)
}

fn name_of(score: Option<&str>) -> &str {
    score.unwrap_or("default")
}

// ---------------------------------------------------------------- tests ---

/// The new kinds × every score they accept × every mask they accept, square
/// and rectangular.
#[test]
fn modern_new_kinds_every_score_and_mask() {
    let mut rng = Rng::new(0x5EED_0201);
    let mut report = Report::modern();
    for kind in NEW_KINDS {
        for &score in scores_for(kind) {
            for &mask in allowed_masks(kind) {
                for square in [true, false] {
                    let (n, m) = shape(&mut rng, kind, square, 9);
                    let case = modern_case(&mut rng, kind, score, mask, n, m, Knobs::new());
                    let name = format!("new-{kind}-{}-{mask:?}-{square}", name_of(score));
                    report.check_tol(&name, &case, tol_for(kind));
                }
            }
        }
    }
    report.finish("new kinds grid");
}

/// Today's kinds with the modern result fields: `row_sum`, `computation`.
#[test]
fn modern_result_fields_on_todays_kinds() {
    let mut rng = Rng::new(0x5EED_0202);
    let mut report = Report::modern();
    for kind in &KINDS[..6] {
        for score in SCORES {
            let mask = rng.pick(allowed_masks(kind));
            let square = rng.chance(0.5);
            let (n, m) = shape(&mut rng, kind, square, 8);
            let case = modern_case(&mut rng, kind, score, mask, n, m, Knobs::new());
            report.check(&format!("today-{kind}-{}", name_of(score)), &case);
        }
    }
    report.finish("today's kinds, modern fields");
}

/// RoPE (pairs, rotary_dims, positions, linear / ntk / yarn) × every kind.
#[test]
fn modern_rope_every_kind() {
    let mut rng = Rng::new(0x5EED_0203);
    let mut report = Report::modern();
    for kind in KINDS {
        for rep in 0..8 {
            let score = rng.pick(scores_for(kind));
            let mask = rng.pick(allowed_masks(kind));
            let (n, m) = shape(&mut rng, kind, rep % 2 == 0, 8);
            let knobs = Knobs {
                rope: true,
                max_d: 6,
                ..Knobs::new()
            };
            let case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
            report.check_tol(&format!("rope-{kind}-{rep}"), &case, tol_for(kind));
        }
    }
    report.finish("RoPE × every kind");
}

/// ALiBi (the paper's slopes for H = 1 … 6, or given slopes) × the softmax
/// family, with and without RoPE's positions, with and without softcap.
#[test]
fn modern_alibi_softmax_family() {
    let mut rng = Rng::new(0x5EED_0204);
    let mut report = Report::modern();
    for kind in FAMILY {
        for heads in 1..=6 {
            let score = rng.pick(&SCORES);
            let mask = rng.pick(allowed_masks(kind));
            let (n, m) = shape(&mut rng, kind, heads % 2 == 0, 8);
            let knobs = Knobs {
                alibi: true,
                heads: Some(heads),
                rope: rng.chance(0.5),
                softcap: rng.chance(0.3),
                ..Knobs::new()
            };
            let case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
            report.check(&format!("alibi-{kind}-h{heads}"), &case);
        }
    }
    report.finish("ALiBi × softmax family");
}

/// mask.sinks with causal, window, strided and their combinations (and
/// padding / custom, which close sinks again), for every kind that takes them.
#[test]
fn modern_sinks_with_causal_and_window() {
    let mut rng = Rng::new(0x5EED_0205);
    let mut report = Report::modern();
    let masks = [
        json!({ "causal": true }),
        json!({ "window": 0 }),
        json!({ "window": 1 }),
        json!({ "causal": true, "window": 1 }),
        json!({ "strided": 2 }),
        json!({ "causal": true, "padding_keys": [0] }),
        json!({ "window": 1, "global": [1] }),
    ];
    for kind in KINDS.into_iter().filter(|k| accepts_sinks(k)) {
        for (t, mk) in masks.iter().enumerate() {
            let score = rng.pick(scores_for(kind));
            let (n, m) = shape(&mut rng, kind, t % 2 == 0, 8);
            let (n, m) = (n.max(2), m.max(2));
            let (n, m) = if kind == "decayed_linear" {
                (n, n)
            } else {
                (n, m)
            };
            let mut case = modern_case(&mut rng, kind, score, MaskKind::None, n, m, Knobs::new());
            let mut mk = mk.clone();
            mk["sinks"] = json!(rng.range(1, m.min(3)));
            if t == 6 && rng.chance(0.5) {
                let cells: Vec<Vec<bool>> = (0..n)
                    .map(|_| (0..m).map(|_| rng.chance(0.7)).collect())
                    .collect();
                mk["custom"] = json!(cells);
            }
            case["mask"] = mk;
            report.check_tol(&format!("sinks-{kind}-{t}"), &case, tol_for(kind));
        }
    }
    report.finish("sinks × causal/window");
}

/// kv_heads with G = 1 (multi-query), G = 2 and G = H, for every kind.
#[test]
fn modern_kv_heads_groups() {
    let mut rng = Rng::new(0x5EED_0206);
    let mut report = Report::modern();
    for kind in KINDS {
        for (g, heads) in [(1, 1), (1, 3), (2, 2), (2, 4), (2, 6), (3, 3), (4, 4)] {
            let score = rng.pick(scores_for(kind));
            let mask = rng.pick(allowed_masks(kind));
            let (n, m) = shape(&mut rng, kind, heads % 2 == 1, 7);
            let knobs = Knobs {
                groups: Some(g),
                heads: Some(heads),
                rope: rng.chance(0.3),
                ..Knobs::new()
            };
            let case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
            report.check_tol(&format!("kv-{kind}-g{g}-h{heads}"), &case, tol_for(kind));
        }
    }
    report.finish("kv_heads");
}

/// softcap over the softmax family, on ordinary and on huge logits.
#[test]
fn modern_softcap() {
    let mut rng = Rng::new(0x5EED_0207);
    let mut report = Report::modern();
    for kind in FAMILY {
        for score in SCORES {
            let mask = rng.pick(allowed_masks(kind));
            let (n, m) = shape(&mut rng, kind, false, 8);
            let knobs = Knobs {
                softcap: true,
                ..Knobs::new()
            };
            let mut case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
            if rng.chance(0.5) {
                scale_field(&mut case, "q", 1e3);
            }
            report.check(&format!("softcap-{kind}-{}", name_of(score)), &case);
        }
    }
    report.finish("softcap");
}

/// tiles ∈ {1, 2, 3, > m} on softmax: the same numbers, computation "tiled".
#[test]
fn modern_tiles() {
    let mut rng = Rng::new(0x5EED_0208);
    let mut report = Report::modern();
    for score in SCORES {
        for &mask in allowed_masks("softmax") {
            let square = rng.chance(0.5);
            let (n, m) = shape(&mut rng, "softmax", square, 10);
            let beyond = n.max(m) + rng.range(1, 5);
            let tiles = rng.pick(&[1, 2, 3, beyond]);
            let knobs = Knobs {
                tiles: Some(tiles),
                rope: rng.chance(0.3),
                alibi: rng.chance(0.3),
                softcap: rng.chance(0.3),
                sinks: rng.chance(0.3),
                ..Knobs::new()
            };
            let mut case = modern_case(&mut rng, "softmax", score, mask, n, m, knobs);
            if rng.chance(0.2) {
                scale_field(&mut case, "q", 1e3);
            }
            report.check(&format!("tiles{tiles}-{}-{mask:?}", name_of(score)), &case);
        }
    }
    report.finish("tiles");
}

/// Huge logits of either sign (q × ±1e3, τ = 1e-3, sinks ±1e3): the stable
/// normalisers must stay finite and exact; softpick's all-negative rows must
/// be 0, not NaN.
#[test]
fn modern_extreme_logits() {
    let mut rng = Rng::new(0x5EED_0209);
    let mut report = Report::modern();
    for kind in FAMILY {
        for rep in 0..8 {
            let score = rng.pick(&[None, Some("dot"), Some("general")]);
            let mask = rng.pick(allowed_masks(kind));
            let (n, m) = shape(&mut rng, kind, rep % 2 == 0, 7);
            let knobs = Knobs {
                softcap: rep == 7,
                alibi: rep == 6,
                ..Knobs::new()
            };
            let mut case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
            let by = if rep % 3 == 0 { -1e3 } else { 1e3 };
            match rep % 4 {
                3 => case["temperature"] = json!(r32(1e-3)),
                _ => {
                    scale_field(&mut case, "q", by);
                    if kind == "differential" {
                        scale_field(&mut case, "q2", -by);
                    }
                }
            }
            if kind == "sink" && rep >= 4 {
                for head in case["heads"].as_array_mut().unwrap() {
                    head["sink"] = json!(if rep % 2 == 0 { 1e3 } else { -1e3 });
                }
            }
            if kind == "sigmoid" && rep == 5 {
                case["sigmoid_bias"] = json!(-1e3);
            }
            report.check(&format!("extreme-{kind}-{rep}"), &case);
        }
    }
    report.finish("extreme logits");
}

/// Rows with no allowed key under every kind that takes a custom mask:
/// custom rows all false, every key padded, sinks closed again by padding,
/// and (decayed_linear) a future-only global that must stay closed.
#[test]
fn modern_empty_rows() {
    let mut rng = Rng::new(0x5EED_020A);
    let mut report = Report::modern();
    for kind in KINDS.into_iter().filter(|k| accepts_sinks(k)) {
        for rep in 0..4 {
            let score = rng.pick(scores_for(kind));
            let (n, m) = shape(&mut rng, kind, kind == "decayed_linear", 7);
            let (n, m) = (n.max(2), m.max(2));
            let (n, m) = if kind == "decayed_linear" {
                (n, n)
            } else {
                (n, m)
            };
            let knobs = Knobs {
                rope: rep == 1,
                ..Knobs::new()
            };
            let mut case = modern_case(&mut rng, kind, score, MaskKind::None, n, m, knobs);
            case["mask"] = match rep {
                0 => {
                    let count = rng.range(1, n);
                    let dead = rng.distinct(count, n);
                    let cells: Vec<Vec<bool>> = (0..n)
                        .map(|i| {
                            (0..m)
                                .map(|_| !dead.contains(&i) && rng.chance(0.8))
                                .collect()
                        })
                        .collect();
                    json!({ "custom": cells })
                }
                1 => json!({ "padding_keys": (0..m).collect::<Vec<_>>() }),
                2 => json!({ "causal": true, "sinks": 1, "padding_keys": [0] }),
                _ => json!({ "window": 0, "global": [m - 1], "sinks": 1, "padding_keys": [0] }),
            };
            report.check_tol(&format!("empty-{kind}-{rep}"), &case, tol_for(kind));
        }
    }
    report.finish("empty rows");
}

/// Zero query and key rows under the new kinds (favor's φ(0) = 1/√r, cosine
/// 0 scores, RoPE turning zeros).
#[test]
fn modern_zero_vectors() {
    let mut rng = Rng::new(0x5EED_020B);
    let mut report = Report::modern();
    for kind in NEW_KINDS {
        for rep in 0..3 {
            let score = rng.pick(scores_for(kind));
            let mask = rng.pick(allowed_masks(kind));
            let (n, m) = shape(&mut rng, kind, rep == 0, 6);
            let knobs = Knobs {
                rope: rep == 2,
                ..Knobs::new()
            };
            let mut case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
            let count = rng.range(1, n);
            let zq = rng.distinct(count, n);
            let count = if rep == 1 { m } else { rng.range(1, m) };
            let zk = rng.distinct(count, m);
            zero_rows(&mut case, "q", &zq);
            zero_rows(&mut case, "k", &zk);
            report.check_tol(&format!("zero-{kind}-{rep}"), &case, tol_for(kind));
        }
    }
    report.finish("zero vectors, new kinds");
}

/// Everything at once, larger: random kind, score, mask, RoPE, ALiBi, sinks,
/// softcap, kv_heads and tiles wherever the kind takes them, n and m up to
/// 40, widths up to 12.
#[test]
fn modern_everything_at_once() {
    let mut rng = Rng::new(0x5EED_020C);
    let mut report = Report::modern();
    for t in 0..60 {
        let kind = KINDS[t % KINDS.len()];
        let score = rng.pick(scores_for(kind));
        let mask = rng.pick(allowed_masks(kind));
        let square = rng.chance(0.5);
        let (n, m) = shape(&mut rng, kind, square, if t < 30 { 9 } else { 40 });
        let heads = rng.range(1, 4);
        let family = in_family(kind);
        let knobs = Knobs {
            rope: rng.chance(0.7),
            alibi: family && rng.chance(0.5),
            groups: if rng.chance(0.5) {
                Some(rng.pick(&[1, heads]))
            } else {
                None
            },
            sinks: accepts_sinks(kind) && rng.chance(0.4),
            softcap: family && rng.chance(0.4),
            tiles: (kind == "softmax" && rng.chance(0.5)).then(|| rng.range(1, 5)),
            heads: Some(heads),
            max_d: if t < 30 { 6 } else { 12 },
        };
        let case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
        report.check_tol(&format!("all-{t}-{kind}"), &case, tol_for(kind));
    }
    report.finish("everything at once");
}

/// The generator's own sanity, without the binary: every kind's document is
/// one the reference computes (no panic), its `row_sum`s are the sums of its
/// weights, and the kinds whose rows are distributions sum to ≤ 1.
#[test]
fn modern_generator_makes_documents_the_reference_computes() {
    let mut rng = Rng::new(0x5EED_020D);
    for t in 0..200 {
        let kind = KINDS[t % KINDS.len()];
        let score = rng.pick(scores_for(kind));
        let mask = rng.pick(allowed_masks(kind));
        let square = rng.chance(0.5);
        let (n, m) = shape(&mut rng, kind, square, 9);
        let heads = rng.pick(&[1, 2, 4]);
        let divisors: &[usize] = if heads == 1 { &[1] } else { &[1, 2, heads] };
        let family = in_family(kind);
        let knobs = Knobs {
            rope: rng.chance(0.5),
            alibi: family && rng.chance(0.5),
            groups: rng.chance(0.5).then(|| rng.pick(divisors)),
            sinks: accepts_sinks(kind) && rng.chance(0.4),
            softcap: family && rng.chance(0.4),
            tiles: (kind == "softmax" && rng.chance(0.5)).then(|| rng.range(1, 5)),
            heads: Some(heads),
            max_d: 6,
        };
        let case = modern_case(&mut rng, kind, score, mask, n, m, knobs);
        let e = reference::compute(&case);
        for (h, head) in e.heads.iter().enumerate() {
            for (i, row) in head.weights.iter().enumerate() {
                let s: f64 = row.iter().sum();
                assert!(s.is_finite(), "t={t} {kind} head {h} row {i}: {s}");
                assert_eq!(head.row_sum[i], s);
                if matches!(
                    kind,
                    "softmax"
                        | "elu1"
                        | "relu"
                        | "taylor"
                        | "favor"
                        | "softmax_plus_one"
                        | "sink"
                        | "softpick"
                ) {
                    assert!(s <= 1.0 + 1e-12, "t={t} {kind}: row sum {s}");
                }
            }
            assert_eq!(
                head.row_entropy.is_some(),
                !matches!(
                    kind,
                    "softmax_plus_one"
                        | "sigmoid"
                        | "softpick"
                        | "sink"
                        | "differential"
                        | "decayed_linear"
                ),
                "{kind}: entropies"
            );
        }
    }
}
