"""Walk a folder for documents: supported files with size and mtime, and every problem met.

Hidden files and folders, Office lock files (``~$x.docx``) and the system's own files (``Thumbs.db``,
``desktop.ini``, ``__MACOSX``) are ignored; symbolic links are
followed, but a link loop, a broken link or a folder that cannot be read becomes a
:class:`Skipped` with its reason rather than an error. Files of other formats are listed apart
(:attr:`ScanResult.others`): not documents, but not passed over in silence either.
"""

from __future__ import annotations

import errno
import fnmatch
import logging
import os
import stat as stat_mod
import zlib
from dataclasses import dataclass

from neardup_gui.core.document import Skipped
from neardup_gui.core.extract import SUPPORTED_SUFFIXES, content_decides, format_by_content, gzip_inner
from neardup_gui.core.extract.common import sniff
from neardup_gui.core.progress import ProgressFn, count_noun, no_progress

log = logging.getLogger(__name__)

__all__ = ["FileEntry", "ScanResult", "SUPPORTED_SUFFIXES", "scan_folder", "is_ignored"]


@dataclass(frozen=True)
class FileEntry:
    """One document found by a scan."""

    path: str  # absolute
    rel: str  # relative to the scanned root, '/'-separated
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class ScanResult:
    """The documents of a folder, sorted by ``rel``, and what could not be listed.

    ``unread``: the folders (and entries) that exist but could not be listed or looked at
    (permission denied, a link loop): whether the documents under them are still there is not
    known, so an index keeps what it holds of them instead of taking them for deleted.
    """

    files: tuple[FileEntry, ...]
    problems: tuple[Skipped, ...]
    unread: tuple[str, ...] = ()
    # the other files (absolute paths, sorted): not of a format neardup reads (``budget.xlsx``,
    # ``photo.jpg``, a program named without a type); left out, but counted and named so that
    # none is left out in silence
    others: tuple[str, ...] = ()


class FolderUnavailable(Exception):
    """A collection's folder cannot be read at all (missing, not a folder, permission denied):
    nothing can be known of its documents, so nothing in the index is changed."""

    def __init__(self, folder: str, reason: str, emptied: int = 0) -> None:
        folder = shown_name(folder)  # (as it can be shown: a name that is not valid UTF-8 is the reason)
        super().__init__(f"{folder}: {reason}; nothing in the index was changed")
        self.folder = folder
        self.reason = reason
        # > 0: the folder can be read but holds no documents now, while the index holds this many
        # (a network share or drive not mounted leaves an empty folder): removing them all is
        # done only when asked for (``allow_empty``)
        self.emptied = emptied


def shown_name(path: str) -> str:
    """``path`` as it can be shown, printed and stored: each name in it that is not valid UTF-8
    (held by Python as lone surrogates) has every byte beyond ASCII written as ``\\xc9``, a lone
    surrogate of a Windows name as ``\\udc00``; a valid path is returned as it is."""
    if is_valid_name(path):
        return path
    return "/".join(part if is_valid_name(part) else _escaped(part) for part in path.split("/"))


def _escaped(name: str) -> str:
    try:
        raw = os.fsencode(name)
    except UnicodeError:  # (a lone surrogate that stands for no byte: a Windows name)
        return "".join(c if not 0xD800 <= ord(c) <= 0xDFFF else f"\\u{ord(c):04x}" for c in name)
    # (every byte beyond ASCII, also those that happen to form a valid character: \xc2\xbc, not ¼)
    return "".join(chr(b) if b < 0x80 else f"\\x{b:02x}" for b in raw)


