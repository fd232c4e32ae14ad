//! Tensors a person brings instead of a sentence: every head's `Q`, `K`, `V` (and
//! optionally `W^O` and the token labels) from an `attnlab-tensors/1` JSON document
//! ([`json`]) or from NumPy arrays ([`npy`]: `.npy` files, or an `.npz` archive holding
//! them). [`bring`] reads the files a person dropped or picked into one [`Brought`],
//! which every variant and view then computes on, or says in one sentence, naming the
//! file, the array and what is wrong, why it cannot. The app reads files in its worker
//! (`crates/attnlab-files-worker`), which sends the result back in the [`wire`] format, so
//! neither the readers nor a large file's parse weigh on the page.
//!
//! # NumPy arrays
//!
//! Arrays are named by their file (or archive entry) name without `.npy`: `q` (or
//! `query`), `k` (`key`), `v` (`value`), optionally `w_o` (`h·d_v × d_out`). Each of
//! `q`, `k`, `v` has shape `(n, d)` (one head), `(heads, n, d)` or `(1, heads, n, d)`
//! (a batch of one). Labels come from `tokens.txt` (one per line), `tokens.json` (a list
//! of strings, or `{"queries": […], "keys": […]}` when queries and keys differ) or a
//! string array named `tokens`; without them the tokens are numbered.
//!
//! # Limits
//!
//! [`MAX_BRING_BYTES`] for all files together (checked by [`check_sizes`] before any is
//! read, and again for each archive entry before it is unpacked), [`MAX_BRING_FILES`]
//! files, at most [`MAX_TOKENS`](attnlab_lab::state::MAX_TOKENS) queries and keys, [`MAX_HEADS`] heads and
//! [`MAX_WIDTH`] numbers per row.

use attnlab_core::attention::{AttentionSpec, HeadInput};
use attnlab_core::model::{MAX_D_MODEL, Projected};
use serde_json::Value;

use attnlab_i18n::msg::formats;
use attnlab_i18n::said::Said;
use attnlab_i18n::said::serde_text::json_in;
use attnlab_lab::state::{HEADS_RANGE, ModelConfig};

mod assemble;
mod error;
pub mod json;
pub(crate) mod json_input;
mod labels;
pub mod npy;
pub mod wire;

use assemble::{finish, from_parts, numbered};
use error::role_name;
pub use error::{BringError, Refusal};
pub use json::{Document, FieldError, INPUT_FORMAT, MAX_WEIGHTS, parse};
use labels::{Labels, is_labels, json_labels, text_labels};
use npy::{Array, Npy};

/// The most bytes brought at once (all files together).
pub const MAX_BRING_BYTES: usize = 64 * 1024 * 1024;

/// The most files brought at once.
pub const MAX_BRING_FILES: usize = 8;

/// The most heads brought.
pub const MAX_HEADS: usize = *HEADS_RANGE.end();

/// The most numbers in a row of `Q`, `K` or `V`.
pub const MAX_WIDTH: usize = MAX_D_MODEL;

/// `bytes` in megabytes, for messages.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Refuses a set of files (names and sizes) before any is read: too many, or too large
/// together.
pub fn check_sizes(files: &[(String, u64)]) -> Result<(), BringError> {
    if files.is_empty() {
        return Err(BringError::said("", formats::BRING_NO_FILE.into()));
    }
    if files.len() > MAX_BRING_FILES {
        return Err(BringError::said(
            "",
            formats::BringTooManyFiles {
                count: &files.len(),
                max: &MAX_BRING_FILES,
            }
            .said(),
        ));
    }
    let total: u64 = files.iter().map(|(_, size)| size).sum();
    if total > MAX_BRING_BYTES as u64 {
        let (name, size) = files
            .iter()
            .max_by_key(|(_, size)| *size)
            .expect("not empty");
        let file = if files.len() == 1 {
            name.clone()
        } else {
            String::new()
        };
        let limit = megabytes(MAX_BRING_BYTES as u64);
        let said = if files.len() == 1 {
            formats::BringFileTooLarge {
                size: &megabytes(*size),
                limit: &limit,
            }
            .said()
        } else {
            formats::BringFilesTooLarge {
                total: &megabytes(total),
                limit: &limit,
            }
            .said()
        };
        return Err(BringError::said(file, said));
    }
    Ok(())
}

/// One file as it was dropped or picked.
#[derive(Debug, Clone, Copy)]
pub struct File<'a> {
    /// Its name (the extension says what it is).
    pub name: &'a str,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// Tensors brought in place of a sentence: what every variant computes on.
#[derive(Debug, Clone, PartialEq)]
pub struct Brought {
    /// The files they came from, as named.
    pub files: Vec<String>,
    /// Every head's `Q`, `K`, `V` and `W^O` if given.
    pub projected: Projected,
    /// The query labels (one per row of `Q`).
    pub queries: Vec<String>,
    /// The key labels (one per row of `K`).
    pub keys: Vec<String>,
    /// What was read but not used, and how the files were read, as sentences in every
    /// language.
    pub notes: Vec<Said>,
}

