//! Where a heatmap's parts go: the matrix, its row and column labels, the title and axis
//! captions, the row-entropy panel and the legend, at the largest cells the area allows;
//! and the natural height, at which a given width leaves no blank band under the matrix.

use crate::heatmap::Heatmap;
use crate::legend::{GAP, Legend, NARROW_GAP};
use crate::number;
use crate::scale::Palette;
use crate::style::HeatmapStyle;
use crate::text;
use crate::words::Words;

/// Label steps: label every k-th token with k from 1, 2, 5, 10, 20, 25, 50, 100, …
fn nice_label_step(min: usize) -> usize {
    let mut base = 1;
    loop {
        let quarter = if base >= 10 { base * 25 / 10 } else { 2 * base };
        if let Some(k) = [base, 2 * base, quarter, 5 * base]
            .into_iter()
            .find(|&k| k >= min)
        {
            return k;
        }
        base *= 10;
    }
}

/// The text of label `i` when every `step`-th label is shown.
/// `numbered`: the index is written even when every label is shown (a part of a larger
/// matrix, whose labels do not start at 0).
fn label_text(text: &str, i: usize, step: usize, numbered: bool, empty: bool) -> String {
    let mut s = String::new();
    if empty {
        s.push_str("\u{2205} ");
    }
    // Numbered labels (positions, dimensions) already say where they are.
    if (step > 1 || numbered) && text != i.to_string() {
        s.push_str(&format!("#{i} "));
    }
    s.push_str(text);
    s
}

/// How the row and column labels are written: their size, which tokens are labelled
/// (every `row_step`-th row, every `col_step`-th column) and whether column labels read
/// upwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LabelPlan {
    pub px: f64,
    pub row_step: usize,
    pub col_step: usize,
    pub col_rotated: bool,
}

struct Geometry {
    rows: Vec<(usize, String)>,
    cols: Vec<(usize, String)>,
    row_w: f64,
    col_w: f64,
    col_band: f64,
    cell: f64,
}

/// Every length of the figure, in pixels relative to the drawing area.
pub(crate) struct Layout {
    pub plan: LabelPlan,
    /// The labelled rows and columns: index and (clipped) text.
    pub rows: Vec<(usize, String)>,
    pub cols: Vec<(usize, String)>,
    /// Text sizes of the title, the axis captions and the legend's ticks.
    pub title_px: f64,
    pub axis_px: f64,
    pub tick_px: f64,
    /// The margin around the figure.
    pub pad: f64,
    /// The title's centre line.
    pub title_y: f64,
    /// The gap between a row's label and the matrix.
    pub row_gap: f64,
    /// The matrix's top-left corner and the side of its cells.
    pub mx: f64,
    pub my: f64,
    pub cell: f64,
    /// The height of the legend's colour bar.
    pub legend_h: f64,
    /// The gap left of the legend's colour bar (unscaled pixels).
    pub legend_gap: f64,
    pub side: Option<SidePlan>,
    /// On a canvas narrower than `BELOW_W` (a phone): the axis captions on one line at
    /// this height under the title, the legend under the matrix and no entropy panel (the
    /// cell's reading gives the row's entropy), so the matrix takes the whole width.
    pub below: Option<f64>,
}

/// The row-entropy side panel, right of the matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SidePlan {
    /// The gap between the matrix and the panel.
    pub gap: f64,
    /// The whole panel, gap excluded.
    pub width: f64,
    /// The length of a bar at `ln m` nats.
    pub bar_w: f64,
    /// Size of the per-row numbers, when rows are tall enough for them.
    pub text_px: Option<f64>,
    /// Width of the nats column.
    pub nats_w: f64,
    /// Size of the panel's title.
    pub header_px: f64,
    pub columns: SideColumns,
}

/// How much of the entropy panel a canvas has room for: the narrower the canvas, the
/// fewer columns, so the matrix keeps most of the width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SideColumns {
    /// Bars, H in nats and H as a share of its maximum (canvases at least
    /// `FULL_SIDE_W` pixels wide, unscaled).
    BarsNatsShare,
    /// Bars and H in nats (at least `NARROW_W`).
    BarsNats,
    /// Bars only, on a shorter axis, under a shorter title.
    Bars,
}

/// Canvas widths (unscaled pixels) from which the entropy panel shows "% of max", and
/// from which it shows any numbers and the legend keeps its full gap.
const FULL_SIDE_W: f64 = 720.0;
const NARROW_W: f64 = 560.0;
/// Canvas width (unscaled pixels) under which the legend goes under the matrix.
pub(crate) const BELOW_W: f64 = 420.0;

impl SidePlan {
    /// The right edge of the nats column, for a panel whose left edge is at `x`.
    pub(crate) fn nats_right(&self, x: f64, s: f64) -> f64 {
        x + self.bar_w + 8.0 * s + self.nats_w
    }

