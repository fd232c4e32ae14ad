//! What a figure looks like apart from its values: its *frame*. Two paints with equal
//! frames differ only in the cells (and the entropy bars), so the second can repaint
//! just those over the first ([`crate::repaint_heatmap_values`],
//! [`crate::repaint_head_grid_values`]). A slider that changes the values of every
//! figure then leaves every label, caption and legend on the canvas as it is. Two heatmap
//! frames that differ in the range alone, with the legend's room unchanged, differ only
//! in the legend's scale besides ([`crate::repaint_heatmap_values_and_scale`]): a
//! difference's range follows every knob.

use crate::grid::HeadGrid;
use crate::heatmap::Heatmap;
use crate::scale::{ColorScale, ValueRange};
use crate::style::HeatmapStyle;
use crate::words::Words;

/// Everything [`crate::draw_heatmap`] draws that does not depend on the values: the
/// area's size, the style, title, labels, axis names, colour scale and range (the
/// legend), whether a legend swatch explains masked cells, the empty rows and whether
/// there is an entropy panel. The layout is a function of these alone.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapFrame {
    size: (u32, u32),
    style: HeatmapStyle,
    title: String,
    rows: Vec<String>,
    cols: Vec<String>,
    axes: (String, String),
    value_label: String,
    scale: ColorScale,
    range: ValueRange,
    masked: bool,
    empty_rows: Vec<usize>,
    entropy: bool,
    words: Words,
    /// The legend's width beside the matrix (`None`: under it), which the range's tick
    /// labels can change, and with it the layout.
    legend_room: Option<f64>,
    /// Where a part of a larger matrix starts (its labels are numbered from there).
    origin: Option<(usize, usize)>,
}

impl HeatmapFrame {
    /// The frame of `data` drawn with `style` on an area of `size` pixels.
    pub fn of(data: &Heatmap, style: &HeatmapStyle, size: (u32, u32)) -> HeatmapFrame {
        HeatmapFrame {
            size,
            style: *style,
            title: data.title().to_string(),
            rows: data.row_labels().to_vec(),
            cols: data.col_labels().to_vec(),
            axes: (data.row_axis().to_string(), data.col_axis().to_string()),
            value_label: data.value_label().to_string(),
            scale: data.scale(),
            range: data.range(),
            masked: data.has_blocked(),
            empty_rows: data.empty_rows().to_vec(),
            entropy: data.has_row_entropy(),
            words: *data.words(),
            legend_room: crate::layout::legend_room(data, style.px_scale(), size.0 as f64),
            origin: data.is_window().then(|| data.origin()),
        }
    }

    /// Whether `other` is this frame with another range and the same layout (the legend
    /// beside the matrix, as wide as before): then the legend's scale and the values are
    /// all that differ ([`crate::repaint_heatmap_values_and_scale`]). A legend under the
    /// matrix (a phone's) is never repainted this way.
    pub fn differs_in_range_alone(&self, other: &HeatmapFrame) -> bool {
        // Every field but the range, the labels (the longest to compare) last.
        let HeatmapFrame {
            size,
            style,
            title,
            rows,
            cols,
            axes,
            value_label,
            scale,
            range,
            masked,
            empty_rows,
            entropy,
            words,
            legend_room,
            origin,
        } = self;
        *range != other.range
            && *origin == other.origin
            && legend_room.is_some()
            && *legend_room == other.legend_room
            && *size == other.size
            && *style == other.style
            && *scale == other.scale
            && *masked == other.masked
            && *entropy == other.entropy
            && *words == other.words
            && *title == other.title
            && *axes == other.axes
            && *value_label == other.value_label
            && *empty_rows == other.empty_rows
            && *rows == other.rows
            && *cols == other.cols
    }
}

/// Everything [`crate::draw_head_grid`] draws that does not depend on the values: the
/// area's size, the style, the title, the selected head, each head's shape, the shared
/// colours (the legend) and whether any cell is masked.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadGridFrame {
    size: (u32, u32),
    style: HeatmapStyle,
    title: String,
    selected: Option<usize>,
    columns: Option<usize>,
    tile_titles: Vec<String>,
    shapes: Vec<(usize, usize)>,
    value_label: String,
    colours: Option<(ColorScale, ValueRange)>,
    masked: bool,
    words: Words,
}

impl HeadGridFrame {
    /// The frame of `grid` drawn with `style` on an area of `size` pixels.
    pub fn of(grid: &HeadGrid<'_>, style: &HeatmapStyle, size: (u32, u32)) -> HeadGridFrame {
        HeadGridFrame {
            size,
            style: *style,
            title: grid.title.to_string(),
            selected: grid.selected,
            columns: grid.columns,
            tile_titles: (0..grid.heads.len()).map(|h| grid.tile_title(h)).collect(),
            shapes: grid
                .heads
                .iter()
                .map(|h| (h.n_rows(), h.n_cols()))
                .collect(),
            value_label: grid
                .heads
                .first()
                .map(|h| h.value_label().to_string())
                .unwrap_or_default(),
            colours: grid.shared_colours(),
            masked: grid.heads.iter().any(Heatmap::has_blocked),
            words: grid.heads.first().map_or(Words::ENGLISH, |h| *h.words()),
        }
    }
}
