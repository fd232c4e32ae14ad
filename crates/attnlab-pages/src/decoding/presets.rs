//! Shapes of published models for the calculator, each with the source its numbers come
//! from, written as the source writes them.

use attnlab_i18n::{Tr, msg};
use attnlab_lab::state::KvCache;

/// A published model's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// Its name in `data-testid`s and in the picker's values.
    pub id: &'static str,
    /// The model's name.
    pub name: &'static str,
    /// Where the numbers come from (authors, year, document), as a citation.
    pub source: &'static str,
    /// The numbers as the source gives them.
    pub fields: &'static str,
    /// A remark on what the calculator leaves out, if any.
    pub remark: Option<Tr>,
    /// The settings (fp16 and the model's context, one sequence).
    pub cache: KvCache,
}

const fn shape(layers: u64, h: u64, g: u64, d_h: u64, context: u64) -> KvCache {
    KvCache {
        layers,
        query_heads: h,
        kv_heads: g,
        head_dim: d_h,
        bits: 16,
        latent: None,
        context,
        batch: 1,
    }
}

/// The presets, in the picker's order.
pub const PRESETS: [Preset; 5] = [
    Preset {
        id: "llama-3-8b",
        name: "Llama 3 8B",
        source: "Llama 3 (Meta, 2024), config.json of Meta-Llama-3-8B",
        fields: "num_hidden_layers = 32, num_attention_heads = 32, num_key_value_heads = 8, \
                 hidden_size = 4096 (d_h = 4096 / 32 = 128), max_position_embeddings = 8192",
        remark: None,
        cache: shape(32, 32, 8, 128, 8192),
    },
    Preset {
        id: "llama-2-7b",
        name: "Llama 2 7B",
        source: "Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat Models; \
                 config.json of Llama-2-7b-hf",
        fields: "num_hidden_layers = 32, num_attention_heads = 32, num_key_value_heads = 32, \
                 hidden_size = 4096 (d_h = 128), max_position_embeddings = 4096",
        remark: None,
        cache: shape(32, 32, 32, 128, 4096),
    },
    Preset {
        id: "mistral-7b",
        name: "Mistral 7B",
        source: "Jiang et al. 2023, Mistral 7B, Table 1",
        fields: "n_layers = 32, n_heads = 32, n_kv_heads = 8, head_dim = 128, \
                 window_size = 4096, context_len = 8192",
        remark: Some(msg::decoding::DECODING_PRESET_MISTRAL_WINDOW),
        cache: shape(32, 32, 8, 128, 8192),
    },
    Preset {
        id: "falcon-7b",
        name: "Falcon 7B",
        source: "Almazrouei et al. 2023, The Falcon Series of Open Language Models; \
                 config.json of tiiuae/falcon-7b",
        fields: "n_layer = 32, n_head = 71, multi_query = true, hidden_size = 4544 \
                 (d_h = 4544 / 71 = 64)",
        remark: None,
        cache: shape(32, 71, 1, 64, 2048),
    },
    Preset {
        id: "deepseek-v2",
        name: "DeepSeek-V2",
        source: "DeepSeek-AI 2024, DeepSeek-V2: A Strong, Economical, and Efficient \
                 Mixture-of-Experts Language Model, §3.1.2",
        fields: "60 layers, n_h = 128, d_h = 128, d_c = 512, d_h^R = 64, context 128K",
        remark: Some(msg::decoding::DECODING_PRESET_DEEPSEEK_MLA),
        cache: KvCache {
            latent: Some((512, 64)),
            ..shape(60, 128, 128, 128, 131_072)
        },
    },
];

/// The presets whose model shape `c` has (layers, heads, head size and latent; the width
/// of a value, the context and the batch may differ). Llama 3 8B and Mistral 7B share one.
pub fn presets_of(c: &KvCache) -> Vec<&'static Preset> {
    let same = |p: &KvCache| {
        (p.layers, p.query_heads, p.kv_heads, p.head_dim, p.latent)
            == (c.layers, c.query_heads, c.kv_heads, c.head_dim, c.latent)
    };
    PRESETS.iter().filter(|p| same(&p.cache)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoding::{checked, sizes};

    fn bytes(id: &str) -> u128 {
        let p = PRESETS.iter().find(|p| p.id == id).unwrap();
        assert!(checked(&p.cache).notes.is_empty(), "{id}");
        sizes(&p.cache).bits_per_token / 8
    }

    #[test]
    fn the_presets_give_the_published_sizes_per_token() {
        assert_eq!(bytes("llama-3-8b"), 32 * 2 * 8 * 128 * 2);
        assert_eq!(bytes("llama-3-8b"), 131_072);
        assert_eq!(bytes("llama-2-7b"), 524_288);
        assert_eq!(bytes("mistral-7b"), 131_072);
        assert_eq!(bytes("falcon-7b"), 32 * 2 * 64 * 2);
        assert_eq!(bytes("deepseek-v2"), (512 + 64) * 60 * 2);
    }

    #[test]
    fn a_shape_finds_its_preset_whatever_the_context() {
        let c = KvCache {
            context: 100,
            bits: 4,
            ..KvCache::default()
        };
        let ids: Vec<&str> = presets_of(&c).iter().map(|p| p.id).collect();
        assert_eq!(ids, ["llama-3-8b", "mistral-7b"]);
        let c = KvCache {
            kv_heads: 4,
            ..KvCache::default()
        };
        assert!(presets_of(&c).is_empty());
    }
}
