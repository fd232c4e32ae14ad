//! The message catalogue's compiler: reads the Fluent files of every language
//! (`locales/<lang>/<area>.ftl`), checks that the languages agree (the same files, the
//! same ids, the same variables in each message), and writes plain Rust: a fixed
//! message is a [`Tr`](crate::Tr) constant, a message with variables a struct whose
//! fields are its variables and whose `say(lang)` formats it. No parser is left in the
//! program that uses it.
//!
//! Used by `build.rs` (which writes `$OUT_DIR/catalogue.rs`) and by the crate's tests.
//!
//! What a message may hold: text, `{ $variable }`, `{ "literal" }`, and select
//! expressions on a variable, `{ $n -> [one] … *[other] … }`. A selector whose keys are
//! numbers or plural categories (`zero`, `one`, `two`, `few`, `many`, `other`) is a
//! count (`usize`): an exact number matches first, then the language's plural category
//! (English: `one` for 1, `other` otherwise; Chinese: always `other`). A selector with
//! other keys is a `&str` matched against them. Anything else (terms, functions,
//! references to other messages, attributes) is refused, so every message is one
//! format of its variables in each language.
//!
//! A language may leave a variable unsaid only where the message's comment says so
//! (`# unsaid: $detail`): e.g. a file's own English words, which the Chinese says by
//! their kind instead.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use fluent_syntax::ast;

/// The languages of the catalogue, first the one whose text documents a message.
pub const LANGS: [&str; 2] = ["en", "zh"];

/// What a variable is, read from how a message uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum VarKind {
    /// Shown as it is: `&dyn Display`.
    Shown,
    /// Chooses a variant by number or plural category: `usize`.
    Count,
    /// Chooses a variant by name: `&str`.
    Name,
}

/// A part of a message in one language.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Text as it is shown.
    Text(String),
    /// A variable's value.
    Var(String),
    /// A choice on a variable: its variants (key, parts) and the default's index.
    Select {
        /// The variable chosen on.
        var: String,
        /// Each variant's key and parts.
        variants: Vec<(Key, Vec<Part>)>,
        /// The default variant.
        default: usize,
    },
}

/// A variant's key.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// `[3]`.
    Number(usize),
    /// `[one]`, `[causal]`.
    Name(String),
}

/// One message in every language.
#[derive(Debug, Clone)]
pub struct Message {
    /// Its id, e.g. `shape-mismatch`.
    pub id: String,
    /// Its parts per language, in the order of [`LANGS`].
    pub parts: Vec<Vec<Part>>,
    /// Its variables and what they are.
    pub vars: BTreeMap<String, VarKind>,
}

/// A checked catalogue: per area (file stem), its messages in file order.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    /// Area (`core`, `lab`, …) → messages.
    pub areas: BTreeMap<String, Vec<Message>>,
}

impl Catalogue {
    /// How many ids (each is in every language).
    pub fn ids(&self) -> usize {
        self.areas.values().map(Vec::len).sum()
    }
}

/// Reads `root/<lang>/*.ftl` for every language: `files[lang][area] = text`.
pub fn read_dir(root: &std::path::Path) -> std::io::Result<Vec<BTreeMap<String, String>>> {
    LANGS
        .iter()
        .map(|lang| {
            let mut areas = BTreeMap::new();
            for entry in std::fs::read_dir(root.join(lang))? {
                let path = entry?.path();
                if path.extension().is_some_and(|x| x == "ftl") {
                    let area = path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    areas.insert(area, std::fs::read_to_string(&path)?);
                }
            }
            Ok(areas)
        })
        .collect()
}

/// A message as read from one file: its id, its parts, and the variables its comment
/// says it leaves unsaid (`# unsaid: $detail`).
type Parsed = (String, Vec<Part>, BTreeSet<String>);

