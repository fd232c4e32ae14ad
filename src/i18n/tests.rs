//! Every sentence a person reads is in the message catalogue
//! (`crates/attnlab-i18n/locales/{en,zh}/*.ftl`), whose build checks that both languages
//! say it: no Rust source of the app or of a crate holds Chinese text outside its tests,
//! but the sample inputs a person edits and the names that are not sentences.

use std::path::{Path, PathBuf};

/// Chinese literals that are not messages: sample inputs (the sentences the lab and the
/// CLI open with), the language's own name, and a tokenizer's vocabulary entries.
const NOT_MESSAGES: &[&str] = &[
    // The lab's first sentence in 中文, the cross-attention source, the real-model page's
    // sentence pair (attnlab-lab's state, the sentence examples, the pair panel).
    "小猫坐在垫子上，因为它很累。",
    "我爱机器学习",
    "我的猫喜欢吃鱼",
    // The language's own name, as its switch shows it in every language.
    "中文",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") && !name.ends_with("tests.rs") && name != "test.rs" {
            out.push(path);
        }
    }
}

/// Every string literal of `src` (raw strings too), with the line it starts on; comments
/// are skipped, so a doc comment's example is not a literal.
fn literals(src: &str) -> Vec<(usize, String)> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line = |at: usize| src[..at].matches('\n').count() + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = src[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
            }
            // A char literal ('"', '\'', '中') is not a string's start; a lifetime is no literal.
            b'\'' => {
                let rest = &src[i + 1..];
                let mut chars = rest.char_indices();
                match chars.next() {
                    Some((_, '\\')) => {
                        i +=
                            1 + rest.find('\'').map_or(rest.len(), |e| {
                                // '\'' itself: the quote after the backslash is escaped.
                                if e == 1 {
                                    2 + rest[2..].find('\'').unwrap_or(0)
                                } else {
                                    e
                                }
                            }) + 1;
                    }
                    Some((_, c)) if rest[c.len_utf8()..].starts_with('\'') => {
                        i += 1 + c.len_utf8() + 1;
                    }
                    _ => i += 1,
                }
            }
            b'r' if (src[i..].starts_with("r\"") || src[i..].starts_with("r#"))
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                let hashes = src[i + 1..].chars().take_while(|&c| c == '#').count();
                if src[i + 1 + hashes..].starts_with('"') {
                    let start = i + 2 + hashes;
                    let close = format!("\"{}", "#".repeat(hashes));
                    let end = src[start..].find(&close).map_or(src.len(), |e| start + e);
                    out.push((line(i), src[start..end].to_string()));
                    i = end + close.len();
                } else {
                    i += 1;
                }
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                out.push((line(start), src[start..i.min(src.len())].to_string()));
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_cjk(c: char) -> bool {
    ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)
}

/// A source file without its tests: each `#[cfg(test)]` item (a test module, or a test
/// inside another module) is cut out up to the brace that closes it; a test module in a
/// file of its own (`#[cfg(test)] mod tests;`) is skipped by its file's name.
fn outside_tests(src: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut rest = src;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let end = match item.find([';', '{']) {
            Some(i) if item.as_bytes()[i] == b'{' => {
                let mut depth = 0usize;
                item[i..]
                    .char_indices()
                    .find_map(|(j, c)| {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            _ => {}
                        }
                        (depth == 0).then_some(i + j + 1)
                    })
                    .unwrap_or(item.len())
            }
            Some(i) => i + 1,
            None => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn no_sentence_is_written_outside_the_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for entry in std::fs::read_dir(root.join("crates")).expect("the crates folder") {
        let krate = entry.expect("a crate").path();
        // The fuzzer's and the benchmarks' inputs are test data, not texts for people.
        if krate.ends_with("attnlab-fuzz") || krate.ends_with("attnlab-bench") {
            continue;
        }
        let dir = krate.join("src");
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let mut found = Vec::new();
    for file in &files {
        let src = std::fs::read_to_string(file).expect("a source file");
        for (line, text) in literals(&outside_tests(&src)) {
            if text.chars().any(is_cjk) && !NOT_MESSAGES.contains(&text.as_str()) {
                let at = file.strip_prefix(root).unwrap_or(file).display();
                found.push(format!("{at}:{line}: {text}"));
            }
        }
    }
    assert!(
        files.len() > 100,
        "the scan reads the sources ({} files)",
        files.len()
    );
    assert!(
        found.is_empty(),
        "Chinese text outside the catalogue (move it to crates/attnlab-i18n/locales):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_reads_literals_and_skips_comments_and_chars() {
    let l = literals(
        "let a = \"甲 \\\"q\\\"\"; // \"乙\"\nlet c = '\"'; let d = r#\"丙\"#; /* \"丁\" */ '中';",
    );
    let texts: Vec<&str> = l.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["甲 \\\"q\\\"", "丙"]);
    assert_eq!(
        outside_tests("a\n#[cfg(test)]\nmod tests {\n{ \"丁\" }\n}\nb"),
        "a\n\nb"
    );
    let outer = "#[cfg(test)]\nmod catalogue_tests;\nconst N: &str = \"中文\";\n";
    assert_eq!(outside_tests(outer), "\nconst N: &str = \"中文\";\n");
}
