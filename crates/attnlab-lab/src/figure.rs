//! Results as figures: the [`Heatmap`]s of one head, of the head average and of the
//! difference of two variants, with their titles, and reading one cell back. The
//! drawing itself is `attnlab_plot::draw_heatmap`, on any plotters backend.

use attnlab_core::attention::HeadResult;
use attnlab_core::mask::Mask;
use attnlab_plot::{Cells, Heatmap, HeatmapError, Labels, number};
use ndarray::ArcArray2;

use crate::compute::{HeadAverage, LabError, Pipeline, VariantResult, Which};
use crate::contribution::{self, Measure};
use crate::state::{ModelConfig, Variant};
use attnlab_i18n::msg::figure as m;
use attnlab_i18n::{Lang, plot_words};

/// The title of one head's figure in `lang`, e.g.
/// `"scaled dot-product softmax · Head 0 · 4 heads · d_model 64"`: what sets the
/// variant apart first, then the head and the model every variant shares, so a title cut
/// to a narrow panel still shows where two variants differ.
pub fn head_title(model: &ModelConfig, variant: &Variant, head: usize, lang: Lang) -> String {
    let (own, shared) = (
        variant.describe_own(lang),
        crate::state::model_label(model, lang),
    );
    m::HeadTitle {
        own: &own,
        head: &head,
        shared: &shared,
    }
    .say(lang)
}

/// The title of the head average's figure in `lang`, e.g.
/// `"Average of 4 heads · A: scaled dot-product softmax · …"`.
pub fn average_title(model: &ModelConfig, variant: &Variant, lang: Lang) -> String {
    m::AverageTitle {
        heads: model.heads,
        name: &variant.name,
        described: &variant.describe(model, lang),
    }
    .say(lang)
}

/// The title of a difference figure in `lang`, e.g. `"A − B · head 0"` or
/// `"A − B · average of the heads"`.
pub fn difference_title(a: &Variant, b: &Variant, head: Option<usize>, lang: Lang) -> String {
    let (a, b) = (&a.name, &b.name);
    match head {
        Some(head) => m::DifferenceTitleHead { a, b, head: &head }.say(lang),
        None => m::DifferenceTitleAverage { a, b }.say(lang),
    }
}

/// A reference-counted matrix as a figure's cells, read in place (row-major).
struct Matrix(ArcArray2<f32>);

impl AsRef<[f32]> for Matrix {
    fn as_ref(&self) -> &[f32] {
        // Only standard-layout matrices are wrapped ([`cells_of`]).
        self.0.as_slice().unwrap_or_default()
    }
}

/// `matrix`'s numbers as a figure's cells: shared with the matrix when it is row-major
/// (a computed head's always is), copied otherwise.
pub fn cells_of(matrix: &ArcArray2<f32>) -> Cells {
    if matrix.is_standard_layout() {
        Cells::shared(Matrix(matrix.clone()))
    } else {
        Cells::from(matrix.iter().copied().collect::<Vec<_>>())
    }
}

/// A weights figure: `rows` query labels, `cols` key labels, cells the mask blocks
/// hatched, empty rows marked.
pub fn weights_heatmap(
    title: impl Into<String>,
    rows: impl Into<Labels>,
    cols: impl Into<Labels>,
    weights: Cells,
    mask: &Mask,
    empty_rows: &[usize],
) -> Result<Heatmap, HeatmapError> {
    let figure = Heatmap::weights(title, rows, cols, weights)?;
    let figure = fitted_range(figure);
    // Nothing blocked (no mask): no n × m list of `false`s to build and scan.
    let figure = if mask.is_full() {
        figure
    } else {
        let blocked: Vec<bool> = match mask.allowed().as_slice() {
            Some(cells) => cells.iter().map(|&allowed| !allowed).collect(),
            None => mask.allowed().iter().map(|&allowed| !allowed).collect(),
        };
        figure.with_blocked(blocked)?
    };
    figure.with_empty_rows(empty_rows.to_vec())
}

