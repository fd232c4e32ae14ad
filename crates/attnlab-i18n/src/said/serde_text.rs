//! What serde and serde_json say of a value or a text they refuse, in Chinese: every
//! message serde_json writes (syntax errors by their class, with the line and column)
//! and every message serde's `de::Error` writes (`invalid type: …, expected …`, a
//! missing or repeated field…), read back from its English, which is the same on every
//! platform. The English stays serde's own; a message of no known form is said in
//! general words rather than left in English.
//!
//! Both languages are in the catalogue (`locales/*/serde.ftl`): the English of each
//! message is serde's wording, which is what is read back here (a fixed message is
//! matched by its English; the words around a value are the English message's own).

use crate::msg::serde as m;
use crate::said::Said;
use crate::{Lang, Tr};

/// serde_json's message without its ` at line L column C`.
pub fn bare(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = m::SerdeAtPlace {
        what: &"",
        line: &e.line(),
        column: &e.column(),
    }
    .say(Lang::En);
    match text.strip_suffix(&place) {
        Some(bare) => bare.to_string(),
        None => text,
    }
}

/// Why serde_json cannot read a text, in Chinese, with the place: `第 1 行第 5 列：此处应为一个值`.
pub fn json_zh(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Io => m::SERDE_IO.zh.to_string(),
        Category::Syntax | Category::Eof | Category::Data => message_zh(&bare(e)),
    };
    match (e.line(), e.column()) {
        (0, _) => what,
        (line, column) => m::SerdeAtPlace {
            what: &what,
            line: &line,
            column: &column,
        }
        .say(Lang::Zh),
    }
}

/// serde_json's error in `lang`, with the line and column (English: serde_json's own).
pub fn json_in(e: &serde_json::Error, lang: Lang) -> String {
    match lang {
        Lang::En => e.to_string(),
        Lang::Zh => json_zh(e),
    }
}

/// serde_json's error in both languages, each with the line and column.
pub fn json_error(e: &serde_json::Error) -> Said {
    Said::new(e.to_string(), json_zh(e))
}

/// The syntax errors of serde_json (its `ErrorCode`s), in English as it writes them and
/// in Chinese.
pub const SYNTAX: &[Tr] = &[
    m::SERDE_EOF_LIST,
    m::SERDE_EOF_OBJECT,
    m::SERDE_EOF_STRING,
    m::SERDE_EOF_VALUE,
    m::SERDE_EXPECTED_COLON,
    m::SERDE_EXPECTED_LIST_COMMA,
    m::SERDE_EXPECTED_OBJECT_COMMA,
    m::SERDE_EXPECTED_IDENT,
    m::SERDE_EXPECTED_VALUE,
    m::SERDE_EXPECTED_QUOTE,
    m::SERDE_INVALID_ESCAPE,
    m::SERDE_INVALID_NUMBER,
    m::SERDE_NUMBER_OUT_OF_RANGE,
    m::SERDE_INVALID_CODE_POINT,
    m::SERDE_CONTROL_CHARACTER,
    m::SERDE_KEY_NOT_STRING,
    m::SERDE_KEY_NOT_NUMBER,
    m::SERDE_FLOAT_KEY,
    m::SERDE_LONE_SURROGATE,
    m::SERDE_TRAILING_COMMA,
    m::SERDE_TRAILING_CHARACTERS,
    m::SERDE_HEX_ESCAPE_END,
    m::SERDE_RECURSION_LIMIT,
];

/// What serde found, said without a value (its `Unexpected`, as serde_json writes it).
const FOUND: &[Tr] = &[
    m::SERDE_FOUND_BYTES,
    m::SERDE_FOUND_UNIT,
    m::SERDE_FOUND_NULL,
    m::SERDE_FOUND_OPTION,
    m::SERDE_FOUND_NEWTYPE_STRUCT,
    m::SERDE_FOUND_SEQUENCE,
    m::SERDE_FOUND_MAP,
    m::SERDE_FOUND_ENUM,
    m::SERDE_FOUND_UNIT_VARIANT,
    m::SERDE_FOUND_NEWTYPE_VARIANT,
    m::SERDE_FOUND_TUPLE_VARIANT,
    m::SERDE_FOUND_STRUCT_VARIANT,
    m::SERDE_FOUND_NUMBER,
];

