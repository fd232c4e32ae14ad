//! Arrays read from the files, put together: `q`, `k`, `v` as heads, checked against
//! each other and against the labels, as the core checks a problem, into one [`Brought`].

use attnlab_core::attention::{AttentionSpec, HeadInput, Problem};
use attnlab_core::model::Projected;
use ndarray::Array2;

use super::error::role_name;
use super::labels::Labels;
use super::npy::{Array, shape_text};
use super::{BringError, Brought, MAX_HEADS, MAX_WIDTH, Parts, Role, stem};
use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;
use attnlab_lab::state::MAX_TOKENS;

/// `prefix0 … prefix{n−1}`.
pub(super) fn numbered(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// An array of `q`, `k` or `v` as heads of `rows × width` matrices.
fn as_heads(file: &str, role: Role, array: Array) -> Result<Vec<Array2<f32>>, BringError> {
    let shape = array.shape.clone();
    let fail = |why: Said| {
        let shape = shape_text(&shape);
        let said = Said::of(|lang| {
            formats::BringShape {
                role: &role_name(role).get(lang),
                shape: &shape,
                why: &why.get(lang),
            }
            .say(lang)
        });
        BringError::said(file, said)
    };
    if shape.contains(&0) {
        return Err(fail(formats::BRING_SHAPE_NO_NUMBERS.into()));
    }
    let (heads, rows, width) = match shape.as_slice() {
        [n, d] => (1, *n, *d),
        [h, n, d] => (*h, *n, *d),
        [1, h, n, d] => (*h, *n, *d),
        [b, _, _, _] => {
            return Err(fail(
                formats::BringShapeBatch {
                    batch: b,
                    name: &stem(file),
                }
                .said(),
            ));
        }
        _ => {
            return Err(fail(formats::BRING_SHAPE_EXPECTED.into()));
        }
    };
    if heads > MAX_HEADS {
        return Err(fail(
            formats::BringShapeHeads {
                heads: &heads,
                max: &MAX_HEADS,
            }
            .said(),
        ));
    }
    if rows > MAX_TOKENS {
        return Err(fail(
            formats::BringShapeTokens {
                rows: &rows,
                max: &MAX_TOKENS,
            }
            .said(),
        ));
    }
    if width > MAX_WIDTH {
        return Err(fail(
            formats::BringShapeWidth {
                width: &width,
                max: &MAX_WIDTH,
            }
            .said(),
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
        let files = files.join(", ");
        let said = Said::of(|lang| {
            formats::BringMissingArrays {
                missing: &missing.join(attnlab_i18n::msg::lab::LIST_SEPARATOR.get(lang)),
                files: &files,
            }
            .say(lang)
        });
        return Err(BringError::said("", said));
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
        let said = formats::BringHeadCount {
            count: &count,
            q: &q.len(),
        }
        .said();
        return Err(BringError::said(file, said));
    }
    if k[0].ncols() != q[0].ncols() {
        let said = formats::BringKeyWidth {
            k: &k[0].ncols(),
            q: &q[0].ncols(),
        }
        .said();
        return Err(BringError::said(&k_file, said));
    }
    if v[0].nrows() != k[0].nrows() {
        let said = formats::BringValueRows {
            v: &v[0].nrows(),
            k: &k[0].nrows(),
        }
        .said();
        return Err(BringError::said(&v_file, said));
    }
    let w_o = match parts.w_o {
        None => None,
        Some((file, a)) if a.shape.len() == 2 => Some((
            file,
            Array2::from_shape_vec((a.shape[0], a.shape[1]), a.data).expect("sized by shape"),
        )),
        Some((file, a)) => {
            let said = formats::BringWOShape {
                shape: &shape_text(&a.shape),
            }
            .said();
            return Err(BringError::said(file, said));
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
        let said = formats::BringHeadSizes {
            head: &h,
            now: &now,
            first: &first,
        }
        .said();
        return Err(BringError::said("", said));
    }
    // Everything the core checks (finite values, W^O's shape) once, here.
    Problem::new(heads.clone(), AttentionSpec::default(), w_o.clone()).map_err(|e| {
        let said = Said::of(|lang| {
            formats::FormatsWhere {
                place: &e.path(),
                what: &attnlab_lab::explain::reason_in(&e, lang),
            }
            .say(lang)
        });
        BringError::said("", said)
    })?;
    let (queries, keys) = match labels {
        None if n == m => (numbered("t", n), numbered("t", m)),
        None => (numbered("q", n), numbered("k", m)),
        Some((file, Labels::Both(list))) => {
            if list.len() != n || (m != n && list.len() != m) {
                let why = if n == m {
                    formats::BringLabelCountSame { n: &n }.said()
                } else {
                    formats::BringLabelCountCross { n: &n, m: &m }.said()
                };
                let said = Said::of(|lang| {
                    formats::BringLabelCount {
                        count: &list.len(),
                        why: &why.get(lang),
                    }
                    .say(lang)
                });
                return Err(BringError::said(file, said));
            }
            (list.clone(), list)
        }
        Some((file, Labels::Each { queries, keys })) => {
            if queries.len() != n || keys.len() != m {
                let said = formats::BringLabelCounts {
                    queries: &queries.len(),
                    keys: &keys.len(),
                    n: &n,
                    m: &m,
                }
                .said();
                return Err(BringError::said(file, said));
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
