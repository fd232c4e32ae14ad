//! The lab's domain logic, in plain Rust: from the text in the box to the attention of
//! one variant and the figure of one head. No signals and no DOM here: components call
//! these functions (inside memos) and hold no maths themselves.

use attnlab_core::attention::{AttentionKind, AttentionResult, AttentionSpec};
use attnlab_core::score::ScoreFunction;
use attnlab_core::tokenize::{self, Token};
use attnlab_core::{CoreError, model::ModelConfig};
use attnlab_plot::Heatmap;

/// The sentence the lab opens with (the classic "what does *it* refer to?" example).
pub const DEFAULT_SENTENCE: &str = "The animal didn't cross the street because it was too tired";

/// The most tokens drawn; longer texts are kept whole in the box, and only their first
/// `MAX_TOKENS` tokens are computed and drawn.
pub const MAX_TOKENS: usize = 512;

/// One attention variant: how the model turns tokens into Q, K, V, and how the weights
/// are formed. The default is the Transformer's scaled dot-product softmax attention with
/// 4 heads and `d_model = 64`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Variant {
    /// Widths, heads, seed, positions, projections.
    pub model: ModelConfig,
    /// Score function, temperature, softmax or linear, masks.
    pub spec: AttentionSpec,
}

impl Variant {
    /// A short human description, e.g. "scaled dot-product softmax · 4 heads · d_model 64".
    pub fn describe(&self) -> String {
        let score = match self.spec.score {
            ScoreFunction::Dot => "dot-product",
            ScoreFunction::ScaledDot => "scaled dot-product",
            ScoreFunction::General => "general (bilinear)",
            ScoreFunction::Additive => "additive",
            ScoreFunction::Cosine => "cosine",
        };
        let kind = match self.spec.attention {
            AttentionKind::Softmax => format!("{score} softmax"),
            other => format!("{} linear attention", other.name()),
        };
        let heads = if self.model.heads == 1 {
            "1 head".to_string()
        } else {
            format!("{} heads", self.model.heads)
        };
        format!(
            "{kind} \u{b7} {heads} \u{b7} d_model {}",
            self.model.d_model
        )
    }
}

/// The attention of one variant over the (first [`MAX_TOKENS`]) tokens of the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    /// The token texts attended over (queries and keys: this is self-attention).
    pub tokens: Vec<String>,
    /// How many tokens the whole text has (more than `tokens.len()` when cut).
    pub total_tokens: usize,
    /// Weights, outputs and diagnostics of every head.
    pub result: AttentionResult,
}

/// What the lab shows for the current text.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// No tokens: nothing to compute.
    Nothing,
    /// Attention was computed.
    Computed(Attention),
    /// The core refused the input or the settings.
    Failed(CoreError),
}

/// Tokenizes the text in the box (all of it: the token strip shows every token).
pub fn tokens_of(text: &str) -> Vec<Token> {
    tokenize::tokenize(text)
}

/// Computes self-attention of `variant` over the first [`MAX_TOKENS`] of `tokens`.
pub fn compute(tokens: &[Token], variant: &Variant) -> Outcome {
    if tokens.is_empty() {
        return Outcome::Nothing;
    }
    let used = &tokens[..tokens.len().min(MAX_TOKENS)];
    let run = || -> Result<AttentionResult, CoreError> {
        let x = variant.model.encode(used)?.x;
        let heads = variant.model.project(&x, &x)?;
        // Linformer projects the keys to k ≤ m of them; a quarter of the keys, at least 1.
        let k = (used.len() / 4).max(1);
        variant
            .model
            .problem(&heads, variant.spec.clone(), k)?
            .compute()
    };
    match run() {
        Ok(result) => Outcome::Computed(Attention {
            tokens: tokenize::texts(used),
            total_tokens: tokens.len(),
            result,
        }),
        Err(e) => Outcome::Failed(e),
    }
}

/// A sentence for the notice above the figure, or `None` when all is well.
pub fn notice(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Nothing => Some(
            "There is nothing to attend to yet: type a sentence in the box, and each of its words \
             will appear here with the attention it pays to the others."
                .into(),
        ),
        Outcome::Computed(a) if a.total_tokens > a.tokens.len() => Some(format!(
            "Your text has {} tokens; the heatmap shows the first {} of them. \
             Nothing is lost: the whole text stays in the box.",
            a.total_tokens,
            a.tokens.len()
        )),
        Outcome::Computed(_) => None,
        Outcome::Failed(e) => Some(explain(e)),
    }
}

/// A core error as a sentence a student understands.
pub fn explain(e: &CoreError) -> String {
    let what = match e {
        CoreError::InvalidSetting { .. }
        | CoreError::InvalidTemperature(_)
        | CoreError::UnsupportedMask { .. } => "These settings cannot be used",
        CoreError::Overflow { .. } => "The numbers grew too large to compute",
        _ => "The attention could not be computed",
    };
    format!("{what}: {} ({}).", e.reason(), e.path())
}

/// The figure of head `head` (clamped to the heads there are), or `None` when there is
/// nothing to draw.
pub fn heatmap(outcome: &Outcome, head: usize, variant: &Variant) -> Option<Heatmap> {
    let Outcome::Computed(a) = outcome else {
        return None;
    };
    let heads = &a.result.heads;
    let h = head.min(heads.len().checked_sub(1)?);
    let r = &heads[h];
    let (n, m) = r.weights.dim();
    // Linformer's weights are over k projected keys, not over tokens.
    let keys: Vec<String> = if m == a.tokens.len() {
        a.tokens.clone()
    } else {
        (0..m).map(|j| format!("k'{j}")).collect()
    };
    let values: Vec<f32> = r.weights.iter().copied().collect();
    let blocked: Vec<bool> = r.mask.allowed().iter().map(|&allowed| !allowed).collect();
    let title = format!("Head {h} \u{b7} {}", variant.describe());
    Heatmap::weights(title, a.tokens[..n].to_vec(), keys, values)
        .and_then(|hm| hm.with_blocked(blocked))
        .and_then(|hm| hm.with_empty_rows(r.empty_rows.clone()))
        .ok()
}

