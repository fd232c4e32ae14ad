//! The colour legend shared by the figures: a vertical colour bar with numeric ticks, a
//! caption above it and, when some cells are blocked, a "masked" swatch below it.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, FontStyle, PathElement, Rectangle};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, ShapeStyle, TextStyle};

use crate::cells::{Bitmap, draw_masked};
use crate::number;
use crate::scale::{self, ColorScale, Palette, ValueRange};
use crate::style::{BACKGROUND, CellField, DrawResult, INK, MUTED_INK, anchored, font, p};
use crate::text;

/// What a legend shows.
pub(crate) struct Legend<'a> {
    pub scale: ColorScale,
    pub range: ValueRange,
    pub caption: &'a str,
    /// Whether to explain the masked-cell swatch.
    pub masked: bool,
    /// The swatch's word.
    pub masked_label: &'a str,
    /// The colours of the scale.
    pub palette: Palette,
    /// Gap between the figure and the bar, in unscaled pixels (`GAP`, or `NARROW_GAP`
    /// on a narrow canvas).
    pub gap: f64,
}

/// Where a legend goes beside a figure: its bar `gap` right of `figure_right`, its top at
/// `top`, `bar_h` tall, at scale `s` with ticks of `tick_px`, its gradient drawn as
/// `field` says.
pub(crate) struct Beside {
    pub figure_right: f64,
    pub top: f64,
    pub bar_h: f64,
    pub s: f64,
    pub tick_px: f64,
    pub field: CellField,
}

/// Gap between the figure and the bar.
pub(crate) const GAP: f64 = 24.0;
/// The gap on a narrow canvas, where every pixel goes to the matrix.
pub(crate) const NARROW_GAP: f64 = 12.0;
/// Width of the bar.
const BAR: f64 = 22.0;
/// The height of the bar laid under a figure, and the gap above its caption.
const BELOW_BAR: f64 = 14.0;
const BELOW_GAP: f64 = 12.0;
/// Room the "masked" swatch takes below the bar.
pub(crate) const SWATCH_ROOM: f64 = 44.0;
/// The narrowest room a diverging legend keeps for its tick labels: a difference's range
/// follows every knob, and labels of another length would change the matrix's width, so
/// its height, and the page's layout, while a slider is dragged. Labels up to this long
/// ("−0.025", "+0.15", "−0.8") leave the layout as it is.
const DIVERGING_TICK_ROOM: &str = "−0.000";

