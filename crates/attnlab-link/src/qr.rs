//! A link as a QR code that a class can scan from a projected screen, or why not.
//!
//! The larger a code's version, the more modules it has and the smaller each is drawn:
//! past [`MAX_VERSION`] a projected code is no longer read reliably from a classroom's
//! back rows, so a longer link is refused with the number of characters it has and may
//! have ([`TooLong`]), and the app offers a shorter link instead.
//!
//! ```
//! use attnlab_link::qr;
//! let code = qr::encode("https://example.org/attnlab/#v1.e30").unwrap();
//! assert!(code.version() <= qr::MAX_VERSION);
//! assert_eq!(code.side(), code.width() + 2 * qr::QUIET_ZONE);
//! assert!(qr::encode(&"x".repeat(qr::MAX_LINK_BYTES + 1)).is_err());
//! ```

use qrcodegen::{QrCode, QrCodeEcc, QrSegment, Version};

use attnlab_i18n::Lang;

/// The largest QR version offered: 77 × 77 modules, about 1 cm each on a 1 m wide
/// projected code, which a phone camera reads across a classroom.
pub const MAX_VERSION: u8 = 15;

/// The lowest error-correction level: L (7 %). A projected code is not smudged or torn;
/// the lowest level keeps the version, hence the modules' count, as small as the link
/// allows (the encoder raises the level where the same version has room).
const LEVEL: QrCodeEcc = QrCodeEcc::Low;

/// The most bytes a link may have to fit [`MAX_VERSION`] at level L (byte mode).
pub const MAX_LINK_BYTES: usize = 520;

/// The light margin on every side, in modules, that the standard asks for.
pub const QUIET_ZONE: usize = 4;

/// A QR code: its modules, row by row, dark or light.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Qr {
    width: usize,
    version: u8,
    dark: Vec<bool>,
}

/// A link too long for a readable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLong {
    /// The link's length in bytes (its characters: a link is ASCII).
    pub bytes: usize,
}

impl TooLong {
    /// Why no code is shown, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        attnlab_i18n::msg::link::LinkQrTooLong {
            chars: &self.bytes,
            max: &MAX_LINK_BYTES,
        }
        .say(lang)
    }
}

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for TooLong {}

/// `link` as a QR code of version at most [`MAX_VERSION`], or how long it is.
pub fn encode(link: &str) -> Result<Qr, TooLong> {
    // Byte mode whatever the characters, so the limit is one number of bytes.
    let segments = [QrSegment::make_bytes(link.as_bytes())];
    let code = QrCode::encode_segments_advanced(
        &segments,
        LEVEL,
        Version::MIN,
        Version::new(MAX_VERSION),
        None,
        true,
    )
    .map_err(|_| TooLong { bytes: link.len() })?;
    let size = code.size();
    Ok(Qr {
        width: size as usize,
        version: code.version().value(),
        dark: (0..size)
            .flat_map(|y| (0..size).map(move |x| (x, y)))
            .map(|(x, y)| code.get_module(x, y))
            .collect(),
    })
}

impl Qr {
    /// The QR version (1–[`MAX_VERSION`]).
    pub fn version(&self) -> u8 {
        self.version
    }

    /// Modules per side, without the quiet zone (`17 + 4 × version`).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Modules per side with the quiet zone on both sides: the drawing's side.
    pub fn side(&self) -> usize {
        self.width + 2 * QUIET_ZONE
    }

