//! Errors of the core and of the figures as one sentence a student understands, in
//! either language: what the lab says when a setting, a brought file or a figure cannot
//! be computed. The words are the message catalogue's (`core.ftl`, `lab.ftl`); the core
//! only names what is wrong.

use attnlab_core::attention::AttentionKind;
use attnlab_core::error::{BlockInvalid, CoreError, Expected, Invalid, Needs};
use attnlab_i18n::msg::{core as m, kinds, lab};
use attnlab_i18n::{Lang, Tr};
use attnlab_plot::HeatmapError;

mod pipeline;
pub use pipeline::pipeline_in;

/// A core error as one sentence a student understands, in English, e.g. "These settings
/// cannot be used: must divide d_model = 64 (so d_k = d_model / heads is whole), got 5
/// (heads)."
pub fn explain(e: &CoreError) -> String {
    explain_in(e, Lang::En)
}

/// A core error as one sentence a student understands, in `lang`.
pub fn explain_in(e: &CoreError, lang: Lang) -> String {
    // An error inside a block's layer is said as the error itself, at its path.
    let inner = match e {
        CoreError::InLayer { error, .. } => error.as_ref(),
        other => other,
    };
    let what = match inner {
        CoreError::InvalidSetting { .. }
        | CoreError::InvalidTemperature(_)
        | CoreError::UnsupportedMask { .. } => lab::EXPLAIN_SETTINGS,
        CoreError::Overflow { .. } => lab::EXPLAIN_OVERFLOW,
        _ => lab::EXPLAIN_ATTENTION,
    };
    lab::Explained {
        what: &what.get(lang),
        reason: &reason_in(e, lang),
        path: &e.path(),
    }
    .say(lang)
}

/// Why a figure cannot be built, in `lang` (the English is the error's `Display`).
pub fn heatmap_error_in(e: &HeatmapError, lang: Lang) -> String {
    match e {
        HeatmapError::Shape {
            field,
            expected,
            got,
        } => lab::HeatmapShape {
            field,
            expected,
            got,
        }
        .say(lang),
        HeatmapError::NonFinite { row, col } => lab::HeatmapNonFinite { row, col }.say(lang),
        HeatmapError::RowOutOfRange { row, rows } => {
            lab::HeatmapRowOutOfRange { row, rows }.say(lang)
        }
        HeatmapError::NonFiniteRowValue { field, row } => {
            lab::HeatmapNonFiniteRowValue { field, row }.say(lang)
        }
        HeatmapError::ShapeMismatch { a, b } => lab::HeatmapShapeMismatch {
            a_rows: &a.0,
            a_cols: &a.1,
            b_rows: &b.0,
            b_cols: &b.1,
        }
        .say(lang),
    }
}

/// What is wrong, without the path, in `lang` (the English is the error's `reason()`).
pub fn reason_in(e: &CoreError, lang: Lang) -> String {
    match e {
        CoreError::ShapeMismatch { expected, got, .. } => m::ShapeMismatch {
            rows: &got.0,
            cols: &got.1,
            expected: &expected_in(expected, lang),
        }
        .say(lang),
        CoreError::NonFinite { row, col, .. } => m::NonFinite { row, col }.say(lang),
        CoreError::NoHeads => m::NO_HEADS.get(lang).to_string(),
        CoreError::InvalidTemperature(t) => m::InvalidTemperature { t }.say(lang),
        CoreError::MissingParams { needs, .. } => m::MissingParams {
            needs: &needs_in(*needs, lang),
        }
        .say(lang),
        CoreError::UnsupportedMask {
            attention: kind,
            mask,
        } => {
            let (attention, mask) = match lang {
                Lang::En => (kind.name(), *mask),
                Lang::Zh => (
                    kind_label(*kind, lang),
                    crate::state::masks::MaskKind::ALL
                        .into_iter()
                        .find(|k| k.core_name() == *mask)
                        .map_or_else(
                            || match *mask {
                                "sinks" => {
                                    attnlab_i18n::msg::pipeline::PIPELINE_MASK_SINKS.get(lang)
                                }
                                other => other,
                            },
                            |k| k.shown(lang),
                        ),
                ),
            };
            m::UnsupportedMask {
                attention: &attention,
                mask: &mask,
                why: &mask_limitation(*kind, lang),
            }
            .say(lang)
        }
        CoreError::IndexOutOfRange { index, len, .. } => {
            m::IndexOutOfRange { index, len }.say(lang)
        }
        CoreError::InvalidSetting { reason, .. } | CoreError::InvalidHeadSetting { reason, .. } => {
            invalid_in(reason, lang)
        }
        CoreError::Overflow { what, .. } => m::Overflow { what }.say(lang),
        CoreError::InLayer { error, .. } => reason_in(error, lang),
    }
}

