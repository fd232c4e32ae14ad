//! The one place numbers become text for people: legends, tick labels, cell labels,
//! read-outs and sentences all format through these functions, so a value reads the same
//! in every view and every output.
//!
//! The shared rules: a negative number is written with the typographic minus sign
//! (U+2212, `−0.25`), and a number that rounds to zero is written without a sign (never
//! `−0`, `−0.00`). Infinities are written `∞` and `−∞`, NaN as `NaN` (except in
//! [`readable`], which writes `—` for both).
//!
//! ```
//! use attnlab_plot::number;
//!
//! assert_eq!(number::significant(-0.3712f32, 3), "\u{2212}0.371");
//! assert_eq!(number::decimals(0.4567f32, 2), "0.46");
//! assert_eq!(number::signed_decimals(0.25f32, 2), "+0.25");
//! assert_eq!(number::percent(0.5f32), "50%");
//! assert_eq!(number::readable(3.14e-7f32), "3.1 \u{d7} 10\u{207b}\u{2077}");
//! assert_eq!(number::full(0.1f32), "0.1");
//! ```

/// The typographic minus sign.
const MINUS: char = '\u{2212}';

/// `v` to at most `digits` significant digits (at most 9 decimals), trailing zeros and
/// a trailing point dropped, thousands without a separator: `0.25 → "0.25"`,
/// `1.0 → "1"`, `-0.3712 → "−0.371"`, `16384 → "16384"`, `-1e-12 → "0"`.
///
/// For legend and axis ticks and short read-outs. An `f32` reads the same as the `f64`
/// it converts to: both print their exact binary value.
pub fn significant(v: impl Into<f64>, digits: usize) -> String {
    let v = v.into();
    if v == 0.0 || !v.is_finite() {
        return special(v);
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).clamp(0, 9) as usize;
    let mut s = format!("{:.*}", decimals, v.abs());
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    with_sign(v, s)
}

/// `v` with exactly `d` decimals: `0.4567, 2 → "0.46"`, `-0.25, 2 → "−0.25"`,
/// `-0.001, 2 → "0.00"`, `2.0, 2 → "2.00"`.
///
/// For columns of numbers that line up (cell labels, tables, a row's values).
pub fn decimals(v: impl Into<f64>, d: usize) -> String {
    let v = v.into();
    if !v.is_finite() {
        return special(v);
    }
    with_sign(v, format!("{:.*}", d, v.abs()))
}

/// [`significant`] with a `+` before a positive number that does not round to zero:
/// `0.2, 3 → "+0.2"`, `0 → "0"`, `-0.2, 3 → "−0.2"`. For differences, where the sign
/// is the point.
pub fn signed_significant(v: impl Into<f64>, digits: usize) -> String {
    let v = v.into();
    plus(v, significant(v, digits))
}

/// [`decimals`] with a `+` before a positive number that does not round to zero:
/// `0.25, 2 → "+0.25"`, `0.001, 2 → "0.00"`, `-0.25, 2 → "−0.25"`. For differences.
pub fn signed_decimals(v: impl Into<f64>, d: usize) -> String {
    let v = v.into();
    plus(v, decimals(v, d))
}

/// A share (`1` = all) as a whole percentage: `0.5 → "50%"`, `0.996 → "100%"`,
/// `-0.2 → "−20%"`.
pub fn percent(share: impl Into<f64>) -> String {
    let share = share.into();
    format!("{}%", decimals(share * 100.0, 0))
}

/// A measured quantity as a student reads it on the page, whatever its size: `—` when it
/// is not finite, `0` for zero, two significant digits in powers of ten below 0.001
/// (`3.1 × 10⁻⁷`, `−2.0 × 10⁻⁴`), four decimals below 10 (`0.0421`, `1.2500`), two
/// decimals above (`12.50`).
///
/// For residuals and differences that are "about zero" or clearly not; the exact value
/// belongs in a `data-value` attribute ([`full`]).
pub fn readable(v: impl Into<f64>) -> String {
    let v = v.into();
    if !v.is_finite() {
        "\u{2014}".into()
    } else if v == 0.0 {
        "0".into()
    } else if v.abs() < 1e-3 {
        let e = format!("{:.1e}", v.abs());
        let (mantissa, exponent) = e.split_once('e').unwrap_or((&e, "0"));
        with_sign(v, format!("{mantissa} \u{d7} 10{}", superscript(exponent)))
    } else if v.abs() < 10.0 {
        decimals(v, 4)
    } else {
        decimals(v, 2)
    }
}

