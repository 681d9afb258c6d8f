"""Shared parts of the evaluations whose truth is not the product's own method.

Used by ``eval_reordered.py``, ``eval_credit.py``, ``eval_revisions.py`` and
``eval_search_exhaustive.py``:

- **labelled text**: a document built from segments, each saying which document its text was
  taken from (or none) and whether it is still verbatim; the truth *by construction* is the share
  of the document's units (``neardup_gui.core.units.tokenize``: the definition of a unit, not the
  product's method) whose first character came from a given source;
- **order-free n-gram truths**, computed here on unit ids: the share of a text's units lying in
  an n-gram found anywhere in another text (n = 8: verbatim runs as long as the product's minimum
  run, wherever they sit), and the classic n-gram containment |G(A) ∩ G(B)| / |G(A)|;
- **files**: DOCX written by python-docx, DOCX and PDF written by LibreOffice (batched), txt;
- **the command under test**: ``neardup`` run as a user runs it (``--json`` parsed), the
  executable given by ``--neardup``;
- figures: means, AUC (Mann–Whitney), markdown tables, the JSON written beside them.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from evalcorpus import write_docx
from groundtruth import gram_keys
from neardup_gui.core.units import tokenize

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LANG_DIRS = {"en": "debian-reference-en", "zh": "debian-reference-zh-cn"}
STOPWORDS = ROOT / "resources" / "stopwords"

# how a document is written: python-docx, LibreOffice from HTML, LibreOffice PDF, plain UTF-8
FORMATS = ("docx-python", "docx-lo", "pdf-lo", "txt")
SUFFIX = {"docx-python": ".docx", "docx-lo": ".docx", "pdf-lo": ".pdf", "txt": ".txt"}


def corpus_root() -> Path:
    """``$NEARDUP_CORPUS``, else the ``shared/corpus`` folder beside the project (or beside a
    folder holding it, for a git worktree)."""
    env = os.environ.get("NEARDUP_CORPUS")
    tried = [Path(env)] if env else [p / "shared" / "corpus" for p in ROOT.parents]
    for root in tried:
        if (root / LANG_DIRS["en"]).is_dir():
            return root
    raise SystemExit("development corpus not found (set NEARDUP_CORPUS)")


def read_sections(lang: str) -> list[tuple[str, list[str]]]:
    """(section id, paragraphs) of every section of one language, in name order."""
    out = []
    for path in sorted((corpus_root() / LANG_DIRS[lang]).glob("*.txt")):
        paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))]
        out.append((path.stem, [p for p in paras if p]))
    return out


def stopwords(lang: str) -> frozenset[str]:
    path = STOPWORDS / f"{lang}.txt"
    return frozenset(w.strip() for w in path.read_text(encoding="utf-8").splitlines()
                     if w.strip() and not w.startswith("#"))


def n_units(text: str) -> int:
    return len(tokenize(text))


_CJK = re.compile(r"[\u3400-\u9fff]")


def cjk_chars(text: str) -> int:
    return len(_CJK.findall(text))


# --- sentences and blocks (construction only) ----------------------------------------------------

_EN_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")
_ZH_END = re.compile(r"(?<=[。！？；])")


def split_sentences(paragraph: str, lang: str) -> list[str]:
    """The sentences of a paragraph, by end marks (a simple splitter of our own)."""
    pieces = _ZH_END.split(paragraph) if lang == "zh" else _EN_END.split(paragraph)
    return [p.strip() for p in pieces if p and p.strip()]


def blocks_of(paragraphs: Sequence[str], min_units: int = 20) -> list[list[str]]:
    """Paragraphs grouped into the blocks a person moves: a short paragraph (a heading, a table
    cell, a "Caution") goes with the paragraphs after it until the block holds ``min_units``."""
    out: list[list[str]] = []
    cur: list[str] = []
    units = 0
    for p in paragraphs:
        cur.append(p)
        units += n_units(p)
        if units >= min_units:
            out.append(cur)
            cur, units = [], 0
    if cur:
        if out:
            out[-1].extend(cur)
        else:
            out.append(cur)
    return out


def hard_shuffle(items: list, rng: random.Random, tries: int = 200) -> list:
    """A shuffle that keeps as few neighbours in their order as it can find (a person who moves
    paragraphs to hide a copy moves most of them)."""
    if len(items) < 3:
        return list(reversed(items))
    best, best_kept = list(items), len(items)
    index = {id(x): i for i, x in enumerate(items)}
    for _ in range(tries):
        order = list(items)
        rng.shuffle(order)
        kept = sum(index[id(order[k + 1])] == index[id(order[k])] + 1 for k in range(len(order) - 1))
        if kept < best_kept:
            best, best_kept = order, kept
        if kept == 0:
            break
    return best


class HeldOut:
    """Held-out prose paragraphs (never indexed), handed out once each. None shares an 8-unit
    run with ``seen`` — the indexed documents' n-grams, to which every paragraph handed out is
    added — so the text one document gets is foreign to the index and to every other document
    given text from the same ``seen`` (the book repeats itself; a section left untranslated
    stands in both languages)."""

    def __init__(self, sections: Sequence[tuple[str, list[str]]], rng: random.Random, seen: Grams) -> None:
        self.paras = [p for _, ps in sections for p in ps if n_units(p) >= 12]
        rng.shuffle(self.paras)
        self.pos = 0
        self.seen = seen

    def take(self, units: int) -> list[str]:
        """Paragraphs holding at least ``units`` units (one at least)."""
        out, got = [], 0
        while got < units or not out:
            if self.pos >= len(self.paras):
                raise RuntimeError("held-out text exhausted: fewer documents, or a larger held-out share")
            p = self.paras[self.pos]
            self.pos += 1
            if self.seen.shares(p):
                continue
            self.seen.add(p)
            out.append(p)
            got += n_units(p)
        return out

    def sentence(self, lang: str) -> str:
        """One sentence of six units or more."""
        while True:
            sents = [s for s in split_sentences(self.take(1)[0], lang) if n_units(s) >= 6]
            if sents:
                return sents[0]


# --- labelled text ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """A piece of a built document: its text, the document it was taken from (None: the
    writer's own or foreign text) and whether it is still that document's text verbatim."""

    text: str
    origin: str | None = None
    verbatim: bool = True


@dataclass
class Built:
    """A document built for an evaluation: paragraphs of labelled segments."""

    name: str
    lang: str
    kind: str
    paragraphs: list[list[Segment]]
    fmt: str = "txt"
    meta: dict = field(default_factory=dict)

    @property
    def para_texts(self) -> list[str]:
        return ["".join(s.text for s in p) for p in self.paragraphs]

    @property
    def text(self) -> str:
        return "\n".join(self.para_texts)

    @property
    def file_name(self) -> str:
        return self.name + SUFFIX[self.fmt]

    def truth(self) -> dict[str, Any]:
        """Units of the text, and per source the units taken from it (copied) and still
        verbatim, by construction: a unit belongs to the segment holding its first character."""
        text = self.text
        origin = np.full(len(text) + 1, -1, dtype=np.int32)
        verbatim = np.zeros(len(text) + 1, dtype=bool)
        names: list[str] = []
        pos = 0
        for k, para in enumerate(self.paragraphs):
            if k:
                pos += 1  # the "\n" between paragraphs
            for s in para:
                if s.origin is not None:
                    if s.origin not in names:
                        names.append(s.origin)
                    origin[pos:pos + len(s.text)] = names.index(s.origin)
                    verbatim[pos:pos + len(s.text)] = s.verbatim
                pos += len(s.text)
        units = tokenize(text)
        starts = np.asarray(units.starts, dtype=np.int64)
        o, v = origin[starts], verbatim[starts]
        n = len(units)
        return {
            "units": n,
            "copied": {name: int((o == i).sum()) for i, name in enumerate(names)},
            "verbatim": {name: int(((o == i) & v).sum()) for i, name in enumerate(names)},
        }


def plain(text: str, origin: str | None = None) -> list[Segment]:
    return [Segment(text, origin, True)]


# --- order-free n-gram truths (unit ids) ------------------------------------------------------------


def unit_ids(text: str) -> np.ndarray:
    return np.asarray(tokenize(text).ids, dtype=np.uint64)


def coverage(a: np.ndarray, b: np.ndarray, n: int) -> float:
    """Share of A's units lying in an n-gram of A found anywhere in B (order-free)."""
    if len(a) == 0:
        return 0.0
    ka, kb = gram_keys(a, n), gram_keys(b, n)
    if len(ka) == 0 or len(kb) == 0:
        return 0.0
    hit = np.isin(ka, kb)
    covered = np.zeros(len(a) + 1, dtype=np.int32)
    starts = np.flatnonzero(hit)
    np.add.at(covered, starts, 1)
    np.add.at(covered, starts + n, -1)
    return float((np.cumsum(covered)[:len(a)] > 0).sum() / len(a))


def containment(a: np.ndarray, b: np.ndarray, n: int) -> float:
    """Classic n-gram containment of A in B: |G(A) ∩ G(B)| / |G(A)| over distinct n-grams."""
    ga = np.unique(gram_keys(a, n))
    if len(ga) == 0:
        return 0.0
    gb = np.unique(gram_keys(b, n))
    return float(np.isin(ga, gb, assume_unique=True).sum() / len(ga))


class Grams:
    """The n-grams of some texts (an index's documents), to keep text that must be foreign to
    them foreign: the book repeats itself, and a section left untranslated stands in both
    languages."""

    def __init__(self, texts: Iterable[str], n: int = 8) -> None:
        self.n = n
        self.keys: set[int] = set()
        for t in texts:
            self.add(t)

    def add(self, text: str) -> None:
        self.keys.update(gram_keys(unit_ids(text), self.n).tolist())

    def shares(self, text: str) -> bool:
        """True when ``text`` has an n-gram found in those texts."""
        return any(k in self.keys for k in gram_keys(unit_ids(text), self.n).tolist())


def longest_shared_run(a: np.ndarray, b: np.ndarray, limit: int = 64) -> int:
    """Length of the longest run of units of A found verbatim in B (capped at ``limit``)."""
    lo, hi = 0, min(limit, len(a), len(b))
    while lo < hi:  # the largest n such that some n-gram of A is in B
        mid = (lo + hi + 1) // 2
        if np.isin(gram_keys(a, mid), gram_keys(b, mid)).any():
            lo = mid
        else:
            hi = mid - 1
    return lo


# --- writing files ---------------------------------------------------------------------------------


def _html(paragraphs: Sequence[str], path: Path) -> None:
    from html import escape

    body = "".join(f"<p>{escape(p)}</p>\n" for p in paragraphs)
    path.write_text(f'<html><head><meta charset="utf-8"></head><body>\n{body}</body></html>\n', encoding="utf-8")


def _soffice(args: list[str], files: list[Path], outdir: Path, profile: Path) -> None:
    if not files:
        return
    if shutil.which("soffice") is None:
        raise SystemExit("LibreOffice (soffice) is needed to write DOCX and PDF files: scripts/install-deps.sh")
    for k in range(0, len(files), 200):
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", *args,
                        "--outdir", str(outdir), *map(str, files[k:k + 200])],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)