/// Weights that leave `0..=1` (differential and decayed linear attention's can be
/// negative, decayed linear's above 1): negative ones on the diverging palette of the
/// differences, over `±max|w|`, white at 0; others above 1 on the sequential palette over
/// `0..max`, both ends rounded up as a difference's. Weights within `0..=1` keep the
/// weights' scale.
pub(crate) fn fitted_range(figure: Heatmap) -> Heatmap {
    let (lo, hi) = figure
        .values()
        .iter()
        .filter(|v| v.is_finite())
        .fold((0.0f32, 0.0f32), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    if lo < 0.0 {
        let reach = attnlab_plot::number::round_up_step(lo.abs().max(hi));
        figure
            .with_scale(attnlab_plot::ColorScale::Diverging)
            .with_range(attnlab_plot::ValueRange::symmetric(reach))
    } else if hi > 1.0 {
        let top = attnlab_plot::number::round_up_step(hi);
        match attnlab_plot::ValueRange::new(0.0, top) {
            Some(range) => figure.with_range(range),
            None => figure,
        }
    } else {
        figure
    }
}

/// The figure of one head: its weights shared with `head`, not copied.
pub fn head_heatmap(
    title: impl Into<String>,
    rows: impl Into<Labels>,
    cols: impl Into<Labels>,
    head: &HeadResult,
) -> Result<Heatmap, HeatmapError> {
    weights_heatmap(
        title,
        rows,
        cols,
        cells_of(&head.weights),
        &head.mask,
        &head.empty_rows,
    )
}

/// The figure of the head average.
pub fn average_heatmap(
    title: impl Into<String>,
    rows: impl Into<Labels>,
    cols: impl Into<Labels>,
    average: &HeadAverage,
) -> Result<Heatmap, HeatmapError> {
    let values: Vec<f32> = match average.weights.as_slice() {
        Some(s) => s.to_vec(),
        None => average.weights.iter().copied().collect(),
    };
    weights_heatmap(
        title,
        rows,
        cols,
        values.into(),
        &average.mask,
        &average.empty_rows,
    )
}

/// The figure of head `head` of `variant`, exactly as every view draws it: titled with
/// the variant's name and [`head_title`], the weights with the mask's blocked cells and
/// the empty rows, each row's entropy, and the raw scores before softmax (for the
/// read-out) where the attention kind has them; its words in `lang`.
pub fn head_figure(
    model: &ModelConfig,
    variant: &Variant,
    head: usize,
    rows: impl Into<Labels>,
    cols: impl Into<Labels>,
    result: &HeadResult,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let title = format!(
        "{} \u{b7} {}",
        variant.name,
        head_title(model, variant, head, lang)
    );
    let figure = head_heatmap(title, rows, cols, result)?.with_words(plot_words(lang));
    // The kinds whose rows are not distributions have no row entropy.
    let figure = match result.row_entropy.is_empty() {
        true => figure,
        false => figure.with_row_entropy(
            result.row_entropy.clone(),
            result.row_entropy_normalised.clone(),
        )?,
    };
    match &result.scores {
        // Linformer's scores are over the tokens, its weights over `k` projected keys:
        // there is no raw score of a cell to read.
        Some(s) if s.len() == figure.values().len() => figure.with_raw_scores(cells_of(s)),
        _ => Ok(figure),
    }
}

/// The figure of `variant`'s head average, exactly as every view draws it: titled by
/// [`average_title`], with the mask, the empty rows and each row's entropy; its words
/// in `lang`.
pub fn average_figure(
    model: &ModelConfig,
    variant: &Variant,
    rows: impl Into<Labels>,
    cols: impl Into<Labels>,
    average: &HeadAverage,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    let figure = average_heatmap(average_title(model, variant, lang), rows, cols, average)?
        .with_words(plot_words(lang));
    match average.row_entropy.is_empty() {
        true => Ok(figure),
        false => figure.with_row_entropy(
            average.row_entropy.clone(),
            average.row_entropy_normalised.clone(),
        ),
    }
}

/// The diverging figure of `A − B` from the two figures as drawn (one head of each, or
/// their averages; `head` says which, for the title), built by
/// [`Heatmap::difference_of`]: a cell that either variant blocks (or an empty row of
/// either) is drawn as masked, not as a change, and is left out of the colour range.
pub fn difference_figure(
    a: &Variant,
    b: &Variant,
    head: Option<usize>,
    figure_a: &Heatmap,
    figure_b: &Heatmap,
    lang: Lang,
) -> Result<Heatmap, HeatmapError> {
    Heatmap::difference_of(difference_title(a, b, head, lang), figure_a, figure_b)
        .map(|h| h.with_words(plot_words(lang)))
}

/// One of the figures a link can ask for (the app shows them; `attnlab render` draws
/// them from the link).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureRequest {
    /// Head `head` of variant `variant`.
    Head {
        /// The variant's index.
        variant: usize,
        /// The head.
        head: usize,
    },
    /// The head average of variant `variant`.
    Average {
        /// The variant's index.
        variant: usize,
    },
    /// Variant `a` minus variant `b`: one head of each, or their averages.
    Difference {
        /// The first variant's index.
        a: usize,
        /// The subtracted variant's index.
        b: usize,
        /// One head, or the head average.
        which: Which,
    },
}

