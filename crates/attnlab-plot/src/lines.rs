//! Token-to-token lines (BertViz style): the query tokens in a column on the left, the
//! key tokens on the right, one line from query `i` to key `j` per head whose opacity is
//! the weight `a_ij`, one colour per head. Focusing a token keeps its lines and fades
//! all the others.

use plotters::coord::Shift;
use plotters::prelude::{
    DrawingArea, DrawingAreaErrorKind, DrawingBackend, PathElement, Rectangle,
};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, FontStyle, RGBColor};

use crate::heatmap::HeatmapError;
use crate::style::{BACKGROUND, INK, MUTED_INK, anchored, font, p};
use crate::text;
use crate::words::Words;

/// One colour per head (head `h` gets `HEAD_COLOURS[h % 16]`): distinct hues, dark
/// enough to read as lines on white.
pub const HEAD_COLOURS: [RGBColor; 16] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(57, 59, 121),
    RGBColor(99, 121, 57),
    RGBColor(132, 60, 57),
    RGBColor(123, 65, 115),
    RGBColor(82, 84, 163),
    RGBColor(140, 109, 49),
    RGBColor(107, 110, 207),
];

/// The factor on a line's opacity when another token is focused.
pub const FADE: f32 = 0.08;

/// The background behind a focused token's label.
pub const FOCUS_FILL: RGBColor = RGBColor(255, 236, 179);

/// Which token the lines are isolated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    /// No token: every line at its weight.
    #[default]
    None,
    /// Query token `i` (left column): its lines to every key.
    Query(usize),
    /// Key token `j` (right column): the lines of every query to it.
    Key(usize),
}

/// One head's lines: a label for the legend, its colour and its `n × m` weights.
#[derive(Debug, Clone, PartialEq)]
pub struct LineHead {
    /// The legend's label, e.g. `"head 0"`.
    pub label: String,
    /// The colour of its lines.
    pub colour: RGBColor,
    /// `n × m` weights, row-major, each in `0..=1`.
    pub weights: Vec<f32>,
}

/// The data of the figure: the two columns of tokens and the heads' weights.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenLines {
    title: String,
    queries: Vec<String>,
    keys: Vec<String>,
    heads: Vec<LineHead>,
    focus: Focus,
    words: &'static Words,
    /// Lines whose weight is below this are not drawn (0: every visible line).
    threshold: f32,
    /// A line's opacity is its weight times this (at most 1).
    gain: f32,
    /// A line's width, in CSS pixels.
    line_px: f64,
}

impl TokenLines {
    /// The figure with no head yet.
    pub fn new(title: impl Into<String>, queries: Vec<String>, keys: Vec<String>) -> TokenLines {
        TokenLines {
            title: title.into(),
            queries,
            keys,
            heads: Vec::new(),
            focus: Focus::None,
            words: &Words::ENGLISH,
            threshold: 0.0,
            gain: 1.0,
            line_px: 2.0,
        }
    }

    /// Draws only the lines whose weight is at least `threshold` (clamped to `0..=1`; a
    /// number that is not one draws every line).
    pub fn with_threshold(mut self, threshold: f32) -> TokenLines {
        self.threshold = if threshold.is_nan() {
            0.0
        } else {
            threshold.clamp(0.0, 1.0)
        };
        self
    }

    /// The least weight of a line drawn ([`TokenLines::with_threshold`]).
    pub fn threshold(&self) -> f32 {
        self.threshold
    }

    /// Whether the line of head `h` from `i` to `j` is drawn with `style`: its weight is
    /// at least the figure's threshold and the style's least visible weight.
    pub fn is_drawn(&self, h: usize, i: usize, j: usize, style: &LinesStyle) -> bool {
        self.weight(h, i, j)
            .is_some_and(|w| w >= style.min_weight && w >= self.threshold)
    }

    /// Draws each line at `gain` times its weight's opacity (at most 1) and `line_px`
    /// CSS pixels wide (by default 1 and 2): for weights that are all small, such as
    /// those that cross between two sentences, where a gain of one over the largest
    /// makes the strongest line opaque and keeps the others in proportion.
    pub fn with_strength(mut self, gain: f32, line_px: f64) -> TokenLines {
        if gain.is_finite() && gain > 0.0 {
            self.gain = gain;
        }
        if line_px.is_finite() && line_px > 0.0 {
            self.line_px = line_px;
        }
        self
    }

    /// The opacity gain and the line width ([`TokenLines::with_strength`]).
    pub fn strength(&self) -> (f32, f64) {
        (self.gain, self.line_px)
    }

