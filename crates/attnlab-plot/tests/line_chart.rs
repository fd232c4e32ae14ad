//! The line chart, drawn on the SVG backend and read back: the axis captions, tick
//! labels, legend entries, markers and the number of points.

use attnlab_plot::{
    Axis, AxisScale, LineChart, LineChartMap, LineChartStyle, LineDash, MARKER, RGBColor, Series,
    Ticks, VerticalMarker, draw_line_chart,
};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

#[path = "support/svg.rs"]
mod svg;

use svg::{hex, num, tags, texts};

const BLUE: RGBColor = RGBColor(31, 94, 168);
const ORANGE: RGBColor = RGBColor(214, 96, 0);

fn sizes() -> Vec<f64> {
    (6..=14).map(|e| 2f64.powi(e)).collect()
}

/// Softmax-like (n²) and linear-like (n) times over n = 64 … 16384, with fitted lines.
fn timing_chart() -> LineChart {
    let n = sizes();
    let quad: Vec<(f64, f64)> = n.iter().map(|&x| (x, x * x / 1e5)).collect();
    let lin: Vec<(f64, f64)> = n.iter().map(|&x| (x, x / 100.0)).collect();
    LineChart {
        title: "Time per call".into(),
        x: Axis {
            label: "sequence length n".into(),
            scale: AxisScale::Log10,
            ticks: Ticks::At(n.clone()),
        },
        y: Axis {
            label: "ms per call".into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series: vec![
            Series {
                name: Some("softmax (streaming) slope 2.00".into()),
                points: quad.clone(),
                color: BLUE,
                dash: LineDash::Solid,
                markers: true,
            },
            Series {
                name: None,
                points: vec![quad[3], quad[8]],
                color: BLUE,
                dash: LineDash::Dashed,
                markers: false,
            },
            Series {
                name: Some("linear elu1 slope 1.00".into()),
                points: lin,
                color: ORANGE,
                dash: LineDash::Solid,
                markers: true,
            },
        ],
        markers: vec![VerticalMarker {
            x: 1000.0,
            label: "crossover n ≈ 1000".into(),
        }],
        note: Some("dashed: least-squares fit".into()),
    }
}

fn render(chart: &LineChart, size: (u32, u32), scale: f64) -> (String, LineChartMap) {
    let mut svg = String::new();
    let map = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let map = draw_line_chart(&area, chart, &LineChartStyle { scale }).expect("draws");
        area.present().expect("present");
        map
    };
    (svg, map)
}

#[test]
fn axis_captions_ticks_and_title_are_written() {
    let (svg, _) = render(&timing_chart(), (1000, 600), 1.0);
    let t = texts(&svg);
    for label in ["Time per call", "sequence length n", "ms per call"] {
        assert!(t.contains(&label.to_string()), "{label:?} in {t:?}");
    }
    // Every size is a tick label on a wide chart; the y axis has decades.
    for n in [
        "64", "128", "256", "512", "1024", "2048", "4096", "8192", "16384",
    ] {
        assert!(t.contains(&n.to_string()), "{n} in {t:?}");
    }
    for y in ["0.1", "1", "10", "100", "1000"] {
        assert!(t.contains(&y.to_string()), "{y} in {t:?}");
    }
}

#[test]
fn legend_lists_named_series_and_the_note() {
    let (svg, _) = render(&timing_chart(), (1000, 600), 1.0);
    let t = texts(&svg);
    assert!(
        t.contains(&"softmax (streaming) slope 2.00".to_string()),
        "{t:?}"
    );
    assert!(t.contains(&"linear elu1 slope 1.00".to_string()), "{t:?}");
    assert!(
        t.contains(&"dashed: least-squares fit".to_string()),
        "{t:?}"
    );
    assert!(t.contains(&"crossover n ≈ 1000".to_string()), "{t:?}");
    // The unnamed fit has no legend entry: two named series → two legend texts.
    assert_eq!(t.iter().filter(|s| s.contains("slope")).count(), 2);
}

#[test]
fn one_circle_per_point_plus_one_per_legend_entry_with_markers() {
    let (svg, map) = render(&timing_chart(), (1000, 600), 1.0);
    assert_eq!(map.points_drawn(), 18);
    assert_eq!(tags(&svg, "circle").len(), 18 + 2);
    // Markers on the curve sit where the map says.
    let ((x0, y0), (x1, y1)) = map.plot_area();
    let (px, py) = map.to_pixel(64.0, 64.0 * 64.0 / 1e5).unwrap();
    assert!((px - x0 as f64) > 0.0 && px < x1 as f64 && py > y0 as f64 && py <= y1 as f64);
    // The leftmost point is left of the rightmost, the larger time is higher.
    let (qx, qy) = map.to_pixel(16384.0, 16384.0f64.powi(2) / 1e5).unwrap();
    assert!(qx > px && qy < py);
}

