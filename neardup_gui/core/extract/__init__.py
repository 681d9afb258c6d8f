"""Extract the plain text of one file: dispatch by format, sniff the content, never crash.

``extract_file`` reads a file's bytes once, records their SHA-256, checks that the file did
not change while it was read, recognises files whose content does not match their name, and
hands the bytes to one module per format. Every outcome is a :class:`Document` with text in
it or a :class:`Skipped` with a specific reason: an empty or unreadable file never becomes an
empty document that would match every other empty document.

This runs in the calling process; ``neardup_gui.core.workers`` runs it in killable children.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import stat as stat_mod
import zlib

from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.extract.common import (
    ExtractError,
    build_document,
    describe_content,
    sniff,
    zip_document_format,
)
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)

# The parsers' own log lines ("Data-loss while decompressing corrupted data", "Cannot render
# horizontal string because /b'Td' is not a valid int…") name no file, and what they meet is said
# per document in our words (a warning, or the reason it was skipped): on the console of
# `neardup index` they were dozens of unexplained lines for a folder of damaged files (found by
# benchmarks/stress/fuzz.py). Quiet unless asked for (`-v`: :func:`quiet_parsers`).
PARSER_LOGGERS = ("pdfminer", "olefile", "charset_normalizer")


def quiet_parsers(quiet: bool = True) -> None:
    """Show only the parsers' errors (``quiet``), or every line the log level lets through — in
    this process and the worker processes it starts (they import this module afresh)."""
    for name in PARSER_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR if quiet else logging.NOTSET)
    if quiet:
        os.environ.pop(_PARSER_LOGS_ENV, None)
    else:
        os.environ[_PARSER_LOGS_ENV] = "1"


_PARSER_LOGS_ENV = "NEARDUP_PARSER_LOGS"
quiet_parsers(os.environ.get(_PARSER_LOGS_ENV) != "1")  # (every process that reads files imports this module)

# Suffix → format name (``.doc``: Word 97-2003, read from its piece table; a Word 6/95 one is
# reported with its reason). Kingsoft WPS Writer's ``.wps`` (and its template ``.wpt``) is Word's
# binary format, or a .docx when so saved: read as ``.doc`` is, its content deciding. Word's
# templates and macro-enabled documents hold their text as .doc and .docx do.
FORMATS: dict[str, str] = {
    ".txt": "txt",
    ".md": "txt",
    ".docx": "docx",
    ".docm": "docx",
    ".dotx": "docx",
    ".dotm": "docx",
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".odt": "odt",
    ".rtf": "rtf",
    ".doc": "doc",
    ".dot": "doc",
    ".wps": "doc",
    ".wpt": "doc",
}
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(FORMATS)
# A file whose name gives no type (see :func:`content_decides`): its content decides, as a
# renamed .doc's does (text, PDF, RTF, HTML, Word .docx or OpenDocument text).
AUTO = "auto"
# The suffixes of the formats whose text is read, as messages and file dialogs name them: the
# common ones first, then the variants ("*.docx *.doc *.wps …" in a dialog).
_COMMON_FIRST = (".docx", ".doc", ".wps", ".pdf", ".txt", ".odt", ".rtf", ".md", ".html")
# A file of one of these compressed by gzip (``ls.1.gz`` as /usr/share/man holds manual pages,
# ``changelog.Debian.gz``, ``proposal.pdf.gz``) is read as the file it holds (:func:`gzip_inner`).
GZIP_SUFFIX = ".gz"
READ_SUFFIXES: tuple[str, ...] = (_COMMON_FIRST + tuple(sorted(set(FORMATS) - set(_COMMON_FIRST)))
                                  + (GZIP_SUFFIX,))
DIALOG_PATTERNS: str = " ".join(f"*{suffix}" for suffix in READ_SUFFIXES)

# The version of each format's reader, kept in every document's meta ("reader"; absent: 1). A
# format whose reading changed (what the same file gives: other paragraphs, other units) gets the
# next number, and documents an earlier reader read are read again at the next indexing
# (indexer._read_again): the figures of an index never mix two readings of one format.
# txt 2: manual pages' sources read as `man` shows them (extract/roff.py), words a formatter
# broke at line ends (U+2010) mended; pdf 2: those words, and gaps bridged by drawn spaces not
# cells; pdf 3: a page in a monospaced font read row by row. Every format's next version (txt 3,
# pdf 4, the others 2): zero-width spaces and byte order marks kept in the text (they were made
# white space), and for docx and odt the spans of text the reader cannot see (Document.hidden).
# pdf 5: a PDF's hidden text marked (Document.hidden), an intact file read by PDFium. odt 3: the
# title and author of meta.xml (the author names the applicant when the examiner has not).
READER_VERSIONS: dict[str, int] = {"txt": 3, "pdf": 5, "docx": 2, "odt": 3, "html": 2, "rtf": 2, "doc": 2}


def reader_version(fmt: str) -> int:
    """The version of this program's reader of a format (1 for a format never changed since)."""
    return READER_VERSIONS.get(fmt, 1)