impl Brought {
    /// The number of heads.
    pub fn heads(&self) -> usize {
        self.projected.heads.len()
    }

    fn first(&self) -> &HeadInput {
        &self.projected.heads[0]
    }

    /// Queries, keys, the width of `Q` and `K`, and of `V`.
    pub fn sizes(&self) -> (usize, usize, usize, usize) {
        let h = self.first();
        (h.q.nrows(), h.k.nrows(), h.q.ncols(), h.v.ncols())
    }

    /// Whether the keys are other tokens than the queries (cross-attention).
    pub fn is_cross(&self) -> bool {
        self.queries != self.keys
    }

    /// One line on what was brought: `q.npy, k.npy, v.npy: 2 heads · 7 queries × 7 keys ·
    /// d_k 64 · d_v 64`.
    pub fn summary(&self) -> String {
        format!(
            "{}: {}",
            self.files.join(", "),
            self.sizes_text(attnlab_i18n::Lang::En)
        )
    }

    /// The sizes of [`Brought::summary`] (heads, queries × keys, widths), in `lang`.
    pub fn sizes_text(&self, lang: attnlab_i18n::Lang) -> String {
        let (n, m, d_k, d_v) = self.sizes();
        let heads = self.heads();
        formats::BringSizes {
            heads,
            queries: n,
            keys: m,
            d_k: &d_k,
            d_v: &d_v,
        }
        .say(lang)
    }

    /// The settings whose seeded draws give the general and additive scores and
    /// Linformer their parameters on these heads (the lab's `seed`).
    pub fn model(&self, seed: u64) -> ModelConfig {
        let (_, _, d_k, _) = self.sizes();
        attnlab_lab::state::seeded(seed, d_k, self.heads())
    }
}

/// The extension of `name`, lower case.
fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// `name` without its folder and extension, lower case.
fn stem(name: &str) -> String {
    // An archive's entry is named `archive › entry`.
    let base = name
        .rsplit(['/', '\\', '\u{203a}'])
        .next()
        .unwrap_or(name)
        .trim();
    let base = base.rsplit_once('.').map_or(base, |(s, _)| s);
    base.to_ascii_lowercase()
}

/// What a named part of the files is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Q,
    K,
    V,
    WO,
    Tokens,
}

fn role(stem: &str) -> Option<Role> {
    Some(match stem {
        "q" | "query" | "queries" => Role::Q,
        "k" | "key" | "keys" => Role::K,
        "v" | "value" | "values" => Role::V,
        "w_o" | "wo" | "o" | "out_proj" => Role::WO,
        "tokens" | "labels" => Role::Tokens,
        _ => return None,
    })
}

/// The arrays and labels found so far, each with the file it came from.
#[derive(Default)]
struct Parts {
    q: Option<(String, Array)>,
    k: Option<(String, Array)>,
    v: Option<(String, Array)>,
    w_o: Option<(String, Array)>,
    labels: Option<(String, Labels)>,
}

impl Parts {
    fn put_array(&mut self, file: String, role: Role, array: Array) -> Result<(), BringError> {
        let slot = match role {
            Role::Q => &mut self.q,
            Role::K => &mut self.k,
            Role::V => &mut self.v,
            Role::WO => &mut self.w_o,
            Role::Tokens => {
                return Err(BringError::said(
                    file,
                    formats::BRING_NUMBERS_NAMED_TOKENS.into(),
                ));
            }
        };
        if let Some((first, _)) = slot {
            let said = Said::of(|lang| {
                formats::BringSecondArray {
                    role: &role_name(role).get(lang),
                    first,
                }
                .say(lang)
            });
            return Err(BringError::said(file, said));
        }
        *slot = Some((file, array));
        Ok(())
    }

    fn put_labels(&mut self, file: String, labels: Labels) -> Result<(), BringError> {
        if let Some((first, _)) = &self.labels {
            let said = formats::BringSecondLabels { first }.said();
            return Err(BringError::said(file, said));
        }
        self.labels = Some((file, labels));
        Ok(())
    }
}

