//! NumPy arrays: one `.npy` file (the format's header and data, read by `npyz`) and the
//! `.npz` archives that hold several (a zip of `.npy` files, read by `zip`), as the
//! numbers attnlab computes with: f32 in C (row-major) order.
//!
//! float32 and float64 are read, little- or big-endian, in C or Fortran order; Fortran
//! data is reordered. Unicode string arrays (`<U…`) are read as token labels. Everything
//! else (integers, float16, complex, objects) is refused with its dtype named, as are
//! NaN and ±∞ (with the element's index) and float64 values beyond the f32 range.

use std::io::{Cursor, Read};

use npyz::{DType, NpyFile, Order, TypeChar};

use super::BringError;
use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};

/// A numeric array: its shape and its values in C order.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// The shape, outermost axis first.
    pub shape: Vec<usize>,
    /// The values, last axis fastest.
    pub data: Vec<f32>,
}

/// What one `.npy` file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Npy {
    /// Numbers.
    Numbers(Array),
    /// Strings (a 1-D array of labels).
    Strings(Vec<String>),
}

/// `shape` as NumPy prints it: `(2, 3)`, `(4,)`, `()`.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// The multi-index of the `flat`-th element of an array of `shape` stored in `order`
/// (C: the last axis fastest; Fortran: the first).
fn index_of(flat: usize, shape: &[usize], order: Order) -> String {
    let mut rest = flat;
    let mut index = vec![0; shape.len()];
    let mut step = |axis: usize| {
        let len = shape[axis].max(1);
        index[axis] = rest % len;
        rest /= len;
    };
    match order {
        Order::C => (0..shape.len()).rev().for_each(&mut step),
        Order::Fortran => (0..shape.len()).for_each(&mut step),
    }
    let dims: Vec<String> = index.iter().map(usize::to_string).collect();
    format!("[{}]", dims.join(", "))
}

/// The dtype as NumPy writes it (`<f8`, `>i4`, …), for messages, in `lang`.
fn dtype_text(dtype: &DType, lang: Lang) -> String {
    match dtype {
        DType::Plain(t) => t.to_string(),
        DType::Array(..) => formats::NPY_DTYPE_SUB_ARRAY.get(lang).into(),
        DType::Record(..) => formats::NPY_DTYPE_RECORD.get(lang).into(),
    }
}

/// Why zip cannot read an archive, in Chinese (its English is the zip crate's).
fn zip_kind(e: &zip::result::ZipError) -> Tr {
    use zip::result::ZipError;
    match e {
        ZipError::Io(_) => formats::NPZ_ZIP_IO,
        ZipError::InvalidArchive(_) => formats::NPZ_ZIP_INVALID,
        ZipError::UnsupportedArchive(_) => formats::NPZ_ZIP_UNSUPPORTED,
        ZipError::FileNotFound => formats::NPZ_ZIP_NOT_FOUND,
        ZipError::InvalidPassword => formats::NPZ_ZIP_PASSWORD,
        ZipError::CompressionMethodNotSupported(_) => formats::NPZ_ZIP_COMPRESSION,
        ZipError::DecompressedSizeLimitExceeded { .. } => formats::NPZ_ZIP_SIZE_LIMIT,
        _ => formats::NPZ_ZIP_OTHER,
    }
}

/// The zip reader's error in `lang`: its own words in English, what failed in Chinese.
fn zip_error(e: &zip::result::ZipError, lang: Lang) -> String {
    match lang {
        Lang::En => e.to_string(),
        Lang::Zh => zip_kind(e).get(lang).to_string(),
    }
}

