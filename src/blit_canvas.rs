//! A canvas backend whose `blit_bitmap` is one `putImageData` (plotters-canvas 0.3.1 has
//! none: plotters' default draws a bitmap one `fillRect` per pixel).

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// `CanvasBackend` plus a fast `blit_bitmap`; everything else is forwarded.
pub struct BlitCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
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
        Some(BlitCanvas { inner, context })
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
        wrap(self.inner.draw_text(text, s, pos))
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
        // Opaque RGBA from RGB: a fixed-size copy per pixel, no per-pixel growth checks
        // (this loop runs over every pixel of every heatmap on every repaint).
        let mut rgba = vec![255u8; w as usize * h as usize * 4];
        for (out, px) in rgba.chunks_exact_mut(4).zip(src.chunks_exact(3)) {
            out[..3].copy_from_slice(px);
        }
        let image =
            ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h).map_err(js_error)?;
        self.context
            .put_image_data(&image, f64::from(pos.0), f64::from(pos.1))
            .map_err(js_error)
    }
}
