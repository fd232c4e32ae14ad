//! Every fixed text written as an English–Chinese pair (`t(…)`, `tr(lang, …)`,
//! `Tr::new(…)`, `lang.pick(…)`) in the app and the lab has a real Chinese side.

use std::path::{Path, PathBuf};

use attnlab_i18n::KEPT;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every string literal of `src`: where it starts and ends (quotes included), its text.
fn literals(src: &str) -> Vec<(usize, usize, String)> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // A char literal ('"' or '\'') is not a string's start.
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 3,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            }
            b'"' => {
                let start = i;
                let mut text = String::new();
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                text.push_str(&src[start + 1..i.min(src.len())]);
                i += 1;
                out.push((start, i, text));
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether the code before a literal pair is a call that takes a pair.
fn is_pair_call(before: &str) -> bool {
    let before = before.trim_end();
    let Some(open) = before.rfind('(') else {
        return false;
    };
    let args = before[open + 1..].trim();
    let callee = before[..open].trim_end();
    let callee_ok = ["t", "tr", "Tr::new", "pick"].iter().any(|c| {
        callee.ends_with(c)
            && !callee[..callee.len() - c.len()]
                .ends_with(|ch: char| ch.is_alphanumeric() || ch == '_')
    });
    let args_ok = args.is_empty()
        || (args.ends_with(',')
            && args[..args.len() - 1]
                .trim()
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '(' || c == ')'));
    callee_ok && args_ok
}

fn is_cjk(c: char) -> bool {
    ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)
}

/// English words (3 letters or more) in `zh` that are not kept technical words. A
/// symbol with a subscript (`d_model`, `W_Q`) is a symbol, not a word.
fn english_words(zh: &str) -> Vec<String> {
    zh.split(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
        .filter(|w| !w.contains('_'))
        .filter(|w| w.len() >= 3 && !KEPT.contains(w))
        .map(String::from)
        .collect()
}

#[test]
fn every_text_pair_has_a_chinese_side() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    // The app and every crate whose sentences it shows.
    for dir in ["src", "crates/attnlab-plot/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    for entry in std::fs::read_dir(root.join("crates")).expect("the crates folder") {
        let dir = entry.expect("a crate").path().join("src");
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let mut pairs = 0;
    let mut bad = Vec::new();
    for file in &files {
        let src = std::fs::read_to_string(file).expect("a source file");
        let lits = literals(&src);
        for w in lits.windows(2) {
            let ((s1, e1, en), (s2, _, zh)) = (&w[0], &w[1]);
            if src[*e1..*s2].trim() != "," || !is_pair_call(&src[..*s1]) {
                continue;
            }
            pairs += 1;
            let at = format!("{}:{}", file.display(), src[..*s1].lines().count());
            if zh.is_empty() != en.is_empty() {
                bad.push(format!("{at}: one side is empty"));
            } else if en.chars().any(is_cjk) {
                bad.push(format!("{at}: the English side has Chinese: {en}"));
            } else if !english_words(zh).is_empty() {
                bad.push(format!("{at}: English in the Chinese side: {zh}"));
            }
        }
    }
    eprintln!(
        "{pairs} English–Chinese text pairs in {} files",
        files.len()
    );
    assert!(pairs > 0);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_scanner_finds_pairs_and_skips_other_calls() {
    assert!(is_pair_call("let x = t("));
    assert!(is_pair_call("  {tr(lang, "));
    assert!(is_pair_call("Tr::new("));
    assert!(is_pair_call("l.pick("));
    assert!(!is_pair_call("format!("));
    assert!(!is_pair_call("set_attribute("));
    assert!(!is_pair_call("print("));
    let l = literals(r#"t("a \"q\"", "乙") // "c""#);
    assert_eq!(l.len(), 2);
    assert_eq!(l[1].2, "乙");
}
