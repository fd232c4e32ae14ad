//! A sentence and its translation read together: for a pair run (`<s> A </s></s> B </s>`
//! or `[CLS] A [SEP] B [SEP]`), the block of a head's weights from the first sentence's
//! tokens to the second's (and back) as lines between the two sentences, and every head
//! ranked by the share of its weight that crosses between them.

use attnlab_plot::{HEAD_COLOURS, TokenLines};

use super::run::ModelRun;
use attnlab_i18n::{Lang, Tr};

/// Said under the alignment: what an encoder's weights across a pair are, and are not.
pub const ALIGNMENT_NOTE: Tr = attnlab_i18n::msg::model_page::ALIGNMENT_NOTE;

/// The width of the alignment's lines, in CSS pixels (twice the token-lines page's):
/// lines that must be seen on a projector from the back of a room.
pub const LINE_PX: f64 = 4.0;

/// Which way the lines go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// The first sentence's tokens (queries) to the second's (keys).
    #[default]
    FirstToSecond,
    /// The second's to the first's.
    SecondToFirst,
}

/// The word tokens (no special tokens) of each sentence of a pair run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halves {
    /// Token indices of the first sentence.
    pub first: Vec<usize>,
    /// Token indices of the second.
    pub second: Vec<usize>,
}

/// The two sentences' word tokens, or `None` when the run is not a pair.
pub fn halves(run: &ModelRun) -> Option<Halves> {
    let start = run.second()?;
    let special = &run.header().special;
    let words =
        |range: std::ops::Range<usize>| -> Vec<usize> { range.filter(|&i| !special[i]).collect() };
    let halves = Halves {
        first: words(0..start.min(run.n())),
        second: words(start.min(run.n())..run.n()),
    };
    (!halves.first.is_empty() && !halves.second.is_empty()).then_some(halves)
}

/// How much of one head's weight crosses between the sentences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    /// Its layer.
    pub layer: usize,
    /// Its head.
    pub head: usize,
    /// The first sentence's tokens' mean weight on the second's tokens.
    pub forward: f32,
    /// The second's mean weight on the first's.
    pub backward: f32,
    /// The mean of the two: the share ranked.
    pub share: f32,
}

/// The mean over `from`'s rows of their summed weight on `to`'s columns.
fn mean_crossing(a: ndarray::ArrayView2<'_, f32>, from: &[usize], to: &[usize]) -> f32 {
    let total: f32 = from
        .iter()
        .map(|&i| to.iter().map(|&j| a[[i, j]]).sum::<f32>())
        .sum();
    total / from.len() as f32
}

/// Every head ranked by the share of its weight that crosses between the sentences,
/// largest first; `None` when the run is not a pair.
pub fn rank_crossing(run: &ModelRun) -> Option<Vec<Crossing>> {
    let h = halves(run)?;
    let mut ranked = Vec::with_capacity(run.layers() * run.heads());
    for layer in 0..run.layers() {
        for head in 0..run.heads() {
            let a = run.attention(layer, head)?;
            let forward = mean_crossing(a, &h.first, &h.second);
            let backward = mean_crossing(a, &h.second, &h.first);
            ranked.push(Crossing {
                layer,
                head,
                forward,
                backward,
                share: (forward + backward) / 2.0,
            });
        }
    }
    ranked.sort_by(|a, b| b.share.total_cmp(&a.share));
    Some(ranked)
}