def write_files(items: Iterable[tuple[Path, Sequence[str], str]]) -> None:
    """Write each (path, paragraphs, format); LibreOffice runs once per format and folder."""
    by_lo: dict[tuple[str, Path], list[Path]] = {}
    folders: dict[Path, int] = {}
    with tempfile.TemporaryDirectory(prefix="evalkit-") as tmp:
        stage = Path(tmp)
        for path, paras, fmt in items:
            path.parent.mkdir(parents=True, exist_ok=True)
            if fmt == "txt":
                path.write_text("\n\n".join(paras) + "\n", encoding="utf-8")
            elif fmt == "docx-python":
                write_docx(paras, path)
            else:
                # staged under the final name (LibreOffice names its output after its input)
                folder = stage / f"{fmt}-{folders.setdefault(path.parent, len(folders))}"
                folder.mkdir(exist_ok=True)
                src = folder / (path.stem + (".html" if fmt == "docx-lo" else ".docx"))
                (_html if fmt == "docx-lo" else write_docx)(paras, src)
                by_lo.setdefault((fmt, path.parent), []).append(src)
        for (fmt, outdir), files in by_lo.items():
            if fmt == "docx-lo":
                args = ["--infilter=HTML (StarWriter)", "--convert-to", "docx:MS Word 2007 XML"]
            else:
                args = ["--convert-to", "pdf"]
            _soffice(args, files, outdir, stage / "profile")
            missing = [f for f in files if not (outdir / (f.stem + SUFFIX[fmt])).exists()]
            if missing:
                raise RuntimeError(f"LibreOffice did not write {len(missing)} {fmt} files in {outdir}")