const PLURAL: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// Reads the sources: `files[lang][area] = text`, with `lang` in [`LANGS`]' order.
/// Every disagreement between the languages and every construct the generator does not
/// write is an error, all of them listed.
pub fn check(files: &[BTreeMap<String, String>]) -> Result<Catalogue, Vec<String>> {
    let mut errors = Vec::new();
    let mut per_lang: Vec<BTreeMap<String, Vec<Parsed>>> = Vec::new();
    for (lang, areas) in LANGS.iter().zip(files) {
        let mut read = BTreeMap::new();
        for (area, text) in areas {
            let where_ = format!("{lang}/{area}.ftl");
            read.insert(area.clone(), parse_file(&where_, text, &mut errors));
        }
        per_lang.push(read);
    }
    let en = &per_lang[0];
    let mut catalogue = Catalogue::default();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (l, other) in per_lang.iter().enumerate().skip(1) {
        for area in other.keys().filter(|a| !en.contains_key(*a)) {
            errors.push(format!(
                "{}/{area}.ftl has no {}/{area}.ftl",
                LANGS[l], LANGS[0]
            ));
        }
    }
    for (area, messages) in en {
        for (id, _, _) in messages {
            if let Some(first) = seen.insert(id.clone(), area.clone()) {
                errors.push(format!("`{id}` is in {first}.ftl and in {area}.ftl"));
            }
        }
        let mut out = Vec::new();
        for (l, other) in per_lang.iter().enumerate().skip(1) {
            let Some(theirs) = other.get(area) else {
                errors.push(format!(
                    "{}/{area}.ftl has no {}/{area}.ftl",
                    LANGS[0], LANGS[l]
                ));
                continue;
            };
            for (id, _, _) in theirs {
                if !messages.iter().any(|(i, _, _)| i == id) {
                    errors.push(format!(
                        "{}/{area}.ftl: `{id}` is not in {}/{area}.ftl",
                        LANGS[l], LANGS[0]
                    ));
                }
            }
        }
        for (id, parts, unsaid) in messages {
            let mut all = vec![parts.clone()];
            let mut unsaids = vec![unsaid.clone()];
            for (l, other) in per_lang.iter().enumerate().skip(1) {
                match other
                    .get(area)
                    .and_then(|m| m.iter().find(|(i, _, _)| i == id))
                {
                    Some((_, p, u)) => {
                        all.push(p.clone());
                        unsaids.push(u.clone());
                    }
                    None => {
                        if other.contains_key(area) {
                            errors.push(format!(
                                "{}/{area}.ftl: `{id}` is missing (it is in {}/{area}.ftl)",
                                LANGS[l], LANGS[0]
                            ));
                        }
                    }
                }
            }
            if all.len() != LANGS.len() {
                continue;
            }
            match variables(id, area, &all, &unsaids) {
                Ok(vars) => out.push(Message {
                    id: id.clone(),
                    parts: all,
                    vars,
                }),
                Err(e) => errors.push(e),
            }
        }
        catalogue.areas.insert(area.clone(), out);
    }
    if errors.is_empty() {
        Ok(catalogue)
    } else {
        Err(errors)
    }
}

