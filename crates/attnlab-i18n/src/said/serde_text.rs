//! What serde and serde_json say of a value or a text they refuse, in Chinese: every
//! message serde_json writes (syntax errors by their class, with the line and column)
//! and every message serde's `de::Error` writes (`invalid type: …, expected …`, a
//! missing or repeated field…), read back from its English, which is the same on every
//! platform. The English stays serde's own; a message of no known form is said in
//! general words rather than left in English.

use crate::said::Said;

/// serde_json's message without its ` at line L column C`.
pub fn bare(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&place) {
        Some(bare) => bare.to_string(),
        None => text,
    }
}

/// Why serde_json cannot read a text, in Chinese, with the place: `第 1 行第 5 列：此处应为一个值`.
pub fn json_zh(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Io => "读取文本时出错".to_string(),
        Category::Syntax | Category::Eof | Category::Data => message_zh(&bare(e)),
    };
    match (e.line(), e.column()) {
        (0, _) => what,
        (line, column) => format!("第 {line} 行第 {column} 列：{what}"),
    }
}

/// serde_json's error in both languages, each with the line and column.
pub fn json_error(e: &serde_json::Error) -> Said {
    Said::new(e.to_string(), json_zh(e))
}

/// The syntax errors of serde_json (its `ErrorCode`s), in English as it writes them and
/// in Chinese.
pub const SYNTAX: &[(&str, &str)] = &[
    ("EOF while parsing a list", "数组还没有结束，文本就结束了"),
    (
        "EOF while parsing an object",
        "对象还没有结束，文本就结束了",
    ),
    (
        "EOF while parsing a string",
        "字符串还没有结束，文本就结束了",
    ),
    ("EOF while parsing a value", "应有一个值，文本却结束了"),
    ("expected `:`", "此处应为冒号"),
    ("expected `,` or `]`", "此处应为逗号或右方括号"),
    ("expected `,` or `}`", "此处应为逗号或右花括号"),
    ("expected ident", "此处的字面量拼写有误"),
    ("expected value", "此处应为一个值"),
    ("expected `\"`", "此处应为双引号"),
    ("invalid escape", "转义序列不合法"),
    ("invalid number", "数字的写法不合法"),
    ("number out of range", "数字超出范围"),
    ("invalid unicode code point", "字符的码位不合法"),
    (
        "control character (\\u0000-\\u001F) found while parsing a string",
        "字符串中有控制字符（U+0000 至 U+001F）",
    ),
    ("key must be a string", "键名必须是字符串"),
    (
        "invalid value: expected key to be a number in quotes",
        "键名应为带引号的数字",
    ),
    (
        "float key must be finite (got NaN or +/-inf)",
        "浮点数键名必须是有限数",
    ),
    (
        "lone leading surrogate in hex escape",
        "十六进制转义中有孤立的代理项",
    ),
    ("trailing comma", "末尾多了一个逗号"),
    ("trailing characters", "值的后面还有多余的字符"),
    ("unexpected end of hex escape", "十六进制转义没有写完"),
    ("recursion limit exceeded", "嵌套的层数超过上限"),
];

/// A message of serde_json (without its place) or of serde's `de::Error`, in Chinese.
pub fn message_zh(en: &str) -> String {
    if let Some((_, zh)) = SYNTAX.iter().find(|(e, _)| *e == en) {
        return (*zh).to_string();
    }
    let found_expected = |rest: &str, what: &str| match rest.rsplit_once(", expected ") {
        Some((found, expected)) => match expected_zh(expected) {
            Some(exp) => format!("{what}：是{}，应为{exp}", unexpected_zh(found)),
            None => format!("{what}：是{}", unexpected_zh(found)),
        },
        None => format!("{what}：是{}", unexpected_zh(rest)),
    };
    let named = |rest: &str, what: &str| -> String {
        let (name, tail) = rest.split_once(", ").unwrap_or((rest, ""));
        match tail.strip_prefix("expected ").and_then(expected_zh) {
            Some(exp) => format!("{what} {name}，应为{exp}"),
            None => format!("{what} {name}"),
        }
    };
    if let Some(rest) = en.strip_prefix("invalid type: ") {
        found_expected(rest, "类型不对")
    } else if let Some(rest) = en.strip_prefix("invalid value: ") {
        found_expected(rest, "值不合法")
    } else if let Some(rest) = en.strip_prefix("invalid length ") {
        match rest.split_once(", expected ") {
            Some((len, expected)) => match expected_zh(expected) {
                Some(exp) => format!("长度为 {len}，应为{exp}"),
                None => format!("长度 {len} 不对"),
            },
            None => "长度不对".into(),
        }
    } else if let Some(rest) = en.strip_prefix("unknown variant ") {
        named(rest, "未知的名称")
    } else if let Some(rest) = en.strip_prefix("unknown field ") {
        named(rest, "未知的字段")
    } else if let Some(field) = en.strip_prefix("missing field ") {
        format!("缺少字段 {field}")
    } else if let Some(field) = en.strip_prefix("duplicate field ") {
        format!("字段 {field} 出现了两次")
    } else if let Some(rest) = en.strip_prefix("is ")
        && let Some(number) = rest.strip_suffix(", outside the f32 range (|x| \u{2264} 3.4e38)")
    {
        format!("为 {number}，超出 f32 的范围（|x| \u{2264} 3.4e38）")
    } else {
        "内容不合法".into()
    }
}

