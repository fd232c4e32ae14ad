//! What the tests that drive the binary share: running `attnlab compute` (and `attnlab
//! block`) as a user does, the seeded randomness ([`rng`]) and the comparison of JSON
//! outputs with a reference's ([`compare`]).

#![allow(dead_code)]

pub mod compare;
pub mod rng;

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

/// Starts `attnlab compute -`, its standard input, output and error piped.
pub fn spawn_compute() -> Child {
    Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(["compute", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `attnlab compute -` with `input` on standard input.
pub fn compute(input: &str) -> Output {
    let mut child = spawn_compute();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The result of a document that must compute, with no warning.
pub fn result(doc: &Value) -> Value {
    succeeded(compute(&doc.to_string()), &doc.to_string())
}

/// The JSON a run printed, which must have exited 0 with nothing on standard error
/// (`what` names the run in a failure).
fn succeeded(o: std::process::Output, what: &str) -> Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The one line `attnlab compute` writes for `doc`, which must exit 2 with nothing on
/// standard output.
pub fn refused(doc: &Value) -> String {
    let o = compute(&doc.to_string());
    assert_eq!(o.status.code(), Some(2), "{doc}");
    assert!(o.stdout.is_empty(), "{doc}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end().to_string()
}

/// Runs `attnlab block -` (with `--decode` when asked) with `doc` on standard input.
pub fn block(doc: &Value, decode: bool) -> Output {
    let mut args = vec!["block", "-"];
    if decode {
        args.push("--decode");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The binary may exit early on bad input; a broken pipe is fine.
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(doc.to_string().as_bytes());
    child.wait_with_output().unwrap()
}

/// The result of a block document that must run, with nothing on standard error.
pub fn block_result(doc: &Value, decode: bool) -> Value {
    succeeded(block(doc, decode), "attnlab block")
}

/// The one line `attnlab block` writes for `doc`, which must exit 2 with nothing on
/// standard output.
pub fn block_refused(doc: &Value, decode: bool) -> String {
    let o = block(doc, decode);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(o.stdout.is_empty());
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end().to_string()
}