/// What serde expected, said as it is (a type, or a `Visitor`'s `expecting`).
const EXPECTED: &[Tr] = &[
    m::SERDE_EXPECTED_F32,
    m::SERDE_EXPECTED_F64,
    m::SERDE_EXPECTED_A_NUMBER,
    m::SERDE_EXPECTED_SINUSOID_BASE,
    m::SERDE_EXPECTED_U8,
    m::SERDE_EXPECTED_U16,
    m::SERDE_EXPECTED_U32,
    m::SERDE_EXPECTED_U64,
    m::SERDE_EXPECTED_USIZE,
    m::SERDE_EXPECTED_NON_NEGATIVE_INTEGER,
    m::SERDE_EXPECTED_I8,
    m::SERDE_EXPECTED_I16,
    m::SERDE_EXPECTED_I32,
    m::SERDE_EXPECTED_I64,
    m::SERDE_EXPECTED_ISIZE,
    m::SERDE_EXPECTED_AN_INTEGER,
    m::SERDE_EXPECTED_A_BOOLEAN,
    m::SERDE_EXPECTED_A_STRING,
    m::SERDE_EXPECTED_A_BORROWED_STRING,
    m::SERDE_EXPECTED_A_CHARACTER,
    m::SERDE_EXPECTED_A_SEQUENCE,
    m::SERDE_EXPECTED_A_MAP,
    m::SERDE_EXPECTED_AN_OBJECT,
    m::SERDE_EXPECTED_UNIT,
    m::SERDE_EXPECTED_VARIANT_IDENTIFIER,
    m::SERDE_EXPECTED_FIELD_IDENTIFIER,
];

/// The entries of an array serde expected (`an array of numbers`).
const ENTRIES: &[Tr] = &[
    m::SERDE_ENTRIES_NUMBERS,
    m::SERDE_ENTRIES_NON_NEGATIVE_INTEGERS,
    m::SERDE_ENTRIES_BOOLEANS,
    m::SERDE_ENTRIES_STRINGS,
    m::SERDE_ENTRIES_ROWS,
    m::SERDE_ENTRIES_HEADS,
];

/// The fixed message of `list` whose English is `en`, in Chinese.
fn fixed(list: &[Tr], en: &str) -> Option<String> {
    list.iter().find(|t| t.en == en).map(|t| t.zh.to_string())
}

/// A value in a message's English: serde's text around it is what precedes (and
/// follows) it there.
const MARK: &str = "\u{0}";

/// The English of a message with its one value marked, split at the value: the words
/// before and after it.
fn around(english: String) -> (String, String) {
    match english.split_once(MARK) {
        Some((before, after)) => (before.to_string(), after.to_string()),
        None => (english, String::new()),
    }
}

/// `text` without the words `english` writes before its value.
fn after_lead(text: &str, english: String) -> Option<&str> {
    text.strip_prefix(around(english).0.as_str())
}

/// serde's separator between what it found and what it expected: `, expected `.
fn expected_separator() -> String {
    let english = m::SerdeInvalidType {
        found: &MARK,
        expected: &MARK,
    }
    .say(Lang::En);
    english.split(MARK).nth(1).unwrap_or_default().to_string()
}

