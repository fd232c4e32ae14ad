//! A general line chart: series of `(x, y)` points on linear or log10 axes, a legend, an
//! optional note and vertical markers. Used for measured curves (time against sequence
//! length), curves over positions, singular values — anything that is `y` against `x`.
//!
//! ```
//! use attnlab_plot::{Axis, AxisScale, LineChart, LineChartStyle, LineDash, RGBColor, Series,
//!     Ticks, draw_line_chart};
//! use plotters::prelude::IntoDrawingArea;
//! use plotters_svg::SVGBackend;
//!
//! let chart = LineChart {
//!     title: "Squares".into(),
//!     x: Axis { label: "n".into(), scale: AxisScale::Log10, ticks: Ticks::At(vec![1.0, 10.0, 100.0]) },
//!     y: Axis { label: "n²".into(), scale: AxisScale::Log10, ticks: Ticks::Auto },
//!     series: vec![Series {
//!         name: Some("n²".into()),
//!         points: vec![(1.0, 1.0), (10.0, 100.0), (100.0, 10_000.0)],
//!         color: RGBColor(31, 94, 168),
//!         dash: LineDash::Solid,
//!         markers: true,
//!     }],
//!     markers: vec![],
//!     note: None,
//! };
//! let mut svg = String::new();
//! let map = {
//!     let area = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
//!     let map = draw_line_chart(&area, &chart, &LineChartStyle::default())?;
//!     area.present()?;
//!     map
//! };
//! assert!(svg.lines().any(|line| line.trim() == "Squares"));
//! // (10, 100) lies in the middle of the plot on both log axes.
//! let (x, y) = map.to_pixel(10.0, 100.0).unwrap();
//! let ((x0, y0), (x1, y1)) = map.plot_area();
//! assert!((x - (x0 + x1) as f64 / 2.0).abs() < 1.0 && (y - (y0 + y1) as f64 / 2.0).abs() < 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::number;
use crate::scale;
use crate::style::{BACKGROUND, INK, MUTED_INK, anchored, font};
use crate::text;

/// How an axis maps values to positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisScale {
    /// Equal steps for equal differences.
    Linear,
    /// Equal steps for equal ratios; values that are not positive are not drawn.
    Log10,
}

/// Where an axis has ticks (and labels).
#[derive(Debug, Clone, PartialEq)]
pub enum Ticks {
    /// Chosen from the range: "nice" values on a linear axis; powers of ten on a log axis
    /// (with 2× and 5× when the range spans less than three decades).
    Auto,
    /// At these values (those inside the range). Labels that would overlap their
    /// neighbour are skipped, the ticks stay.
    At(Vec<f64>),
}

/// One axis: its caption, its scale and its ticks. The range is the data's (every
/// series and marker), padded by 4 % on each side.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The caption, e.g. `"sequence length n"`.
    pub label: String,
    /// Linear or log10.
    pub scale: AxisScale,
    /// Where the ticks are.
    pub ticks: Ticks,
}

/// How a series' line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineDash {
    /// A continuous line.
    Solid,
    /// Dashes (e.g. a fitted or theoretical curve beside a measured one).
    Dashed,
}

/// One curve: points joined in the given order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend entry; `None` leaves the series out of the legend.
    pub name: Option<String>,
    /// The points. Points with a non-finite coordinate, or a coordinate that is not
    /// positive on a log axis, are skipped (the line breaks there).
    pub points: Vec<(f64, f64)>,
    /// The line and marker colour.
    pub color: RGBColor,
    /// Solid or dashed.
    pub dash: LineDash,
    /// Whether each point gets a filled circle.
    pub markers: bool,
}

/// A vertical line across the plot at `x`, labelled at its top (e.g. a crossover).
#[derive(Debug, Clone, PartialEq)]
pub struct VerticalMarker {
    /// Where, in data units.
    pub x: f64,
    /// The label written beside the line's top.
    pub label: String,
}

/// The chart: title, axes, series, markers and a note under the legend.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Above the plot.
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The curves, drawn in order (later on top).
    pub series: Vec<Series>,
    /// Vertical markers.
    pub markers: Vec<VerticalMarker>,
    /// A line of small text under the legend entries (e.g. what the dashed lines are).
    pub note: Option<String>,
}

