"""The SQLite index file: schema, one transaction per document, refusal of files it must not touch."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from neardup_gui.core.store import SCHEMA_VERSION, ComparedText, IndexProblem, Store


def _write(store: Store, rel: str, text: str = "正文 text") -> int:
    with store.transaction() as conn:
        doc_id = store.write_document(conn, rel=rel, path="/c/" + rel, size=10, mtime_ns=5, sha256="ab" * 32,
                                      status="indexed", fmt="txt", units=3, meta={"encoding": "utf-8"})
        store.write_text(conn, doc_id, text, [(0, 2), (3, len(text))], [(0, 2)], "页眉")
        store.write_fingerprints(
            conn, doc_id, params_json="{}", simhash=2**64 - 1, minhash_words=np.array([1, 2**63], dtype=np.uint64),
            lsh_keys=np.array([7, 2**64 - 2], dtype=np.uint64), sentence_fps=np.array([0, 9], dtype=np.uint64),
            anchors=np.array([11, 12, 12], dtype=np.uint64), sentence_hashes=np.array([5], dtype=np.uint64),
        )
    return doc_id


def test_round_trip_of_a_document(tmp_path):
    db = tmp_path / "c.ndx"
    with Store(db) as store:
        doc_id = _write(store, "a.txt")
    with Store(db, create=False) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        [doc] = store.documents()
        assert (doc.id, doc.rel, doc.status, doc.meta) == (doc_id, "a.txt", "indexed", {"encoding": "utf-8"})
        stored = store.text(doc_id)
        assert stored.text == "正文 text" and stored.paragraphs == ((0, 2), (3, 7)) and stored.margins == "页眉"
        assert store.compared_text(doc_id) == ComparedText("正文 text", ((0, 2),), ())  # what a pass reads
        ids, sims, words = store.fingerprint_matrix()
        assert ids.tolist() == [doc_id] and sims.tolist() == [2**64 - 1]
        assert words.tolist() == [[1, 2**63]]
        assert store.lookup_counts("anchors", "hash", np.array([12, 11, 99], dtype=np.uint64)) == {doc_id: 2}
        assert store.lookup_counts("lsh_keys", "key", np.array([2**64 - 2], dtype=np.uint64)) == {doc_id: 1}
        assert store.integrity_check() == []


def test_replacing_a_document_removes_its_old_rows(tmp_path):
    with Store(tmp_path / "c.ndx") as store:
        first = _write(store, "a.txt")
        second = _write(store, "a.txt", "新的")
        assert first != second
        assert [d.id for d in store.documents()] == [second]
        assert store.conn.execute("SELECT COUNT(*) FROM anchors").fetchone()[0] == 2
        with pytest.raises(KeyError):
            store.text(first)


def test_failed_transaction_leaves_nothing_behind(tmp_path):
    with Store(tmp_path / "c.ndx") as store:
        with pytest.raises(RuntimeError):
            with store.transaction() as conn:
                store.write_document(conn, rel="x", path="/x", size=1, mtime_ns=1, sha256="", status="indexed")
                raise RuntimeError("crash in the middle")
        assert store.count() == 0


def test_refuses_a_file_that_is_not_sqlite_and_leaves_it_alone(tmp_path):
    db = tmp_path / "notes.ndx"
    db.write_bytes(b"my thesis draft, not an index" * 10)
    before = db.read_bytes()
    with pytest.raises(IndexProblem) as err:
        Store(db)
    assert err.value.kind == "not-an-index"
    assert db.read_bytes() == before


def test_refuses_a_newer_schema(tmp_path):
    db = tmp_path / "c.ndx"
    Store(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(IndexProblem) as err:
        Store(db)
    assert err.value.kind == "too-new" and "newer neardup" in str(err.value)


def test_refuses_another_programs_sqlite_file(tmp_path):
    db = tmp_path / "other.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    with pytest.raises(IndexProblem) as err:
        Store(db)
    assert err.value.kind == "not-an-index"


def test_truncated_file_is_detected(tmp_path):
    db = tmp_path / "c.ndx"
    with Store(db) as store:
        _write(store, "a.txt")
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()
    db.write_bytes(data[:60])
    with pytest.raises(IndexProblem) as err:
        Store(db)
    assert err.value.kind == "corrupt"


def test_damage_inside_a_text_blob_is_reported_as_a_damaged_index(tmp_path):
    """SQLite's checks cannot see inside the compressed text: reading it must still say "damaged"."""
    db = tmp_path / "c.ndx"
    with Store(db) as store:
        doc_id = _write(store, "a.txt")
        with store.transaction() as conn:
            conn.execute("UPDATE texts SET body = ? WHERE doc_id = ?", (b"\x78\x9c not zlib at all", doc_id))
    with Store(db, create=False) as store:
        with pytest.raises(IndexProblem) as err:
            store.text(doc_id)
        with pytest.raises(IndexProblem) as err_pass:
            store.compared_text(doc_id)
    assert err.value.kind == "corrupt" and "cannot be read" in str(err.value)
    assert err_pass.value.kind == "corrupt"