impl Pipeline<'_> {
    /// The figure `request` asks for, built by the same functions as the app's
    /// ([`head_figure`], [`average_figure`], [`difference_figure`]), in English (the
    /// command line's language).
    pub fn figure(&self, request: FigureRequest) -> Result<Heatmap, LabError> {
        self.figure_in(request, Lang::En)
    }

    /// The figure `request` asks for, as [`Pipeline::figure`], in `lang`.
    pub fn figure_in(&self, request: FigureRequest, lang: Lang) -> Result<Heatmap, LabError> {
        match request {
            FigureRequest::Head { variant, head } => {
                self.figure_of(variant, &self.variant(variant)?, Which::Head(head), lang)
            }
            FigureRequest::Average { variant } => {
                self.figure_of(variant, &self.variant(variant)?, Which::Average, lang)
            }
            FigureRequest::Difference { a, b, which } => {
                let figure_a = self.figure_of(a, &self.variant(a)?, which, lang)?;
                let figure_b = self.figure_of(b, &self.variant(b)?, which, lang)?;
                let shape = |f: &Heatmap| (f.n_rows(), f.n_cols());
                if shape(&figure_a) != shape(&figure_b) {
                    return Err(LabError::Incomparable {
                        a: shape(&figure_a),
                        b: shape(&figure_b),
                    });
                }
                let head = match which {
                    Which::Head(h) => Some(h),
                    Which::Average => None,
                };
                let variants = &self.state().variants;
                difference_figure(&variants[a], &variants[b], head, &figure_a, &figure_b, lang)
                    .map_err(LabError::Figure)
            }
        }
    }

    /// One head's or the average's figure of variant `index`, computed as `result`.
    fn figure_of(
        &self,
        index: usize,
        result: &VariantResult,
        which: Which,
        lang: Lang,
    ) -> Result<Heatmap, LabError> {
        let state = self.state();
        let variant = &state.variants[index];
        let rows = self.queries().labels();
        let cols = self.key_labels(variant);
        let figure = match which {
            Which::Head(h) => {
                let head = result.heads.get(h).ok_or(LabError::NoHead {
                    head: h,
                    heads: result.heads.len(),
                })?;
                head_figure(&state.model, variant, h, &rows, &cols, head, lang)
            }
            Which::Average => {
                let average = result
                    .average
                    .as_ref()
                    .ok_or(LabError::Core(attnlab_core::CoreError::NoHeads))?;
                average_figure(&state.model, variant, &rows, &cols, average, lang)
            }
        };
        figure.map_err(LabError::Figure)
    }
}

/// What the pointer is on: one cell of a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct CellReading {
    /// Query (row) index and token.
    pub query: (usize, String),
    /// Key (column) index and label.
    pub key: (usize, String),
    /// The exact value.
    pub weight: f32,
    /// Whether the mask blocks this cell.
    pub blocked: bool,
    /// Whether the value is a weight or a contribution `‖α f(x)‖`.
    pub measure: Measure,
}

impl CellReading {
    /// One line for the page in `lang`, e.g.
    /// `query “it” (7) → key “animal” (1): weight 0.31415927`. The weight is printed in
    /// full ([`number::full`]: the shortest decimal that reads back as the same `f32`).
    pub fn sentence(&self, lang: Lang) -> String {
        let ((qi, q), (ki, k)) = (&self.query, &self.key);
        let value = number::full(self.weight);
        let what = match self.measure {
            Measure::Weight => m::MEASURE_WEIGHT,
            Measure::Contribution => m::MEASURE_CONTRIBUTION_VALUE,
        }
        .get(lang);
        let (what, value) = (&what, &value);
        if self.blocked {
            m::CellBlocked {
                q,
                qi,
                k,
                ki,
                what,
                value,
            }
            .say(lang)
        } else {
            m::Cell {
                q,
                qi,
                k,
                ki,
                what,
                value,
            }
            .say(lang)
        }
    }
}