/// How the chart is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineChartStyle {
    /// Multiplies every length given in pixels (use `devicePixelRatio` on a canvas sized
    /// in device pixels).
    pub scale: f64,
}

impl Default for LineChartStyle {
    fn default() -> Self {
        LineChartStyle { scale: 1.0 }
    }
}

/// The colour of the grid lines.
pub const GRID: RGBColor = RGBColor(226, 226, 232);
/// The colour of vertical markers.
pub const MARKER: RGBColor = RGBColor(120, 40, 140);

/// Where the plot was drawn: turns data coordinates into backend pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineChartMap {
    area: ((i32, i32), (i32, i32)),
    x: AxisMap,
    y: AxisMap,
    points: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct AxisMap {
    scale: AxisScale,
    /// Transformed range ends (log10 of the values on a log axis).
    lo: f64,
    hi: f64,
}

impl AxisMap {
    fn transform(&self, v: f64) -> Option<f64> {
        let t = match self.scale {
            AxisScale::Linear => v,
            AxisScale::Log10 if v > 0.0 => v.log10(),
            AxisScale::Log10 => return None,
        };
        t.is_finite().then_some(t)
    }

    /// `0` at the low end, `1` at the high end.
    fn fraction(&self, v: f64) -> Option<f64> {
        Some((self.transform(v)? - self.lo) / (self.hi - self.lo))
    }

    fn contains(&self, v: f64) -> bool {
        self.fraction(v)
            .is_some_and(|f| (-1e-9..=1.0 + 1e-9).contains(&f))
    }
}

impl LineChartMap {
    /// The plot's rectangle in backend pixels: upper-left, lower-right.
    pub fn plot_area(&self) -> ((i32, i32), (i32, i32)) {
        self.area
    }

    /// The pixel of `(x, y)`, or `None` for a value the axes cannot show.
    pub fn to_pixel(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let ((x0, y0), (x1, y1)) = self.area;
        let fx = self.x.fraction(x)?;
        let fy = self.y.fraction(y)?;
        Some((
            x0 as f64 + fx * (x1 - x0) as f64,
            y1 as f64 - fy * (y1 - y0) as f64,
        ))
    }

    /// How many points were drawn (over every series).
    pub fn points_drawn(&self) -> usize {
        self.points
    }
}

/// The transformed data range of an axis, padded; a fallback for no data.
fn axis_range(axis: &Axis, values: impl Iterator<Item = f64>) -> AxisMap {
    let probe = AxisMap {
        scale: axis.scale,
        lo: 0.0,
        hi: 1.0,
    };
    let ts: Vec<f64> = values.filter_map(|v| probe.transform(v)).collect();
    let (mut lo, mut hi) = ts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &t| {
            (a.min(t), b.max(t))
        });
    if !(lo.is_finite() && hi.is_finite()) {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        let half = if lo.abs() > 1e-9 && axis.scale == AxisScale::Linear {
            lo.abs() * 0.1
        } else {
            0.5
        };
        (lo, hi) = (lo - half, hi + half);
    }
    let pad = (hi - lo) * 0.04;
    AxisMap {
        scale: axis.scale,
        lo: lo - pad,
        hi: hi + pad,
    }
}

/// The tick values of `axis` over `map`'s range.
fn tick_values(axis: &Axis, map: &AxisMap) -> Vec<f64> {
    let values = match (&axis.ticks, axis.scale) {
        (Ticks::At(v), _) => v.clone(),
        (Ticks::Auto, AxisScale::Linear) => {
            let step = scale::nice_step((map.hi - map.lo) / 6.0, &[1.0, 2.0, 5.0]);
            let first = (map.lo / step).ceil() as i64;
            let last = (map.hi / step).floor() as i64;
            (first..=last).map(|k| k as f64 * step).collect()
        }
        (Ticks::Auto, AxisScale::Log10) => {
            let (first, last) = (map.lo.ceil() as i32, map.hi.floor() as i32);
            let multiples: &[f64] = if map.hi - map.lo < 3.0 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            (first - 1..=last)
                .flat_map(|e| multiples.iter().map(move |m| m * 10f64.powi(e)))
                .collect()
        }
    };
    values.into_iter().filter(|&v| map.contains(v)).collect()
}

