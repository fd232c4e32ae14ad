//! A link's JSON made readable before it is parsed: characters that no `String` can hold
//! become U+FFFD, so one bad character costs that character, not the whole text.
//!
//! Three things a hand-edited or foreign link can carry that `serde_json` refuses:
//!
//! - bytes that are not UTF-8, among them an unpaired surrogate written as UTF-8 would
//!   write it (`ED A0 80` for U+D800, as some encoders do): each sequence becomes one U+FFFD;
//! - a `\uD800`-style escape of a surrogate without its other half: it becomes `\uFFFD`;
//! - a control character written raw inside a string (a NUL byte): it is escaped
//!   (`\u0000`), so the string parses and the state's repair decides what it shows
//!   ([`LabState::repair`](attnlab_lab::state::LabState::repair) shows control characters as U+FFFD).

/// The JSON text `json` with every unreadable character replaced (see the module), and
/// how many were replaced.
pub(super) fn readable_json(json: &[u8]) -> (String, usize) {
    let mut replaced = 0;
    let mut text = String::with_capacity(json.len());
    let mut rest = json;
    // UTF-8's encoding of a surrogate, ED A0..BF 80..BF: one character, one U+FFFD
    // (`utf8_chunks` would give three).
    while let Some(at) = surrogate_bytes(rest) {
        replaced += push_lossy(&mut text, &rest[..at]);
        text.push('\u{FFFD}');
        replaced += 1;
        rest = &rest[at + 3..];
    }
    replaced += push_lossy(&mut text, rest);
    let (text, escapes) = escape_strings(&text);
    (text, replaced + escapes)
}

/// Where the first UTF-8-encoded surrogate starts in `bytes`.
fn surrogate_bytes(bytes: &[u8]) -> Option<usize> {
    bytes.windows(3).position(|w| {
        w[0] == 0xED && (0xA0..=0xBF).contains(&w[1]) && (0x80..=0xBF).contains(&w[2])
    })
}

/// Appends `bytes` to `text`, each invalid sequence as U+FFFD; returns how many.
fn push_lossy(text: &mut String, bytes: &[u8]) -> usize {
    let mut replaced = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push('\u{FFFD}');
            replaced += 1;
        }
    }
    replaced
}

/// Inside every JSON string of `text`: raw control characters escaped, escapes of lone
/// surrogates replaced by `\uFFFD` (counted). Outside strings nothing changes.
fn escape_strings(text: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut replaced = 0;
    let mut in_string = false;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !in_string {
            in_string = c == '"';
            out.push(c);
            continue;
        }
        match c {
            '"' => {
                in_string = false;
                out.push(c);
            }
            '\\' => match surrogate_escape(&text[at..]) {
                Some(Escape::Pair) => {
                    out.push_str(&text[at..at + 12]);
                    skip(&mut chars, 11);
                }
                Some(Escape::Lone) => {
                    out.push_str("\\uFFFD");
                    replaced += 1;
                    skip(&mut chars, 5);
                }
                None => {
                    out.push(c);
                    if let Some((_, next)) = chars.next() {
                        out.push(next);
                    }
                }
            },
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    (out, replaced)
}

enum Escape {
    /// `\uD83D\uDE00`: a high surrogate followed by a low one (12 ASCII bytes).
    Pair,
    /// A surrogate escape without its other half (6 ASCII bytes).
    Lone,
}

/// Whether `text` (starting at a backslash inside a string) is the escape of a surrogate.
fn surrogate_escape(text: &str) -> Option<Escape> {
    let unit = |s: &str| {
        let hex = s.strip_prefix("\\u")?.get(..4)?;
        u16::from_str_radix(hex, 16).ok()
    };
    let first = unit(text)?;
    match first {
        0xD800..=0xDBFF => match text.get(6..).and_then(unit) {
            Some(0xDC00..=0xDFFF) => Some(Escape::Pair),
            _ => Some(Escape::Lone),
        },
        0xDC00..=0xDFFF => Some(Escape::Lone),
        _ => None,
    }
}

fn skip(chars: &mut impl Iterator<Item = (usize, char)>, n: usize) {
    for _ in 0..n {
        chars.next();
    }
}

#[cfg(test)]
mod tests {
    use super::readable_json;

    fn read(json: &[u8]) -> (String, usize) {
        let (text, n) = readable_json(json);
        let value: serde_json::Value = serde_json::from_str(&text).expect("readable JSON");
        (value["t"].as_str().unwrap().to_string(), n)
    }

    #[test]
    fn a_nul_and_a_lone_surrogate_cost_one_character_each() {
        // The raw bytes: NUL, and U+D800 as UTF-8 would write it.
        assert_eq!(
            read(b"{\"t\":\"a\x00b\xED\xA0\x80c\"}"),
            ("a\u{0}b\u{FFFD}c".into(), 1)
        );
        // The JSON escape of a lone surrogate, high or low.
        assert_eq!(
            read(br#"{"t":"a\u0000b\ud800c"}"#),
            ("a\u{0}b\u{FFFD}c".into(), 1)
        );
        assert_eq!(
            read(br#"{"t":"\uDC00x\uD800"}"#),
            ("\u{FFFD}x\u{FFFD}".into(), 2)
        );
        // Bytes that are not UTF-8 at all.
        assert_eq!(
            read(b"{\"t\":\"a\xFFb\xC3\"}"),
            ("a\u{FFFD}b\u{FFFD}".into(), 2)
        );
    }

    #[test]
    fn good_json_is_unchanged() {
        for json in [
            r#"{"t":"a \"quoted\" \\ word \uD83D\uDE00 😀 中文","s":"x","d":64}"#,
            "{\n\t\"t\": \"line\\nbreak\"\r\n}",
            r#"{"t":"ends with a backslash \\"}"#,
            "{}",
        ] {
            assert_eq!(
                readable_json(json.as_bytes()),
                (json.to_string(), 0),
                "{json}"
            );
        }
    }

    #[test]
    fn cut_json_stays_cut() {
        // A link cut inside an escape: nothing to replace, the parser reports the cut.
        let cut: [&[u8]; 4] = [
            br#"{"t":"a\"#,
            br#"{"t":"a\u00"#,
            br#"{"t":"a\uD800\u"#,
            b"{\"t\":\"a\xED\xA0",
        ];
        for json in cut {
            let (text, _) = readable_json(json);
            assert!(
                serde_json::from_str::<serde_json::Value>(&text).is_err(),
                "{text}"
            );
        }
    }
}
