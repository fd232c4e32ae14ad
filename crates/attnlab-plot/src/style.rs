//! What every figure's drawing shares: its colours, the heatmap style (text in cells, how
//! the cell field reaches the backend, the pixel scale), text helpers, and which parts of
//! a figure a paint draws.

use plotters::prelude::{
    DrawingAreaErrorKind, DrawingBackend, FontDesc, FontFamily, FontStyle, RGBColor, TextStyle,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::scale::Palette;

/// Background of the figure.
pub const BACKGROUND: RGBColor = RGBColor(255, 255, 255);
/// Fill of a blocked (masked) cell: a neutral grey that no colour scale contains.
pub const MASK_FILL: RGBColor = RGBColor(200, 200, 200);
/// The hatch lines drawn over blocked cells.
pub const MASK_HATCH: RGBColor = RGBColor(118, 118, 118);
/// Colour of the "∅ empty row" marks.
pub const EMPTY_ROW_INK: RGBColor = RGBColor(176, 0, 32);
/// Outline and title of the selected head in a grid: an orange that no colour scale
/// contains and that stands out against both.
pub const SELECTED: RGBColor = RGBColor(230, 85, 13);
/// The row-entropy bars.
pub const ENTROPY_BAR: RGBColor = RGBColor(84, 84, 104);
/// The track behind a row-entropy bar: the row's largest possible entropy (uniform
/// attention over its allowed keys).
pub const ENTROPY_TRACK: RGBColor = RGBColor(226, 226, 232);
/// Text: titles, labels, ticks.
pub(crate) const INK: RGBColor = RGBColor(20, 20, 20);
/// Secondary text and lines: axis captions, panel headings, frames.
pub(crate) const MUTED_INK: RGBColor = RGBColor(70, 70, 70);
/// Text on dark cells.
pub(crate) const LIGHT_INK: RGBColor = RGBColor(255, 255, 255);

/// Whether numbers are written inside the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellText {
    /// Write each value (two decimals) when the cells are large enough to hold it.
    #[default]
    Auto,
    /// Never write values in the cells.
    Hidden,
}

/// How the field of cells reaches the backend.
///
/// A canvas pays for every call: a 256 × 256 heatmap of small cells is tens of thousands
/// of `fillRect`s (about 150 ms in Chromium), a grid of 8 heads of 64 tokens as many
/// again, while one `putImageData` of the whole field takes a few milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CellField {
    /// One rectangle per cell (per run of equal colour when cells are small). Works on
    /// every backend and keeps SVG output editable: the default.
    #[default]
    Rectangles,
    /// The whole field (colours, white grid gaps, grey hatched masked cells) as one RGB
    /// bitmap through `DrawingBackend::blit_bitmap`; values, labels and legend are drawn
    /// on top as usual. Only for backends that implement `blit_bitmap` as one fast call,
    /// such as plotters' `BitMapBackend` or a canvas backend that forwards it to
    /// `putImageData`. plotters-canvas 0.3.1's `CanvasBackend` does **not**: it falls
    /// back to one `fillRect` per pixel, far slower than rectangles; so does
    /// plotters-svg without its `bitmap_encoder` feature.
    Bitmap,
}

/// How the figure is drawn, independent of its data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeatmapStyle {
    /// Multiplies every length given in pixels (text sizes, margins, line widths). Use the
    /// display's `devicePixelRatio` when the backend's pixels are device pixels, so a
    /// canvas drawn at 2× looks like the 1× figure, only sharper.
    pub scale: f64,
    /// Numbers inside the cells.
    pub cell_text: CellText,
    /// Rectangles or one bitmap for the cells.
    pub cell_field: CellField,
    /// The colours of weights and of differences.
    pub palette: Palette,
}

impl Default for HeatmapStyle {
    fn default() -> Self {
        HeatmapStyle {
            scale: 1.0,
            cell_text: CellText::Auto,
            cell_field: CellField::Rectangles,
            palette: Palette::default(),
        }
    }
}

impl HeatmapStyle {
    /// The default style at `scale` (e.g. `window.devicePixelRatio`).
    pub fn scaled(scale: f64) -> HeatmapStyle {
        HeatmapStyle {
            scale,
            ..HeatmapStyle::default()
        }
    }

    /// The same style with `field` for the cells.
    pub fn with_cell_field(self, field: CellField) -> HeatmapStyle {
        HeatmapStyle {
            cell_field: field,
            ..self
        }
    }

    /// The same style with `palette`'s colours.
    pub fn with_palette(self, palette: Palette) -> HeatmapStyle {
        HeatmapStyle { palette, ..self }
    }

    /// `scale`, made safe: non-finite or non-positive scales are 1.
    pub(crate) fn px_scale(&self) -> f64 {
        if self.scale.is_finite() && self.scale > 0.0 {
            self.scale
        } else {
            1.0
        }
    }
}

/// Which parts of a figure a paint draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parts {
    /// Everything, on a cleared area.
    All,
    /// Only what depends on the values, over the same frame drawn before.
    Values,
    /// What depends on the values and the legend's scale (bar and ticks), over a frame
    /// that differed in its range alone.
    ValuesAndScale,
}

/// A sans-serif font of `px` pixels.
pub(crate) fn font<'a>(px: f64, style: FontStyle) -> FontDesc<'a> {
    FontDesc::new(FontFamily::SansSerif, px, style)
}

/// `style` anchored at (`h`, `v`) of the point its text is drawn at.
pub(crate) fn anchored(style: TextStyle<'_>, h: HPos, v: VPos) -> TextStyle<'_> {
    style.pos(Pos::new(h, v))
}

/// The pixel nearest to (`x`, `y`).
pub(crate) fn p(x: f64, y: f64) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

/// What a drawing step returns: nothing, or the backend's error.
pub(crate) type DrawResult<DB> =
    Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
