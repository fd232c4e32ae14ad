//! The read-out of the selected query's row: its values as shown (blocked cells apart),
//! as text, and the sentence the view reads out.

use attnlab_plot::number;

use super::stages::{Stage, StageKind};
use attnlab_i18n::Lang;
use attnlab_i18n::marked::{MARK, Part, parts};
use attnlab_i18n::msg::steps as text;

/// Where the quoted token goes in a read-out's sentence.
const TOKEN: char = MARK[0];
/// Where the row's values go in a read-out's sentence.
const VALUES: char = MARK[1];

/// What the view reads out for a stage and its query.
#[derive(Debug, Clone, PartialEq)]
pub struct Readout {
    /// One sentence: the query's row with its values, or, when the rows are the keys,
    /// which query is selected.
    pub text: String,
    /// The same sentence in parts: words of the language (`false`) and the tokens and
    /// values quoted as they are (`true`), so that a page can mark the latter as not to
    /// be translated.
    pub parts: Vec<(String, bool)>,
    /// The query's row (`None` for a blocked cell), when the rows are the queries.
    pub values: Option<Vec<Option<f32>>>,
}

impl Readout {
    /// The sum of the row's unblocked values, when the rows are the queries.
    pub fn sum(&self) -> Option<f32> {
        self.values.as_ref().map(|v| v.iter().flatten().sum())
    }
}

impl Stage {
    /// Row `i` as shown: `None` for a blocked cell (`−∞` logits, or a masked weight).
    pub fn row_values(&self, i: usize) -> Option<Vec<Option<f32>>> {
        if i >= self.values.nrows() {
            return None;
        }
        Some(
            self.values
                .row(i)
                .iter()
                .enumerate()
                .map(|(j, &v)| (!self.is_blocked(i, j)).then_some(v))
                .collect(),
        )
    }

    /// The value a blocked cell reads as: `−∞` for logits, `0` for weights.
    pub fn blocked_text(&self) -> &'static str {
        match self.kind {
            StageKind::Masked => "\u{2212}\u{221e}",
            _ => "0",
        }
    }

    /// Row `i` as text, each value rounded to `digits` decimals (`−∞` for a blocked
    /// logit), e.g. `"0.125, −∞, 0.875"`; when the columns are tokens, each value follows
    /// its token, e.g. `"The 0.125, animal −∞, it 0.875"`.
    pub fn row_text(&self, i: usize, digits: usize) -> Option<String> {
        let row = self.row_values(i)?;
        let tokens = self.col_axis.names_tokens();
        Some(
            row.iter()
                .enumerate()
                .map(|(j, v)| {
                    let value = match v {
                        Some(v) => number::decimals(*v, digits),
                        None => self.blocked_text().to_string(),
                    };
                    match self.cols.get(j) {
                        Some(label) if tokens => format!("{label} {value}"),
                        _ => value,
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
        )
    }

    /// The read-out for the stage's query in `lang`, values rounded to `digits`
    /// decimals: e.g. `Row “it” (7) of Softmax weights: The 0.012, …` when the rows are
    /// the queries; `None` when the stage has no query (one past the last token). The
    /// stage's name is the one it was built with.
    pub fn readout(&self, digits: usize, lang: Lang) -> Option<Readout> {
        let query = self.query.as_ref()?;
        let (q, token) = (query.index, &query.token);
        let name = self.name;
        let quoted = format!("\u{201c}{token}\u{201d}");
        // The sentence is said with marks where the token and the values go, then cut
        // there, so that those are kept apart from the words of the language.
        let (sentence, values, row_values) = match self.highlight {
            Some(row) => {
                let sentence = text::StepsReadoutRow {
                    token: &TOKEN,
                    index: &q,
                    stage: &name,
                    values: &VALUES,
                }
                .say(lang);
                (
                    sentence,
                    self.row_text(row, digits)?,
                    Some(self.row_values(row)?),
                )
            }
            None => {
                let sentence = text::StepsReadoutKeys {
                    token: &TOKEN,
                    index: &q,
                    stage: &name,
                }
                .say(lang);
                (sentence, String::new(), None)
            }
        };
        let parts: Vec<(String, bool)> = parts(&sentence)
            .into_iter()
            .map(|p| match p {
                Part::Text(t) => (t, false),
                Part::Marked(0) => (quoted.clone(), true),
                Part::Marked(_) => (values.clone(), true),
            })
            .collect();
        let values = row_values;
        Some(Readout {
            text: parts.iter().map(|p| p.0.as_str()).collect(),
            parts,
            values,
        })
    }
}
