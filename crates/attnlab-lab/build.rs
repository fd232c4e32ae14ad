//! Embeds the lessons: every file under the workspace's `lessons/` folder whose name ends in
//! `.toml` or `.json` becomes an entry of `$OUT_DIR/lessons.rs`, a sorted list of
//! `(path relative to lessons/, contents)` read with `include_str!`, so the wasm app has
//! every lesson with no fetch. A teacher adds a lesson by adding a folder; cargo reruns
//! this script when a file or folder there changes.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("../../lessons");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if root.is_dir() {
        collect(&root, &root, &mut files);
    }
    files.sort();
    let mut out = String::from(
        "/// Every lesson file: its path below `lessons/` and its text.\n\
         pub(crate) const FILES: &[(&str, &str)] = &[\n",
    );
    for (relative, absolute) in &files {
        out.push_str(&format!(
            "    ({relative:?}, include_str!({:?})),\n",
            absolute.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).join("lessons.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
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
