//! Text measurement without fonts.
//!
//! The canvas backend draws text with the browser's fonts and the SVG backend leaves it
//! to the viewer, so no backend can tell us exactly how wide a label will be (plotters'
//! own estimate in the browser inserts a `<span>` into the page for every label). The
//! layout therefore uses a deliberately generous estimate from character classes: it is
//! the same on every backend, which keeps a figure a pure function of its data.

/// Estimated advance of `c` in ems for a sans-serif font.
fn advance(c: char) -> f64 {
    match c {
        ' ' => 0.3,
        'i' | 'j' | 'l' | '.' | ',' | '\'' | '!' | '|' | ':' | ';' | '`' | '(' | ')' | '['
        | ']' => 0.32,
        'f' | 't' | 'r' | 'I' | '-' | '"' | '/' => 0.42,
        'm' | 'w' | 'M' | 'W' | '@' | '%' | '…' | '∅' | '—' => 0.9,
        c if is_wide(c) => 1.05,
        c if c.is_uppercase() || c.is_ascii_digit() => 0.68,
        c if c.is_ascii() => 0.58,
        // Other scripts (Greek, Cyrillic, Arabic, Hebrew…) run a little wider.
        _ => 0.68,
    }
}

/// East Asian wide and full-width characters, and emoji: about one em each.
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F       // Hangul Jamo
        | 0x2E80..=0x303E     // CJK radicals, punctuation
        | 0x3041..=0x33FF     // kana, CJK symbols
        | 0x3400..=0x4DBF     // CJK extension A
        | 0x4E00..=0x9FFF     // CJK unified ideographs
        | 0xA000..=0xA4CF     // Yi
        | 0xAC00..=0xD7A3     // Hangul syllables
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0xFE30..=0xFE4F     // CJK compatibility forms
        | 0xFF00..=0xFF60     // full-width forms
        | 0xFFE0..=0xFFE6
        | 0x1F000..=0x1FAFF   // emoji and pictographs
        | 0x20000..=0x3FFFD) // CJK extensions B–
}

/// Zero-width characters: combining marks, joiners, variation selectors, skin tones.
fn is_zero_width(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x200B..=0x200F | 0xFE00..=0xFE0F | 0x1F3FB..=0x1F3FF | 0xE0000..=0xE007F)
}

/// Estimated width of `text` in pixels at font size `px`.
pub(crate) fn width(text: &str, px: f64) -> f64 {
    let mut ems = 0.0;
    let mut after_zwj = false;
    for c in text.chars() {
        if c == '\u{200D}' {
            after_zwj = true;
            continue;
        }
        // The emoji after a joiner is drawn inside the one before it.
        let joined = after_zwj && is_wide(c);
        if !(is_zero_width(c) || joined) {
            ems += advance(c);
        }
        after_zwj = false;
    }
    ems * px
}

/// `text` cut to at most `max_px` wide at font size `px`, ending in "…" when cut.
pub(crate) fn clip(text: &str, px: f64, max_px: f64) -> String {
    if width(text, px) <= max_px {
        return text.to_string();
    }
    let budget = max_px - width("…", px);
    let mut out = String::new();
    let mut used = 0.0;
    for c in text.chars() {
        let w = if is_zero_width(c) {
            0.0
        } else {
            advance(c) * px
        };
        if used + w > budget {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ideographs_are_wider_than_latin() {
        assert!(width("我爱", 10.0) > width("ab", 10.0) * 1.5);
        assert_eq!(width("", 10.0), 0.0);
        // A family emoji (three people joined) is one glyph.
        assert!(width("👨\u{200D}👩\u{200D}👧", 10.0) < width("👨👩", 10.0));
    }

    #[test]
    fn clipping_keeps_short_text_and_marks_cuts() {
        assert_eq!(clip("cat", 10.0, 100.0), "cat");
        let c = clip("internationalisation", 10.0, 50.0);
        assert!(c.ends_with('…'), "{c}");
        assert!(width(&c, 10.0) <= 50.0);
        assert_eq!(clip("我爱机器学习", 10.0, 32.0), "我爱…");
    }
}
