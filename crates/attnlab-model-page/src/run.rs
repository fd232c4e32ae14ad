//! A forward pass as the page holds it: the worker's [`RunHeader`] and its floats,
//! checked once, read as matrices; the `[CLS]`/`[SEP]` switch; the head search.

use std::fmt;

use ndarray::{Array2, ArrayView2};

use super::protocol::RunHeader;
use attnlab_i18n::Lang;

/// Why a forward pass from the worker cannot be used, or a search cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The floats do not match the header.
    Floats {
        /// What the header implies.
        expected: usize,
        /// What arrived.
        got: usize,
    },
    /// The header is inconsistent (e.g. tokens and ids of different lengths).
    Header(String),
    /// A value is NaN or infinite.
    NotFinite,
    /// A token index is beyond the text.
    NoToken {
        /// The index.
        index: usize,
        /// Tokens in the text.
        n: usize,
    },
    /// The searched token is hidden by the `[CLS]`/`[SEP]` switch.
    Hidden(String),
}

impl RunError {
    /// The sentence, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use attnlab_i18n::msg::model_page;
        match self {
            RunError::Floats { expected, got } => model_page::RunFloats { expected, got }.say(lang),
            RunError::Header(why) => model_page::RunHeader { why }.say(lang),
            RunError::NotFinite => model_page::RUN_NOT_FINITE.get(lang).to_string(),
            RunError::NoToken { index, n } => model_page::RunNoToken { index, n }.say(lang),
            RunError::Hidden(token) => model_page::RunHidden { token }.say(lang),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Floats { expected, got } => write!(
                f,
                "the model worker sent {got} numbers where {expected} were expected"
            ),
            RunError::Header(why) => write!(f, "the model worker's reply is inconsistent: {why}"),
            RunError::NotFinite => f.write_str("the model computed a value that is not a number"),
            RunError::NoToken { index, n } => {
                write!(f, "token {index} does not exist (the text has {n} tokens)")
            }
            RunError::Hidden(token) => write!(
                f,
                "{token} is hidden: show [CLS] and [SEP] to search from or to it"
            ),
        }
    }
}

impl std::error::Error for RunError {}

/// A forward pass of the real model: tokens, every head's weights, Q, K and V, the
/// rollout after each layer, and the sentence embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRun {
    header: RunHeader,
    floats: Vec<f32>,
    /// Each token as the page shows it ([`shown_token`]).
    labels: Vec<String>,
}

/// SentencePiece's word-start mark, `▁` (U+2581), at the start of a piece.
const METASPACE: char = '\u{2581}';

/// How the page shows a word's start: `␣` (U+2423, the open box typography uses for a
/// space) where SentencePiece writes `▁`.
pub const WORD_START: char = '\u{2423}';

/// A token as the page shows it: a piece that starts a word with [`WORD_START`] instead
/// of SentencePiece's `▁`; an unknown piece that stands for typed characters as those
/// characters between `⟨` and `⟩`.
pub fn shown_token(token: &str, replaced: Option<&str>) -> String {
    if let Some(typed) = replaced {
        return format!("\u{27e8}{typed}\u{27e9}");
    }
    match token.strip_prefix(METASPACE) {
        Some(rest) => format!("{WORD_START}{rest}"),
        None => token.to_owned(),
    }
}

/// One head of the head search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankedHead {
    /// Its layer.
    pub layer: usize,
    /// Its head in that layer.
    pub head: usize,
    /// The weight from the query token to the key token (renormalised when specials are
    /// hidden).
    pub weight: f32,
}