# --- the command under test -------------------------------------------------------------------------


def default_neardup() -> str:
    """The ``neardup`` of the virtual environment running this script."""
    exe = Path(sys.executable).parent / "neardup"
    return str(exe) if exe.exists() else (shutil.which("neardup") or "neardup")


class CommandFailed(RuntimeError):
    pass


class Neardup:
    """The ``neardup`` command line, run as an examiner runs it; every call is timed."""

    def __init__(self, exe: str) -> None:
        self.exe = exe
        self.seconds: dict[str, float] = {}

    def run(self, *args: str, ok: Sequence[int] = (0, 3)) -> Any:
        """Run ``neardup ARGS --json -q`` and return its JSON (exit 3: some file was skipped)."""
        cmd = [self.exe, *args, "--json", "-q"]
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8")
        self.seconds[args[0]] = self.seconds.get(args[0], 0.0) + time.perf_counter() - t
        if proc.returncode not in ok or not proc.stdout.strip():
            raise CommandFailed(f"{' '.join(cmd[:6])}… exited {proc.returncode}: {proc.stderr[-2000:]}")
        return json.loads(proc.stdout)

    def version(self) -> str:
        proc = subprocess.run([self.exe, "--version"], capture_output=True, text=True)
        return proc.stdout.strip() or proc.stderr.strip()

    def index(self, folder: Path, db: Path) -> dict:
        return self.run("index", str(folder), "--db", str(db))

    def check(self, files: Sequence[Path], db: Path, top: int = 50, chunk: int = 100) -> list[dict]:
        out: list[dict] = []
        for k in range(0, len(files), chunk):
            out += self.run("check", *map(str, files[k:k + chunk]), "--db", str(db), "--top", str(top))
        return out

    def compare(self, a: Path, b: Path) -> dict:
        return self.run("compare", str(a), str(b))

    def compare_many(self, pairs: Sequence[tuple[Path, Path]], workers: int = 2) -> list[dict]:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(lambda p: self.compare(*p), pairs))