    /// Replaces the fixed words (English by default): the columns' captions.
    pub fn with_words(mut self, words: &'static Words) -> TokenLines {
        self.words = words;
        self
    }

    /// The fixed words it draws (the columns' captions).
    pub fn words(&self) -> &'static Words {
        self.words
    }

    /// Adds a head; its weights must be `queries × keys` finite numbers.
    pub fn with_head(
        mut self,
        label: impl Into<String>,
        colour: RGBColor,
        weights: Vec<f32>,
    ) -> Result<TokenLines, HeatmapError> {
        let (n, m) = (self.queries.len(), self.keys.len());
        if weights.len() != n * m {
            return Err(HeatmapError::Shape {
                field: "values",
                expected: n * m,
                got: weights.len(),
            });
        }
        if let Some(k) = weights.iter().position(|v| !v.is_finite()) {
            return Err(HeatmapError::NonFinite {
                row: k / m.max(1),
                col: k % m.max(1),
            });
        }
        self.heads.push(LineHead {
            label: label.into(),
            colour,
            weights,
        });
        Ok(self)
    }

    /// Isolates the lines of one token (a token that does not exist isolates nothing).
    pub fn with_focus(mut self, focus: Focus) -> TokenLines {
        self.focus = match focus {
            Focus::Query(i) if i < self.queries.len() => focus,
            Focus::Key(j) if j < self.keys.len() => focus,
            _ => Focus::None,
        };
        self
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The query tokens (left).
    pub fn queries(&self) -> &[String] {
        &self.queries
    }

    /// The key tokens (right).
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// The heads drawn.
    pub fn heads(&self) -> &[LineHead] {
        &self.heads
    }

    /// The focused token.
    pub fn focus(&self) -> Focus {
        self.focus
    }

    /// The weight of head `h` from query `i` to key `j`.
    pub fn weight(&self, h: usize, i: usize, j: usize) -> Option<f32> {
        if i >= self.queries.len() || j >= self.keys.len() {
            return None;
        }
        self.heads
            .get(h)
            .and_then(|head| head.weights.get(i * self.keys.len() + j))
            .copied()
    }

    /// Whether the line `i → j` belongs to the focused token (every line does when none
    /// is focused).
    pub fn is_isolated(&self, i: usize, j: usize) -> bool {
        match self.focus {
            Focus::None => true,
            Focus::Query(q) => q == i,
            Focus::Key(k) => k == j,
        }
    }

    /// The opacity of the line of head `h` from `i` to `j`: the weight times the gain
    /// (clamped to `0..=1`), times [`FADE`] when another token is focused.
    pub fn line_alpha(&self, h: usize, i: usize, j: usize) -> Option<f32> {
        let w = (self.weight(h, i, j)? * self.gain).clamp(0.0, 1.0);
        Some(if self.is_isolated(i, j) { w } else { w * FADE })
    }
}

/// How the figure is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinesStyle {
    /// Multiplies every length in pixels (the display's `devicePixelRatio` on a canvas).
    pub scale: f64,
    /// Lines whose weight is below this are not drawn (they would be invisible).
    pub min_weight: f32,
}

impl Default for LinesStyle {
    fn default() -> Self {
        LinesStyle {
            scale: 1.0,
            min_weight: 0.005,
        }
    }
}

impl LinesStyle {
    /// The default style at `scale`.
    pub fn scaled(scale: f64) -> LinesStyle {
        LinesStyle {
            scale: if scale.is_finite() && scale > 0.0 {
                scale
            } else {
                1.0
            },
            ..LinesStyle::default()
        }
    }
}

/// Where the tokens were drawn, to find the token under a pointer, and what was drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenLinesMap {
    left: (f64, f64),
    right: (f64, f64),
    top: f64,
    bottom: f64,
    n: usize,
    m: usize,
    lines: usize,
    labels: usize,
    label_step: usize,
}

impl TokenLinesMap {
    /// Nothing drawn.
    pub const EMPTY: TokenLinesMap = TokenLinesMap {
        left: (0.0, 0.0),
        right: (0.0, 0.0),
        top: 0.0,
        bottom: 0.0,
        n: 0,
        m: 0,
        lines: 0,
        labels: 0,
        label_step: 1,
    };

    fn pitch(&self, count: usize) -> f64 {
        (self.bottom - self.top) / count.max(1) as f64
    }