#[test]
fn the_marker_is_a_vertical_line_at_its_x() {
    let (svg, map) = render(&timing_chart(), (1000, 600), 1.0);
    let (mx, _) = map.to_pixel(1000.0, 1.0).unwrap();
    let marker = hex(MARKER);
    let vertical: Vec<_> = tags(&svg, "polyline")
        .into_iter()
        .filter(|t| {
            t.attrs
                .get("stroke")
                .is_some_and(|s| s.eq_ignore_ascii_case(&marker))
        })
        .collect();
    assert!(!vertical.is_empty(), "the marker's dashes are drawn");
    for t in &vertical {
        let pts = &t.attrs["points"];
        for xy in pts.split_whitespace() {
            let x: f64 = xy.split(',').next().unwrap().parse().unwrap();
            assert!((x - mx).abs() <= 1.0, "{x} vs {mx}");
        }
    }
}

#[test]
fn crowded_tick_labels_are_skipped_and_scaling_keeps_the_texts() {
    let (svg, _) = render(&timing_chart(), (320, 240), 1.0);
    let t = texts(&svg);
    let shown = [
        "64", "128", "256", "512", "1024", "2048", "4096", "8192", "16384",
    ]
    .iter()
    .filter(|n| t.contains(&n.to_string()))
    .count();
    assert!(
        (3..9).contains(&shown),
        "{shown} of 9 labels on a narrow chart: {t:?}"
    );
    let (svg2, map2) = render(&timing_chart(), (2000, 1200), 2.0);
    assert!(texts(&svg2).contains(&"ms per call".to_string()));
    assert_eq!(map2.points_drawn(), 18);
}

#[test]
fn linear_axes_bad_points_and_empty_charts_draw_without_panic() {
    let chart = LineChart {
        title: "Curves".into(),
        x: Axis {
            label: "position".into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        y: Axis {
            label: "value".into(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        },
        series: vec![Series {
            name: Some("with gaps".into()),
            // The zero and the NaN cannot be shown on the log axis: skipped.
            points: vec![
                (0.0, 1.0),
                (1.0, 0.0),
                (2.0, f64::NAN),
                (3.0, 10.0),
                (4.0, 100.0),
            ],
            color: BLUE,
            dash: LineDash::Solid,
            markers: true,
        }],
        markers: vec![],
        note: None,
    };
    let (svg, map) = render(&chart, (600, 400), 1.0);
    assert_eq!(map.points_drawn(), 3);
    let t = texts(&svg);
    for x in ["0", "1", "2", "3", "4"] {
        assert!(t.contains(&x.to_string()), "{x} in {t:?}");
    }
    let empty = LineChart {
        series: vec![],
        ..chart
    };
    let (svg, map) = render(&empty, (600, 400), 1.0);
    assert_eq!(map.points_drawn(), 0);
    assert!(texts(&svg).contains(&"Curves".to_string()));
}

/// The y of the text `wanted` (its `y` attribute) in an SVG chart.
fn text_y(svg: &str, wanted: &str) -> f64 {
    let tags = tags(svg, "text");
    let tag = tags
        .iter()
        .find(|t| t.text == wanted)
        .unwrap_or_else(|| panic!("{wanted:?} not drawn"));
    f64::from(num(tag, "y"))
}

/// Under 420 px (a phone) the legend lies under the chart, below the plot and its x
/// caption, so it covers no line; a wide chart keeps it inside the plot's corner.
#[test]
fn a_narrow_chart_puts_its_legend_under_the_plot() {
    let chart = timing_chart();
    let (svg, map) = render(&chart, (330, 360), 1.0);
    let ((_, top), (_, bottom)) = map.plot_area();
    for entry in ["softmax (streaming) slope 2.00", "linear elu1 slope 1.00"] {
        let y = text_y(&svg, entry);
        assert!(
            y > f64::from(bottom) + 20.0,
            "{entry}: y {y}, plot bottom {bottom}"
        );
    }
    assert!(bottom - top >= 150, "the plot keeps {} px", bottom - top);
    let (svg, map) = render(&chart, (800, 360), 1.0);
    let ((_, top), (_, bottom)) = map.plot_area();
    let y = text_y(&svg, "linear elu1 slope 1.00");
    assert!(
        y > f64::from(top) && y < f64::from(bottom),
        "wide: y {y} in {top}..{bottom}"
    );
}
