"""Helpers of the reliability tests: a real test collection, index snapshots, consistency checks.

The collection is written from the shared corpus (short slices of real Chinese and English
sections as .txt, a few as .docx made with python-docx). A snapshot reads an index file with
plain ``sqlite3`` (not through the code under test) so that the checks are independent of it.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent.parent


def write_collection(corpus: Path, folder: Path, *, txt: int = 280, docx: int = 20, chars: int = 700) -> list[str]:
    """Write ``txt`` text files and ``docx`` Word files of real corpus text; return their rel paths.

    Every file is a slice of one corpus section (at most ``chars`` characters, cut at a line
    end), so the collection is real text but quick to index. A few are light edits of others
    (a line dropped), as in a real collection of resubmissions.
    """
    import docx as python_docx

    sections = sorted((corpus / "debian-reference-en").glob("*.txt")) + sorted((corpus / "debian-reference-zh-cn").glob("*.txt"))
    slices: list[str] = []
    for section in sections:
        text = section.read_text(encoding="utf-8")
        lines = [ln for ln in text.splitlines() if ln.strip()]
        # Two slices per section: its opening and its second half, each cut at a line end.
        for start in (0, len(lines) // 2):
            out: list[str] = []
            for ln in lines[start:]:
                if out and sum(len(x) + 1 for x in out) + len(ln) > chars:
                    break
                out.append(ln)
            if sum(len(x) for x in out) >= 200:
                slices.append("\n".join(out))
    # Interleave English and Chinese so both kinds are spread over the run.
    en = [s for s in slices if not any("\u4e00" <= c <= "\u9fff" for c in s[:200])]
    zh = [s for s in slices if s not in en]
    mixed: list[str] = []
    for i in range(max(len(en), len(zh))):
        mixed.extend(x[i] for x in (en, zh) if i < len(x))
    needed = txt + docx
    assert len(mixed) >= needed, f"the corpus gives only {len(mixed)} slices"
    folder.mkdir(parents=True, exist_ok=True)
    rels: list[str] = []
    for i in range(needed):
        text = mixed[i]
        if i % 10 == 9 and i >= 10:  # a resubmission: an earlier text with its second line dropped
            earlier = mixed[i - 9].splitlines()
            text = "\n".join(earlier[:1] + earlier[2:]) if len(earlier) > 2 else mixed[i - 9] + "\n" + text
        sub = f"batch{i // 50:02d}"
        (folder / sub).mkdir(exist_ok=True)
        if docx and i % (needed // docx) == 0 and i // (needed // docx) < docx:
            rel = f"{sub}/doc{i:03d}.docx"
            document = python_docx.Document()
            for para in text.splitlines():
                document.add_paragraph(para)
            document.save(str(folder / rel))
        else:
            rel = f"{sub}/doc{i:03d}.txt"
            (folder / rel).write_text(text + "\n", encoding="utf-8")
        rels.append(rel)
    return rels


# --- snapshots of an index file ---------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """What an index holds, read with plain sqlite3: per rel, (status, sha256) and fingerprint blobs."""

    documents: dict[str, tuple[str, str]]
    fingerprints: dict[str, tuple]  # rel -> (params, simhash, minhash, lsh, sentence_fps, anchors)
    texts: dict[str, str]


def connect_readonly(db: Path) -> sqlite3.Connection:
    """A plain connection reading one consistent state of the file (a writer may be at work)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30, isolation_level=None)
    conn.execute("BEGIN")  # every query below sees the same snapshot
    return conn


def snapshot(db: Path) -> Snapshot:
    conn = connect_readonly(db)
    try:
        docs = {rel: (status, sha) for rel, status, sha in conn.execute("SELECT rel, status, sha256 FROM documents")}
        fps = {
            row[0]: tuple(row[1:])
            for row in conn.execute(
                "SELECT d.rel, f.params, f.simhash, f.minhash, f.lsh, f.sentence_fps, f.anchors"
                " FROM fingerprints f JOIN documents d ON d.id = f.doc_id")
        }
        texts = {rel: zlib.decompress(body).decode("utf-8")
                 for rel, body in conn.execute("SELECT d.rel, t.body FROM texts t JOIN documents d ON d.id = t.doc_id")}
    finally:
        conn.close()
    return Snapshot(docs, fps, texts)


def _unique_signed(blob: bytes, drop_zero: bool = False) -> set[int]:
    arr = np.frombuffer(blob, dtype="<u8")
    if drop_zero:
        arr = arr[arr != 0]
    return set(np.unique(arr).view(np.int64).tolist())


