//! The fields of the logits pipeline and of the positions in an `attnlab-tensors/1`
//! document: `positions` (RoPE and its scalings), `alibi`, `softcap`, `kv_heads`
//! (grouped-query and multi-query attention) and `tiles` (`mask.sinks` is read with the
//! mask). Their values are checked by the core (`Rope::validate`, `Problem::new`),
//! whose errors name the same paths; what only the document can tell — a field the
//! chosen scaling does not use, `alibi`'s form, a head's `k` beside `kv_heads`, groups of
//! different lengths — is checked here.

use attnlab_core::alibi::Alibi;
use attnlab_core::groups::{self, KeyValues};
use attnlab_core::rope::{Rope, RopePairs, RopeScaling};
use ndarray::Array2;
use serde_json::Value;

use attnlab_i18n::msg::{formats, pipeline as msg};
use attnlab_i18n::said::Said;

use super::super::json_input::{
    Array, Count, Finite, Object, RawAlibi, RawKv, RawPositions, RawScaling, Rows,
};
use super::{FieldError, MISSING, Parsed, choice, quoted, required_matrix, typed};

/// The one kind of `positions`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RopeKind;

#[derive(Debug, Clone, Copy, PartialEq)]
enum ScalingKind {
    Linear,
    Ntk,
    Yarn,
}

impl ScalingKind {
    const ALL: [ScalingKind; 3] = [ScalingKind::Linear, ScalingKind::Ntk, ScalingKind::Yarn];

    fn name(self) -> &'static str {
        match self {
            ScalingKind::Linear => "linear",
            ScalingKind::Ntk => "ntk",
            ScalingKind::Yarn => "yarn",
        }
    }

    fn parse(name: &str) -> Option<ScalingKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A name that must be there, among `all`.
fn required_choice<T: Copy>(
    given: Option<String>,
    path: &str,
    all: &[T],
    parse: fn(&str) -> Option<T>,
    name: fn(T) -> &'static str,
) -> Parsed<T> {
    match given {
        None => Err(FieldError::said(path, MISSING)),
        Some(_) => choice(given, path, all[0], all, parse, name),
    }
}

/// `positions` as RoPE.
pub(super) fn parse_positions(raw: RawPositions) -> Parsed<Rope> {
    required_choice(
        raw.kind,
        "positions.kind",
        &[RopeKind],
        |n| (n == "rope").then_some(RopeKind),
        |_| "rope",
    )?;
    let pairs = choice(
        raw.pairs,
        "positions.pairs",
        RopePairs::Half,
        &RopePairs::ALL,
        RopePairs::parse,
        RopePairs::name,
    )?;
    let list = |a: Option<Array<Finite>>| a.map(|a| a.0.iter().map(|x| x.0).collect());
    Ok(Rope {
        base: raw.base.map_or(10000.0, |b| b.0),
        pairs,
        rotary_dims: raw.rotary_dims.map(|c| c.0),
        query_positions: list(raw.query_positions),
        key_positions: list(raw.key_positions),
        scaling: match raw.scaling {
            None => RopeScaling::None,
            Some(s) => parse_scaling(s.0)?,
        },
    })
}

fn parse_scaling(raw: RawScaling) -> Parsed<RopeScaling> {
    let kind = required_choice(
        raw.kind,
        "positions.scaling.kind",
        &ScalingKind::ALL,
        ScalingKind::parse,
        ScalingKind::name,
    )?;
    let factor = raw
        .factor
        .ok_or_else(|| FieldError::said("positions.scaling.factor", MISSING))?
        .0;
    if kind != ScalingKind::Yarn {
        let unused = [
            (
                "original_max_positions",
                raw.original_max_positions.is_some(),
            ),
            ("beta_fast", raw.beta_fast.is_some()),
            ("beta_slow", raw.beta_slow.is_some()),
        ];
        if let Some((field, _)) = unused.into_iter().find(|(_, given)| *given) {
            let scaling = kind.name();
            return Err(FieldError::said(
                format!("positions.scaling.{field}"),
                msg::PipelineJsonScalingField { scaling: &scaling }.said(),
            ));
        }
    }
    Ok(match kind {
        ScalingKind::Linear => RopeScaling::Linear { factor },
        ScalingKind::Ntk => RopeScaling::Ntk { factor },
        ScalingKind::Yarn => RopeScaling::Yarn {
            factor,
            original_max_positions: raw
                .original_max_positions
                .ok_or_else(|| {
                    FieldError::said("positions.scaling.original_max_positions", MISSING)
                })?
                .0,
            beta_fast: raw.beta_fast.map_or(32.0, |b| b.0),
            beta_slow: raw.beta_slow.map_or(1.0, |b| b.0),
        },
    })
}

/// `alibi`: `true` (the paper's slopes), `false` (none) or `{"slopes": […]}`.
pub(super) fn parse_alibi(raw: Option<&Value>, unknown: &mut Vec<String>) -> Parsed<Option<Alibi>> {
    match raw {
        None | Some(Value::Null) | Some(Value::Bool(false)) => Ok(None),
        Some(Value::Bool(true)) => Ok(Some(Alibi::Paper)),
        Some(v @ Value::Object(_)) => {
            let a: Object<RawAlibi> = typed(v, "alibi", unknown)?;
            let slopes =
                a.0.slopes
                    .ok_or_else(|| FieldError::said("alibi.slopes", MISSING))?;
            Ok(Some(Alibi::Slopes(slopes.0.iter().map(|x| x.0).collect())))
        }
        Some(other) => {
            let given: Said = match other {
                Value::String(s) => quoted(s),
                _ => {
                    let text: String = other.to_string().chars().take(20).collect();
                    Said::new(text.clone(), text)
                }
            };
            let said = Said::of(|lang| {
                msg::PipelineJsonAlibi {
                    given: &given.get(lang),
                }
                .say(lang)
            });
            Err(FieldError::said("alibi", said))
        }
    }
}

