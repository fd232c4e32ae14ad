//! Running `attnlab compute` as a user does, shared by the tests that drive the binary.

#![allow(dead_code)]

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
    let o = compute(&doc.to_string());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{doc}: {}",
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
