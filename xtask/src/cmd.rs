//! Running programs, and telling the person at the terminal what is being run.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Prints one progress line, `[xtask] …`, on standard error.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("[xtask] {}", format_args!($($arg)*))
    };
}
pub(crate) use say;

/// An expected failure: a sentence for the person at the terminal, not a backtrace.
#[derive(Debug)]
pub enum Error {
    /// Still to be printed.
    Message(String),
    /// Already printed, where it happened (so that a summary can come last).
    Reported,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Self::Message(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Message(message) => f.write_str(message),
            Self::Reported => f.write_str("(reported above)"),
        }
    }
}

pub type Result<T = ()> = std::result::Result<T, Error>;

/// A program to run: like [`Command`], but it can show itself as a shell line.
///
/// Every command gets the tool `PATH` of the [`Ctx`] that made it; that variable is not
/// shown, the others set with [`Cmd::env`] are.
pub struct Cmd {
    program: OsString,
    args: Vec<OsString>,
    envs: Vec<(String, String)>,
    dir: PathBuf,
    path: OsString,
}

impl Cmd {
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    pub fn env(mut self, key: &str, value: impl Into<String>) -> Self {
        self.envs.push((key.to_owned(), value.into()));
        self
    }

    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dir = dir.into();
        self
    }

    /// Runs the command with the terminal's stdin, stdout and stderr; fails unless it
    /// exits with status 0.
    pub fn run(&self) -> Result {
        let status = self.command().status().map_err(|e| self.spawn_error(&e))?;
        self.check(status)
    }

    /// Like [`Cmd::run`], and says how long it took.
    pub fn run_timed(&self) -> Result<Duration> {
        let start = Instant::now();
        self.run()?;
        Ok(start.elapsed())
    }

    /// Runs the command quietly and returns its stdout (trimmed) if it succeeded: for
    /// probes like `trunk --version`, where "missing" and "broken" mean the same thing.
    pub fn probe(&self) -> Option<String> {
        let out = self
            .command()
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    /// Runs the command quietly and returns what it printed and its status (`None`
    /// when it could not start).
    pub fn output(&self) -> Option<std::process::Output> {
        self.command().stdin(Stdio::null()).output().ok()
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .current_dir(&self.dir)
            .env("PATH", &self.path);
        for (key, value) in &self.envs {
            command.env(key, value);
        }
        command
    }

    fn check(&self, status: ExitStatus) -> Result {
        if status.success() {
            Ok(())
        } else {
            let how = match status.code() {
                Some(code) => format!("exit status {code}"),
                None => "killed by a signal".to_owned(),
            };
            Err(Error::new(format!("`{self}` failed ({how})")))
        }
    }

    fn spawn_error(&self, e: &io::Error) -> Error {
        let program = self.program.to_string_lossy();
        if e.kind() == io::ErrorKind::NotFound {
            Error::new(format!(
                "`{program}` was not found on PATH (needed for `{self}`)"
            ))
        } else {
            Error::new(format!("could not start `{self}`: {e}"))
        }
    }
}

impl fmt::Display for Cmd {
    /// The command as a shell line: `KEY=value program arg…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = self
            .envs
            .iter()
            .map(|(key, value)| format!("{key}={}", quote(value)))
            .chain(std::iter::once(quote(&self.program.to_string_lossy())))
            .chain(self.args.iter().map(|a| quote(&a.to_string_lossy())));
        if let Some(first) = words.next() {
            f.write_str(&first)?;
        }
        for word in words {
            write!(f, " {word}")?;
        }
        Ok(())
    }
}

/// Quotes a word for display when a shell would need it.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+@,%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("\"{}\"", word.replace('"', "\\\""))
    }
}

/// Where the repository is, and the `PATH` every tool runs with.
pub struct Ctx {
    pub root: PathBuf,
    path: OsString,
}

impl Ctx {
    /// `extra_path` goes before the inherited `PATH`, first entry first.
    pub fn new(root: PathBuf, extra_path: &[PathBuf]) -> Result<Self> {
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        let dirs = extra_path
            .iter()
            .cloned()
            .chain(std::env::split_paths(&inherited));
        let path = std::env::join_paths(dirs)
            .map_err(|e| Error::new(format!("cannot build PATH: {e}")))?;
        Ok(Self { root, path })
    }

    /// A command that runs in the repository root.
    pub fn cmd(&self, program: impl AsRef<OsStr>) -> Cmd {
        Cmd {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            envs: Vec::new(),
            dir: self.root.clone(),
            path: self.path.clone(),
        }
    }

    /// `relative` (a `/`-separated path) inside the repository.
    pub fn at(&self, relative: &str) -> PathBuf {
        relative
            .split('/')
            .fold(self.root.clone(), |p, s| p.join(s))
    }
}

/// A duration as a person reads it: `0.4s`, `12.3s`, `4m 05s`.
pub fn human(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 60.0 {
        format!("{secs:.1}s")
    } else {
        let whole = d.as_secs();
        format!("{}m {:02}s", whole / 60, whole % 60)
    }
}

/// The path relative to `root` when it is inside it, for shorter messages.
pub fn shown(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations() {
        assert_eq!(human(Duration::from_millis(400)), "0.4s");
        assert_eq!(human(Duration::from_secs(245)), "4m 05s");
    }

    #[test]
    fn display_quotes_only_when_needed() {
        let ctx = Ctx::new(PathBuf::from("/repo"), &[]).unwrap();
        let cmd = ctx
            .cmd("cargo")
            .args(["doc", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings")
            .env("RUSTFLAGS", "");
        assert_eq!(
            cmd.to_string(),
            "RUSTDOCFLAGS=\"-D warnings\" RUSTFLAGS=\"\" cargo doc --no-deps"
        );
    }
}
