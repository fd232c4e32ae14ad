//! Figures as files: SVG drawn by the same functions as the canvas, on plotters' SVG
//! backend (a PNG is the canvas backend at twice the resolution, in the app).

use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

use crate::grid::{HeadGrid, draw_head_grid};
use crate::heatmap::Heatmap;
use crate::heatmap_paint::draw_heatmap;
use crate::layout::natural_height;
use crate::line_chart::{LineChart, LineChartStyle, draw_line_chart};
use crate::lines::{LinesStyle, TokenLines, draw_token_lines};
use crate::style::HeatmapStyle;

/// `heatmap` as an SVG document `width` pixels wide, at its natural height (the height
/// the canvas gives it at that width), with the figure's title as the document's
/// `<title>`.
pub fn heatmap_svg(heatmap: &Heatmap, width: u32) -> Result<String, String> {
    let style = HeatmapStyle::default();
    let height = natural_height(heatmap, &style, f64::from(width)).ceil() as u32;
    heatmap_svg_sized(heatmap, (width, height.max(1)))
}

/// `heatmap` as an SVG document of exactly `size` pixels.
pub fn heatmap_svg_sized(heatmap: &Heatmap, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_heatmap(&area, heatmap, &HeatmapStyle::default())
            .map_err(|e| format!("cannot draw the figure ({e})"))?;
        area.present()
            .map_err(|e| format!("cannot draw the figure ({e})"))?;
    }
    Ok(with_title(svg, heatmap.title()))
}

/// `chart` as an SVG document of `size` pixels, the chart's title as its `<title>`.
pub fn line_chart_svg(chart: &LineChart, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_line_chart(&area, chart, &LineChartStyle::default())
            .map_err(|e| format!("cannot draw the chart ({e})"))?;
        area.present()
            .map_err(|e| format!("cannot draw the chart ({e})"))?;
    }
    Ok(with_title(svg, &chart.title))
}

/// `grid` (every head as small multiples) as an SVG document of `size` pixels, its
/// title (or `title`) as the document's `<title>`.
pub fn head_grid_svg(grid: &HeadGrid<'_>, title: &str, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_head_grid(&area, grid, &HeatmapStyle::default())
            .map_err(|e| format!("cannot draw the heads ({e})"))?;
        area.present()
            .map_err(|e| format!("cannot draw the heads ({e})"))?;
    }
    Ok(with_title(svg, title))
}

/// The token lines as an SVG document of `size` pixels, their title as its `<title>`.
pub fn token_lines_svg(lines: &TokenLines, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_token_lines(&area, lines, &LinesStyle::scaled(1.0))
            .map_err(|e| format!("cannot draw the lines ({e})"))?;
        area.present()
            .map_err(|e| format!("cannot draw the lines ({e})"))?;
    }
    Ok(with_title(svg, lines.title()))
}

/// Puts `<title>` (escaped) right after the opening `<svg …>` tag, so viewers and
/// screen readers name the figure.
fn with_title(svg: String, title: &str) -> String {
    let Some(end) = svg
        .find("<svg")
        .and_then(|at| svg[at..].find('>').map(|e| at + e + 1))
    else {
        return svg;
    };
    let escaped = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!("{}\n<title>{escaped}</title>{}", &svg[..end], &svg[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_svg_names_its_figure_and_keeps_its_natural_height() {
        let h = Heatmap::weights(
            "A · head 0 <&>",
            vec!["a".into(), "b".into()],
            vec!["a".into(), "b".into()],
            vec![0.5, 0.5, 0.25, 0.75],
        )
        .unwrap();
        let svg = heatmap_svg(&h, 600).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("<title>A · head 0 &lt;&amp;&gt;</title>"));
        let height = natural_height(&h, &HeatmapStyle::default(), 600.0).ceil() as u32;
        assert!(
            svg.contains(&format!("height=\"{height}\"")),
            "{}",
            &svg[..200]
        );
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
