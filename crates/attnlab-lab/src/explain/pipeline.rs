//! The core's refusals of a setting of the logits pipeline or of the positions
//! ([`PipelineInvalid`]) in either language, from the catalogue's `pipeline.ftl`.

use attnlab_core::error::PipelineInvalid;
use attnlab_i18n::msg::pipeline as m;
use attnlab_i18n::{Lang, Tr};

/// Why such a setting is refused, in `lang` (the English is the core's `Display`).
pub fn pipeline_in(reason: &PipelineInvalid, lang: Lang) -> String {
    let fixed = |t: Tr| t.get(lang).to_string();
    match *reason {
        PipelineInvalid::NotPositive(value) => m::PipelineNotPositive { value: &value }.say(lang),
        PipelineInvalid::RotaryDims { got, d_k } => m::PipelineRotaryDims {
            d_k: &d_k,
            got: &got,
        }
        .say(lang),
        PipelineInvalid::OddWidth { d_k } => m::PipelineOddWidth { d_k: &d_k }.say(lang),
        PipelineInvalid::PositionCount { got, rows } => m::PipelinePositionCount {
            got: &got,
            rows: &rows,
        }
        .say(lang),
        PipelineInvalid::NtkTwoDims => fixed(m::PIPELINE_NTK_TWO_DIMS),
        PipelineInvalid::YarnBaseOne => fixed(m::PIPELINE_YARN_BASE_ONE),
        PipelineInvalid::SlopeCount { got, heads } => m::PipelineSlopeCount {
            got: &got,
            heads: &heads,
        }
        .say(lang),
        PipelineInvalid::NotForKind(kind) => {
            let kind = match lang {
                Lang::En => kind.name(),
                Lang::Zh => super::kind_label(kind, lang),
            };
            m::PipelineNotForKind { kind: &kind }.say(lang)
        }
        PipelineInvalid::NoGroups => fixed(m::PIPELINE_NO_GROUPS),
        PipelineInvalid::GroupsDivide { heads, groups } => m::PipelineGroupsDivide {
            groups: &groups,
            heads: &heads,
        }
        .say(lang),
        PipelineInvalid::Sinks { got, m: keys } => m::PipelineSinks {
            got: &got,
            m: &keys,
        }
        .say(lang),
        PipelineInvalid::Tiles => fixed(m::PIPELINE_TILES),
    }
}

/// Every refusal, for the tests that hold the catalogue to the core.
#[cfg(test)]
pub(super) fn every_reason() -> Vec<PipelineInvalid> {
    use attnlab_core::attention::AttentionKind;
    vec![
        PipelineInvalid::NotPositive(-2.5),
        PipelineInvalid::RotaryDims { got: 3, d_k: 8 },
        PipelineInvalid::OddWidth { d_k: 5 },
        PipelineInvalid::PositionCount { got: 2, rows: 3 },
        PipelineInvalid::NtkTwoDims,
        PipelineInvalid::YarnBaseOne,
        PipelineInvalid::SlopeCount { got: 1, heads: 2 },
        PipelineInvalid::NotForKind(AttentionKind::Elu1),
        PipelineInvalid::NotForKind(AttentionKind::Linformer),
        PipelineInvalid::NoGroups,
        PipelineInvalid::GroupsDivide {
            heads: 3,
            groups: 2,
        },
        PipelineInvalid::Sinks { got: 5, m: 4 },
        PipelineInvalid::Tiles,
    ]
}