/// The variables of a message in each language; an error unless they are the same (but
/// for those a language's comment says it leaves unsaid) and each is one kind.
fn variables(
    id: &str,
    area: &str,
    all: &[Vec<Part>],
    unsaid: &[BTreeSet<String>],
) -> Result<BTreeMap<String, VarKind>, String> {
    let mut per_lang = Vec::new();
    for parts in all {
        let mut vars = BTreeMap::new();
        collect(parts, &mut vars).map_err(|e| format!("{area}.ftl: `{id}`: {e}"))?;
        per_lang.push(vars);
    }
    let names = |v: &BTreeMap<String, VarKind>| v.keys().cloned().collect::<BTreeSet<_>>();
    let first = names(&per_lang[0]);
    for (l, vars) in per_lang.iter().enumerate().skip(1) {
        let theirs = names(vars);
        let declared = first.difference(&theirs).all(|v| unsaid[l].contains(v))
            && theirs.difference(&first).all(|v| unsaid[0].contains(v));
        for (lang, said, vars) in [(0, &first, &unsaid[0]), (l, &theirs, &unsaid[l])] {
            if let Some(v) = vars.iter().find(|v| said.contains(*v)) {
                return Err(format!(
                    "{area}.ftl: `{id}` says ${v} in {} though its comment leaves it unsaid",
                    LANGS[lang]
                ));
            }
        }
        if theirs != first && !declared {
            let show = |s: &BTreeSet<String>| {
                s.iter()
                    .map(|v| format!("${v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(format!(
                "{area}.ftl: `{id}` has the variables [{}] in {} but [{}] in {}",
                show(&first),
                LANGS[0],
                show(&theirs),
                LANGS[l]
            ));
        }
    }
    let mut merged: BTreeMap<String, VarKind> = BTreeMap::new();
    for vars in &per_lang {
        for (name, kind) in vars {
            let slot = merged.entry(name.clone()).or_insert(VarKind::Shown);
            *slot = match (*slot, *kind) {
                (a, VarKind::Shown) => a,
                (VarKind::Shown, b) => b,
                (a, b) if a == b => a,
                _ => {
                    return Err(format!(
                        "{area}.ftl: `{id}`: ${name} chooses by count in one language and by name in another"
                    ));
                }
            };
        }
    }
    Ok(merged)
}

fn collect(parts: &[Part], vars: &mut BTreeMap<String, VarKind>) -> Result<(), String> {
    for part in parts {
        match part {
            Part::Text(_) => {}
            Part::Var(v) => {
                vars.entry(v.clone()).or_insert(VarKind::Shown);
            }
            Part::Select { var, variants, .. } => {
                let count = variants.iter().all(|(k, _)| match k {
                    Key::Number(_) => true,
                    Key::Name(n) => PLURAL.contains(&n.as_str()),
                });
                let kind = if count { VarKind::Count } else { VarKind::Name };
                if !count && variants.iter().any(|(k, _)| matches!(k, Key::Number(_))) {
                    return Err(format!("${var} has number keys and name keys"));
                }
                let slot = vars.entry(var.clone()).or_insert(kind);
                if *slot == VarKind::Shown {
                    *slot = kind;
                } else if *slot != kind {
                    return Err(format!("${var} chooses by count and by name"));
                }
                for (_, p) in variants {
                    collect(p, vars)?;
                }
            }
        }
    }
    Ok(())
}

fn parse_file(where_: &str, text: &str, errors: &mut Vec<String>) -> Vec<Parsed> {
    let resource = match fluent_syntax::parser::parse(text) {
        Ok(r) => r,
        Err((r, errs)) => {
            for e in errs {
                let line = text[..e.pos.start.min(text.len())].matches('\n').count() + 1;
                errors.push(format!("{where_}:{line}: {:?}", e.kind));
            }
            r
        }
    };
    let mut out: Vec<Parsed> = Vec::new();
    for entry in resource.body {
        match entry {
            ast::Entry::Message(m) => {
                let id = m.id.name.to_string();
                if !id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    errors.push(format!("{where_}: `{id}`: an id is lowercase-with-dashes"));
                }
                if !m.attributes.is_empty() {
                    errors.push(format!("{where_}: `{id}`: attributes are not supported"));
                }
                let Some(value) = m.value else {
                    errors.push(format!("{where_}: `{id}` has no value"));
                    continue;
                };
                if out.iter().any(|(i, _, _)| *i == id) {
                    errors.push(format!("{where_}: `{id}` is written twice"));
                }
                let unsaid = m
                    .comment
                    .iter()
                    .flat_map(|c| c.content.iter())
                    .filter_map(|line| line.trim().strip_prefix("unsaid:"))
                    .flat_map(|vars| vars.split([',', ' ']))
                    .filter_map(|v| v.trim().strip_prefix('$'))
                    .map(String::from)
                    .collect();
                match pattern(&value) {
                    Ok(parts) => out.push((id, parts, unsaid)),
                    Err(e) => errors.push(format!("{where_}: `{id}`: {e}")),
                }
            }
            ast::Entry::Term(t) => {
                errors.push(format!("{where_}: -{}: terms are not supported", t.id.name))
            }
            ast::Entry::Junk { content } => {
                errors.push(format!("{where_}: cannot read `{}`", content.trim()))
            }
            ast::Entry::Comment(_)
            | ast::Entry::GroupComment(_)
            | ast::Entry::ResourceComment(_) => {}
        }
    }
    out
}

