//! The app's build script (Cargo.toml, `build`), step 1 of the build (ARCHITECTURE.md,
//! "The build"): the app's wasm keeps the linker's relocations (`--emit-relocs`).
//! wasm-split-cli reads them to split the code behind every `#[lazy]` function into
//! modules of its own (step 2, web/build/wasm-bindgen), and that step removes them. Only
//! this binary, only for wasm: the workers and the native builds link as before.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=attnlab-web=--emit-relocs");
    }
}
