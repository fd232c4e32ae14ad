//! Compiles the message catalogue (`locales/<lang>/<area>.ftl`) into plain Rust:
//! `$OUT_DIR/catalogue.rs`, included by `src/lib.rs` as `msg`. The build fails, naming
//! every problem, when the languages disagree (a file, an id or a message's variables in
//! one and not in the other) or a message uses what the compiler does not write.

// `texts` and `Catalogue::areas`' parts serve the crate's tests, not the build.
#[allow(dead_code)]
#[path = "build/catalogue.rs"]
mod catalogue;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    println!("cargo::rerun-if-changed=build/catalogue.rs");
    let files = match catalogue::read_dir(&root) {
        Ok(files) => files,
        Err(e) => panic!("the message catalogue cannot be read: {e}"),
    };
    for lang in catalogue::LANGS {
        println!("cargo::rerun-if-changed={}", root.join(lang).display());
        for area in files[0].keys().chain(files[1].keys()) {
            println!(
                "cargo::rerun-if-changed={}",
                root.join(lang).join(format!("{area}.ftl")).display()
            );
        }
    }
    let checked = match catalogue::check(&files) {
        Ok(c) => c,
        Err(errors) => panic!(
            "the message catalogue has {} problem(s):\n{}",
            errors.len(),
            errors.join("\n")
        ),
    };
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogue.rs");
    std::fs::write(&out, catalogue::render(&checked)).expect("OUT_DIR is writable");
}
