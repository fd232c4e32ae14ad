//! "Predict, then reveal": what a step asks the learner to pick, the choices, and the
//! answer, computed from the step's state by the lab's own functions (never written in
//! the lesson).

use attnlab_core::attention::AttentionKind;
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, msg};
use attnlab_lab::compute;
use attnlab_lab::compute::{LabError, Pipeline, Which};
use attnlab_lab::explain::explain_in;
use attnlab_lab::state::LabState;
use attnlab_lab::state::Mode;
use attnlab_pages::block::{self, BlockInput, SublayerKind};
use attnlab_pages::complexity::why::{Layer, Sizes};
use attnlab_pages::complexity::{Kind, Measurements};
use attnlab_pages::decoding::{checked, compared, series_name, sizes};
use attnlab_pages::linear::{default_kernel, kernel_comparison};
use std::fmt;

/// Why a question has no answer in a state.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerError {
    /// The state could not be computed.
    Lab(LabError),
    /// The question does not fit the state (a query, head or variant that is not there,
    /// a query with no allowed key, a Linformer variant asked for a token), in every
    /// language.
    Question(Said),
}

impl AnswerError {
    /// One sentence, in English.
    pub fn sentence(&self) -> String {
        self.text(Lang::En)
    }

    /// One sentence, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            AnswerError::Lab(e) => e.text(lang),
            AnswerError::Question(why) => msg::lessons::AnswerSentence {
                why: &why.get(lang),
            }
            .say(lang),
        }
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence())
    }
}

impl std::error::Error for AnswerError {}

impl From<LabError> for AnswerError {
    fn from(e: LabError) -> Self {
        AnswerError::Lab(e)
    }
}

/// What the learner is asked to pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// The key that query `query` weighs most in head `head` of variant `variant`.
    StrongestKey {
        /// The variant (an index into the state's variants).
        variant: usize,
        /// The head.
        head: usize,
        /// The query token.
        query: usize,
    },
    /// The head of variant `variant` whose weights are sharpest: the lowest mean row
    /// entropy.
    SharpestHead {
        /// The variant.
        variant: usize,
    },
    /// The variant whose head average is sharpest: the lowest mean row entropy.
    SharpestVariant,
    /// The complexity page's curve that grows fastest with `n`: the largest fitted slope
    /// on log–log axes.
    FastestCurve,
    /// On the linear-attention page, which of the two similarity matrices of the shown
    /// variant's shown head has the higher numerical rank: softmax's or the kernel's (the
    /// page's default kernel for the variant, [`default_kernel`]).
    HigherRank,
    /// On the Block page, which sub-layer of layer 1 follows a shuffle of the tokens
    /// exactly (its outputs are its old rows, moved): self-attention or the feed-forward,
    /// by the page's permutation check ([`block::permutation`]) on the step's state.
    FollowsShuffle,
    /// In the Complexity page's "why attention", as it opens ([`Sizes::default`]: the
    /// section keeps no settings in a link), the kind of layer of Table 1 that does the
    /// least work per layer.
    LeastWork,
    /// On the Decoding page, the cache of the fewest bytes per token among those the
    /// chart compares ([`compared`]).
    SmallestCache,
}

/// The answer to a [`Question`], with the numbers that decide it.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The key token at `index`, with its weight.
    Key {
        /// The key's index (a column of the head's heatmap).
        index: usize,
        /// The key's label.
        token: String,
        /// Its weight in the query's row.
        weight: f32,
    },
    /// Head `index`, with its mean row entropy (nats).
    Head {
        /// The head.
        index: usize,
        /// Its mean row entropy.
        entropy: f32,
    },
    /// Variant `index`, with its name and mean row entropy (nats).
    Variant {
        /// The variant.
        index: usize,
        /// Its name.
        name: String,
        /// The mean row entropy of its head average.
        entropy: f32,
    },
    /// The curve of `kind`, with its slope: fitted on the page's measurements when both
    /// curves have been fitted (`measured`), else the slope its cost predicts
    /// ([`Kind::expected_slope`]: O(n²·d) against O(n·d²)).
    Curve {
        /// The kind timed.
        kind: Kind,
        /// Its slope on log–log axes.
        slope: f64,
        /// Whether the slope was measured.
        measured: bool,
    },
    /// The matrix of higher rank: 0 softmax's, 1 the kernel's.
    Rank {
        /// 0 for softmax, 1 for the kernel.
        index: usize,
        /// The matrix's label: `softmax` or the kernel's name (`elu1`, …).
        label: String,
        /// The two ranks, softmax's first.
        ranks: (usize, usize),
    },
    /// One of a page's named choices (a sub-layer, a kind of layer, a cache): its index
    /// among [`choices`] and its name in English and in Chinese.
    Named {
        /// The choice's index.
        index: usize,
        /// Its name, English first.
        names: [String; 2],
    },
}

