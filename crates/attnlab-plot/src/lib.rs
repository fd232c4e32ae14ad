//! # attnlab-plot
//!
//! attnlab's figures, each a pure function of its data and a plotters backend: the app
//! draws on an HTML canvas (`plotters-canvas`), the CLI, exports and the tests on SVG (and
//! on a raster backend). One drawing code, every output.
//!
//! The first figure is the attention [`Heatmap`]: query tokens on the rows, key tokens on
//! the columns, a colour legend with numeric ticks, blocked cells hatched in grey (never
//! the colour of a small weight), empty rows marked "∅". [`draw_heatmap`] returns a
//! [`CellMap`] that turns a pointer position back into the (row, column) under it.
//!
//! A heatmap can carry each row's entropy ([`Heatmap::with_row_entropy`]), drawn as a bar
//! beside its row, and the raw scores before softmax ([`Heatmap::with_raw_scores`]), not
//! drawn but read back at a cell for hover ([`Heatmap::raw_score`]).
//! [`Heatmap::difference_of`] compares two heatmaps on a diverging scale, cells masked in
//! either drawn as masked.
//!
//! The second figure is the [`HeadGrid`]: every head of a variant as small multiples on
//! one colour scale, the selected head outlined; [`draw_head_grid`] returns a
//! [`HeadGridMap`] that finds the head (and cell) under a pointer.
//!
//! On a canvas, large matrices are cheaper as one bitmap than as thousands of rectangles:
//! see [`CellField::Bitmap`], and the app's `src/blit_canvas.rs` for a canvas backend
//! that blits with `putImageData`.
//!
//! The third is the [`LineChart`]: series of points on linear or log10 axes with a legend
//! and vertical markers ([`draw_line_chart`]), for measured curves and curves over an index.
//!
//! The fourth is [`TokenLines`]: query tokens left, key tokens right, one line per head
//! and pair with opacity = weight, one colour per head; [`draw_token_lines`] returns a
//! [`TokenLinesMap`] that finds the token under a pointer, and a focused token's lines
//! stay while the others fade.
//!
//! Every number a figure writes (legend and axis ticks, cell labels, entropies) is
//! formatted by [`number`], the module the lab, the app and the CLI format theirs with.
//!
//! This crate knows nothing of attention: it draws labelled matrices. The app turns the
//! core's results into a [`Heatmap`].
//!
//! ```
//! use attnlab_plot::{CellText, HeadGrid, Heatmap, HeatmapStyle, draw_head_grid, draw_heatmap};
//! use plotters::prelude::IntoDrawingArea;
//! use plotters_svg::SVGBackend;
//!
//! let tokens: Vec<String> = ["I", "love", "NLP"].map(String::from).to_vec();
//! #[rustfmt::skip]
//! let weights = vec![
//!     1.0, 0.0, 0.0,
//!     0.4, 0.6, 0.0,
//!     0.2, 0.3, 0.5,
//! ];
//! let causal = vec![false, true, true, false, false, true, false, false, false];
//! let heatmap = Heatmap::weights("Head 0", tokens.clone(), tokens, weights)?
//!     .with_blocked(causal)?;
//!
//! let mut svg = String::new();
//! let cells = {
//!     let area = SVGBackend::with_string(&mut svg, (640, 480)).into_drawing_area();
//!     // At devicePixelRatio 2 this would be `HeatmapStyle::scaled(2.0)` on a 2× canvas.
//!     let style = HeatmapStyle { cell_text: CellText::Auto, ..HeatmapStyle::default() };
//!     let cells = draw_heatmap(&area, &heatmap, &style)?;
//!     area.present()?;
//!     cells
//! };
//! assert!(svg.lines().any(|line| line == "love"));
//!
//! // Hover: the pixel at the centre of (row 2, column 1) is that cell.
//! let (x, y) = cells.cell_centre(2, 1).unwrap();
//! assert_eq!(cells.cell_at(x, y), Some((2, 1)));
//!
//! // All heads as small multiples, head 1 selected; a click finds its head.
//! let heads = vec![heatmap.clone(), heatmap];
//! let mut svg = String::new();
//! let area = SVGBackend::with_string(&mut svg, (640, 320)).into_drawing_area();
//! let grid = HeadGrid::new(&heads).with_selected(1);
//! let tiles = draw_head_grid(&area, &grid, &HeatmapStyle::default())?;
//! let (x, y) = tiles.cells(1).unwrap().cell_centre(0, 0).unwrap();
//! assert_eq!(tiles.head_at(x, y), Some(1));
//! assert_eq!(tiles.cell_at(x, y), Some((1, 0, 0)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod cell_map;
mod cells;
pub mod export;
mod frame;
mod grid;
mod heatmap;
mod heatmap_paint;
mod layout;
mod legend;
mod line_chart;
mod lines;
pub mod number;
mod scale;
mod shared;
mod style;
mod text;
mod words;

pub use cell_map::CellMap;
pub use frame::{HeadGridFrame, HeatmapFrame};
pub use grid::{HeadGrid, HeadGridMap, draw_head_grid, repaint_head_grid_values};
pub use heatmap::{Heatmap, HeatmapError};
pub use heatmap_paint::{draw_heatmap, repaint_heatmap_values, repaint_heatmap_values_and_scale};
pub use layout::{LabelsDrawn, labels_drawn, natural_height};
pub use line_chart::{
    Axis, AxisScale, GRID, LineChart, LineChartMap, LineChartStyle, LineDash, MARKER, Series,
    Ticks, VerticalMarker, draw_line_chart,
};
pub use lines::{
    FADE, FOCUS_FILL, Focus, HEAD_COLOURS, LineHead, LinesStyle, TokenLines, TokenLinesMap,
    draw_token_lines,
};
/// Colours of figures and series (plotters' RGB colour).
pub use plotters::style::RGBColor;
pub use scale::{ColorScale, DivergingPalette, Palette, SequentialPalette, ValueRange};
pub use shared::{Cells, Labels};
pub use style::{
    BACKGROUND, CellField, CellText, EMPTY_ROW_INK, ENTROPY_BAR, ENTROPY_TRACK, HeatmapStyle,
    MASK_FILL, MASK_HATCH, SELECTED,
};
pub use words::Words;