/// Reads cell (`row`, `col`) of a figure.
pub fn read_cell(heatmap: &Heatmap, (row, col): (usize, usize)) -> Option<CellReading> {
    Some(CellReading {
        query: (row, heatmap.row_labels().get(row)?.clone()),
        key: (col, heatmap.col_labels().get(col)?.clone()),
        weight: heatmap.value(row, col)?,
        blocked: heatmap.is_blocked(row, col),
        measure: if heatmap.value_label() == contribution::VALUE_LABEL {
            Measure::Contribution
        } else {
            Measure::Weight
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::{Pipeline, Which, compare};
    use crate::state::{LabState, Mode};

    #[test]
    fn a_head_figure_shares_the_heads_numbers_and_labels() {
        let state = LabState::default();
        let p = Pipeline::new(&state);
        let a = p.variant(0).unwrap();
        let labels = Labels::from(p.queries().labels());
        let head = &a.heads[0];
        let h = head_figure(
            &state.model,
            &state.variants[0],
            0,
            &labels,
            &labels,
            head,
            Lang::En,
        )
        .unwrap();
        // The very same memory, not a copy.
        assert_eq!(h.values().as_ptr(), head.weights.as_ptr());
        let raw = head.scores.as_ref().unwrap();
        assert_eq!(h.raw_scores().unwrap().as_ptr(), raw.as_ptr());
        assert_eq!(h.row_labels().as_ptr(), labels.as_ptr());
        // A matrix that is not row-major is copied into row-major order.
        let t = head.weights.t().to_owned().into_shared();
        assert!(!t.is_standard_layout());
        let row_major: Vec<f32> = head.weights.t().iter().copied().collect();
        assert_eq!(*cells_of(&t), *row_major);
    }

    #[test]
    fn the_default_head_figure_reads_back() {
        let state = LabState::default();
        let p = Pipeline::new(&state);
        let a = p.variant(0).unwrap();
        let labels = p.queries().labels();
        let title = head_title(&state.model, &state.variants[0], 0, Lang::En);
        assert_eq!(
            title,
            "scaled dot-product softmax \u{b7} Head 0 \u{b7} 4 heads \u{b7} d_model 64"
        );
        let h = head_heatmap(title, &labels, &labels, &a.heads[0]).unwrap();
        assert_eq!((h.n_rows(), h.n_cols()), (11, 11));
        let r = read_cell(&h, (7, 1)).unwrap();
        assert_eq!((r.query.1.as_str(), r.key.1.as_str()), ("it", "animal"));
        assert!(r.sentence(Lang::En).starts_with(
            "query \u{201c}it\u{201d} (7) \u{2192} key \u{201c}animal\u{201d} (1): weight 0."
        ));
        assert!(read_cell(&h, (11, 0)).is_none());
    }

    #[test]
    fn masks_reach_the_figure_and_the_reading() {
        let mut state = LabState {
            text: "我爱机器学习".into(),
            ..LabState::default()
        };
        state.variants[0].masks.causal = true;
        let p = Pipeline::new(&state);
        let a = p.variant(0).unwrap();
        let labels = p.queries().labels();
        let h = head_heatmap("causal", &labels, &labels, &a.heads[1]).unwrap();
        assert!(h.is_blocked(0, 1) && !h.is_blocked(1, 0));
        let r = read_cell(&h, (0, 1)).unwrap();
        assert_eq!(
            r.sentence(Lang::En),
            "query \u{201c}我\u{201d} (0) \u{2192} key \u{201c}爱\u{201d} (1): blocked by the mask (weight 0)"
        );
        assert_eq!(read_cell(&h, (0, 0)).unwrap().weight, 1.0);

        let avg = a.average.as_ref().unwrap();
        let h = average_heatmap(
            average_title(&state.model, &state.variants[0], Lang::En),
            &labels,
            &labels,
            avg,
        )
        .unwrap();
        assert!(h.title().starts_with("Average of 4 heads \u{b7} A: "));
        assert!(h.is_blocked(0, 5));
    }

    #[test]
    fn the_difference_figure_is_diverging_and_hatches_cells_either_blocks() {
        let mut state = LabState::default();
        state.set_mode(Mode::Cross);
        for v in &mut state.variants {
            v.masks.causal = true;
        }
        let p = Pipeline::new(&state);
        let (a, b) = (p.variant(0).unwrap(), p.variant(1).unwrap());
        let c = compare(
            a.weights(Which::Average).unwrap(),
            b.weights(Which::Average).unwrap(),
        )
        .unwrap();
        let title = difference_title(&state.variants[0], &state.variants[1], None, Lang::En);
        assert_eq!(title, "A \u{2212} B \u{b7} average of the heads");
        let h = p
            .figure(FigureRequest::Difference {
                a: 0,
                b: 1,
                which: Which::Average,
            })
            .unwrap();
        assert_eq!(h.title(), title);
        assert_eq!(h.values(), c.difference.as_slice().unwrap());
        assert_eq!((h.n_rows(), h.n_cols()), (4, 6));
        assert!(h.range().min() < 0.0 && h.range().max() > 0.0);
        assert!(h.is_blocked(0, 5) && !h.is_blocked(3, 0));

        // Only B causal: the cells B blocks are masked in the difference too.
        state.variants[0].masks.causal = false;
        let p = Pipeline::new(&state);
        let (a, b) = (p.variant(0).unwrap(), p.variant(1).unwrap());
        let c = compare(
            a.weights(Which::Head(0)).unwrap(),
            b.weights(Which::Head(0)).unwrap(),
        )
        .unwrap();
        let h = p
            .figure(FigureRequest::Difference {
                a: 0,
                b: 1,
                which: Which::Head(0),
            })
            .unwrap();
        assert_eq!(h.title(), "A \u{2212} B \u{b7} head 0");
        let zh = p
            .figure_in(
                FigureRequest::Difference {
                    a: 0,
                    b: 1,
                    which: Which::Head(0),
                },
                Lang::Zh,
            )
            .unwrap();
        assert_eq!(zh.title(), "A \u{2212} B \u{b7} 头 0");
        assert_eq!(zh.value_label(), "\u{394} 权重");
        assert_eq!(zh.row_axis(), "查询");
        assert!(h.is_blocked(0, 5), "blocked in B only");
        assert!(!h.is_blocked(3, 0));
        assert_eq!(h.value(3, 0), Some(c.difference[[3, 0]]));
    }

    #[test]
    fn weights_that_go_negative_are_drawn_diverging_and_rows_that_are_not_distributions_have_no_entropy()
     {
        use attnlab_core::attention::AttentionKind;
        use attnlab_plot::ColorScale;
        let mut s = LabState::default();
        s.variants[1].attention = AttentionKind::Differential;
        let p = Pipeline::new(&s);
        let (a, b) = (p.variant(0).unwrap(), p.variant(1).unwrap());
        let labels = p.queries().labels();
        let fig = |s: &LabState, r: &crate::compute::VariantResult, v: usize| {
            head_figure(
                &s.model,
                &s.variants[v],
                0,
                labels.clone(),
                labels.clone(),
                &r.heads[0],
                Lang::En,
            )
            .unwrap()
        };
        let (fa, fb) = (fig(&s, &a, 0), fig(&s, &b, 1));
        assert_eq!(fa.scale(), ColorScale::Sequential);
        assert!(
            b.heads[0].weights.iter().any(|&w| w < 0.0),
            "differential goes negative"
        );
        assert_eq!(fb.scale(), ColorScale::Diverging);
        let reach = fb.range().max();
        assert!(
            reach
                >= b.heads[0]
                    .weights
                    .iter()
                    .fold(0.0f32, |m, w| m.max(w.abs()))
        );
        assert_eq!(fb.range().min(), -reach);
        let c = compare(
            a.weights(Which::Head(0)).unwrap(),
            b.weights(Which::Head(0)).unwrap(),
        )
        .unwrap();
        assert!(!c.divergences);
        assert!(c.mean_entropy.0.is_some() && c.mean_entropy.1.is_none());
        let avg = b.weights(Which::Average).unwrap();
        assert_eq!(avg.mean_entropy(), None);

        s.variants[1].attention = AttentionKind::DecayedLinear;
        s.variants[1].score = attnlab_core::score::ScoreFunction::Dot;
        let p = Pipeline::new(&s);
        let d = p.variant(1).unwrap();
        let most = d.heads[0]
            .weights
            .iter()
            .fold(0.0f32, |m, w| m.max(w.abs()));
        let fd = fig(&s, &d, 1);
        assert!(fd.range().max() >= most && most > 0.0, "{most}");
    }
}