/// Draws `chart` filling `area` and returns where the plot is.
///
/// Layout: the title on top, the y caption rotated on the left with its tick labels, the
/// x caption under the x tick labels. Grid lines at every tick. Each series is a line
/// through its points in order (broken at points the axes cannot show), dashed or solid,
/// with a circle at each point if asked. Markers are dashed vertical lines with their
/// label at the top. The legend (a line sample and the name of every named series, then
/// the note) sits in the upper-left corner of the plot on a white box, or, in a chart
/// under 420 px wide (a phone's), under the chart, where it covers no line. Text sizes
/// are pixels times `style.scale` (body text 13 px, title 15 px).
pub fn draw_line_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    style: &LineChartStyle,
) -> Result<LineChartMap, DrawingAreaErrorKind<DB::ErrorType>> {
    let s = if style.scale.is_finite() && style.scale > 0.0 {
        style.scale
    } else {
        1.0
    };
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    area.fill(&BACKGROUND)?;
    let body = 13.0 * s;
    let title_px = 15.0 * s;

    let xs = chart
        .series
        .iter()
        .flat_map(|ser| ser.points.iter().map(|p| p.0))
        .chain(chart.markers.iter().map(|m| m.x));
    let ys = chart
        .series
        .iter()
        .flat_map(|ser| ser.points.iter().map(|p| p.1));
    let xmap = axis_range(&chart.x, xs);
    let ymap = axis_range(&chart.y, ys);
    let xticks = tick_values(&chart.x, &xmap);
    let yticks = tick_values(&chart.y, &ymap);

    let ytick_w = yticks
        .iter()
        .map(|&v| text::width(&number::significant(v, 3), body))
        .fold(0.0, f64::max);
    // The legend's rows: named series, then the note. Under 420 px it goes under the
    // chart, where it covers nothing (inside a phone-sized plot it would cover most of it).
    let named: Vec<&Series> = chart.series.iter().filter(|s| s.name.is_some()).collect();
    let (note_px, line_h) = (12.0 * s, body * 1.45);
    let rows = named.len() as f64 + if chart.note.is_some() { 1.0 } else { 0.0 };
    let legend_h = rows * line_h + 10.0 * s;
    let below = rows > 0.0 && w < 420.0 * s;
    let under = if below { legend_h + 6.0 * s } else { 0.0 };
    let left = (8.0 * s + body * 1.3 + 6.0 * s + ytick_w + 8.0 * s).round();
    let top = (10.0 * s + title_px * 1.6).round();
    let right = (w - 16.0 * s).round();
    let bottom = (h - (8.0 * s + body * 1.3 * 2.0 + 8.0 * s) - under).round();
    let ix = |v: f64| v.round() as i32;
    let map = LineChartMap {
        area: (
            (ix(left), ix(top)),
            (ix(right.max(left + 1.0)), ix(bottom.max(top + 1.0))),
        ),
        x: xmap,
        y: ymap,
        points: 0,
    };
    let ((x0, y0), (x1, y1)) = map.area;

    // Title.
    let title_style = anchored(
        TextStyle::from(font(title_px, FontStyle::Bold)).color(&INK),
        HPos::Left,
        VPos::Top,
    );
    let title = text::clip(&chart.title, title_px, (w - 16.0 * s).max(0.0));
    area.draw_text(&title, &title_style, (ix(8.0 * s), ix(8.0 * s)))?;

    // Grid, ticks and their labels.
    let grid = ShapeStyle::from(&GRID).stroke_width(ix(s.max(1.0)) as u32);
    let label_style = TextStyle::from(font(body, FontStyle::Normal)).color(&MUTED_INK);
    let mut last_right = f64::NEG_INFINITY;
    for &v in &xticks {
        let Some(f) = xmap.fraction(v) else { continue };
        let px = x0 as f64 + f * (x1 - x0) as f64;
        area.draw(&PathElement::new(vec![(ix(px), y0), (ix(px), y1)], grid))?;
        let label = number::significant(v, 3);
        let half = text::width(&label, body) / 2.0;
        if px - half > last_right + 6.0 * s {
            area.draw_text(
                &label,
                &anchored(label_style.clone(), HPos::Center, VPos::Top),
                (ix(px), y1 + ix(5.0 * s)),
            )?;
            last_right = px + half;
        }
    }
    let mut last_top = f64::INFINITY;
    for &v in &yticks {
        let Some(f) = ymap.fraction(v) else { continue };
        let py = y1 as f64 - f * (y1 - y0) as f64;
        area.draw(&PathElement::new(vec![(x0, ix(py)), (x1, ix(py))], grid))?;
        if py + body / 2.0 < last_top - 2.0 * s {
            area.draw_text(
                &number::significant(v, 3),
                &anchored(label_style.clone(), HPos::Right, VPos::Center),
                (x0 - ix(6.0 * s), ix(py)),
            )?;
            last_top = py - body / 2.0;
        }
    }
    // The frame.
    let frame = ShapeStyle::from(&MUTED_INK).stroke_width(ix(s.max(1.0)) as u32);
    area.draw(&PathElement::new(
        vec![(x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0)],
        frame,
    ))?;

    // Axis captions.
    let caption = TextStyle::from(font(body, FontStyle::Normal)).color(&INK);
    area.draw_text(
        &chart.x.label,
        &anchored(caption.clone(), HPos::Center, VPos::Bottom),
        ((x0 + x1) / 2, ix(h - 6.0 * s - under)),
    )?;
    // No longer than the plot is tall, so it never reaches the title.
    area.draw_text(
        &text::clip(&chart.y.label, body, (y1 - y0) as f64),
        &anchored(
            caption.clone().transform(FontTransform::Rotate270),
            HPos::Center,
            VPos::Top,
        ),
        (ix(6.0 * s), (y0 + y1) / 2),
    )?;

    // Markers.
    let marker_style = ShapeStyle::from(&MARKER).stroke_width(ix((1.5 * s).max(1.0)) as u32);
    for m in &chart.markers {
        let Some(fx) = xmap.fraction(m.x) else {
            continue;
        };
        if !(0.0..=1.0).contains(&fx) {
            continue;
        }
        let px = x0 as f64 + fx * (x1 - x0) as f64;
        dashes(
            area,
            &[(px, y0 as f64), (px, y1 as f64)],
            6.0 * s,
            4.0 * s,
            marker_style,
        )?;
        let label_w = text::width(&m.label, body);
        let (anchor, dx) = if px + 4.0 * s + label_w <= x1 as f64 {
            (HPos::Left, 4.0 * s)
        } else {
            (HPos::Right, -4.0 * s)
        };
        area.draw_text(
            &m.label,
            &anchored(
                TextStyle::from(font(body, FontStyle::Bold)).color(&MARKER),
                anchor,
                VPos::Bottom,
            ),
            (ix(px + dx), y1 - ix(6.0 * s)),
        )?;
    }

    // Series.
    let mut drawn = 0;
    let line_w = ix((2.0 * s).max(1.0)) as u32;
    for ser in &chart.series {
        let line = ShapeStyle::from(&ser.color).stroke_width(line_w);
        let mut run: Vec<(f64, f64)> = Vec::new();
        let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
        for &(x, y) in &ser.points {
            match map.to_pixel(x, y) {
                Some(p) if p.0.is_finite() && p.1.is_finite() => run.push(p),
                _ => runs.push(std::mem::take(&mut run)),
            }
        }
        runs.push(run);
        for r in runs.iter().filter(|r| r.len() >= 2) {
            match ser.dash {
                LineDash::Solid => {
                    area.draw(&PathElement::new(
                        r.iter().map(|&(x, y)| (ix(x), ix(y))).collect::<Vec<_>>(),
                        line,
                    ))?;
                }
                LineDash::Dashed => dashes(area, r, 8.0 * s, 5.0 * s, line)?,
            }
        }
        if ser.markers {
            for &(x, y) in runs.iter().flatten() {
                area.draw(&Circle::new(
                    (ix(x), ix(y)),
                    ix(3.5 * s),
                    ser.color.filled(),
                ))?;
                drawn += 1;
            }
        }
    }

    // Legend: named series, then the note, in the upper-left corner of the plot, or under
    // the chart across its width.
    if rows > 0.0 {
        let sample = 26.0 * s;
        let text_w = named
            .iter()
            .map(|ser| sample + 6.0 * s + text::width(ser.name.as_deref().unwrap_or(""), body))
            .chain(chart.note.iter().map(|n| text::width(n, note_px)))
            .fold(0.0, f64::max);
        let (bx, by, room) = if below {
            (8.0 * s, h - 4.0 * s - legend_h, w - 16.0 * s)
        } else {
            (
                x0 as f64 + 8.0 * s,
                y0 as f64 + 8.0 * s,
                (x1 - x0) as f64 - 16.0 * s,
            )
        };
        let bw = (text_w + 16.0 * s).min(room).max(0.0);
        let bh = legend_h;
        area.draw(&Rectangle::new(
            [(ix(bx), ix(by)), (ix(bx + bw), ix(by + bh))],
            ShapeStyle::from(&BACKGROUND.mix(0.92)).filled(),
        ))?;
        area.draw(&Rectangle::new(
            [(ix(bx), ix(by)), (ix(bx + bw), ix(by + bh))],
            ShapeStyle::from(&GRID).stroke_width(ix(s.max(1.0)) as u32),
        ))?;
        let legend_text = TextStyle::from(font(body, FontStyle::Normal)).color(&INK);
        for (i, ser) in named.iter().enumerate() {
            let cy = by + 5.0 * s + line_h * (i as f64 + 0.5);
            let (sx0, sx1) = (bx + 8.0 * s, bx + 8.0 * s + sample);
            let line = ShapeStyle::from(&ser.color).stroke_width(line_w);
            match ser.dash {
                LineDash::Solid => {
                    area.draw(&PathElement::new(
                        vec![(ix(sx0), ix(cy)), (ix(sx1), ix(cy))],
                        line,
                    ))?;
                }
                LineDash::Dashed => dashes(area, &[(sx0, cy), (sx1, cy)], 8.0 * s, 5.0 * s, line)?,
            }
            if ser.markers {
                area.draw(&Circle::new(
                    (ix((sx0 + sx1) / 2.0), ix(cy)),
                    ix(3.5 * s),
                    ser.color.filled(),
                ))?;
            }
            let name = text::clip(
                ser.name.as_deref().unwrap_or(""),
                body,
                (bw - sample - 20.0 * s).max(0.0),
            );
            area.draw_text(
                &name,
                &anchored(legend_text.clone(), HPos::Left, VPos::Center),
                (ix(sx1 + 6.0 * s), ix(cy)),
            )?;
        }
        if let Some(note) = &chart.note {
            let cy = by + 5.0 * s + line_h * (named.len() as f64 + 0.5);
            let note = text::clip(note, note_px, (bw - 16.0 * s).max(0.0));
            area.draw_text(
                &note,
                &anchored(
                    TextStyle::from(font(note_px, FontStyle::Normal)).color(&MUTED_INK),
                    HPos::Left,
                    VPos::Center,
                ),
                (ix(bx + 8.0 * s), ix(cy)),
            )?;
        }
    }

    Ok(LineChartMap {
        points: drawn,
        ..map
    })
}

