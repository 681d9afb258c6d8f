"""Synthetic proposals for the speed benchmarks: Markov text trained on the real corpus.

A fund office's collection is mostly documents that have nothing to do with each other. Building
100,000 of them by re-sampling the same real paragraphs would make every pair share passages
(and every check find thousands of candidates), so the bulk text is generated instead: an
order-2 Markov chain over words (English) or characters (Chinese), trained on the shared
development corpus, that falls back to order 1 on a share of its steps. Unit, sentence and
paragraph statistics are those of real text (paragraphs joined by one newline, as extraction
gives them); long runs are not shared between documents (the
order-1 steps break the corpus's verbatim runs; :func:`shared_run_stats` measures it).

Lengths: Chinese 3,000–8,000 characters, English 1,500–4,000 words, as proposals are.
"""

from __future__ import annotations

import os
import random
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))
LANG_DIRS = {"en": "debian-reference-en", "zh": "debian-reference-zh-cn"}

# Share of steps that use only the previous token: measured so two generated documents share
# almost no run of 12 units (the anchor k-gram) while sentences still read like the corpus.
BACKOFF = {"en": 0.8, "zh": 0.35}
# Chinese training paragraphs must be mostly Chinese, and their Latin letters are dropped: the
# book's command listings would otherwise make the character chain spell Latin gibberish.
MIN_CJK_SHARE = 0.6
_LATIN_RE = re.compile(r"[A-Za-z_/\\\-\"'()\[\]{}<>|=:;.,~`$#@*+]+")
PARAGRAPH_END = "\n\n"
_EN_TOKEN_RE = re.compile(r"\S+")
_ZH_SKIP_RE = re.compile(r"[ \t\r\f\v]+")


from neardup_gui.core.units import cjk_share  # noqa: E402


def corpus_texts(lang: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((CORPUS / LANG_DIRS[lang]).glob("*.txt"))]


@dataclass
class Markov:
    """Order-2 chain with order-1 fall-back over word tokens (en) or characters (zh)."""

    lang: str
    order2: dict
    order1: dict
    starts: list
    unigrams: list

    @classmethod
    def train(cls, lang: str) -> "Markov":
        o2: dict = defaultdict(list)
        o1: dict = defaultdict(list)
        starts: list = []
        for text in corpus_texts(lang):
            for para in text.split("\n\n"):
                para = para.strip()
                if not para:
                    continue
                toks = _EN_TOKEN_RE.findall(para) if lang == "en" else list(_LATIN_RE.sub("", _ZH_SKIP_RE.sub("", para.replace("\n", ""))))
                if lang == "zh" and cjk_share(para) < MIN_CJK_SHARE:
                    continue
                if len(toks) < 3:
                    continue
                toks = toks + [PARAGRAPH_END]
                starts.append((toks[0], toks[1]))
                for i in range(len(toks) - 2):
                    o2[(toks[i], toks[i + 1])].append(toks[i + 2])
                for i in range(len(toks) - 1):
                    o1[toks[i]].append(toks[i + 1])
        # A context with a single continuation would copy the corpus verbatim, in every
        # document: only branching contexts are kept (the others fall back).
        if lang == "en":
            o2 = {k: v for k, v in o2.items() if len(set(v)) >= 2}
            o1 = {k: v for k, v in o1.items() if len(set(v)) >= 3}
        unigrams = [t for v in o1.values() for t in v if t != PARAGRAPH_END]
        return cls(lang, o2, o1, starts, unigrams)

    def generate(self, rng: random.Random, target_units: int) -> str:
        """One document of about ``target_units`` units (words or characters), in paragraphs."""
        paras: list[str] = []
        backoff = BACKOFF[self.lang]
        n = 0
        while n < target_units:
            a, b = rng.choice(self.starts)
            toks = [a, b]
            limit = rng.randint(60, 260) if self.lang == "en" else rng.randint(120, 520)
            while len(toks) < limit * 3:
                nxt_list = None
                if rng.random() >= backoff:
                    nxt_list = self.order2.get((toks[-2], toks[-1]))
                if nxt_list is None:
                    nxt_list = self.order1.get(toks[-1], self.unigrams)
                nxt = rng.choice(nxt_list)
                if nxt == PARAGRAPH_END:
                    if len(toks) >= limit // 3:
                        break
                    a, b = rng.choice(self.starts)
                    # too short for a paragraph: end the sentence and start another one
                    if self.lang == "zh" and toks[-1] not in "。！？：":
                        toks.append("。")
                    toks.extend([a, b])
                    continue
                toks.append(nxt)
                if len(toks) >= limit and (nxt.endswith(".") or nxt in "。！？"):
                    break
            paras.append(" ".join(toks) if self.lang == "en" else "".join(toks))
            n += len(toks) if self.lang == "en" else len(paras[-1])
        return "\n".join(paras)


def doc_length(lang: str, rng: random.Random) -> int:
    """Units of one proposal: 3,000–8,000 characters (zh) or 1,500–4,000 words (en)."""
    return rng.randint(3000, 8000) if lang == "zh" else rng.randint(1500, 4000)


def shared_run_stats(texts: list[str], k: int = 12) -> tuple[int, int]:
    """(pairs sharing any run of ``k`` units, pairs tested) over all pairs of ``texts``."""
    from neardup_gui.core.units import tokenize

    grams = []
    for t in texts:
        ids = tokenize(t).ids.tolist()
        grams.append({tuple(ids[i:i + k]) for i in range(len(ids) - k + 1)})
    shared = tested = 0
    for i in range(len(grams)):
        for j in range(i + 1, len(grams)):
            tested += 1
            shared += bool(grams[i] & grams[j])
    return shared, tested
