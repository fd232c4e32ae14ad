//! ARCHITECTURE.md names files and folders; every one of them must exist, so the map
//! cannot drift from the code it describes. A path is what stands between backquotes or
//! in a link's target and looks like one: it has a `/` or ends in a file extension of the
//! repository. It is read from the repository's root, or, under a heading that names
//! folders (`### \`crates/attnlab-core\``), from those folders and their `src/`. Build
//! outputs (`target/`, `dist/`) are made by the build and not checked; a format's name
//! with its version (`attnlab-tensors/1`) is not a path.

use std::path::{Path, PathBuf};

/// The extensions of files the repository holds.
const EXTENSIONS: &[&str] = &[
    ".rs", ".toml", ".md", ".mjs", ".js", ".ts", ".json", ".html", ".css", ".ftl", ".sh", ".lock",
    ".py",
];

/// Made by a build, not kept in the repository.
const BUILT: &[&str] = &["target/", "dist/"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// What stands between backquotes and in the targets of `[text](target)` links.
fn candidates(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (k, part) in text.split('`').enumerate() {
        if k % 2 == 1 {
            found.push(part.to_string());
        }
    }
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            found.push(rest[..end].to_string());
        }
    }
    found
}

/// `word` as a repository path, when it looks like one.
fn as_path(word: &str) -> Option<String> {
    let word = word
        .trim()
        .split('#')
        .next()?
        .trim_end_matches(['.', ',', ':', ';']);
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/_.-".contains(c))
        && !word.starts_with("http")
        && !word.contains("..")
        && !word.starts_with('/');
    let versioned = word
        .rsplit('/')
        .next()
        .is_some_and(|last| !last.is_empty() && last.chars().all(|c| c.is_ascii_digit()));
    let looks = (word.contains('/') && !versioned) || EXTENSIONS.iter().any(|e| word.ends_with(e));
    (plain && looks && !BUILT.iter().any(|b| word.starts_with(b))).then(|| word.to_string())
}

/// Every path of `text`, each with the folders of the heading it stands under.
fn paths_by_section(text: &str) -> Vec<(String, Vec<String>)> {
    let mut folders: Vec<String> = Vec::new();
    let mut found = Vec::new();
    for line in text.lines() {
        let words: Vec<String> = candidates(line).iter().filter_map(|w| as_path(w)).collect();
        if line.starts_with('#') {
            folders = words;
            continue;
        }
        found.extend(words.into_iter().map(|p| (p, folders.clone())));
    }
    found
}

#[test]
fn every_path_architecture_names_exists() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths = paths_by_section(&text);
    assert!(paths.len() >= 40, "only {} paths found", paths.len());
    let exists = |path: &str, folders: &[String]| {
        root.join(path).exists()
            || folders.iter().any(|f| {
                root.join(f).join(path).exists() || root.join(f).join("src").join(path).exists()
            })
    };
    let missing: Vec<&String> = paths
        .iter()
        .filter(|(p, folders)| !exists(p, folders))
        .map(|(p, _)| p)
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn paths_are_found_and_other_words_are_not() {
    let text = "the `crates/attnlab-core/src/kind.rs` and [maths](docs/maths.md#softmax), \
                `Problem::new`, `cargo xtask test`, `#v1.…`, `target/model/x.safetensors`, \
                `Cargo.toml`, `https://example.org/a.md`, `attnlab-tensors/1`";
    let paths: Vec<String> = candidates(text).iter().filter_map(|w| as_path(w)).collect();
    assert_eq!(
        paths,
        [
            "crates/attnlab-core/src/kind.rs",
            "Cargo.toml",
            "docs/maths.md"
        ]
    );
}

#[test]
fn a_path_is_read_from_the_folders_of_its_heading() {
    let text = "# Map\n`README.md`\n### `crates/attnlab-core`\nIts `kind.rs`.\n";
    assert_eq!(
        paths_by_section(text),
        [
            ("README.md".to_string(), vec![]),
            (
                "kind.rs".to_string(),
                vec!["crates/attnlab-core".to_string()]
            ),
        ]
    );
}