# What each format's content must look like (see ``common.sniff``).
_EXPECTED_KIND = {
    "pdf": {"pdf"},
    "docx": {"zip"},
    "odt": {"zip"},
    "rtf": {"rtf"},
    "doc": {"ole"},
}

__all__ = [
    "FORMATS",
    "READER_VERSIONS",
    "reader_version",
    "SUPPORTED_SUFFIXES",
    "READ_SUFFIXES",
    "DIALOG_PATTERNS",
    "AUTO",
    "OTHER_SUFFIXES",
    "content_decides",
    "gzip_inner",
    "gunzip",
    "GZIP_SUFFIX",
    "format_by_content",
    "extract_file",
    "extract_bytes",
    "format_of",
    "os_failure",
    "read_snapshot",
    "too_large_reason",
    "unsupported",
]


def gzip_inner(path: str) -> str | None:
    """The name of the file a ``.gz`` holds (``ls.1`` for ``ls.1.gz``), when it is one neardup
    may read: its own suffix a format read or no type (a ``.tar.gz``, ``.csv.gz`` is not)."""
    if not path.lower().endswith(GZIP_SUFFIX) or len(os.path.basename(path)) <= len(GZIP_SUFFIX):
        return None
    inner = path[:-len(GZIP_SUFFIX)]
    suffix = os.path.splitext(inner)[1].lower()
    return inner if suffix in FORMATS or _no_type(suffix) else None


def format_of(path: str) -> str | None:
    """The format name for a path's suffix; :data:`AUTO` when the name gives no type
    (:func:`content_decides`); None when the suffix is a type neardup does not read. A ``.gz``
    has the format of the file it holds (:func:`gzip_inner`)."""
    inner = gzip_inner(path)
    if inner is not None:
        return format_of(inner)
    suffix = os.path.splitext(path)[1]
    fmt = FORMATS.get(suffix.lower())
    if fmt is None and _no_type(suffix):
        return AUTO
    return fmt


def content_decides(path: str) -> bool:
    """True for a file name that gives no type, so its content decides: no suffix
    (``copyright``, ``README``), or one that is not a file type's (``ls.1``, a man page;
    ``python3.11`` and ``python3-lazr.uri``, packages' copyright files named after them;
    ``zlib.copyright``). The suffix of a format neardup does not read (:data:`OTHER_SUFFIXES`:
    ``.xlsx``, ``.png``, ``.csv``, ``.zip``…) is taken at its word, without reading the file."""
    return _no_type(os.path.splitext(path)[1])


def _no_type(suffix: str) -> bool:
    return suffix.lower() not in OTHER_SUFFIXES


