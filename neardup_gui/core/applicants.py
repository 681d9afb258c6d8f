"""Whose documents they are: each file's applicants, from the examiner, else from the file itself.

A document may have several applicants (names or IDs). They come, in this order, from what the
examiner said of the file (a CSV of ``path,applicant`` lines, or a name set in the window: the
latest action wins), else from the file's own metadata (the author of a DOCX or ODT document's
core properties, a PDF's Info Author), always shown with where they came from. An author field
that names a machine or a program rather than a person ("Administrator", "微软用户",
"python-docx") names nobody: taking it would make every proposal written on such a machine the
same applicant's own work.

The examiner's names are kept in the index by the file's path and content
(:mod:`neardup_gui.core.store.examiner`): a file keeps them when it changes (its path) and when it
moves (its content, looked up when its old path holds it no longer).
"""

from __future__ import annotations

import csv
import hashlib
import io
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from neardup_gui.core.results import NOBODY, Applicants, name_key
from neardup_gui.core.store import Store, examiner

log = logging.getLogger(__name__)

CSV = "csv"
EXAMINER = "examiner"
METADATA = "metadata"
SOURCES = (CSV, EXAMINER, METADATA)

# Between two applicants in one field: semicolons (both widths), the Chinese enumeration comma,
# line breaks. Not the comma: "Zhang, San" is one person.
_SEPARATORS = re.compile(r"[;；、\n\r]+")
# Author fields that name an account, a machine or a program, not a person (compared as name keys).
PLACEHOLDER_AUTHORS = frozenset({
    "administrator", "admin", "user", "users", "owner", "author", "unknown", "anonymous", "guest", "default",
    "microsoft office user", "microsoft office 用户", "windows user", "windows 用户", "office user", "word user",
    "python-docx", "python docx", "docx4j", "apache poi", "libreoffice", "openoffice", "openoffice.org", "wps",
    "wps office", "microsoft", "microsoft corporation", "pc", "lenovo", "dell", "hp", "asus", "acer", "china",
    "微软用户", "微软中国", "微软", "用户", "作者", "管理员", "系统管理员", "匿名", "番茄花园", "雨林木风",
    "深度技术", "系统之家", "电脑公司", "联想", "深度", "中国",
})
HEADER_WORDS = frozenset({"path", "file", "filename", "file name", "document", "路径", "文件", "文件名", "文档"})




def split_names(text: str) -> tuple[str, ...]:
    """The names of one field, in order, each once (by :func:`name_key`)."""
    seen: set[str] = set()
    out = []
    for part in _SEPARATORS.split(text or ""):
        name = " ".join(part.split())
        if name and name_key(name) not in seen:
            seen.add(name_key(name))
            out.append(name)
    return tuple(out)


def metadata_names(meta: Mapping | Sequence[str] | None) -> tuple[str, ...]:
    """The applicants a file's own metadata names (a document's ``meta`` or its author field
    already split): its author's names, less those that name nobody."""
    if meta is None:
        return ()
    if isinstance(meta, Mapping):
        names = split_names(str(meta.get("author") or ""))
    else:
        names = tuple(meta)
    return tuple(n for n in names if name_key(n) not in PLACEHOLDER_AUTHORS)


def same_applicant(a: Applicants, b: Applicants) -> bool:
    """True when the two documents share an applicant (any one name)."""
    return a.shares_with(b)


class ApplicantBook:
    """The examiner's names of every file, read once from the index, and a file's applicants."""

    def __init__(self, rows: Iterable[examiner.ApplicantRow], exists: Callable[[str], bool] = os.path.exists) -> None:
        by_path: dict[str, list] = {}
        for path, sha, _position, name, source, set_at in rows:
            by_path.setdefault(path, []).append((sha, name, source, set_at))
        self._by_path = {p: Applicants(tuple(n for _, n, _, _ in entries if n), entries[0][2])
                         for p, entries in by_path.items()}
        # a file moved without the index seeing it (found again after a rebuild): its old path
        # no longer exists, its content is known
        self._by_content: dict[str, tuple[float, Applicants]] = {}
        for p, entries in by_path.items():
            sha, set_at = entries[0][0], entries[0][3]
            if sha and not exists(p) and set_at >= self._by_content.get(sha, (-1.0, NOBODY))[0]:
                self._by_content[sha] = (set_at, self._by_path[p])

    @classmethod
    def load(cls, store: Store) -> "ApplicantBook":
        return cls(examiner.applicant_rows(store))

    def of(self, path: str, sha256: str = "", meta: Mapping | Sequence[str] | None = None) -> Applicants:
        """The applicants of the file at ``path`` with this content and metadata."""
        found = self._by_path.get(path)
        if found is None and sha256:
            found = self._by_content.get(sha256, (0.0, None))[1]
        if found is not None:
            return found
        names = metadata_names(meta)
        return Applicants(names, METADATA) if names else NOBODY

    def named(self, path: str) -> bool:
        """True when the examiner named this file's applicants (or said it has none)."""
        return path in self._by_path