impl Answer {
    /// The index of the right choice among [`choices`].
    pub fn index(&self) -> usize {
        match self {
            Answer::Key { index, .. } | Answer::Head { index, .. } => *index,
            Answer::Variant { index, .. } | Answer::Rank { index, .. } => *index,
            Answer::Named { index, .. } => *index,
            Answer::Curve { kind, .. } => Kind::ALL.iter().position(|k| k == kind).unwrap_or(0),
        }
    }

    /// What replaces `{answer}` in a reveal text: the token, `head 2`/`头 2`, the variant's
    /// name, or the curve's label.
    pub fn label(&self, lang: super::Lang) -> String {
        match (self, lang) {
            (Answer::Key { token, .. }, _) => format!("“{token}”"),
            (Answer::Head { index, .. }, lang) => {
                msg::lessons::AnswerHeadLabel { head: index }.say(lang)
            }
            (Answer::Variant { name, .. }, _) => name.clone(),
            (Answer::Rank { label, .. }, _) => label.clone(),
            (Answer::Curve { kind, .. }, lang) => kind.label_in(lang).to_string(),
            (Answer::Named { names, .. }, Lang::En) => names[0].clone(),
            (Answer::Named { names, .. }, Lang::Zh) => names[1].clone(),
        }
    }

    /// Whether choice `picked` (an index into [`choices`]) is the answer.
    pub fn is(&self, picked: usize) -> bool {
        self.index() == picked
    }
}

fn no_such(reason: Said) -> AnswerError {
    AnswerError::Question(reason)
}

/// The choices the learner picks among, as labels in `lang`: the key tokens, the heads,
/// the variants' names or the complexity page's curves.
pub fn choices(
    question: &Question,
    state: &LabState,
    lang: super::Lang,
) -> Result<Vec<String>, AnswerError> {
    Ok(match *question {
        Question::StrongestKey { variant, .. } => {
            let v = state
                .variants
                .get(variant)
                .ok_or_else(|| LabError::NoVariant(variant.to_string()))?;
            Pipeline::new(state).key_labels(v)
        }
        Question::SharpestHead { .. } => (0..state.model.heads).map(|h| h.to_string()).collect(),
        Question::SharpestVariant => state.variants.iter().map(|v| v.name.clone()).collect(),
        Question::FastestCurve => Kind::ALL
            .iter()
            .map(|k| k.label_in(lang).to_string())
            .collect(),
        Question::HigherRank => {
            let v = state
                .selected_variant()
                .ok_or_else(|| no_such(msg::lessons::ANSWER_NO_VARIANT.into()))?;
            vec![
                "softmax".to_string(),
                default_kernel(v.attention).name().to_string(),
            ]
        }
        Question::FollowsShuffle => SHUFFLED.iter().map(|k| k.name(lang).to_string()).collect(),
        Question::LeastWork => Layer::ALL
            .iter()
            .map(|l| l.label().get(lang).to_string())
            .collect(),
        Question::SmallestCache => compared(&checked(&state.view.kv_cache).cache)
            .iter()
            .map(series_name)
            .collect(),
    })
}

/// The sub-layers [`Question::FollowsShuffle`] offers, in its order.
const SHUFFLED: [SublayerKind; 2] = [SublayerKind::SelfAttention, SublayerKind::FeedForward];

/// The choice `index` of `question` in `state`, named in both languages.
fn named(question: &Question, state: &LabState, index: usize) -> Result<Answer, AnswerError> {
    let name =
        |lang| choices(question, state, lang).map(|c| c.get(index).cloned().unwrap_or_default());
    Ok(Answer::Named {
        index,
        names: [name(Lang::En)?, name(Lang::Zh)?],
    })
}

