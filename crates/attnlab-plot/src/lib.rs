//! # attnlab-plot
//!
//! attnlab's figures, each a pure function of its data and a plotters backend: the app
//! draws on an HTML canvas (`plotters-canvas`), the CLI, exports and the snapshot tests on
//! SVG. One drawing code, every output.
//!
//! The first figure is the attention [`Heatmap`]: query tokens on the rows, key tokens on
//! the columns, a colour legend with numeric ticks, blocked cells hatched in grey (never
//! the colour of a small weight), empty rows marked "∅". [`draw_heatmap`] returns a
//! [`CellMap`] that turns a pointer position back into the (row, column) under it.
//!
//! This crate knows nothing of attention: it draws labelled matrices. The app turns the
//! core's results into a [`Heatmap`].
//!
//! ```
//! use attnlab_plot::{CellText, Heatmap, HeatmapStyle, draw_heatmap};
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
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod draw;
mod heatmap;
mod scale;
mod text;

pub use draw::{
    BACKGROUND, CellMap, CellText, EMPTY_ROW_INK, HeatmapStyle, MASK_FILL, MASK_HATCH, draw_heatmap,
};
pub use heatmap::{Heatmap, HeatmapError};
pub use scale::{ColorScale, ValueRange, format_value};