    /// The right edge of the share column (the panel's last), for a panel at `x`.
    pub(crate) fn share_right(&self, x: f64, s: f64) -> f64 {
        x + self.width - 4.0 * s
    }
}

impl SideColumns {
    pub(crate) fn for_width(w: f64, s: f64) -> SideColumns {
        if w >= FULL_SIDE_W * s {
            SideColumns::BarsNatsShare
        } else if w >= NARROW_W * s {
            SideColumns::BarsNats
        } else {
            SideColumns::Bars
        }
    }

    pub(crate) fn title(self, words: &Words) -> &'static str {
        match self {
            SideColumns::Bars => words.entropy,
            _ => words.row_entropy,
        }
    }
}

const MAX_CELL: f64 = 140.0;

/// The legend of a heatmap, `gap` (unscaled pixels) right of the figure.
pub(crate) fn legend(data: &Heatmap, gap: f64) -> Legend<'_> {
    Legend {
        scale: data.scale(),
        range: data.range(),
        caption: data.value_label(),
        masked_label: data.words().masked,
        palette: Palette::default(),
        masked: data.has_blocked(),
        gap,
    }
}

/// Column headings of the entropy panel's numbers.
/// Text sizes of the entropy panel: title, column headings, numbers.
const HEADER_PX: f64 = 15.0;
pub(crate) const SUB_PX: f64 = 13.0;
const ROW_PX: f64 = 14.0;

/// The bars-only panel's axis heading, `0–ln m`.
pub(crate) fn short_axis(max_nats: f64) -> String {
    format!("0\u{2013}{}", number::decimals(max_nats, 1))
}

/// The entropy panel's size, when `data` has row entropies; rows at most `row_px` tall.
fn side_plan(data: &Heatmap, s: f64, row_px: f64, columns: SideColumns) -> Option<SidePlan> {
    if !data.has_row_entropy() {
        return None;
    }
    let header_px = HEADER_PX * s;
    let small_px = SUB_PX * s;
    let words = data.words();
    let title_w = text::width(columns.title(words), header_px) * 1.1;
    if columns == SideColumns::Bars {
        let bar_w = 40.0 * s;
        let axis_w = text::width(&short_axis((data.n_cols() as f64).ln()), small_px);
        return Some(SidePlan {
            gap: 10.0 * s,
            width: bar_w.max(title_w).max(axis_w) + 4.0 * s,
            bar_w,
            text_px: None,
            nats_w: 0.0,
            header_px,
            columns,
        });
    }
    let text_px = (row_px >= 11.0 * s).then_some(ROW_PX * s);
    let bar_w = 60.0 * s;
    let (nats_w, width) = match text_px {
        Some(px) => {
            let nats_w = text::width("0.00", px).max(text::width(words.nats, small_px));
            let share_w = if columns == SideColumns::BarsNatsShare {
                10.0 * s + text::width("100%", px).max(text::width(words.share, small_px))
            } else {
                0.0
            };
            (nats_w, bar_w + 8.0 * s + nats_w + share_w)
        }
        None => (
            0.0,
            bar_w.max(text::width("0 \u{2013} 0.00 nats", small_px)),
        ),
    };
    Some(SidePlan {
        gap: 16.0 * s,
        width: width.max(title_w) + 4.0 * s,
        bar_w,
        text_px,
        nats_w,
        header_px,
        columns,
    })
}

/// The width the legend takes beside the matrix of `data` on an area `w` pixels wide at
/// scale `s`, or `None` when it lies under the matrix (a phone's): of every length of the
/// layout, the one that follows the values' range (its tick labels).
pub(crate) fn legend_room(data: &Heatmap, s: f64, w: f64) -> Option<f64> {
    let (tick_px, legend_gap) = legend_sizes(SideColumns::for_width(w, s), s);
    (w >= BELOW_W * s).then(|| legend(data, legend_gap).width(s, tick_px))
}

/// The legend's tick size and its gap to the figure: smaller on a narrow canvas (its side
/// panel shows bars alone), for the matrix.
fn legend_sizes(columns: SideColumns, s: f64) -> (f64, f64) {
    match columns {
        SideColumns::Bars => (13.0 * s, NARROW_GAP),
        _ => (15.0 * s, GAP),
    }
}

