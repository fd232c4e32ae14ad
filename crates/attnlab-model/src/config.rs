//! The architecture of a checkpoint, read from its `config.json`.

use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// How the token states become one sentence embedding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pooling {
    /// The mean over the tokens (sentence-transformers' `pooling_mode_mean_tokens`).
    #[default]
    Mean,
    /// The first token's state (`[CLS]`).
    Cls,
}

impl Pooling {
    /// Reads sentence-transformers' `1_Pooling/config.json`.
    pub fn from_sentence_transformers(json: &str) -> Result<Pooling> {
        let v: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| ModelError::Config(format!("pooling config: {e}")))?;
        let on = |key: &str| v.get(key).and_then(|b| b.as_bool()) == Some(true);
        match (on("pooling_mode_mean_tokens"), on("pooling_mode_cls_token")) {
            (true, false) => Ok(Pooling::Mean),
            (false, true) => Ok(Pooling::Cls),
            _ => Err(ModelError::Config(
                "pooling config: only mean or CLS pooling (one of them) is supported".into(),
            )),
        }
    }
}

/// The feed-forward activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// `x Φ(x)` with the exact normal CDF (erf): BERT's `gelu`.
    #[default]
    Gelu,
}

/// A BERT-family encoder's sizes, as in Hugging Face's `config.json` (unknown keys are
/// ignored), plus attnlab's own `position_offset` and `pooling`.
///
/// One forward pass serves every checkpoint: a new model is a config and its weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// `bert` (XLM-R's `xlm-roberta` shares the architecture).
    #[serde(default = "default_model_type")]
    pub model_type: String,
    /// `d_model`.
    pub hidden_size: usize,
    /// Encoder layers.
    pub num_hidden_layers: usize,
    /// Heads per layer; `hidden_size` must be a multiple.
    pub num_attention_heads: usize,
    /// The feed-forward width.
    pub intermediate_size: usize,
    /// Rows of the word-embedding table.
    pub vocab_size: usize,
    /// Rows of the position-embedding table.
    pub max_position_embeddings: usize,
    /// Rows of the token-type (segment) table.
    #[serde(default = "one")]
    pub type_vocab_size: usize,
    /// ε of every LayerNorm.
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    /// The feed-forward activation (`hidden_act`).
    #[serde(default)]
    pub hidden_act: Activation,
    /// The position id of the first token (0 for BERT; RoBERTa/XLM-R start at 2).
    #[serde(default)]
    pub position_offset: usize,
    /// How the sentence embedding is pooled (from sentence-transformers' pooling config).
    #[serde(default)]
    pub pooling: Pooling,
}

fn default_model_type() -> String {
    "bert".into()
}

fn one() -> usize {
    1
}

fn default_eps() -> f64 {
    1e-12
}

impl Config {
    /// Parses and checks a `config.json`.
    pub fn from_json(json: &str) -> Result<Config> {
        let config: Config =
            serde_json::from_str(json).map_err(|e| ModelError::Config(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// The JSON an asset stores.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a config serialises")
    }

    /// Checks that the sizes describe a model that can run.
    pub fn validate(&self) -> Result<()> {
        let positive = [
            ("hidden_size", self.hidden_size),
            ("num_hidden_layers", self.num_hidden_layers),
            ("num_attention_heads", self.num_attention_heads),
            ("intermediate_size", self.intermediate_size),
            ("vocab_size", self.vocab_size),
            ("type_vocab_size", self.type_vocab_size),
        ];
        if let Some((name, _)) = positive.iter().find(|(_, v)| *v == 0) {
            return Err(ModelError::Config(format!("{name} must be positive")));
        }
        if !self.hidden_size.is_multiple_of(self.num_attention_heads) {
            return Err(ModelError::Config(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                self.hidden_size, self.num_attention_heads
            )));
        }
        if self.max_position_embeddings <= self.position_offset + 2 {
            return Err(ModelError::Config(format!(
                "max_position_embeddings {} leaves no room after position_offset {}",
                self.max_position_embeddings, self.position_offset
            )));
        }
        if !(self.layer_norm_eps.is_finite() && self.layer_norm_eps > 0.0) {
            return Err(ModelError::Config(format!(
                "layer_norm_eps {} must be positive",
                self.layer_norm_eps
            )));
        }
        Ok(())
    }

    /// `d_k = d_v = hidden_size / num_attention_heads`.
    pub fn head_dim(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }

    /// The most tokens (`[CLS]` and `[SEP]` included) the position table allows.
    pub fn max_tokens(&self) -> usize {
        self.max_position_embeddings - self.position_offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINILM: &str = r#"{"architectures":["BertModel"],"hidden_act":"gelu","hidden_size":384,
        "intermediate_size":1536,"layer_norm_eps":1e-12,"max_position_embeddings":512,
        "model_type":"bert","num_attention_heads":12,"num_hidden_layers":6,"type_vocab_size":2,
        "vocab_size":30522}"#;

    #[test]
    fn reads_a_hugging_face_config() {
        let c = Config::from_json(MINILM).unwrap();
        assert_eq!(
            (c.hidden_size, c.num_attention_heads, c.head_dim()),
            (384, 12, 32)
        );
        assert_eq!(c.pooling, Pooling::Mean);
        assert_eq!(c.max_tokens(), 512);
        assert_eq!(Config::from_json(&c.to_json()).unwrap(), c);
    }

    #[test]
    fn rejects_sizes_that_cannot_run() {
        let bad = MINILM.replace("\"num_attention_heads\":12", "\"num_attention_heads\":5");
        assert!(matches!(
            Config::from_json(&bad),
            Err(ModelError::Config(_))
        ));
        let act = MINILM.replace("\"gelu\"", "\"swish\"");
        assert!(
            Config::from_json(&act)
                .unwrap_err()
                .to_string()
                .contains("swish")
        );
    }

    #[test]
    fn reads_sentence_transformers_pooling() {
        let mean = r#"{"pooling_mode_cls_token": false, "pooling_mode_mean_tokens": true}"#;
        assert_eq!(
            Pooling::from_sentence_transformers(mean).unwrap(),
            Pooling::Mean
        );
        let cls = r#"{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}"#;
        assert_eq!(
            Pooling::from_sentence_transformers(cls).unwrap(),
            Pooling::Cls
        );
    }
}