/// A message of serde_json (without its place) or of serde's `de::Error`, in Chinese.
pub fn message_zh(en: &str) -> String {
    if let Some(zh) = fixed(SYNTAX, en) {
        return zh;
    }
    let zh = Lang::Zh;
    let sep = expected_separator();
    let sep = sep.as_str();
    // `what: found, expected …`, the found value and what was expected in Chinese.
    let found_expected =
        |rest: &str, full: fn(&str, &str) -> String, bare: fn(&str) -> String| match rest
            .rsplit_once(sep)
        {
            Some((found, expected)) => match expected_zh(expected) {
                Some(exp) => full(&unexpected_zh(found), &exp),
                None => bare(&unexpected_zh(found)),
            },
            None => bare(&unexpected_zh(rest)),
        };
    // `what name, expected …`: the name kept as it is.
    let named = |rest: &str, full: fn(&str, &str) -> String, bare: fn(&str) -> String| {
        let (name, tail) = rest.split_once(", ").unwrap_or((rest, ""));
        match format!(", {tail}").strip_prefix(sep).and_then(expected_zh) {
            Some(exp) => full(name, &exp),
            None => bare(name),
        }
    };
    let lead = |english: String| after_lead(en, english);
    if let Some(rest) = lead(m::SerdeInvalidTypeFound { found: &MARK }.say(Lang::En)) {
        found_expected(
            rest,
            |found, expected| {
                m::SerdeInvalidType {
                    found: &found,
                    expected: &expected,
                }
                .say(Lang::Zh)
            },
            |found| m::SerdeInvalidTypeFound { found: &found }.say(Lang::Zh),
        )
    } else if let Some(rest) = lead(m::SerdeInvalidValueFound { found: &MARK }.say(Lang::En)) {
        found_expected(
            rest,
            |found, expected| {
                m::SerdeInvalidValue {
                    found: &found,
                    expected: &expected,
                }
                .say(Lang::Zh)
            },
            |found| m::SerdeInvalidValueFound { found: &found }.say(Lang::Zh),
        )
    } else if let Some(rest) = lead(m::SerdeInvalidLengthLen { len: &MARK }.say(Lang::En)) {
        match rest.split_once(sep) {
            Some((len, expected)) => match expected_zh(expected) {
                Some(exp) => m::SerdeInvalidLength {
                    len: &len,
                    expected: &exp,
                }
                .say(zh),
                None => m::SerdeInvalidLengthLen { len: &len }.say(zh),
            },
            None => m::SERDE_INVALID_LENGTH_BARE.zh.into(),
        }
    } else if let Some(rest) = lead(m::SerdeUnknownVariantName { name: &MARK }.say(Lang::En)) {
        named(
            rest,
            |name, expected| {
                m::SerdeUnknownVariant {
                    name: &name,
                    expected: &expected,
                }
                .say(Lang::Zh)
            },
            |name| m::SerdeUnknownVariantName { name: &name }.say(Lang::Zh),
        )
    } else if let Some(rest) = lead(m::SerdeUnknownFieldName { name: &MARK }.say(Lang::En)) {
        named(
            rest,
            |name, expected| {
                m::SerdeUnknownField {
                    name: &name,
                    expected: &expected,
                }
                .say(Lang::Zh)
            },
            |name| m::SerdeUnknownFieldName { name: &name }.say(Lang::Zh),
        )
    } else if let Some(field) = lead(m::SerdeMissingField { field: &MARK }.say(Lang::En)) {
        m::SerdeMissingField { field: &field }.say(zh)
    } else if let Some(field) = lead(m::SerdeDuplicateField { field: &MARK }.say(Lang::En)) {
        m::SerdeDuplicateField { field: &field }.say(zh)
    } else if let Some(number) = outside_f32(en) {
        m::SerdeOutsideF32 { number: &number }.say(zh)
    } else {
        m::SERDE_NOT_VALID.zh.into()
    }
}

/// The number of attnlab's refusal of a value beyond f32 (`is 1e39, outside the f32
/// range …`).
fn outside_f32(en: &str) -> Option<&str> {
    let (before, after) = around(m::SerdeOutsideF32 { number: &MARK }.say(Lang::En));
    en.strip_prefix(before.as_str())?
        .strip_suffix(after.as_str())
}

/// What serde found (its `Unexpected`, as serde_json writes it), in Chinese.
fn unexpected_zh(found: &str) -> String {
    let zh = Lang::Zh;
    let value = |english: String| after_lead(found, english);
    if value(m::SERDE_FOUND_TRUE.en.replace("`true`", MARK)).is_some() {
        let said = if found == m::SERDE_FOUND_TRUE.en {
            m::SERDE_FOUND_TRUE
        } else {
            m::SERDE_FOUND_FALSE
        };
        return said.zh.into();
    }
    if let Some(i) = value(m::SerdeFoundInteger { value: &MARK }.say(Lang::En)) {
        return m::SerdeFoundInteger { value: &i }.say(zh);
    }
    if let Some(f) = value(m::SerdeFoundFloat { value: &MARK }.say(Lang::En)) {
        return m::SerdeFoundFloat { value: &f }.say(zh);
    }
    if let Some(c) = value(m::SerdeFoundChar { value: &MARK }.say(Lang::En)) {
        return m::SerdeFoundChar { value: &c }.say(zh);
    }
    if let Some(s) = value(m::SerdeFoundString { value: &MARK }.say(Lang::En)) {
        return m::SerdeFoundString { value: &s }.say(zh);
    }
    fixed(FOUND, found).unwrap_or_else(|| m::SERDE_FOUND_OTHER.zh.into())
}