impl Legend<'_> {
    /// The tick values: both ends of the range and nice values between (0 among them
    /// for a range symmetric around 0).
    fn ticks(&self) -> Vec<f32> {
        scale::ticks(self.range, 4, 0.12)
    }

    /// A tick's label: differences are signed ("+0.2", "0", "−0.2").
    fn tick_label(&self, v: f32) -> String {
        match self.scale {
            ColorScale::Diverging => number::signed_significant(v, 3),
            ColorScale::Sequential => number::significant(v, 3),
        }
    }

    /// The width the legend needs, gap before the bar included, at scale `s`.
    pub fn width(&self, s: f64, tick_px: f64) -> f64 {
        let tick_w = self
            .ticks()
            .iter()
            .map(|&v| text::width(&self.tick_label(v), tick_px))
            .fold(0.0, f64::max);
        let tick_w = match self.scale {
            ColorScale::Diverging => tick_w.max(text::width(DIVERGING_TICK_ROOM, tick_px)),
            ColorScale::Sequential => tick_w,
        };
        let bar_block = self.gap * s + BAR * s + 7.0 * s + 5.0 * s + tick_w;
        let caption_w = self.gap * s + text::width(self.caption, tick_px);
        let swatch_w = if self.masked {
            self.gap * s + BAR * s + 8.0 * s + text::width(self.masked_label, tick_px)
        } else {
            0.0
        };
        bar_block.max(caption_w).max(swatch_w) + 4.0 * s
    }

    /// The room below the bar for the swatch.
    pub fn swatch_room(&self, s: f64) -> f64 {
        if self.masked { SWATCH_ROOM * s } else { 0.0 }
    }

    /// Draws the legend where `at` puts it beside a figure; the gradient as one bitmap
    /// when `at.field` says the backend blits.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        at: &Beside,
    ) -> DrawResult<DB> {
        let (x, y, s) = (at.figure_right + self.gap * at.s, at.top, at.s);
        let caption = anchored(
            font(at.tick_px, FontStyle::Bold).color(&INK),
            HPos::Left,
            VPos::Bottom,
        );
        area.draw_text(self.caption, &caption, p(x, y - 8.0 * s))?;
        self.draw_scale(area, (x, y, BAR * s, at.bar_h), s, at.tick_px, at.field)?;
        if self.masked {
            let sy = y + at.bar_h + 16.0 * s;
            self.draw_swatch(area, (x, sy), s, &self.tick_style(at.tick_px))?;
        }
        Ok(())
    }

    /// Draws the scale of a legend [`Legend::draw`] drew with another range at the same
    /// place: the band of the bar and its ticks is cleared first (below the caption,
    /// above the swatch), then the bar, its ticks and their numbers are drawn again.
    pub fn redraw_scale<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        at: &Beside,
    ) -> DrawResult<DB> {
        let (x, y, s, tick_px, bar_h) = (
            at.figure_right + self.gap * at.s,
            at.top,
            at.s,
            at.tick_px,
            at.bar_h,
        );
        let right = area.dim_in_pixel().0 as f64;
        // The numbers are centred on their ticks, the outer ones on the bar's ends: half a
        // line over and under the bar (a rectangle fills up to, not including, its far
        // edge), clear of the caption (8 px over it) and of the swatch (16 px under it);
        // from a little left of the bar, whose outline a canvas blends into the pixels
        // beside it (the gap to the figure is 12 px at least).
        let half = tick_px / 2.0;
        area.draw(&Rectangle::new(
            [
                p(x - 3.0 * s, y - half - 0.25 * s),
                p(right, y + bar_h + half + 2.0 * s),
            ],
            BACKGROUND.filled(),
        ))?;
        self.draw_scale(area, (x, y, BAR * s, bar_h), s, tick_px, at.field)
    }

    fn tick_style(&self, tick_px: f64) -> TextStyle<'static> {
        anchored(
            font(tick_px, FontStyle::Normal).color(&INK),
            HPos::Left,
            VPos::Center,
        )
    }

    /// The bar at (`x`, `y`), `bw` × `bh`, its ticks with their numbers, and the zero
    /// line of a range around 0.
    fn draw_scale<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y, bw, bh): (f64, f64, f64, f64),
        s: f64,
        tick_px: f64,
        field: CellField,
    ) -> DrawResult<DB> {
        // High values at the top.
        self.draw_gradient(area, (x, y, bw, bh), |t| 1.0 - t, field)?;
        let tick_style = self.tick_style(tick_px);
        let tick_stroke = ShapeStyle::from(INK).stroke_width(s.round().max(1.0) as u32);
        let range = self.range;
        for v in self.ticks() {
            let ty = y + bh * (1.0 - range.normalise(v) as f64);
            area.draw(&PathElement::new(
                vec![p(x + bw, ty), p(x + bw + 7.0 * s, ty)],
                tick_stroke,
            ))?;
            area.draw_text(&self.tick_label(v), &tick_style, p(x + bw + 12.0 * s, ty))?;
        }
        if let Some(ty) = self.zero_at() {
            let ty = y + bh * (1.0 - ty);
            area.draw(&PathElement::new(
                vec![p(x, ty), p(x + bw, ty)],
                ShapeStyle::from(MUTED_INK).stroke_width(1),
            ))?;
        }
        Ok(())
    }

    /// The height of the legend laid under a figure ([`Legend::draw_below`]): the gap,
    /// the caption line (with the "masked" swatch beside it), the bar and its ticks.
    pub fn below_height(&self, s: f64, tick_px: f64) -> f64 {
        BELOW_GAP * s + 1.4 * tick_px + 4.0 * s + BELOW_BAR * s + 10.0 * s + 1.3 * tick_px
    }

    /// Draws the legend under a figure whose bottom is at `figure_bottom`: the caption
    /// (and the "masked" swatch) on a line, then a horizontal colour bar from `x`, `bar_w`
    /// long, low values on the left, with its ticks under it. A narrow canvas (a phone)
    /// gives the whole width to the matrix this way.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_below<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x: f64,
        figure_bottom: f64,
        bar_w: f64,
        s: f64,
        tick_px: f64,
        field: CellField,
    ) -> DrawResult<DB> {
        let line = figure_bottom + BELOW_GAP * s + 0.7 * tick_px;
        let caption = anchored(
            font(tick_px, FontStyle::Bold).color(&INK),
            HPos::Left,
            VPos::Center,
        );
        area.draw_text(self.caption, &caption, p(x, line))?;
        let tick_style = anchored(
            font(tick_px, FontStyle::Normal).color(&INK),
            HPos::Left,
            VPos::Center,
        );
        if self.masked {
            // Right of the caption, on its line.
            let sx = x + text::width(self.caption, tick_px) + 18.0 * s;
            let side = 1.3 * tick_px;
            self.draw_swatch_sized(area, (sx, line - side / 2.0), side, s, &tick_style)?;
        }
        let (y, bh) = (line + 0.7 * tick_px + 4.0 * s, BELOW_BAR * s);
        self.draw_gradient(area, (x, y, bar_w, bh), |t| t, field)?;

        let tick_style = anchored(
            font(tick_px, FontStyle::Normal).color(&INK),
            HPos::Center,
            VPos::Top,
        );
        let tick_stroke = ShapeStyle::from(INK).stroke_width(s.round().max(1.0) as u32);
        let ticks = self.ticks();
        // Each number centred on its tick, the end ones kept inside the bar's span.
        let labels: Vec<(f64, f64, String)> = ticks
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                let tx = x + bar_w * self.range.normalise(v) as f64;
                let label = self.tick_label(v);
                let half = text::width(&label, tick_px) / 2.0;
                let lx = match k {
                    0 => tx.max(x + half),
                    k if k + 1 == ticks.len() => tx.min(x + bar_w - half),
                    _ => tx,
                };
                (tx, lx, label)
            })
            .collect();
        let step = label_step(&labels, tick_px, s);
        for (k, (tx, lx, label)) in labels.iter().enumerate() {
            area.draw(&PathElement::new(
                vec![p(*tx, y + bh), p(*tx, y + bh + 5.0 * s)],
                tick_stroke,
            ))?;
            if k % step == 0 {
                area.draw_text(label, &tick_style, p(*lx, y + bh + 7.0 * s))?;
            }
        }
        if let Some(t) = self.zero_at() {
            let tx = x + bar_w * t;
            area.draw(&PathElement::new(
                vec![p(tx, y), p(tx, y + bh)],
                ShapeStyle::from(MUTED_INK).stroke_width(1),
            ))?;
        }
        Ok(())
    }

    /// Where zero ("no change") sits on a difference's bar, as a share from the low end.
    fn zero_at(&self) -> Option<f64> {
        let range = self.range;
        (self.scale == ColorScale::Diverging && range.min() < 0.0 && range.max() > 0.0)
            .then(|| range.normalise(0.0) as f64)
    }

    /// The colour bar in the box `(x, y, w, h)`, framed; `along` maps a position along
    /// the bar (0 at its top or left, 1 at its bottom or right) to the scale's 0–1. The
    /// bar runs down when it is taller than wide, else across. One bitmap when `field`
    /// says the backend blits, else strips about two pixels long.
    fn draw_gradient<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y, bw, bh): (f64, f64, f64, f64),
        along: impl Fn(f32) -> f32,
        field: CellField,
    ) -> DrawResult<DB> {
        let down = bh > bw;
        let ((x0, y0), (x1, y1)) = (p(x, y), p(x + bw, y + bh));
        match field {
            CellField::Bitmap if x1 > x0 && y1 > y0 => {
                let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
                let len = if down { h } else { w };
                let colours: Vec<_> = (0..len)
                    .map(|k| {
                        self.scale
                            .at_in(self.palette, along((k as f32 + 0.5) / len as f32))
                    })
                    .collect();
                let mut rgb = Vec::with_capacity(w * h * 3);
                for row in 0..h {
                    for col in 0..w {
                        let c = colours[if down { row } else { col }];
                        rgb.extend_from_slice(&[c.0, c.1, c.2]);
                    }
                }
                area.draw(&Bitmap {
                    pos: (x0, y0),
                    size: (w as u32, h as u32),
                    rgb,
                })?;
            }
            _ => {
                let long = if down { bh } else { bw };
                let strips = ((long / 2.0).round() as usize).clamp(2, 256);
                for k in 0..strips {
                    let (a, b) = (k as f64 / strips as f64, (k + 1) as f64 / strips as f64);
                    let t = along((k as f32 + 0.5) / strips as f32);
                    let colour = self.scale.at_in(self.palette, t);
                    let corners = if down {
                        [p(x, y + bh * a), p(x + bw, y + bh * b)]
                    } else {
                        [p(x + bw * a, y), p(x + bw * b, y + bh)]
                    };
                    area.draw(&Rectangle::new(corners, colour.filled()))?;
                }
            }
        }
        area.draw(&Rectangle::new(
            [p(x, y), p(x + bw, y + bh)],
            ShapeStyle::from(MUTED_INK).stroke_width(1),
        ))?;
        Ok(())
    }

    /// The "masked" swatch, 22 px square, its top-left at `at`, with its word.
    fn draw_swatch<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        at: (f64, f64),
        s: f64,
        word: &TextStyle<'_>,
    ) -> DrawResult<DB> {
        self.draw_swatch_sized(area, at, 22.0 * s, s, word)
    }

    fn draw_swatch_sized<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (f64, f64),
        side: f64,
        s: f64,
        word: &TextStyle<'_>,
    ) -> DrawResult<DB> {
        draw_masked(area, p(x, y), p(x + side, y + side), s)?;
        area.draw_text(
            self.masked_label,
            word,
            p(x + side + 8.0 * s, y + side / 2.0),
        )?;
        Ok(())
    }
}