# --- the examiner's CSV ------------------------------------------------------------------------------


class ApplicantsFileError(ValueError):
    """A CSV of applicants that cannot be read at all (missing, not text), in words."""


@dataclass(frozen=True)
class CsvApplicants:
    """A CSV of applicants as read: each file (absolute path) with its names, and one sentence
    for each line that could not be used or names a file that is not there."""

    rows: tuple[tuple[str, tuple[str, ...]], ...]
    problems: tuple[str, ...] = ()


def read_applicants_csv(csv_path: str, folder: str) -> CsvApplicants:
    """Read ``path,applicant`` lines (a header line is allowed; several applicants in one field
    separated by ";", or on lines of their own). A relative path is taken in ``folder`` (the
    collection's or the call's), else beside the CSV. UTF-8 (with or without a byte order mark)
    or GB18030, as Excel saves it in Chinese."""
    try:
        data = Path(csv_path).read_bytes()
    except OSError as exc:
        raise ApplicantsFileError(f"{csv_path}: {exc.strerror or exc}") from exc
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise ApplicantsFileError(f"{csv_path} is not a text file in UTF-8 or GB18030")
    if "\x00" in text:
        raise ApplicantsFileError(f"{csv_path} is not a CSV file (it holds binary data)")
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first and "," not in first else ","
    names: dict[str, list[str]] = {}
    problems: list[str] = []
    beside = os.path.dirname(os.path.abspath(csv_path))
    for number, cells in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), 1):
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if number == 1 and name_key(cells[0]) in HEADER_WORDS:
            continue
        given = split_names(";".join(cells[1:]))
        if not cells[0]:
            problems.append(f"line {number}: no file named")
            continue
        if not given:
            problems.append(f"line {number}: no applicant for {cells[0]}")
            continue
        path = _resolve(cells[0], folder, beside)
        if not os.path.isfile(path):
            problems.append(f"line {number}: {cells[0]} is not a file in {folder} (kept: it applies once it is there)")
        kept = names.setdefault(path, [])
        kept.extend(n for n in given if name_key(n) not in {name_key(k) for k in kept})
    return CsvApplicants(tuple((p, tuple(n)) for p, n in names.items()), tuple(problems))


def _resolve(given: str, folder: str, beside: str) -> str:
    given = given.replace("\\", "/") if os.sep == "/" else given
    if os.path.isabs(given):
        return os.path.normpath(given)
    in_folder = os.path.normpath(os.path.join(folder, given))
    if os.path.exists(in_folder) or not os.path.exists(os.path.join(beside, given)):
        return in_folder
    return os.path.normpath(os.path.join(beside, given))


@dataclass(frozen=True)
class ImportedApplicants:
    files: int  # files the CSV names
    changed: tuple[tuple[str, str], ...]  # of them, those whose applicants changed: (path, sha256)
    problems: tuple[str, ...]


def import_applicants(store: Store, table: CsvApplicants, contents: Mapping[str, str]) -> ImportedApplicants:
    """Keep a CSV's applicants in the index (``store``: the collection's); ``contents``: the
    sha256 of files already read (path → sha256), the others are hashed here when they exist."""
    def sha_of(path: str) -> str:
        if path in contents:
            return contents[path]
        try:
            with open(path, "rb") as fh:
                return hashlib.file_digest(fh, "sha256").hexdigest()
        except OSError:
            return ""

    changed = examiner.set_applicants(store, [(p, sha_of(p), n) for p, n in table.rows], CSV)
    return ImportedApplicants(len(table.rows), tuple(changed), table.problems)


def set_applicants(store: Store, files: Iterable[tuple[str, str]], names: Sequence[str] | None) -> list[tuple[str, str]]:
    """The examiner names the applicants of files (``(path, sha256)`` each); ``names`` empty: they
    have none; None: forget the examiner's word, the file's metadata names them again. Returns
    the files whose applicants changed."""
    files = list(files)
    if names is None:
        gone = set(examiner.forget_applicants(store, [p for p, _ in files]))
        return [(p, sha) for p, sha in files if p in gone]
    return examiner.set_applicants(store, [(p, sha, tuple(names)) for p, sha in files], EXAMINER)


def carry_applicants(store: Store, pairs: Iterable[tuple[str, str]]) -> None:
    """A file copied to a new place (``(from, to)``) is the same applicant's: the examiner's names
    of the original are given to the copy, unless it has its own."""
    rows = {p: (sha, name, source) for p, sha, _, name, source, _ in examiner.applicant_rows(store)}
    book = ApplicantBook(examiner.applicant_rows(store))
    carried = [(dst, rows[src][0], book.of(src).names, rows[src][2]) for src, dst in pairs
               if src in rows and not book.named(dst)]
    for source in (CSV, EXAMINER):
        chosen = [(dst, sha, names) for dst, sha, names, s in carried if s == source]
        if chosen:
            examiner.set_applicants(store, chosen, source)
