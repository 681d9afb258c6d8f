"""Collections that show whether copying can hide behind template text (issue 14), from real text.

Shared by tests/core/test_copying_never_hidden.py, tests/cli/test_common_cli.py and the app tests.
Every document is a .txt file of real corpus text (Debian Reference sections), written into a
temporary folder:

- ``ring_collection``: several hundred documents holding a ring of 7 (one section and six light
  edits of it, every pair far above 0.7), an 800-character passage of one section copied into 7
  unrelated sections (6 in the collection, the 7th checked from outside), and a byte copy of
  one document kept outside the folder to be checked;
- ``form_collection``: proposals that all fill in the same form (one call, no template file);
- ``two_forms_collection``: a folder holding two calls, each with its own form;
- ``license_collection``: copyright-like files, each a short header of its own followed by one
  of a few whole licence texts (long corpus sections stand in for the licences).

The answers are computed by brute force (benchmarks/groundtruth.py), never by the product.
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.corpus import corpus_dir

RING_SIZE = 7
PASSAGE_CHARS = 800
PASSAGE_HOSTS = 7

FORM_A = [
    "Research Project Grant: Application Form",
    "Describe the scientific merit of the proposed work in no more than fifteen pages. Do not remove or change the headings and instructions of this form.",
    "1. Objectives and significance",
    "State the objectives of the project and explain why they matter for the field and for society. Reviewers will judge whether the objectives are clear, specific and achievable within the funding period.",
    "2. Background and preliminary results",
    "Summarise the state of the art and the applicant's own results that the project builds on. Cite the most relevant publications, including those of competing groups, in the list of references.",
    "3. Methods and work plan",
    "Describe the methods, the work packages with their milestones, and the risks with a fallback for each. A Gantt chart may be attached as an appendix and does not count towards the page limit.",
    "4. Declaration",
    "I confirm that the information given in this application is complete and correct, and that it has not been submitted in substantially the same form to another funding body.",
]

FORM_B = [
    "Travel and Exchange Fellowship: Proposal Template",
    "Please answer every question below in plain language; answers longer than two pages per question will not be read by the panel.",
    "A. The host institution and why it was chosen",
    "Name the host laboratory, the person who will supervise the visit and the facilities you will use there, and attach a letter of invitation signed by the head of the host laboratory.",
    "B. What you will learn and bring back",
    "Explain which techniques or knowledge you will acquire during the visit and how your home group will use them after your return, with a timetable of the exchange.",
    "C. Costs",
    "List the travel, subsistence and bench fees you request, in the currency of the host country, and state any other support you receive for the same visit.",
]


def sections(lang: str | None = None, min_chars: int = 0) -> list[tuple[str, str]]:
    """(name, text) of the corpus sections, in a fixed order."""
    out = []
    for sub in ("debian-reference-en", "debian-reference-zh-cn"):
        if lang and not sub.endswith(lang):
            continue
        for path in sorted((corpus_dir() / sub).glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            if len(text) >= min_chars:
                out.append((f"{'en' if sub.endswith('en') else 'zh'}-{path.stem}", text))
    return out


def sentences_of(text: str) -> list[str]:
    """The text cut after ., ! or ? followed by a space (English prose)."""
    parts = re.split(r"(?<=[.!?])\s+", text)
    return [p for p in parts if p.strip()]


def light_edit(text: str, seed: int) -> str:
    """One sentence dropped, one sentence's word changed, the rest as it was (a proposal mill's
    variant of the same text)."""
    rng = random.Random(seed)
    sents = sentences_of(text)
    drop = rng.randrange(1, len(sents) - 1)
    sents = sents[:drop] + sents[drop + 1:]
    k = rng.randrange(len(sents))
    words = sents[k].split(" ")
    words[rng.randrange(len(words))] = f"variant{seed}"
    sents[k] = " ".join(words)
    return " ".join(sents)


def passage_of(text: str, chars: int = PASSAGE_CHARS) -> str:
    """About ``chars`` characters of whole sentences from the middle of ``text``."""
    sents = sentences_of(text)
    start = len(sents) // 4
    out: list[str] = []
    for s in sents[start:]:
        out.append(s)
        if sum(len(x) + 1 for x in out) >= chars:
            break
    return " ".join(out)


def insert_middle(host: str, passage: str) -> str:
    paras = host.split("\n")
    mid = len(paras) // 2
    return "\n".join(paras[:mid] + [passage] + paras[mid:])


@dataclass(frozen=True)
class RingCase:
    root: Path  # the collection folder
    ring: tuple[str, ...]  # file names of the ring's members
    passage: str  # the copied passage
    passage_source: str  # file name of the section it was taken from
    passage_hosts: tuple[str, ...]  # file names of the 6 hosts inside the folder
    passage_checked: Path  # the 7th host, outside the folder
    byte_copy: Path  # a byte copy of byte_copy_of, outside the folder
    byte_copy_of: str
    texts: dict[str, str]  # every document of the folder by file name


def ring_collection(tmp: Path, documents: int = 300) -> RingCase:
    """See the module docstring; ``documents`` is the number of files in the folder."""
    root = tmp / "collection"
    outside = tmp / "outside"
    root.mkdir(parents=True)
    outside.mkdir()
    long_en = [(n, t) for n, t in sections("en", 2500) if len(sentences_of(t)) >= 20]
    ring_name, ring_text = long_en[0]
    source_name, source_text = long_en[1]
    hosts = long_en[2:2 + PASSAGE_HOSTS]
    used = {ring_name, source_name, *(n for n, _ in hosts)}
    fillers = [(n, t) for n, t in sections() if n not in used]
    texts: dict[str, str] = {}
    ring = [f"ring-0-{ring_name}.txt"]
    texts[ring[0]] = ring_text
    for k in range(1, RING_SIZE):
        name = f"ring-{k}-{ring_name}.txt"
        texts[name] = light_edit(ring_text, k)
        ring.append(name)
    passage = passage_of(source_text)
    source_file = f"source-{source_name}.txt"
    texts[source_file] = source_text
    host_files = []
    for k, (name, text) in enumerate(hosts[:-1]):
        file = f"host-{k}-{name}.txt"
        texts[file] = insert_middle(text, passage)
        host_files.append(file)
    n_fill = documents - len(texts)
    if len(fillers) < n_fill:  # more documents than sections: the longer sections in two halves
        halves = []
        for name, text in fillers:
            paras = text.split("\n")
            if len(text) >= 1200 and len(paras) >= 2:
                mid = len(paras) // 2
                halves += [(f"{name}-a", "\n".join(paras[:mid])), (f"{name}-b", "\n".join(paras[mid:]))]
            else:
                halves.append((name, text))
        fillers = halves
    assert len(fillers) >= n_fill, "the corpus is too small for this many documents"
    for name, text in fillers[:n_fill]:
        texts[f"{name}.txt"] = text
    for file, text in texts.items():
        (root / file).write_text(text, encoding="utf-8")
    checked = outside / f"host-6-{hosts[-1][0]}.txt"
    checked.write_text(insert_middle(hosts[-1][1], passage), encoding="utf-8")
    copy_of = f"{fillers[0][0]}.txt"
    byte_copy = outside / f"copy of {copy_of}"
    shutil.copyfile(root / copy_of, byte_copy)
    return RingCase(root, tuple(ring), passage, source_file, tuple(host_files), checked, byte_copy, copy_of, texts)


def proposal(form: list[str], answers: list[str]) -> str:
    """The form filled in: after every instruction (every second line of the form), one
    paragraph of the applicant's own."""
    lines = []
    for i, line in enumerate(form):
        lines.append(line)
        if i % 2 == 1:
            lines.append(answers[(i // 2) % len(answers)])
    return "\n".join(lines)


def _answers(offset: int, count: int, per_doc: int) -> list[list[str]]:
    """Paragraphs of real prose, different for every proposal."""
    paras = []
    for _, text in sections("en"):
        paras.extend(p for p in text.split("\n") if 80 <= len(p) <= 200)
    assert len(paras) >= offset + count * per_doc
    return [paras[offset + d * per_doc: offset + (d + 1) * per_doc] for d in range(count)]


def form_collection(tmp: Path, documents: int = 26) -> tuple[Path, dict[str, str]]:
    """``documents`` proposals of one call: the same form, every answer different."""
    root = tmp / "call"
    root.mkdir(parents=True)
    texts = {}
    for d, answers in enumerate(_answers(0, documents, len(FORM_A) // 2)):
        texts[f"proposal-{d:02d}.txt"] = proposal(FORM_A, answers)
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root, texts


def two_forms_collection(tmp: Path, a: int = 12, b: int = 8) -> tuple[Path, dict[str, str]]:
    """One folder holding two calls: ``a`` proposals on form A and ``b`` on form B."""
    root = tmp / "two-calls"
    root.mkdir(parents=True)
    texts = {}
    for d, answers in enumerate(_answers(0, a, len(FORM_A) // 2)):
        texts[f"call-a-{d:02d}.txt"] = proposal(FORM_A, answers)
    for d, answers in enumerate(_answers(a * len(FORM_A) // 2, b, len(FORM_B) // 2)):
        texts[f"call-b-{d:02d}.txt"] = proposal(FORM_B, answers)
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root, texts


def license_collection(tmp: Path, files: int = 60, licences: int = 4, seed: int = 3) -> tuple[Path, dict[str, str]]:
    """Copyright-like files: a header of their own, then one of a few whole licence texts; a few
    files carry a second licence too (as Debian copyright files do)."""
    rng = random.Random(seed)
    root = tmp / "copyright"
    root.mkdir(parents=True)
    long_en = [t for _, t in sections("en", 3000)]
    licence_texts = long_en[:licences]
    headers = [t for _, t in sections("en") if 800 <= len(t) < 1500]
    texts = {}
    for f in range(files):
        header = headers[f % len(headers)][:400]
        body = [licence_texts[rng.randrange(licences)]]
        if rng.random() < 0.2:
            body.append(licence_texts[rng.randrange(licences)])
        texts[f"pkg-{f:03d}-copyright.txt"] = (
            f"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
            f"Upstream-Name: package{f}\nCopyright: {2000 + f % 20} Author Number {f}\n{header}\n\n"
            + "\n\n".join(body))
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root, texts
