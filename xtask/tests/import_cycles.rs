//! No two source files of a crate import each other, directly or round a loop: a file
//! stands above everything it imports, so a crate reads from the top down. A file
//! imports another when it names a path (`crate::…`, `super::…`, `self::…`, in a `use`
//! or in code) that leads into the other's module. A child naming its own parent (or an
//! ancestor) is the module tree, not an import, and is not counted; test modules are left
//! out. The app (`src/`) and every crate under `crates/` are read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, except test files.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                sources(&path, found);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            found.push(path);
        }
    }
}

/// The module path of `file` under the crate's `src`: `a/b.rs` and `a/b/mod.rs` are
/// `["a", "b"]`; `lib.rs` and `main.rs` are the root.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !(stem == "mod" || (parts.is_empty() && (stem == "lib" || stem == "main"))) {
        parts.push(stem.to_string());
    }
    parts
}

/// `text` without comments, string literals and `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            // The test module runs to the end of the file in this codebase's habit.
            break;
        }
        let line = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        let mut in_string = false;
        for c in line.chars() {
            if c == '"' {
                in_string = !in_string;
            } else if !in_string {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Every path a `use` tree names, its braces expanded: `a::{b, c::{d}}` gives `a::b`,
/// `a::c::d`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => out.push(format!("{prefix}{tree}")),
        Some(open) => {
            let head = &tree[..open];
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&format!("{prefix}{head}"), &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if !inner[start..].trim().is_empty() {
                expand(&format!("{prefix}{head}"), &inner[start..], out);
            }
        }
    }
}

/// The relative paths (`crate::`, `super::`, `self::`) the code names.
fn named_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let after = &rest[at + 4..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = after.find(';') {
            expand("", &after[..end].replace(char::is_whitespace, ""), &mut out);
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module a relative path leads into, from the module `here`.
fn target(here: &[String], path: &str, modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut segments = path.split("::").filter(|s| !s.is_empty());
    let mut at: Vec<String> = match segments.next()? {
        "crate" => Vec::new(),
        "self" => here.to_vec(),
        "super" => here[..here.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut rest: Vec<&str> = segments.collect();
    while rest.first() == Some(&"super") {
        at.pop();
        rest.remove(0);
    }
    for segment in rest {
        let mut next = at.clone();
        next.push(segment.to_string());
        if modules.contains(&next) {
            at = next;
        } else {
            break;
        }
    }
    Some(at)
}

/// The files of one crate that import each other round a loop (strongly connected
/// components of more than one file).
fn cycles(src: &Path) -> Vec<Vec<String>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    let names: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = fs::read_to_string(file).expect("a readable source");
        let to = edges.entry(module.clone()).or_default();
        for path in named_paths(&code(&text)) {
            if let Some(t) = target(module, &path, &names) {
                // The module itself, or an ancestor: the tree, not an import.
                if !module.starts_with(&t) {
                    to.insert(t);
                }
            }
        }
    }
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<Vec<String>, usize>,
        low: BTreeMap<Vec<String>, usize>,
        stack: Vec<Vec<String>>,
        on_stack: BTreeSet<Vec<String>>,
        found: Vec<Vec<String>>,
    }
    fn visit(w: &mut Walk<'_>, v: &Vec<String>) {
        let i = w.index.len();
        w.index.insert(v.clone(), i);
        w.low.insert(v.clone(), i);
        w.stack.push(v.clone());
        w.on_stack.insert(v.clone());
        let next: Vec<Vec<String>> = w.edges.get(v).into_iter().flatten().cloned().collect();
        for u in &next {
            if !w.index.contains_key(u) {
                visit(w, u);
                let low = w.low[v].min(w.low[u]);
                w.low.insert(v.clone(), low);
            } else if w.on_stack.contains(u) {
                let low = w.low[v].min(w.index[u]);
                w.low.insert(v.clone(), low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on_stack.remove(&u);
                let done = &u == v;
                component.push(format!("crate::{}", u.join("::")));
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut walk = Walk {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.found
}

#[test]
fn no_crate_has_an_import_cycle() {
    let root = root();
    let mut crates = vec![root.join("src"), root.join("xtask/src")];
    for entry in fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        crates.push(entry.path().join("src"));
    }
    let mut found = Vec::new();
    for src in crates.iter().filter(|s| s.is_dir()) {
        for cycle in cycles(src) {
            found.push(format!("{}: {}", src.display(), cycle.join(" ⇄ ")));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn a_cycle_is_found() {
    let dir = std::env::temp_dir().join(format!("attnlab-cycles-{}", std::process::id()));
    let src = dir.join("src");
    fs::create_dir_all(src.join("a")).unwrap();
    fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    fs::write(src.join("a/mod.rs"), "mod c;\nuse crate::b::{X, Y};\n").unwrap();
    fs::write(
        src.join("a/c.rs"),
        "use super::Z; // the parent: not counted\n",
    )
    .unwrap();
    fs::write(src.join("b.rs"), "fn f() { crate::a::c::g() }\n").unwrap();
    let mut found = cycles(&src);
    assert!(found.is_empty(), "no cycle yet: {found:?}");
    fs::write(src.join("a/c.rs"), "use crate::b::X;\n").unwrap();
    found = cycles(&src);
    assert_eq!(
        found,
        vec![vec!["crate::a::c".to_string(), "crate::b".to_string()]]
    );
    fs::remove_dir_all(&dir).unwrap();
}