/// Adds one file (or archive entry) named `file` to `parts`.
fn add_part(parts: &mut Parts, file: String, bytes: &[u8]) -> Result<(), BringError> {
    let name = stem(&file);
    match extension(&file).as_str() {
        "npy" => {
            let role = role(&name)
                .ok_or_else(|| BringError::said(&file, formats::BRING_WHICH_TENSOR.into()))?;
            match npy::read_npy(&file, bytes)? {
                Npy::Numbers(array) => parts.put_array(file, role, array),
                Npy::Strings(labels) if role == Role::Tokens => {
                    parts.put_labels(file, Labels::Both(labels))
                }
                Npy::Strings(_) => Err(BringError::said(
                    file,
                    Said::of(|lang| {
                        formats::BringStringsNotNumbers {
                            role: &role_name(role).get(lang),
                        }
                        .say(lang)
                    }),
                )),
            }
        }
        "txt" => {
            let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(&file, &e))?;
            parts.put_labels(file, text_labels(text))
        }
        "json" => {
            let value: Value = serde_json::from_slice(bytes).map_err(|e| {
                BringError::said(
                    &file,
                    Said::of(|lang| {
                        formats::BringNotJson {
                            error: &json_in(&e, lang),
                        }
                        .say(lang)
                    }),
                )
            })?;
            let labels = json_labels(&file, &value)?;
            parts.put_labels(file, labels)
        }
        other => Err(BringError::said(
            file,
            formats::BringUnknownExtension { ext: &other }.said(),
        )),
    }
}

fn not_utf8(file: &str, e: &std::str::Utf8Error) -> BringError {
    BringError::said(
        file,
        formats::BringNotUtf8 {
            error: e,
            valid: &e.valid_up_to(),
        }
        .said(),
    )
}

/// Reads the files a person brought.
pub fn bring(files: &[File<'_>]) -> Result<Brought, BringError> {
    let sizes: Vec<(String, u64)> = files
        .iter()
        .map(|f| (f.name.to_string(), f.bytes.len() as u64))
        .collect();
    check_sizes(&sizes)?;
    // One attnlab-tensors/1 document on its own.
    let documents: Vec<&File<'_>> = files
        .iter()
        .filter(|f| extension(f.name) == "json")
        .filter(|f| {
            serde_json::from_slice::<Value>(f.bytes).map_or(files.len() == 1, |v| !is_labels(&v))
        })
        .collect();
    if let Some(doc) = documents.first() {
        if files.len() > 1 {
            return Err(BringError::said(
                doc.name,
                formats::BRING_DOCUMENT_ALONE.into(),
            ));
        }
        return from_document(doc);
    }
    let mut parts = Parts::default();
    for f in files {
        if extension(f.name) == "npz" {
            for (entry, bytes) in npy::read_npz(f.name, f.bytes)? {
                add_part(&mut parts, format!("{} \u{203a} {entry}", f.name), &bytes)?;
            }
        } else {
            add_part(&mut parts, f.name.to_string(), f.bytes)?;
        }
    }
    from_parts(parts, files.iter().map(|f| f.name.to_string()).collect())
}

/// The tensors of an `attnlab-tensors/1` document.
fn from_document(file: &File<'_>) -> Result<Brought, BringError> {
    let text = std::str::from_utf8(file.bytes).map_err(|e| not_utf8(file.name, &e))?;
    let said = |e: FieldError| BringError::said(file.name, Said::of(|lang| e.text(lang)));
    let doc = parse(text).map_err(said)?;
    // The page uses the tensors as given, not the document's settings: its q and k
    // before RoPE turned them (the document read again without `positions`).
    let given = match doc.problem.spec().rope {
        Some(_) => {
            let mut value: Value = serde_json::from_str(text).expect("parsed above");
            if let Some(fields) = value.as_object_mut() {
                fields.remove("positions");
            }
            Some(parse(&value.to_string()).map_err(said)?)
        }
        None => None,
    };
    let heads: Vec<HeadInput> = given
        .as_ref()
        .unwrap_or(&doc)
        .problem
        .heads()
        .iter()
        .map(|h| HeadInput::new(h.q.clone(), h.k.clone(), h.v.clone()))
        .collect();
    let name = file.name;
    let mut notes: Vec<Said> = doc
        .unknown_fields
        .iter()
        .map(|f| {
            formats::BringUnknownField {
                file: &name,
                field: f,
            }
            .said()
        })
        .collect();
    if *doc.problem.spec() != AttentionSpec::default() {
        notes.push(formats::BringSpecUnused { file: &name }.said());
    }
    let (n, m) = (heads[0].q.nrows(), heads[0].k.nrows());
    let labels = match (doc.query_tokens, doc.key_tokens) {
        (None, None) => None,
        (Some(q), None) if n == m => Some(Labels::Both(q)),
        (q, k) => Some(Labels::Each {
            queries: q.unwrap_or_else(|| numbered("q", n)),
            keys: k.unwrap_or_else(|| numbered("k", m)),
        }),
    };
    finish(
        vec![file.name.to_string()],
        heads,
        doc.problem.w_o().cloned(),
        labels.map(|l| (file.name.to_string(), l)),
        notes,
    )
    .map_err(|mut e| {
        if e.file.is_empty() {
            e.file = file.name.to_string();
        }
        e
    })
}

#[cfg(test)]
mod tests;
