//! Every byte the CLI reads from a file or standard input comes through here, at most a
//! named limit of them: a file that says it is longer is refused before it is read, and a
//! stream that does not end (`yes |`, `/dev/zero`, a FIFO) is refused once it passes the
//! limit, so no input makes the CLI wait forever or exhaust memory.

use std::io::{self, Read};
use std::path::Path;

/// Where the bytes come from, as a message names it.
fn name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// At most `limit` bytes of `path` (`-`: standard input). Past the limit: an error naming
/// `what`, the source and the limit. `hint` ends a "cannot read" error (e.g. how to make
/// the file).
pub fn read_limited(path: &Path, limit: u64, what: &str, hint: &str) -> Result<Vec<u8>, String> {
    let shown = name(path);
    let too_large = || {
        format!(
            "{what}: {shown} is larger than {}, the most attnlab reads here",
            size(limit)
        )
    };
    let cannot = |e: io::Error| format!("{what}: cannot read {shown} ({e}){hint}");
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
    } else {
        let file = std::fs::File::open(path).map_err(cannot)?;
        // A regular file says its length: refused before a byte is read. Devices and
        // pipes say 0 and are read up to the limit.
        if file.metadata().map_err(cannot)?.len() > limit {
            return Err(too_large());
        }
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
    }
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Like [`read_limited`], for UTF-8 text.
pub fn read_text(path: &Path, limit: u64, what: &str, hint: &str) -> Result<String, String> {
    String::from_utf8(read_limited(path, limit, what, hint)?).map_err(|e| {
        format!(
            "{what}: {} is not UTF-8 text (byte {} is not)",
            name(path),
            e.utf8_error().valid_up_to()
        )
    })
}

/// `256 MiB`, `64 KiB`, `10 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_past_the_limit_is_refused_and_one_within_it_read() {
        let dir = std::env::temp_dir().join(format!("attnlab-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten.txt");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_text(&path, 10, "input", "").unwrap(), "0123456789");
        let e = read_text(&path, 9, "input", "").unwrap_err();
        assert!(
            e.ends_with("ten.txt is larger than 9 bytes, the most attnlab reads here"),
            "{e}"
        );
        std::fs::write(&path, b"ab\xFFc").unwrap();
        let e = read_text(&path, 10, "input", "").unwrap_err();
        assert!(
            e.ends_with("ten.txt is not UTF-8 text (byte 2 is not)"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // A device that never ends.
        if Path::new("/dev/zero").exists() {
            let e = read_limited(Path::new("/dev/zero"), 1 << 20, "--asset", "").unwrap_err();
            assert_eq!(
                e,
                "--asset: /dev/zero is larger than 1 MiB, the most attnlab reads here"
            );
        }
        assert_eq!(size(256 << 20), "256 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
    }
}