/// What serde expected (a `Visitor`'s `expecting`, the built-in types' and attnlab's
/// own), in Chinese; `None` for a form not known here.
fn expected_zh(expected: &str) -> Option<String> {
    let zh = Lang::Zh;
    if let Some(said) = fixed(EXPECTED, expected) {
        return Some(said);
    }
    if after_lead(
        expected,
        m::SerdeExpectedStruct { name: &MARK }.say(Lang::En),
    )
    .is_some()
    {
        return Some(m::SerdeExpectedStruct { name: &"" }.say(zh));
    }
    if let Some(rest) = after_lead(
        expected,
        m::SerdeExpectedArrayOf { entries: &MARK }.say(Lang::En),
    ) {
        let Some(entries) = fixed(ENTRIES, rest) else {
            return Some(m::SERDE_EXPECTED_AN_ARRAY.zh.into());
        };
        return Some(m::SerdeExpectedArrayOf { entries: &entries }.say(zh));
    }
    let sized = [
        around(m::SerdeExpectedTupleSize { n: &MARK }.say(Lang::En)),
        around(m::SerdeExpectedTupleOf { n: &MARK }.say(Lang::En)),
        around(m::SerdeExpectedArrayLength { n: &MARK }.say(Lang::En)),
    ];
    for (before, after) in &sized {
        if let Some(n) = expected
            .strip_prefix(before.as_str())
            .map(|r| r.trim_end_matches(after.as_str()))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            return Some(m::SerdeExpectedTupleSize { n: &n }.say(zh));
        }
    }
    if let Some(names) = after_lead(
        expected,
        m::SerdeExpectedOneOf { names: &MARK }.say(Lang::En),
    ) {
        return Some(
            m::SerdeExpectedOneOf {
                names: &names.replace(", ", "\u{3001}"),
            }
            .say(zh),
        );
    }
    let (_, or) = around(m::SerdeExpectedEither { a: &MARK, b: &"" }.say(Lang::En));
    if let Some((a, b)) = expected.split_once(or.as_str())
        && a.starts_with('`')
        && b.starts_with('`')
    {
        return Some(m::SerdeExpectedEither { a: &a, b: &b }.say(zh));
    }
    if expected.starts_with('`') && expected.ends_with('`') && expected.len() > 1 {
        return Some(expected.to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::latin_words;
    use serde::de::{Error, Unexpected};

    fn de(e: serde_json::Error) -> String {
        message_zh(&bare(&e))
    }

    #[test]
    fn every_syntax_error_of_serde_json_is_said_in_chinese() {
        for t in SYNTAX {
            assert_eq!(message_zh(t.en), t.zh);
            assert!(latin_words(t.zh).is_empty(), "{}", t.zh);
        }
        for text in [
            "{",
            "[1,",
            "{\"a\" 1}",
            "[1 2]",
            "{\"a\":1 \"b\":2}",
            "tru",
            "",
            "\"\\x\"",
            "01",
            "{1:2}",
            "[1,]",
            "[1] 2",
            "\"\\ud800\"",
            "\"a\u{1}\"",
            "-",
        ] {
            let e = serde_json::from_str::<serde_json::Value>(text)
                .expect_err(&format!("{text:?} is not JSON"));
            let zh = json_zh(&e);
            assert!(
                !zh.contains("内容不合法") && latin_words(&zh).is_empty(),
                "{text:?}: {e} → {zh}"
            );
            assert!(zh.starts_with(&format!("第 {} 行第 {} 列：", e.line(), e.column())));
        }
        let e = serde_json::from_str::<serde_json::Value>("[1,\n 2,\n x]").unwrap_err();
        assert_eq!(json_zh(&e), "第 3 行第 2 列：此处应为一个值");
    }

    #[test]
    fn the_english_of_the_catalogue_is_what_serde_writes() {
        let en = Lang::En;
        let cases = [
            (
                serde_json::Error::invalid_type(Unexpected::Bool(true), &"a string"),
                m::SerdeInvalidType {
                    found: &m::SERDE_FOUND_TRUE.en,
                    expected: &m::SERDE_EXPECTED_A_STRING.en,
                }
                .say(en),
            ),
            (
                serde_json::Error::invalid_value(Unexpected::Signed(-1), &"u64"),
                m::SerdeInvalidValue {
                    found: &m::SerdeFoundInteger { value: &"`-1`" }.say(en),
                    expected: &m::SERDE_EXPECTED_U64.en,
                }
                .say(en),
            ),
            (
                serde_json::Error::invalid_length(1, &"a tuple of size 2"),
                m::SerdeInvalidLength {
                    len: &1,
                    expected: &m::SerdeExpectedTupleSize { n: &2 }.say(en),
                }
                .say(en),
            ),
            (
                serde_json::Error::missing_field("a"),
                m::SerdeMissingField { field: &"`a`" }.say(en),
            ),
            (
                serde_json::Error::duplicate_field("a"),
                m::SerdeDuplicateField { field: &"`a`" }.say(en),
            ),
            (
                serde_json::Error::unknown_field("b", &["a", "c", "d"]),
                m::SerdeUnknownField {
                    name: &"`b`",
                    expected: &m::SerdeExpectedOneOf {
                        names: &"`a`, `c`, `d`",
                    }
                    .say(en),
                }
                .say(en),
            ),
            (
                serde_json::Error::unknown_variant("x", &["y", "z"]),
                m::SerdeUnknownVariant {
                    name: &"`x`",
                    expected: &m::SerdeExpectedEither {
                        a: &"`y`",
                        b: &"`z`",
                    }
                    .say(en),
                }
                .say(en),
            ),
        ];
        for (e, said) in cases {
            assert_eq!(e.to_string(), said);
            assert!(!message_zh(&said).contains(m::SERDE_NOT_VALID.zh), "{said}");
        }
        let e = serde_json::from_str::<serde_json::Value>("[1,\n 2,\n x]").unwrap_err();
        assert_eq!(
            e.to_string(),
            m::SerdeAtPlace {
                what: &m::SERDE_EXPECTED_VALUE.en,
                line: &3,
                column: &2
            }
            .say(en)
        );
    }

    #[test]
    fn every_kind_of_unexpected_value_is_said_in_chinese() {
        let all = [
            Unexpected::Bool(true),
            Unexpected::Unsigned(1),
            Unexpected::Signed(-1),
            Unexpected::Float(1.5),
            Unexpected::Char('x'),
            Unexpected::Str("x"),
            Unexpected::Bytes(b"x"),
            Unexpected::Unit,
            Unexpected::Option,
            Unexpected::NewtypeStruct,
            Unexpected::Seq,
            Unexpected::Map,
            Unexpected::Enum,
            Unexpected::UnitVariant,
            Unexpected::NewtypeVariant,
            Unexpected::TupleVariant,
            Unexpected::StructVariant,
            Unexpected::Other("number"),
        ];
        for u in all {
            for e in [
                serde_json::Error::invalid_type(u, &"a string"),
                serde_json::Error::invalid_value(u, &"a non-negative integer"),
            ] {
                let zh = message_zh(&e.to_string());
                assert!(
                    !zh.contains("其他值") && latin_words(&zh).is_empty(),
                    "{e} → {zh}"
                );
            }
        }
    }

    #[test]
    fn what_serde_expected_is_said_in_chinese() {
        for expected in [
            "f32",
            "f64",
            "u64",
            "u32",
            "i64",
            "a boolean",
            "a string",
            "a sequence",
            "a map",
            "an object",
            "a non-negative integer",
            "the sinusoid base as a number",
            "an array of numbers",
            "an array of non-negative integers",
            "an array of true/false values",
            "an array of strings",
            "an array of rows",
            "an array of heads",
            "struct Wire",
            "a tuple of size 2",
            "tuple of 4 elements",
            "an array of length 3",
            "variant identifier",
        ] {
            let zh = expected_zh(expected).unwrap_or_else(|| panic!("{expected}"));
            assert!(latin_words(&zh).is_empty(), "{expected} → {zh}");
        }
        assert_eq!(expected_zh("something new"), None);
        assert_eq!(
            message_zh("invalid type: sequence, expected something new"),
            "类型不对：是数组"
        );
    }

    #[test]
    fn the_fields_and_names_serde_reports_keep_their_names() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct S {
            a: u64,
            kind: Kind,
            pair: (u8, u8),
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            One,
            Two,
            Three,
        }
        let cases = [
            (r#"{"kind":"one","pair":[1,2]}"#, "缺少字段 `a`"),
            (
                r#"{"a":1,"a":2,"kind":"one","pair":[1,2]}"#,
                "字段 `a` 出现了两次",
            ),
            (
                r#"{"a":1,"b":2}"#,
                "未知的字段 `b`，应为以下之一：`a`、`kind`、`pair`",
            ),
            (
                r#"{"a":1,"kind":"four"}"#,
                "未知的名称 `four`，应为以下之一：`one`、`two`、`three`",
            ),
            (
                r#"{"a":1,"kind":"one","pair":[1]}"#,
                "长度为 1，应为含 2 个元素的数组",
            ),
            (r#"{"a":-1}"#, "值不合法：是整数 `-1`，应为非负整数"),
            (r#"{"a":"x"}"#, "类型不对：是字符串 \"x\"，应为非负整数"),
            (r#"{"a":null}"#, "类型不对：是空值，应为非负整数"),
            (r#"{"a":1.5}"#, "类型不对：是浮点数 `1.5`，应为非负整数"),
            (r#"[true]"#, "类型不对：是布尔值（真），应为非负整数"),
            (r#"{"a":false}"#, "类型不对：是布尔值（假），应为非负整数"),
        ];
        for (text, zh) in cases {
            let e = serde_json::from_str::<S>(text).unwrap_err();
            assert_eq!(de(e), zh, "{text}");
        }
    }
}
