//! The fields of the attention kinds beyond the lab's six (docs/tensors.md): each is read
//! only by the kinds that use it, and refused, with its path, by every other kind — never
//! ignored silently.

use attnlab_core::attention::{AttentionKind, HeadInput};
use attnlab_core::score::ScoreFunction;
use attnlab_i18n::msg::kinds;
use attnlab_i18n::said::Said;

use super::super::json_input::{Array, Finite, RawDocument, RawHead, Rows};
use super::{FieldError, Parsed, matrix};

/// `path` does not apply to `kind`.
fn not_for(path: impl Into<String>, kind: AttentionKind) -> FieldError {
    let said = Said::of(|lang| kinds::KindsFieldNotFor { kind: &kind.name() }.say(lang));
    FieldError::said(path, said)
}

/// Whether `kind` is one of the lab's six kinds (which keep today's reading of today's
/// fields).
fn lab_kind(kind: AttentionKind) -> bool {
    AttentionKind::ALL.contains(&kind)
}

/// Refuses the document's fields that `kind` does not use: `temperature` (decayed linear,
/// FAVOR+), `score` (FAVOR+), `sigmoid_bias`, `lambda`, `gates`.
pub(super) fn refuse_document(raw: &RawDocument, kind: AttentionKind) -> Parsed<()> {
    use AttentionKind::{DecayedLinear, Differential, Favor, Sigmoid};
    let refused = [
        (
            "temperature",
            raw.temperature.is_some() && matches!(kind, DecayedLinear | Favor),
        ),
        ("score", raw.score.is_some() && kind == Favor),
        (
            "sigmoid_bias",
            raw.sigmoid_bias.is_some() && kind != Sigmoid,
        ),
        ("lambda", raw.lambda.is_some() && kind != Differential),
        ("gates", raw.gates.is_some() && kind != DecayedLinear),
    ];
    match refused.iter().find(|(_, r)| *r) {
        Some((field, _)) => Err(not_for(*field, kind)),
        None => Ok(()),
    }
}

/// Refuses head `at`'s fields that `kind` (with the score `score`) does not use: the new
/// kinds' own fields, and for the new kinds also `score_params` where the score takes
/// none (or FAVOR+, which uses no score) and `linformer`.
pub(super) fn refuse_head(
    raw: &RawHead,
    at: &str,
    kind: AttentionKind,
    score: ScoreFunction,
) -> Parsed<()> {
    use AttentionKind::{DecayedLinear, Differential, Favor, Sink};
    let params_unused = !matches!(score, ScoreFunction::General | ScoreFunction::Additive)
        || !kind.uses_score_function();
    let new = !lab_kind(kind);
    let refused = [
        (
            "score_params",
            new && raw.score_params.is_some() && params_unused,
        ),
        ("linformer", new && raw.linformer.is_some()),
        ("sink", raw.sink.is_some() && kind != Sink),
        ("q2", raw.q2.is_some() && kind != Differential),
        ("k2", raw.k2.is_some() && kind != Differential),
        ("decay", raw.decay.is_some() && kind != DecayedLinear),
        ("gates", raw.gates.is_some() && kind != DecayedLinear),
        ("features", raw.features.is_some() && kind != Favor),
    ];
    match refused.iter().find(|(_, r)| *r) {
        Some((field, _)) => Err(not_for(format!("{at}.{field}"), kind)),
        None => Ok(()),
    }
}

fn values(v: Option<Array<Finite>>) -> Option<Vec<f32>> {
    v.map(|v| v.0.iter().map(|x| x.0).collect())
}

/// The new kinds' fields of a head, taken out of its [`RawHead`].
pub(super) struct NewFields {
    pub sink: Option<Finite>,
    pub q2: Option<Rows>,
    pub k2: Option<Rows>,
    pub decay: Option<Finite>,
    pub gates: Option<Array<Finite>>,
    pub features: Option<Rows>,
}

impl NewFields {
    /// Into `head` (their presence, shapes and ranges are checked by the core, which
    /// names them the same way). Taken after [`refuse_head`].
    pub(super) fn read(self, at: &str, head: &mut HeadInput) -> Parsed<()> {
        let matrix_at = |rows, field: &str| matrix(rows, &format!("{at}.{field}"));
        head.sink = self.sink.map(|s| s.0);
        head.q2 = self.q2.map(|r| matrix_at(r, "q2")).transpose()?;
        head.k2 = self.k2.map(|r| matrix_at(r, "k2")).transpose()?;
        head.decay = self.decay.map(|d| d.0);
        head.gates = values(self.gates);
        head.features = self
            .features
            .map(|r| matrix_at(r, "features"))
            .transpose()?;
        Ok(())
    }
}

/// The document's `sigmoid_bias`, `lambda` and `gates`.
pub(super) fn read_document(
    sigmoid_bias: Option<Finite>,
    lambda: Option<Finite>,
    gates: Option<Array<Finite>>,
) -> (Option<f32>, f32, Option<Vec<f32>>) {
    (
        sigmoid_bias.map(|b| b.0),
        lambda.map_or(attnlab_core::attention::DEFAULT_LAMBDA, |l| l.0),
        values(gates),
    )
}