impl ModelRun {
    /// Checks the floats against the header: their count, and that every one is finite.
    pub fn new(header: RunHeader, floats: Vec<f32>) -> Result<ModelRun, RunError> {
        let n = header.tokens.len();
        if header.ids.len() != n || header.special.len() != n {
            return Err(RunError::Header(format!(
                "{n} tokens, {} ids, {} special flags",
                header.ids.len(),
                header.special.len()
            )));
        }
        if n == 0 || header.layers == 0 || header.heads == 0 || header.d_head == 0 {
            return Err(RunError::Header("no tokens, layers or heads".into()));
        }
        if let Some(at) = header.second.filter(|at| *at == 0 || *at >= n) {
            return Err(RunError::Header(format!(
                "the second text starts at token {at} of {n}"
            )));
        }
        let expected = header.floats();
        if floats.len() != expected {
            return Err(RunError::Floats {
                expected,
                got: floats.len(),
            });
        }
        if floats.iter().any(|v| !v.is_finite()) {
            return Err(RunError::NotFinite);
        }
        if let Some(r) = header.replaced.iter().find(|r| r.token >= n) {
            return Err(RunError::Header(format!(
                "token {} of {n} is said to be replaced",
                r.token
            )));
        }
        let labels = header
            .tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let typed = header.replaced.iter().find(|r| r.token == i);
                shown_token(t, typed.map(|r| r.text.as_str()))
            })
            .collect();
        Ok(ModelRun {
            header,
            floats,
            labels,
        })
    }

    /// The tokens as the page shows them (word starts and replaced characters marked,
    /// [`shown_token`]); [`ModelRun::tokens`] are the model's own pieces.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Whether some piece starts a word with SentencePiece's `▁` (shown as
    /// [`WORD_START`]).
    pub fn marks_word_starts(&self) -> bool {
        self.header.tokens.iter().any(|t| t.starts_with(METASPACE))
    }

    /// What was typed where the model read its unknown piece because the model's file
    /// holds no piece of some character in it, each once, in the order of the text.
    pub fn replaced_outside(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.header.replaced {
            if r.text.chars().any(|c| self.header.outside.contains(&c))
                && !out.contains(&r.text.as_str())
            {
                out.push(&r.text);
            }
        }
        out
    }

    /// The header (tokens, ids, shape, timing).
    pub fn header(&self) -> &RunHeader {
        &self.header
    }

    /// Tokens, specials included.
    pub fn n(&self) -> usize {
        self.header.tokens.len()
    }

    /// The tokens.
    pub fn tokens(&self) -> &[String] {
        &self.header.tokens
    }

    /// For a pair, the index of the second text's first token.
    pub fn second(&self) -> Option<usize> {
        self.header.second
    }

    /// Layers.
    pub fn layers(&self) -> usize {
        self.header.layers
    }

    /// Heads per layer.
    pub fn heads(&self) -> usize {
        self.header.heads
    }

    fn block(&self, start: usize, rows: usize, cols: usize) -> ArrayView2<'_, f32> {
        let slice = &self.floats[start..start + rows * cols];
        // The length was checked in `new`: the shape always fits.
        ArrayView2::from_shape((rows, cols), slice).unwrap_or_else(|_| unreachable!())
    }

    /// Head `head` of layer `layer`'s weights, `n × n`.
    pub fn attention(&self, layer: usize, head: usize) -> Option<ArrayView2<'_, f32>> {
        let (l, h, n) = (self.layers(), self.heads(), self.n());
        (layer < l && head < h).then(|| self.block((layer * h + head) * n * n, n, n))
    }

    /// The rollout after layer `layer`, `n × n`.
    pub fn rollout(&self, layer: usize) -> Option<ArrayView2<'_, f32>> {
        let (l, h, n) = (self.layers(), self.heads(), self.n());
        (layer < l).then(|| self.block(l * h * n * n + layer * n * n, n, n))
    }

    fn projection(&self, which: usize, layer: usize, head: usize) -> Option<ArrayView2<'_, f32>> {
        let (l, h, n, d) = (self.layers(), self.heads(), self.n(), self.header.d_head);
        let start = l * h * n * n + l * n * n + which * l * h * n * d + (layer * h + head) * n * d;
        (layer < l && head < h).then(|| self.block(start, n, d))
    }

    /// Head `head` of layer `layer`'s queries, `n × d_head`.
    pub fn q(&self, layer: usize, head: usize) -> Option<ArrayView2<'_, f32>> {
        self.projection(0, layer, head)
    }

    /// Its keys.
    pub fn k(&self, layer: usize, head: usize) -> Option<ArrayView2<'_, f32>> {
        self.projection(1, layer, head)
    }

    /// Its values.
    pub fn v(&self, layer: usize, head: usize) -> Option<ArrayView2<'_, f32>> {
        self.projection(2, layer, head)
    }

    /// Each key's value length `‖v_j W^O_h‖` in head `head` of layer `layer` (`n`).
    pub fn value_lengths(&self, layer: usize, head: usize) -> Option<&[f32]> {
        let (l, h, n, d) = (self.layers(), self.heads(), self.n(), self.header.d_head);
        let start = l * h * n * n + l * n * n + 3 * l * h * n * d + (layer * h + head) * n;
        (layer < l && head < h).then(|| &self.floats[start..start + n])
    }

    /// What each key contributes in head `head` of layer `layer`, `‖α_ij v_j W^O_h‖`,
    /// `n × n`.
    pub fn norms(&self, layer: usize, head: usize) -> Option<Array2<f32>> {
        let (weights, lengths) = (
            self.attention(layer, head)?,
            self.value_lengths(layer, head)?,
        );
        attnlab_core::contribution::scaled_by_lengths(weights, lengths).ok()
    }

    /// The sentence embedding (unit length).
    pub fn embedding(&self) -> &[f32] {
        &self.floats[self.floats.len() - self.header.width..]
    }

    /// Every token, or all but `[CLS]` and `[SEP]` (`hide_special`).
    pub fn token_view(&self, hide_special: HideSpecial) -> TokenView {
        match hide_special {
            HideSpecial::No => TokenView {
                kept: (0..self.n()).collect(),
                renormalise: false,
            },
            HideSpecial::Yes => TokenView {
                kept: (0..self.n()).filter(|&i| !self.header.special[i]).collect(),
                renormalise: true,
            },
        }
    }

    /// The heads ranked by the weight from token `query` to token `key` (indices of
    /// [`ModelRun::tokens`]), largest first, as `view` shows them.
    pub fn rank_heads(
        &self,
        query: usize,
        key: usize,
        view: &TokenView,
    ) -> Result<Vec<RankedHead>, RunError> {
        let n = self.n();
        for index in [query, key] {
            if index >= n {
                return Err(RunError::NoToken { index, n });
            }
            if !view.kept.contains(&index) {
                return Err(RunError::Hidden(self.header.tokens[index].clone()));
            }
        }
        let mut ranked = Vec::with_capacity(self.layers() * self.heads());
        for layer in 0..self.layers() {
            for head in 0..self.heads() {
                let a = self
                    .attention(layer, head)
                    .ok_or_else(|| RunError::Header("a head is missing".into()))?;
                ranked.push(RankedHead {
                    layer,
                    head,
                    weight: view.weight(a, query, key),
                });
            }
        }
        ranked.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        Ok(ranked)
    }
}