    /// The token whose label band contains the pixel `(x, y)`.
    pub fn token_at(&self, x: f64, y: f64) -> Option<Focus> {
        if y < self.top || y >= self.bottom {
            return None;
        }
        let index = |count: usize| ((y - self.top) / self.pitch(count)) as usize;
        if x >= self.left.0 && x < self.left.1 && self.n > 0 {
            return Some(Focus::Query(index(self.n).min(self.n - 1)));
        }
        if x >= self.right.0 && x < self.right.1 && self.m > 0 {
            return Some(Focus::Key(index(self.m).min(self.m - 1)));
        }
        None
    }

    /// The centre of a token's label band (query or key).
    pub fn token_centre(&self, token: Focus) -> Option<(f64, f64)> {
        let (band, i, count) = match token {
            Focus::Query(i) if i < self.n => (self.left, i, self.n),
            Focus::Key(j) if j < self.m => (self.right, j, self.m),
            _ => return None,
        };
        let y = self.top + (i as f64 + 0.5) * self.pitch(count);
        Some(((band.0 + band.1) / 2.0, y))
    }

    /// The number of query and key tokens.
    pub fn tokens(&self) -> (usize, usize) {
        (self.n, self.m)
    }

    /// How many lines were drawn (lines below [`LinesStyle::min_weight`] are not).
    pub fn lines_drawn(&self) -> usize {
        self.lines
    }

    /// How many token labels were written (both columns).
    pub fn labels_drawn(&self) -> usize {
        self.labels
    }

    /// Every `label_step`-th token is labelled (1: all of them; more when the tokens
    /// are too many for labels of at least 12 px).
    pub fn label_step(&self) -> usize {
        self.label_step
    }
}

/// Label every k-th token with k from 1, 2, 5, 10, 20, 50, …
fn label_step(pitch: f64, min_px: f64) -> usize {
    let need = (min_px / pitch.max(1e-6)).ceil().max(1.0) as usize;
    let mut base = 1;
    loop {
        if let Some(k) = [base, 2 * base, 5 * base].into_iter().find(|&k| k >= need) {
            return k;
        }
        base *= 10;
    }
}

