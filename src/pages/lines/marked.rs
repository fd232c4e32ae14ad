//! A catalogue sentence some of whose values are shown in their own element (a token in
//! `<span translate="no">`, a formula): the sentence is said whole, with a mark in place
//! of each such value, and the marks are then replaced by their elements, wherever each
//! language puts them.

use leptos::prelude::*;

/// The stand-ins of a sentence's marked values: pass `&MARK[i]` as the variable whose
/// element is the `i`th one [`with_marked`] makes (characters of Unicode's private use
/// area, which no sentence holds).
pub const MARK: [char; 4] = ['\u{e000}', '\u{e001}', '\u{e002}', '\u{e003}'];

/// A part of a said sentence: its own text, or the index of a marked value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Marked(usize),
}

/// `said` cut at its marks.
fn parts(said: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut text = String::new();
    for c in said.chars() {
        match MARK.iter().position(|&m| m == c) {
            Some(i) => {
                if !text.is_empty() {
                    out.push(Part::Text(std::mem::take(&mut text)));
                }
                out.push(Part::Marked(i));
            }
            None => text.push(c),
        }
    }
    if !text.is_empty() {
        out.push(Part::Text(text));
    }
    out
}

/// `said` as views: its text as it is, each mark `MARK[i]` as `element(i)`.
pub fn with_marked(said: &str, mut element: impl FnMut(usize) -> AnyView) -> Vec<AnyView> {
    parts(said)
        .into_iter()
        .map(|p| match p {
            Part::Text(t) => t.into_any(),
            Part::Marked(i) => element(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_is_cut_at_its_marks_in_any_order() {
        let said = format!("{}（3）最关注：{} and {}", MARK[1], MARK[0], MARK[1]);
        assert_eq!(
            parts(&said),
            [
                Part::Marked(1),
                Part::Text("（3）最关注：".into()),
                Part::Marked(0),
                Part::Text(" and ".into()),
                Part::Marked(1),
            ]
        );
        assert_eq!(parts("no marks"), [Part::Text("no marks".into())]);
        assert!(parts("").is_empty());
    }
}
