"""Evaluation collection: real text with planted near-duplicates, written as docx/pdf/txt, and its truth.

The text comes from the shared development corpus (sections of a real book, Chinese and
English; ``<project root>/../shared/corpus`` or ``$NEARDUP_CORPUS``). The sections are split,
deterministically, into *originals* (put in the collection as they are) and a *held-out* pool
whose paragraphs serve as fresh text that appears in no original (fillers for partial copies,
the content of template-only documents, inserted sentences). Planted, per language:

1. ``resub``: an original with light edits — sentences reworded by substitutions drawn from the
   text itself, sentences deleted, sentences from held-out sections inserted, paragraphs moved —
   with the number of edits searched so the exact similarity lands near a spread of targets
   (just above and below 0.5, 0.7 and 0.9, and some between);
2. ``partial``: a block of an original (whole or leading paragraphs) inside a new document of
   held-out text, making 30–65 % of it (and some 10–30 %); the source is recorded;
3. ``mosaic``: blocks of 2–3 originals, in turn, with held-out paragraphs between them; and
   ``reordered``: one original with its paragraphs shuffled;
4. ``template``: different held-out sections wrapped in the same long application-form text.

Every original is used as the source of at most one planted document, so no sentence of a
source appears in more than two documents (a document-frequency template detector must not
mistake planted copies for template text); the form text is in six documents per language.

``truth.json`` holds, for every pair of documents with exact similarity > 0 (groundtruth.py on
the texts written, or with ``--truth-from extracted`` on the text python-docx / pdfminer /
the txt file give back), the similarity and both containments, computed once on the full text
and once with the form text removed from template documents (``*_no_template``: what a tool
that excludes template text should report); and for each planted document its kind and sources.

Usage: ``python benchmarks/evalcorpus.py --out DIR [--langs zh,en] [--small]``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
import groundtruth as gt  # noqa: E402
import numpy as np  # noqa: E402

from neardup_gui.core.settings import Settings  # noqa: E402
from neardup_gui.core.units import sentences, tokenize  # noqa: E402

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "out" / "evalcorpus"
LANG_DIRS = {"en": "debian-reference-en", "zh": "debian-reference-zh-cn"}
# just above and below 0.5, 0.7 and 0.9, and some between; --small takes every other one
RESUB_TARGETS = (0.47, 0.53, 0.67, 0.73, 0.87, 0.93, 0.40, 0.60, 0.80, 0.97, 0.51, 0.71,
                 0.49, 0.55, 0.69, 0.75, 0.89, 0.91, 0.45, 0.65, 0.78, 0.95, 0.58, 0.85)
# share of the new document that is copied: ≥ 30 % and some 10–30 %
PARTIAL_SHARES = (0.35, 0.45, 0.55, 0.65, 0.32, 0.40, 0.50, 0.60, 0.15, 0.25, 0.12, 0.28,
                  0.38, 0.48, 0.58, 0.33, 0.43, 0.20)
TEMPLATE_DOCS = 6  # above the product's default document frequency for template sentences

FORM = {
    "en": {
        "head": [
            "RESEARCH GRANT APPLICATION FORM (General Programme)",
            "Instructions to applicants: complete every part of this form in English. The "
            "application is assessed by at least three independent reviewers, and incomplete "
            "applications are returned without review.",
            "Part A. Summary of the proposed work. Describe the problem the project addresses, "
            "the approach you will take and the results you expect, in terms that a reviewer "
            "outside your own field can follow.",
            "Part B. Detailed description. The following text is the applicant's own account of "
            "the work; tables and figures may be referred to but must be supplied separately.",
        ],
        "tail": [
            "Part C. Budget justification. All costs must be justified against the work plan, "
            "and equipment above the institutional threshold requires a separate quotation.",
            "Declaration of the applicant: I confirm that the information given in this "
            "application is complete and correct, that the proposal is my own work, and that "
            "it has not been submitted in substantially the same form to another funding "
            "programme in the current call.",
            "Declaration of the host institution: the institution supports this application, "
            "will provide the facilities described, and will administer the grant in "
            "accordance with the conditions of the funding agency.",
            "Signature of applicant, date, and official stamp of the host institution.",
        ],
    },
    "zh": {
        "head": [
            "科学研究基金项目申请书（面上项目）",
            "填写说明：申请人应当认真阅读本申请书填写说明，按照要求逐项如实填写，申请书内容不得涉及国家秘密。"
            "申请材料不完整或者不符合要求的，不予受理。",
            "第一部分　项目摘要。请概括说明本项目拟解决的主要问题、研究方案和预期成果，"
            "文字应当简明扼要，便于同行评议专家理解。",
            "第二部分　正文。以下内容由申请人自行撰写，图表可另附，但须在正文中注明。",
        ],
        "tail": [
            "第三部分　经费预算说明。各项支出应当与研究任务相关，购置设备超过规定金额的须另附报价材料。",
            "申请人承诺：我保证申请书内容的真实性，本申请为本人独立完成，未以相同或者相近内容重复申报本年度其他科研项目。"
            "如获得资助，我将严格遵守有关管理规定，按时报送有关材料。",
            "依托单位承诺：本单位已按照要求审核申请人的资格和申请材料的真实性，保证为项目实施提供必要的条件，"
            "并按照规定管理项目资金。",
            "申请人签字、日期及依托单位公章。",
        ],
    },
}


@dataclass
class Doc:
    """One document of the collection: its text (paragraphs), what it is, where it comes from."""

    name: str
    lang: str
    kind: str  # original | resub | partial | mosaic | reordered | template
    paragraphs: list[str]
    sources: list[dict] = field(default_factory=list)
    target: float | None = None
    fmt: str = "docx"

    @property
    def text(self) -> str:
        return "\n".join(self.paragraphs)

    def text_no_template(self) -> str:
        if self.kind != "template":
            return self.text
        form = FORM[self.lang]
        return "\n".join(self.paragraphs[len(form["head"]) : len(self.paragraphs) - len(form["tail"])])


def corpus_root() -> Path:
    env = os.environ.get("NEARDUP_CORPUS")
    return Path(env) if env else ROOT.parent / "shared" / "corpus"


def read_sections(folder: Path) -> list[tuple[str, list[str]]]:
    """(section id, paragraphs) for every section file, in name order."""
    out = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
        out.append((path.stem, [p for p in paras if p]))
    return out


def n_units(text: str) -> int:
    return len(tokenize(text))


# --- light edits -------------------------------------------------------------------------------

_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")


def reword(sentence: str, lang: str, vocab: Sequence[str], rng: random.Random) -> str:
    """Substitute about a third of the words (en) or CJK characters (zh) with ones from ``vocab``."""
    pattern = _WORD_RE if lang == "en" else _CJK_RE
    def sub(m: re.Match) -> str:
        return rng.choice(vocab) if rng.random() < 0.34 else m.group()
    return pattern.sub(sub, sentence)


def split_sentences(paragraph: str) -> list[str]:
    return [paragraph[s:e] for s, e in sentences(paragraph)] or [paragraph]


def apply_edits(
    paragraphs: list[str], lang: str, k: int, seed: int, insert_pool: Sequence[str]
) -> list[str]:
    """The first ``k`` edits of a deterministic edit sequence (so k+1 edits extend k edits)."""
    rng = random.Random(seed)
    text = " ".join(paragraphs)
    vocab = sorted(set((_WORD_RE if lang == "en" else _CJK_RE).findall(text))) or ["x"]
    paras = [split_sentences(p) for p in paragraphs]
    for _ in range(k):
        op = rng.choices(("reword", "delete", "insert", "move"), weights=(5, 2, 2, 1))[0]
        pi = rng.randrange(len(paras))
        si = rng.randrange(len(paras[pi])) if paras[pi] else 0
        if op == "reword" and paras[pi]:
            paras[pi][si] = reword(paras[pi][si], lang, vocab, rng)
        elif op == "delete" and sum(len(p) for p in paras) > 3 and paras[pi]:
            del paras[pi][si]
        elif op == "insert" and insert_pool:
            paras[pi].insert(si, rng.choice(insert_pool))
        elif op == "move" and len(paras) > 2:
            moved = paras.pop(pi)
            paras.insert(rng.randrange(len(paras) + 1), moved)
    sep = " " if lang == "en" else ""
    return [sep.join(p) for p in paras if p]


def plant_resubmission(
    base: Doc, target: float, seed: int, insert_pool: Sequence[str], min_run: int
) -> tuple[list[str], float]:
    """Search the number of edits whose exact similarity to ``base`` is closest to ``target``."""
    base_ids = tokenize(base.text).ids
    cache: dict[int, tuple[list[str], float]] = {}

    def at(k: int) -> tuple[list[str], float]:
        if k not in cache:
            paras = apply_edits(base.paragraphs, base.lang, k, seed, insert_pool)
            ids = tokenize("\n".join(paras)).ids
            cache[k] = (paras, gt.truth_of_ids(base_ids, ids, min_run).similarity)
        return cache[k]

    hi = 1
    while at(hi)[1] > target and hi < 4096:
        hi *= 2
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if at(mid)[1] > target:
            lo = mid
        else:
            hi = mid
    # at least one edit: an unchanged copy is not a resubmission with light edits
    best = min((max(lo, 1), hi), key=lambda k: abs(at(k)[1] - target))
    return at(best)


# --- the collection ---------------------------------------------------------------------------


class HeldOut:
    """Held-out paragraphs handed out once each, so fillers never overlap one another."""

    def __init__(self, sections: list[tuple[str, list[str]]]):
        self.paragraphs = [p for _, paras in sections for p in paras]
        self.pos = 0

    def take_units(self, units: int) -> list[str]:
        out: list[str] = []
        got = 0
        while got < units:
            if self.pos >= len(self.paragraphs):
                raise RuntimeError("held-out text exhausted: use fewer planted documents")
            p = self.paragraphs[self.pos]
            self.pos += 1
            out.append(p)
            got += n_units(p)
        return out

    def take_sentences(self, count: int) -> list[str]:
        out: list[str] = []
        while len(out) < count:
            for s in split_sentences(self.take_units(1)[0]):
                if n_units(s) >= 5:
                    out.append(s)
        return out[:count]


def build_language(lang: str, sections: list[tuple[str, list[str]]], small: bool, seed: int,
                   min_run: int) -> list[Doc]:
    rng = random.Random(f"{seed}-{lang}")
    order = list(range(len(sections)))
    rng.shuffle(order)
    n_held = max(int(len(sections) * 0.33), 20)
    held_idx = sorted(order[:n_held])
    orig_idx = sorted(order[n_held:])
    if small:
        orig_idx = orig_idx[:40]
    held = HeldOut([sections[i] for i in held_idx])
    originals = [Doc(f"{lang}-orig-{sections[i][0]}", lang, "original", list(sections[i][1]))
                 for i in orig_idx]
    scale = 2 if small else 1
    resub_targets = RESUB_TARGETS[::scale]
    partial_shares = PARTIAL_SHARES[::scale]
    n_resub = len(resub_targets)
    n_partial = len(partial_shares)
    n_mosaic = 4 // scale
    n_reordered = 2 // scale
    # sources: originals with enough text, each used once
    usable = [d for d in originals if n_units(d.text) >= 120 and len(d.paragraphs) >= 3]
    rng.shuffle(usable)
    need = n_resub + n_partial + 3 * n_mosaic + n_reordered
    if len(usable) < need:
        raise RuntimeError(f"{lang}: {len(usable)} usable originals, {need} needed")
    src = iter(usable)
    planted: list[Doc] = []

    # the longest bases get the highest targets: one edit must move a short text by less than
    # the gap to its target
    bases = sorted((next(src) for _ in resub_targets), key=lambda d: n_units(d.text))
    by_target = dict(zip(sorted(range(n_resub), key=lambda k: resub_targets[k]), bases))
    for k, target in enumerate(resub_targets):
        base = by_target[k]
        # inserted sentences are this document's own: shared ones would recur across
        # resubmissions and look like template text to a document-frequency detector
        insert_pool = held.take_sentences(6)
        paras, _ = plant_resubmission(base, target, seed * 1000 + k, insert_pool, min_run)
        planted.append(Doc(f"{lang}-resub-{k:02d}", lang, "resub", paras,
                           [{"name": base.name}], target))

    for k, share in enumerate(partial_shares):
        source = next(src)
        # copy the whole source or its leading paragraphs, then add filler; the new document
        # stays near 1,400 units so that the held-out text lasts
        block: list[str] = []
        for p in source.paragraphs:
            block.append(p)
            if n_units("\n".join(block)) >= min(600, 1400 * share):
                break
        b_units = n_units("\n".join(block))
        filler = held.take_units(int(b_units * (1 - share) / share))
        at = rng.randrange(len(filler) + 1)
        paras = filler[:at] + block + filler[at:]
        planted.append(Doc(f"{lang}-partial-{k:02d}", lang, "partial", paras,
                           [{"name": source.name}], share))

    for k in range(n_mosaic):
        parts = [next(src) for _ in range(2 + k % 2)]
        paras: list[str] = []
        for d in parts:
            n = max(2, len(d.paragraphs) // 2)
            start = rng.randrange(len(d.paragraphs) - n + 1)
            paras += d.paragraphs[start : start + n]
            paras += held.take_units(40)
        planted.append(Doc(f"{lang}-mosaic-{k:02d}", lang, "mosaic", paras,
                           [{"name": d.name} for d in parts]))

    for k in range(n_reordered):
        source = next(src)
        paras = list(source.paragraphs)
        rng.shuffle(paras)
        planted.append(Doc(f"{lang}-reordered-{k:02d}", lang, "reordered", paras,
                           [{"name": source.name}]))

    form = FORM[lang]
    for k in range(TEMPLATE_DOCS):
        content = held.take_units(100 if lang == "en" else 180)
        planted.append(Doc(f"{lang}-template-{k:02d}", lang, "template",
                           form["head"] + content + form["tail"]))
    return originals + planted


def assign_formats(docs: list[Doc], seed: int) -> None:
    """About 60 % docx, 25 % pdf (through LibreOffice), 15 % txt, deterministically."""
    rng = random.Random(f"{seed}-formats")
    for d in docs:
        x = rng.random()
        d.fmt = "docx" if x < 0.6 else ("pdf" if x < 0.85 else "txt")


def write_docx(paragraphs: Sequence[str], path: Path) -> None:
    import docx

    document = docx.Document()
    for p in paragraphs:
        document.add_paragraph(p)
    document.save(str(path))


def write_documents(docs: list[Doc], out_docs: Path) -> None:
    """docx via python-docx, txt as UTF-8, pdf through one batched LibreOffice conversion."""
    out_docs.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="evalcorpus-") as tmp:
        staged = []
        for d in docs:
            if d.fmt == "txt":
                (out_docs / f"{d.name}.txt").write_text(d.text + "\n", encoding="utf-8")
            elif d.fmt == "docx":
                write_docx(d.paragraphs, out_docs / f"{d.name}.docx")
            else:
                path = Path(tmp) / f"{d.name}.docx"
                write_docx(d.paragraphs, path)
                staged.append(str(path))
        if staged:
            profile = Path(tmp) / "lo-profile"
            subprocess.run(
                ["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                 "--convert-to", "pdf", "--outdir", str(out_docs), *staged],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800,
            )
            missing = [s for s in staged if not (out_docs / (Path(s).stem + ".pdf")).exists()]
            if missing:
                raise RuntimeError(f"LibreOffice did not convert {len(missing)} files")


def extract_text(path: Path) -> str:
    """Text as python-docx / pdfminer / the txt file give it back (for --truth-from extracted)."""
    if path.suffix == ".txt":
        return path.read_text(encoding="utf-8")
    if path.suffix == ".docx":
        import docx

        return "\n".join(p.text for p in docx.Document(str(path)).paragraphs)
    from pdfminer.high_level import extract_text as pdf_text
    from pdfminer.layout import LAParams

    # pdfminer's default line_margin (0.5) merges neighbouring lines of LibreOffice's Chinese
    # PDFs into boxes and reorders runs of Latin and CJK text: a section extracted that way is
    # only 0.64-0.93 similar to itself; 0.1 keeps the reading order (>= 0.96 on this corpus)
    return pdf_text(str(path), laparams=LAParams(line_margin=0.1))


def strip_form(text: str, lang: str) -> str:
    """Drop the form paragraphs from extracted text, compared unit by unit (layout ignored).

    Returns the remaining units joined by spaces: re-tokenising gives the same unit ids, which
    is all the truth compares.
    """
    sep = "\x01"
    joined = sep + sep.join(tokenize(text).tokens) + sep
    for para in sorted(FORM[lang]["head"] + FORM[lang]["tail"], key=len, reverse=True):
        joined = joined.replace(sep + sep.join(tokenize(para).tokens) + sep, sep)
    return " ".join(t for t in joined.split(sep) if t)


CUT = "\x1e"  # opens the removed text's units where template text was removed: see ids_with_cuts
CUT_END = "\x1f"


def ids_with_cuts(text: str, doc: int) -> tuple[np.ndarray, int]:
    """Unit ids of ``text`` with one barrier id for each stretch of removed text, and the number
    of barriers.

    A removed stretch is written ``CUT`` + its units + ``CUT_END`` (adjacent stretches with no
    unit between them are one). The product lets a run go on across removed text only where
    both texts removed the same text at the aligned position (``docs/quality.md``, "What counts
    as template"), so a barrier's id is a hash of the units it stands for: equal removed text
    gives equal barriers, which may then align; anything else never matches a unit. A barrier
    is not counted in the lengths. (``doc`` is kept for callers; barriers no longer depend on it.)
    """
    import hashlib

    parts: list[np.ndarray] = []
    removed: list[str] = []
    barriers = 0

    def flush() -> None:
        nonlocal barriers
        if removed:
            digest = hashlib.blake2b("\x1f".join(removed).encode("utf-8"), digest_size=8).digest()
            parts.append(np.array([np.uint64(int.from_bytes(digest, "little") | (1 << 63))], dtype=np.uint64))
            removed.clear()
            barriers += 1

    pos = 0
    while True:
        start = text.find(CUT, pos)
        piece = text[pos:] if start == -1 else text[pos:start]
        ids = tokenize(piece).ids
        if len(ids):
            flush()
            parts.append(ids)
        if start == -1:
            break
        end = text.index(CUT_END, start)
        removed.append(text[start + 1:end])
        pos = end + 1
    flush()
    return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)), barriers


def drop_recurring_sentences(texts: list[str], min_docs: int) -> tuple[list[str], int]:
    """The texts with ``CUT`` in place of each sentence that recurs in ``min_docs`` or more of them.

    The product's template rule (``docs/similarity.md``): a sentence of at least
    ``MIN_SENTENCE_UNITS`` units whose normalised units occur as a sentence of ``min_docs``
    documents is template, wherever it comes from — the planted form, or a sentence a real
    corpus repeats across its sections. Counted here by brute force on the whole unit tuples
    (no hashing), independently of ``neardup_gui/core/templates.py``.
    """
    from neardup_gui.core.templates import MIN_SENTENCE_UNITS

    def keyed(text: str) -> list[tuple[tuple[int, int], tuple[str, ...]]]:
        out = []
        for s, e in sentences(text):
            toks = tokenize(text[s:e]).tokens
            out.append(((s, e), toks if len(toks) >= MIN_SENTENCE_UNITS else ()))
        return out

    per_doc = [keyed(t) for t in texts]
    df: dict[tuple[str, ...], int] = {}
    for sents in per_doc:
        for k in {k for _, k in sents if k}:
            df[k] = df.get(k, 0) + 1
    recurring = {k for k, n in df.items() if n >= min_docs}
    out = []
    for text, sents in zip(texts, per_doc):
        keep, pos = [], 0
        for (s, e), k in sents:
            if k in recurring:
                # a cut, holding what it removed: a run goes across it only where the other text
                # removed the same at the aligned position
                keep.append(text[pos:s] + CUT + " ".join(k) + CUT_END)
                pos = e
        keep.append(text[pos:])
        out.append("".join(keep))
    return out, len(recurring)


def compute_truth(names: list[str], full: list[str], no_template: list[str], min_run: int) -> list[dict]:
    ids_full = [tokenize(t).ids for t in full]
    with_cuts = [ids_with_cuts(t, i) for i, t in enumerate(no_template)]
    ids_nt = [ids for ids, _ in with_cuts]
    units_nt = [len(ids) - cuts for ids, cuts in with_cuts]
    t_full = gt.all_pairs(ids_full, min_run)
    t_nt = gt.all_pairs(ids_nt, min_run)
    pairs = []
    for i, j in sorted(set(t_full) | set(t_nt)):
        f = t_full.get((i, j)) or gt.Truth(len(ids_full[i]), len(ids_full[j]), 0, 0, ())
        n = t_nt.get((i, j)) or gt.Truth(units_nt[i], units_nt[j], 0, 0, ())
        n = dataclasses.replace(n, len_a=units_nt[i], len_b=units_nt[j])  # barriers do not count
        pairs.append({
            "a": names[i], "b": names[j],
            "similarity": round(f.similarity, 6),
            "containment_a": round(f.containment_a, 6),
            "containment_b": round(f.containment_b, 6),
            "common": f.common,
            "similarity_no_template": round(n.similarity, 6),
            "containment_a_no_template": round(n.containment_a, 6),
            "containment_b_no_template": round(n.containment_b, 6),
        })
    return pairs


def build(out: Path, langs: Sequence[str], small: bool, seed: int = 5, min_run: int = gt.DEFAULT_MIN_RUN,
          truth_from: str = "source") -> dict:
    t0 = time.perf_counter()
    root = corpus_root()
    docs: list[Doc] = []
    for lang in langs:
        sections = read_sections(root / LANG_DIRS[lang])
        docs += build_language(lang, sections, small, seed, min_run)
    assign_formats(docs, seed)
    t_plant = time.perf_counter()
    if out.exists():
        shutil.rmtree(out)
    write_documents(docs, out / "docs")
    t_write = time.perf_counter()
    path_of = {d.name: f"docs/{d.name}.{d.fmt}" for d in docs}
    if truth_from == "extracted":
        full = [extract_text(out / path_of[d.name]) for d in docs]
        no_t = [strip_form(t, d.lang) if d.kind == "template" else t for t, d in zip(full, docs)]
    else:
        full = [d.text for d in docs]
        no_t = [d.text_no_template() for d in docs]
    # template text by the product's automatic rule too: sentences in at least template_min_docs
    # documents AND template_min_share of the collection (the planted form is given to the
    # product as a template file, as an examiner gives the call's form)
    defaults = Settings()
    min_docs = max(defaults.template_min_docs, math.ceil(defaults.template_min_share * len(docs) - 1e-9), 2)
    no_t, n_recurring = drop_recurring_sentences(no_t, min_docs)
    forms = out / "forms"
    forms.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        (forms / f"form-{lang}.txt").write_text("\n".join(FORM[lang]["head"] + FORM[lang]["tail"]) + "\n",
                                                encoding="utf-8")
    pairs = compute_truth([path_of[d.name] for d in docs], full, no_t, min_run)
    t_truth = time.perf_counter()
    units = {d.name: n_units(t) for d, t in zip(docs, full)}
    by_pair = {(p["a"], p["b"]): p for p in pairs}

    def pair_truth(a: str, b: str) -> dict:
        p = by_pair.get((a, b)) or by_pair.get((b, a))
        if not p:
            return {"similarity": 0.0, "containment_of_copy": 0.0}
        cont = p["containment_a"] if p["a"] == a else p["containment_b"]
        return {"similarity": p["similarity"], "containment_of_copy": cont}

    planted = []
    for d in docs:
        if d.kind in ("original", "template"):
            continue
        sources = [{"path": path_of[s["name"]], **pair_truth(path_of[d.name], path_of[s["name"]])}
                   for s in d.sources]
        planted.append({"path": path_of[d.name], "kind": d.kind, "lang": d.lang,
                        "target": d.target, "sources": sources})
    truth = {
        "min_run": min_run,
        "seed": seed,
        "small": small,
        "truth_from": truth_from,
        "documents": [{"path": path_of[d.name], "lang": d.lang, "kind": d.kind, "format": d.fmt,
                       "units": units[d.name]} for d in docs],
        "pairs": pairs,
        "planted": planted,
        "template_files": [f"forms/form-{lang}.txt" for lang in langs],
        "automatic_min_docs": min_docs,
        "template_groups": {lang: [path_of[d.name] for d in docs
                                   if d.kind == "template" and d.lang == lang] for lang in langs},
    }
    (out / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
    formats = {f: sum(d.fmt == f for d in docs) for f in ("docx", "pdf", "txt")}
    print(f"documents: {len(docs)} ({formats}); planted: {len(planted)} + "
          f"{sum(d.kind == 'template' for d in docs)} template-only; pairs with similarity > 0: "
          f"{len(pairs)}")
    print(f"template by the automatic rule: {n_recurring} distinct sentences recur in "
          f"≥ {min_docs} documents")
    print(f"time: plant {t_plant - t0:.1f} s, write {t_write - t_plant:.1f} s, "
          f"truth ({truth_from}) {t_truth - t_write:.1f} s, total {t_truth - t0:.1f} s")
    return truth


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--langs", default="zh,en")
    parser.add_argument("--small", action="store_true", help="40 originals per language, half the plants")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--min-run", type=int, default=gt.DEFAULT_MIN_RUN)
    parser.add_argument("--truth-from", choices=("source", "extracted"), default="source",
                        help="compute the truth on the texts written or on the text extracted back")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    truth = build(args.out, [x.strip() for x in args.langs.split(",") if x.strip()], args.small,
                  args.seed, args.min_run, args.truth_from)
    sims = sorted(round(p["sources"][0]["similarity"], 3) for p in truth["planted"] if p["kind"] == "resub")
    print("resubmission similarities:", sims)
    return 0


if __name__ == "__main__":
    sys.exit(main())
