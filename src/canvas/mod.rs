//! The canvas components: the one heatmap canvas and the one line-chart canvas every view
//! uses, their exports and table, and the effect and observers that repaint a canvas when
//! its figure, its box or the window changes. The paint itself (device pixels, natural
//! heights, values-only repaints, the blitting backend) is `attnlab_paint`'s.

mod canvas_size;
mod export;
mod figure_table;
mod heatmap_canvas;
mod line_chart_canvas;
mod repaint;

pub use export::{ExportMenu, Exported, Grid};
pub use figure_table::{FigureTable, cell_sentence};
pub use heatmap_canvas::{HeatmapCanvas, Pointing};
pub use line_chart_canvas::{ChartLegend, LineChartCanvas};
pub use repaint::repaint_effect;