/// The answer to `question` in `state`. `measured` is the complexity page's measurements,
/// when there are any (only [`Question::FastestCurve`] reads them).
pub fn answer(
    question: &Question,
    state: &LabState,
    measured: Option<&Measurements>,
) -> Result<Answer, AnswerError> {
    match *question {
        Question::StrongestKey {
            variant,
            head,
            query,
        } => {
            let v = state
                .variants
                .get(variant)
                .ok_or_else(|| LabError::NoVariant(variant.to_string()))?;
            if v.attention == AttentionKind::Linformer {
                return Err(no_such(
                    msg::lessons::AnswerLinformerColumns { name: &v.name }.said(),
                ));
            }
            let pipeline = Pipeline::new(state);
            let result = pipeline.variant(variant)?;
            let weights = result.weights(Which::Head(head))?.weights;
            if query >= weights.nrows() {
                return Err(no_such(
                    msg::lessons::AnswerNoQuery {
                        queries: &weights.nrows(),
                        query: &query,
                    }
                    .said(),
                ));
            }
            let row = weights.row(query);
            let (index, &weight) = row
                .iter()
                .enumerate()
                .fold(None, |best: Option<(usize, &f32)>, (j, w)| match best {
                    Some((_, b)) if b >= w => best,
                    _ => Some((j, w)),
                })
                .ok_or_else(|| no_such(msg::lessons::ANSWER_NO_KEY.into()))?;
            if weight <= 0.0 {
                return Err(no_such(
                    msg::lessons::AnswerNoAllowedKey { query: &query }.said(),
                ));
            }
            let token = pipeline
                .key_labels(v)
                .get(index)
                .cloned()
                .unwrap_or_default();
            Ok(Answer::Key {
                index,
                token,
                weight,
            })
        }
        Question::SharpestHead { variant } => {
            let result = Pipeline::new(state).variant(variant)?;
            let entropies = (0..result.heads.len())
                .map(|h| Ok(result.weights(Which::Head(h))?.mean_entropy()))
                .collect::<Result<Vec<Option<f32>>, LabError>>()?;
            let (index, entropy) =
                lowest(&entropies).ok_or_else(|| no_such(msg::lessons::ANSWER_NO_HEAD.into()))?;
            Ok(Answer::Head { index, entropy })
        }
        Question::SharpestVariant => {
            let pipeline = Pipeline::new(state);
            let entropies = (0..state.variants.len())
                .map(|v| Ok(pipeline.variant(v)?.weights(Which::Average)?.mean_entropy()))
                .collect::<Result<Vec<Option<f32>>, LabError>>()?;
            let (index, entropy) = lowest(&entropies)
                .ok_or_else(|| no_such(msg::lessons::ANSWER_NO_VARIANT.into()))?;
            Ok(Answer::Variant {
                index,
                name: state.variants[index].name.clone(),
                entropy,
            })
        }
        Question::FastestCurve => {
            let fits: Option<Vec<f64>> = measured.and_then(|m| {
                Kind::ALL
                    .iter()
                    .map(|&k| m.fit(k).map(|f| f.slope))
                    .collect()
            });
            let (slopes, measured) = match fits {
                Some(slopes) => (slopes, true),
                None => (
                    Kind::ALL.iter().map(|k| k.expected_slope()).collect(),
                    false,
                ),
            };
            let (at, &slope) = slopes
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .expect("two kinds");
            Ok(Answer::Curve {
                kind: Kind::ALL[at],
                slope,
                measured,
            })
        }
        Question::HigherRank => higher_rank(state),
        Question::FollowsShuffle => {
            let check = shuffle_check(state)?;
            let (ffn, attention) = (check.ffn, check.attention);
            if ffn == attention {
                return Err(no_such(msg::lessons::ANSWER_SAME_SHUFFLE.into()));
            }
            let follows = if ffn < attention {
                SublayerKind::FeedForward
            } else {
                SublayerKind::SelfAttention
            };
            let index = SHUFFLED.iter().position(|&k| k == follows).unwrap_or(0);
            named(question, state, index)
        }
        Question::LeastWork => {
            let s = Sizes::default();
            let index = (0..Layer::ALL.len())
                .min_by_key(|&i| s.work(Layer::ALL[i]))
                .unwrap_or(0);
            named(question, state, index)
        }
        Question::SmallestCache => {
            let caches = compared(&checked(&state.view.kv_cache).cache);
            let index = (0..caches.len())
                .min_by_key(|&i| sizes(&caches[i]).bits_per_token)
                .unwrap_or(0);
            named(question, state, index)
        }
    }
}