def match_of(result: dict, name: str) -> tuple[int | None, dict | None]:
    """(1-based rank, match) of the source whose file name is ``name`` in a check result."""
    for rank, m in enumerate(result.get("matches", []), 1):
        if Path(m["path"]).name == name:
            return rank, m
    return None, None


# --- figures ---------------------------------------------------------------------------------------


def mean(xs: Iterable[float]) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Area under the ROC curve: P(a positive scores above a negative), ties counting half."""
    if not positives or not negatives:
        return float("nan")
    neg = np.sort(np.asarray(negatives, dtype=float))
    wins = 0.0
    for p in positives:
        below = np.searchsorted(neg, p, side="left")
        equal = np.searchsorted(neg, p, side="right") - below
        wins += below + 0.5 * equal
    return float(wins / (len(positives) * len(neg)))


def fmt(x: Any, digits: int = 3) -> str:
    if isinstance(x, float):
        return "–" if x != x else f"{x:.{digits}f}"
    return str(x)


def table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def add_common_arguments(ap: Any, out: str) -> None:
    """The options every evaluation takes: ``--neardup``, ``--out``, ``--seed``, ``--small``."""
    ap.add_argument("--neardup", default=default_neardup(),
                    help="the neardup command to measure (default: the one of this virtual environment)")
    ap.add_argument("--out", type=Path, default=HERE / "out" / out, help="folder for the collection and figures")
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--small", action="store_true", help="a run of a minute or two")
