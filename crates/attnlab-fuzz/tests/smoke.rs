//! The fuzz targets' smoke run, part of `cargo test`: every committed seed and every
//! regression input (a crash found once) through its target, then generated inputs —
//! mutations of the seeds (bit flips, cut ends, lying lengths, inserted and repeated
//! bytes), random bytes and random Unicode — a few thousand per target (set
//! `ATTNLAB_FUZZ_CASES` for more), all under the capped allocator and a time bound.

use std::path::{Path, PathBuf};
use std::time::Instant;

use attnlab_fuzz::{TARGETS, TIME_BOUND, Target};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[global_allocator]
static ALLOC: attnlab_fuzz::alloc::Capped = attnlab_fuzz::alloc::Capped;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `seeds/TARGET` or `regressions/TARGET`, sorted by name.
fn inputs(kind: &str, target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = crate_dir().join(kind).join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, Vec<u8>)> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

/// Runs one input, failing past the time bound.
fn run(target: &Target, input: &[u8], what: &Path) {
    let start = Instant::now();
    (target.run)(input);
    let took = start.elapsed();
    assert!(
        took < TIME_BOUND,
        "{}: {} took {took:?}",
        target.name,
        what.display()
    );
}

#[test]
fn every_target_has_seeds() {
    for t in TARGETS {
        assert!(
            !inputs("seeds", t.name).is_empty(),
            "seeds/{} is empty: write them with `cargo test -p attnlab-fuzz --test seeds -- --ignored`",
            t.name
        );
    }
}

#[test]
fn seeds_and_regressions_pass() {
    for t in TARGETS {
        for kind in ["seeds", "regressions"] {
            for (path, bytes) in inputs(kind, t.name) {
                run(t, &bytes, &path);
            }
        }
    }
}

/// The inputs nobody lists: a 100 KB word, stacked combining marks, right-to-left text,
/// NUL and the UTF-8 form of a lone surrogate, for every target.
#[test]
fn extreme_texts_pass() {
    let texts: Vec<Vec<u8>> = vec![
        "a".repeat(100_000).into_bytes(),
        "\u{5D0}\u{5D1}".repeat(30_000).into_bytes(),
        format!("e{}", "\u{301}".repeat(20_000)).into_bytes(),
        "مرحبا بالعالم \u{202E}abc\u{202C} שלום".into(),
        b"a\x00b\xED\xA0\x80c".to_vec(),
        "\u{FEFF}\u{200D}\u{1F469}\u{200D}\u{1F4BB} ﬁ Ｆｕｌｌ".into(),
        Vec::new(),
    ];
    for t in TARGETS {
        for text in &texts {
            run(t, text, Path::new("an extreme text"));
        }
    }
}

/// `seed` changed by `edits` (each: what, where, a value).
fn mutate(mut bytes: Vec<u8>, edits: &[(u8, usize, u64)]) -> Vec<u8> {
    for &(op, at, value) in edits {
        let len = bytes.len();
        let at = if len == 0 { 0 } else { at % len };
        match op % 8 {
            0 if len > 0 => bytes[at] ^= 1 << (value % 8),
            1 if len > 0 => bytes[at] = value as u8,
            2 => bytes.truncate(at),
            3 => bytes.insert(at, value as u8),
            // A length that lies: a 4- or 8-byte field set to an extreme.
            4 | 5 => {
                let lies = [
                    0,
                    1,
                    0x7FFF_FFFF,
                    0xFFFF_FFFF,
                    u64::MAX,
                    1 << 40,
                    len as u64 + 1,
                ];
                let lie = lies[(value % lies.len() as u64) as usize];
                let width = if op % 8 == 4 { 4 } else { 8 };
                let field = &lie.to_le_bytes()[..width];
                for (i, b) in field.iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(at + i) {
                        *slot = *b;
                    }
                }
            }
            6 if len > 0 => {
                let end = (at + 1 + (value as usize % 64)).min(len);
                let chunk = bytes[at..end].to_vec();
                let times = 1 + value as usize % 8;
                for _ in 0..times {
                    bytes.splice(at..at, chunk.iter().copied());
                }
            }
            7 if len > 0 => {
                let end = (at + 1 + (value as usize % 64)).min(len);
                bytes.drain(at..end);
            }
            _ => {}
        }
    }
    bytes
}

/// Inputs generated per target: `ATTNLAB_FUZZ_CASES` (default 2000), a tenth of it for
/// the targets that compute a whole state per input (a link's variants, a lesson's
/// steps), which take some 20–50 ms each in a test build.
fn cases(target: &Target) -> u32 {
    let n = std::env::var("ATTNLAB_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    match target.name {
        "link" | "lesson" => (n / 10).max(1),
        _ => n,
    }
}

#[test]
fn generated_inputs_pass() {
    for t in TARGETS {
        let seeds: Vec<Vec<u8>> = inputs("seeds", t.name)
            .into_iter()
            .map(|(_, b)| b)
            .collect();
        let n = seeds.len();
        let mutated = (
            0..n,
            prop::collection::vec((any::<u8>(), any::<usize>(), any::<u64>()), 1..6),
        )
            .prop_map(move |(i, edits)| mutate(seeds[i].clone(), &edits));
        let strategy = prop_oneof![
            6 => mutated,
            1 => prop::collection::vec(any::<u8>(), 0..600),
            1 => any::<String>().prop_map(String::into_bytes),
        ];
        let mut runner = TestRunner::new(Config {
            cases: cases(t),
            failure_persistence: None,
            ..Config::default()
        });
        let start = Instant::now();
        let result = runner.run(&strategy, |input| {
            run(t, &input, Path::new("a generated input"));
            Ok(())
        });
        if let Err(e) = result {
            panic!("{}: {e}", t.name);
        }
        eprintln!(
            "{}: {} generated inputs in {:.1?}",
            t.name,
            cases(t),
            start.elapsed()
        );
    }
}
