//! The messages between the page and the model worker. Each message is JSON text; the
//! large arrays of a forward pass or a flow travel beside it as one `Float32Array`
//! (transferred, not copied), laid out as [`RunHeader`] and [`FlowHeader`] say.
//!
//! ```text
//! page                                  worker
//!                  ◀── Ready
//! Load { url } ──▶                      (Cache API, else the network)
//!                  ◀── Progress { loaded, total } …  (network only)
//!                  ◀── Loaded { … } | Failed { stage: load, … }
//! Run { id, text } ──▶
//!                  ◀── Ran(RunHeader) + floats | Failed { stage: run, … }
//! Flow { id, layer } ──▶
//!                  ◀── Flowed(FlowHeader) + floats | Failed { stage: flow, … }
//! ```
//!
//! Cancelling a load is ending the worker: nothing is cached until the whole file has
//! arrived.

use attnlab_model::relevance::RelevanceError;
use attnlab_model::{ModelError, TextError};
use serde::{Deserialize, Serialize};

use attnlab_i18n::Lang;
use attnlab_i18n::msg::model;

pub use super::substitution::{Place, Substituted};

/// The name of the Cache API cache that keeps model assets between visits.
pub const CACHE_NAME: &str = "attnlab-models-v1";

/// What the page asks of the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Request {
    /// Load the asset at `url` (relative to the page).
    Load {
        /// The asset's address.
        url: String,
    },
    /// Tokenise `text` (with `pair`, the two texts read together) and run the forward
    /// pass.
    Run {
        /// Echoed in the reply, so a late reply to an old text can be dropped.
        id: u64,
        /// The text, as typed.
        text: String,
        /// A second text read with the first (a translation), when there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pair: Option<String>,
    },
    /// Run `text` (and `pair`) with variant `variant` of the lab state in `link` (a
    /// `#v1.…` fragment: the variant travels in the link's own versioned format)
    /// replacing the model's attention at `place`.
    Substitute {
        /// Echoed in the reply.
        id: u64,
        /// The text.
        text: String,
        /// A second sentence, for the pair's similarity.
        pair: Option<String>,
        /// The lab state, as a link fragment.
        link: String,
        /// Which of its variants.
        variant: usize,
        /// Where.
        place: Place,
    },
    /// Attention flow of the last run, for one layer.
    Flow {
        /// The run's id.
        id: u64,
        /// The layer (from 0).
        layer: usize,
    },
}

/// Which request failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Loading the asset.
    Load,
    /// A forward pass.
    Run,
    /// A flow.
    Flow,
    /// A substitution.
    Substitute,
}

/// What the worker says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    /// The worker has started and takes requests.
    Ready,
    /// Bytes of the asset received from the network so far.
    Progress {
        /// Bytes received.
        loaded: u64,
        /// The file's size, when the server said it.
        total: Option<u64>,
    },
    /// The model is ready.
    Loaded(Loaded),
    /// A forward pass (its arrays beside the message).
    Ran(RunHeader),
    /// A flow (its matrix beside the message).
    Flowed(FlowHeader),
    /// What substituting a variant changed.
    Substituted(Substituted),
    /// A request failed.
    Failed {
        /// Which one.
        stage: Stage,
        /// The run's id, for runs and flows.
        id: Option<u64>,
        /// One sentence for the page.
        message: String,
        /// For a load: the asset is not served at all (the build lacks it).
        missing: bool,
        /// The sentence in Chinese, where the worker can say it ([`text_error_in`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zh: Option<String>,
    },
}

/// A sentence in English and in Chinese (the Chinese is the English where none was
/// said).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// In English.
    pub en: String,
    /// In Chinese.
    pub zh: String,
}

impl Said {
    /// `en` and, when given, its Chinese.
    pub fn new(en: impl Into<String>, zh: Option<String>) -> Said {
        let en = en.into();
        Said {
            zh: zh.unwrap_or_else(|| en.clone()),
            en,
        }
    }

    /// The sentence `say` gives in each language.
    pub fn of(say: impl Fn(Lang) -> String) -> Said {
        Said {
            en: say(Lang::En),
            zh: say(Lang::Zh),
        }
    }

