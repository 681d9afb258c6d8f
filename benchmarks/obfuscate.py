"""Copy-then-edit obfuscation at a given rate, for both languages (PAN's "random obfuscation").

English: words are substituted, inserted or deleted. Chinese: jieba words are substituted,
characters inserted or deleted. Substitutes and insertions are real words drawn from *other*
documents of the corpus (a vocabulary the caller passes), never from the copied text itself, so
an edit can never restore the original by chance more often than real editing would.

``mode="substitute"`` edits only by substitution (the issue's "x % of the words replaced");
``mode="mixed"`` draws substitution, insertion and deletion in the ratio 2 : 1 : 1.
The rate is the share of words (en) or jieba words (zh) that receive an edit.
"""

from __future__ import annotations

import random
import re
from typing import Sequence

_EN_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\S")  # words, and each other visible character alone
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_CJK = re.compile(r"[\u4e00-\u9fff]")

MODES = ("substitute", "mixed")


def _op(rng: random.Random, mode: str) -> str:
    if mode == "substitute":
        return "sub"
    return rng.choices(("sub", "ins", "del"), weights=(2, 1, 1))[0]


def english_vocab(texts: Sequence[str]) -> list[str]:
    """The words of ``texts`` (3 letters or more), sorted: the substitutes for English."""
    return sorted({w.lower() for t in texts for w in _EN_WORD.findall(t) if len(w) >= 3})


def chinese_vocab(texts: Sequence[str]) -> list[str]:
    """The all-CJK jieba words of ``texts``, sorted: the substitutes for Chinese."""
    import jieba

    words = set()
    for t in texts:
        words.update(w for w in jieba.lcut(t) if w and all(_CJK.fullmatch(c) for c in w))
    return sorted(words)


def obfuscate_en(text: str, rate: float, vocab: Sequence[str], rng: random.Random, mode: str = "substitute") -> str:
    """``text`` with a share ``rate`` of its words edited (white space kept as it was)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    out: list[str] = []
    pos = 0
    for m in _EN_WORD.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        word = m.group()
        if rng.random() >= rate:
            out.append(word)
            continue
        op = _op(rng, mode)
        if op == "sub":
            out.append(rng.choice(vocab))
        elif op == "ins":
            out.append(word + " " + rng.choice(vocab))
        # "del": the word is dropped (its surrounding white space stays)
    out.append(text[pos:])
    return "".join(out)


def obfuscate_zh(text: str, rate: float, vocab: Sequence[str], rng: random.Random, mode: str = "substitute") -> str:
    """``text`` with a share ``rate`` of its Chinese (jieba) words edited.

    Substitution replaces the whole word by another word; insertion adds one character (taken
    from a vocabulary word) after it; deletion drops one of its characters.
    """
    import jieba

    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    out: list[str] = []
    for word in jieba.lcut(text):
        if not _CJK.match(word) or rng.random() >= rate:
            out.append(word)
            continue
        op = _op(rng, mode)
        if op == "sub":
            out.append(rng.choice(vocab))
        elif op == "ins":
            out.append(word + rng.choice(rng.choice(vocab)))
        else:
            k = rng.randrange(len(word))
            out.append(word[:k] + word[k + 1 :])
    return "".join(out)


def obfuscate(text: str, lang: str, rate: float, vocab: Sequence[str], rng: random.Random, mode: str = "substitute") -> str:
    """:func:`obfuscate_en` or :func:`obfuscate_zh` by language (``"en"`` / ``"zh"``)."""
    if rate <= 0:
        return text
    fn = obfuscate_zh if lang == "zh" else obfuscate_en
    return fn(text, rate, vocab, rng, mode)