/// `softcap`: a number above 0.
pub(super) fn parse_softcap(raw: Option<Finite>) -> Parsed<Option<f32>> {
    match raw {
        Some(Finite(c)) if c <= 0.0 => Err(FieldError::said(
            "softcap",
            msg::PipelineJsonPositive { value: &c }.said(),
        )),
        other => Ok(other.map(|c| c.0)),
    }
}

/// `tiles`: an integer ≥ 1.
pub(super) fn parse_tiles(raw: Option<Count>) -> Parsed<Option<usize>> {
    match raw {
        Some(Count(0)) => Err(FieldError::said("tiles", msg::PIPELINE_TILES)),
        other => Ok(other.map(|c| c.0)),
    }
}

/// `kv_heads`: at least one group, each `k` (m×d_k) and `v` (m×d_v), all of the first
/// group's length; `heads` groups of them (`G` divides `H`).
pub(super) fn parse_groups(raw: Array<Object<RawKv>>, heads: usize) -> Parsed<Vec<KeyValues>> {
    let groups = raw
        .0
        .into_iter()
        .enumerate()
        .map(|(g, kv)| {
            let path = format!("kv_heads[{g}]");
            let k = required_matrix(kv.0.k, &format!("{path}.k"), MISSING)?;
            let v = required_matrix(kv.0.v, &format!("{path}.v"), MISSING)?;
            if v.nrows() != k.nrows() {
                return Err(FieldError::said(
                    format!("{path}.v"),
                    formats::JsonValueRows {
                        rows: &v.nrows(),
                        keys: &k.nrows(),
                    }
                    .said(),
                ));
            }
            Ok(KeyValues { k, v })
        })
        .collect::<Parsed<Vec<_>>>()?;
    if let Some(first) = groups.first() {
        let m = first.k.nrows();
        if let Some((g, kv)) = groups.iter().enumerate().find(|(_, kv)| kv.k.nrows() != m) {
            return Err(FieldError::said(
                format!("kv_heads[{g}].k"),
                msg::PipelineJsonGroupRows {
                    rows: &kv.k.nrows(),
                    m: &m,
                }
                .said(),
            ));
        }
    }
    groups::check_groups(heads, groups.len())?;
    Ok(groups)
}

/// Head `h`'s keys and values: its group's, when there are groups (then the head may not
/// give its own `k` or `v`: an error naming it), else its own. The path of the keys, for
/// the check of their width against the head's queries.
pub(super) fn keys_and_values(
    groups: Option<&[KeyValues]>,
    heads: usize,
    h: usize,
    own: (Option<Rows>, Option<Rows>),
) -> Parsed<(Array2<f32>, Array2<f32>, String)> {
    let path = format!("heads[{h}]");
    match groups {
        Some(groups) => {
            for (field, given) in [("k", own.0.is_some()), ("v", own.1.is_some())] {
                if given {
                    return Err(FieldError::said(
                        format!("{path}.{field}"),
                        msg::PIPELINE_JSON_KV_GIVEN,
                    ));
                }
            }
            let g = groups::group_of(h, heads, groups.len());
            let kv = &groups[g];
            Ok((kv.k.clone(), kv.v.clone(), format!("kv_heads[{g}].k")))
        }
        None => Ok((
            required_matrix(own.0, &format!("{path}.k"), MISSING)?,
            required_matrix(own.1, &format!("{path}.v"), MISSING)?,
            format!("{path}.k"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use attnlab_i18n::Lang;
    use attnlab_i18n::check::latin_words;

    use super::super::parse;

    /// Documents each refused on one of these fields.
    const BAD: [&str; 14] = [
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"positions":{"kind":"rope","base":-1}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"positions":{"kind":"rope","rotary_dims":4}}"#,
        r#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}],"positions":{"kind":"rope"}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"positions":{"kind":"rope","key_positions":[1,2]}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"positions":{"kind":"rope","scaling":{"kind":"ntk","factor":2}}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"positions":{"kind":"rope","base":1,"scaling":{"kind":"yarn","factor":2,"original_max_positions":8}}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"positions":{"kind":"rope","scaling":{"kind":"ntk","factor":2,"beta_slow":1}}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"alibi":{"slopes":[1,2]}}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"alibi":"yes"}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"softcap":-2}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"tiles":1,"attention":"elu1"}"#,
        r#"{"heads":[{"q":[[1,0]]},{"q":[[1,0]]},{"q":[[1,0]]}],"kv_heads":[{"k":[[1,0]],"v":[[1]]},{"k":[[1,0]],"v":[[1]]}]}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]]}],"kv_heads":[{"k":[[1,0]],"v":[[1]]}]}"#,
        r#"{"heads":[{"q":[[1,0]],"k":[[1,0]],"v":[[1]]}],"mask":{"sinks":2}}"#,
    ];

    #[test]
    fn every_refusal_is_said_in_both_languages() {
        for doc in BAD {
            let e = parse(doc).unwrap_err();
            let (en, zh) = (e.text(Lang::En), e.text(Lang::Zh));
            assert!(en.starts_with(&format!("{}: ", e.path)), "{en}");
            assert!(zh.starts_with(&e.path), "{zh}");
            assert_ne!(en, zh);
            let words = latin_words(&zh.replace(&e.path, ""));
            assert!(words.is_empty(), "{zh}: {words:?}");
        }
    }
}