def is_valid_name(path: str) -> bool:
    """Whether ``path`` is text (valid UTF-8 on disk), as the index, reports and the window need it."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bad_part(path: str) -> str:
    return next((part for part in path.split("/") if not is_valid_name(part)), path)


def gbk_reading(path: str) -> str:
    """What the first name of ``path`` that is not valid UTF-8 reads as in GBK (GB 18030), when it
    decodes so to Chinese characters; "" otherwise."""
    try:
        decoded = os.fsencode(_bad_part(path)).decode("gb18030")
    except (UnicodeError, ValueError):
        return ""
    return decoded if any(ord(c) > 0x2E7F for c in decoded) else ""


class UnkeepableName(ValueError):
    """A file given by its path (to add to a collection) whose name the index cannot keep."""


def name_problem(path: str, what: str = "file") -> str | None:
    """Why a file (``what="file"``), a folder or a path cannot be taken in under its name, or None.

    A name that is not valid UTF-8 (an archive unpacked from a Windows zip keeps its GBK or Big5
    names as bytes) cannot be kept in the index, shown nor written in a report; the reason says
    what the name reads as in GBK when it does (``convmv -f gbk -t utf-8`` renames such names).
    """
    if is_valid_name(path):
        return None
    name = _bad_part(path)
    gbk = gbk_reading(name)
    guess = f" (in GBK: '{gbk}')" if gbk else ""
    if what == "folder":
        return f"folder name not valid UTF-8{guess}: rename the folder (the index cannot keep its documents' names)"
    if what == "path" and name == path.rsplit("/", 1)[-1] and os.path.isfile(path):
        what = "file"
    if what == "path":
        return f"path not valid UTF-8{guess}: rename the folder (the index cannot keep this path)"
    return f"name not valid UTF-8{guess}: rename the file (the index cannot keep this name)"


def folder_problem(root: str) -> str | None:
    """Why ``root`` cannot be scanned as a collection's folder ("no such folder", "not a folder",
    "folder cannot be read: permission denied"), or None when it can be listed."""
    try:
        info = os.stat(root)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return "no such folder"
        return f"folder cannot be read: {_reason(exc)[1]}"
    if not stat_mod.S_ISDIR(info.st_mode):
        return "not a folder"
    bad_name = name_problem(root, "path")
    if bad_name:
        return f"folder cannot be read: {bad_name}"
    try:
        with os.scandir(root):
            pass
    except OSError as exc:
        return f"folder cannot be read: {_reason(exc)[1]}"
    return None


# Files the system writes beside a user's files (Windows' thumbnail caches and folder settings,
# hidden there; a zip made on a Mac holds a __MACOSX folder of "._" resource forks): neither
# documents nor the examiner's "other files".
SYSTEM_FILES = frozenset({"thumbs.db", "ehthumbs.db", "ehthumbs_vista.db", "desktop.ini", "__macosx"})


def is_ignored(name: str) -> bool:
    """Hidden entries, Office lock files (``~$report.docx``) and the system's own files
    (``Thumbs.db``, ``desktop.ini``, ``__MACOSX``) are never documents."""
    return name.startswith(".") or name.startswith("~$") or name.lower() in SYSTEM_FILES


def _is_supported(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in SUPPORTED_SUFFIXES


def _is_document(name: str, path: str) -> bool:
    """A file of a format read, or named without a type and a document by its content; a
    ``.gz`` when the file it holds is one (``ls.1.gz``: by the content it holds)."""
    inner = gzip_inner(name)
    if inner is not None:
        return _is_supported(inner) or _is_document_by_content(path, compressed=True)
    return _is_supported(name) or (content_decides(name) and _is_document_by_content(path))


SNIFFED_BYTES = 8192  # what is read of a file whose name gives no type, to know whether it is a document


def _is_document_by_content(path: str, compressed: bool = False) -> bool:
    """A file whose name gives no type (``copyright``, ``ls.1``) is a document when its first
    bytes are text, a PDF, RTF or HTML, or it is a Word or OpenDocument zip; one that cannot be
    read is listed as a document too, so that extraction says why. ``compressed``: a ``.gz``,
    whose first bytes once decompressed decide (a damaged one is listed, to be said so)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFFED_BYTES)
    except OSError:
        return True
    if compressed and sniff(head) == "gzip":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, SNIFFED_BYTES)
        except zlib.error:
            return True
        if not head:
            return True
        if sniff(head) == "zip":
            return True  # (a zip's members are not in its first bytes: extraction decides)
    return bool(head) and format_by_content(sniff(head), path=path) is not None


def _reason(exc: OSError) -> tuple[str, str]:
    if exc.errno == errno.ELOOP:
        return "link-loop", "symbolic link loop"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "unreadable", "permission denied"
    if exc.errno == errno.ENAMETOOLONG:
        return "unreadable", "path too long for the system"
    return "unreadable", exc.strerror or str(exc)


IGNORE_FILE = ".neardupignore"


