//! A canvas backend whose `blit_bitmap` is one `putImageData` (plotters-canvas 0.3.1 has
//! none: plotters' default draws a bitmap one `fillRect` per pixel), and whose text sets
//! the context's font, baseline and alignment only when they change (plotters-canvas sets
//! all three for every label, and a 512-token heatmap draws over a thousand labels: the
//! font, a CSS string the canvas parses, was 4% of a keystroke's work).
//!
//! It lives here, not in attnlab-plot, because it needs web-sys (`ImageData`), which
//! attnlab-plot does not depend on. `putImageData` ignores the canvas transform, clip and compositing and
//! writes device pixels at the given position; that is right here, because every figure
//! is drawn in backing-store pixels (a canvas sized CSS size × dpr, styles scaled by dpr,
//! no transform).

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// `CanvasBackend` plus a fast `blit_bitmap` and text that keeps its font; everything else
/// is forwarded.
pub struct BlitCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The font, baseline and alignment this backend last set on the context (outside a
    /// rotated label's save/restore), so an unchanged one is not set again. Nothing else
    /// sets them: the forwarded drawing calls set only colours and line widths.
    text: Option<(String, &'static str, &'static str)>,
}

impl BlitCanvas {
    /// The backend of `canvas`, or `None` when it has no 2D context.
    pub fn new(canvas: &HtmlCanvasElement) -> Option<BlitCanvas> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas.clone())?;
        Some(BlitCanvas {
            inner,
            context,
            text: None,
        })
    }
}

/// plotters-canvas does not export its error type: name it through the trait.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// A drawing error: the canvas backend's, or `putImageData`'s.
#[derive(Debug)]
pub enum BlitCanvasError {
    /// From the wrapped `CanvasBackend`.
    Canvas(CanvasError),
    /// `new ImageData` or `putImageData` failed.
    Blit(String),
}

impl std::fmt::Display for BlitCanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlitCanvasError::Canvas(e) => e.fmt(f),
            BlitCanvasError::Blit(e) => write!(f, "could not copy a bitmap to the canvas: {e}"),
        }
    }
}

impl std::error::Error for BlitCanvasError {}

fn wrap<T>(
    r: Result<T, DrawingErrorKind<CanvasError>>,
) -> Result<T, DrawingErrorKind<BlitCanvasError>> {
    r.map_err(|e| match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(BlitCanvasError::Canvas(e))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    })
}

fn js_error(e: wasm_bindgen::JsValue) -> DrawingErrorKind<BlitCanvasError> {
    DrawingErrorKind::DrawingError(BlitCanvasError::Blit(format!("{e:?}")))
}

impl DrawingBackend for BlitCanvas {
    type ErrorType = BlitCanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.ensure_prepared())
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.present())
    }
    fn draw_pixel(
        &mut self,
        p: BackendCoord,
        c: BackendColor,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.draw_pixel(p, c))
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.draw_line(a, b, s))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.draw_rect(a, b, s, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.draw_path(path, s))
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.draw_circle(c, r, s, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.fill_polygon(vert, s))
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        s: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        let color = s.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let font = format!(
            "{} {}px {}",
            s.style().as_str(),
            s.size(),
            s.family().as_str()
        );
        let baseline = match s.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let align = match s.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let degrees = match s.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        };
        let c = &self.context;
        let (r, g, b) = color.rgb;
        c.set_fill_style_str(&format!("rgba({r},{g},{b},{})", color.alpha));
        let (x, y) = (f64::from(pos.0), f64::from(pos.1));
        // Set outside any save/restore, so a rotated label keeps the cache true too.
        let same = |t: &(String, &str, &str)| t.0 == font && t.1 == baseline && t.2 == align;
        if !self.text.as_ref().is_some_and(same) {
            c.set_text_baseline(baseline);
            c.set_text_align(align);
            c.set_font(&font);
            self.text = Some((font, baseline, align));
        }
        if degrees != 0.0 {
            c.save();
            c.translate(x, y).map_err(js_error)?;
            c.rotate(degrees / 180.0 * std::f64::consts::PI)
                .map_err(js_error)?;
            let drawn = c.fill_text(text, 0.0, 0.0).map_err(js_error);
            c.restore();
            return drawn;
        }
        c.fill_text(text, x, y).map_err(js_error)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        s: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<BlitCanvasError>> {
        wrap(self.inner.estimate_text_size(text, s))
    }

    /// `src` is RGB, 3 bytes a pixel (plotters' convention); canvas wants RGBA.
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (w, h): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<BlitCanvasError>> {
        if w == 0 || h == 0 {
            return Ok(());
        }
        let rgba = rgb_to_rgba(src, w as usize * h as usize);
        let image =
            ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h).map_err(js_error)?;
        self.context
            .put_image_data(&image, f64::from(pos.0), f64::from(pos.1))
            .map_err(js_error)
    }
}