def _df_matches_sentences(store: Store) -> bool:
    kept = dict(store.conn.execute("SELECT hash, docs FROM sentence_df WHERE docs > 0"))
    counted = dict(store.conn.execute("SELECT hash, COUNT(*) FROM sentences GROUP BY hash"))
    return kept == counted


def test_sentence_document_frequencies_follow_writes_replacements_and_removals(tmp_path):
    with Store(tmp_path / "c.ndx") as store:
        ids = [_write(store, f"{n}.txt") for n in "abc"]  # each has sentence hash 5
        assert store.frequent_sentences(3).tolist() == [5]
        with store.transaction() as conn:
            store.write_fingerprints(conn, ids[0], params_json="{}", simhash=1, minhash_words=np.zeros(4, np.uint64),
                                     lsh_keys=np.zeros(0, np.uint64), sentence_fps=np.zeros(0, np.uint64),
                                     anchors=np.zeros(0, np.uint64), sentence_hashes=np.array([6, -7], dtype=np.int64))
        assert store.frequent_sentences(3).tolist() == [] and store.frequent_sentences(2).tolist() == [5]
        with store.transaction() as conn:
            store.remove(conn, ids[1])
        assert _df_matches_sentences(store)
        assert sorted(store.frequent_sentences(1).tolist()) == [-7, 5, 6]


def test_an_index_of_schema_1_is_migrated(tmp_path):
    import sqlite3

    db = tmp_path / "c.ndx"
    with Store(db) as store:
        _write(store, "a.txt")
        _write(store, "b.txt")
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE sentence_df")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with Store(db, create=False) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.frequent_sentences(2).tolist() == [5]
        assert _df_matches_sentences(store)


def test_a_wal_file_removed_while_the_index_opens_is_no_error(tmp_path, monkeypatch):
    """Another connection's close removes the WAL file: opening the index between the look and
    the size of that file raised FileNotFoundError (seen once in the app's duplicates task)."""
    import os
    from pathlib import Path

    db = tmp_path / "i.db"
    Store(db).close()
    wal = Path(f"{db}-wal")
    wal.write_bytes(b"")  # there when looked for
    real_stat, real_exists = Path.stat, Path.exists

    def exists(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        return True if self == wal else real_exists(self, *args, **kwargs)

    def stat(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if self == wal and os.path.isfile(wal):
            os.remove(wal)  # ... and gone when asked its size
        return real_stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "exists", exists)
    monkeypatch.setattr(Path, "stat", stat)
    with Store(db, create=False) as store:
        assert store.conn.execute("SELECT COUNT(*) FROM documents").fetchone() == (0,)


def test_opening_where_the_index_cannot_be_looked_at_still_fails_clearly(tmp_path):
    """Only a missing file counts as none: a path through a file is reported, never created."""
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises((IndexProblem, OSError)):
        Store(blocker / "i.db")


def test_the_documents_an_indexing_names_are_those_with_something_to_say(tmp_path):
    """documents.noted (what the end of an indexing run reports: the skipped, the warned, the
    flagged) is every document that Store.documents would give with one of these, in its order."""
    from neardup_gui.core.flags import Flag
    from neardup_gui.core.store import documents as doc_rows

    with Store(str(tmp_path / "n.db")) as store:
        with store.transaction() as conn:
            for i, (status, warnings, flags) in enumerate([
                    ("indexed", (), ()), ("skipped", (), ()), ("indexed", ("a table was left out",), ()),
                    ("indexed", (), (Flag("hidden", 3, ((0, 3),)),)), ("indexed", (), ()),
                    ("indexed", ("w",), (Flag("invisible", 1, ((4, 5),)),))]):
                store.write_document(conn, rel=f"{9 - i}.txt", path=f"/c/{9 - i}.txt", size=1, mtime_ns=1, sha256="",
                                     status=status, code="empty" if status == "skipped" else "",
                                     reason="no text" if status == "skipped" else "", warnings=warnings, flags=flags)
            # a row written by hand with an empty list spelt otherwise is read, and says nothing
            conn.execute("UPDATE documents SET warnings = '[ ]' WHERE rel = '9.txt'")
        every = store.documents()
        want = [d for d in every if d.status == "skipped" or d.warnings or d.flags]
        got = [d for d in doc_rows.noted(store) if d.status == "skipped" or d.warnings or d.flags]
        assert got == want and [d.rel for d in want] == ["4.txt", "6.txt", "7.txt", "8.txt"]


def test_empty_texts_spans_and_lists_are_stored_as_before():
    """The shortcuts for what most documents leave empty (margins, furniture, hidden spans,
    warnings, flags) store the bytes and text the general path stores."""
    import itertools
    import json
    import zlib

    from neardup_gui.core.flags import flags_to_json
    from neardup_gui.core.store import compress_text, pack_spans

    assert compress_text("") == zlib.compress(b"", 3) and zlib.decompress(compress_text("")) == b""
    assert pack_spans(()) == np.fromiter(itertools.chain.from_iterable(()), dtype="<i8", count=0).tobytes() == b""
    assert json.dumps([], ensure_ascii=False) == flags_to_json(()) == "[]"