/// `data` (in the file's order) in C order.
fn c_order(data: Vec<f32>, shape: &[usize], order: Order) -> Vec<f32> {
    if order == Order::C || shape.len() < 2 {
        return data;
    }
    // Fortran order: the first axis is fastest. Element (i0, …, ik) sits at
    // i0 + n0·(i1 + n1·(…)) in the file.
    let mut out = vec![0.0; data.len()];
    let mut index = vec![0usize; shape.len()];
    for value in out.iter_mut() {
        let mut at = 0;
        for axis in (0..shape.len()).rev() {
            at = at * shape[axis] + index[axis];
        }
        *value = data[at];
        // The next C-order index: the last axis fastest.
        for axis in (0..shape.len()).rev() {
            index[axis] += 1;
            if index[axis] < shape[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    out
}

/// Reads one `.npy` file named `file`.
pub fn read_npy(file: &str, bytes: &[u8]) -> Result<Npy, BringError> {
    let fail = |said: Said| BringError::said(file, said);
    if !bytes.starts_with(b"\x93NUMPY") {
        return Err(fail(formats::NPY_BAD_MAGIC.into()));
    }
    let span = header_span(bytes);
    // The reader allocates the header's declared length before reading it: a length
    // past the file's end is refused first (a lying 4-byte length would ask for GBs).
    if let Some((start, len)) = span
        && start.saturating_add(len) > bytes.len()
    {
        return Err(fail(
            formats::NpyHeaderLength {
                len: &len,
                size: &bytes.len(),
            }
            .said(),
        ));
    }
    if let Some((start, len)) = span {
        let header = &bytes[start..start + len];
        // The header's Python literal parser backtracks exponentially on deep nesting
        // (`{{{{…`): a header is a flat dict, a structured dtype nests a few levels.
        let depth = nesting(header);
        if depth > MAX_HEADER_NESTING {
            return Err(fail(
                formats::NpyHeaderNesting {
                    depth: &depth,
                    max: &MAX_HEADER_NESTING,
                }
                .said(),
            ));
        }
        // The reader multiplies the dimensions in u64 without checking.
        if dimensions_overflow(header) {
            return Err(fail(
                formats::NpyDimensionsOverflow { max: &u64::MAX }.said(),
            ));
        }
    }
    let npy = NpyFile::new(Cursor::new(bytes))
        .map_err(|e| fail(formats::NpyHeaderUnreadable { error: &e }.said()))?;
    let shape: Vec<usize> = npy
        .shape()
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(usize::MAX))
        .collect();
    let dtype = npy.dtype();
    let order = npy.order();
    let count = shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| {
            fail(
                formats::NpyTooManyElements {
                    shape: &shape_text(&shape),
                }
                .said(),
            )
        })?;
    let DType::Plain(ty) = &dtype else {
        return Err(fail(Said::of(|lang| {
            formats::NpyDtypeNotPlain {
                dtype: &dtype_text(&dtype, lang),
            }
            .say(lang)
        })));
    };
    // The data must all be there before anything is allocated for it.
    let width = ty.num_bytes().unwrap_or(0);
    // The bytes after the header (none when the header cannot be measured).
    let header = span.map_or(bytes.len(), |(start, len)| (start + len).min(bytes.len()));
    let needed = count.saturating_mul(width);
    let present = bytes.len() - header;
    if present < needed {
        return Err(fail(Said::of(|lang| {
            formats::NpyCutShort {
                shape: &shape_text(&shape),
                dtype: &dtype_text(&dtype, lang),
                needed: &needed,
                present: &present,
            }
            .say(lang)
        })));
    }
    let truncated = |e: std::io::Error| fail(formats::NpyTruncated { error: &e }.said());
    match (ty.type_char(), ty.size_field()) {
        (TypeChar::Float, 4) => {
            let data: Vec<f32> = npy.into_vec().map_err(truncated)?;
            finite(
                file,
                &data.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
                &shape,
                order,
            )?;
            Ok(Npy::Numbers(Array {
                data: c_order(data, &shape, order),
                shape,
            }))
        }
        (TypeChar::Float, 8) => {
            let data: Vec<f64> = npy.into_vec().map_err(truncated)?;
            finite(file, &data, &shape, order)?;
            let data = data.iter().map(|&x| x as f32).collect();
            Ok(Npy::Numbers(Array {
                data: c_order(data, &shape, order),
                shape,
            }))
        }
        (TypeChar::UnicodeStr, _) if shape.len() == 1 => {
            let labels: Vec<String> = npy.into_vec().map_err(truncated)?;
            Ok(Npy::Strings(labels))
        }
        _ => {
            let hint = match ty.type_char() {
                TypeChar::Float if ty.size_field() == 2 => Some(formats::NPY_HINT_FLOAT16),
                TypeChar::Int | TypeChar::Uint => Some(formats::NPY_HINT_INTEGERS),
                _ => None,
            };
            Err(fail(Said::of(|lang| {
                formats::NpyDtypeUnsupported {
                    dtype: &dtype_text(&dtype, lang),
                    hint: &hint.map_or("", |h| h.get(lang)),
                }
                .say(lang)
            })))
        }
    }
}

/// Where the `.npy` header's text starts and how long the file says it is (`None` when
/// the file is too short to say).
fn header_span(bytes: &[u8]) -> Option<(usize, usize)> {
    // Version 1: 2-byte little-endian header length at 8; versions 2 and 3: 4 bytes.
    let len_bytes = match bytes.get(6)? {
        1 => 2,
        _ => 4,
    };
    let raw = bytes.get(8..8 + len_bytes)?;
    let len = raw
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
    Some((8 + len_bytes, len))
}

/// The deepest nesting of brackets read in a `.npy` header.
const MAX_HEADER_NESTING: usize = 8;

/// The deepest nesting of `(`, `[` and `{` outside quotes in `header`.
fn nesting(header: &[u8]) -> usize {
    let (mut depth, mut deepest, mut quote) = (0usize, 0, None);
    for &b in header {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'(' | b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (None, b')' | b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Whether the integers written outside quotes in `header` (the shape's dimensions and
/// any sub-array's), leaving out zeros, multiply to more than `u64::MAX`; an integer too
/// large to read counts as too many.
fn dimensions_overflow(header: &[u8]) -> bool {
    let mut product = Some(1u64);
    let mut quote = None;
    let mut word = Vec::new();
    let end_word = |word: &mut Vec<u8>, product: &mut Option<u64>| {
        match python_integer(word) {
            Some(Some(0)) | None => {}
            Some(Some(d)) => *product = product.and_then(|p| p.checked_mul(d)),
            Some(None) => *product = None,
        }
        word.clear();
    };
    // A trailing space ends the last word.
    for &b in header.iter().chain(b" ") {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, _) if b.is_ascii_alphanumeric() || b == b'_' => word.push(b),
            (None, _) => {
                end_word(&mut word, &mut product);
                if b == b'\'' || b == b'"' {
                    quote = Some(b);
                }
            }
        }
    }
    product.is_none()
}

/// `word` read as a Python integer literal (`12`, `1_000`, `0x1F`, `0o7`, `0b1`):
/// `None` when it is not one, `Some(None)` when it is beyond `u64`.
fn python_integer(word: &[u8]) -> Option<Option<u64>> {
    let text = std::str::from_utf8(word).ok()?.replace('_', "");
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = match lower.get(..2) {
        Some("0x") => (&lower[2..], 16),
        Some("0o") => (&lower[2..], 8),
        Some("0b") => (&lower[2..], 2),
        _ => (lower.as_str(), 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(u64::from_str_radix(digits, radix).ok())
}

/// Refuses NaN, ±∞ and values beyond the f32 range, naming the first one's index (in
/// the array's own shape, whatever the file's order).
fn finite(file: &str, data: &[f64], shape: &[usize], order: Order) -> Result<(), BringError> {
    let Some(at) = data
        .iter()
        .position(|x| !x.is_finite() || x.abs() > f64::from(f32::MAX))
    else {
        return Ok(());
    };
    let value = data[at];
    let index = index_of(at, shape, order);
    let what = if value.is_nan() {
        Said::new("NaN", "NaN")
    } else if value.is_infinite() {
        let sign = if value < 0.0 { "-" } else { "" };
        formats::NpyInfinity { sign: &sign }.said()
    } else {
        formats::NpyOutsideF32 {
            value: &format!("{value:e}"),
        }
        .said()
    };
    let said = Said::of(|lang| {
        formats::NpyNotFinite {
            index: &index,
            what: &what.get(lang),
        }
        .say(lang)
    });
    Err(BringError::said(file, said))
}

/// Reads the entries of an `.npz` archive named `file`: each `.npy` entry by its name
/// without `.npy`, and text entries (`tokens.txt`, `tokens.json`) as they are.
pub fn read_npz(file: &str, bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, BringError> {
    let fail = |said: Said| BringError::said(file, said);
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
        fail(Said::of(|lang| {
            formats::NpzUnreadable {
                error: &zip_error(&e, lang),
            }
            .say(lang)
        }))
    })?;
    let mut entries = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| {
            fail(Said::of(|lang| {
                formats::NpzEntryUnreadable {
                    error: &zip_error(&e, lang),
                }
                .say(lang)
            }))
        })?;
        if entry.is_dir() {
            continue;
        }
        let name = entry
            .name()
            .map_err(|e| {
                fail(Said::of(|lang| {
                    formats::NpzEntryName {
                        error: &zip_error(&e, lang),
                    }
                    .say(lang)
                }))
            })?
            .to_string();
        if entry.size() > super::MAX_BRING_BYTES as u64 {
            let (size, limit) = (
                super::megabytes(entry.size()),
                super::megabytes(super::MAX_BRING_BYTES as u64),
            );
            return Err(fail(
                formats::NpzEntryTooLarge {
                    name: &name,
                    size: &size,
                    limit: &limit,
                }
                .said(),
            ));
        }
        let mut data = Vec::with_capacity(entry.size() as usize);
        entry.read_to_end(&mut data).map_err(|e| {
            fail(
                formats::NpzEntryUnpack {
                    name: &name,
                    error: &e,
                }
                .said(),
            )
        })?;
        entries.push((name, data));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_shape() {
        assert_eq!(index_of(0, &[2, 3], Order::C), "[0, 0]");
        assert_eq!(index_of(5, &[2, 3], Order::C), "[1, 2]");
        assert_eq!(index_of(1, &[2, 3], Order::C), "[0, 1]");
        assert_eq!(index_of(1, &[2, 3], Order::Fortran), "[1, 0]");
        assert_eq!(index_of(7, &[2, 2, 2], Order::C), "[1, 1, 1]");
        assert_eq!(shape_text(&[4]), "(4,)");
        assert_eq!(shape_text(&[2, 3]), "(2, 3)");
    }

    #[test]
    fn dimensions_that_multiply_past_u64_are_found() {
        let over = |shape: &str| {
            let header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}");
            dimensions_overflow(header.as_bytes())
        };
        assert!(!over("(2, 3)"));
        assert!(!over("()"));
        assert!(!over("(4294967296, 4294967295)"));
        assert!(over("(4294967296, 4294967296)"));
        assert!(over("(2, 33333333333333333333)"));
        assert!(over("(0x100000000, 0x1_0000_0000)"));
        // Zeros are left out: the reader's strides multiply the other dimensions.
        assert!(over("(0, 4294967296, 4294967296)"));
        // Digits inside quotes are not dimensions.
        assert!(!over("(2, 3), 'x': '99999999999999999999'"));
        // Words that are not integers are left to the reader.
        assert!(!over("(1e30, 2)"));
    }

    #[test]
    fn fortran_data_is_reordered() {
        // [[1, 2, 3], [4, 5, 6]] stored column by column.
        let f = vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0];
        assert_eq!(
            c_order(f, &[2, 3], Order::Fortran),
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
    }
}