/// What a shape had to be, in `lang`.
pub fn expected_in(x: &Expected, lang: Lang) -> String {
    match *x {
        Expected::GeneralW { d_k } => m::ExpectedGeneralW { d_k: &d_k }.say(lang),
        Expected::AdditiveWa { d_k } => m::ExpectedAdditiveWa { d_k: &d_k }.say(lang),
        Expected::AdditiveUa { d_a, d_k } => m::ExpectedAdditiveUa {
            d_a: &d_a,
            d_k: &d_k,
        }
        .say(lang),
        Expected::AdditiveVa { d_a } => m::ExpectedAdditiveVa { d_a: &d_a }.say(lang),
        Expected::QueryRows { n } => m::ExpectedQueryRows { n: &n }.say(lang),
        Expected::Keys { m, d_k } => m::ExpectedKeys { m: &m, d_k: &d_k }.say(lang),
        Expected::ValueRows { m } => m::ExpectedValueRows { m: &m }.say(lang),
        Expected::LinformerE { m } => m::ExpectedLinformerE { m: &m }.say(lang),
        Expected::LinformerF { k, m } => m::ExpectedLinformerF { k: &k, m: &m }.say(lang),
        Expected::OutputRows { width } => m::ExpectedOutputRows { width: &width }.say(lang),
        Expected::InputColumns { d_in } => m::ExpectedInputColumns { d_in: &d_in }.say(lang),
        Expected::Mask { n, m } => m::ExpectedMask { n: &n, m: &m }.say(lang),
        Expected::FirstShape { rows, cols } => m::ExpectedFirstShape {
            rows: &rows,
            cols: &cols,
        }
        .say(lang),
        Expected::ValueWidthRows { n } => m::ExpectedValueWidthRows { n: &n }.say(lang),
        Expected::WeightColumnsRows { n } => m::ExpectedWeightColumnsRows { n: &n }.say(lang),
        Expected::WeightColumnsLengths { n } => m::ExpectedWeightColumnsLengths { n: &n }.say(lang),
        Expected::Gates { n } => kinds::KindsExpectedGates { n: &n }.say(lang),
        Expected::AsField { rows, cols, field } => kinds::KindsExpectedAsField {
            rows: &rows,
            cols: &cols,
            field: &field,
        }
        .say(lang),
        Expected::Features { d_k } => kinds::KindsExpectedFeatures { d_k: &d_k }.say(lang),
        Expected::DecayedKeys { n, d_k } => {
            kinds::KindsExpectedDecayedKeys { n: &n, d_k: &d_k }.say(lang)
        }
        Expected::ModelSquare { d } => m::ExpectedModelSquare { d: &d }.say(lang),
        Expected::ModelVector { d } => m::ExpectedModelVector { d: &d }.say(lang),
        Expected::ModelColumns { d } => m::ExpectedModelColumns { d: &d }.say(lang),
        Expected::FfnIn { d } => m::ExpectedFfnIn { d: &d }.say(lang),
        Expected::FfnOut { f, d } => m::ExpectedFfnOut { f: &f, d: &d }.say(lang),
        Expected::FfnVector { f } => m::ExpectedFfnVector { f: &f }.say(lang),
    }
}

/// What a head lacks, in `lang`.
pub fn needs_in(needs: Needs, lang: Lang) -> &'static str {
    match needs {
        Needs::GeneralW => m::NEEDS_GENERAL_W,
        Needs::Additive => m::NEEDS_ADDITIVE,
        Needs::Linformer => m::NEEDS_LINFORMER,
        Needs::Sink => kinds::KINDS_NEEDS_SINK,
        Needs::Differential => kinds::KINDS_NEEDS_DIFFERENTIAL,
        Needs::Decay => kinds::KINDS_NEEDS_DECAY,
        Needs::Features => kinds::KINDS_NEEDS_FEATURES,
    }
    .get(lang)
}