# The suffixes of formats that are not documents neardup reads, common beside submissions:
# spreadsheets and data, slides, images, sound and video, archives, programs, databases, code,
# mail. A file so named is one of the folder's other files, named but not read.
OTHER_SUFFIXES: frozenset[str] = frozenset(
    ".xls .xlsx .xlsm .xlsb .ods .csv .tsv .numbers .json .xml .yaml .yml .toml .ini .cfg .sql "
    ".ppt .pptx .pps .ppsx .odp .key .odg .vsd .vsdx .pub .one .mpp .pages .et .ett .dps .dpt "
    ".png .jpg .jpeg .gif .bmp .tif .tiff .svg .webp .heic .ico .psd .ai .eps .ps .raw .cr2 .nef "
    ".mp3 .wav .flac .aac .ogg .m4a .wma .mp4 .m4v .mov .avi .mkv .wmv .webm .flv "
    ".zip .gz .tgz .bz2 .xz .zst .7z .rar .tar .cab .iso .dmg .img .deb .rpm .apk .msi .jar "
    ".exe .dll .so .dylib .bin .o .a .class .pyc .sys .com .bat .cmd .ps1 .sh "
    ".db .sqlite .sqlite3 .mdb .accdb .ndx .wal .shm .lock .tmp .bak .swp .log "
    ".py .js .ts .c .h .cpp .hpp .java .cs .go .rs .rb .php .pl .r .m .css .scss .ipynb "
    ".eml .msg .pst .ics .vcf .epub .mobi .djvu .xps .oxps .chm .lnk .url .desktop .torrent "
    ".ttf .otf .woff .woff2 .dat .bib .ris .enl .tex .sty .cls .bst".split())


def format_by_content(kind: str, data: bytes | None = None, path: str | None = None) -> str | None:
    """The format a file of no type is read as, from its sniffed ``kind`` (:func:`common.sniff`),
    or None when it is not a document neardup reads. A zip archive is a Word .docx or an
    OpenDocument text by its members (``data``: the whole file, or ``path`` to read them)."""
    if kind == "zip":
        return zip_document_format(data, path)
    return _FORMAT_BY_KIND.get(kind)


_FORMAT_BY_KIND = {"text": "txt", "pdf": "pdf", "rtf": "rtf", "html": "html"}


# archives among OTHER_SUFFIXES: files of submissions are often sent in one
ARCHIVE_SUFFIXES = frozenset(".zip .rar .7z .tar .gz .tgz .bz2 .xz .zst .cab".split())


def unsupported(path: str) -> Skipped:
    """The reason for a file whose suffix is not a supported format; an archive (submissions
    often arrive zipped) says what to do with it."""
    suffix = os.path.splitext(path)[1]
    if suffix.lower() in ARCHIVE_SUFFIXES:
        return Skipped(path, "archive", f"an archive ({suffix}): unpack it and check the documents inside")
    return Skipped(path, "unsupported", f"unsupported file type {suffix!r}")



def too_large_reason(size: int, limits: ExtractLimits) -> str:
    return f"file is {size / 1048576:.1f} MB, over the {limits.size_limit_mb} MB limit"


def os_failure(path: str, exc: OSError) -> Skipped:
    """The reason for a file that could not be stat'ed or read."""
    if isinstance(exc, FileNotFoundError):
        return Skipped(path, "vanished", "file no longer exists")
    if isinstance(exc, PermissionError):
        return Skipped(path, "unreadable", "file cannot be read: permission denied")
    return Skipped(path, "unreadable", f"file cannot be read: {exc.strerror or exc}")


def read_snapshot(path: str, limits: ExtractLimits) -> tuple[bytes, os.stat_result] | Skipped:
    """Read a file's bytes once, refusing files over the size cap before reading them.

    Returns the bytes and the ``stat`` taken before reading, or the reason the file cannot be
    used. The caller compares that ``stat`` with one taken afterwards (see ``extract_file``).
    """
    try:
        before = os.stat(path)
    except OSError as exc:
        return os_failure(path, exc)
    if not stat_mod.S_ISREG(before.st_mode):
        return Skipped(path, "unsupported", "not a regular file")
    cap = limits.size_limit_mb * 1024 * 1024
    if before.st_size > cap:
        return Skipped(path, "too-large", too_large_reason(before.st_size, limits))
    try:
        with open(path, "rb") as handle:
            # One byte past the size seen (at most past the cap) so a file that grew is caught
            # too; never ``read(cap + 1)``, which reserves the whole cap at once (200 MB by
            # default: a MemoryError for a 28-byte file in a worker with a lower memory cap).
            data = handle.read(min(cap, before.st_size) + 1)
    except OSError as exc:
        return os_failure(path, exc)
    if len(data) > cap:
        return Skipped(path, "too-large", f"file is over the {limits.size_limit_mb} MB limit")
    return data, before