/// Head `head` of layer `layer`'s weights from one sentence's tokens to the other's, as
/// lines between the two (the weights as the model computed them, over all keys: a
/// line's opacity is the share of the query's whole row that lands on that key).
pub fn alignment_lines(
    lang: Lang,
    run: &ModelRun,
    model: &str,
    layer: usize,
    head: usize,
    direction: Direction,
) -> Option<TokenLines> {
    let h = halves(run)?;
    let a = run.attention(layer, head)?;
    let (from, to) = match direction {
        Direction::FirstToSecond => (&h.first, &h.second),
        Direction::SecondToFirst => (&h.second, &h.first),
    };
    let label =
        |ix: &[usize]| -> Vec<String> { ix.iter().map(|&i| run.labels()[i].clone()).collect() };
    let weights: Vec<f32> = from
        .iter()
        .flat_map(|&i| to.iter().map(move |&j| a[[i, j]]))
        .collect();
    let title = attnlab_i18n::msg::model_page::AlignmentTitle {
        model: &model,
        layer: &layer,
        head: &head,
    }
    .say(lang);
    let strongest = weights.iter().copied().fold(0.0f32, f32::max);
    let gain = if strongest > 0.0 {
        1.0 / strongest
    } else {
        1.0
    };
    TokenLines::new(title, label(from), label(to))
        .with_words(attnlab_i18n::plot_words(lang))
        .with_head(format!("L{layer} H{head}"), HEAD_COLOURS[0], weights)
        .ok()
        .map(|l| l.with_strength(gain, LINE_PX))
}

#[cfg(test)]
mod tests {
    use super::super::protocol::RunHeader;
    use super::*;

    /// `<s> 猫 </s> </s> ▁cat </s>`, 1 layer, 2 heads: head 0 sends each word to its
    /// translation with weight 0.6, head 1 keeps every token on itself.
    fn run() -> ModelRun {
        let n = 6;
        let tokens = ["<s>", "猫", "</s>", "</s>", "\u{2581}cat", "</s>"];
        let mut head0 = vec![0.0f32; n * n];
        let mut head1 = vec![0.0f32; n * n];
        for i in 0..n {
            head1[i * n + i] = 1.0;
            head0[i * n] = 1.0;
        }
        for (i, j) in [(1, 4), (4, 1)] {
            head0[i * n] = 0.4;
            head0[i * n + j] = 0.6;
        }
        let header = RunHeader {
            id: 1,
            tokens: tokens.map(String::from).to_vec(),
            ids: vec![0, 1, 2, 2, 3, 2],
            special: vec![true, false, true, true, false, true],
            second: Some(3),
            truncated_from: None,
            replaced: Vec::new(),
            outside: Vec::new(),
            layers: 1,
            heads: 2,
            d_head: 1,
            width: 1,
            millis: 0.0,
        };
        let mut floats = head0;
        floats.extend(head1);
        floats.extend(vec![0.0; n * n]); // rollout
        floats.extend(vec![0.0; 3 * 2 * n]); // q, k, v
        floats.extend(vec![1.0; 2 * n]); // value lengths
        floats.push(1.0); // embedding
        ModelRun::new(header, floats).unwrap()
    }

    #[test]
    fn the_halves_are_the_words_of_each_sentence() {
        assert_eq!(
            halves(&run()),
            Some(Halves {
                first: vec![1],
                second: vec![4]
            })
        );
    }

    #[test]
    fn heads_rank_by_the_weight_that_crosses() {
        let ranked = rank_crossing(&run()).unwrap();
        assert_eq!((ranked[0].layer, ranked[0].head), (0, 0));
        assert!((ranked[0].forward - 0.6).abs() < 1e-6);
        assert!((ranked[0].backward - 0.6).abs() < 1e-6);
        assert_eq!(ranked[1].share, 0.0);
    }

    #[test]
    fn the_lines_are_the_block_between_the_sentences() {
        let lines =
            alignment_lines(Lang::En, &run(), "E5", 0, 0, Direction::SecondToFirst).unwrap();
        assert_eq!(lines.queries(), ["\u{2423}cat"]);
        assert_eq!(lines.keys(), ["猫"]);
        assert_eq!(lines.weight(0, 0, 0), Some(0.6));
        // The strongest line crossing is drawn opaque, and wide.
        assert_eq!(lines.strength(), (1.0 / 0.6, LINE_PX));
        assert_eq!(lines.line_alpha(0, 0, 0), Some(1.0));
    }
}
