"""The index build's fast paths give exactly what the plain definitions give.

Each reference below is the code the index build ran before it was made fast (one Python step
per character, paragraph, unit or sentence); the product's result must equal it, on random text
(control characters, CJK, combining marks, compatibility forms, Greek capital sigma, the
characters of sentence ends) and on the real text of the development corpus.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sqlite3
import unicodedata

import mmh3
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from benchmarks.acceptance.same_index import index_rows
from neardup_gui.core import units as U
from neardup_gui.core.extract.common import (
    LINE_HYPHEN,
    Extracted,
    build_document,
    clean_paragraph,
    clean_paragraphs,
    looks_binary,
    resolve_line_hyphens,
)
from neardup_gui.core.extract.text import _CharWidths, _display_width, split_paragraphs
from neardup_gui.core.fingerprints import _anchor_kgram_hashes, anchors, fingerprint, sentence_hashes, window_minima
from neardup_gui.core.indexer import identical_files, index_folder, prepare, prepare_document
from neardup_gui.core.scan import scan_folder
from neardup_gui.core.settings import ExtractLimits, FingerprintParams, Settings
from neardup_gui.core.store import Store
from neardup_gui.core.workers import extract_and_prepare
from neardup_gui.core.templates import MIN_SENTENCE_UNITS, SENTENCE_KEY_SEED, sentence_keys

PARAMS = FingerprintParams()

# Text that exercises every fast path: controls, special spaces, CJK, combining marks,
# compatibility forms (NFKC changes them), Σ (lower-cased by its neighbours), sentence ends.
_SPECIAL = (
    "\x00\x01\x08\t\n\x0b\x0c\r\x1c\x1f\x7f\x85\x9f \u00a0\u1680\u2000\u200b\u2028\u2029\u202f\u205f\u3000\ufeff"
    "中文字々〇かカ한ㄱ가ｱＡＢ１２ﬁ²ǅﷺΣσςΑΒ̈́e\u0301İß_-。，！？；!?;.…”’\"'」』）)]\ufdd0\ufdd1abcXYZ09"
)
_TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(_SPECIAL)), max_size=300)
_DENSE = st.text(alphabet=st.sampled_from(_SPECIAL), max_size=120)


def corpus_files():
    from tests.corpus import corpus_dir

    files = sorted(corpus_dir().glob("*/*.txt"))
    return files[:: max(1, len(files) // 30)]


# --- extraction --------------------------------------------------------------------------------

_REF_SPACE_RE = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200a\u3000\u202f\u205f]+")


def clean_paragraph_reference(text: str) -> str:
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text):
        text = "".join(c if c == "\t" or not (ord(c) < 32 or 0x7F <= ord(c) < 0xA0) else " " for c in text)
    return _REF_SPACE_RE.sub(" ", text).strip()


@given(_TEXT)
def test_clean_paragraph_equals_the_character_loop(text):
    assert clean_paragraph(text) == clean_paragraph_reference(text)


@given(st.lists(st.one_of(_TEXT, _DENSE), max_size=8))
def test_clean_paragraphs_equals_one_at_a_time(paragraphs):
    assert clean_paragraphs(paragraphs) == [clean_paragraph_reference(p) for p in paragraphs]


def test_clean_paragraphs_ascii_and_the_join_character():
    paragraphs = ["  a\tb \x0bc\r\n d  ", "", "\x1f", "x\ufdd1y", "e\x7f f"]
    assert clean_paragraphs(paragraphs) == [clean_paragraph_reference(p) for p in paragraphs]
    ascii_only = ["  a\tb \x0bc\r\n d  ", "\x1c\x1d x \x1e", "plain words"]
    assert clean_paragraphs(ascii_only) == [clean_paragraph_reference(p) for p in ascii_only]


def build_document_reference(result: Extracted):
    parts, spans, furniture, offset = [], [], [], 0
    for index, raw in enumerate(result.paragraphs):
        para = clean_paragraph_reference(raw)
        if not para:
            continue
        if parts:
            offset += 1
        spans.append((offset, offset + len(para)))
        if index in result.furniture:
            furniture.append((offset, offset + len(para)))
        parts.append(para)
        offset += len(para)
    margins = "\n".join(p for p in (clean_paragraph_reference(m) for m in result.margins) if p)
    return "\n".join(parts), tuple(spans), tuple(furniture), margins


@given(st.lists(_TEXT, max_size=10), st.sets(st.integers(0, 9)), st.lists(_DENSE, max_size=3))
def test_build_document_equals_the_paragraph_loop(paragraphs, furniture, margins):
    result = Extracted(paragraphs=paragraphs, furniture=furniture, margins=margins)
    doc = build_document("x.txt", "txt", result, {})
    text, spans, furn, marg = build_document_reference(result)
    if hasattr(doc, "text"):
        assert (doc.text, doc.paragraphs, doc.furniture, doc.margins) == (text, spans, furn, marg)
    else:  # skipped: no letter or digit outside the furniture
        assert not any(c.isalnum() for s, e in spans if (s, e) not in set(furn) for c in text[s:e])


def _display_width_reference(line: str) -> int:
    return sum(2 if "\u1100" <= c and unicodedata.east_asian_width(c) in "WF" else 1 for c in line.rstrip())


@given(_TEXT)
def test_display_width_equals_the_character_loop(line):
    assert _display_width(line, _CharWidths()) == _display_width_reference(line)


def _terminal_width_reference(line: str) -> int:
    """Columns on a terminal: wide characters two, a tab to the next multiple of 8 (`col -b`
    writes runs of spaces as tabs)."""
    column = 0
    for c in line.rstrip():
        column += 8 - column % 8 if c == "\t" else 2 if "\u1100" <= c and unicodedata.east_asian_width(c) in "WF" else 1
    return column


_REF_LIST_ITEM_RE = re.compile(r"^\s*(?:[-*+•·]|\d{1,3}[.)、]|[a-zA-Z][.)]|[（(]?[一二三四五六七八九十\d]+[)）、])\s")
_REF_BLANK_LINES_RE = re.compile(r"\n[ \t\u3000]*\n")


def split_paragraphs_reference(text: str) -> list[str]:
    from neardup_gui.core.extract.common import join_wrapped

    def hard_wrapped(lines):
        if any(_REF_LIST_ITEM_RE.match(line) for line in lines[1:]):
            return False
        widths = [_terminal_width_reference(line) for line in lines]
        widest = max(widths)
        if widest < 40 or not all(w >= 0.7 * widest for w in widths[:-1]):
            return False
        ends = sum(1 for line in lines[:-1] if line.rstrip()[-1:] in set("。！？；.!?;:：”’\""))
        return ends * 2 < len(lines) - 1

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    out = []
    for block in _REF_BLANK_LINES_RE.split(text):
        lines = [line for line in block.split("\n") if line.strip()]
        out.extend([join_wrapped(lines)] if len(lines) > 1 and hard_wrapped(lines) else lines)
    return resolve_line_hyphens_reference(out)


def resolve_line_hyphens_reference(paragraphs: list[str]) -> list[str]:
    if not any(LINE_HYPHEN in p for p in paragraphs):
        return paragraphs
    pieces = re.compile(rf"\w*{LINE_HYPHEN}\w*")
    words = {w.lower() for p in paragraphs for w in re.findall(r"\w+", pieces.sub(" ", p))}

    def settle(m):
        head, tail = m.group(1), m.group(2)
        return head + tail if (head + tail).lower() in words else f"{head}-{tail}"

    hyphen = re.compile(rf"(\w+){LINE_HYPHEN}(\w+)")
    return [hyphen.sub(settle, p).replace(LINE_HYPHEN, "-") if LINE_HYPHEN in p else p for p in paragraphs]


_LINE = st.text(alphabet=st.sampled_from("abcdefghij ABC 中文字ｱ。.-1)•\t"), min_size=0, max_size=70)


@given(st.lists(st.one_of(_LINE, st.just(""), st.just("1) item"), st.just("x" * 60)), max_size=12))
def test_split_paragraphs_equals_the_line_loop(lines):
    text = "\n".join(lines)
    assert split_paragraphs(text) == split_paragraphs_reference(text)


@given(st.lists(st.text(alphabet=st.sampled_from(f"docuMENT İß-{LINE_HYPHEN} \u0307"), max_size=20), max_size=6))
def test_resolve_line_hyphens_equals_the_paragraph_loop(paragraphs):
    assert resolve_line_hyphens(paragraphs) == resolve_line_hyphens_reference(paragraphs)


@given(st.binary(max_size=400))
def test_looks_binary_equals_the_byte_loop(sample):
    def overstrike(i: int) -> bool:  # a man page's N\bN: a backspace between two bytes that are not controls
        return sample[i] == 8 and 0 < i < len(sample) - 1 and sample[i - 1] >= 32 and sample[i + 1] >= 32

    controls = sum(1 for i, b in enumerate(sample) if b < 32 and b not in (9, 10, 12, 13, 27) and not overstrike(i))
    if sample and not sample.count(0):
        assert looks_binary(sample) == (controls > 0.05 * len(sample))


def test_split_paragraphs_on_real_text():
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        assert split_paragraphs(text) == split_paragraphs_reference(text)


# --- units and sentences ------------------------------------------------------------------------


def test_white_space_table_is_str_isspace():
    assert [c for c in range(0x110000) if chr(c).isspace()] == sorted(U._WHITE_SPACE)


@given(st.one_of(_TEXT, _DENSE))
@settings(max_examples=300)
def test_sentence_ends_equal_the_regex(text):
    assert U.sentence_ends(U.text_codes(text)).tolist() == [m.end() for m in U._SENTENCE_END_RE.finditer(text)]


def test_sentence_ends_on_every_short_string():
    """Every string of up to five of the characters that decide a match (runs of full stops
    of each length against three, closers, white space, the end of the text)."""
    import itertools

    for n in range(6):
        for chars in itertools.product(". a!)…\n", repeat=n):
            text = "".join(chars)
            assert U.sentence_ends(U.text_codes(text)).tolist() == [m.end() for m in U._SENTENCE_END_RE.finditer(text)], text


def sentences_reference(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for end in [m.end() for m in U._SENTENCE_END_RE.finditer(text)] + [len(text)]:
        piece = text[pos:end]
        stripped = piece.strip()
        if stripped:
            start = pos + len(piece) - len(piece.lstrip())
            spans.append((start, start + len(stripped)))
        pos = end
    return spans


@given(st.one_of(_TEXT, _DENSE))
def test_sentences_equal_the_piece_loop(text):
    assert U.sentences(text) == sentences_reference(text)
    assert U.tokenize(text).sentence_spans == sentences_reference(text)  # (cached on the units)


def tokenize_reference(text):
    spans = [m.span() for m in U.unit_pattern().finditer(text)]
    tokens = tuple(U.normalise_token(text[a:b]) for a, b in spans)
    return tokens, [U.unit_id(t) for t in tokens], [a for a, _ in spans], [b for _, b in spans]


@given(st.one_of(_TEXT, _DENSE, st.text(alphabet=st.sampled_from("ab Ａé.\n"), max_size=50)))
def test_tokenize_paths_equal_the_plain_definition(text):
    # (ASCII text, text without CJK and text with CJK take three different paths)
    u = U.tokenize(text)
    tokens, ids, starts, ends = tokenize_reference(text)
    assert (u.tokens, u.ids.tolist(), u.starts.tolist(), u.ends.tolist()) == (tokens, ids, starts, ends)
    assert u.spaced() == "".join(text[a:b] + " " for a, b in zip(starts, ends))
    assert U.unit_strings(text, u.starts, u.ends) == [text[a:b] for a, b in zip(starts, ends)]


# --- fingerprints and sentence keys ---------------------------------------------------------------


def sentence_keys_reference(text):
    units = U.tokenize(text)
    spans = sentences_reference(text)
    if len(units) == 0 or not spans:
        return []
    tokens = [U.normalise_token(text[a:b]) for a, b in zip(units.starts.tolist(), units.ends.tolist())]
    bounds = np.array(spans, dtype=np.int64)
    lo = np.searchsorted(units.starts, bounds[:, 0]).tolist()
    hi = np.searchsorted(units.starts, bounds[:, 1]).tolist()
    return [(span, mmh3.hash64("\x1f".join(tokens[a:b]), SENTENCE_KEY_SEED, signed=True)[0])
            for span, a, b in zip(spans, lo, hi) if b - a >= MIN_SENTENCE_UNITS]


def sentence_hashes_reference(text):
    from neardup_gui.core.fingerprints import _P_SENTENCE, _derived_seed

    units = U.tokenize(text)
    spans = sentences_reference(text)
    if not spans or len(units) == 0:
        return []
    bounds = np.array(spans, dtype=np.int64)
    lo = np.searchsorted(units.starts, bounds[:, 0]).tolist()
    hi = np.searchsorted(units.starts, bounds[:, 1]).tolist()
    ids = np.ascontiguousarray(units.ids, dtype="<u8")
    seed = _derived_seed(PARAMS.seed, _P_SENTENCE) & 0xFFFFFFFF
    return sorted({mmh3.hash64(ids[a:b].tobytes(), seed, signed=False)[0] for a, b in zip(lo, hi) if b > a})


def anchors_reference(unit_ids):
    if len(unit_ids) < PARAMS.anchor_kgram:
        return []
    h = _anchor_kgram_hashes(unit_ids, PARAMS)
    w = min(PARAMS.anchor_window, len(h))
    windows = np.lib.stride_tricks.sliding_window_view(h, w)
    pick = (w - 1) - np.argmin(windows[:, ::-1], axis=1)
    return sorted(set(h[np.arange(len(windows)) + pick].tolist()))


_WORDS = st.text(alphabet=st.sampled_from("ab ΣΑσ ﬁ Ａ İ中文 ǅ ﷺ .。\n"), max_size=200)


@given(st.one_of(_TEXT, _DENSE, _WORDS))
def test_sentence_keys_and_hashes_equal_the_sentence_loops(text):
    assert sentence_keys(text) == sentence_keys_reference(text)
    assert sentence_hashes(text, PARAMS).tolist() == sentence_hashes_reference(text)


def test_sentence_keys_where_normalising_changes_the_units():
    for text in ("ΟΔΟΣ ΣΑ ΣΟΦΟΣ ΑΣ ΒΣ. ΣΑΣ ΑΣ Σ Σ.", "ﬁrst ﬂow ＡＢＣ ǅ full width here.", "İstanbul İzmir Ankara Bursa Straße.",
                 "ﷺ ﷺ ﷺ ﷺ salutation here.", "中文句子测试一下。English words here too ok."):
        assert sentence_keys(text) == sentence_keys_reference(text)


@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=200), st.integers(1, 60))
def test_window_minima_are_the_minima(values, w):
    values = np.array(values, dtype=np.uint64)
    w = min(w, len(values))
    expected = [int(values[i:i + w].min()) for i in range(len(values) - w + 1)]
    assert window_minima(values, w).tolist() == expected


@given(st.lists(st.integers(0, 50), max_size=400))
def test_anchors_equal_the_argmin_windows(ids):
    ids = np.array(ids, dtype=np.uint64)  # few distinct values: many equal minima
    assert anchors(ids, PARAMS).tolist() == anchors_reference(ids)


def prepare_reference(text):
    """Every stored fingerprint and search row from the reference implementations above (simhash,
    minhash and LSH keys are unchanged code: taken from ``fingerprint``)."""
    units = U.tokenize(text)
    fp = fingerprint(text, units, PARAMS)
    return {
        "units": tokenize_reference(text)[1],
        "anchors": anchors_reference(units.ids),
        "sentence_hashes": sentence_hashes_reference(text),
        "keys": [k for _, k in sentence_keys_reference(text)],
        "minhash": fp.minhash_bits.tolist(),
        "simhash": fp.simhash,
    }


def test_prepare_equals_the_reference_on_real_text():
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        prep = prepare(text, PARAMS)
        ref = prepare_reference(text)
        assert prep.units == len(ref["units"])
        assert prep.anchors.tolist() == ref["anchors"]
        assert prep.sentence_hashes.tolist() == ref["keys"]
        assert prep.minhash.tolist() == ref["minhash"] and prep.simhash == ref["simhash"]
        assert sentence_hashes(text, PARAMS).tolist() == ref["sentence_hashes"]


# --- the writer and identical files -------------------------------------------------------------


def _rows(db: str) -> dict[str, list]:
    conn = sqlite3.connect(db)
    rel = dict(conn.execute("SELECT id, rel FROM documents"))
    out = {}
    for table, col in (("lsh_keys", "key"), ("anchors", "hash"), ("sentence_fps", "fp"), ("sentences", "hash")):
        out[table] = sorted((rel[d], k) for d, k in conn.execute(f"SELECT doc_id, {col} FROM {table}"))
    out["sentence_df"] = sorted(conn.execute("SELECT hash, docs FROM sentence_df"))
    out["fingerprints"] = sorted((rel[r[0]], *r[1:]) for r in conn.execute(
        "SELECT doc_id, simhash, minhash, lsh, sentence_fps, anchors FROM fingerprints"))
    out["texts"] = sorted((rel[r[0]], *r[1:]) for r in conn.execute("SELECT doc_id, body, paragraphs FROM texts"))
    out["documents"] = sorted(conn.execute("SELECT rel, size, mtime_ns, sha256, status, code, meta FROM documents"))
    conn.close()
    return out


@pytest.fixture
def collection(tmp_path):
    """Real files: corpus sections, three identical copies of one (.txt and .md), an empty file
    twice and a damaged .docx twice (both skipped, each with its own path)."""
    root = tmp_path / "docs"
    root.mkdir()
    files = corpus_files()[:8]
    for f in files:
        (root / f"{f.parent.name}-{f.name}").write_bytes(f.read_bytes())
    twin = files[0].read_bytes()
    (root / "copy-1.txt").write_bytes(twin)
    (root / "copy-2.md").write_bytes(twin)
    os.utime(root / "copy-2.md", ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    (root / "empty-a.txt").write_bytes(b"")
    (root / "empty-b.txt").write_bytes(b"")
    (root / "bad-a.docx").write_bytes(b"PK\x03\x04 not really a zip archive" * 10)
    (root / "bad-b.docx").write_bytes(b"PK\x03\x04 not really a zip archive" * 10)
    return root


def test_identical_files_are_grouped_by_bytes_and_format(collection):
    entries = list(scan_folder(str(collection)).files)
    extract, copies = identical_files(entries, ExtractLimits())
    groups = sorted(sorted(os.path.basename(p) for p in [rep, *(e.path for e in members)])
                    for rep, members in copies.items())
    first = corpus_files()[0]
    assert groups == [["bad-a.docx", "bad-b.docx"], sorted(["copy-1.txt", "copy-2.md", f"{first.parent.name}-{first.name}"])]
    assert len(extract) == len(entries) - 3  # (empty files are not read: nothing to share)


def test_index_with_identical_files_equals_each_file_indexed_alone(collection, tmp_path):
    """Identical files are extracted once; the index holds exactly what indexing every file on its
    own gives (here: one folder per file), each copy with its own path and modification time,
    also in a new process reading the index (sqlite3 here)."""
    settings = Settings(workers=2)
    together = str(tmp_path / "together.db")
    with Store(together) as store:
        report = index_folder(store, str(collection), settings)
    assert report.added == 14 and len(report.skipped) == 4
    skips = sorted((os.path.basename(s.path), s.code) for s in report.skipped)
    assert [name for name, _ in skips] == ["bad-a.docx", "bad-b.docx", "empty-a.txt", "empty-b.txt"]
    assert skips[0][1] == skips[1][1] and skips[2][1] == skips[3][1] == "empty"

    alone = str(tmp_path / "alone.db")
    with Store(alone) as store:
        for path in sorted(collection.iterdir()):
            single = tmp_path / "single" / path.name
            single.parent.mkdir(exist_ok=True)
            for old in single.parent.iterdir():
                old.unlink()
            single.write_bytes(path.read_bytes())
            os.utime(single, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns))
            # index each file alone in its own folder, then give it the collection's name
            with Store(str(tmp_path / f"tmp-{path.name}.db")) as one:
                index_folder(one, str(single.parent), settings)
            _copy_documents(str(tmp_path / f"tmp-{path.name}.db"), store)
    a, b = _rows(together), _rows(alone)
    for table in a:
        assert a[table] == b[table], table
    mtimes = {rel: m for rel, _, m, *_ in a["documents"]}
    assert mtimes["copy-2.md"] == 1_600_000_000_000_000_000 != mtimes["copy-1.txt"]


def _copy_documents(source: str, store: Store) -> None:
    """Append the documents of one small index to another (ids renumbered), sentence_df summed."""
    src = sqlite3.connect(source)
    with store.transaction() as conn:
        for row in src.execute("SELECT id, rel, path, size, mtime_ns, sha256, status, code, reason, format, units, meta,"
                               " indexed_at, warnings FROM documents"):
            new = conn.execute("INSERT INTO documents (rel, path, size, mtime_ns, sha256, status, code, reason, format,"
                               " units, meta, indexed_at, warnings) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", row[1:]).lastrowid
            for table, cols in (("texts", "body, paragraphs, furniture, margins"),
                                ("fingerprints", "params, simhash, minhash, lsh, sentence_fps, anchors")):
                for r in src.execute(f"SELECT {cols} FROM {table} WHERE doc_id = ?", (row[0],)):
                    conn.execute(f"INSERT INTO {table} (doc_id, {cols}) VALUES (?, {','.join('?' * len(r))})", (new, *r))
            for table, col in (("lsh_keys", "key"), ("anchors", "hash"), ("sentence_fps", "fp"), ("sentences", "hash")):
                conn.executemany(f"INSERT INTO {table} ({col}, doc_id) VALUES (?, ?)",
                                 [(k, new) for (k,) in src.execute(f"SELECT {col} FROM {table} WHERE doc_id = ?", (row[0],))])
        for h, n in src.execute("SELECT hash, docs FROM sentence_df"):
            conn.execute("INSERT INTO sentence_df (hash, docs) VALUES (?, ?) ON CONFLICT (hash) DO UPDATE SET "
                         "docs = docs + excluded.docs", (h, n))
    src.close()


def test_search_rows_without_json_each_are_the_same(tmp_path):
    """The writer's two ways of inserting search rows (json_each, or row by row where SQLite
    lacks it) and of counting sentences (per document or per commit group) store the same."""
    texts = [p.read_text(encoding="utf-8") for p in corpus_files()[:6]]
    texts += texts[:2]  # (the same sentences in several documents)
    results = []
    for json_each in (True, False):
        db = str(tmp_path / f"rows-{json_each}.db")
        with Store(db) as store:
            store._json_each = json_each
            from neardup_gui.core.store import SentenceCounts

            counts = SentenceCounts()
            with store.transaction() as conn:
                for i, text in enumerate(texts):
                    prep = prepare(text, PARAMS)
                    doc_id = store.write_document(conn, rel=f"d{i}", path=f"/d{i}", size=1, mtime_ns=1, sha256="",
                                                  status="indexed")
                    store.write_fingerprints(conn, doc_id, params_json="{}", simhash=prep.simhash,
                                             minhash_words=prep.minhash, lsh_keys=prep.lsh_keys,
                                             sentence_fps=prep.sentence_fps, anchors=prep.anchors,
                                             sentence_hashes=prep.sentence_hashes,
                                             sentence_counts=counts if json_each else None)
                store.count_sentences(conn, counts)
        results.append(_rows(db))
    assert results[0] == results[1]
    assert results[0]["sentence_df"] and max(n for _, n in results[0]["sentence_df"]) >= 2


def test_prepare_document_carries_the_stored_forms():
    from neardup_gui.core.extract import extract_file
    from neardup_gui.core.store import compress_text, pack_spans, search_rows

    path = str(corpus_files()[1])
    doc = extract_file(path)
    light = prepare_document(doc, PARAMS)
    prep = light.prepared
    assert prep.body == compress_text(doc.text) and prep.packed_paragraphs == pack_spans(doc.paragraphs)
    # the document goes back to the writer without its text (it travels compressed) and is
    # otherwise the extracted one
    assert (light.document.text, light.document.paragraphs) == ("", ())
    assert light.document == dataclasses.replace(doc, text="", paragraphs=()) and light.document.meta == doc.meta
    assert extract_and_prepare(path, ExtractLimits(), (prepare_document, PARAMS))[0] == light.document
    rows = search_rows(prep.lsh_keys, prep.anchors, prep.sentence_fps, prep.sentence_hashes)
    assert (prep.rows.anchors, prep.rows.sentences) == (rows.anchors, rows.sentences)
    assert sorted(set(prep.sentence_hashes.tolist())) == prep.rows.sentence_keys.tolist()


def _search_rows_plainly(*arrays):
    """store.search_rows by its json.dumps path (the compiled module set aside)."""
    from neardup_gui.core.store import records

    kept, records._compiled = records._compiled, None
    try:
        return records.search_rows(*arrays)
    finally:
        records._compiled = kept


def _same_rows(got, want) -> None:
    for name in ("lsh_keys", "anchors", "sentence_fps", "sentences", "grams"):
        assert getattr(got, name) == getattr(want, name), name
    assert got.sentence_keys.dtype == want.sentence_keys.dtype
    assert np.array_equal(got.sentence_keys, want.sentence_keys)


@pytest.mark.skipif(U._compiled_units is None, reason="the compiled module is not built here")
def test_search_rows_in_c_are_the_json_of_the_python_path():
    """The search rows' JSON made in C (core/_units.c: json_keys) is the text json.dumps makes:
    on random keys (repeated, zeros, the extremes of both signed and unsigned 64 bits, none) and
    on real documents' fingerprints."""
    from neardup_gui.core.store import search_rows

    rng = np.random.default_rng(7)
    extremes = np.array([0, 1, 2**63 - 1, 2**63, 2**64 - 1, 10, 9, 99, 100], dtype=np.uint64)
    for n in (0, 1, 2, 3, 17, 200):
        def draw():
            picked = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
            if n:
                picked[rng.integers(0, n, size=n // 2)] = extremes[rng.integers(0, len(extremes), size=n // 2)]
                picked[rng.integers(0, n, size=n // 3)] = picked[0]  # (repeated values)
            return picked

        arrays = (draw(), draw(), draw(), draw().view(np.int64), draw())
        _same_rows(search_rows(*arrays), _search_rows_plainly(*arrays))
        _same_rows(search_rows(*arrays[:4]), _search_rows_plainly(*arrays[:4]))  # (no grams)
    for path in corpus_files()[:8]:
        text = path.read_text(encoding="utf-8")
        prep = prepare(text, PARAMS)
        arrays = (prep.lsh_keys, prep.anchors, prep.sentence_fps, prep.sentence_hashes, prep.grams)
        _same_rows(search_rows(*arrays), _search_rows_plainly(*arrays))
    # another dtype than uint64 (a caller's int64 keys) takes the Python path
    keys = np.array([-5, 3, -5], dtype=np.int64)
    _same_rows(search_rows(keys, keys, keys, keys), _search_rows_plainly(keys, keys, keys, keys))


def test_a_prepared_document_crosses_the_pipe_whole():
    """What an extraction worker sends back (its arrays pickled as bytes,
    arrays.reduce_with_flat_arrays) is read back equal, field by field, with the arrays' dtypes."""
    import pickle

    from multiprocessing.reduction import ForkingPickler

    from neardup_gui.core.extract import extract_file

    for path in corpus_files()[:3]:
        light = prepare_document(extract_file(str(path)), PARAMS)
        back = pickle.loads(ForkingPickler.dumps((light.document, light.prepared)))
        assert back[0] == light.document
        for field in dataclasses.fields(light.prepared):
            got, want = getattr(back[1], field.name), getattr(light.prepared, field.name)
            if isinstance(want, np.ndarray):
                assert got.dtype == want.dtype and np.array_equal(got, want), field.name
            elif field.name == "rows":
                _same_rows(got, want)
            else:
                assert got == want, field.name


def _index_plainly(db: str, folder: str, params: FingerprintParams) -> None:
    """The index as the plain path writes it: each file extracted here, in name order, one
    transaction per document, every earlier row of its id cleared, nothing shared or sent ahead."""
    from neardup_gui.core.document import Skipped
    from neardup_gui.core.extract import extract_file
    from neardup_gui.core.indexer import params_key, write_skipped

    with Store(db) as store:
        store.set_meta("folder", os.path.abspath(folder))
        for entry in sorted(scan_folder(folder).files, key=lambda e: e.rel):
            doc = extract_file(entry.path)
            if isinstance(doc, Skipped):
                write_skipped(store, entry, doc)
                continue
            prep = prepare(doc.text, params)
            with store.transaction() as conn:
                doc_id = store.write_document(
                    conn, rel=entry.rel, path=entry.path, size=entry.size, mtime_ns=entry.mtime_ns,
                    sha256=doc.meta.get("sha256", ""), status="indexed", fmt=doc.format, units=prep.units,
                    meta={k: v for k, v in doc.meta.items() if k != "sha256"}, warnings=doc.warnings)
                store.write_text(conn, doc_id, doc.text, doc.paragraphs, doc.furniture, doc.margins)
                store.write_fingerprints(
                    conn, doc_id, params_json=params_key(params), simhash=prep.simhash, minhash_words=prep.minhash,
                    lsh_keys=prep.lsh_keys, sentence_fps=prep.sentence_fps, anchors=prep.anchors,
                    sentence_hashes=prep.sentence_hashes, bag=prep.bag, grams=prep.grams)
        store.set_meta("params", params_key(params))
        store.set_meta("left_out", '{"others": [], "unread": []}')  # (this folder leaves nothing out)


def test_index_build_writes_what_the_plain_path_writes(tmp_path):
    """The index build's shortcuts (children fed by a thread while the index is written, a file
    sent ahead to each child, documents sent back without their text, commit groups, a new
    document's rows not cleared, identical files extracted once) store exactly what extracting
    and writing each file on its own stores: every table, row for row, on real Chinese and
    English text with byte copies and a light edit; read back in a new connection."""
    root = tmp_path / "docs"
    root.mkdir()
    every = corpus_files()
    files = [f for f in every if "zh" not in f.parent.name][:7] + [f for f in every if "zh" in f.parent.name][:7]
    assert len(files) == 14  # (both languages)
    for f in files:
        (root / f"{f.parent.name}-{f.name}").write_bytes(f.read_bytes())
    for i, f in enumerate(files[:3]):
        (root / f"copy-{i}.txt").write_bytes(f.read_bytes())
    words = files[4].read_text(encoding="utf-8").split(" ")
    (root / "edited.txt").write_text(" ".join(words[:50] + words[51:]), encoding="utf-8")
    (root / "empty.txt").write_bytes(b"")

    built = str(tmp_path / "built.db")
    with Store(built) as store:
        report = index_folder(store, str(root), Settings(workers=2))
    assert report.added == len(files) + 5 and len(report.skipped) == 1
    plain = str(tmp_path / "plain.db")
    _index_plainly(plain, str(root), Settings().fingerprints)
    a, b = index_rows(built, decompress=False), index_rows(plain, decompress=False)
    assert sorted(a) == sorted(b)
    for table in a:
        assert a[table] == b[table], table
    assert len(a["documents"]) == len(files) + 5 and len(a["sentences"]) > 400 and a["sentence_df"]
    assert len(a["bags"]) == len(files) + 4  # every indexed document's bag of units (not the skipped one)


# --- the per-file paths made cheaper for issue 16 -----------------------------------------------
# (each against the definitions above, on the inputs that take the new paths: Latin-1 text, NUL
# in a paragraph, long runs of white space, long texts with a few compatibility characters)

_LATIN1 = st.text(alphabet=st.one_of(st.characters(max_codepoint=0xFF), st.sampled_from("\x00\x85\xa0ª²µßÀÞ×÷ ")),
                  max_size=200)


@given(st.lists(st.one_of(_LATIN1, _TEXT), max_size=8))
def test_clean_paragraphs_latin1_and_wide_paths_equal_one_at_a_time(paragraphs):
    # (Latin-1 paragraphs take the bytes path; a NUL in one takes the other join character)
    assert clean_paragraphs(paragraphs) == [clean_paragraph_reference(p) for p in paragraphs]


def test_clean_paragraphs_with_a_nul_and_the_other_join_character():
    for paragraphs in (["a\x00b  c", "d\xa0\xa0e"], ["a\x00b", "x\ufdd1y", " z "], ["é  \x85 f", "\u3000g\u2028"]):
        assert clean_paragraphs(paragraphs) == [clean_paragraph_reference(p) for p in paragraphs]


_HYPHEN_TEXT = st.text(alphabet=st.sampled_from(f"docuMENT İΣσς_1é-{LINE_HYPHEN} \u0307\n"), max_size=30)


@given(st.lists(_HYPHEN_TEXT, max_size=6))
def test_resolve_line_hyphens_looks_words_up_as_listing_them_did(paragraphs):
    assert resolve_line_hyphens(paragraphs) == resolve_line_hyphens_reference(paragraphs)


def test_resolve_line_hyphens_finds_a_word_only_whole():
    cases = (["docu" + LINE_HYPHEN + "ment", "the documents"],  # only inside a longer word: kept
             ["docu" + LINE_HYPHEN + "ment", "a DOCUMENT."],  # elsewhere in capitals: joined
             ["docu" + LINE_HYPHEN + "ment", "_document"],  # "_" is a word character
             ["ΟΔΟ" + LINE_HYPHEN + "Σ", "οδος ΟΔΟΣ"])  # Σ: the words listed
    for paragraphs in cases:
        assert resolve_line_hyphens(paragraphs) == resolve_line_hyphens_reference(paragraphs)


_SPACED = st.lists(st.one_of(st.sampled_from([" " * 40, "\n" * 20, "\u3000" * 18, " \t\n" * 7]), _DENSE), max_size=8)


@given(_SPACED)
def test_sentences_with_long_white_space_equal_the_piece_loop(pieces):
    # (white space beyond the vectorised steps is trimmed by str.strip)
    text = "".join(pieces)
    assert U.sentences(text) == sentences_reference(text)
    assert U.sentence_ends(U.text_codes(text)).tolist() == [m.end() for m in U._SENTENCE_END_RE.finditer(text)]


@given(st.one_of(_LATIN1, st.text(alphabet=st.sampled_from("aé Ｅ.\n²ß"), max_size=60)))
def test_latin1_text_as_bytes_gives_the_plain_units_and_sentences(text):
    codes = U.text_codes(text)
    assert codes.tolist() == [ord(c) for c in text]
    assert codes.dtype == (np.uint8 if all(ord(c) < 256 for c in text) else np.uint32)
    u = U.tokenize(text)
    _, ids, starts, ends = tokenize_reference(text)
    assert (u.ids.tolist(), u.starts.tolist(), u.ends.tolist()) == (ids, starts, ends)
    assert u.spaced() == "".join(text[a:b] + " " for a, b in zip(starts, ends))
    assert U.sentences(text) == sentences_reference(text)


def test_sentence_keys_of_a_long_text_with_a_few_compatibility_characters():
    """Long enough for many NFKC pieces; the compatibility characters in some of them only."""
    from neardup_gui.core.templates import _NFKC_PIECE, _joined_tokens, sentence_key_array

    words = corpus_files()[0].read_text(encoding="utf-8").split()
    text = " ".join(w if i % 1999 else w + "ﬁ²" for i, w in enumerate(words * 40))
    assert len(text) > 5 * _NFKC_PIECE and not unicodedata.is_normalized("NFKC", text)
    units = U.tokenize(text)
    joined, lengths = _joined_tokens(units)
    assert joined == "".join(t + "\x1f" for t in units.tokens)
    assert lengths.tolist() == [len(t) for t in units.tokens]
    assert sentence_keys(text) == sentence_keys_reference(text)
    assert sentence_key_array(text, units).tolist() == [k for _, k in sentence_keys_reference(text)]


def test_extraction_of_real_files_equals_the_plain_definitions(tmp_path):
    """Real files through extract_file (what an index build's children run) against the plain
    definitions: corpus sections, and the same text made Latin-1 (names with accents, ©, no-break
    spaces), given CRLF line ends, and hard-wrapped with hyphens at line ends."""
    from neardup_gui.core.extract import extract_file
    from neardup_gui.core.extract.text import decode

    every = corpus_files()
    sources = [f for f in every if "zh" not in f.parent.name][:3] + [f for f in every if "zh" in f.parent.name][:2]
    texts = {f"{f.parent.name}-{f.name}": f.read_text(encoding="utf-8") for f in sources}
    english = texts[f"{sources[0].parent.name}-{sources[0].name}"]
    latin1 = english.encode("latin-1", "replace").decode("latin-1")  # (quotation marks beyond it: "?")
    texts["latin1.txt"] = texts["latin1-utf8.txt"] = latin1.replace("the ", "thé ").replace(". ", ".\xa0 © Müller\t\x0b ")
    texts["crlf.txt"] = english.replace("\n", "\r\n")
    words = english.split()
    lines, line = [], ""
    for w in words:  # wrapped at 60 columns, a hyphen at some line ends
        if len(line) + len(w) > 58:
            cut = len(w) // 2 if len(w) > 6 else 0
            lines.append(f"{line} {w[:cut]}-" if cut else line)
            line = w[cut:] if cut else w
        else:
            line = f"{line} {w}".strip()
    texts["wrapped.txt"] = "\n".join(lines + [line])
    for name, text in texts.items():
        (tmp_path / name).write_bytes(text.encode("latin-1" if name == "latin1.txt" else "utf-8"))
    for name in texts:
        doc = extract_file(str(tmp_path / name), ExtractLimits())
        if name == "wrapped.txt":  # (the wrapped lines were joined: the hyphens were settled)
            assert len(doc.paragraphs) < len(lines) / 4
        if name.startswith("latin1"):  # (the one-byte paths)
            assert U.text_codes(doc.text).dtype == np.uint8 and "é" in doc.text
        decoded = decode((tmp_path / name).read_bytes()).text
        want = build_document_reference(Extracted(paragraphs=split_paragraphs_reference(decoded)))
        assert (doc.text, doc.paragraphs) == want[:2], name
        prep, ref = prepare(doc.text, PARAMS), prepare_reference(doc.text)
        assert prep.units == len(ref["units"]) and prep.anchors.tolist() == ref["anchors"], name
        assert prep.sentence_hashes.tolist() == ref["keys"], name
        assert sentence_hashes(doc.text, PARAMS).tolist() == ref["sentence_hashes"], name


def test_sentence_keys_of_a_disguised_text_are_the_plain_texts():
    """A disguised copy (look-alike letters, format characters inside words, traditional
    characters) joins its folded tokens as its units normalise them, and keys its sentences as
    the plain text's."""
    from neardup_gui.core.templates import _joined_tokens

    plain = "The copied page, word for word. 复制的内容后来发现。It stays the same sentence here."
    disguised = "Thе соpiеd pa\u00adge, wo\u200brd for word. 複製的內容後來發現。It stаys the sa\u2060me sentence here."
    units = U.tokenize(disguised)
    joined, lengths = _joined_tokens(units)
    assert joined == "".join(t + "\x1f" for t in units.tokens)
    assert lengths.tolist() == [len(t) for t in units.tokens]
    assert [k for _, k in sentence_keys(disguised)] == [k for _, k in sentence_keys(plain)]


@given(_TEXT)
def test_a_cleaned_paragraph_knows_where_each_character_was(text):
    """(what places a paragraph's hidden spans in the document's text)"""
    from neardup_gui.core.extract.common import _cleaned_with_places

    cleaned, at = _cleaned_with_places(text)
    assert cleaned == clean_paragraph(text)
    assert len(at) == len(cleaned) and at == sorted(set(at))
    assert all(c == text[i] for c, i in zip(cleaned, at) if c != " ")