def extract_file(path: str, limits: ExtractLimits = ExtractLimits()) -> Document | Skipped:
    """Extract one file in this process: a Document with text, or the reason it was skipped."""
    fmt = format_of(path)
    if fmt is None:
        return unsupported(path)
    snapshot = read_snapshot(path, limits)
    if isinstance(snapshot, Skipped):
        return snapshot
    data, before = snapshot
    try:
        after = os.stat(path)
    except FileNotFoundError:
        return Skipped(path, "vanished", "file was deleted while it was read")
    except OSError as exc:
        return Skipped(path, "unreadable", f"file cannot be read: {exc.strerror or exc}")
    if (
        after.st_size != before.st_size
        or after.st_mtime_ns != before.st_mtime_ns
        or after.st_ino != before.st_ino
        or len(data) != before.st_size
    ):
        return Skipped(path, "changed", "file changed while it was read; try again")
    meta = {
        "sha256": hashlib.sha256(data).hexdigest(),
        "size": str(len(data)),
        "mtime_ns": str(before.st_mtime_ns),
    }
    return extract_bytes(path, fmt, data, limits, meta)


def extract_bytes(
    path: str, fmt: str, data: bytes, limits: ExtractLimits, meta: dict[str, str]
) -> Document | Skipped:
    """Extract already-read bytes of the given format (``meta`` is copied into the result)."""
    if not data:
        return Skipped(path, "empty", "empty file (0 bytes)")
    kind = sniff(data)
    if kind == "gzip" and gzip_inner(path) is not None and "compressed" not in meta:
        # (once: what a gzip file holds is read for what it is, even a gzip file again)
        unpacked = gunzip(path, data, limits)
        if isinstance(unpacked, Skipped):
            return unpacked
        data, warning = unpacked
        if not data:
            return Skipped(path, "empty", "empty file (0 bytes once decompressed)")
        result = extract_bytes(path, fmt, data, limits, {**meta, "compressed": "gzip"})
        if warning and isinstance(result, Document):
            result = dataclasses.replace(result, warnings=(warning, *result.warnings))
        return result
    if fmt == AUTO:
        fmt = format_by_content(kind, data)
        if fmt is None:
            return Skipped(path, "unsupported", f"not a document: the file holds {describe_content(kind)}")
    if fmt == "doc" and kind in ("rtf", "zip", "html", "text"):
        # RTF, docx, HTML or plain text renamed .doc (as some systems export them), a .wps saved
        # by WPS as a .docx, are extracted for what they are; a real Word 97-2003 file is an OLE
        # file (extract/doc.py).
        fmt = (zip_document_format(data) or "docx") if kind == "zip" else _FORMAT_BY_KIND[kind]
    expected = _EXPECTED_KIND.get(fmt)
    if expected is not None and kind not in expected:
        if fmt == "docx" and kind == "ole":
            # Office stores a password-protected .docx as an OLE compound file.
            return Skipped(path, "encrypted", "encrypted Word document: remove the password")
        if fmt == "odt" and kind == "ole":
            return Skipped(path, "wrong-format", "file is an OLE (legacy Office) file, not an .odt")
        if kind == "blank":
            return Skipped(path, "empty", "file holds only white space")
        if kind in ("binary", "text"):
            # Not another known format: a damaged file (a truncated download, a broken copy).
            return Skipped(path, "corrupt", f"damaged {_FORMAT_NOUNS[fmt]}: the file holds {describe_content(kind)}")
        return Skipped(
            path,
            "wrong-format",
            f"file is {describe_content(kind)}, not {_FORMAT_NAMES[fmt]}",
        )
    if fmt in ("txt", "html") and kind in _BINARY_KINDS:
        return Skipped(
            path,
            "binary" if kind == "binary" else "wrong-format",
            f"file is {describe_content(kind)}, not text",
        )
    try:
        result = _dispatch(path, fmt, data, limits)
    except ExtractError as exc:
        return Skipped(path, exc.code, exc.reason)
    except MemoryError:
        raise
    except RecursionError:
        return Skipped(path, "corrupt", f"damaged {_FORMAT_NOUNS[fmt]}: structure nests too deeply")
    except Exception as exc:  # noqa: BLE001 — a damaged file must never stop a run
        log.info("extraction of %s failed: %r", path, exc)
        return Skipped(path, "corrupt", f"damaged {_FORMAT_NOUNS[fmt]}: {_short(exc)}")
    return build_document(path, fmt, result, {**meta, **result.meta, "reader": str(reader_version(fmt))})


