//! Embeds the lessons: every file under the workspace's `lessons/` folder whose name ends in
//! `.toml` or `.json` becomes an entry of `$OUT_DIR/lessons.rs`, a sorted list of
//! `(path relative to lessons/, document)`, so the wasm app has every lesson with no
//! fetch. A TOML file is converted to JSON here (the app then reads it with the JSON
//! reader it has anyway, and carries no TOML parser); one that is not valid TOML is kept
//! as text with the parser's message and the byte where it failed, which the loader
//! reports naming the file, the step and the line. A teacher adds a lesson by adding a
//! folder; cargo reruns this script when a file or folder there changes.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("../../lessons");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        collect(&root, &root, &mut files);
    }
    files.sort();
    let mut out = String::from(
        "/// Every lesson file: its path below `lessons/` and its document.\n\
         pub(crate) const FILES: &[(&str, super::load::Doc<'static>)] = &[\n",
    );
    for (k, (relative, absolute)) in files.iter().enumerate() {
        let text = fs::read_to_string(absolute).unwrap_or_default();
        let doc = if relative.ends_with(".toml") {
            match toml::from_str::<toml::Value>(&text) {
                Ok(value) => {
                    let json = out_dir.join(format!("lesson-{k}.json"));
                    let converted = serde_json::to_string(&value).expect("TOML values are JSON");
                    fs::write(&json, converted).expect("OUT_DIR is writable");
                    format!("Json(include_str!({:?}))", json.display().to_string())
                }
                Err(e) => format!(
                    "Broken {{ text: include_str!({:?}), at: {:?}, message: {:?} }}",
                    absolute.display().to_string(),
                    e.span().map(|s| s.start),
                    e.message()
                ),
            }
        } else {
            format!("Json(include_str!({:?}))", absolute.display().to_string())
        };
        out.push_str(&format!("    ({relative:?}, super::load::Doc::{doc}),\n"));
    }
    out.push_str("];\n");
    fs::write(out_dir.join("lessons.rs"), out).expect("OUT_DIR is writable");
}

/// Every `.toml` and `.json` file below `dir`, as (path relative to `root` with `/`,
/// absolute path); each folder and file is watched.
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("toml" | "json")
        ) {
            println!("cargo:rerun-if-changed={}", path.display());
            let relative = path
                .strip_prefix(root)
                .expect("below the root")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let absolute = path.canonicalize().unwrap_or(path);
            files.push((relative, absolute));
        }
    }
}
