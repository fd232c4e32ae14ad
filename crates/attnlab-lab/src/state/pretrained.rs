//! The real (pretrained) model as the lab's state names it: which checkpoint, and what
//! the model page selects in it. The runs, the figures and the worker's messages are the
//! model page's (`attnlab-model-page`); these are plain data a link carries.

use attnlab_i18n::Lang;
use attnlab_i18n::msg::pretrained as p;
use attnlab_i18n::said::Said;

/// A pretrained checkpoint the app can load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Checkpoint {
    /// sentence-transformers' all-MiniLM-L6-v2 (BERT, 6 layers × 12 heads).
    MiniLmL6,
    /// intfloat's multilingual-E5-small (XLM-R vocabulary, 12 layers × 12 heads), 4-bit.
    MultilingualE5Small,
}

impl Checkpoint {
    /// The checkpoints of the model choice, in its order.
    pub const ALL: [Checkpoint; 2] = [Checkpoint::MiniLmL6, Checkpoint::MultilingualE5Small];

    /// Every checkpoint the lab knows: links may name them and the model worker loads
    /// them.
    pub const KNOWN: [Checkpoint; 2] = [Checkpoint::MiniLmL6, Checkpoint::MultilingualE5Small];

    /// The checkpoint's name in links (and in `attnlab model --model`).
    pub fn name(self) -> &'static str {
        match self {
            Checkpoint::MiniLmL6 => "minilm-l6",
            Checkpoint::MultilingualE5Small => "multilingual-e5-small",
        }
    }

    /// The checkpoint called `name` in links.
    pub fn parse(name: &str) -> Option<Checkpoint> {
        Checkpoint::KNOWN.into_iter().find(|c| c.name() == name)
    }

    /// Its label in the model choice, in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Checkpoint::MiniLmL6 => p::LABEL_MINILM,
            Checkpoint::MultilingualE5Small => p::LABEL_E5,
        }
        .get(lang)
    }

    /// The asset's path, relative to the page (`cargo xtask model` writes it, the build
    /// copies it beside the app).
    pub fn asset_path(self) -> &'static str {
        match self {
            Checkpoint::MiniLmL6 => "model/all-minilm-l6-v2.q8.safetensors",
            Checkpoint::MultilingualE5Small => "model/multilingual-e5-small.q4.safetensors",
        }
    }

    /// Layers and heads per layer.
    pub fn shape(self) -> (usize, usize) {
        match self {
            Checkpoint::MiniLmL6 => (6, 12),
            Checkpoint::MultilingualE5Small => (12, 12),
        }
    }

    /// The approximate download, in bytes (shown before loading starts).
    pub fn approximate_bytes(self) -> u64 {
        match self {
            Checkpoint::MiniLmL6 => 23_200_000,
            Checkpoint::MultilingualE5Small => 37_100_000,
        }
    }

    /// Its short name in figure titles and the status line.
    pub fn short_name(self) -> &'static str {
        match self {
            Checkpoint::MiniLmL6 => "MiniLM-L6",
            Checkpoint::MultilingualE5Small => "multilingual-E5-small",
        }
    }

    /// Its special tokens, as the switch that hides them names them.
    pub fn special_tokens(self) -> (&'static str, &'static str) {
        match self {
            Checkpoint::MiniLmL6 => ("[CLS]", "[SEP]"),
            Checkpoint::MultilingualE5Small => ("<s>", "</s>"),
        }
    }

    /// Who made it and under which licence (the About panel), in `lang`. Code is between
    /// backquotes; in Chinese, names kept in Latin letters are between braces.
    pub fn attribution(self, lang: Lang) -> &'static str {
        match self {
            Checkpoint::MiniLmL6 => p::ATTRIBUTION_MINILM,
            Checkpoint::MultilingualE5Small => p::ATTRIBUTION_E5,
        }
        .get(lang)
    }

    /// What the model can read and what it cannot, said next to the model choice and
    /// on its page, in `lang`.
    pub fn caveat(self, lang: Lang) -> &'static str {
        match self {
            Checkpoint::MiniLmL6 => p::CAVEAT_MINILM,
            Checkpoint::MultilingualE5Small => p::CAVEAT_E5,
        }
        .get(lang)
    }

    /// What to do when the asset is not served with the app, in `lang`.
    pub fn how_to_get(self, lang: Lang) -> &'static str {
        p::HOW_TO_GET.get(lang)
    }
}

/// What the model page selects in the real model; `None` in
/// [`crate::LabState::pretrained`] is the toy (seeded) model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PretrainedView {
    /// The checkpoint.
    pub checkpoint: Checkpoint,
    /// The layer shown large (from 0).
    pub layer: usize,
    /// The head shown large (from 0).
    pub head: usize,
    /// Whether `[CLS]` and `[SEP]` are hidden and the rows renormalised.
    pub hide_special: bool,
    /// The query and key token of the head search (token indices, specials included).
    pub search: Option<(usize, usize)>,
    /// What the relevance panel shows.
    pub relevance: Relevance,
}

impl PretrainedView {
    /// The checkpoint's first head, everything shown.
    pub fn new(checkpoint: Checkpoint) -> PretrainedView {
        PretrainedView {
            checkpoint,
            layer: 0,
            head: 0,
            hide_special: false,
            search: None,
            relevance: Relevance::Rollout,
        }
    }

    /// The same view with the layer and head inside the checkpoint's shape; returns what
    /// was changed, as sentences in every language.
    pub fn repair(&mut self) -> Vec<Said> {
        let (layers, heads) = self.checkpoint.shape();
        let mut repairs = Vec::new();
        if self.layer >= layers {
            let (asked, shown) = (self.layer, layers - 1);
            repairs.push(
                p::LayerRepaired {
                    asked: &asked,
                    layers: &layers,
                    shown: &shown,
                }
                .said(),
            );
            self.layer = shown;
        }
        if self.head >= heads {
            let (asked, shown) = (self.head, heads - 1);
            repairs.push(
                p::HeadRepaired {
                    asked: &asked,
                    heads: &heads,
                    shown: &shown,
                }
                .said(),
            );
            self.head = shown;
        }
        repairs
    }
}

/// What the relevance panel shows beside the raw attention (docs/maths.md, rollout and
/// flow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Relevance {
    /// The product over layers of the head-averaged attention plus the identity.
    #[default]
    Rollout,
    /// The maximum flow from each input token to each position.
    Flow,
}

impl Relevance {
    /// Its name in links.
    pub fn name(self) -> &'static str {
        match self {
            Relevance::Rollout => "rollout",
            Relevance::Flow => "flow",
        }
    }

    /// The relevance called `name` in links.
    pub fn parse(name: &str) -> Option<Relevance> {
        [Relevance::Rollout, Relevance::Flow]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// Its label, in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Relevance::Rollout => p::RELEVANCE_ROLLOUT.get(lang),
            Relevance::Flow => p::RELEVANCE_FLOW.get(lang),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_checkpoint_is_named_in_links_and_read_back() {
        for c in Checkpoint::KNOWN {
            assert_eq!(Checkpoint::parse(c.name()), Some(c));
        }
        assert_eq!(
            Checkpoint::parse("multilingual-e5-small"),
            Some(Checkpoint::MultilingualE5Small)
        );
        assert_eq!(Checkpoint::parse("e5"), None);
        assert!(
            Checkpoint::ALL
                .iter()
                .all(|c| Checkpoint::KNOWN.contains(c))
        );
        assert_eq!(Checkpoint::MultilingualE5Small.shape(), (12, 12));
    }
}
