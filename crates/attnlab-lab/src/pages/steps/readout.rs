//! The read-out of the selected query's row: its values as shown (blocked cells apart),
//! as text, and the sentence the view reads out.

use attnlab_plot::number;

use super::stages::{Stage, StageKind};

/// What the view reads out for a stage and its query.
#[derive(Debug, Clone, PartialEq)]
pub struct Readout {
    /// One sentence: the query's row with its values, or, when the rows are the keys,
    /// which query is selected.
    pub text: String,
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

    /// The read-out for the stage's query, values rounded to `digits` decimals: e.g.
    /// `Row “it” (7) of Softmax weights: The 0.012, …` when the rows are the queries;
    /// `None` when the stage has no query (one past the last token).
    pub fn readout(&self, digits: usize) -> Option<Readout> {
        let query = self.query.as_ref()?;
        let (q, token) = (query.index, &query.token);
        Some(match self.highlight {
            Some(row) => Readout {
                text: format!(
                    "Row \u{201c}{token}\u{201d} ({q}) of {}: {}",
                    self.name,
                    self.row_text(row, digits)?
                ),
                values: Some(self.row_values(row)?),
            },
            None => Readout {
                text: format!(
                    "The rows of {} are the keys (all of them are used by every query); the \
                     selected query is \u{201c}{token}\u{201d} ({q}).",
                    self.name
                ),
                values: None,
            },
        })
    }
}