fn pattern(p: &ast::Pattern<&str>) -> Result<Vec<Part>, String> {
    let mut parts: Vec<Part> = Vec::new();
    let push_text = |parts: &mut Vec<Part>, s: &str| match parts.last_mut() {
        Some(Part::Text(t)) => t.push_str(s),
        _ => parts.push(Part::Text(s.to_string())),
    };
    for element in &p.elements {
        match element {
            ast::PatternElement::TextElement { value } => push_text(&mut parts, value),
            ast::PatternElement::Placeable { expression } => match expression {
                ast::Expression::Inline(inline) => match inline {
                    ast::InlineExpression::StringLiteral { value } => push_text(
                        &mut parts,
                        &fluent_syntax::unicode::unescape_unicode_to_string(value),
                    ),
                    ast::InlineExpression::VariableReference { id } => {
                        parts.push(Part::Var(id.name.to_string()))
                    }
                    other => {
                        return Err(format!(
                            "only variables and \"text\" can be placed, not {other:?}"
                        ));
                    }
                },
                ast::Expression::Select { selector, variants } => {
                    let ast::InlineExpression::VariableReference { id } = selector else {
                        return Err("a select expression chooses on a variable".into());
                    };
                    let mut out = Vec::new();
                    let mut default = 0;
                    for (i, v) in variants.iter().enumerate() {
                        let key = match &v.key {
                            ast::VariantKey::Identifier { name } => Key::Name(name.to_string()),
                            ast::VariantKey::NumberLiteral { value } => {
                                Key::Number(value.parse().map_err(|_| {
                                    format!("[{value}]: a number key is a whole number")
                                })?)
                            }
                        };
                        if v.default {
                            default = i;
                        }
                        out.push((key, pattern(&v.value)?));
                    }
                    parts.push(Part::Select {
                        var: id.name.to_string(),
                        variants: out,
                        default,
                    });
                }
            },
        }
    }
    Ok(parts)
}