/// The Block page's permutation check on `state`, run as the page runs it: the stack on
/// the sentence (or, in cross mode, the decoder on the target over the source's encoder).
fn shuffle_check(state: &LabState) -> Result<block::Permutation, AnswerError> {
    let pipeline = Pipeline::new(state);
    let explained = |e: &attnlab_core::CoreError| {
        no_such(Said::new(explain_in(e, Lang::En), explain_in(e, Lang::Zh)))
    };
    let encoded = compute::encode(&state.model, pipeline.queries()).map_err(|e| explained(&e))?;
    let labels = pipeline.queries().labels();
    let source = match state.mode {
        Mode::Cross => Some((
            compute::encode(&state.model, pipeline.keys()).map_err(|e| explained(&e))?,
            pipeline.keys().labels(),
        )),
        Mode::SelfAttention => None,
    };
    let input = BlockInput {
        queries: (&encoded, &labels),
        source: source.as_ref().map(|(e, l)| (e, l.as_slice())),
        seed: state.model.seed,
        settings: &state.view.block,
    };
    let run = block::run(&input).map_err(|e| explained(&e))?;
    block::permutation(&run, &encoded).map_err(|e| explained(&e))
}

/// The higher rank of softmax's and the kernel's similarity matrix on the shown head.
fn higher_rank(state: &LabState) -> Result<Answer, AnswerError> {
    let index = state
        .view
        .variant
        .min(state.variants.len().saturating_sub(1));
    let v = state
        .variants
        .get(index)
        .ok_or_else(|| no_such(msg::lessons::ANSWER_NO_VARIANT.into()))?;
    let kind = default_kernel(v.attention);
    let problem = Pipeline::new(state).variant(index)?.problem;
    let head = attnlab_lab::state::View::shown_head(state.view.head, state.model.heads);
    let cmp = kernel_comparison(&problem, head, kind).map_err(|e| {
        no_such(Said::new(
            e.sentence().trim_end_matches('.'),
            e.sentence_in(Lang::Zh).trim_end_matches('。'),
        ))
    })?;
    let spectra = cmp
        .spectra
        .as_ref()
        .ok_or_else(|| no_such(msg::lessons::ANSWER_NO_SINGULAR_VALUES.into()))?;
    let ranks = (spectra.softmax_rank, spectra.linear_rank);
    if ranks.0 == ranks.1 {
        return Err(no_such(
            msg::lessons::AnswerSameRank { rank: &ranks.0 }.said(),
        ));
    }
    let index = usize::from(ranks.1 > ranks.0);
    Ok(Answer::Rank {
        index,
        label: ["softmax", kind.name()][index].to_string(),
        ranks,
    })
}