def gunzip(path: str, data: bytes, limits: ExtractLimits) -> tuple[bytes, str] | Skipped:
    """The bytes a gzip file holds (every member of it), and a warning when it is damaged and
    what came before the damage is kept; too much once decompressed (over
    ``limits.max_unzipped_mb``: a gzip bomb), or nothing readable, is the reason it is skipped."""
    cap = limits.max_unzipped_mb * 1024 * 1024
    out: list[bytes] = []
    size = 0
    rest = data
    warning = ""
    while rest:
        member = rest
        pieces, rest, ended, error = _inflate(member, cap - size, 1 << 20)
        if error is not None:
            # zlib gives nothing of a call that meets the damage: the member again in small
            # steps, to keep what comes before it
            pieces, rest, ended, _ = _inflate(member, cap - size, 256)
        got = sum(map(len, pieces))
        out.extend(pieces)
        size += got
        if size > cap:
            return Skipped(path, "too-large", f"over {limits.max_unzipped_mb} MB once decompressed (a gzip bomb?)")
        if error is not None or not ended:
            if not size:
                return Skipped(path, "corrupt", f"damaged gzip file: {error or 'cut short before any text'}")
            what = (f"is damaged after {size} bytes ({error})" if error is not None
                    else f"is cut short after {size} bytes")
            warning = f"recovered from a damaged file: the compressed data {what}; the text after it is lost"
            break
        if sniff(rest[:2]) != "gzip":
            break  # (trailing bytes after the last member: ignored, as gzip does)
    return b"".join(out), warning


def _inflate(data: bytes, room: int, step: int) -> tuple[list[bytes], bytes, bool, zlib.error | None]:
    """One gzip member from the start of ``data``, fed ``step`` bytes at a time: (the pieces
    decompressed, what follows the member, whether it ended, the error that stopped it). No more
    than ``room`` + 1 bytes come out (the caller says "too large" past ``room``)."""
    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
    pieces: list[bytes] = []
    got = 0
    rest = data
    try:
        while rest:
            chunk, rest = rest[:step], rest[step:]
            piece = unpack.decompress(chunk, room + 1 - got)
            pieces.append(piece)
            got += len(piece)
            if got > room:
                break
            if unpack.eof:
                return pieces, unpack.unused_data + rest, True, None
            rest = unpack.unconsumed_tail + rest
    except zlib.error as exc:
        return pieces, b"", False, exc
    return pieces, b"", unpack.eof, None


_FORMAT_NAMES = {
    "txt": "a text file",
    "docx": "a Word .docx document",
    "pdf": "a PDF",
    "html": "an HTML page",
    "odt": "an OpenDocument text",
    "rtf": "an RTF document",
    "doc": "a Word .doc document",
}
_FORMAT_NOUNS = {
    "txt": "text file",
    "docx": "Word document",
    "pdf": "PDF",
    "html": "HTML page",
    "odt": "OpenDocument text",
    "rtf": "RTF document",
    "doc": "Word document",
}
_BINARY_KINDS = {"binary", "jpeg", "png", "gif", "zip", "ole", "pdf", "gzip"}


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]


def _dispatch(path: str, fmt: str, data: bytes, limits: ExtractLimits):
    # Format modules are imported on use: a text-only run never loads pdfminer.
    if fmt == "txt":
        from neardup_gui.core.extract import text

        return text.extract(data)
    if fmt == "docx":
        from neardup_gui.core.extract import docx

        return docx.extract(data, limits)
    if fmt == "pdf":
        from neardup_gui.core.extract import pdf

        return pdf.extract(data, limits)
    if fmt == "html":
        from neardup_gui.core.extract import html

        return html.extract(data)
    if fmt == "odt":
        from neardup_gui.core.extract import odt

        return odt.extract(data, limits)
    if fmt == "rtf":
        from neardup_gui.core.extract import rtf

        return rtf.extract(data)
    if fmt == "doc":
        from neardup_gui.core.extract import doc

        return doc.extract(data)
    raise ExtractError("unsupported", f"unsupported format {fmt!r}")