/// What the pointer is on: one cell of the heatmap.
#[derive(Debug, Clone, PartialEq)]
pub struct CellReading {
    /// Query (row) index and token.
    pub query: (usize, String),
    /// Key (column) index and label.
    pub key: (usize, String),
    /// The exact weight.
    pub weight: f32,
    /// Whether the mask blocks this cell.
    pub blocked: bool,
}

impl CellReading {
    /// One line for the page, e.g. `query “it” (7) → key “animal” (1): weight 0.31415927`.
    /// The weight is printed in full (the shortest decimal that reads back as the same
    /// `f32`).
    pub fn sentence(&self) -> String {
        let cell = format!(
            "query \u{201c}{}\u{201d} ({}) \u{2192} key \u{201c}{}\u{201d} ({})",
            self.query.1, self.query.0, self.key.1, self.key.0
        );
        if self.blocked {
            format!("{cell}: blocked by the mask (weight {})", self.weight)
        } else {
            format!("{cell}: weight {}", self.weight)
        }
    }
}

/// Reads cell (`row`, `col`) of the figure.
pub fn read_cell(heatmap: &Heatmap, (row, col): (usize, usize)) -> Option<CellReading> {
    Some(CellReading {
        query: (row, heatmap.row_labels().get(row)?.clone()),
        key: (col, heatmap.col_labels().get(col)?.clone()),
        weight: heatmap.value(row, col)?,
        blocked: heatmap.is_blocked(row, col),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_core::mask::MaskSpec;

    #[test]
    fn the_default_sentence_has_eleven_tokens_and_a_heatmap() {
        let tokens = tokens_of(DEFAULT_SENTENCE);
        assert_eq!(tokens.len(), 11);
        let variant = Variant::default();
        let outcome = compute(&tokens, &variant);
        assert_eq!(notice(&outcome), None);
        let h = heatmap(&outcome, 0, &variant).expect("a figure");
        assert_eq!((h.n_rows(), h.n_cols()), (11, 11));
        assert_eq!(
            h.title(),
            "Head 0 \u{b7} scaled dot-product softmax \u{b7} 4 heads \u{b7} d_model 64"
        );
        for i in 0..11 {
            let sum: f32 = (0..11).map(|j| h.value(i, j).unwrap()).sum();
            assert!((sum - 1.0).abs() < 1e-5, "row {i} sums to {sum}");
        }
        // A head that does not exist shows the last one.
        assert!(
            heatmap(&outcome, 99, &variant)
                .unwrap()
                .title()
                .starts_with("Head 3 \u{b7}")
        );
    }

    #[test]
    fn empty_and_blank_text_give_a_notice_and_no_figure() {
        for text in ["", "   \n\t "] {
            let outcome = compute(&tokens_of(text), &Variant::default());
            assert_eq!(outcome, Outcome::Nothing);
            assert!(notice(&outcome).unwrap().contains("type a sentence"));
            assert!(heatmap(&outcome, 0, &Variant::default()).is_none());
        }
    }

    #[test]
    fn long_text_is_cut_at_512_tokens_and_says_so() {
        let text = "word ".repeat(600);
        let tokens = tokens_of(&text);
        assert_eq!(tokens.len(), 600);
        let outcome = compute(&tokens, &Variant::default());
        let msg = notice(&outcome).expect("a notice");
        assert!(
            msg.contains("600 tokens") && msg.contains("first 512"),
            "{msg}"
        );
        let h = heatmap(&outcome, 0, &Variant::default()).unwrap();
        assert_eq!(h.n_rows(), 512);
    }

    #[test]
    fn core_errors_become_sentences() {
        let mut variant = Variant::default();
        variant.model.heads = 5; // does not divide 64
        let outcome = compute(&tokens_of("a b c"), &variant);
        let msg = notice(&outcome).expect("a notice");
        assert!(msg.starts_with("These settings cannot be used:"), "{msg}");
        assert!(msg.contains("heads") && msg.ends_with('.'), "{msg}");
    }

    #[test]
    fn masks_reach_the_figure_and_the_reading() {
        let variant = Variant {
            spec: AttentionSpec {
                mask: MaskSpec {
                    causal: true,
                    ..MaskSpec::default()
                },
                ..AttentionSpec::default()
            },
            ..Variant::default()
        };
        let outcome = compute(&tokens_of("我爱机器学习"), &variant);
        let h = heatmap(&outcome, 1, &variant).unwrap();
        assert!(h.is_blocked(0, 1) && !h.is_blocked(1, 0));
        let r = read_cell(&h, (0, 1)).unwrap();
        assert!(r.blocked);
        assert_eq!(
            r.sentence(),
            "query \u{201c}我\u{201d} (0) \u{2192} key \u{201c}爱\u{201d} (1): blocked by the mask (weight 0)"
        );
        let r = read_cell(&h, (0, 0)).unwrap();
        assert_eq!(r.weight, 1.0);
        assert!(read_cell(&h, (6, 0)).is_none());
    }

    #[test]
    fn variants_describe_themselves() {
        assert_eq!(
            Variant::default().describe(),
            "scaled dot-product softmax \u{b7} 4 heads \u{b7} d_model 64"
        );
    }
}