/// Why a setting is refused, in `lang`.
pub fn invalid_in(reason: &Invalid, lang: Lang) -> String {
    let fixed = |t: Tr| t.get(lang).to_string();
    match *reason {
        Invalid::DModel { got, max } => m::InvalidDModel {
            got: &got,
            max: &max,
        }
        .say(lang),
        Invalid::HeadsDivide { d_model, heads } => m::InvalidHeadsDivide {
            d_model: &d_model,
            heads: &heads,
        }
        .say(lang),
        Invalid::IdentityOneHead => fixed(m::INVALID_IDENTITY_ONE_HEAD),
        Invalid::PositionBase(base) => m::InvalidPositionBase { base: &base }.say(lang),
        Invalid::PositionWidth => fixed(m::INVALID_POSITION_WIDTH),
        Invalid::SinusoidalOdd(width) => m::InvalidSinusoidalOdd { width: &width }.say(lang),
        Invalid::Stride => fixed(m::INVALID_STRIDE),
        Invalid::LinformerKeys => fixed(m::INVALID_LINFORMER_KEYS),
        Invalid::NoSuchHead { heads, head } => m::InvalidNoSuchHead {
            heads: &heads,
            head: &head,
        }
        .say(lang),
        Invalid::Permutation { positions, tokens } => m::InvalidPermutation {
            positions: &positions,
            tokens: &tokens,
        }
        .say(lang),
        Invalid::ProjectedKeys { head, keys, tokens } => m::InvalidProjectedKeys {
            head: &head,
            keys: &keys,
            tokens: &tokens,
        }
        .say(lang),
        Invalid::NotComputed => fixed(m::INVALID_NOT_COMPUTED),
        Invalid::Pipeline(p) => pipeline_in(&p, lang),
        Invalid::NotFinite => fixed(kinds::KINDS_INVALID_NOT_FINITE),
        Invalid::Unit(x) => kinds::KindsInvalidUnit { x: &x }.say(lang),
        Invalid::GateUnit { index, value } => kinds::KindsInvalidGateUnit {
            index: &index,
            value: &value,
        }
        .say(lang),
        Invalid::DecayedScore { score } => {
            kinds::KindsInvalidDecayedScore { score: &score }.say(lang)
        }
        Invalid::DecayAndGates => fixed(kinds::KINDS_INVALID_DECAY_AND_GATES),
        Invalid::Block(b) => fixed(match b {
            BlockInvalid::NoLayers => m::BLOCK_NO_LAYERS,
            BlockInvalid::NoTokens => m::BLOCK_NO_TOKENS,
            BlockInvalid::CrossWithoutMemory => m::BLOCK_CROSS_WITHOUT_MEMORY,
            BlockInvalid::MemoryWithoutCross => m::BLOCK_MEMORY_WITHOUT_CROSS,
            BlockInvalid::CrossCausal => m::BLOCK_CROSS_CAUSAL,
            BlockInvalid::DecodeNeedsCausal => m::BLOCK_DECODE_NEEDS_CAUSAL,
        }),
    }
}

/// An attention kind for people, in `lang` (`"elu+1 linear attention"`).
pub fn kind_label(kind: AttentionKind, lang: Lang) -> &'static str {
    match kind {
        AttentionKind::Linformer => return "Linformer",
        AttentionKind::SoftmaxPlusOne => lab::KIND_SOFTMAX_PLUS_ONE,
        AttentionKind::Sigmoid => lab::KIND_SIGMOID,
        AttentionKind::Softpick => lab::KIND_SOFTPICK,
        AttentionKind::Sink => lab::KIND_SINK,
        AttentionKind::Differential => lab::KIND_DIFFERENTIAL,
        AttentionKind::DecayedLinear => lab::KIND_DECAYED_LINEAR,
        AttentionKind::Favor => lab::KIND_FAVOR,
        AttentionKind::Softmax => lab::KIND_SOFTMAX,
        AttentionKind::Elu1 => lab::KIND_ELU1,
        AttentionKind::Relu => lab::KIND_RELU,
        AttentionKind::Taylor => lab::KIND_TAYLOR,
        AttentionKind::Efficient => lab::KIND_EFFICIENT,
    }
    .get(lang)
}