/// Whether the `[CLS]`/`[SEP]` switch hides the special tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HideSpecial {
    /// Every token is shown.
    No,
    /// `[CLS]` and `[SEP]` are hidden, the rows renormalised.
    Yes,
}

impl From<bool> for HideSpecial {
    fn from(hide: bool) -> HideSpecial {
        if hide {
            HideSpecial::Yes
        } else {
            HideSpecial::No
        }
    }
}

/// Which tokens a figure shows. Hiding `[CLS]` and `[SEP]` drops their rows and
/// columns and divides each remaining row by what is left of it, so every row again
/// sums to 1 over the tokens shown: most heads park much of their weight on the special
/// tokens, which otherwise hides how the rest is shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenView {
    kept: Vec<usize>,
    renormalise: bool,
}

impl TokenView {
    /// The indices shown, in order.
    pub fn kept(&self) -> &[usize] {
        &self.kept
    }

    /// `m` (`n × n`) restricted to the tokens shown, rows renormalised when specials are
    /// hidden; and the rows that had no weight left (all zeros, listed).
    pub fn restrict(&self, m: ArrayView2<'_, f32>) -> (Array2<f32>, Vec<usize>) {
        let k = self.kept.len();
        let mut out = Array2::zeros((k, k));
        let mut empty = Vec::new();
        for (r, &i) in self.kept.iter().enumerate() {
            for (c, &j) in self.kept.iter().enumerate() {
                out[[r, c]] = m[[i, j]];
            }
            if self.renormalise {
                let sum: f32 = out.row(r).sum();
                if sum > 0.0 {
                    out.row_mut(r).mapv_inplace(|v| v / sum);
                } else {
                    empty.push(r);
                }
            }
        }
        (out, empty)
    }