pub(crate) fn plan_layout(data: &Heatmap, s: f64, (w, h): (f64, f64)) -> Layout {
    let (n, m) = (data.n_rows(), data.n_cols());
    let columns = SideColumns::for_width(w, s);
    // A narrow canvas keeps a thinner margin and smaller legend ticks, for the matrix;
    // a phone's lays the legend under it.
    let narrow = columns == SideColumns::Bars;
    let below = w < BELOW_W * s;
    let pad = if below {
        4.0
    } else if narrow {
        8.0
    } else {
        14.0
    } * s;
    let title_px = if below { 18.0 } else { 22.0 } * s;
    let axis_px = if below { 14.0 } else { 16.0 } * s;
    let (tick_px, legend_gap) = legend_sizes(columns, s);
    // Labels up to 14 px on a phone, where the row labels' width is the matrix's.
    let (max_px, min_px) = (if below { 14.0 } else { 17.0 } * s, 12.0 * s);
    let clip_w = if below { 58.0 } else { 160.0 } * s;
    // Between a row's label and the matrix.
    let row_gap = if below { 4.0 } else { 7.0 } * s;
    let title_band = if data.title().is_empty() {
        0.0
    } else {
        title_px * 1.7
    };
    // Under the title, the captions' line on a phone.
    let caption_line = if below { axis_px * 1.6 } else { 0.0 };
    // The axis captions ("keys →" over "queries ↓") sit in the corner left of the column
    // labels and above the row labels, right-aligned against the matrix.
    let axis_caption_w = [row_caption(data), col_caption(data)]
        .iter()
        .map(|c| text::width(c, axis_px))
        .fold(0.0, f64::max);
    // Room for two lines, plus the overhang of labels on small cells (see below).
    let caption_h = if below {
        0.0
    } else {
        2.0 * 1.35 * axis_px + 12.0 * s + 0.6 * max_px
    };
    // The caption's corner sets the row labels' least width, beside the matrix.
    let caption_w = if below {
        0.0
    } else {
        axis_caption_w + 0.6 * max_px
    };

    let (legend_w, legend_under) = match legend_room(data, s, w) {
        Some(room) => (room, 0.0),
        None => (0.0, legend(data, legend_gap).below_height(s, tick_px)),
    };
    let side = if below {
        None
    } else {
        side_plan(
            data,
            s,
            (h - 2.0 * pad - title_band - caption_h) / n.max(1) as f64,
            columns,
        )
    };
    let side_w = side.map_or(0.0, |p| p.gap + p.width);

    // A part of a larger matrix labels the tokens whose index in the whole is a multiple
    // of the step, each with that index.
    let (origin_r, origin_c) = data.origin();
    let numbered = data.is_window();
    let labels =
        |texts: &[String], origin: usize, step: usize, px: f64, empty: &dyn Fn(usize) -> bool| {
            texts
                .iter()
                .enumerate()
                .filter(|(i, _)| (origin + i).is_multiple_of(step))
                .map(|(i, t)| {
                    let text = label_text(t, origin + i, step, numbered, empty(i));
                    (i, text::clip(&text, px, clip_w))
                })
                .collect::<Vec<_>>()
        };
    let widest = |l: &[(usize, String)], px: f64| {
        l.iter()
            .map(|(_, t)| text::width(t, px))
            .fold(0.0, f64::max)
    };

    let geometry = |plan: LabelPlan| {
        let rows = labels(data.row_labels(), origin_r, plan.row_step, plan.px, &|i| {
            data.is_empty_row(i)
        });
        let cols = labels(data.col_labels(), origin_c, plan.col_step, plan.px, &|_| {
            false
        });
        let row_w = (widest(&rows, plan.px).max(caption_w) + row_gap + 3.0 * s).ceil();
        let col_w = widest(&cols, plan.px);
        let col_band = if plan.col_rotated {
            col_w + 10.0 * s
        } else {
            plan.px * 1.6
        };
        let col_band = col_band.max(caption_h).ceil();
        let avail_w = w - 2.0 * pad - row_w - side_w - legend_w;
        let avail_h = h - 2.0 * pad - title_band - caption_line - col_band - legend_under;
        let cell = (avail_w / m as f64)
            .min(avail_h / n as f64)
            .min(MAX_CELL * s)
            .max(0.5);
        Geometry {
            rows,
            cols,
            row_w,
            col_w,
            col_band,
            cell,
        }
    };
    // Labels as large as the cells allow (12–17 px), every k-th when they would overlap.
    let next_plan = |g: &Geometry| {
        let px = (g.cell * 0.78).clamp(min_px, max_px);
        let step = nice_label_step((px * 1.25 / g.cell).ceil() as usize);
        let across = widest(&labels(data.col_labels(), origin_c, 1, px, &|_| false), px);
        let col_rotated = step > 1 || across + 8.0 * s > g.cell;
        LabelPlan {
            px,
            row_step: step,
            col_step: step,
            col_rotated,
        }
    };
    let mut plan = LabelPlan {
        px: max_px,
        row_step: 1,
        col_step: 1,
        col_rotated: true,
    };
    let mut g = geometry(plan);
    for _ in 0..4 {
        let next = next_plan(&g);
        if next == plan {
            break;
        }
        plan = next;
        g = geometry(plan);
    }
    // The plan may not have settled: make sure the final cells hold the labels, only ever
    // labelling fewer tokens or rotating, so this converges.
    for _ in 0..4 {
        let mut fixed = plan;
        if !fixed.col_rotated && g.col_w + 8.0 * s > g.cell {
            fixed.col_rotated = true;
        }
        let need = nice_label_step((fixed.px * 1.25 / g.cell).ceil() as usize);
        if need > fixed.row_step {
            fixed = LabelPlan {
                row_step: need,
                col_step: need,
                col_rotated: true,
                ..fixed
            };
        }
        if fixed == plan {
            break;
        }
        plan = fixed;
        g = geometry(plan);
    }
    let Geometry {
        rows,
        cols,
        row_w,
        col_band,
        cell,
        ..
    } = g;

    let mat_w = cell * m as f64;
    let mat_h = cell * n as f64;
    // Centre the block (row labels, matrix, legend) horizontally.
    let block_w = row_w + mat_w + side_w + legend_w;
    let left = pad.max((w - block_w) / 2.0);
    let mx = (left + row_w).round();
    let top = pad + title_band + caption_line;
    let my = (top + col_band).round();
    // The colour bar spans the matrix (at least 180 px tall when there is room), leaving
    // room below it for the "masked" swatch.
    let room = h - my - pad - legend(data, legend_gap).swatch_room(s);
    let legend_h = mat_h.max(room.min(180.0 * s)).min(room).max(60.0 * s);
    Layout {
        plan,
        rows,
        cols,
        title_px,
        axis_px,
        tick_px,
        pad,
        title_y: pad + title_band / 2.0,
        row_gap,
        mx,
        my,
        cell,
        legend_h,
        legend_gap,
        side,
        below: below.then_some(pad + title_band + caption_line / 2.0),
    }
}

