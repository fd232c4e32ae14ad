//! One attnlab fuzz target under AFL++: `attnlab-fuzz-afl TARGET` (see
//! `attnlab_fuzz::TARGETS`). Built by `cargo xtask fuzz` with `cargo afl build`.

#[global_allocator]
static ALLOC: attnlab_fuzz::alloc::Capped = attnlab_fuzz::alloc::Capped;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(target) = attnlab_fuzz::target(&name) else {
        let names: Vec<&str> = attnlab_fuzz::TARGETS.iter().map(|t| t.name).collect();
        eprintln!(
            "usage: attnlab-fuzz-afl TARGET, one of {}",
            names.join(", ")
        );
        std::process::exit(2);
    };
    // Once before the fork server starts, so every child inherits what the target
    // builds once (the tokenizers, the E5 asset) instead of each paying for it.
    (target.run)(b"");
    afl::fuzz!(|data: &[u8]| {
        (target.run)(data);
    });
}
