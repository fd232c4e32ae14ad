//! Reading and checking lesson files: every error names the file and, where there is
//! one, the step; a lesson with an error is left out of the catalog.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::figures::RawPointer;
use super::step_checks::{RawQuestion, pointer, question};
use super::text::{ANSWER, LessonText};
use super::{Catalog, Lang, Lesson, Pointer, Selection, Step, StepKind, TensorFile, answer};
use attnlab_lab::compute::Pipeline;
use attnlab_lab::state::Page;
use attnlab_link::decode_value;

/// The format tag a lesson's tensors document must carry.
const TENSORS_FORMAT: &str = "attnlab-tensors/1";

/// Something wrong in a lesson file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file, below `lessons/`: `02-scores/lesson.toml`.
    pub file: String,
    /// The step concerned, when there is one.
    pub step: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    /// `lessons/02-scores/en.toml, step “dot”: the text is missing`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lessons/{}", self.file)?;
        if let Some(step) = &self.step {
            write!(f, ", step “{step}”")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLesson {
    #[serde(default)]
    base: Option<Value>,
    steps: Vec<RawStep>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    id: String,
    #[serde(default)]
    kind: Option<String>,
    page: String,
    #[serde(default)]
    state: Option<Value>,
    #[serde(default)]
    select: Option<RawSelect>,
    #[serde(default)]
    point: Vec<RawPointer>,
    #[serde(default)]
    predict: Option<RawQuestion>,
    #[serde(default)]
    tensors: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSelect {
    query: Option<usize>,
    cell: Option<(usize, usize)>,
}

/// A lesson file as the loader reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doc<'a> {
    /// TOML as written (read where the TOML reader is: natively).
    Toml(&'a str),
    /// JSON: a tensors document, or a TOML file the build converted.
    Json(&'a str),
    /// A TOML file that is not valid TOML: its text, the byte where the reader stopped
    /// (if it said) and why.
    Broken {
        /// The file's text.
        text: &'a str,
        /// The byte where the reader stopped.
        at: Option<usize>,
        /// The reader's message.
        message: &'a str,
    },
}

impl<'a> Doc<'a> {
    /// The file's text (a converted file's JSON).
    pub fn text(&self) -> &'a str {
        match *self {
            Doc::Toml(text) | Doc::Json(text) | Doc::Broken { text, .. } => text,
        }
    }
}

/// Reads every lesson among `files` (`(path below lessons/, text)`: lesson files in TOML,
/// tensors in JSON, as a teacher writes them): the lessons without an error, in the order
/// of their folders' numbers, and every error found.
pub fn load(files: &[(&str, &str)]) -> (Catalog, Vec<LoadError>) {
    let docs: Vec<(&str, Doc)> = files
        .iter()
        .map(|&(path, text)| match path.ends_with(".toml") {
            true => (path, Doc::Toml(text)),
            false => (path, Doc::Json(text)),
        })
        .collect();
    load_docs(&docs)
}

/// [`load`] of documents (as the build embeds them, TOML converted to JSON).
pub fn load_docs(files: &[(&str, Doc<'_>)]) -> (Catalog, Vec<LoadError>) {
    let mut folders: BTreeMap<&str, BTreeMap<&str, Doc>> = BTreeMap::new();
    let mut errors = Vec::new();
    for &(path, text) in files {
        match path.split_once('/') {
            Some((folder, name)) if !name.contains('/') => {
                folders.entry(folder).or_default().insert(name, text);
            }
            _ => errors.push(LoadError {
                file: path.into(),
                step: None,
                message: "lesson files belong directly in a lesson's folder (lessons/NN-id/)"
                    .into(),
            }),
        }
    }
    let mut lessons: Vec<Lesson> = Vec::new();
    for (folder, files) in folders {
        match read_lesson(folder, &files) {
            Ok(lesson) => {
                if let Some(other) = lessons
                    .iter()
                    .find(|l| l.id == lesson.id || l.number == lesson.number)
                {
                    errors.push(LoadError {
                        file: format!("{folder}/"),
                        step: None,
                        message: format!(
                            "the folder has the same number or id as {}/",
                            other.folder
                        ),
                    });
                } else {
                    lessons.push(lesson);
                }
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    lessons.sort_by_key(|l| l.number);
    (Catalog { lessons }, errors)
}

/// Whether `id` is usable in a link: lower-case ASCII letters, digits and `-`.
fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The step a byte offset of a file falls in: the last `id = "…"` after the last
/// `[[steps]]` (lesson.toml) or the last `[steps.ID]` (a language file) before it.
fn step_at(text: &str, offset: usize) -> Option<String> {
    let before = &text[..offset.min(text.len())];
    if let Some(at) = before.rfind("[[steps]]") {
        let block = &text[at..];
        let block = &block[..block[9..].find("[[steps]]").map_or(block.len(), |e| e + 9)];
        let id_at = block.find("id = \"")? + 6;
        let end = block[id_at..].find('"')?;
        return Some(block[id_at..id_at + end].to_string());
    }
    let at = before.rfind("[steps.")? + 7;
    let end = text[at..].find(']')?;
    Some(text[at..at + end].trim_matches('"').to_string())
}

/// The error at byte `at` of `text`, naming its line and step.
fn located(file: &str, text: &str, at: Option<usize>, message: &str) -> LoadError {
    LoadError {
        file: file.to_string(),
        step: at.and_then(|at| step_at(text, at)),
        message: match at {
            Some(at) => format!("line {}: {message}", line_of(text, at)),
            None => message.to_string(),
        },
    }
}

fn parse<'a, T: Deserialize<'a>>(file: &str, doc: Doc<'a>) -> Result<T, LoadError> {
    match doc {
        Doc::Json(json) => serde_json::from_str(json).map_err(|e| {
            let message = e.to_string();
            // The converted JSON's lines are not the file's.
            let message = message.split(" at line ").next().unwrap_or(&message);
            LoadError {
                file: file.to_string(),
                step: None,
                message: message.to_string(),
            }
        }),
        Doc::Broken { text, at, message } => Err(located(file, text, at, message)),
        #[cfg(not(target_arch = "wasm32"))]
        Doc::Toml(text) => toml::from_str(text)
            .map_err(|e| located(file, text, e.span().map(|s| s.start), e.message())),
        #[cfg(target_arch = "wasm32")]
        Doc::Toml(_) => Err(LoadError {
            file: file.to_string(),
            step: None,
            message: "lesson files are read when the app is built; this one was not".into(),
        }),
    }
}

fn read_lesson(folder: &str, files: &BTreeMap<&str, Doc>) -> Result<Lesson, Vec<LoadError>> {
    let err = |file: &str, step: Option<&str>, message: String| LoadError {
        file: format!("{folder}/{file}"),
        step: step.map(String::from),
        message,
    };
    let (number, id) = match folder.split_once('-') {
        Some((n, id)) if n.len() >= 2 && n.bytes().all(|b| b.is_ascii_digit()) && is_id(id) => {
            (n.parse::<u32>().unwrap_or(u32::MAX), id)
        }
        _ => {
            return Err(vec![err(
                "",
                None,
                "a lesson's folder is called NN-id: a number of two digits, a dash and an id of \
                 lower-case letters, digits and dashes (e.g. 03-scaling)"
                    .into(),
            )]);
        }
    };
    let mut errors = Vec::new();
    let Some(lesson_text) = files.get("lesson.toml") else {
        return Err(vec![err("lesson.toml", None, "the file is missing".into())]);
    };
    let raw: RawLesson =
        parse(&format!("{folder}/lesson.toml"), *lesson_text).map_err(|e| vec![e])?;
    let mut texts = BTreeMap::new();
    for lang in Lang::ALL {
        let name = format!("{}.toml", lang.code());
        match files.get(name.as_str()) {
            None => errors.push(err(&name, None, "the file is missing".into())),
            Some(text) => match parse::<LessonText>(&format!("{folder}/{name}"), *text) {
                Ok(t) => {
                    texts.insert(lang, t);
                }
                Err(e) => errors.push(e),
            },
        }
    }
    let mut used_files = BTreeSet::from(["lesson.toml".to_string()]);
    used_files.extend(Lang::ALL.map(|l| format!("{}.toml", l.code())));
    let mut steps: Vec<Step> = Vec::new();
    if raw.steps.is_empty() {
        errors.push(err(
            "lesson.toml",
            None,
            "a lesson needs at least one step".into(),
        ));
    }
    for step in &raw.steps {
        if let Some(name) = &step.tensors {
            used_files.insert(name.clone());
        }
        let at = |message: String| err("lesson.toml", Some(&step.id), message);
        if !is_id(&step.id) {
            errors.push(at(
                "a step's id is lower-case letters, digits and dashes".into()
            ));
            continue;
        }
        if steps.iter().any(|s| s.id == step.id) {
            errors.push(at("two steps have this id".into()));
            continue;
        }
        match read_step(folder, files, raw.base.as_ref(), step) {
            Ok(s) => steps.push(s),
            Err(messages) => errors.extend(messages.into_iter().map(at)),
        }
    }
    for name in files.keys().filter(|n| !used_files.contains(**n)) {
        errors.push(err(
            name,
            None,
            "no step of the lesson uses this file".into(),
        ));
    }
    for (lang, text) in &texts {
        let file = format!("{}.toml", lang.code());
        check_texts(text, &raw.steps, &mut |step, message| {
            errors.push(err(&file, step, message))
        });
    }
    if errors.is_empty() {
        Ok(Lesson {
            id: id.to_string(),
            number,
            folder: folder.to_string(),
            steps,
            texts,
        })
    } else {
        Err(errors)
    }
}

/// The checks of one language's texts against the steps.
fn check_texts(text: &LessonText, raw: &[RawStep], report: &mut dyn FnMut(Option<&str>, String)) {
    for (field, value) in [("title", &text.title), ("summary", &text.summary)] {
        if value.trim().is_empty() {
            report(None, format!("the lesson's {field} is empty"));
        }
    }
    for step in raw {
        let Some(words) = text.step(&step.id) else {
            report(
                Some(&step.id),
                "the step has no text in this language".into(),
            );
            continue;
        };
        let predict = step.kind.as_deref() == Some("predict");
        for (field, value) in words.fields() {
            if value.trim().is_empty() {
                report(Some(&step.id), format!("the {field} is empty"));
            }
            for name in placeholders(value) {
                if format!("{{{name}}}") != ANSWER || field != "reveal" {
                    report(
                        Some(&step.id),
                        format!("the {field} holds {{{name}}}; only a reveal may hold {ANSWER}"),
                    );
                }
            }
        }
        match (predict, &words.question, &words.reveal) {
            (true, Some(_), Some(_)) | (false, None, None) => {}
            (true, _, _) => report(
                Some(&step.id),
                "a predict step needs a question and a reveal".into(),
            ),
            (false, _, _) => report(
                Some(&step.id),
                "only a predict step has a question and a reveal".into(),
            ),
        }
    }
    for id in text.steps.keys() {
        if !raw.iter().any(|s| &s.id == id) {
            report(Some(id), "lesson.toml has no step of this id".into());
        }
    }
}

/// The names of the placeholders in a text: `{answer}` → `answer`. Braces around
/// anything but lower-case letters and `_` (such as `S_{i−1}`) are not placeholders.
fn placeholders(text: &str) -> Vec<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .filter(|name| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        })
        .collect()
}

/// The number of queries and keys of a tensors document (its first head's `q` and `k`).
fn tensor_size(json: &str) -> Option<(usize, usize)> {
    let doc: Value = serde_json::from_str(json).ok()?;
    let head = doc.get("heads")?.get(0)?;
    let rows = |m: &str| head.get(m).and_then(Value::as_array).map(Vec::len);
    Some((rows("q")?, rows("k")?))
}

/// Shallow merge: the step's keys replace the base's.
fn merged(base: Option<&Value>, state: Option<&Value>) -> Result<Value, String> {
    let mut out = serde_json::Map::new();
    for (what, value) in [("base", base), ("state", state)] {
        match value {
            None => {}
            Some(Value::Object(map)) => out.extend(map.clone()),
            Some(_) => return Err(format!("the {what} is a table of a link's keys")),
        }
    }
    Ok(Value::Object(out))
}

fn read_step(
    folder: &str,
    files: &BTreeMap<&str, Doc>,
    base: Option<&Value>,
    raw: &RawStep,
) -> Result<Step, Vec<String>> {
    let mut errors = Vec::new();
    let page = Page::parse(&raw.page).ok_or_else(|| {
        let names: Vec<&str> = Page::ALL.iter().map(|p| p.name()).collect();
        vec![format!(
            "the page “{}” does not exist (pages: {})",
            raw.page,
            names.join(", ")
        )]
    })?;
    let json = merged(base, raw.state.as_ref()).map_err(|e| vec![e])?;
    if json.get("u").is_some() {
        errors.push("the page is set by `page`, not by the state's `u`".into());
    }
    let mut state = match decode_value(json) {
        Ok(d) if d.repairs.is_empty() => d.state,
        Ok(d) => {
            return Err(vec![format!(
                "the state needs repairs: {}",
                d.repairs.join("; ")
            )]);
        }
        Err(e) => return Err(vec![format!("the state cannot be read: {}", e.reason())]),
    };
    state.view.page = page;
    let tensors = raw.tensors.as_ref().and_then(|name| {
        let path = format!("{folder}/{name}");
        match files.get(name.as_str()) {
            None => {
                errors.push(format!(
                    "the tensors file {name} is not in the lesson's folder"
                ));
                None
            }
            Some(doc) => match serde_json::from_str::<Value>(doc.text()) {
                Ok(v) if v.get("format").and_then(Value::as_str) == Some(TENSORS_FORMAT) => {
                    Some(TensorFile {
                        path,
                        json: doc.text().to_string(),
                    })
                }
                Ok(_) => {
                    errors.push(format!(
                        "{name} is not marked \"format\": \"{TENSORS_FORMAT}\""
                    ));
                    None
                }
                Err(e) => {
                    errors.push(format!("{name} is not JSON: {e}"));
                    None
                }
            },
        }
    });
    if tensors.is_some() && page != Page::Lab {
        errors.push("tensors are shown on the lab page (page = \"lab\")".into());
    }
    let pipeline = Pipeline::new(&state);
    // A step that shows tensors points into their n × m, not the seeded model's.
    let (n, m) = tensors
        .as_ref()
        .and_then(|t| tensor_size(&t.json))
        .unwrap_or((
            pipeline.queries().used().len(),
            pipeline.keys().used().len(),
        ));

    let selection = match &raw.select {
        None => Selection::default(),
        Some(s) => {
            if let Some(q) = s.query.filter(|&q| q >= n) {
                errors.push(format!("the selected query {q} is not below {n}"));
            }
            if let Some((i, j)) = s.cell.filter(|&(i, j)| i >= n || j >= m) {
                errors.push(format!("the selected cell ({i}, {j}) is outside {n} × {m}"));
            }
            Selection {
                query: s.query,
                cell: s.cell,
            }
        }
    };

    if raw.point.is_empty() {
        errors.push("a step points at one figure at least (`point`)".into());
    }
    let pointers: Vec<Pointer> = raw
        .point
        .iter()
        .filter_map(|p| match pointer(p, page, &state, (n, m)) {
            Ok(p) => Some(p),
            Err(e) => {
                errors.push(e);
                None
            }
        })
        .collect();

    let kind = match (raw.kind.as_deref().unwrap_or("explain"), &raw.predict) {
        ("explain", None) => StepKind::Explain,
        ("explain", Some(_)) => {
            errors.push("an explain step has no `predict` (set kind = \"predict\")".into());
            StepKind::Explain
        }
        ("predict", None) => {
            errors.push("a predict step needs a `predict` table".into());
            StepKind::Explain
        }
        ("predict", Some(q)) => match question(q) {
            Ok(q) => match answer(&q, &state, None) {
                Ok(_) => StepKind::Predict(q),
                Err(e) => {
                    errors.push(format!("the question has no answer: {}", e.sentence()));
                    StepKind::Explain
                }
            },
            Err(e) => {
                errors.push(e);
                StepKind::Explain
            }
        },
        (other, _) => {
            errors.push(format!("the kind “{other}” is not explain or predict"));
            StepKind::Explain
        }
    };

    if errors.is_empty() {
        Ok(Step {
            id: raw.id.clone(),
            kind,
            page,
            state,
            selection,
            pointers,
            tensors,
        })
    } else {
        Err(errors)
    }
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