    /// The sentence in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// Why a text cannot be run through the model, in `lang` (the English is the error's
/// `Display`).
pub fn text_error_in(e: &TextError, lang: Lang) -> String {
    match e {
        TextError::Empty => model::TEXT_EMPTY.get(lang).to_string(),
        TextError::TooLong { chars, max } => model::TextTooLong { chars, max }.say(lang),
        TextError::InSecond(e) => model::TextInSecond {
            error: &text_error_in(e, lang),
        }
        .say(lang),
    }
}

/// A model error in `lang` (the English is the error's `Display`). The asset's own
/// free-text details (a config or weights format problem) stay in its English; the
/// Chinese says them by their kind.
pub fn model_error_in(e: &ModelError, lang: Lang) -> String {
    match e {
        ModelError::Text(t) => model::ModelText {
            error: &text_error_in(t, lang),
        }
        .say(lang),
        ModelError::Config(detail) => model::ModelConfig { detail }.say(lang),
        ModelError::Format(detail) => model::ModelFormat { detail }.say(lang),
        ModelError::MissingTensor(name) => model::ModelMissingTensor { name }.say(lang),
        ModelError::TensorShape {
            name,
            expected,
            got,
        } => model::ModelTensorShape {
            name,
            got: &format!("{got:?}"),
            expected: &format!("{expected:?}"),
        }
        .say(lang),
        ModelError::TensorDtype { name, dtype } => {
            model::ModelTensorDtype { name, dtype }.say(lang)
        }
        ModelError::Vocabulary(detail) => model::ModelVocabulary { detail }.say(lang),
        ModelError::TokenId {
            position,
            id,
            vocab_size,
        } => model::ModelTokenId {
            position,
            id,
            vocab_size,
        }
        .say(lang),
        ModelError::NotShipped { position, id } => {
            model::ModelNotShipped { position, id }.say(lang)
        }
        ModelError::Segments(detail) => model::ModelSegments { detail }.say(lang),
        ModelError::TooManyTokens { tokens, max } => model::ModelTooManyTokens {
            field: &"ids",
            tokens,
            max,
        }
        .say(lang),
        ModelError::Attention { layer, error } => model::ModelAttention {
            layer,
            path: &error.path(),
            reason: &attnlab_lab::explain::reason_in(error, lang),
        }
        .say(lang),
    }
}

/// Why rollout or flow cannot follow the attention, in `lang` (the English is the
/// error's `Display`).
pub fn relevance_error_in(e: &RelevanceError, lang: Lang) -> String {
    match e {
        RelevanceError::NoLayers => model::RELEVANCE_NO_LAYERS.get(lang).to_string(),
        RelevanceError::NoHeads { layer } => model::RelevanceNoHeads { layer }.say(lang),
        RelevanceError::NoTokens => model::RELEVANCE_NO_TOKENS.get(lang).to_string(),
        RelevanceError::NotSquare {
            layer,
            head,
            rows,
            cols,
        } => model::RelevanceNotSquare {
            layer,
            head,
            rows,
            cols,
        }
        .say(lang),
        RelevanceError::ShapeMismatch {
            layer,
            head,
            size,
            tokens,
        } => model::RelevanceShapeMismatch {
            layer,
            head,
            size,
            tokens,
        }
        .say(lang),
        RelevanceError::NotFinite {
            layer,
            head,
            row,
            col,
        } => model::RelevanceNotFinite {
            layer,
            head,
            row,
            col,
        }
        .say(lang),
        RelevanceError::Negative {
            layer,
            head,
            row,
            col,
            value,
        } => model::RelevanceNegative {
            layer,
            head,
            row,
            col,
            value,
        }
        .say(lang),
        RelevanceError::NoSuchLayer { layer, layers } => model::RelevanceNoSuchLayer {
            layer,
            last: &layers.saturating_sub(1),
        }
        .say(lang),
        RelevanceError::TooManyTokens { tokens, max } => {
            model::RelevanceTooManyTokens { tokens, max }.say(lang)
        }
    }
}

/// A loaded model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Loaded {
    /// Whether the bytes came from the Cache API (no network).
    pub from_cache: bool,
    /// The asset's size in bytes.
    pub bytes: u64,
    /// From the request to a ready model, in milliseconds.
    pub millis: f64,
    /// The checkpoint's name, as the asset gives it.
    pub name: String,
    /// Its licence, as the asset gives it.
    pub licence: String,
    /// Layers.
    pub layers: usize,
    /// Heads per layer.
    pub heads: usize,
    /// The most tokens a text is cut to.
    pub max_tokens: usize,
}

