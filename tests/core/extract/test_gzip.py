"""Files compressed by gzip are read as the file they hold: manual pages as /usr/share/man holds
them (``ls.1.gz``), a Debian ``changelog.Debian.gz``, a ``proposal.pdf.gz``.

Before, every ``.gz`` was one of the folder's "other files": a folder of real manual pages (all
``.gz``) gave an empty collection. An archive (``.tar.gz``) or compressed data (``.csv.gz``)
still is; a damaged one keeps what comes before the damage, with a warning; a gzip bomb is
refused by the limit that guards .docx files.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.cli import EXIT_OK, main
from neardup_gui.core.collection import Collection
from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.extract import extract_bytes, extract_file, gunzip
from neardup_gui.core.settings import ExtractLimits
from neardup_gui.core.settings import Settings as NeardupSettings

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "resources" / "sample"
_roff_spec = importlib.util.spec_from_file_location("roff_pages", Path(__file__).with_name("test_roff.py"))
_roff = importlib.util.module_from_spec(_roff_spec)
_roff_spec.loader.exec_module(_roff)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ledger.1.gz").write_bytes(gzip.compress(_roff.LEDGER_1.encode("utf-8")))
    pdf = (SAMPLE / "en-02-shoreline-retreat.pdf").read_bytes()
    shutil.copy(SAMPLE / "en-02-shoreline-retreat.pdf", folder / "proposal.pdf")
    (folder / "proposal-2023.pdf.gz").write_bytes(gzip.compress(pdf))
    notes = (SAMPLE / "en-05-dementia-speech.txt").read_bytes()
    # two gzip members, as `gzip -c a >> b` makes them
    (folder / "changelog.Debian.gz").write_bytes(gzip.compress(notes[:2000]) + gzip.compress(notes[2000:]))
    (folder / "cut.txt.gz").write_bytes(gzip.compress(notes)[:700])  # a download cut short
    (folder / "plain.txt.gz").write_bytes(notes)  # named .gz, never compressed
    (folder / "site.tar.gz").write_bytes(gzip.compress(b"an archive of many files"))
    (folder / "table.csv.gz").write_bytes(gzip.compress(b"a,b\n1,2\n"))
    return folder


def test_a_gz_is_read_as_the_file_it_holds(tmp_path):
    folder = _folder(tmp_path)
    man = extract_file(str(folder / "ledger.1.gz"))
    assert isinstance(man, Document) and man.format == "txt" and man.meta["compressed"] == "gzip"
    assert [man.text[s:e] for s, e in man.paragraphs] == _roff.LEDGER_1_TEXT  # (a man page's source)
    pdf, plain = extract_file(str(folder / "proposal-2023.pdf.gz")), extract_file(str(folder / "proposal.pdf"))
    assert isinstance(pdf, Document) and pdf.format == "pdf" and pdf.text == plain.text
    changelog = extract_file(str(folder / "changelog.Debian.gz"))
    notes = extract_file(str(SAMPLE / "en-05-dementia-speech.txt"))
    assert isinstance(changelog, Document) and changelog.text == notes.text  # (both members)
    cut = extract_file(str(folder / "cut.txt.gz"))
    assert isinstance(cut, Document) and cut.text and notes.text.startswith(cut.text.rsplit(" ", 1)[0])
    assert cut.warnings[0].startswith("recovered from a damaged file: the compressed data is cut short after")
    assert extract_file(str(folder / "plain.txt.gz")).text == notes.text  # read for what it is
    assert extract_file(str(folder / "site.tar.gz")).code == "archive"  # ("unpack it and check …")


def test_a_gzip_bomb_is_refused_by_the_decompressed_limit(tmp_path):
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"word " * 600_000))  # 3 MB of text in 9 KB
    refused = extract_file(str(bomb), ExtractLimits(max_unzipped_mb=2))
    assert isinstance(refused, Skipped) and refused.code == "too-large"
    assert refused.reason == "over 2 MB once decompressed (a gzip bomb?)"
    assert isinstance(extract_file(str(bomb)), Document)  # (under the default limit)
    (tmp_path / "noise.txt.gz").write_bytes(b"\x1f\x8b" + bytes(range(256)) * 4)
    damaged = extract_file(str(tmp_path / "noise.txt.gz"))
    assert isinstance(damaged, Skipped) and damaged.code == "corrupt" and damaged.reason.startswith("damaged gzip file")


def test_a_folder_of_gz_files_is_indexed_and_paired(tmp_path, capsys):
    folder = _folder(tmp_path)
    settings = NeardupSettings(threshold=0.9)
    with Collection.open(str(tmp_path / "docs.ndx")) as coll:
        report = coll.index_folder(str(folder), settings)
        indexed = sorted(Path(d.path).name for d in coll.documents() if d.status == "indexed")
        pairs = {frozenset((Path(p.a.path).name, Path(p.b.path).name)): p.similarity for p in coll.pairs(settings)}
    assert indexed == ["changelog.Debian.gz", "cut.txt.gz", "ledger.1.gz", "plain.txt.gz", "proposal-2023.pdf.gz",
                       "proposal.pdf"]
    assert sorted(Path(p).name for p in report.others) == ["site.tar.gz", "table.csv.gz"]
    assert [Path(p).name for p, _ in report.warned] == ["cut.txt.gz"]
    assert pairs[frozenset(("proposal.pdf", "proposal-2023.pdf.gz"))] == 1.0
    assert pairs[frozenset(("changelog.Debian.gz", "plain.txt.gz"))] == 1.0
    capsys.readouterr()
    assert main(["extract", str(folder / "ledger.1.gz"), "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)[0]["format"] == "txt"


@given(st.integers(0, 10_000), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4),
       st.integers(0, 3))
@settings(max_examples=150, deadline=None)
def test_a_damaged_gz_never_fails_and_keeps_what_survives(cut, flips, doubled):
    """A real manual page (its source, gzip-compressed) cut short, with bytes flipped or a run of
    it written twice: a Document (with a warning when damaged) or a clear reason, never an error;
    what is kept of a page only cut is the start of the page."""
    data = bytearray(gzip.compress(_roff.LEDGER_1.encode("utf-8") * 3))
    original = bytes(data)
    for at, value in flips:
        if at < len(data):
            data[at] = value
    if doubled:
        start = cut % len(data)
        data[start:start] = data[start:start + 40 * doubled]
    data = bytes(data[:max(cut, 2)])
    result = extract_bytes("page.1.gz", "auto", data, ExtractLimits(), {})
    assert isinstance(result, (Document, Skipped))
    if isinstance(result, Skipped):
        assert result.reason
    elif not flips and not doubled and data != original:
        assert result.warnings and result.warnings[0].startswith("recovered from a damaged file")
        kept, _ = gunzip("page.1.gz", data, ExtractLimits())
        assert (_roff.LEDGER_1 * 3).encode("utf-8").startswith(kept) and kept  # what came before the cut


def test_a_gzip_file_holding_a_gzip_file_is_decompressed_once(tmp_path):
    """(A gzip "quine" decompresses to itself: unpacking until no gzip is left would not end.)"""
    inner = gzip.compress(b"the text")
    (tmp_path / "twice.txt.gz").write_bytes(gzip.compress(inner))
    twice = extract_file(str(tmp_path / "twice.txt.gz"))
    assert isinstance(twice, Skipped) and twice.reason == "file is a gzip archive, not text"


def test_a_byte_damaged_in_the_middle_keeps_the_text_before_it(tmp_path):
    """zlib returns nothing of a call that meets the damage: fed the whole file at once, a real
    page with one byte damaged in its middle was skipped as damaged (a drill on 150 real pages as
    `.gz`, each cut, with bytes changed and with a run written twice: 585 of the 900 skipped, now
    62); now what comes before the damage is read, with a warning."""
    source = Path("/usr/share/man/man1/ls.1.gz")
    page = source.read_bytes() if source.is_file() else gzip.compress((_roff.LEDGER_1 * 20).encode("utf-8"))
    whole = gzip.decompress(page)
    damaged = bytearray(page)
    damaged[len(page) // 2] ^= 0xFF
    kept, warning = gunzip("ls.1.gz", bytes(damaged), ExtractLimits())
    assert warning.startswith("recovered from a damaged file: the compressed data is damaged after")
    # (deflate cannot see the damage where it is: what follows it, up to where it is found, may
    # be garbled, and is said to be so by the warning)
    same = next((i for i, (a, b) in enumerate(zip(kept, whole)) if a != b), min(len(kept), len(whole)))
    assert same > len(whole) // 4
    (tmp_path / "ls.1.gz").write_bytes(bytes(damaged))
    doc = extract_file(str(tmp_path / "ls.1.gz"))
    assert isinstance(doc, Document) and doc.warnings[0] == warning
