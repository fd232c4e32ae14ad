//! A catalogue sentence some of whose values are shown apart from its words (a token
//! or a row of numbers kept as they are, in an element of their own): the sentence is
//! said whole with a mark in place of each such value, then cut at its marks, wherever
//! each language puts them.

/// The stand-ins of a sentence's marked values: pass `&MARK[i]` as the variable that
/// [`parts`] gives back as `Part::Marked(i)` (characters of Unicode's private use area,
/// which no sentence holds).
pub const MARK: [char; 4] = ['\u{e000}', '\u{e001}', '\u{e002}', '\u{e003}'];

/// A part of a said sentence: its own words, or the index of a marked value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Words of the sentence, as they are.
    Text(String),
    /// The `i`th marked value (`MARK[i]` in the sentence).
    Marked(usize),
}

/// `said` cut at its marks, in order.
pub fn parts(said: &str) -> Vec<Part> {
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
