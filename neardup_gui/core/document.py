"""The records that extraction produces: an extracted document or the reason it was skipped."""

from __future__ import annotations

from dataclasses import dataclass, field

# A half-open character range ``[start, end)`` into a document's extracted ``text``.
CharSpan = tuple[int, int]


@dataclass(frozen=True)
class Document:
    """The plain text of one file, as every later step sees it.

    ``text`` is the body: paragraphs in reading order separated by a single ``"\\n"``.
    ``paragraphs`` are the character spans of those paragraphs in ``text``.
    ``furniture`` are spans of ``text`` recognised as page furniture (running headers, footers,
    page numbers of a PDF); they stay in the text so offsets hold, and are treated as template.
    ``hidden`` are spans of ``text`` its reader cannot see (a hidden attribute, text coloured as
    its background, text under 2 points; a PDF's invisible text, off its page or clipped); they
    stay in the text so offsets hold, and are left out of every comparison.
    ``margins`` holds text kept apart from the body (docx headers and footers), not compared.
    ``meta`` carries format details: ``encoding`` for text files, ``pages`` for PDFs, ``title``,
    ``author`` where the file says so.
    ``warnings`` say what was read only in part or leniently (invalid bytes replaced, a damaged
    file salvaged): such a document is "indexed with warnings", never silently partial.
    """

    path: str
    format: str
    text: str
    paragraphs: tuple[CharSpan, ...] = ()
    furniture: tuple[CharSpan, ...] = ()
    hidden: tuple[CharSpan, ...] = ()
    margins: str = ""
    meta: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Skipped:
    """A file that could not be used, with a reason an examiner can read.

    ``code`` is stable and machine-readable (``scanned-pdf``, ``encrypted``, ``legacy-doc``,
    ``empty``, ``corrupt``, ``timeout``, ``memory``, ``too-large``, ``unsupported``, ``archive``,
    ``unreadable``, ``binary``, ``no-text``, ``zip-bomb``, ``changed``, ``vanished``,
    ``wrong-format`` (content of another type than the name says), ``unsafe-xml`` (a DTD or
    entity declaration in a docx/odt), ``crash``; from scanning: ``link-loop``, ``broken-link``,
    ``duplicate-link``, ``bad-name`` (a name that is not valid UTF-8));
    ``reason`` is the sentence shown to the user, e.g. ``"scanned PDF: no text layer"``.
    """

    path: str
    code: str
    reason: str