/// `shape-mismatch` → `ShapeMismatch`.
pub fn camel(id: &str) -> String {
    id.split(['-', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `shape-mismatch` → `shape_mismatch`.
pub fn snake(id: &str) -> String {
    let s = id.replace('-', "_");
    match s.as_str() {
        "type" | "self" | "match" | "mod" | "fn" | "in" | "ref" | "move" | "use" | "loop" => {
            format!("r#{s}")
        }
        _ => s,
    }
}

/// The text of a message with its variables as `{$name}`, the way a doc comment shows it.
pub fn plain(parts: &[Part]) -> String {
    let mut s = String::new();
    for p in parts {
        match p {
            Part::Text(t) => s.push_str(t),
            Part::Var(v) => {
                let _ = write!(s, "{{${v}}}");
            }
            Part::Select {
                var,
                variants,
                default,
            } => {
                let _ = write!(s, "{{${var} → ");
                s.push_str(&plain(&variants[*default].1));
                s.push('}');
            }
        }
    }
    s
}

/// The text parts only (what a language check reads): variables and choices left out,
/// each variant's text kept.
pub fn texts(parts: &[Part]) -> String {
    let mut s = String::new();
    for p in parts {
        match p {
            Part::Text(t) => s.push_str(t),
            Part::Var(_) => s.push(' '),
            Part::Select { variants, .. } => {
                for (_, v) in variants {
                    s.push(' ');
                    s.push_str(&texts(v));
                }
            }
        }
    }
    s
}

fn escape_fmt(s: &str) -> String {
    s.replace('{', "{{").replace('}', "}}")
}

/// The Rust expression (a `String`) of `parts` in language `lang` (`En`, `Zh`).
fn expr(parts: &[Part], lang: &str, vars: &BTreeMap<String, VarKind>) -> String {
    if let [Part::Text(t)] = parts {
        return format!("String::from({t:?})");
    }
    if let [Part::Var(v)] = parts {
        return format!("self.{}.to_string()", snake(v));
    }
    if parts.is_empty() {
        return "String::new()".into();
    }
    if let [
        Part::Select {
            var,
            variants,
            default,
        },
    ] = parts
    {
        return select(var, variants, *default, lang, vars);
    }
    let mut fmt = String::new();
    let mut args = Vec::new();
    for p in parts {
        match p {
            Part::Text(t) => fmt.push_str(&escape_fmt(t)),
            Part::Var(v) => {
                fmt.push_str("{}");
                args.push(format!("self.{}", snake(v)));
            }
            Part::Select {
                var,
                variants,
                default,
            } => {
                fmt.push_str("{}");
                args.push(select(var, variants, *default, lang, vars));
            }
        }
    }
    format!("format!({:?}, {})", fmt, args.join(", "))
}

fn select(
    var: &str,
    variants: &[(Key, Vec<Part>)],
    default: usize,
    lang: &str,
    vars: &BTreeMap<String, VarKind>,
) -> String {
    let field = format!("self.{}", snake(var));
    let mut s = String::new();
    let mut arms: Vec<(String, usize)> = Vec::new();
    match vars.get(var) {
        Some(VarKind::Count) => {
            // Exact numbers first, then the language's plural category.
            for (i, (k, _)) in variants.iter().enumerate() {
                if let Key::Number(n) = k {
                    arms.push((format!("{field} == {n}"), i));
                }
            }
            for (i, (k, _)) in variants.iter().enumerate() {
                if let Key::Name(n) = k {
                    arms.push((
                        format!("crate::plural(crate::Lang::{lang}, {field}) == {n:?}"),
                        i,
                    ));
                }
            }
        }
        _ => {
            for (i, (k, _)) in variants.iter().enumerate() {
                if let Key::Name(n) = k {
                    arms.push((format!("{field} == {n:?}"), i));
                }
            }
        }
    }
    s.push('{');
    for (cond, i) in arms.iter().filter(|(_, i)| *i != default) {
        let _ = write!(
            s,
            " if {cond} {{ {} }} else",
            expr(&variants[*i].1, lang, vars)
        );
    }
    let _ = write!(s, " {{ {} }} }}", expr(&variants[default].1, lang, vars));
    s
}

fn rust_lang(lang: &str) -> String {
    camel(lang)
}

/// The Rust source of the catalogue: `pub mod <area> { … }` per area, for the crate
/// that defines `Lang` (`En`, `Zh`), `Tr`, `Said` and `plural(lang, n) -> &str`.
pub fn render(catalogue: &Catalogue) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// How many ids the catalogue holds (each in every language).\npub const IDS: usize = {};",
        catalogue.ids()
    );
    for (area, messages) in &catalogue.areas {
        let _ = writeln!(out, "\n/// The messages of `locales/*/{area}.ftl`.");
        let _ = writeln!(out, "pub mod {} {{", snake(area));
        let _ = writeln!(
            out,
            "    #[allow(unused_imports)]\n    use crate::{{Lang, Said, Tr}};"
        );
        for m in messages {
            // The English as code, so that rustdoc reads no link in `heads[0]`.
            let doc: String = plain(&m.parts[0])
                .lines()
                .map(|l| format!("    /// `` {l} ``\n"))
                .collect();
            if m.vars.is_empty() {
                let texts: Vec<String> = m
                    .parts
                    .iter()
                    .map(|p| match p.as_slice() {
                        [Part::Text(t)] => format!("{t:?}"),
                        [] => "\"\"".into(),
                        _ => unreachable!("a message without variables is text"),
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "\n{doc}    pub const {}: Tr = Tr::new({});",
                    snake(&m.id).trim_start_matches("r#").to_uppercase(),
                    texts.join(", ")
                );
                continue;
            }
            let name = camel(&m.id);
            let shown = m.vars.values().any(|k| *k != VarKind::Count);
            let life = if shown { "<'a>" } else { "" };
            let _ = writeln!(
                out,
                "\n{doc}    #[derive(Clone, Copy)]\n    pub struct {name}{life} {{"
            );
            for (v, kind) in &m.vars {
                let ty = match kind {
                    VarKind::Shown => "&'a dyn std::fmt::Display",
                    VarKind::Count => "usize",
                    VarKind::Name => "&'a str",
                };
                let _ = writeln!(out, "        /// `${v}`.\n        pub {}: {ty},", snake(v));
            }
            let _ = writeln!(out, "    }}\n");
            let anon = if shown { "<'_>" } else { "" };
            let _ = writeln!(out, "    impl {name}{anon} {{");
            let _ = writeln!(out, "        /// The message in `lang`.");
            let _ = writeln!(out, "        pub fn say(&self, lang: Lang) -> String {{");
            let _ = writeln!(out, "            match lang {{");
            for (l, parts) in LANGS.iter().zip(&m.parts) {
                let rl = rust_lang(l);
                let _ = writeln!(
                    out,
                    "                Lang::{rl} => {},",
                    expr(parts, &rl, &m.vars)
                );
            }
            let _ = writeln!(out, "            }}\n        }}\n");
            let _ = writeln!(out, "        /// The message in every language.");
            let _ = writeln!(
                out,
                "        pub fn said(&self) -> Said {{\n            Said::new(self.say(Lang::En), self.say(Lang::Zh))\n        }}"
            );
            let _ = writeln!(out, "    }}");
        }
        let _ = writeln!(out, "}}");
    }
    out
}