    /// The weight from `query` to `key` (indices of the whole text) as this view shows
    /// it.
    fn weight(&self, m: ArrayView2<'_, f32>, query: usize, key: usize) -> f32 {
        let w = m[[query, key]];
        if !self.renormalise {
            return w;
        }
        let sum: f32 = self.kept.iter().map(|&j| m[[query, j]]).sum();
        if sum > 0.0 { w / sum } else { 0.0 }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_run_error_is_said_from_the_catalogue_and_its_english_is_its_display() {
        for e in [
            RunError::Floats {
                expected: 9,
                got: 3,
            },
            RunError::Header("tokens and ids differ".into()),
            RunError::NotFinite,
            RunError::NoToken { index: 7, n: 4 },
            RunError::Hidden("[CLS]".into()),
        ] {
            assert_eq!(e.text(Lang::En), e.to_string());
            let zh = e.text(Lang::Zh);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
        }
    }

    /// A run of 4 tokens `[CLS] a b [SEP]`, 2 layers × 2 heads, d_head 2, whose weights
    /// are given per head (row-major 4 × 4), rollout all zero.
    pub(crate) fn run_with(heads: [[f32; 16]; 4]) -> ModelRun {
        let header = RunHeader {
            id: 1,
            tokens: ["[CLS]", "a", "b", "[SEP]"].map(String::from).to_vec(),
            ids: vec![101, 1037, 1038, 102],
            special: vec![true, false, false, true],
            second: None,
            truncated_from: None,
            replaced: Vec::new(),
            outside: Vec::new(),
            layers: 2,
            heads: 2,
            d_head: 2,
            width: 3,
            millis: 0.0,
        };
        let mut floats: Vec<f32> = heads.iter().flatten().copied().collect();
        floats.resize(header.floats(), 0.0);
        ModelRun::new(header, floats).unwrap()
    }

    const UNIFORM: [f32; 16] = [0.25; 16];

    #[test]
    fn a_pair_says_where_its_second_text_starts_inside_the_tokens() {
        let run = run_with([UNIFORM; 4]);
        assert_eq!(run.second(), None);
        let floats = run.floats.clone();
        let mut header = run.header.clone();
        header.second = Some(2);
        assert_eq!(
            ModelRun::new(header.clone(), floats.clone())
                .unwrap()
                .second(),
            Some(2)
        );
        for bad in [0, 4, 9] {
            header.second = Some(bad);
            assert!(
                matches!(
                    ModelRun::new(header.clone(), floats.clone()),
                    Err(RunError::Header(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn word_starts_and_replaced_characters_are_marked_in_the_labels_only() {
        let run = run_with([UNIFORM; 4]);
        let (mut header, floats) = (run.header.clone(), run.floats.clone());
        header.tokens = ["<s>", "\u{2581}caf", "<unk>", "</s>"]
            .map(String::from)
            .to_vec();
        header.replaced = vec![super::super::protocol::Replaced {
            token: 2,
            text: "é".into(),
        }];
        header.outside = vec!['é'];
        let run = ModelRun::new(header.clone(), floats.clone()).unwrap();
        assert_eq!(
            run.labels(),
            ["<s>", "\u{2423}caf", "\u{27e8}é\u{27e9}", "</s>"]
        );
        assert_eq!(
            run.tokens()[1],
            "\u{2581}caf",
            "the pieces stay the model's"
        );
        assert!(run.marks_word_starts());
        assert_eq!(run.replaced_outside(), ["é"]);
        assert_eq!(shown_token("\u{2581}", None), "\u{2423}");
        assert_eq!(shown_token("##s", None), "##s");
        // An unknown piece the whole vocabulary lacks too is marked, not said replaced.
        header.outside.clear();
        let run = ModelRun::new(header.clone(), floats.clone()).unwrap();
        assert!(run.replaced_outside().is_empty());
        header.replaced[0].token = 4;
        assert!(matches!(
            ModelRun::new(header, floats),
            Err(RunError::Header(_))
        ));
    }

    #[test]
    fn the_floats_must_match_the_header() {
        let run = run_with([UNIFORM; 4]);
        let (header, mut floats) = (run.header.clone(), run.floats.clone());
        floats.pop();
        assert_eq!(
            ModelRun::new(header.clone(), floats.clone()),
            Err(RunError::Floats {
                expected: 2 * 2 * 16 + 2 * 16 + 3 * 2 * 2 * 4 * 2 + 2 * 2 * 4 + 3,
                got: floats.len()
            })
        );
        floats.push(f32::NAN);
        assert_eq!(
            ModelRun::new(header.clone(), floats),
            Err(RunError::NotFinite)
        );
        let mut bad = header;
        bad.ids.pop();
        assert!(matches!(
            ModelRun::new(bad, Vec::new()),
            Err(RunError::Header(_))
        ));
    }

    #[test]
    fn hiding_specials_renormalises_the_rows() {
        // Row "a": [CLS] 1/2, a 1/4, b 1/8, [SEP] 1/8 → a 2/3, b 1/3 once specials go.
        let mut w = UNIFORM;
        w[4..8].copy_from_slice(&[0.5, 0.25, 0.125, 0.125]);
        // Row "b": everything on [CLS] → nothing left: an empty row.
        w[8..12].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
        let run = run_with([w, UNIFORM, UNIFORM, UNIFORM]);
        let view = run.token_view(HideSpecial::Yes);
        assert_eq!(view.kept(), &[1, 2]);
        let (m, empty) = view.restrict(run.attention(0, 0).unwrap());
        assert_eq!(m.row(0).to_vec(), vec![2.0 / 3.0, 1.0 / 3.0]);
        assert_eq!(m.row(1).to_vec(), vec![0.0, 0.0]);
        assert_eq!(empty, vec![1]);
        // Shown whole, nothing changes.
        let (all, empty) = run
            .token_view(HideSpecial::No)
            .restrict(run.attention(0, 0).unwrap());
        assert_eq!(all, run.attention(0, 0).unwrap());
        assert!(empty.is_empty());
    }

    #[test]
    fn the_head_search_ranks_every_head() {
        let mut strong = UNIFORM;
        strong[4..8].copy_from_slice(&[0.1, 0.1, 0.7, 0.1]); // a → b: 0.7
        let mut some = UNIFORM;
        some[4..8].copy_from_slice(&[0.6, 0.1, 0.2, 0.1]); // a → b: 0.2, 2/3 of a+b
        let run = run_with([UNIFORM, some, UNIFORM, strong]);
        let ranked = run
            .rank_heads(1, 2, &run.token_view(HideSpecial::No))
            .unwrap();
        assert_eq!(ranked.len(), 4);
        assert_eq!(
            (ranked[0].layer, ranked[0].head, ranked[0].weight),
            (1, 1, 0.7)
        );
        assert_eq!(ranked[3].weight, 0.2);
        // Hidden specials: "strong" becomes 0.7 / 0.8 = 7/8, the uniform heads
        // 0.25 / 0.5 = 1/2, and "some" (last above) 0.2 / 0.3 = 2/3: second.
        let hidden = run
            .rank_heads(1, 2, &run.token_view(HideSpecial::Yes))
            .unwrap();
        assert!((hidden[0].weight - 7.0 / 8.0).abs() < 1e-6);
        assert_eq!((hidden[1].layer, hidden[1].head), (0, 1));
        assert!((hidden[1].weight - 2.0 / 3.0).abs() < 1e-6);
        assert_eq!(hidden[3].weight, 0.5);
        assert_eq!(
            run.rank_heads(0, 2, &run.token_view(HideSpecial::Yes)),
            Err(RunError::Hidden("[CLS]".into()))
        );
        assert_eq!(
            run.rank_heads(1, 9, &run.token_view(HideSpecial::No)),
            Err(RunError::NoToken { index: 9, n: 4 })
        );
    }

    #[test]
    fn every_block_is_read_from_its_place() {
        let run = run_with([UNIFORM; 4]);
        let mut floats = run.floats.clone();
        let n = floats.len();
        floats[n - 3..].copy_from_slice(&[0.6, 0.8, 0.0]);
        // Q of layer 1, head 0: after 64 weights, 32 rollout, (1·2 + 0)·8 = 16 queries.
        floats[64 + 32 + 16] = 5.0;
        // V of layer 0, head 1: after 2 blocks of 32 (Q and K), then 8.
        floats[64 + 32 + 64 + 8] = 7.0;
        // Value lengths of layer 1, head 1: after Q, K, V (3 · 32), then 3 blocks of 4.
        floats[64 + 32 + 96 + 12] = 9.0;
        let run = ModelRun::new(run.header.clone(), floats).unwrap();
        assert_eq!(run.value_lengths(1, 1).unwrap(), [9.0, 0.0, 0.0, 0.0]);
        // The contribution is the weight (¼ everywhere) times the length.
        assert_eq!(run.norms(1, 1).unwrap()[[0, 0]], 2.25);
        assert_eq!(run.norms(1, 0).unwrap()[[0, 0]], 0.0);
        assert!(run.norms(2, 0).is_none());
        assert_eq!(run.embedding(), &[0.6, 0.8, 0.0]);
        assert_eq!(run.q(1, 0).unwrap()[[0, 0]], 5.0);
        assert_eq!(run.v(0, 1).unwrap()[[0, 0]], 7.0);
        assert_eq!(run.k(0, 1).unwrap()[[0, 0]], 0.0);
        assert!(run.attention(2, 0).is_none() && run.q(0, 2).is_none());
    }
}