/// `v` rounded to `digits` significant digits, the whole-number ones too, and written as
/// [`significant`] writes it: `1234.5, 2 → "1200"`, `87.6, 2 → "88"`, `0.01234, 2 →
/// "0.012"`. For counts and sizes read at a glance.
pub fn rounded(v: impl Into<f64>, digits: usize) -> String {
    let v = v.into();
    let digits = digits.max(1);
    if v == 0.0 || !v.is_finite() {
        return special(v);
    }
    let step = 10f64.powi(v.abs().log10().floor() as i32 + 1 - digits as i32);
    significant((v / step).round() * step, digits)
}

/// `v` in full: the shortest decimal that reads back as the same `f32` (Rust's `{}`),
/// with an ASCII `-` so that it parses back: `0.1 → "0.1"`, `-2.5 → "-2.5"`,
/// `1e-7 → "0.0000001"`. For exact read-outs and machine-readable output.
pub fn full(v: f32) -> String {
    v.to_string()
}

/// Zero and the values that are not finite.
fn special(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v == f64::INFINITY {
        "\u{221e}".into()
    } else if v == f64::NEG_INFINITY {
        format!("{MINUS}\u{221e}")
    } else {
        "0".into()
    }
}

/// `digits`, the written magnitude of `v`, with a minus sign when `v` is negative and the
/// digits are not all zero.
fn with_sign(v: f64, digits: String) -> String {
    if v < 0.0 && !is_zero(&digits) {
        format!("{MINUS}{digits}")
    } else {
        digits
    }
}

/// `text`, the written number `v`, with a `+` when `v` is positive and the text is not
/// zero.
fn plus(v: f64, text: String) -> String {
    if v > 0.0 && !is_zero(&text) {
        format!("+{text}")
    } else {
        text
    }
}

/// Whether written digits (`"0.00"`, `"0"`) are zero.
fn is_zero(digits: &str) -> bool {
    digits.chars().all(|c| c == '0' || c == '.')
}

/// A decimal exponent (`-7`) in superscript (`⁻⁷`).
fn superscript(exponent: &str) -> String {
    exponent
        .chars()
        .map(|c| match c {
            '-' => '\u{207b}',
            '0' => '\u{2070}',
            '1' => '\u{b9}',
            '2' => '\u{b2}',
            '3' => '\u{b3}',
            '4'..='9' => char::from_u32(0x2070 + (c as u32 - '0' as u32)).unwrap_or(c),
            other => other,
        })
        .collect()
}