def read_ignore_patterns(root: str) -> tuple[str, ...]:
    """Glob patterns of files the examiner keeps out of the collection (``.neardupignore``).

    One pattern a line, matched against the path relative to the folder ('/'-separated) and
    against the bare file name; blank lines and lines starting with ``#`` are ignored.
    """
    try:
        with open(os.path.join(root, IGNORE_FILE), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    return tuple(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


def _ignored_by(rel: str, patterns: tuple[str, ...]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(name, p) for p in patterns)


def scan_folder(root: str, progress: ProgressFn = no_progress) -> ScanResult:
    """List the supported documents under ``root`` (recursively, links followed, loops cut).

    Files matching a pattern of ``root/.neardupignore`` are left out (see
    :func:`read_ignore_patterns`).

    ``progress`` gets the number of folders done over folders seen so far (a fraction that
    only approaches 1 when the walk ends); raising ``Cancelled`` from it stops the scan.
    """
    root = os.path.abspath(root)
    root_stat, refused = _open_root(root)
    if refused is not None:
        return refused
    problems: list[Skipped] = []
    unread: list[str] = []
    ignore = read_ignore_patterns(root)
    seen_dirs: dict[tuple[int, int], str] = {(root_stat.st_dev, root_stat.st_ino): ""}
    found: list[tuple[bool, str, tuple[int, int], FileEntry]] = []
    others: list[str] = []
    stack: list[tuple[str, str]] = [(root, "")]
    done = 0
    while stack:
        folder, rel_folder = stack.pop()
        progress(done / (done + len(stack) + 1), f"scanning {rel_folder or '.'}")
        done += 1
        listing = _list_folder(folder, problems, unread)
        if listing is None:
            continue
        for entry in listing:
            name = entry.name
            if is_ignored(name):
                continue
            rel = f"{rel_folder}/{name}" if rel_folder else name
            if ignore and _ignored_by(rel, ignore):
                continue
            try:
                is_link = entry.is_symlink()
                info = entry.stat(follow_symlinks=True)
            except OSError as exc:
                if exc.errno == errno.ENOENT and is_link:
                    if (_is_supported(name) or _is_supported(gzip_inner(name) or "")
                            or _link_target_is_folderish(entry.path)):
                        problems.append(Skipped(entry.path, "broken-link", "broken symbolic link: its target does not exist"))
                    continue
                code, why = _reason(exc)
                problems.append(Skipped(entry.path, code, f"cannot be read: {why}"))
                unread.append(entry.path)
                continue
            key = (info.st_dev, info.st_ino)
            if not is_valid_name(name):
                # (before: the index build stopped at the first such name, an exception in SQLite)
                if stat_mod.S_ISDIR(info.st_mode) or (stat_mod.S_ISREG(info.st_mode) and _is_document(name, entry.path)):
                    what = "folder" if stat_mod.S_ISDIR(info.st_mode) else "file"
                    problems.append(Skipped(shown_name(entry.path), "bad-name", name_problem(name, what) or ""))
                elif stat_mod.S_ISREG(info.st_mode):
                    others.append(shown_name(entry.path))
                continue
            if stat_mod.S_ISDIR(info.st_mode):
                if key in seen_dirs:
                    if is_link:
                        problems.append(Skipped(
                            entry.path, "link-loop",
                            f"symbolic link loop: leads back to folder '{seen_dirs[key] or '.'}', already scanned",
                        ))
                    continue
                seen_dirs[key] = rel
                stack.append((entry.path, rel))
            elif stat_mod.S_ISREG(info.st_mode):
                if _is_document(name, entry.path):
                    found.append((is_link, rel, key, FileEntry(entry.path, rel, info.st_size, info.st_mtime_ns)))
                else:
                    others.append(entry.path)
    files = _once_each(found, problems)
    progress(1.0, f"found {count_noun(len(files), 'document')}")
    files.sort(key=lambda f: f.rel)
    problems.sort(key=lambda s: s.path)
    return ScanResult(tuple(files), tuple(problems), tuple(unread), tuple(sorted(others)))


def _open_root(root: str) -> tuple[os.stat_result | None, ScanResult | None]:
    """The scanned folder's status, or the answer of a scan that cannot start (the folder is
    missing or unreadable, not a folder, or has a name that cannot be stored)."""
    try:
        root_stat = os.stat(root)
    except OSError as exc:
        code, why = _reason(exc)
        if exc.errno == errno.ENOENT:
            code = "vanished"
        return None, ScanResult((), (Skipped(root, code, f"folder cannot be read: {why}"),), (root,))
    if not stat_mod.S_ISDIR(root_stat.st_mode):
        return None, ScanResult((), (Skipped(root, "unsupported", "not a folder"),), (root,))
    bad_name = name_problem(root, "path")
    if bad_name:
        return None, ScanResult((), (Skipped(shown_name(root), "bad-name", f"folder cannot be read: {bad_name}"),), (root,))
    return root_stat, None


def _list_folder(folder: str, problems: list[Skipped], unread: list[str]) -> list[os.DirEntry] | None:
    """The entries of one folder in the walk's order; None (the folder noted as unread) when it
    cannot be listed."""
    try:
        with os.scandir(folder) as entries:
            # Real entries before links, then by name: the walk is deterministic and a
            # file reached both directly and through a link is listed under its own name.
            return sorted(entries, key=lambda e: (_is_link(e), e.name))
    except OSError as exc:
        code, why = _reason(exc)
        problems.append(Skipped(folder, code, f"folder cannot be read: {why}"))
        unread.append(folder)
        return None


def _once_each(found: list[tuple[bool, str, tuple[int, int], FileEntry]], problems: list[Skipped]) -> list[FileEntry]:
    """The documents found, each file once: one reached several ways (links) is listed once,
    preferably under its real name; an unreadable one is a problem instead."""
    files: list[FileEntry] = []
    seen_files: dict[tuple[int, int], str] = {}
    found.sort(key=lambda item: (item[0], item[1]))
    for _, rel, key, entry in found:
        if key in seen_files:
            problems.append(Skipped(
                entry.path, "duplicate-link", f"same file as '{seen_files[key]}' (a link to it); listed once",
            ))
            continue
        seen_files[key] = rel
        if not os.access(entry.path, os.R_OK):
            problems.append(Skipped(entry.path, "unreadable", "file cannot be read: permission denied"))
            continue
        files.append(entry)
    return files


def _is_link(entry: os.DirEntry) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return True


def _link_target_is_folderish(path: str) -> bool:
    """A broken link whose target name has no suffix may have pointed at a folder of documents."""
    try:
        target = os.readlink(path)
    except OSError:
        return False
    return not os.path.splitext(target)[1]
