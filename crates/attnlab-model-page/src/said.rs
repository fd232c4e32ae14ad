//! What the model page says: a sentence kept in both languages ([`Said`]) and the
//! model's, the text's and relevance's errors in either language.

use attnlab_model::relevance::RelevanceError;
use attnlab_model::{ModelError, TextError};

use attnlab_i18n::Lang;
use attnlab_i18n::msg::model;

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
}
