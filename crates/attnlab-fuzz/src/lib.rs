//! One fuzz target per entry point where bytes enter attnlab, each calling the function
//! the app and the CLI call, and checking the property every parser owes its input:
//!
//! - no panic and no abort (a panic is the fuzzer's crash);
//! - no allocation beyond the named limits (the binaries and the smoke test run under
//!   [`alloc::Capped`], which aborts past [`alloc::CAP`]);
//! - a bounded time (the fuzzer's `-t`, the smoke test's [`TIME_BOUND`]);
//! - every error is a message that says something;
//! - for the link: every readable character of a link's text is kept.
//!
//! The targets are plain functions of `&[u8]` ([`TARGETS`]); `src/bin/afl.rs` runs one
//! under AFL++ (`cargo xtask fuzz`), `tests/smoke.rs` replays the committed seeds and
//! regressions and a few thousand generated inputs through them in `cargo test`.
//!
//! ```
//! attnlab_fuzz::link(b"v1.e30");
//! attnlab_fuzz::tensors_json(br#"{"heads":[{"q":[[1]],"k":[[1]],"v":[[1]]}]}"#);
//! ```

pub mod alloc;
mod assets;
mod targets;

pub use targets::{
    block_json, e5_asset, lesson, link, minilm_asset, npy, npz, tensors_json, unigram, wordpiece,
};

/// The longest a smoke-test input may take (a hang is far longer; a slow build on a
/// shared machine is not).
pub const TIME_BOUND: std::time::Duration = std::time::Duration::from_secs(20);

/// A fuzz target: its name (the folder of its seeds and regressions) and its function.
pub struct Target {
    /// e.g. `link`.
    pub name: &'static str,
    /// Runs one input; panics when the property does not hold.
    pub run: fn(&[u8]),
    /// What it reads, for `cargo xtask fuzz`'s report.
    pub about: &'static str,
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "link",
        run: link,
        about: "#v1./#v1z. links and whole URLs → state repair → compute; a link's text kept",
    },
    Target {
        name: "tensors_json",
        run: tensors_json,
        about: "attnlab-tensors/1 JSON, as the CLI and a brought .json read it",
    },
    Target {
        name: "block_json",
        run: block_json,
        about: "attnlab-block/1 JSON, as `attnlab block` reads it, run and decoded",
    },
    Target {
        name: "npy",
        run: npy,
        about: ".npy arrays brought as q, k and v",
    },
    Target {
        name: "npz",
        run: npz,
        about: ".npz archives brought alone",
    },
    Target {
        name: "lesson",
        run: lesson,
        about: "a lesson folder: lesson.toml, en.toml, zh.toml and a tensors file",
    },
    Target {
        name: "wordpiece",
        run: wordpiece,
        about: "MiniLM's WordPiece tokenizer on any text",
    },
    Target {
        name: "unigram",
        run: unigram,
        about: "multilingual-E5's SentencePiece unigram tokenizer on any text",
    },
    Target {
        name: "minilm_asset",
        run: minilm_asset,
        about: "attnlab-model-asset/1 files (MiniLM's and E5's), then a forward pass",
    },
    Target {
        name: "e5_asset",
        run: e5_asset,
        about: "the E5S1 container of multilingual-E5-small",
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
