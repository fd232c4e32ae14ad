//! A variant's figures as its weight | contribution switch shows them.

use attnlab_lab::contribution::{self, Measure};
use attnlab_pages::neuron::{self, Neuron};
use attnlab_plot::Heatmap;
use leptos::prelude::*;
use ndarray::Array2;

use super::VariantMemos;
use crate::state::use_app_state;

/// A variant's figures as the switch shows them, and the neuron view of its picked cell.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// The selected head.
    pub selected: Memo<Option<Heatmap>>,
    /// Every head.
    pub grid: Memo<Vec<Heatmap>>,
    /// The head average.
    pub average: Memo<Option<Heatmap>>,
    /// The neuron view of the picked cell of the selected head.
    pub neuron: Memo<Option<Result<Neuron, String>>>,
    /// The selected head's query and key labels.
    pub labels: Memo<(Vec<String>, Vec<String>)>,
}

/// The variant's figures in `measure` (its weights, or every head's contributions
/// `‖α_ij v_j‖` beside them, computed only while they are shown) and the neuron view of
/// `picked`.
pub fn use_measured(
    memos: VariantMemos,
    measure: RwSignal<Measure>,
    picked: RwSignal<Option<(usize, usize)>>,
) -> Measured {
    let state = use_app_state();
    let lang = state.lang;
    let norms: Memo<Option<Vec<Array2<f32>>>> = Memo::new(move |_| {
        if measure.get() != Measure::Contribution {
            return None;
        }
        memos.computed.with(|c| match (&c.problem, &c.heads) {
            (Ok(p), Ok(h)) => contribution::variant_norms(p, h).ok(),
            _ => None,
        })
    });
    let grid = Memo::new(move |_| match measure.get() {
        Measure::Weight => memos.grid.get(),
        Measure::Contribution => memos.grid.with(|g| {
            norms.with(|n| {
                let Some(n) = n else { return Vec::new() };
                g.iter()
                    .zip(n)
                    .map_while(|(f, n)| {
                        contribution::contribution_figure(lang.get(), f, n.view()).ok()
                    })
                    .collect()
            })
        }),
    });
    let selected = Memo::new(move |_| match measure.get() {
        Measure::Weight => memos.selected.get(),
        Measure::Contribution => grid.with(|g| g.get(state.shown_head()).cloned()),
    });
    let average = Memo::new(move |_| match measure.get() {
        Measure::Weight => memos.average_figure.get(),
        Measure::Contribution => memos.average_figure.with(|f| {
            let f = f.as_ref()?;
            norms.with(|n| {
                let mean = contribution::average_norms(n.as_ref()?)?;
                contribution::contribution_figure(lang.get(), f, mean.view()).ok()
            })
        }),
    });
    let labels = Memo::new(move |_| {
        memos.selected.with(|f| {
            f.as_ref()
                .map(|f| (f.row_labels().to_vec(), f.col_labels().to_vec()))
                .unwrap_or_default()
        })
    });
    let neuron = Memo::new(move |_| {
        let (i, j) = picked.get()?;
        let head = state.shown_head();
        Some(memos.problem.with(|p| {
            let p = p.as_ref().map_err(attnlab_lab::explain::explain)?;
            neuron::neuron(p, head, i, j).map_err(|e| e.to_string())
        }))
    });
    Measured {
        selected,
        grid,
        average,
        neuron,
        labels,
    }
}