/// The index and value of the smallest entry (the first of equal ones).
/// The index and value of the lowest of `values`, leaving out those that have none (the
/// entropy of rows that are not distributions).
fn lowest(values: &[Option<f32>]) -> Option<(usize, f32)> {
    values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i, v)))
        .fold(None, |best, (i, v)| match best {
            Some((_, b)) if b <= v => best,
            _ => Some((i, v)),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_pages::complexity::Measurement;

    #[test]
    fn the_strongest_key_is_the_row_maximum() {
        let state = LabState::default();
        let q = Question::StrongestKey {
            variant: 0,
            head: 0,
            query: 7,
        };
        let a = answer(&q, &state, None).unwrap();
        let run = Pipeline::new(&state).variant(0).unwrap();
        let row = run.heads[0].weights.row(7);
        let Answer::Key { index, weight, .. } = &a else {
            panic!("{a:?}")
        };
        assert!(row.iter().all(|w| w <= weight));
        assert_eq!(row[*index], *weight);
        assert_eq!(
            choices(&q, &state, super::super::Lang::En).unwrap().len(),
            11
        );
        assert!(a.is(*index) && !a.is(index + 1));
    }

    #[test]
    fn the_sharpest_head_and_variant_have_the_lowest_entropy() {
        let state = LabState::default();
        let run = Pipeline::new(&state).variant(0).unwrap();
        let Answer::Head { index, entropy } =
            answer(&Question::SharpestHead { variant: 0 }, &state, None).unwrap()
        else {
            panic!()
        };
        for h in 0..4 {
            let e = run.weights(Which::Head(h)).unwrap().mean_entropy().unwrap();
            assert!(
                entropy <= e,
                "head {index} ({entropy}) against head {h} ({e})"
            );
        }
        // B is A without 1/√d_k: sharper.
        let a = answer(&Question::SharpestVariant, &state, None).unwrap();
        assert_eq!(a.label(super::super::Lang::En), "B");
    }

    #[test]
    fn the_fastest_curve_is_measured_when_both_are_fitted() {
        let expected = answer(&Question::FastestCurve, &LabState::default(), None).unwrap();
        assert!(matches!(
            expected,
            Answer::Curve {
                kind: Kind::Softmax,
                measured: false,
                ..
            }
        ));
        // Made-up times: linear grows as n², softmax as n (the answer follows the data).
        let mut points = Vec::new();
        for n in [512usize, 1024, 2048, 4096] {
            let x = n as f64;
            points.push(Measurement {
                kind: Kind::Softmax,
                n,
                ms: x * 1e-3,
            });
            points.push(Measurement {
                kind: Kind::LinearElu1,
                n,
                ms: x * x * 1e-6,
            });
        }
        let m = Measurements { points };
        let a = answer(&Question::FastestCurve, &LabState::default(), Some(&m)).unwrap();
        let Answer::Curve {
            kind,
            slope,
            measured,
        } = a
        else {
            panic!()
        };
        assert_eq!((kind, measured), (Kind::LinearElu1, true));
        assert!((slope - 2.0).abs() < 1e-9);
    }

    #[test]
    fn the_higher_rank_is_softmax_s_on_a_long_sentence_and_none_on_a_short_one() {
        let mut state = LabState {
            text: "one two three four five six seven eight nine ten eleven twelve thirteen \
                   fourteen fifteen sixteen seventeen eighteen nineteen twenty"
                .into(),
            ..LabState::default()
        };
        let q = Question::HigherRank;
        assert_eq!(
            choices(&q, &state, super::super::Lang::En).unwrap(),
            ["softmax", "elu1"]
        );
        let a = answer(&q, &state, None).unwrap();
        let Answer::Rank { index, ranks, .. } = &a else {
            panic!("{a:?}")
        };
        assert_eq!((*index, ranks.0), (0, 20));
        assert!(ranks.1 <= 16, "{ranks:?}");
        assert_eq!(a.label(super::super::Lang::Zh), "softmax");
        state.text = "a b c".into();
        let e = answer(&q, &state, None).unwrap_err();
        assert_eq!(
            e.sentence(),
            "both matrices have rank 3, so neither is higher."
        );
    }

    #[test]
    fn bad_questions_are_errors() {
        let state = LabState::default();
        let q = |variant, head, query| Question::StrongestKey {
            variant,
            head,
            query,
        };
        assert!(answer(&q(5, 0, 0), &state, None).is_err());
        assert!(answer(&q(0, 9, 0), &state, None).is_err());
        assert!(answer(&q(0, 0, 99), &state, None).is_err());
        let mut causal = state.clone();
        causal.variants[0].masks.custom = (0..11).map(|j| (0, j)).collect();
        let e = answer(&q(0, 0, 0), &causal, None).unwrap_err();
        assert!(e.sentence().contains("no allowed key"), "{}", e.sentence());
    }

    #[test]
    fn the_page_questions_name_their_answer_in_both_languages() {
        let mut state = LabState::default();
        let (en, zh) = (super::super::Lang::En, super::super::Lang::Zh);
        // The feed-forward follows a shuffle exactly; attention does not.
        let a = answer(&Question::FollowsShuffle, &state, None).unwrap();
        assert_eq!((a.index(), a.label(en).as_str()), (1, "feed-forward"));
        assert_eq!(a.label(zh), "前馈网络");
        // Table 1 at the section's opening sizes: restricted attention does least.
        let a = answer(&Question::LeastWork, &state, None).unwrap();
        assert_eq!(Layer::ALL[a.index()], Layer::Restricted);
        assert_eq!(choices(&Question::LeastWork, &state, zh).unwrap().len(), 4);
        // Llama 3 8B's GQA against MHA and MQA: MQA is smallest; a link's out-of-range
        // value is read as the page clamps it.
        let a = answer(&Question::SmallestCache, &state, None).unwrap();
        assert_eq!(a.label(en), "MQA, G = 1");
        assert_eq!(a.label(zh), "MQA, G = 1");
        state.view.kv_cache.kv_heads = 1;
        let a = answer(&Question::SmallestCache, &state, None).unwrap();
        assert_eq!((a.index(), a.label(en).as_str()), (0, "MQA, G = 1"));
        // A state the Block page cannot run is an error, not a guess.
        state.text = String::new();
        assert!(answer(&Question::FollowsShuffle, &state, None).is_err());
    }
}
