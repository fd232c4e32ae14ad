//! A plotters backend that draws nothing and counts the calls it receives: what a canvas
//! would have to do, without a browser. Shared by the tests and the timing example.

use std::cell::Cell;
use std::rc::Rc;

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// How many calls of each kind a figure made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Filled or stroked rectangles.
    pub rects: usize,
    /// Lines and polylines.
    pub paths: usize,
    /// Texts.
    pub texts: usize,
    /// Single pixels (plotters' fallback for bitmaps on backends that cannot blit).
    pub pixels: usize,
    /// Bitmap blits, and the pixels they covered.
    pub blits: usize,
    /// Pixels covered by the blits.
    pub blit_pixels: usize,
    /// Everything else (circles, polygons).
    pub other: usize,
}

impl Counts {
    /// All calls.
    #[allow(dead_code)]
    pub fn calls(&self) -> usize {
        self.rects + self.paths + self.texts + self.pixels + self.blits + self.other
    }
}

/// How the backend answers `blit_bitmap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)]
pub enum Blit {
    /// One call (as a canvas with `putImageData`, or plotters' `BitMapBackend`).
    Fast,
    /// plotters' default: one `draw_pixel` per pixel (as plotters-canvas 0.3.1).
    PixelByPixel,
}

/// Counts calls into a shared [`Counts`] (the drawing area owns the backend).
pub struct CountingBackend {
    size: (u32, u32),
    counts: Rc<Cell<Counts>>,
    blit: Blit,
}

impl CountingBackend {
    /// A backend of `size` pixels, and the counts it will fill.
    #[allow(dead_code)]
    pub fn new(size: (u32, u32), blit: Blit) -> (CountingBackend, Rc<Cell<Counts>>) {
        let counts = Rc::new(Cell::new(Counts::default()));
        (
            CountingBackend {
                size,
                counts: counts.clone(),
                blit,
            },
            counts,
        )
    }

    fn count(&self, f: impl FnOnce(&mut Counts)) {
        let mut c = self.counts.get();
        f(&mut c);
        self.counts.set(c);
    }
}

#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}

impl std::error::Error for Never {}

impl DrawingBackend for CountingBackend {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        _: BackendCoord,
        _: BackendColor,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.pixels += 1);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.paths += 1);
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.rects += 1);
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.paths += 1);
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: u32,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.other += 1);
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.other += 1);
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        _: &str,
        _: &S,
        _: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.count(|c| c.texts += 1);
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
        let px = style.size();
        Ok(((text.chars().count() as f64 * px * 0.6) as u32, px as u32))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (w, h): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Never>> {
        assert_eq!(src.len(), (w * h * 3) as usize, "RGB bitmap of {w}×{h}");
        let _ = pos;
        match self.blit {
            Blit::Fast => self.count(|c| {
                c.blits += 1;
                c.blit_pixels += (w * h) as usize;
            }),
            Blit::PixelByPixel => self.count(|c| c.pixels += (w * h) as usize),
        }
        Ok(())
    }
}