    /// Whether the module in column `x`, row `y` is dark (`false` outside the code).
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.width && self.dark[y * self.width + x]
    }

    /// The dark modules as one SVG path in a `0 0 side side` view box (the quiet zone
    /// included): each horizontal run of dark modules is one rectangle.
    pub fn svg_path(&self) -> String {
        let mut d = String::new();
        for y in 0..self.width {
            let mut x = 0;
            while x < self.width {
                if !self.is_dark(x, y) {
                    x += 1;
                    continue;
                }
                let start = x;
                while self.is_dark(x, y) {
                    x += 1;
                }
                d.push_str(&format!(
                    "M{} {}h{}v1h-{}z",
                    start + QUIET_ZONE,
                    y + QUIET_ZONE,
                    x - start,
                    x - start
                ));
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_link_is_a_small_code_with_finder_patterns() {
        let code = encode("https://example.org/attnlab/#v1.e30").unwrap();
        // 35 bytes fit version 3 at level L (53 bytes), not version 2 (32).
        assert_eq!(code.version(), 3);
        assert_eq!(code.width(), 17 + 4 * 3);
        assert_eq!(code.side(), code.width() + 8);
        // The three finder patterns: a dark 7 × 7 ring around a light ring around a
        // dark 3 × 3 centre, in the top-left, top-right and bottom-left corners.
        let w = code.width();
        for (cx, cy) in [(0, 0), (w - 7, 0), (0, w - 7)] {
            for i in 0..7 {
                assert!(code.is_dark(cx + i, cy) && code.is_dark(cx + i, cy + 6));
                assert!(code.is_dark(cx, cy + i) && code.is_dark(cx + 6, cy + i));
            }
            assert!(!code.is_dark(cx + 1, cy + 1) && code.is_dark(cx + 3, cy + 3));
        }
        assert!(!code.is_dark(w, 0) && !code.is_dark(0, w));
    }

    #[test]
    fn the_longest_link_fits_the_largest_version_and_one_more_byte_does_not() {
        let longest = "a".repeat(MAX_LINK_BYTES);
        assert_eq!(encode(&longest).unwrap().version(), MAX_VERSION);
        let over = "a".repeat(MAX_LINK_BYTES + 1);
        assert_eq!(
            encode(&over),
            Err(TooLong {
                bytes: MAX_LINK_BYTES + 1
            })
        );
        // Past what version 40 holds, the same answer.
        assert_eq!(encode(&"a".repeat(5000)), Err(TooLong { bytes: 5000 }));
        // Any characters count as bytes: digits or capitals do not stretch the limit.
        assert!(encode(&"7".repeat(MAX_LINK_BYTES + 1)).is_err());
        assert!(encode(&"A".repeat(MAX_LINK_BYTES)).is_ok());
    }

    #[test]
    fn the_path_draws_every_dark_module_once_inside_the_quiet_zone() {
        let code = encode("lesson=masks/causal&lang=zh").unwrap();
        let side = code.side();
        let mut drawn = vec![false; side * side];
        for rect in code.svg_path().split('M').filter(|r| !r.is_empty()) {
            let nums: Vec<usize> = rect
                .trim_end_matches('z')
                .split([' ', 'h', 'v'])
                .filter_map(|n| n.trim_start_matches('-').parse().ok())
                .collect();
            let (x, y, run) = (nums[0], nums[1], nums[2]);
            assert!(x >= QUIET_ZONE && y >= QUIET_ZONE && x + run <= side - QUIET_ZONE);
            for cell in &mut drawn[y * side + x..y * side + x + run] {
                assert!(!*cell, "a module drawn twice");
                *cell = true;
            }
        }
        for y in 0..side {
            for x in 0..side {
                let inside = (QUIET_ZONE..side - QUIET_ZONE).contains(&x)
                    && (QUIET_ZONE..side - QUIET_ZONE).contains(&y);
                let dark = inside && code.is_dark(x - QUIET_ZONE, y - QUIET_ZONE);
                assert_eq!(drawn[y * side + x], dark, "module ({x}, {y})");
            }
        }
    }

    #[test]
    fn too_long_says_how_long_in_both_languages() {
        let e = TooLong { bytes: 812 };
        assert!(e.message(Lang::En).contains("812 characters"));
        assert!(e.message(Lang::En).contains(&MAX_LINK_BYTES.to_string()));
        assert!(e.message(Lang::Zh).contains("812 个字符"));
        assert!(e.message(Lang::Zh).contains("二维码"));
        assert_eq!(e.to_string(), e.message(Lang::En));
    }
}
