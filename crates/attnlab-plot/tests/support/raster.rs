//! A tiny software backend: fills rectangles, draws 1-pixel lines, copies blitted bitmaps,
//! ignores text. Enough to compare the two ways of painting the cells pixel by pixel.

use std::cell::RefCell;
use std::rc::Rc;

use plotters::prelude::DrawingBackend;
use plotters_backend::FontTransform;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// An RGB image, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<[u8; 3]>,
}

impl Image {
    #[allow(dead_code)]
    pub fn at(&self, x: i32, y: i32) -> [u8; 3] {
        self.rgb[y as usize * self.width + x as usize]
    }

    /// Binary PPM, for looking at the image.
    #[allow(dead_code)]
    pub fn ppm(&self) -> Vec<u8> {
        let mut out = format!("P6\n{} {}\n255\n", self.width, self.height).into_bytes();
        for p in &self.rgb {
            out.extend_from_slice(p);
        }
        out
    }
}

pub struct RasterBackend {
    image: Rc<RefCell<Image>>,
    /// Whether text is drawn as a filled box of its estimated size (else ignored).
    text_boxes: bool,
}

impl RasterBackend {
    pub fn new(width: usize, height: usize) -> (RasterBackend, Rc<RefCell<Image>>) {
        let image = Rc::new(RefCell::new(Image {
            width,
            height,
            rgb: vec![[0, 0, 0]; width * height],
        }));
        (
            RasterBackend {
                image: image.clone(),
                text_boxes: false,
            },
            image,
        )
    }

    /// A backend that draws each text as a box in its colour, as wide as its characters
    /// (0.6 of the size each) and as tall as its size, placed by its anchor (standing up
    /// when rotated by 270°): a text changes the pixels where a real one would.
    #[allow(dead_code)]
    pub fn with_text_boxes(width: usize, height: usize) -> (RasterBackend, Rc<RefCell<Image>>) {
        let (mut backend, image) = RasterBackend::new(width, height);
        backend.text_boxes = true;
        (backend, image)
    }

    fn put(&self, x: i32, y: i32, c: [u8; 3]) {
        let mut img = self.image.borrow_mut();
        if x >= 0 && y >= 0 && (x as usize) < img.width && (y as usize) < img.height {
            let w = img.width;
            img.rgb[y as usize * w + x as usize] = c;
        }
    }

    fn line(&self, (x0, y0): BackendCoord, (x1, y1): BackendCoord, c: [u8; 3]) {
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
        let (mut x, mut y, mut err) = (x0, y0, dx + dy);
        loop {
            self.put(x, y, c);
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }
}

fn rgb(c: BackendColor) -> [u8; 3] {
    [c.rgb.0, c.rgb.1, c.rgb.2]
}

#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}

impl std::error::Error for Never {}

impl DrawingBackend for RasterBackend {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        let img = self.image.borrow();
        (img.width as u32, img.height as u32)
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        p: BackendCoord,
        c: BackendColor,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.put(p.0, p.1, rgb(c));
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        self.line(a, b, rgb(style.color()));
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        let c = rgb(style.color());
        if style.color().alpha < 1.0 {
            return Ok(());
        }
        if fill {
            for y in a.1..b.1 {
                for x in a.0..b.0 {
                    self.put(x, y, c);
                }
            }
        } else {
            self.line(a, (b.0, a.1), c);
            self.line((b.0, a.1), b, c);
            self.line(b, (a.0, b.1), c);
            self.line((a.0, b.1), a, c);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        let c = rgb(style.color());
        let points: Vec<BackendCoord> = path.into_iter().collect();
        // A wide stroke as parallel lines, one pixel apart to the right.
        for d in 0..style.stroke_width().max(1) as i32 {
            for w in points.windows(2) {
                self.line((w[0].0 + d, w[0].1), (w[1].0 + d, w[1].1), c);
            }
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        (x, y): BackendCoord,
    ) -> Result<(), DrawingErrorKind<Never>> {
        if !self.text_boxes {
            return Ok(());
        }
        let (w, h) = self.estimate_text_size(text, style)?;
        let (w, h) = (w as i32, h as i32);
        let anchor = style.anchor();
        let c = rgb(style.color());
        if let FontTransform::Rotate270 = style.transform() {
            // Reads upwards from its anchor: the box stands above it, centred across.
            for py in y - w..y {
                for px in x - h / 2..x - h / 2 + h {
                    self.put(px, py, c);
                }
            }
            return Ok(());
        }
        let x0 = match anchor.h_pos {
            HPos::Left => x,
            HPos::Center => x - w / 2,
            HPos::Right => x - w,
        };
        let y0 = match anchor.v_pos {
            VPos::Top => y,
            VPos::Center => y - h / 2,
            VPos::Bottom => y - h,
        };
        for py in y0..y0 + h {
            for px in x0..x0 + w {
                self.put(px, py, c);
            }
        }
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
        assert_eq!(src.len(), (w * h * 3) as usize);
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let k = 3 * (y as usize * w as usize + x as usize);
                self.put(pos.0 + x, pos.1 + y, [src[k], src[k + 1], src[k + 2]]);
            }
        }
        Ok(())
    }
}
