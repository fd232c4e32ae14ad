//! The checks of one step's parts that need the step's state: its question and what it
//! points at.

use super::figures::{RawPointer, stage_name, stage_named};
use super::{FigureId, Grid, Pointer, Question, Region};
use attnlab_core::attention::AttentionKind;
use attnlab_lab::state::{LabState, Page};
use attnlab_pages::steps::{Family, StageOptions};

/// A question as written: `{ pick = "key", variant = 0, head = 0, query = 7 }`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawQuestion {
    pub pick: String,
    pub variant: Option<usize>,
    pub head: Option<usize>,
    pub query: Option<usize>,
}

pub(super) fn question(raw: &RawQuestion) -> Result<Question, String> {
    let need = |v: Option<usize>, name: &str| {
        v.ok_or_else(|| format!("the question “{}” needs `{name}`", raw.pick))
    };
    let none = |fields: &[(&str, Option<usize>)]| match fields.iter().find(|f| f.1.is_some()) {
        Some((name, _)) => Err(format!("the question “{}” has no `{name}`", raw.pick)),
        None => Ok(()),
    };
    Ok(match raw.pick.as_str() {
        "key" => Question::StrongestKey {
            variant: need(raw.variant, "variant")?,
            head: need(raw.head, "head")?,
            query: need(raw.query, "query")?,
        },
        "head" => {
            none(&[("head", raw.head), ("query", raw.query)])?;
            Question::SharpestHead {
                variant: need(raw.variant, "variant")?,
            }
        }
        "variant" => {
            none(&[
                ("variant", raw.variant),
                ("head", raw.head),
                ("query", raw.query),
            ])?;
            Question::SharpestVariant
        }
        "curve" => {
            none(&[
                ("variant", raw.variant),
                ("head", raw.head),
                ("query", raw.query),
            ])?;
            Question::FastestCurve
        }
        "rank" | "sublayer" | "layer" | "cache" => {
            none(&[
                ("variant", raw.variant),
                ("head", raw.head),
                ("query", raw.query),
            ])?;
            match raw.pick.as_str() {
                "rank" => Question::HigherRank,
                "sublayer" => Question::FollowsShuffle,
                "layer" => Question::LeastWork,
                _ => Question::SmallestCache,
            }
        }
        other => {
            return Err(format!(
                "the question “{other}” is not key, head, variant, curve, rank, sublayer, \
                 layer or cache"
            ));
        }
    })
}

pub(super) fn pointer(
    raw: &RawPointer,
    page: Page,
    state: &LabState,
    (n, m): (usize, usize),
) -> Result<Pointer, String> {
    let figure = FigureId::parse(&raw.figure)
        .ok_or_else(|| format!("there is no figure “{}”", raw.figure))?;
    if figure.page() != page {
        return Err(format!(
            "the figure {} is on the {} page, not on the {} page",
            figure.name(),
            figure.page().name(),
            page.name()
        ));
    }
    if figure.page() == Page::Model && state.pretrained.is_none() {
        return Err(format!(
            "the figure {} needs the real model (the state's `m`)",
            figure.name()
        ));
    }
    if figure == FigureId::LabDifference && state.compared().is_none() {
        return Err("the difference needs two variants to compare".into());
    }
    if figure.needs_decay()
        && state.selected_variant().map(|v| v.attention) != Some(AttentionKind::DecayedLinear)
    {
        return Err(format!(
            "the figure {} shows only when the shown variant is decayed_linear",
            figure.name()
        ));
    }
    let variant = match (figure.per_variant(), raw.variant) {
        (false, Some(_)) => return Err(format!("the figure {} has no `variant`", figure.name())),
        (true, Some(v)) if v >= state.variants.len() => {
            return Err(format!(
                "there are {} variants, so there is no variant {v}",
                state.variants.len()
            ));
        }
        (_, v) => v,
    };
    let shown = variant.unwrap_or(state.view.variant);
    let stage = match (figure, &raw.stage) {
        (FigureId::StepsStage, None) => return Err("the steps figure needs a `stage`".into()),
        (FigureId::StepsStage, Some(name)) => {
            let kind = stage_named(name).ok_or_else(|| format!("there is no stage “{name}”"))?;
            let v = state
                .selected_variant()
                .expect("a valid state has a variant");
            let family = Family::of(v.attention);
            let logits = v.attention.is_softmax_family();
            let stages = family.stages_with(StageOptions {
                rope: v.rope.is_some(),
                softcap: logits && v.softcap.is_some(),
                alibi: logits && v.alibi,
            });
            if !stages.contains(&kind) {
                let names: Vec<&str> = stages.iter().map(|&k| stage_name(k)).collect();
                return Err(format!(
                    "variant {} has no stage {name} (its stages: {})",
                    v.name,
                    names.join(", ")
                ));
            }
            Some(kind)
        }
        (_, Some(_)) => return Err(format!("the figure {} has no `stage`", figure.name())),
        (_, None) => None,
    };
    let region = match (raw.row, raw.col, raw.cell) {
        (None, None, None) => None,
        (Some(i), None, None) => Some(Region::Row(i)),
        (None, Some(j), None) => Some(Region::Col(j)),
        (None, None, Some((i, j))) => Some(Region::Cell(i, j)),
        _ => return Err("a pointer has one of row, col or cell".into()),
    };
    if let Some(region) = region {
        let (rows, cols) = match figure.grid() {
            Grid::None => {
                return Err(format!(
                    "the figure {} has no cells to point at",
                    figure.name()
                ));
            }
            Grid::Positions => (n, n),
            Grid::Tokens => {
                let v = &state.variants[shown.min(state.variants.len() - 1)];
                let cols = match v.attention {
                    AttentionKind::Linformer => v.linformer_k,
                    _ => m,
                };
                (n, cols)
            }
        };
        let inside = match region {
            Region::Row(i) => i < rows,
            Region::Col(j) => j < cols,
            Region::Cell(i, j) => i < rows && j < cols,
        };
        if !inside {
            return Err(format!(
                "{region:?} is outside the figure {} ({rows} × {cols})",
                figure.name()
            ));
        }
    }
    Ok(Pointer {
        figure,
        variant,
        stage,
        region,
    })
}