/// A forward pass. Its floats, in order: the attention weights `[layer][head][n][n]`,
/// the rollout after each layer `[layer][n][n]`, then `Q`, `K` and `V`, each
/// `[layer][head][n][d_head]`, then each key's value length through its head's rows of
/// the output projection `‖v_j W^O_h‖` `[layer][head][n]` (what key `j` contributes to
/// query `i` is `α_ij` times it), then the sentence embedding (`width` values).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// The request's id.
    pub id: u64,
    /// The tokens, `[CLS]` and `[SEP]` included.
    pub tokens: Vec<String>,
    /// Their ids.
    pub ids: Vec<u32>,
    /// Which tokens are the model's special tokens (`[CLS]`, `[SEP]`; `<s>`, `</s>`).
    pub special: Vec<bool>,
    /// For a pair, the index of the second text's first token.
    #[serde(default)]
    pub second: Option<usize>,
    /// `Some(n)` when the text had `n` tokens and was cut.
    pub truncated_from: Option<usize>,
    /// The tokens the model read as its unknown piece (`<unk>`), each with the
    /// characters it stands for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<Replaced>,
    /// The characters the model's file holds no piece of (its vocabulary was cut to some
    /// scripts), each once, in the order of the text; each is in a `replaced` token.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside: Vec<char>,
    /// Layers.
    pub layers: usize,
    /// Heads per layer.
    pub heads: usize,
    /// Width of each head's queries, keys and values.
    pub d_head: usize,
    /// Width of the sentence embedding.
    pub width: usize,
    /// The forward pass's time in the worker, in milliseconds.
    pub millis: f64,
}

impl RunHeader {
    /// The number of floats beside this header.
    pub fn floats(&self) -> usize {
        let n = self.tokens.len();
        let (l, h) = (self.layers, self.heads);
        l * h * n * n + l * n * n + 3 * l * h * n * self.d_head + l * h * n + self.width
    }
}

/// A token the model read as its unknown piece, and what was typed there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replaced {
    /// Its index in [`RunHeader::tokens`].
    pub token: usize,
    /// The characters it stands for, as typed.
    pub text: String,
}

/// A flow: `n × n` floats beside the message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlowHeader {
    /// The run's id.
    pub id: u64,
    /// The layer.
    pub layer: usize,
    /// Tokens.
    pub n: usize,
    /// The computation's time in the worker, in milliseconds.
    pub millis: f64,
}

impl Request {
    /// The request as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A request from JSON text.
    pub fn from_json(text: &str) -> Result<Request, String> {
        serde_json::from_str(text).map_err(|e| format!("not a model request: {e}"))
    }
}