/// Which masks an attention kind cannot apply, and why, in `lang` (the English is the
/// core's [`AttentionKind::mask_limitation`]).
pub fn mask_limitation(kind: AttentionKind, lang: Lang) -> &'static str {
    match kind {
        AttentionKind::Efficient => lab::MASK_LIMITATION_EFFICIENT,
        AttentionKind::Linformer => lab::MASK_LIMITATION_LINFORMER,
        _ => lab::MASK_LIMITATION_NONE,
    }
    .get(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One error of every kind, every `Expected`, `Needs` and `Invalid` among them.
    fn every_error() -> Vec<CoreError> {
        let shape = |expected| CoreError::ShapeMismatch {
            head: Some(1),
            field: "k",
            expected,
            got: (3, 5),
        };
        let mut all: Vec<CoreError> = [
            Expected::GeneralW { d_k: 4 },
            Expected::AdditiveWa { d_k: 4 },
            Expected::AdditiveUa { d_a: 2, d_k: 4 },
            Expected::AdditiveVa { d_a: 2 },
            Expected::QueryRows { n: 3 },
            Expected::Keys { m: 3, d_k: 4 },
            Expected::ValueRows { m: 3 },
            Expected::LinformerE { m: 3 },
            Expected::LinformerF { k: 2, m: 3 },
            Expected::OutputRows { width: 8 },
            Expected::InputColumns { d_in: 6 },
            Expected::Mask { n: 3, m: 4 },
            Expected::FirstShape { rows: 3, cols: 3 },
            Expected::ValueWidthRows { n: 4 },
            Expected::WeightColumnsRows { n: 4 },
            Expected::WeightColumnsLengths { n: 4 },
            Expected::Gates { n: 4 },
            Expected::AsField {
                rows: 3,
                cols: 4,
                field: "q",
            },
            Expected::Features { d_k: 4 },
            Expected::DecayedKeys { n: 3, d_k: 4 },
            Expected::ModelSquare { d: 8 },
            Expected::ModelVector { d: 8 },
            Expected::ModelColumns { d: 8 },
            Expected::FfnIn { d: 8 },
            Expected::FfnOut { f: 16, d: 8 },
            Expected::FfnVector { f: 16 },
        ]
        .into_iter()
        .map(shape)
        .collect();
        for needs in [
            Needs::GeneralW,
            Needs::Additive,
            Needs::Linformer,
            Needs::Sink,
            Needs::Differential,
            Needs::Decay,
            Needs::Features,
        ] {
            all.push(CoreError::MissingParams {
                head: 0,
                field: "score_params",
                needs,
            });
        }
        for reason in [
            Invalid::DModel { got: 0, max: 512 },
            Invalid::HeadsDivide {
                d_model: 64,
                heads: 5,
            },
            Invalid::IdentityOneHead,
            Invalid::PositionBase(0.5),
            Invalid::PositionWidth,
            Invalid::SinusoidalOdd(3),
            Invalid::Stride,
            Invalid::LinformerKeys,
            Invalid::NoSuchHead { heads: 2, head: 4 },
            Invalid::Permutation {
                positions: 3,
                tokens: 4,
            },
            Invalid::ProjectedKeys {
                head: 1,
                keys: 2,
                tokens: 5,
            },
            Invalid::NotComputed,
            Invalid::NotFinite,
            Invalid::Unit(1.5),
            Invalid::GateUnit {
                index: 2,
                value: -0.5,
            },
            Invalid::DecayedScore { score: "cosine" },
            Invalid::DecayAndGates,
            Invalid::Block(BlockInvalid::NoLayers),
            Invalid::Block(BlockInvalid::NoTokens),
            Invalid::Block(BlockInvalid::CrossWithoutMemory),
            Invalid::Block(BlockInvalid::MemoryWithoutCross),
            Invalid::Block(BlockInvalid::CrossCausal),
            Invalid::Block(BlockInvalid::DecodeNeedsCausal),
        ]
        .into_iter()
        .chain(pipeline::every_reason().into_iter().map(Invalid::Pipeline))
        {
            all.push(CoreError::InvalidSetting {
                field: "heads",
                reason,
            });
        }
        all.extend([
            CoreError::NonFinite {
                head: None,
                field: "w_o",
                row: 1,
                col: 2,
            },
            CoreError::NoHeads,
            CoreError::InvalidTemperature(-1.5),
            CoreError::IndexOutOfRange {
                field: "mask.global",
                index: 7,
                len: 4,
            },
            CoreError::Overflow {
                head: 0,
                what: "scores",
            },
            CoreError::InvalidHeadSetting {
                head: 1,
                field: "decay",
                reason: Invalid::Unit(2.0),
            },
            CoreError::InvalidSetting {
                field: "cross.causal",
                reason: Invalid::Block(BlockInvalid::CrossCausal),
            }
            .in_layer(2),
        ]);
        for attention in [AttentionKind::Efficient, AttentionKind::Linformer] {
            for mask in ["causal", "window", "sinks"] {
                all.push(CoreError::UnsupportedMask { attention, mask });
            }
        }
        all
    }

    #[test]
    fn the_catalogues_english_is_the_cores_own() {
        for e in every_error() {
            assert_eq!(reason_in(&e, Lang::En), e.reason(), "{e:?}");
        }
        for kind in AttentionKind::ALL {
            assert_eq!(mask_limitation(kind, Lang::En), kind.mask_limitation());
        }
    }

    #[test]
    fn every_core_error_is_said_in_chinese_without_english_words() {
        for e in every_error() {
            let zh = explain_in(&e, Lang::Zh);
            assert!(zh.ends_with('。'), "{zh}");
            let words = attnlab_i18n::check::latin_words(&zh.replace(&e.path(), ""));
            // The overflow names its quantity in the core's words (`scores`).
            let words: Vec<_> = words.into_iter().filter(|w| w != "scores").collect();
            assert!(words.is_empty(), "{zh}: {words:?}");
        }
    }

    #[test]
    fn a_sentence_is_the_same_as_before_the_catalogue() {
        let e = CoreError::InvalidSetting {
            field: "heads",
            reason: Invalid::HeadsDivide {
                d_model: 64,
                heads: 5,
            },
        };
        assert_eq!(
            explain(&e),
            "These settings cannot be used: must divide d_model = 64 (so d_k = d_model / heads \
             is whole), got 5 (heads)."
        );
        assert_eq!(
            explain_in(&e, Lang::Zh),
            "这些设置无法使用：必须整除 d_model = 64（这样 d_k = d_model / 头数 才是整数），而它是 5（heads）。"
        );
        let e = CoreError::UnsupportedMask {
            attention: AttentionKind::Efficient,
            mask: "causal",
        };
        assert_eq!(
            explain_in(&e, Lang::Zh),
            "这些设置无法使用：高效注意力无法应用因果掩码（高效注意力一次性在所有位置上归一化键，因此只能应用填充掩码）（mask.causal）。"
        );
        let e = CoreError::InvalidSetting {
            field: "self.heads",
            reason: Invalid::HeadsDivide {
                d_model: 8,
                heads: 3,
            },
        }
        .in_layer(1);
        assert_eq!(
            explain(&e),
            "These settings cannot be used: must divide d_model = 8 (so d_k = d_model / heads \
             is whole), got 3 (layers[1].self.heads)."
        );
    }

    #[test]
    fn a_figures_error_is_said_in_both_languages() {
        for e in [
            HeatmapError::Shape {
                field: "values",
                expected: 3,
                got: 2,
            },
            HeatmapError::NonFinite { row: 1, col: 2 },
            HeatmapError::RowOutOfRange { row: 4, rows: 3 },
            HeatmapError::NonFiniteRowValue {
                field: "entropy",
                row: 2,
            },
        ] {
            assert_eq!(heatmap_error_in(&e, Lang::En), e.to_string(), "{e:?}");
            let zh = heatmap_error_in(&e, Lang::Zh);
            assert!(!zh.contains(" row") && !zh.contains("the "), "{zh}");
        }
        let e = HeatmapError::ShapeMismatch {
            a: (2, 3),
            b: (3, 2),
        };
        assert_eq!(heatmap_error_in(&e, Lang::En), e.to_string());
        assert_eq!(
            heatmap_error_in(&e, Lang::Zh),
            "无法比较 2×3 的矩阵和 3×2 的矩阵"
        );
    }
}