/// Opaque RGBA from the first `pixels` RGB pixels of `src` (this runs over every pixel of
/// every heatmap on every repaint): four pixels per SIMD128 shuffle, the rest one at a time
/// with a fixed-size copy.
fn rgb_to_rgba(src: &[u8], pixels: usize) -> Vec<u8> {
    let pixels = pixels.min(src.len() / 3);
    let mut rgba = vec![255u8; pixels * 4];
    let done = rgb_to_rgba_simd(src, pixels, &mut rgba);
    for (out, px) in rgba[done * 4..]
        .chunks_exact_mut(4)
        .zip(src[done * 3..].chunks_exact(3))
    {
        out[..3].copy_from_slice(px);
    }
    rgba
}

/// The first pixels of [`rgb_to_rgba`], four per SIMD128 shuffle; returns how many it
/// converted.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn rgb_to_rgba_simd(src: &[u8], pixels: usize, rgba: &mut [u8]) -> usize {
    use core::arch::wasm32::{
        i8x16, i8x16_swizzle, u32x4_splat, v128, v128_load, v128_or, v128_store,
    };
    // Bytes 0–11 of a 16-byte load are four RGB pixels; byte 0x80 (out of range) gives 0
    // in the alpha slots, which the OR fills with 255.
    let spread = i8x16(0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128);
    let alpha = u32x4_splat(0xff00_0000);
    let mut done = 0;
    // Each load reads 16 bytes: stop while 4 bytes past the 4 pixels remain.
    while (done + 4) * 3 + 4 <= src.len() && done + 4 <= pixels {
        // SAFETY: 16 bytes from `done * 3` are inside `src` (checked above), 16 from
        // `done * 4` inside `rgba` (`done + 4 ≤ pixels`); v128 loads and stores may be
        // unaligned.
        unsafe {
            let v = v128_load(src.as_ptr().add(done * 3) as *const v128);
            let out = v128_or(i8x16_swizzle(v, spread), alpha);
            v128_store(rgba.as_mut_ptr().add(done * 4) as *mut v128, out);
        }
        done += 4;
    }
    done
}

/// Without SIMD128 every pixel goes through [`rgb_to_rgba`]'s copy.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn rgb_to_rgba_simd(_: &[u8], _: usize, _: &mut [u8]) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::rgb_to_rgba;

    #[test]
    fn every_pixel_gets_its_colour_and_full_alpha() {
        for pixels in [0, 1, 3, 4, 5, 7, 8, 9, 33] {
            let src: Vec<u8> = (0..pixels * 3).map(|i| (i * 7 % 251) as u8).collect();
            let rgba = rgb_to_rgba(&src, pixels);
            assert_eq!(rgba.len(), pixels * 4);
            for p in 0..pixels {
                assert_eq!(
                    &rgba[p * 4..p * 4 + 3],
                    &src[p * 3..p * 3 + 3],
                    "pixel {p} of {pixels}"
                );
                assert_eq!(rgba[p * 4 + 3], 255);
            }
        }
    }
}