impl Reply {
    /// The reply as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A reply from JSON text.
    pub fn from_json(text: &str) -> Result<Reply, String> {
        serde_json::from_str(text).map_err(|e| format!("not a model reply: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_error_is_said_in_chinese_and_the_english_stays_the_models() {
        let e = TextError::InSecond(Box::new(TextError::Empty));
        assert_eq!(
            text_error_in(&e, Lang::Zh),
            "第二个文本：文本里没有词：它是空的，或者只有空白和控制字符"
        );
        let said = Said::of(|l| model_error_in(&ModelError::Text(e.clone()), l));
        assert_eq!(said.get(Lang::En), ModelError::Text(e.clone()).to_string());
        assert!(said.get(Lang::Zh).starts_with("第二个文本"));
        assert_eq!(Said::new("x", None).get(Lang::Zh), "x");
    }

    /// One error of every kind the model crate returns.
    fn every_model_error() -> Vec<ModelError> {
        let text = [
            TextError::Empty,
            TextError::TooLong {
                chars: 9000,
                max: 8192,
            },
            TextError::InSecond(Box::new(TextError::Empty)),
        ];
        let mut all: Vec<ModelError> = text.into_iter().map(ModelError::Text).collect();
        all.extend([
            ModelError::Config("no hidden_size".into()),
            ModelError::Format("not a safetensors file".into()),
            ModelError::MissingTensor("embeddings.word_embeddings.weight".into()),
            ModelError::TensorShape {
                name: "pooler.dense.weight".into(),
                expected: vec![384, 384],
                got: vec![384, 383],
            },
            ModelError::TensorDtype {
                name: "x".into(),
                dtype: "BF16".into(),
            },
            ModelError::Vocabulary("no [CLS]".into()),
            ModelError::TokenId {
                position: 2,
                id: 99999,
                vocab_size: 30522,
            },
            ModelError::NotShipped { position: 1, id: 7 },
            ModelError::Segments("2 types for 3 ids".into()),
            ModelError::TooManyTokens {
                tokens: 600,
                max: 512,
            },
            ModelError::Attention {
                layer: 3,
                error: attnlab_core::CoreError::NoHeads,
            },
        ]);
        all
    }

    fn every_relevance_error() -> Vec<RelevanceError> {
        vec![
            RelevanceError::NoLayers,
            RelevanceError::NoHeads { layer: 2 },
            RelevanceError::NoTokens,
            RelevanceError::NotSquare {
                layer: 1,
                head: 2,
                rows: 5,
                cols: 3,
            },
            RelevanceError::ShapeMismatch {
                layer: 1,
                head: 2,
                size: 4,
                tokens: 5,
            },
            RelevanceError::NotFinite {
                layer: 0,
                head: 1,
                row: 2,
                col: 3,
            },
            RelevanceError::Negative {
                layer: 0,
                head: 1,
                row: 2,
                col: 3,
                value: -0.25,
            },
            RelevanceError::NoSuchLayer {
                layer: 6,
                layers: 6,
            },
            RelevanceError::TooManyTokens {
                tokens: 80,
                max: 64,
            },
        ]
    }

    #[test]
    fn the_catalogues_english_is_the_model_errors_own() {
        for e in every_model_error() {
            assert_eq!(model_error_in(&e, Lang::En), e.to_string(), "{e:?}");
        }
        for e in every_relevance_error() {
            assert_eq!(relevance_error_in(&e, Lang::En), e.to_string(), "{e:?}");
        }
    }

    #[test]
    fn every_model_error_is_said_in_chinese_without_english_words() {
        let zh: Vec<String> = every_model_error()
            .iter()
            .map(|e| model_error_in(e, Lang::Zh))
            .chain(
                every_relevance_error()
                    .iter()
                    .map(|e| relevance_error_in(e, Lang::Zh)),
            )
            .collect();
        for zh in zh {
            // A tensor's name is the file's own (`pooler.dense.weight`), the dtype too.
            let words: Vec<_> = attnlab_i18n::check::latin_words(&zh)
                .into_iter()
                .filter(|w| w != "ids" && w != "heads")
                .collect();
            assert!(words.is_empty(), "{zh}: {words:?}");
        }
    }

    #[test]
    fn messages_survive_json() {
        let requests = [
            Request::Load {
                url: "model/x.safetensors".into(),
            },
            Request::Run {
                id: 3,
                text: "a \"quoted\" <b>text</b> 我".into(),
                pair: None,
            },
            Request::Run {
                id: 4,
                text: "我的猫喜欢吃鱼".into(),
                pair: Some("My cat likes eating fish.".into()),
            },
            Request::Flow { id: 3, layer: 5 },
            Request::Substitute {
                id: 4,
                text: "the cat sat on the mat".into(),
                pair: Some("a cat was sitting on a mat".into()),
                link: "#v1.e30".into(),
                variant: 1,
                place: Place::Head { layer: 2, head: 7 },
            },
        ];
        for r in requests {
            assert_eq!(Request::from_json(&r.to_json()), Ok(r));
        }
        let replies = [
            Reply::Ready,
            Reply::Progress {
                loaded: 10,
                total: None,
            },
            Reply::Failed {
                stage: Stage::Load,
                id: None,
                message: "no".into(),
                missing: true,
                zh: None,
            },
            Reply::Failed {
                stage: Stage::Run,
                id: Some(3),
                message: "the text has no words".into(),
                missing: false,
                zh: Some(text_error_in(&TextError::Empty, Lang::Zh)),
            },
        ];
        for r in replies {
            assert_eq!(Reply::from_json(&r.to_json()), Ok(r));
        }
        assert!(Request::from_json("{\"kind\":\"explode\"}").is_err());
        // A run written before pairs existed still reads (no pair).
        assert_eq!(
            Request::from_json(r#"{"kind":"run","id":1,"text":"a"}"#),
            Ok(Request::Run {
                id: 1,
                text: "a".into(),
                pair: None
            })
        );
    }

    #[test]
    fn a_run_counts_its_floats() {
        let header = RunHeader {
            id: 0,
            tokens: vec!["[CLS]".into(), "a".into(), "[SEP]".into()],
            ids: vec![101, 1037, 102],
            special: vec![true, false, true],
            second: None,
            truncated_from: None,
            replaced: Vec::new(),
            outside: Vec::new(),
            layers: 2,
            heads: 3,
            d_head: 4,
            width: 12,
            millis: 1.0,
        };
        // 2·3·9 weights + 2·9 rollout + 3·(2·3·3·4) Q, K, V + 2·3·3 lengths + 12
        // = 54 + 18 + 216 + 18 + 12.
        assert_eq!(header.floats(), 318);
    }
}
