"""The grams table of schema 10: keyed by (doc_id, hash), looked up by hash in ``grams_hash``;
an index of schema 9 (keyed by (hash, doc_id), ``grams_doc``) is migrated by the next program to
open it, and a new index is filled with the look-up index made once at the end."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.copyheavy import build
from neardup_gui.core import indexer
from neardup_gui.core.collection import Collection
from neardup_gui.core.fingerprints import gram_kgrams
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import SCHEMA_VERSION, Store
from neardup_gui.core.units import tokenize

ROOT = Path(__file__).resolve().parents[3]
SETTINGS = Settings(threshold=0.8, auto_template=False, workers=2)

# another process opens the index (migrating it) and prints, for the k-grams of each document's
# text, how many each document shares in the grams table
LOOK_UP = """
import sys
from neardup_gui.core.fingerprints import gram_kgrams
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store
from neardup_gui.core.units import tokenize
params = Settings().fingerprints
with Store(sys.argv[1], create=False) as store:
    for doc_id, in store.conn.execute("SELECT id FROM documents ORDER BY rel").fetchall():
        keys = gram_kgrams(tokenize(store.compared_text(doc_id).text).ids, params)
        rel = lambda i: store.conn.execute("SELECT rel FROM documents WHERE id = ?", (i,)).fetchone()[0]
        print(rel(doc_id), sorted((rel(d), n) for d, n in store.lookup_counts("grams", "hash", keys).items()))
"""


def _look_up(db: Path) -> str:
    run = subprocess.run([sys.executable, "-c", LOOK_UP, str(db)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _first_file(folder: Path) -> Path:
    return sorted(p for p in folder.rglob("*") if p.is_file())[0]


def _index_of(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'grams' AND sql IS NOT NULL"))
    finally:
        conn.close()


def _as_schema_9(db: Path) -> None:
    """Rewrite an index's grams table as schema 9 wrote it."""
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE grams RENAME TO grams_new")
    conn.execute("DROP INDEX grams_hash")
    conn.execute("CREATE TABLE grams (hash INTEGER NOT NULL, doc_id INTEGER NOT NULL,"
                 " PRIMARY KEY (hash, doc_id)) WITHOUT ROWID")
    conn.execute("CREATE INDEX grams_doc ON grams (doc_id)")
    conn.execute("INSERT INTO grams (hash, doc_id) SELECT hash, doc_id FROM grams_new")
    conn.execute("DROP TABLE grams_new")
    conn.execute("PRAGMA user_version = 9")
    conn.commit()
    conn.close()


def test_a_schema_9_index_is_migrated_by_another_process_with_the_same_grams(tmp_path, corpus_dir) -> None:
    build(tmp_path / "docs", 30, seed=7, families=6)
    db = tmp_path / "i.db"
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    with Store(db, create=False) as store:
        rows = store.conn.execute("SELECT doc_id, hash FROM grams ORDER BY doc_id, hash").fetchall()
    assert len(rows) > 1000
    want = _look_up(db)
    assert "), (" in want  # documents share grams with others
    old = tmp_path / "old.db"
    shutil.copy(db, old)
    _as_schema_9(old)
    assert _index_of(old) == ["grams_doc"]
    assert _look_up(old) == want  # migrated by that process...
    conn = sqlite3.connect(old)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
    assert conn.execute("SELECT doc_id, hash FROM grams ORDER BY doc_id, hash").fetchall() == rows
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'grams_schema9'").fetchone()[0] == 0
    assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    conn.close()
    assert _index_of(old) == ["grams_hash"]
    # ...and read as it is by this one; a document removed takes its grams with it
    with Collection.open(old) as coll:
        _first_file(tmp_path / "docs").unlink()
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
        left = coll.store.conn.execute("SELECT COUNT(DISTINCT doc_id) FROM grams").fetchone()[0]
        assert left == 29 == coll.store.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]


def test_a_new_index_makes_the_grams_look_up_once_at_the_end(tmp_path, corpus_dir, monkeypatch) -> None:
    """While a new index is written its grams have no index by hash; it is made at the end, also
    when the writing fails, and any later writing keeps it (or makes it, when a writing that ended
    before it was made left it out)."""
    build(tmp_path / "docs", 12, seed=3, families=4)
    db = tmp_path / "i.db"
    seen: list[list[str]] = []
    real = indexer.write_indexed

    def watching(store, *args, **kwargs):  # noqa: ANN001, ANN202
        seen.append(sorted(r[0] for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'grams' AND sql IS NOT NULL")))
        return real(store, *args, **kwargs)

    monkeypatch.setattr(indexer, "write_indexed", watching)
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    assert seen and all(s == [] for s in seen)
    assert _index_of(db) == ["grams_hash"]

    # a writing into an index with grams keeps the look-up up to date
    seen.clear()
    (tmp_path / "docs" / "new.txt").write_text(
        _first_file(tmp_path / "docs").read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    with Collection.open(db) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    assert seen == [["grams_hash"]]
    with Store(db, create=False) as store:
        plan = " ".join(r[-1] for r in store.conn.execute(
            "EXPLAIN QUERY PLAN SELECT doc_id, COUNT(*) FROM grams WHERE hash IN (1, 2, 3) GROUP BY doc_id"))
        assert "grams_hash" in plan
        text = store.compared_text(store.conn.execute("SELECT id FROM documents WHERE rel = 'new.txt'").fetchone()[0]).text
        keys = gram_kgrams(tokenize(text).ids, Settings().fingerprints)
        assert len(store.lookup_counts("grams", "hash", keys)) >= 2  # itself and its source

    # a writing that fails half-way still leaves the look-up made
    failing = tmp_path / "failing.db"

    def failing_write(store, *args, **kwargs):  # noqa: ANN001, ANN202
        if len(seen) >= 3:
            raise OSError("disk full")
        seen.append([])
        return real(store, *args, **kwargs)

    seen.clear()
    monkeypatch.setattr(indexer, "write_indexed", failing_write)
    with Collection.open(failing) as coll:
        with pytest.raises(OSError, match="disk full"):
            coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    assert _index_of(failing) == ["grams_hash"]

    monkeypatch.setattr(indexer, "write_indexed", real)
    with Collection.open(failing) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    with Store(failing, create=False) as a, Store(db, create=False) as b:
        grams = "SELECT hash FROM grams ORDER BY hash"
        assert a.conn.execute(grams).fetchall() == b.conn.execute(grams).fetchall()

    # one that ended before it was made (the process was killed): the next writing makes it
    conn = sqlite3.connect(failing)
    conn.execute("DROP INDEX grams_hash")
    conn.commit()
    conn.close()
    (tmp_path / "docs" / "other.txt").write_text("A few words of a file written later, to index.\n", encoding="utf-8")
    with Collection.open(failing) as coll:
        coll.index_folder(str(tmp_path / "docs"), SETTINGS)
    assert _index_of(failing) == ["grams_hash"]