/// `x` (> 0) rounded up to the next of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of
/// ten: the end of a legend that stays put while a value moves a little (as a
/// difference's).
pub fn round_up_step(x: f32) -> f32 {
    crate::heatmap::round_up(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_counts_keep_their_leading_digits() {
        assert_eq!(rounded(1234.5, 2), "1200");
        assert_eq!(rounded(1234.5, 3), "1230");
        assert_eq!(rounded(87.6, 2), "88");
        assert_eq!(rounded(0.012_34, 2), "0.012");
        assert_eq!(rounded(-999.6, 2), "\u{2212}1000");
        assert_eq!(rounded(f64::INFINITY, 2), "\u{221e}");
        assert_eq!(rounded(0.0, 3), "0");
    }

    #[test]
    fn formatting() {
        assert_eq!(significant(0.0, 3), "0");
        assert_eq!(significant(1.0, 3), "1");
        assert_eq!(significant(0.25, 3), "0.25");
        assert_eq!(significant(-0.3712, 3), "\u{2212}0.371");
        assert_eq!(significant(12.5, 3), "12.5");
        assert_eq!(significant(1234.0, 3), "1234");
        assert_eq!(decimals(0.4567, 2), "0.46");
        assert_eq!(decimals(-0.001, 2), "0.00");
        assert_eq!(decimals(-0.25, 2), "\u{2212}0.25");
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(significant(16_384.0, 3), "16384");
        assert_eq!(significant(0.01, 3), "0.01");
        assert_eq!(significant(0.25, 3), "0.25");
        assert_eq!(significant(2.0, 3), "2");
        assert_eq!(significant(-1.5, 3), "\u{2212}1.5");
        assert_eq!(significant(0.0, 3), "0");
    }

    #[test]
    fn numbers_are_formatted_with_true_minus_signs() {
        assert_eq!(decimals(-0.1234, 3), "\u{2212}0.123");
        assert_eq!(decimals(-0.0001, 3), "0.000");
        assert_eq!(decimals(2.0, 2), "2.00");
    }

    #[test]
    fn never_minus_zero() {
        assert_eq!(significant(-1e-12, 3), "0");
        assert_eq!(significant(-0.0, 3), "0");
        assert_eq!(decimals(-0.0, 2), "0.00");
        assert_eq!(signed_decimals(-0.001, 2), "0.00");
        assert_eq!(percent(-0.001), "0%");
        assert_eq!(readable(-0.0), "0");
    }

    #[test]
    fn an_f32_reads_as_its_f64() {
        // Both print their exact binary value, so the digits are the same.
        let values = [
            0.1f32,
            -0.3712,
            0.3,
            1.0 / 3.0,
            16_384.5,
            7.0e-5,
            -0.000_499_9,
        ];
        for v in values {
            for d in 0..=9 {
                assert_eq!(format!("{v:.d$}"), format!("{:.d$}", f64::from(v)));
            }
            assert_eq!(decimals(v, 4), format!("{v:.4}").replace('-', "\u{2212}"));
        }
    }

    #[test]
    fn signs_of_differences() {
        assert_eq!(signed_significant(0.2, 3), "+0.2");
        assert_eq!(signed_significant(0.0, 3), "0");
        assert_eq!(signed_significant(-0.2f32, 3), "\u{2212}0.2");
        assert_eq!(signed_decimals(0.25, 2), "+0.25");
        assert_eq!(signed_decimals(0.001, 2), "0.00");
        assert_eq!(signed_decimals(-0.25, 2), "\u{2212}0.25");
    }

    #[test]
    fn percentages_are_whole() {
        assert_eq!(percent(0.5), "50%");
        assert_eq!(percent(0.996), "100%");
        assert_eq!(percent(1.0f32), "100%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(-0.2), "\u{2212}20%");
    }

    #[test]
    fn readable_numbers() {
        assert_eq!(readable(f32::NAN), "\u{2014}");
        assert_eq!(readable(f32::INFINITY), "\u{2014}");
        assert_eq!(readable(0.0), "0");
        assert_eq!(readable(3.14e-7), "3.1 \u{d7} 10\u{207b}\u{2077}");
        assert_eq!(readable(-2.0e-4), "\u{2212}2.0 \u{d7} 10\u{207b}\u{2074}");
        assert_eq!(readable(9.996e-4), "1.0 \u{d7} 10\u{207b}\u{b3}");
        assert_eq!(readable(1.0e-12), "1.0 \u{d7} 10\u{207b}\u{b9}\u{b2}");
        assert_eq!(readable(0.0421), "0.0421");
        assert_eq!(readable(1.25), "1.2500");
        assert_eq!(readable(-0.5), "\u{2212}0.5000");
        assert_eq!(readable(12.5), "12.50");
    }

    #[test]
    fn superscripts() {
        assert_eq!(superscript("-1234567890"), "\u{207b}¹²³⁴⁵⁶⁷⁸⁹⁰");
    }

    #[test]
    fn not_finite() {
        assert_eq!(significant(f64::NAN, 3), "NaN");
        assert_eq!(significant(f32::INFINITY, 3), "\u{221e}");
        assert_eq!(decimals(f64::NEG_INFINITY, 2), "\u{2212}\u{221e}");
    }

    #[test]
    fn full_reads_back() {
        assert_eq!(full(0.1), "0.1");
        assert_eq!(full(-2.5), "-2.5");
        assert_eq!(full(1e-7), "0.0000001");
        for v in [0.31415927f32, 1.0 / 3.0, -7.5e-6, 16_777_216.0] {
            assert_eq!(full(v).parse::<f32>().unwrap(), v);
        }
    }
}
