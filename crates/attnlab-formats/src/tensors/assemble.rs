//! Arrays read from the files, put together: `q`, `k`, `v` as heads, checked against
//! each other and against the labels, as the core checks a problem, into one [`Brought`].

use attnlab_core::attention::{AttentionSpec, HeadInput, Problem};
use attnlab_core::model::Projected;
use ndarray::Array2;

use super::error::{NAMING, NAMING_ZH, role_name, role_name_zh};
use super::labels::Labels;
use super::npy::{Array, shape_text};
use super::{BringError, Brought, MAX_HEADS, MAX_WIDTH, Parts, Role, stem};
use attnlab_i18n::said::Said;
use attnlab_lab::state::MAX_TOKENS;

/// `prefix0 … prefix{n−1}`.
pub(super) fn numbered(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// An array of `q`, `k` or `v` as heads of `rows × width` matrices.
fn as_heads(file: &str, role: Role, array: Array) -> Result<Vec<Array2<f32>>, BringError> {
    let shape = array.shape.clone();
    let fail = |why: String, zh: String| {
        let shape = shape_text(&shape);
        BringError::both(
            file,
            format!("{} has shape {shape}: {why}", role_name(role)),
            format!("{} 的形状是 {shape}：{zh}", role_name_zh(role)),
        )
    };
    if shape.contains(&0) {
        return Err(fail("it holds no numbers".into(), "它不含任何数".into()));
    }
    let (heads, rows, width) = match shape.as_slice() {
        [n, d] => (1, *n, *d),
        [h, n, d] => (*h, *n, *d),
        [1, h, n, d] => (*h, *n, *d),
        [b, _, _, _] => {
            return Err(fail(
                format!("a batch of {b}; save one example (e.g. {}[0])", stem(file)),
                format!("一批 {b} 个样例；请只保存一个（例如 {}[0]）", stem(file)),
            ));
        }
        _ => {
            return Err(fail(
                "expected (n, d), (heads, n, d) or (1, heads, n, d)".into(),
                "应为 (n, d)、(头数, n, d) 或 (1, 头数, n, d)".into(),
            ));
        }
    };
    if heads > MAX_HEADS {
        return Err(fail(
            format!("{heads} heads; the lab shows at most {MAX_HEADS}"),
            format!("{heads} 个头；实验室最多显示 {MAX_HEADS} 个"),
        ));
    }
    if rows > MAX_TOKENS {
        return Err(fail(
            format!("{rows} tokens; the lab computes at most {MAX_TOKENS}"),
            format!("{rows} 个词元；实验室最多计算 {MAX_TOKENS} 个"),
        ));
    }
    if width > MAX_WIDTH {
        return Err(fail(
            format!("rows of {width} numbers; at most {MAX_WIDTH} are read"),
            format!("每行 {width} 个数；最多读取 {MAX_WIDTH} 个"),
        ));
    }
    Ok(array
        .data
        .chunks_exact(rows * width)
        .map(|head| Array2::from_shape_vec((rows, width), head.to_vec()).expect("sized by shape"))
        .collect())
}

pub(super) fn from_parts(parts: Parts, files: Vec<String>) -> Result<Brought, BringError> {
    let missing: Vec<&str> = [("q", &parts.q), ("k", &parts.k), ("v", &parts.v)]
        .iter()
        .filter(|(_, p)| p.is_none())
        .map(|(name, _)| *name)
        .collect();
    if !missing.is_empty() {
        return Err(BringError::both(
            "",
            format!(
                "{} missing from {}: bring q, k and v ({NAMING})",
                missing.join(", "),
                files.join(", "),
            ),
            format!(
                "{} 中缺少 {}：请带入 q、k 和 v（{NAMING_ZH}）",
                files.join(", "),
                missing.join("、"),
            ),
        ));
    }
    let (q_file, q) = parts.q.expect("checked");
    let (k_file, k) = parts.k.expect("checked");
    let (v_file, v) = parts.v.expect("checked");
    let q = as_heads(&q_file, Role::Q, q)?;
    let k = as_heads(&k_file, Role::K, k)?;
    let v = as_heads(&v_file, Role::V, v)?;
    if k.len() != q.len() || v.len() != q.len() {
        let (file, count) = if k.len() != q.len() {
            (&k_file, k.len())
        } else {
            (&v_file, v.len())
        };
        return Err(BringError::both(
            file,
            format!(
                "has {count} heads, but q has {}: every tensor needs the same heads",
                q.len()
            ),
            format!(
                "有 {count} 个头，但 q 有 {} 个：每个张量的头数必须相同",
                q.len()
            ),
        ));
    }
    if k[0].ncols() != q[0].ncols() {
        return Err(BringError::both(
            &k_file,
            format!(
                "has rows of {} numbers, but q's have {}: queries and keys need the same width d_k",
                k[0].ncols(),
                q[0].ncols()
            ),
            format!(
                "每行有 {} 个数，但 q 每行有 {} 个：查询和键的宽度 d_k 必须相同",
                k[0].ncols(),
                q[0].ncols()
            ),
        ));
    }
    if v[0].nrows() != k[0].nrows() {
        return Err(BringError::both(
            &v_file,
            format!(
                "has {} rows, but k has {}: one value per key",
                v[0].nrows(),
                k[0].nrows()
            ),
            format!(
                "有 {} 行，但 k 有 {} 行：每个键对应一个值",
                v[0].nrows(),
                k[0].nrows()
            ),
        ));
    }
    let w_o = match parts.w_o {
        None => None,
        Some((file, a)) if a.shape.len() == 2 => Some((
            file,
            Array2::from_shape_vec((a.shape[0], a.shape[1]), a.data).expect("sized by shape"),
        )),
        Some((file, a)) => {
            return Err(BringError::both(
                file,
                format!(
                    "w_o has shape {}: expected (heads · d_v, d_out)",
                    shape_text(&a.shape)
                ),
                format!(
                    "w_o 的形状是 {}：应为 (头数 · d_v, d_out)",
                    shape_text(&a.shape)
                ),
            ));
        }
    };
    let heads = q
        .into_iter()
        .zip(k)
        .zip(v)
        .map(|((q, k), v)| HeadInput::new(q, k, v))
        .collect();
    let (w_o_file, w_o) = match w_o {
        Some((f, w)) => (Some(f), Some(w)),
        None => (None, None),
    };
    finish(files, heads, w_o, parts.labels, Vec::new()).map_err(|mut e| {
        if e.file.is_empty()
            && let Some(f) = w_o_file
        {
            e.file = f;
        }
        e
    })
}

/// Checks the heads as the core does, labels them, and gathers the result.
pub(super) fn finish(
    files: Vec<String>,
    heads: Vec<HeadInput>,
    w_o: Option<Array2<f32>>,
    labels: Option<(String, Labels)>,
    notes: Vec<Said>,
) -> Result<Brought, BringError> {
    let (n, m) = (heads[0].q.nrows(), heads[0].k.nrows());
    let dims = |h: &HeadInput| (h.q.dim(), h.k.dim(), h.v.dim());
    if let Some(h) = heads.iter().position(|h| dims(h) != dims(&heads[0])) {
        let text = |(r, c): (usize, usize)| format!("{r}\u{d7}{c}");
        let ((q0, k0, v0), (q, k, v)) = (dims(&heads[0]), dims(&heads[h]));
        let (now, first) = (
            format!("{}, {}, {}", text(q), text(k), text(v)),
            format!("{}, {}, {}", text(q0), text(k0), text(v0)),
        );
        return Err(BringError::both(
            "",
            format!(
                "heads[{h}] has q, k, v of {now} but heads[0] of {first}: every head needs the same sizes"
            ),
            format!(
                "heads[{h}] 的 q、k、v 为 {now}，而 heads[0] 的为 {first}：每个头的大小必须相同"
            ),
        ));
    }
    // Everything the core checks (finite values, W^O's shape) once, here.
    Problem::new(heads.clone(), AttentionSpec::default(), w_o.clone()).map_err(|e| {
        BringError::both(
            "",
            format!(
                "{}: {}",
                e.path(),
                attnlab_lab::explain::reason_in(&e, attnlab_i18n::Lang::En)
            ),
            format!(
                "{}：{}",
                e.path(),
                attnlab_lab::explain::reason_in(&e, attnlab_i18n::Lang::Zh)
            ),
        )
    })?;
    let (queries, keys) = match labels {
        None if n == m => (numbered("t", n), numbered("t", m)),
        None => (numbered("q", n), numbered("k", m)),
        Some((file, Labels::Both(list))) => {
            if list.len() != n || (m != n && list.len() != m) {
                let (why, why_zh) = if n == m {
                    (
                        format!("q and k have {n} rows (one label per token)"),
                        format!("q 和 k 有 {n} 行（每个词元一个标签）"),
                    )
                } else {
                    (
                        format!(
                            "q has {n} rows and k {m}: give {{\"queries\": […], \"keys\": […]}} in tokens.json"
                        ),
                        format!(
                            "q 有 {n} 行而 k 有 {m} 行：请在 tokens.json 中给出 {{\"queries\": […], \"keys\": […]}}"
                        ),
                    )
                };
                return Err(BringError::both(
                    file,
                    format!("has {} labels, but {why}", list.len()),
                    format!("有 {} 个标签，但 {why_zh}", list.len()),
                ));
            }
            (list.clone(), list)
        }
        Some((file, Labels::Each { queries, keys })) => {
            if queries.len() != n || keys.len() != m {
                return Err(BringError::both(
                    file,
                    format!(
                        "has {} query and {} key labels, but q has {n} rows and k {m}",
                        queries.len(),
                        keys.len()
                    ),
                    format!(
                        "有 {} 个查询标签和 {} 个键标签，但 q 有 {n} 行而 k 有 {m} 行",
                        queries.len(),
                        keys.len()
                    ),
                ));
            }
            (queries, keys)
        }
    };
    Ok(Brought {
        files,
        projected: Projected { heads, w_o },
        queries,
        keys,
        notes,
    })
}