/// Draws the polyline `points` as dashes of length `on` with gaps `off` (pixels).
fn dashes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(f64, f64)],
    on: f64,
    off: f64,
    style: ShapeStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let period = (on + off).max(1.0);
    let mut phase = 0.0; // distance along the current period
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
        if len <= 0.0 {
            continue;
        }
        let mut t = 0.0;
        while t < len {
            let in_dash = phase < on;
            let step = if in_dash { on - phase } else { period - phase }.min(len - t);
            if in_dash {
                let at = |d: f64| (ax + (bx - ax) * d / len, ay + (by - ay) * d / len);
                let (p, q) = (at(t), at(t + step));
                area.draw(&PathElement::new(
                    vec![
                        (p.0.round() as i32, p.1.round() as i32),
                        (q.0.round() as i32, q.1.round() as i32),
                    ],
                    style,
                ))?;
            }
            t += step;
            phase = (phase + step) % period;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_powers_of_ten_with_two_and_five_on_short_ranges() {
        let axis = Axis {
            label: String::new(),
            scale: AxisScale::Log10,
            ticks: Ticks::Auto,
        };
        let wide = axis_range(&axis, [0.01, 1000.0].into_iter());
        assert_eq!(
            tick_values(&axis, &wide),
            vec![0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]
        );
        let short = axis_range(&axis, [1.0, 100.0].into_iter());
        let t = tick_values(&axis, &short);
        assert!(
            t.contains(&2.0) && t.contains(&50.0) && t.contains(&100.0),
            "{t:?}"
        );
        // No data: a unit range, no panic.
        let none = axis_range(&axis, std::iter::empty());
        assert!(none.hi > none.lo);
    }
}