/// Every how many ticks of a horizontal bar a number is written, so that no two numbers
/// touch (a gap of 8 px at scale `s`): the smallest step that also keeps the last tick's
/// number (`labels`: each tick's position, its number's centre and its text), else every
/// other, and so on; the ticks themselves are all drawn.
fn label_step(labels: &[(f64, f64, String)], tick_px: f64, s: f64) -> usize {
    let fits = |step: usize| {
        let shown: Vec<&(f64, f64, String)> = labels.iter().step_by(step).collect();
        shown.windows(2).all(|w| {
            let right = w[0].1 + text::width(&w[0].2, tick_px) / 2.0;
            let left = w[1].1 - text::width(&w[1].2, tick_px) / 2.0;
            left - right >= 8.0 * s
        })
    };
    let last = labels.len().saturating_sub(1).max(1);
    (1..=last)
        .filter(|&step| last.is_multiple_of(step))
        .chain(1..=last)
        .find(|&step| fits(step))
        .unwrap_or(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_numbers_under_a_bar_are_thinned_keeping_both_ends() {
        let at = |xs: &[f64], text: &str| -> Vec<(f64, f64, String)> {
            xs.iter().map(|&x| (x, x, text.to_string())).collect()
        };
        // Five numbers 200 px apart have room; 60 px apart, "−0.25" at 24 px does not,
        // and every other one (the ends and the middle) is written.
        assert_eq!(
            label_step(&at(&[0.0, 200.0, 400.0, 600.0, 800.0], "−0.25"), 24.0, 1.0),
            1
        );
        assert_eq!(
            label_step(&at(&[0.0, 60.0, 120.0, 180.0, 240.0], "−0.25"), 24.0, 1.0),
            2
        );
        assert_eq!(
            label_step(&at(&[0.0, 10.0, 20.0, 30.0, 40.0], "−0.25"), 24.0, 1.0),
            4
        );
        assert_eq!(label_step(&at(&[0.0], "0"), 24.0, 1.0), 1);
    }

    #[test]
    fn difference_ticks_are_signed_with_zero_in_the_middle() {
        let legend = Legend {
            scale: ColorScale::Diverging,
            range: ValueRange::symmetric(0.2),
            caption: "",
            masked: false,
            masked_label: "masked",
            palette: Palette::default(),
            gap: GAP,
        };
        let labels: Vec<String> = legend
            .ticks()
            .into_iter()
            .map(|v| legend.tick_label(v))
            .collect();
        assert_eq!(labels, ["\u{2212}0.2", "\u{2212}0.1", "0", "+0.1", "+0.2"]);
    }
}