/// What serde found (its `Unexpected`, as serde_json writes it), in Chinese.
fn unexpected_zh(found: &str) -> String {
    let quoted = |prefix: &str| found.strip_prefix(prefix).map(str::to_string);
    if let Some(b) = quoted("boolean ") {
        return match b.as_str() {
            "`true`" => "布尔值（真）",
            _ => "布尔值（假）",
        }
        .into();
    }
    if let Some(i) = quoted("integer ") {
        return format!("整数 {i}");
    }
    if let Some(f) = quoted("floating point ") {
        return format!("浮点数 {f}");
    }
    if let Some(c) = quoted("character ") {
        return format!("字符 {c}");
    }
    if let Some(s) = quoted("string ") {
        return format!("字符串 {s}");
    }
    match found {
        "byte array" => "字节数组",
        "unit value" | "null" => "空值",
        "Option value" => "可选值",
        "newtype struct" => "结构体",
        "sequence" => "数组",
        "map" => "对象",
        "enum" => "枚举",
        "unit variant" | "newtype variant" | "tuple variant" | "struct variant" => "枚举的一种",
        "number" => "数",
        _ => "其他值",
    }
    .to_string()
}

/// What serde expected (a `Visitor`'s `expecting`, the built-in types' and attnlab's
/// own), in Chinese; `None` for a form not known here.
fn expected_zh(expected: &str) -> Option<String> {
    let fixed = match expected {
        "f32" | "f64" | "a number" | "the sinusoid base as a number" => Some("数"),
        "u8" | "u16" | "u32" | "u64" | "usize" | "a non-negative integer" => Some("非负整数"),
        "i8" | "i16" | "i32" | "i64" | "isize" | "an integer" => Some("整数"),
        "a boolean" => Some("布尔值"),
        "a string" | "a borrowed string" => Some("字符串"),
        "a character" => Some("字符"),
        "a sequence" => Some("数组"),
        "a map" | "an object" => Some("对象"),
        "unit" => Some("空值"),
        "variant identifier" | "field identifier" => Some("名称"),
        _ => None,
    };
    if let Some(zh) = fixed {
        return Some(zh.to_string());
    }
    if expected.starts_with("struct ") {
        return Some("对象".into());
    }
    if let Some(rest) = expected.strip_prefix("an array of ") {
        let entries = match rest {
            "numbers" => "数",
            "non-negative integers" => "非负整数",
            "true/false values" => "布尔值",
            "strings" => "字符串",
            "rows" => "行（数组）",
            "heads" => "头（对象）",
            _ => return Some("数组".into()),
        };
        return Some(format!("元素为{entries}的数组"));
    }
    for prefix in ["a tuple of size ", "tuple of ", "an array of length "] {
        if let Some(n) = expected
            .strip_prefix(prefix)
            .map(|r| r.trim_end_matches(" elements"))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            return Some(format!("含 {n} 个元素的数组"));
        }
    }
    if let Some(names) = expected.strip_prefix("one of ") {
        return Some(format!("以下之一：{}", names.replace(", ", "、")));
    }
    if let Some((a, b)) = expected.split_once(" or ")
        && a.starts_with('`')
        && b.starts_with('`')
    {
        return Some(format!("{a} 或 {b}"));
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
        for (en, zh) in SYNTAX {
            assert_eq!(message_zh(en), *zh);
            assert!(latin_words(zh).is_empty(), "{zh}");
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