/// Draws the token columns, one line per head and (query, key) pair with opacity = the
/// weight, the focused token's lines on top of the faded others, and a legend of the
/// heads' colours under the title. Labels are at least 12 px (× scale): when the tokens
/// are too many for that, every k-th token is labelled (k = 2, 5, 10, …; the focused
/// token always is) and the lines of the others still drawn.
///
/// The area is filled with [`BACKGROUND`] first.
pub fn draw_token_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &TokenLines,
    style: &LinesStyle,
) -> Result<TokenLinesMap, DrawingAreaErrorKind<DB::ErrorType>> {
    let s = LinesStyle::scaled(style.scale).scale;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    area.fill(&BACKGROUND)?;
    let margin = 14.0 * s;
    let title_px = 18.0 * s;
    if !data.title.is_empty() {
        let title = text::clip(&data.title, title_px, w - 2.0 * margin);
        let st = anchored(
            font(title_px, FontStyle::Bold).color(&INK),
            HPos::Left,
            VPos::Center,
        );
        area.draw_text(&title, &st, p(margin, margin + title_px * 0.5))?;
    }

    // Legend: one swatch and label per head, wrapping.
    let legend_px = 14.0 * s;
    let mut x = margin;
    let mut y = margin + title_px * 1.6;
    let legend_font = anchored(
        font(legend_px, FontStyle::Normal).color(&INK),
        HPos::Left,
        VPos::Center,
    );
    if data.heads.is_empty() {
        let st = anchored(
            font(legend_px, FontStyle::Normal).color(&MUTED_INK),
            HPos::Left,
            VPos::Center,
        );
        area.draw_text(
            "no head selected: tick a head to draw its lines",
            &st,
            p(x, y),
        )?;
    }
    for head in &data.heads {
        let item = 16.0 * s + text::width(&head.label, legend_px) + 18.0 * s;
        if x + item > w - margin && x > margin {
            x = margin;
            y += legend_px * 1.6;
        }
        let sw = 12.0 * s;
        area.draw(&Rectangle::new(
            [p(x, y - sw / 2.0), p(x + sw, y + sw / 2.0)],
            head.colour.filled(),
        ))?;
        area.draw_text(&head.label, &legend_font, p(x + sw + 5.0 * s, y))?;
        x += item;
    }

    let (n, m) = (data.queries.len(), data.keys.len());
    let caption_y = y + legend_px * 1.9;
    let top = caption_y + legend_px * 1.1;
    let bottom = (h - margin).max(top + 1.0);
    if n == 0 || m == 0 {
        return Ok(TokenLinesMap::EMPTY);
    }
    let pitch_l = (bottom - top) / n as f64;
    let pitch_r = (bottom - top) / m as f64;
    let min_label = 12.0 * s;
    let step = label_step(pitch_l.min(pitch_r) / 1.15, min_label);
    let px_of = |pitch: f64| (pitch * step as f64 * 0.72).clamp(min_label, 17.0 * s);
    let (px_l, px_r) = (px_of(pitch_l), px_of(pitch_r));
    let label = |t: &str, i: usize| {
        if step > 1 {
            format!("#{i} {t}")
        } else {
            t.to_string()
        }
    };
    let widest = |tokens: &[String], px: f64| {
        tokens
            .iter()
            .enumerate()
            .map(|(i, t)| text::width(&label(t, i), px))
            .fold(0.0, f64::max)
            .min(w * 0.26)
    };
    let (wl, wr) = (widest(&data.queries, px_l), widest(&data.keys, px_r));
    let left = (margin, margin + wl + 8.0 * s);
    let right = (w - margin - wr - 8.0 * s, w - margin);
    let ax = left.1 + 4.0 * s;
    let bx = right.0 - 4.0 * s;
    let yl = |i: usize| top + (i as f64 + 0.5) * pitch_l;
    let yr = |j: usize| top + (j as f64 + 0.5) * pitch_r;

    let cap = anchored(
        font(legend_px, FontStyle::Bold).color(&MUTED_INK),
        HPos::Right,
        VPos::Center,
    );
    area.draw_text(data.words.queries, &cap, p(left.1, caption_y))?;
    let cap = anchored(
        font(legend_px, FontStyle::Bold).color(&MUTED_INK),
        HPos::Left,
        VPos::Center,
    );
    area.draw_text(data.words.keys, &cap, p(right.0, caption_y))?;

    // Lines: faded ones first, the focused token's on top.
    let width = (data.line_px * s).round().max(1.0) as u32;
    let mut lines = 0;
    for isolated in [false, true] {
        for (hi, head) in data.heads.iter().enumerate() {
            for i in 0..n {
                for j in 0..m {
                    if data.is_isolated(i, j) != isolated {
                        continue;
                    }
                    let wgt = head.weights[i * m + j];
                    if wgt < style.min_weight || wgt < data.threshold {
                        continue;
                    }
                    let alpha = data.line_alpha(hi, i, j).unwrap_or(0.0) as f64;
                    area.draw(&PathElement::new(
                        vec![p(ax, yl(i)), p(bx, yr(j))],
                        head.colour.mix(alpha).stroke_width(width),
                    ))?;
                    lines += 1;
                }
            }
        }
    }

    // Labels (the focused one always, highlighted).
    let mut labels = 0;
    let mut column = |tokens: &[String],
                      px: f64,
                      y_of: &dyn Fn(usize) -> f64,
                      x: f64,
                      hpos: HPos,
                      focused: Option<usize>|
     -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        for (i, t) in tokens.iter().enumerate() {
            let is_focus = focused == Some(i);
            if i % step != 0 && !is_focus {
                continue;
            }
            let text = text::clip(&label(t, i), px, w * 0.26);
            if is_focus {
                let tw = text::width(&text, px);
                let (x0, x1) = match hpos {
                    HPos::Right => (x - tw - 3.0 * s, x + 3.0 * s),
                    _ => (x - 3.0 * s, x + tw + 3.0 * s),
                };
                area.draw(&Rectangle::new(
                    [p(x0, y_of(i) - px * 0.65), p(x1, y_of(i) + px * 0.65)],
                    FOCUS_FILL.filled(),
                ))?;
            }
            let weight = if is_focus {
                FontStyle::Bold
            } else {
                FontStyle::Normal
            };
            let st = anchored(font(px, weight).color(&INK), hpos, VPos::Center);
            area.draw_text(&text, &st, p(x, y_of(i)))?;
            labels += 1;
        }
        Ok(())
    };
    let (fq, fk) = match data.focus {
        Focus::Query(i) => (Some(i), None),
        Focus::Key(j) => (None, Some(j)),
        Focus::None => (None, None),
    };
    column(&data.queries, px_l, &yl, left.1, HPos::Right, fq)?;
    column(&data.keys, px_r, &yr, right.0, HPos::Left, fk)?;

    Ok(TokenLinesMap {
        left,
        right,
        top,
        bottom,
        n,
        m,
        lines,
        labels,
        label_step: step,
    })
}