/// How [`crate::draw_heatmap`] labels `data` on an area of `size` pixels with `style`:
/// every `step`-th row and column (1: each one) is labelled, in text of `px` pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelsDrawn {
    /// Every `step`-th row and column is labelled (counted in the whole matrix's indices).
    pub step: usize,
    /// The labels' text size, in the area's pixels.
    pub px: f64,
    /// How many row labels and column labels are drawn.
    pub rows: usize,
    /// How many column labels are drawn.
    pub cols: usize,
}

/// The labels [`crate::draw_heatmap`] draws for `data` on an area of `size` pixels.
pub fn labels_drawn(data: &Heatmap, style: &HeatmapStyle, size: (u32, u32)) -> LabelsDrawn {
    if data.n_rows() == 0 || data.n_cols() == 0 {
        return LabelsDrawn {
            step: 1,
            px: 0.0,
            rows: 0,
            cols: 0,
        };
    }
    let l = plan_layout(data, style.px_scale(), (size.0 as f64, size.1 as f64));
    LabelsDrawn {
        step: l.plan.row_step,
        px: l.plan.px,
        rows: l.rows.len(),
        cols: l.cols.len(),
    }
}

pub(crate) fn row_caption(data: &Heatmap) -> String {
    format!("{} \u{2193}", data.row_axis())
}

pub(crate) fn col_caption(data: &Heatmap) -> String {
    format!("{} \u{2192}", data.col_axis())
}

/// The height (pixels) at which [`crate::draw_heatmap`] fills a `width`-pixel-wide area with
/// `data` and leaves no blank band under the matrix: the cells are as large as the width
/// allows (less the labels, the entropy panel and the legend), and the height holds the
/// title, the column labels, the rows and the legend's minimum. A page sizes its canvas
/// with it, so short and long sentences, square and rectangular matrices all fit.
pub fn natural_height(data: &Heatmap, style: &HeatmapStyle, width: f64) -> f64 {
    let s = style.px_scale();
    let (n, m) = (data.n_rows().max(1) as f64, data.n_cols().max(1) as f64);
    // As tall as the cells could ever need, so only the width limits them.
    let tall = width * (n / m).max(1.0) * 2.0 + 400.0 * s;
    let layout = plan_layout(data, s, (width, tall));
    // The margin under the matrix, as above it.
    let margin = layout.pad;
    let legend = legend(data, layout.legend_gap);
    let figure = match layout.below {
        Some(_) => layout.cell * n + legend.below_height(s, layout.tick_px),
        None => (layout.cell * n).max(120.0 * s + legend.swatch_room(s)),
    };
    (layout.my + figure + margin).ceil()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_steps_are_round_numbers() {
        let steps: Vec<usize> = [0, 1, 2, 3, 4, 6, 11, 21, 26, 51]
            .into_iter()
            .map(nice_label_step)
            .collect();
        assert_eq!(steps, [1, 1, 2, 5, 5, 10, 20, 25, 50, 100]);
    }
}
