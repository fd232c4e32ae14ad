//! Everything that puts pixels on a canvas: the one heatmap canvas and the one line-chart
//! canvas every view uses, the paint functions behind them (device pixels, natural
//! heights, values-only repaints), the blitting backend, and the effect and observers
//! that repaint a canvas when its figure, its box or the window changes.

mod blit_canvas;
mod canvas_size;
mod export;
mod figure_table;
mod heatmap_canvas;
mod line_chart_canvas;
pub mod paint;
mod repaint;

pub use export::{ExportMenu, Exported, Grid};
pub use figure_table::{FigureTable, cell_sentence};
pub use heatmap_canvas::{HeatmapCanvas, Pointing};
pub use line_chart_canvas::{ChartLegend, LineChartCanvas};
pub use repaint::repaint_effect;
