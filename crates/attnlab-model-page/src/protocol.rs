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

use serde::{Deserialize, Serialize};

pub use crate::said::{Said, model_error_in, relevance_error_in, text_error_in};
pub use crate::substitution::{Place, Substituted};

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
    use attnlab_i18n::Lang;
    use attnlab_model::TextError;

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