def consistency_problems(db: Path, sentence_cache: dict[str, set[int]] | None = None) -> list[str]:
    """Every way the index breaks "each document fully indexed or absent"; empty when sound.

    An indexed document needs its text, its fingerprints and exactly the search rows its
    fingerprint blobs (and its text's sentences) call for; a skipped one has none of them; no
    row belongs to a document that is not there. ``sentence_cache`` keeps the sentence keys of
    texts already seen (a kill loop checks the same texts many times).
    """
    from neardup_gui.core.templates import sentence_keys

    problems: list[str] = []
    conn = connect_readonly(db)
    try:
        rows = {d[0]: d for d in conn.execute("SELECT id, rel, status, sha256, units FROM documents")}
        texts = {doc_id: body for doc_id, body in conn.execute("SELECT doc_id, body FROM texts")}
        fps = {r[0]: r for r in conn.execute("SELECT doc_id, lsh, sentence_fps, anchors FROM fingerprints")}
        side: dict[str, dict[int, set[int]]] = {}
        for table, col in (("lsh_keys", "key"), ("anchors", "hash"), ("sentence_fps", "fp"), ("sentences", "hash")):
            by_doc: dict[int, set[int]] = {}
            for value, doc_id in conn.execute(f"SELECT {col}, doc_id FROM {table}"):
                by_doc.setdefault(doc_id, set()).add(value)
            side[table] = by_doc
        for table in ("texts", "fingerprints"):
            ids = texts if table == "texts" else fps
            orphans = set(ids) - set(rows)
            if orphans:
                problems.append(f"{table} rows of missing documents {sorted(orphans)[:5]}")
        for table, by_doc in side.items():
            orphans = set(by_doc) - set(rows)
            if orphans:
                problems.append(f"{table} rows of missing documents {sorted(orphans)[:5]}")
        # the template document frequencies move with the sentences rows, in the same transaction
        df = dict(conn.execute("SELECT hash, docs FROM sentence_df WHERE docs > 0"))
        counted = dict(conn.execute("SELECT hash, COUNT(*) FROM sentences GROUP BY hash"))
        if df != counted:
            problems.append(f"sentence_df differs from the sentences rows for {len(set(df.items()) ^ set(counted.items()))} keys")
        for doc_id, (_, rel, status, sha, units) in rows.items():
            if status == "skipped":
                if doc_id in texts or doc_id in fps or any(doc_id in s for s in side.values()):
                    problems.append(f"{rel}: skipped but has derived rows")
                continue
            if status != "indexed":
                problems.append(f"{rel}: status {status!r}")
                continue
            if len(sha) != 64:
                problems.append(f"{rel}: no sha256")
            if doc_id not in texts:
                problems.append(f"{rel}: indexed without text")
                continue
            if doc_id not in fps:
                problems.append(f"{rel}: indexed without fingerprints")
                continue
            _, lsh, sfps, anchors = fps[doc_id]
            expected = {
                "lsh_keys": _unique_signed(lsh),
                "anchors": _unique_signed(anchors),
                "sentence_fps": _unique_signed(sfps, drop_zero=True),
                "sentences": _sentences(zlib.decompress(texts[doc_id]).decode("utf-8"), sentence_keys, sentence_cache),
            }
            for table, want in expected.items():
                have = side[table].get(doc_id, set())
                if have != want:
                    problems.append(f"{rel}: {table} has {len(have)} rows, its fingerprints call for {len(want)}")
    finally:
        conn.close()
    return problems


def _sentences(text: str, sentence_keys, cache: dict[str, set[int]] | None) -> set[int]:
    if cache is None:
        return {k for _, k in sentence_keys(text)}
    if text not in cache:
        cache[text] = {k for _, k in sentence_keys(text)}
    return cache[text]


def integrity(db: Path) -> list[str]:
    """``PRAGMA integrity_check`` through plain sqlite3: ``["ok"]`` when sound."""
    conn = sqlite3.connect(db, timeout=30)
    try:
        return [r[0] for r in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


# --- child processes --------------------------------------------------------------------------


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTEST_CURRENT_TEST", None)
    return env


def cli(*args: str) -> list[str]:
    """The command line of ``neardup ARGS`` run by this interpreter."""
    return [sys.executable, "-m", "neardup_gui.cli", *args]


def start_group(argv: list[str], **kwargs) -> subprocess.Popen:
    """Start a child in a session (and process group) of its own: the processes it starts stay in
    it, so they can be told from others' and killed together."""
    return subprocess.Popen(argv, env=child_env(), start_new_session=True, **kwargs)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child and every process it started; reap the child."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(30)


def page_of(db: Path, name: str) -> tuple[int, int]:
    """(byte offset, page size) of the root page of table or index ``name``."""
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)  # leaves no -shm/-wal behind
    try:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    return (root - 1) * page_size, page_size


def files_of(db: Path) -> dict[str, bytes]:
    """The bytes of an index file and of any -wal/-shm beside it."""
    return {p.name: p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name)}
